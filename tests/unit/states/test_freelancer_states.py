"""The freelancer's handlers as a browser calls them: apply (detail page and dashboard dialog), withdraw, search.

Identity comes from a real session cookie (tests/support/state_harness.py); every refusal is checked
to leave the database as it was.
"""

from decimal import Decimal
from urllib.parse import urlencode

import pytest
from sqlmodel import select

from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from app.pages.jobs import JobsState
from models import Application, Job, JobStatus
from services.shifts import applications
from states.apply import SENT, SIGN_IN_FIRST, ApplyState
from tests.support.factories import (
    MISSING_ID,
    make_application,
    make_company,
    make_freelancer,
    make_job,
    snapshot,
    unusable_ids,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts

ALREADY = f"error: Erro ao enviar candidatura | {applications.ALREADY_APPLIED}"
UNAVAILABLE = f"error: Erro ao enviar candidatura | {applications.JOB_UNAVAILABLE}"
FORM = {"valor_proposto": "30,00", "mensagem": "Tenho 5 anos de experiência em eventos."}


def detail_state(db, user, job_id) -> ApplyState:
    """ApplyState on /jobs/{job_id} after the page's load, for `user` (None: a visitor)."""
    state = state_for(ApplyState, cookie_for(db, user), f"/jobs/{job_id}")
    run(state, ApplyState.load_for_job)
    return state


def dashboard_state(db, user, **query) -> FreelancerDashboardState:
    """The freelancer dashboard's state at ?query (not loaded yet)."""
    path = "/freelancer-dashboard" + (f"?{urlencode(query)}" if query else "")
    return state_for(FreelancerDashboardState, cookie_for(db, user), path)


def rows(db) -> list[Application]:
    db.expire_all()
    return db.exec(select(Application)).all()


@pytest.fixture
def cast(db):
    company = make_company(db)
    freelancer = make_freelancer(db)
    job = make_job(db, company, "Garçom para casamento")
    db.commit()
    return company, freelancer, job


# --- apply -----------------------------------------------------------------------------------------


def test_apply_from_detail_page_creates_the_application(db, cast):
    _, freelancer, job = cast
    state = detail_state(db, freelancer, job.id)
    assert state.apply_job_id == job.id and state.apply_status == ""

    events = run(state, ApplyState.submit_application, FORM)

    assert toasts(events) == [f"success: {SENT}"]
    [application] = rows(db)
    assert (application.vaga_id, application.freelancer_id) == (job.id, freelancer.id)
    assert application.valor_proposto == Decimal("30.00")
    assert application.mensagem == FORM["mensagem"]
    assert state.apply_status == "pending" and not state.apply_submitting


def test_apply_from_a_job_page_whose_state_expired_applies_to_the_job_of_the_url(db, cast):
    """A page left open past the state expiry still shows the form; its submit gets a fresh state."""
    _, freelancer, job = cast
    state = state_for(ApplyState, cookie_for(db, freelancer), f"/jobs/{job.id}")

    events = run(state, ApplyState.submit_application, FORM)

    assert toasts(events) == [f"success: {SENT}"]
    assert [(a.vaga_id, a.freelancer_id) for a in rows(db)] == [(job.id, freelancer.id)]
    assert state.apply_status == "pending"


def test_a_fresh_dashboard_state_does_not_guess_the_job(db, cast):
    _, freelancer, _ = cast
    state = dashboard_state(db, freelancer, tab="jobs")

    assert toasts(run(state, ApplyState.submit_application, FORM)) == [UNAVAILABLE]
    assert rows(db) == []


def test_reload_after_applying_shows_the_status(db, cast):
    _, freelancer, job = cast
    make_application(db, job, freelancer, status="accepted")
    db.commit()
    assert detail_state(db, freelancer, job.id).apply_status == "accepted"


def test_invalid_amount_is_shown_under_the_field(db, cast):
    _, freelancer, job = cast
    state = detail_state(db, freelancer, job.id)

    events = run(state, ApplyState.submit_application, {"valor_proposto": "trinta", "mensagem": ""})

    assert toasts(events) == []
    assert state.apply_errors["valor_proposto"] == "Informe um valor por hora válido."
    assert state.apply_status == "" and not state.apply_submitting
    assert rows(db) == []


def test_applying_twice_says_so(db, cast):
    _, freelancer, job = cast
    run(detail_state(db, freelancer, job.id), ApplyState.submit_application, FORM)

    stale = state_for(ApplyState, cookie_for(db, freelancer), f"/jobs/{job.id}")
    stale.apply_job_id = job.id  # e.g. a second tab opened before the first applied
    events = run(stale, ApplyState.submit_application, FORM)

    assert toasts(events) == [ALREADY]
    assert stale.apply_status == "pending"
    assert len(rows(db)) == 1


@pytest.mark.parametrize("who", ["company", "visitor"])
def test_only_signed_in_freelancers_can_apply(db, cast, who):
    company, _, job = cast
    user = company if who == "company" else None
    state = state_for(ApplyState, cookie_for(db, user), f"/jobs/{job.id}")
    run(state, ApplyState.load_for_job)

    events = run(state, ApplyState.submit_application, FORM)

    expected = applications.ONLY_FREELANCERS if who == "company" else SIGN_IN_FIRST
    assert toasts(events) == [f"error: Erro ao enviar candidatura | {expected}"]
    assert rows(db) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"status": JobStatus.CLOSED},
        {"status": JobStatus.IN_PROGRESS},
        {"status": JobStatus.ARCHIVED, "is_archived": True},
    ],
)
def test_a_job_that_is_not_open_is_refused(db, cast, changes):
    _, freelancer, job = cast
    state = detail_state(db, freelancer, job.id)
    stored = db.get(Job, job.id)
    for key, value in changes.items():
        setattr(stored, key, value)
    db.add(stored)
    db.commit()

    assert toasts(run(state, ApplyState.submit_application, FORM)) == [UNAVAILABLE]
    assert toasts(run(state, ApplyState.open_apply_dialog, job.id)) == [UNAVAILABLE]
    assert rows(db) == []


def test_double_submission_is_ignored(db, cast):
    _, freelancer, job = cast
    state = detail_state(db, freelancer, job.id)

    state.apply_submitting = True  # a second click while the first submission runs
    assert run(state, ApplyState.submit_application, FORM) == []
    assert rows(db) == []

    state.apply_submitting = False
    assert toasts(run(state, ApplyState.submit_application, FORM)) == [f"success: {SENT}"]
    assert run(state, ApplyState.submit_application, FORM) == []  # queued behind the first one
    assert len(rows(db)) == 1


def test_apply_from_the_dashboard_dialog(db, cast):
    _, freelancer, job = cast
    state = dashboard_state(db, freelancer, tab="jobs")
    run(state, FreelancerDashboardState.load)
    assert state.applied_job_ids == []

    assert run(state, FreelancerDashboardState.open_apply_dialog, job.id) == []
    assert state.apply_open and state.apply_job_title == "Garçom para casamento"
    events = run(state, FreelancerDashboardState.submit_application, {"valor_proposto": "", "mensagem": ""})

    assert toasts(events) == [f"success: {SENT}"]
    assert not state.apply_open
    assert state.applied_job_ids == [job.id]
    [application] = rows(db)
    assert application.valor_proposto is None


def test_the_dialog_refuses_bad_job_ids(db, cast):
    _, freelancer, job = cast
    state = dashboard_state(db, freelancer, tab="jobs")
    for bad in unusable_ids(job.id):
        assert toasts(run(state, FreelancerDashboardState.open_apply_dialog, bad)) == [UNAVAILABLE], bad
        assert not state.apply_open
    assert rows(db) == []


# --- withdraw --------------------------------------------------------------------------------------


def test_withdraw_own_pending_application(db, cast):
    _, freelancer, job = cast
    application = make_application(db, job, freelancer)
    db.commit()
    state = dashboard_state(db, freelancer, tab="applications")
    run(state, FreelancerDashboardState.load)
    assert [row["id"] for row in state.applications] == [application.id]
    state.applied_job_ids = [job.id]

    events = run(state, FreelancerDashboardState.withdraw_application, application.id)

    assert toasts(events) == ["success: Candidatura retirada"]
    assert rows(db) == []
    assert state.applications == [] and state.active_applications == 0 and state.applied_job_ids == []


def test_withdraw_refuses_others_answered_and_missing_applications(db, cast):
    company, freelancer, job = cast
    other = make_freelancer(db, nome="Ana Souza")
    theirs = make_application(db, job, other)
    answered = make_application(db, make_job(db, company, "Bartender"), freelancer, status="accepted")
    rejected = make_application(db, make_job(db, company, "Copeiro"), freelancer, status="rejected")
    db.commit()
    before = snapshot(db)
    state = dashboard_state(db, freelancer, tab="applications")

    refusals = {
        theirs.id: applications.NOT_FOUND,
        MISSING_ID: applications.NOT_FOUND,
        answered.id: applications.NOT_PENDING,
        rejected.id: applications.NOT_PENDING,
    }
    for application_id, message in refusals.items():
        events = run(state, FreelancerDashboardState.withdraw_application, application_id)
        assert toasts(events) == [f"error: Erro ao retirar candidatura | {message}"]
    for bad in unusable_ids(theirs.id):
        assert toasts(run(state, FreelancerDashboardState.withdraw_application, bad)) == [
            f"error: Erro ao retirar candidatura | {applications.NOT_FOUND}"
        ]
    db.expire_all()
    assert snapshot(db) == before


def test_a_company_cannot_withdraw(db, cast):
    company, freelancer, job = cast
    application = make_application(db, job, freelancer)
    db.commit()
    state = dashboard_state(db, company, tab="applications")
    events = run(state, FreelancerDashboardState.withdraw_application, application.id)
    assert toasts(events) == [f"error: Erro ao retirar candidatura | {applications.NOT_FOUND}"]
    assert len(rows(db)) == 1


# --- search ----------------------------------------------------------------------------------------


def test_search_lists_open_matches_ten_per_page(db, cast):
    company, freelancer, _ = cast
    matching = [make_job(db, company, f"Garçom {n}", hours_ago=n + 1) for n in range(11)]
    make_job(db, company, "Garçom fechado", status=JobStatus.CLOSED)
    make_job(db, company, "Garçom arquivado", status=JobStatus.ARCHIVED, is_archived=True)
    make_job(db, company, "Garçom escondido", is_archived=True)
    make_job(db, company, "Recepcionista")
    make_application(db, matching[0], freelancer)
    db.commit()

    first = dashboard_state(db, freelancer, tab="jobs", search="GARCOM")
    run(first, FreelancerDashboardState.load)
    second = dashboard_state(db, freelancer, tab="jobs", search="GARCOM", page="2")
    run(second, FreelancerDashboardState.load)

    titles = [item["title"] for item in first.job_results + second.job_results]
    assert first.job_total == 12
    assert len(first.job_results) == 10 and len(second.job_results) == 2
    assert titles == ["Garçom para casamento", *[f"Garçom {n}" for n in range(11)]]
    assert first.applied_job_ids == [matching[0].id]
    assert second.applied_job_ids == []
    assert [link["label"] for link in first.job_pager] == ["1", "2"]
    assert first.job_next_href == "/freelancer-dashboard?tab=jobs&search=GARCOM&page=2"


def test_search_by_category_and_empty_result(db, cast):
    company, freelancer, _ = cast
    make_job(db, company, "Chef de cozinha", categoria="gastronomia")
    db.commit()

    state = dashboard_state(db, freelancer, tab="jobs", category="gastronomia")
    run(state, FreelancerDashboardState.load)
    assert [item["title"] for item in state.job_results] == ["Chef de cozinha"]

    empty = dashboard_state(db, freelancer, tab="jobs", search="astronauta")
    run(empty, FreelancerDashboardState.load)
    assert empty.job_total == 0 and empty.job_results == []


def test_a_filter_chosen_before_the_tab_has_loaded_keeps_the_addresss_other_filters(db, cast):
    """A quick person picks a category before the load event ran: the city and search stay (CI saw them lost)."""
    _, freelancer, _ = cast
    state = dashboard_state(db, freelancer, tab="jobs", city="Curitiba", search="garçom")

    [redirect] = run(state, FreelancerDashboardState.choose_job_category, "eventos")

    assert "search=gar%C3%A7om&category=eventos&city=Curitiba" in str(redirect)


def test_the_public_list_keeps_the_addresss_filters_when_one_changes_before_it_loaded(db):
    state = state_for(JobsState, "", "/jobs", {"city": "Curitiba", "search": "garçom"})

    [redirect] = run(state, JobsState.choose_category, "eventos")

    assert "/jobs?" in str(redirect)
    assert all(part in str(redirect) for part in ("city=Curitiba", "search=gar%C3%A7om", "category=eventos"))


def test_search_handlers_keep_the_filters_in_the_url(db, cast):
    _, freelancer, _ = cast
    state = dashboard_state(db, freelancer, tab="jobs", category="eventos", page="3")
    run(state, FreelancerDashboardState.load)

    [redirect] = run(state, FreelancerDashboardState.submit_job_search, {"search": "  garçom "})
    assert "/freelancer-dashboard?tab=jobs&search=gar%C3%A7om&category=eventos" in str(redirect)
    [redirect] = run(state, FreelancerDashboardState.choose_job_category, "nao-existe")
    assert "/freelancer-dashboard?tab=jobs" in str(redirect) and "category" not in str(redirect)
