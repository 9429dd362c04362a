"""The mixed load test in quick mode: 20 people for 20 s on the real app, every invariant holding.

It runs on two workers with PostgreSQL and Redis when TEST_DATABASE_URL and TEST_REDIS_URL are set
(as CI sets them), otherwise on one process with SQLite. No timing is asserted: only that nothing
failed, no message was lost, nothing was duplicated, and every kind of action happened.
"""

import pytest

from bench import load_mixed, load_users
from bench.wsclient import error_text

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
    assert report.messages["sent"] > 0
    assert report.checks["no lost messages"], report.messages
    assert report.checks["no duplicated applications or chats"], report.duplicates
    assert report.checks["no tracebacks in the server log"], report.server_tracebacks
    assert report.memory["samples"] >= 2
    missing = [kind for kind in EVERY_KIND if not report.actions.get(kind, {}).get("ok")]
    assert missing == []


def test_state_names_match_the_app() -> None:
    """The load client addresses handlers by full state name; a renamed state must fail here, clearly."""
    from app.pages.chats import ChatRoomState
    from app.pages.company_jobs import CompanyJobsState
    from app.pages.freelancer_dashboard import FreelancerDashboardState
    from app.pages.job_detail import JobDetailState
    from app.pages.jobs import JobsState
    from states.apply import ApplyState

    assert JobsState.get_full_name() == load_users.JOBS
    assert JobDetailState.get_full_name() == load_users.DETAIL
    assert ApplyState.get_full_name() == load_users.APPLY
    assert FreelancerDashboardState.get_full_name() == load_users.FREELANCER_DASHBOARD
    assert CompanyJobsState.get_full_name() == load_users.COMPANY_JOBS
    assert ChatRoomState.get_full_name() == load_users.ROOM


def test_error_toasts_are_told_from_other_events() -> None:
    """The frontend events the server sends for an error toast, a success toast and a redirect."""
    error = {"name": "_call_function", "payload": {"function": '(() => (refs[\'__toast\']?.["error"]("Erro")))'}}
    success = {"name": "_call_function", "payload": {"function": '(() => (refs[\'__toast\']?.["success"]("Ok")))'}}
    redirect = {"name": "_redirect", "payload": {"path": "/jobs"}}

    assert error_text(error) is not None
    assert error_text(success) is None
    assert error_text(redirect) is None
    escaped = "Esta vaga n\\u00e3o est\\u00e1 mais dispon\\u00edvel para candidaturas."
    assert load_users.is_refusal(
        f'refs["__toast"]?.["error"]("Erro ao enviar candidatura", {{"description": "{escaped}"}})'
    )
    assert not load_users.is_refusal('refs["__toast"]?.["error"]("Erro", {"description": "Chat n\\u00e3o encontrado"})')


def test_memory_growth_is_flagged_only_on_a_steady_rise() -> None:
    flat = [(t * 10.0, 400_000 + (t % 2) * 3_000) for t in range(60)]
    rising = [(t * 10.0, 400_000 + t * 2_000) for t in range(60)]

    assert not load_mixed._memory(flat, 600)["growing"]
    assert load_mixed._memory(rising, 600)["growing"]
    assert not load_mixed._memory(rising[:3], 20)["judged"]
