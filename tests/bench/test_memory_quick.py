"""bench/memory.py in quick mode: every tab opens, and it measures RSS, state sizes and frames.

No memory thresholds here: the figures depend on the machine; the benchmark prints its goals.
"""

from tests.bench.support import run_quick

SCRIPT = """
import json
from bench import memory

results = memory.main()
print("RESULT " + json.dumps({
    "rss": [{"target": r.target, "rss_kb": r.rss_kb, "failures": r.failures} for r in results.rss],
    "states": [{"page": s.page, "total": sum(s.sizes.values()), "errors": s.errors} for s in results.states],
    "frames": [size for size, _label in results.frames.deltas],
    "hydrate": results.frames.hydrate,
}))
"""


def test_quick_memory_completes_with_numbers():
    result = run_quick(SCRIPT)

    assert [r["target"] for r in result["rss"]] == ["bare socketio echo", "blank Reflex app", "Turno"]
    for rss in result["rss"]:
        assert rss["failures"] == 0, rss
        assert sorted(int(level) for level in rss["rss_kb"]) == [0, 20, 50], rss
        assert all(kb > 0 for kb in rss["rss_kb"].values()), rss
    assert len(result["states"]) == 4
    for state in result["states"]:
        assert state["total"] > 0 and state["errors"] == [], state
    assert len(result["frames"]) > 10 and all(size > 0 for size in result["frames"])
    assert len(result["hydrate"]) == 2
