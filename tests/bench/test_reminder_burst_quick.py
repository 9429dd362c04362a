"""bench/reminder_burst.py in quick mode: each burst is sent and pushed once, in every mode, while the users' events succeed.

Whether the users' p95 held during the bursts is the benchmark's figure (docs/performance.md),
never asserted here: it depends on the machine.
"""

from bench import harness
from tests.bench.support import run_quick

SCRIPT = """
import contextlib, io, json, os, tempfile
os.environ["BENCH_TRACE"] = os.path.join(tempfile.mkdtemp(), "trace")  # read when the module loads
from bench import burst_trace, reminder_burst

results = reminder_burst.main()


def traced(engine):
    samples = reminder_burst.trace_path(engine)
    report = io.StringIO()
    with contextlib.redirect_stdout(report):
        burst_trace.read(samples)
    lines = samples.read_text().splitlines()
    return {"samples": len(lines), "postgres": any(json.loads(line)["pg"] for line in lines),
            "headers": report.getvalue().count("## burst ")}


print("RESULT " + json.dumps([
    {"mode": r.mode, "notices": r.notices, "emails": r.emails,
     "bursts": [{"claimed": b.claimed, "pushed": b.pushed, "armed": b.armed_at, "done": b.done_at} for b in r.bursts],
     "quiet": [len(window) for window in r.quiet], "during": [len(window) for window in r.during],
     "errors": dict(r.outcome.errors), "sent": r.outcome.sent, "samples": len(r.outcome.stamps),
     "warnings": r.warnings, "kinds": {kind: [len(q), len(d)] for kind, (q, d) in r.kinds.items()},
     "trace": traced("postgresql" if "PostgreSQL" in r.mode else "sqlite")}
    for r in results
]))
"""
REMINDERS = 50  # the quick size
BURSTS = 2  # the quick count: the second burst proves the reminders are made due again
MODES = 2 if harness.postgres_url() and harness.redis_url() else 1


def test_quick_reminder_bursts_send_each_reminder_once_per_burst_while_users_are_answered():
    results = run_quick(SCRIPT)

    assert len(results) == MODES
    for result in results:
        assert result["notices"] == result["emails"] == BURSTS * REMINDERS, result
        assert [(b["claimed"], b["pushed"]) for b in result["bursts"]] == [(REMINDERS, REMINDERS)] * BURSTS, result
        first, second = result["bursts"]
        assert 0 < first["armed"] < first["done"] < second["armed"] < second["done"], result
        assert all(result["quiet"]) and all(result["during"]), result  # events in every window on both sides
        assert not any(result["errors"].values()), result
        assert result["samples"] == result["sent"], result
        per_kind = result["kinds"].values()  # every windowed event is counted under its kind once
        assert sum(q for q, _ in per_kind) == sum(result["quiet"]) and sum(d for _, d in per_kind) == sum(
            result["during"]
        )
        trace = result["trace"]  # BENCH_TRACE: the machine sampled throughout, each burst reported
        assert trace["samples"] > 5 * BURSTS and trace["headers"] == BURSTS, result
        assert trace["postgres"] == ("PostgreSQL" in result["mode"]), result
