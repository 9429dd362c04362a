"""Page arithmetic shared by every list a user sees: each one is read one bounded page at a time.

Two shapes: numbered pages (`Page`, with the total, for lists behind the pager of
components/pager.py) and slices for 'Carregar mais' (`Slice`: the rows and whether more follow,
found by reading one row beyond the page, so no count is needed).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypedDict, TypeVar

DASHBOARD_PAGE_SIZE = 20
"""Rows per page of the dashboards' lists and the conversation lists."""

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a numbered list.

    Attributes:
        items: The rows of this page.
        total: How many rows the whole list has.
        page: The page shown (clamped to 1..pages).
        pages: How many pages there are (at least 1).
    """

    items: list[T] = field(default_factory=list)
    total: int = 0
    page: int = 1
    pages: int = 1


@dataclass(frozen=True)
class Slice(Generic[T]):
    """Rows of a 'Carregar mais' list and whether more follow them."""

    items: list[T] = field(default_factory=list)
    has_more: bool = False


def clamp(page: object, total: int, size: int) -> tuple[int, int]:
    """The page to show and the number of pages for `total` rows in pages of `size`.

    Args:
        page: The page asked for (any value; anything but a positive int means the first).
        total: How many rows the list has.
        size: Rows per page.

    Returns:
        (page, pages), the page clamped to 1..pages.
    """
    pages = max(1, math.ceil(total / size))
    wanted = page if isinstance(page, int) and not isinstance(page, bool) else 1
    return min(max(1, wanted), pages), pages


def offset(page: int, size: int) -> int:
    """The number of rows before `page`."""
    return (page - 1) * size


def split(rows: list[T], size: int) -> Slice[T]:
    """A 'Carregar mais' slice from `size + 1` rows read: the first `size` and whether there was one more."""
    return Slice(items=list(rows[:size]), has_more=len(rows) > size)


MAX_PAGE_NUMBERS = 5


class PagerLink(TypedDict):
    """One item of the pager: a page number link or an ellipsis (empty href)."""

    label: str
    href: str
    current: bool


def page_numbers(page: int, pages: int) -> list[int | None]:
    """The page numbers to show, with None where an ellipsis goes.

    At most five numbers: every page when there are five or fewer; otherwise the first and the
    last page always, and the pages around the current one.

    Args:
        page: The current page (1-based).
        pages: How many pages there are.

    Returns:
        E.g. [1, None, 4, 5, 6, None, 10] for page 5 of 10.
    """
    if pages <= MAX_PAGE_NUMBERS:
        return list(range(1, pages + 1))
    if page <= 3:
        return [1, 2, 3, 4, None, pages]
    if page >= pages - 2:
        return [1, None, pages - 3, pages - 2, pages - 1, pages]
    return [1, None, page - 1, page, page + 1, None, pages]


def pager_links(page: int, pages: int, href_for: Callable[[int], str]) -> list[PagerLink]:
    """The pager's items as links built by `href_for(page_number)`.

    Args:
        page: The current page.
        pages: How many pages there are.
        href_for: Builds the URL of a page.

    Returns:
        The items; empty when there is only one page (the pager is then hidden).
    """
    if pages <= 1:
        return []
    return [
        PagerLink(label=str(number), href=href_for(number), current=number == page)
        if number is not None
        else PagerLink(label="…", href="", current=False)
        for number in page_numbers(page, pages)
    ]


class PagerFields(TypedDict):
    """What a state keeps for one pager: the page links and the Anterior / Próxima URLs ('' when none)."""

    links: list[PagerLink]
    prev_href: str
    next_href: str


def pager_fields(page: int, pages: int, href_for: Callable[[int], str]) -> PagerFields:
    """The links of `pager` for page `page` of `pages`, every URL built by `href_for(page_number)`."""
    return PagerFields(
        links=pager_links(page, pages, href_for),
        prev_href=href_for(page - 1) if page > 1 else "",
        next_href=href_for(page + 1) if page < pages else "",
    )
