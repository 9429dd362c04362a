"""bench/reminder_burst.py in quick mode: the burst is sent and pushed once, in every mode, while the users' events succeed.

Whether the users' p95 held during the burst is the benchmark's figure (docs/performance.md),
never asserted here: it depends on the machine.
"""

from bench import harness
from tests.bench.support import run_quick

SCRIPT = """
import json
from bench import reminder_burst

results = reminder_burst.main()
print("RESULT " + json.dumps([
    {"mode": r.mode, "claimed": r.burst.claimed, "notices": r.burst.notices, "emails": r.burst.emails,
     "pushed": r.burst.pushed,
     "armed": r.burst.armed_at, "done": r.burst.done_at, "before": len(r.before), "during": len(r.during),
     "errors": dict(r.outcome.errors), "sent": r.outcome.sent, "samples": len(r.outcome.stamps)}
    for r in results
]))
"""
REMINDERS = 50  # the quick size
MODES = 2 if harness.postgres_url() and harness.redis_url() else 1


def test_quick_reminder_burst_sends_each_reminder_once_while_users_are_answered():
    results = run_quick(SCRIPT)

    assert len(results) == MODES
    for result in results:
        assert result["claimed"] == result["notices"] == result["emails"] == result["pushed"] == REMINDERS, result
        assert result["done"] > result["armed"] > 0, result
        assert result["before"] > 0 and result["during"] > 0, result  # events on both sides of the burst
        assert not any(result["errors"].values()), result
        assert result["samples"] == result["sent"], result
