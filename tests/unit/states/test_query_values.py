"""core/text.py: reading search text and page numbers from URL queries and forms."""

import pytest

from core.text import clipped, positive_int
from states.shell import ShellState
from tests.support.state_harness import run, state_for


def test_clipped_strips_and_caps_text_and_refuses_other_types():
    assert clipped("  garçom  ", 100) == "garçom"
    assert clipped("x" * 50, 10) == "x" * 10
    assert clipped(["garçom"], 10) == ""
    assert clipped(None, 10) == ""


def test_clipped_drops_control_characters_and_lone_surrogates():
    """Found by tests/unit/common/test_fuzz_forms.py: a search for '\\ud800' failed to build the /jobs URL."""
    assert clipped("\ud800 gar\x00çom\x1b\udfff ", 100) == "garçom"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3), (" 7 ", 7), ("0", 1), ("-2", 1), ("2.5", 1), ("٣", 1), ("1" * 13, 1), (None, 1), (3, 1)],
)
def test_positive_int_reads_a_page_number_or_falls_back(value, expected):
    assert positive_int(value, 1) == expected


def test_the_header_search_of_a_lone_surrogate_goes_nowhere_instead_of_failing():
    """Found by tests/unit/common/test_fuzz_forms.py: ShellState.search raised UnicodeEncodeError ('Erro inesperado')."""
    state = state_for(ShellState, "", "/")

    assert run(state, ShellState.search, {"search": "\ud800"}) == []
    [redirect] = run(state, ShellState.search, {"search": "gar\udfffçom"})
    assert redirect.args[0][1]._var_value == "/jobs?search=gar%C3%A7om"
