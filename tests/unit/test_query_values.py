"""core/text.py: reading search text and page numbers from URL queries and forms."""

import pytest

from core.text import clipped, positive_int


def test_clipped_strips_and_caps_text_and_refuses_other_types():
    assert clipped("  garçom  ", 100) == "garçom"
    assert clipped("x" * 50, 10) == "x" * 10
    assert clipped(["garçom"], 10) == ""
    assert clipped(None, 10) == ""


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3), (" 7 ", 7), ("0", 1), ("-2", 1), ("2.5", 1), ("٣", 1), ("1" * 13, 1), (None, 1), (3, 1)],
)
def test_positive_int_reads_a_page_number_or_falls_back(value, expected):
    assert positive_int(value, 1) == expected
