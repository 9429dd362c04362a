"""The job search, chat delivery and fan-out benchmarks run end to end in quick mode.

Each must finish and print one row per scenario and engine/mode with measured numbers; how
fast is for docs/performance.md, never asserted here.
"""

from bench import harness
from tests.bench.conftest import numbers, run_quick

ENGINES = 2 if harness.postgres_url() else 1
MODES = 2 if harness.postgres_url() and harness.redis_url() else 1


def test_job_search_times_every_scenario_on_every_engine():
    rows = run_quick("bench.job_search")

    assert len(rows) == 6 * ENGINES
    for row in rows:
        handler = numbers(row[5])
        assert len(handler) == 3 and all(value > 0 for value in handler), row


def test_chat_delivery_measures_every_message_in_every_mode():
    rows = run_quick("bench.chat_delivery")

    assert len(rows) == 2 * MODES  # two patterns (paced, burst) per mode, one size
    for row in rows:
        assert numbers(row[3]) == [8.0], row  # 2 conversations x 4 messages, all delivered
        assert all(value > 0 for value in numbers(row[5])), row


def test_fanout_reaches_every_connected_freelancer():
    rows = run_quick("bench.fanout")

    assert len(rows) == MODES
    for row in rows:
        assert numbers(row[1]) == [10.0], row
        assert len(numbers(row[3])) == 3, row
