"""Counted nouns in Portuguese (core.formatting.counted): the publish form's 'Sua equipe (1 profissional)'
and the plans' team sizes say '1 profissional', '3 profissionais' (zero is plural)."""

import pytest

from core.formatting import PROFESSIONAL, counted


@pytest.mark.parametrize(
    ("count", "text"),
    [(0, "0 profissionais"), (1, "1 profissional"), (2, "2 profissionais"), (100, "100 profissionais")],
)
def test_the_noun_agrees_with_the_count(count: int, text: str) -> None:
    assert counted(count, *PROFESSIONAL) == text


def test_other_nouns_take_their_own_plural() -> None:
    assert [counted(n, "turno", "turnos") for n in (1, 5)] == ["1 turno", "5 turnos"]
