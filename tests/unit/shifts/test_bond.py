"""The 'Termômetro de vínculo' on real hirings (services/shifts/bond.py) and on accept (both databases).

Which shifts count, one statement for a page of applicants, the red box checked on the server, and
the accept handler's cost (one statement more than without the thermometer).
"""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.pages.company_jobs.state import CompanyJobsState
from core.bond_guard import RED, YELLOW
from core.types import utcnow
from models import Application, Job, User
from services.common.errors import ServiceError
from services.shifts import applicant_list, application_answers, bond
from tests.support.factories import make_application, make_company, make_freelancer, make_hiring, make_job
from tests.support.sql_log import sent_statements
from tests.support.state_harness import cookie_for, run, state_for, toasts

WEEK = timedelta(weeks=1)


def _history(db: Session, company: User, freelancer: User, starts: list, state: str = "paga") -> None:
    """Past shifts of the pair (fixture rows in `state`)."""
    for start in starts:
        make_hiring(db, company, freelancer, start, state=state)
    db.commit()


def _new_vaga(db: Session, company: User, freelancer: User, start) -> tuple[Job, Application]:
    job = make_job(db, company, "Garçom de sábado", inicio_em=start, fim_em=start + timedelta(hours=6))
    application = make_application(db, job, freelancer)
    db.commit()
    return job, application


def _weekly(next_start, count: int) -> list:
    return [next_start - WEEK * n for n in range(1, count + 1)]


@pytest.mark.parametrize(
    ("state", "counted"),
    [
        ("paga", True),
        ("agendada", True),
        ("em_disputa", True),
        ("cancelada_empresa", False),
        ("cancelada_freelancer", False),
        ("nao_compareceu", False),
        ("expirada", False),
        ("aguardando_pagamento", False),
    ],
)
def test_only_shifts_that_happen_count(db, state, counted):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, company, freelancer, _weekly(start, 4), state=state)
    found = bond.reading(db, company.id, freelancer.id, start)
    assert found.weeks == (5 if counted else 1)
    assert found.level == (YELLOW if counted else "")


def test_another_companys_shifts_do_not_count(db):
    company, other, freelancer = make_company(db), make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, other, freelancer, _weekly(start, 7))
    assert bond.reading(db, company.id, freelancer.id, start).level == ""
    assert bond.reading(db, other.id, freelancer.id, start).level == RED


def test_a_page_of_applicants_is_read_in_one_statement(db):
    company = make_company(db)
    start = utcnow() + timedelta(days=3)
    people = [make_freelancer(db) for _ in range(4)]
    for count, person in zip((0, 4, 6, 7), people, strict=True):
        _history(db, company, person, _weekly(start, count))
    job, _ = _new_vaga(db, company, people[0], start)
    for person in people[1:]:
        make_application(db, job, person)
    db.commit()
    with sent_statements(db.get_bind()) as statements:
        found = bond.readings(db, company.id, {person.id: start for person in people})
    assert len(statements) == 1
    assert [found[person.id].level for person in people] == ["", YELLOW, RED, RED]
    page = applicant_list.list_for_job(db, company.id, job.id)
    levels = {card["freelancer_id"]: card["bond"] for card in page.cards}
    assert levels[people[1].id]["title"] == bond.YELLOW_TITLE and not levels[people[1].id]["needs_ack"]
    assert levels[people[3].id]["title"] == bond.RED_TITLE and levels[people[3].id]["needs_ack"]
    assert levels[people[0].id] == bond.NO_NOTICE


def test_a_red_accept_needs_the_box_and_writes_nothing_without_it(db):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, company, freelancer, _weekly(start, 7))
    _job, application = _new_vaga(db, company, freelancer, start)
    with pytest.raises(ServiceError) as refused:
        application_answers.accept(db, company.id, application.id, False)
    db.rollback()
    assert refused.value.message == bond.ACK_REQUIRED
    assert db.exec(select(Application.status).where(Application.id == application.id)).one() == "pending"
    application_answers.accept(db, company.id, application.id, True)
    db.commit()
    assert db.exec(select(Application.status).where(Application.id == application.id)).one() == "accepted"


def test_a_yellow_accept_only_warns(db):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, company, freelancer, _weekly(start, 4))
    _job, application = _new_vaga(db, company, freelancer, start)
    application_answers.accept(db, company.id, application.id, False)
    db.commit()


def test_the_thermometer_adds_one_statement_to_accepting(db):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, company, freelancer, _weekly(start, 2))
    _first, first_application = _new_vaga(db, company, freelancer, start)
    _second, second_application = _new_vaga(db, company, make_freelancer(db), start)
    with sent_statements(db.get_bind()) as without:
        application_answers.accept(db, company.id, second_application.id)
    db.commit()
    with sent_statements(db.get_bind()) as with_bond:
        application_answers.accept(db, company.id, first_application.id, False)
    db.commit()
    assert len(with_bond) == len(without) + 1


# --- the handlers -------------------------------------------------------------------------------------


def _jobs_tab(db: Session, user: User | None) -> CompanyJobsState:
    return state_for(CompanyJobsState, cookie_for(db, user), "/client-dashboard", {"tab": "jobs"})


def test_accept_in_the_dialog_refuses_red_until_the_box_is_ticked(db):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _history(db, company, freelancer, _weekly(start, 7))
    _job, application = _new_vaga(db, company, freelancer, start)
    state = _jobs_tab(db, company)
    assert toasts(run(state, CompanyJobsState.accept_application, application.id)) == [
        f"error: Erro | {bond.ACK_REQUIRED}"
    ]
    assert db.exec(select(Application.status).where(Application.id == application.id)).one() == "pending"
    run(state, CompanyJobsState.acknowledge_bond, application.id, True)
    run(state, CompanyJobsState.acknowledge_bond, application.id, False)
    assert state.bond_acknowledged == []
    run(state, CompanyJobsState.acknowledge_bond, application.id, True)
    assert toasts(run(state, CompanyJobsState.accept_application, application.id))[0] == "success: Candidatura aceita"


def test_a_stranger_ticking_the_box_accepts_nothing(db):
    company, stranger, freelancer = make_company(db), make_company(db), make_freelancer(db)
    start = utcnow() + timedelta(days=2)
    _job, application = _new_vaga(db, company, freelancer, start)
    state = _jobs_tab(db, stranger)
    run(state, CompanyJobsState.acknowledge_bond, application.id, True)
    run(state, CompanyJobsState.accept_application, application.id)
    assert db.exec(select(Application.status).where(Application.id == application.id)).one() == "pending"
