"""The mixed load test in quick mode: 20 people for 20 s on the real app, every invariant holding.

It runs on two workers with PostgreSQL and Redis when TEST_DATABASE_URL and TEST_REDIS_URL are set
(as CI sets them), otherwise on one process with SQLite. No timing is asserted: only that nothing
failed, no message was lost, nothing was duplicated, and every kind of action happened.
"""

import pytest

from bench import load_mixed

# One page load or handler of each thing a visitor, a freelancer and a company do.
EVERY_KIND = (
    "connect",
    "jobs_list",
    "jobs_page",
    "jobs_search",
    "jobs_category",
    "jobs_city",
    "job_detail",
    "jobs_company",
    "fl_search",
    "apply",
    "co_jobs",
    "co_applicants",
    "accept",
    "chat_open",
    "chat_send",
)


@pytest.fixture
def quick_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick-mode sizes, whatever the caller's BENCH_* variables say."""
    monkeypatch.setenv("BENCH_QUICK", "1")
    for name in ("BENCH_USERS", "BENCH_DURATION", "BENCH_THINK", "BENCH_SAMPLE", "BENCH_FILLER_JOBS"):
        monkeypatch.delenv(name, raising=False)


def test_quick_mixed_load_keeps_every_invariant(quick_env: None) -> None:
    report = load_mixed.run()

    assert report.failures == []
    assert report.disconnects == 0
    assert report.checks["no failed events"]
    assert report.messages["confirmed to the sender"] > 0
    assert report.checks["no lost messages"], report.messages
    assert report.undelivered == []
    assert report.checks["no duplicated applications or chats"], report.duplicates
    assert report.checks["no tracebacks in the server log"], report.server_tracebacks
    assert report.memory["samples"] >= 2
    missing = [kind for kind in EVERY_KIND if not report.actions.get(kind, {}).get("ok")]
    assert missing == []
