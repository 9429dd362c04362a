"""bench/event_roundtrip.py in quick mode: it runs end to end against every target, with no errors.

No timing thresholds here: the figures depend on the machine; the benchmark prints its goals.
"""

from tests.bench.support import run_quick

SCRIPT = """
import json
from bench import event_roundtrip

rows = event_roundtrip.main()
print("RESULT " + json.dumps([
    {"mode": r.mode, "target": r.target, "sent": r.outcome.sent, "errors": dict(r.outcome.errors),
     "samples": len(r.outcome.all()), "applied": r.outcome.applied,
     "checked_in": r.outcome.checked_in}
    for r in rows
]))
"""


def test_quick_event_roundtrip_completes_without_errors():
    rows = run_quick(SCRIPT)

    assert {row["target"] for row in rows} == {"bare socketio echo", "blank Reflex app", "Turno"}
    for row in rows:
        assert row["errors"] == {} or set(row["errors"].values()) == {0}, row
        assert row["sent"] > 0, row
        assert row["samples"] == row["sent"], row
    turno = [row for row in rows if row["target"] == "Turno"]
    assert all(row["applied"] > 0 for row in turno), turno  # applies went through and their rows were counted
    assert all(row["checked_in"] > 0 for row in turno), turno  # so did check-ins by code (rows counted too)
