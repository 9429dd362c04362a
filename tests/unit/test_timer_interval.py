"""app/timer.py's interval: TURNO_TICK_SECONDS when it makes sense, the rule's 30 s otherwise."""

import pytest

from app import timer
from core import shift_rules


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", 1.0),
        ("0.5", 0.5),
        ("", float(shift_rules.TICK_SECONDS)),
        ("0", float(shift_rules.TICK_SECONDS)),
        ("-3", float(shift_rules.TICK_SECONDS)),
        ("inf", float(shift_rules.TICK_SECONDS)),
        ("nan", float(shift_rules.TICK_SECONDS)),
        ("trinta", float(shift_rules.TICK_SECONDS)),
    ],
)
def test_interval_reads_turno_tick_seconds(monkeypatch, value, expected):
    monkeypatch.setenv("TURNO_TICK_SECONDS", value)

    assert timer.interval() == expected


def test_interval_without_the_variable_is_the_rule(monkeypatch):
    monkeypatch.delenv("TURNO_TICK_SECONDS", raising=False)

    assert timer.interval() == shift_rules.TICK_SECONDS == 30
