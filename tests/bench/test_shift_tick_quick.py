"""The shift timer benchmark runs end to end in quick mode and its tick is correct on every engine.

2,000 hirings, 1 % due: the tick moves exactly the due rows (the bare UPDATE of the same rows
first, then undone), writes one event per moved hiring and notifies both sides, a second tick
moves nothing, and the reminder burst sends one reminder per hiring. How fast is for
docs/performance.md, never asserted here.
"""

import pytest

from bench import harness
from tests.bench.support import run_quick

ENGINES = ["SQLite", "PostgreSQL"] if harness.postgres_url() else ["SQLite"]

SHIFT_TICK = """
from bench import shift_tick

shift_tick.main()
"""


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    """One quick run of the benchmark (both engines when PostgreSQL is configured), shared by the tests."""
    return run_quick(SHIFT_TICK)


def test_shift_tick_moves_exactly_the_due_hirings_once_on_every_engine(rows):
    assert [row["engine"] for row in rows] == ENGINES
    for row in rows:
        assert (row["hirings"], row["due"]) == (2000, 20)
        assert row["moved"] == row["due"]  # exactly the due rows
        assert row["events"] == row["event_hirings"] == row["due"]  # one event per moved hiring
        assert row["notices"] == row["outbox"] == 2 * row["due"]  # the company and the freelancer, each e-mailed
        assert row["second_moved"] == 0  # idempotent
        assert row["tick_s"] > 0 and row["bare_s"] > 0


def test_shift_tick_reminder_burst_reaches_every_freelancer_once(rows):
    for row in rows:
        assert row["reminders"] == row["reminded"] == 50
        assert row["remind_notices"] == row["remind_outbox"] == 50
        assert row["remind_s"] > 0 and row["remind_bare_s"] > 0
