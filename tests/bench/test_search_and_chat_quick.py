"""The job search, chat delivery and fan-out benchmarks run end to end in quick mode.

Each must finish and measure every scenario on every engine/mode configured; how fast is for
docs/performance.md, never asserted here.
"""

from bench import harness
from tests.bench.support import run_quick

ENGINES = 2 if harness.postgres_url() else 1
MODES = 2 if harness.postgres_url() and harness.redis_url() else 1

SEARCH = """
import json
from bench import job_search

rows = job_search.run()
print("RESULT " + json.dumps([[r.engine, r.scenario, r.bare, r.handler] for r in rows]))
"""
CHAT = """
import json
from bench import chat_delivery

print("RESULT " + json.dumps(chat_delivery.run()))
"""
FANOUT = """
import json
from bench import fanout

print("RESULT " + json.dumps(fanout.run()))
"""


def test_job_search_times_every_scenario_on_every_engine():
    rows = run_quick(SEARCH)

    assert len(rows) == 6 * ENGINES
    for _engine, _scenario, bare, handler in rows:
        assert len(bare) == len(handler) == 5
        assert all(ms > 0 for ms in bare + handler)


def test_chat_delivery_measures_every_message_in_every_mode():
    rows = run_quick(CHAT)

    assert len(rows) == 2 * MODES  # two patterns (paced, burst) per mode, one size
    for _mode, conversations, _pattern, messages, _relay, _app, ratio in rows:
        assert (conversations, messages) == (2, 8)  # 2 conversations x 4 messages, every one delivered
        assert ratio > 0


def test_fanout_reaches_every_connected_freelancer():
    rows = run_quick(FANOUT)

    assert len(rows) == MODES
    for _mode, receivers, baseline, samples in rows:
        assert receivers == 10
        assert len(baseline) == len(samples) == 10
