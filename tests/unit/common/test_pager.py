"""The pager: at most five page numbers, ellipses, hidden for a single page."""

from services.common.paging import page_numbers, pager_links


def test_every_page_when_five_or_fewer():
    assert page_numbers(1, 1) == [1]
    assert page_numbers(3, 5) == [1, 2, 3, 4, 5]


def test_ellipsis_and_at_most_five_numbers_when_more_than_five_pages():
    assert page_numbers(1, 10) == [1, 2, 3, 4, None, 10]
    assert page_numbers(3, 10) == [1, 2, 3, 4, None, 10]
    assert page_numbers(5, 10) == [1, None, 4, 5, 6, None, 10]
    assert page_numbers(8, 10) == [1, None, 7, 8, 9, 10]
    assert page_numbers(10, 10) == [1, None, 7, 8, 9, 10]
    for page in range(1, 31):
        numbers = [number for number in page_numbers(page, 30) if number is not None]
        assert len(numbers) <= 5
        assert page in numbers
        assert numbers == sorted(numbers)


def test_links_mark_the_current_page_and_hide_for_one_page():
    links = pager_links(2, 7, lambda number: f"/jobs?page={number}")

    assert [link["label"] for link in links] == ["1", "2", "3", "4", "…", "7"]
    assert [link["current"] for link in links] == [False, True, False, False, False, False]
    assert links[0]["href"] == "/jobs?page=1"
    assert links[4]["href"] == ""
    assert pager_links(1, 1, str) == []
