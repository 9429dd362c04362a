"""core/ids.py: which ids from browsers are accepted."""

import pytest

from core.ids import MAX_ID, id_from_text, valid_id
from core.routes import job_id_from_path


@pytest.mark.parametrize("value", [1, 42, MAX_ID])
def test_positive_ints_in_range_are_ids(value):
    assert valid_id(value) == value
    assert id_from_text(str(value)) == value


@pytest.mark.parametrize("value", [0, -1, MAX_ID + 1, True, False, 1.0, "1", None, [1], {"id": 1}])
def test_anything_else_is_not_an_id(value):
    assert valid_id(value) is None


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "-1",
        "+1",
        "1e3",
        "١٢",
        "１２",
        " 1",
        "1 ",
        "1\n",
        "1_000",
        "0x10",
        str(MAX_ID + 1),
        "99999999999",
        str(10**30),
        "",
    ],
)
def test_text_that_is_not_an_id_in_range(text):
    assert id_from_text(text) is None


def test_job_pages_read_their_id_from_the_path():
    assert job_id_from_path("/jobs/17") == 17
    assert job_id_from_path("/jobs/99999999999") is None
    assert job_id_from_path("/jobs/abc") is None
