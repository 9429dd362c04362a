"""Publishing, applying, accepting, rejecting, withdrawing and closing when requests overlap.

The threaded tests line many requests up with a barrier, each in its own `session_scope()` on the
PostgreSQL test engine (SQLite serialises writers and is skipped). The interleaving tests replay a
race deterministically on both databases: one session reads the rows (as a request that started
first would), another request changes them and commits, then the first one carries on.
"""

import pytest
from sqlmodel import Session, func, select

import core.db
from models import Application, Chat, Job, JobStatus, Message, Notification
from services.common.errors import ServiceError
from services.jobs import company_jobs, plans
from services.jobs.plans import PlanLimitReached
from services.shifts import application_answers, applications
from services.shifts.application_answers import POSITIONS_FILLED
from services.shifts.applications import NOT_FOUND, NOT_PENDING
from tests.support.factories import make_application, make_cast, make_freelancer, make_job, make_subscription
from tests.support.shift_form import shift_fields
from tests.support.threads import at_once


@pytest.fixture
def cast(db):
    return make_cast(db)


@pytest.fixture
def postgres(db):
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("concurrent requests are tested on PostgreSQL")


def _count(db: Session, table, *conditions) -> int:
    return db.exec(select(func.count()).select_from(table).where(*conditions)).one()


# --- many requests at once (PostgreSQL) ----------------------------------------------------


def test_sixteen_simultaneous_accepts_open_one_chat(db, cast, postgres):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)
    db.commit()
    company_id, application_id = cast.company.id, application.id

    results = at_once([lambda s: application_answers.accept(s, company_id, application_id)] * 16)

    db.expire_all()
    [chat_id] = db.exec(select(Chat.id)).all()
    assert results == [chat_id] * 16
    assert _count(db, Message) == 1
    assert _count(db, Notification, Notification.type == "application_accepted") == 1
    assert db.get(Application, application_id).status == "accepted"
    assert db.get(Job, job.id).status == "in_progress"


def test_eight_applicants_at_once_for_one_position_one_is_accepted(db, cast, postgres):
    job = make_job(db, cast.company, "Garçom")
    ids = [make_application(db, job, make_freelancer(db, nome=f"Pessoa {n}")).id for n in range(8)]
    db.commit()
    company_id = cast.company.id

    results = at_once([lambda s, app_id=app_id: application_answers.accept(s, company_id, app_id) for app_id in ids])

    db.expire_all()
    accepted = db.exec(select(Application.id).where(Application.status == "accepted")).all()
    assert len(accepted) == 1
    assert [r for r in results if isinstance(r, int)] == db.exec(select(Chat.id)).all()
    refusals = [r for r in results if not isinstance(r, int)]
    assert len(refusals) == 7
    assert {type(r) for r in refusals} == {ServiceError}
    assert {r.message for r in refusals} == {POSITIONS_FILLED}
    assert _count(db, Message) == 1
    assert _count(db, Notification, Notification.type == "application_accepted") == 1
    assert db.get(Job, job.id).status == "in_progress"


def test_accept_and_reject_at_once_never_leave_a_rejected_hire(db, cast, postgres):
    rounds = []
    for n in range(6):
        job = make_job(db, cast.company, f"Vaga {n}")
        rounds.append(make_application(db, job, make_freelancer(db, nome=f"Pessoa {n}")).id)
    db.commit()
    company_id = cast.company.id

    for application_id in rounds:
        at_once(
            [
                lambda s, a=application_id: application_answers.accept(s, company_id, a),
                lambda s, a=application_id: application_answers.reject(s, company_id, a),
            ]
        )

    db.expire_all()
    for application_id in rounds:
        status = db.get(Application, application_id).status
        chats = _count(db, Chat, Chat.application_id == application_id)
        assert (status, chats) in {("accepted", 1), ("rejected", 0)}


def test_accept_and_close_at_once_never_open_a_chat_for_a_rejected_application(db, cast, postgres):
    rounds = []
    for n in range(6):
        job = make_job(db, cast.company, f"Vaga {n}")
        rounds.append((job.id, make_application(db, job, make_freelancer(db, nome=f"Pessoa {n}")).id))
    db.commit()
    company_id = cast.company.id

    for job_id, application_id in rounds:
        at_once(
            [
                lambda s, a=application_id: application_answers.accept(s, company_id, a),
                lambda s, j=job_id: company_jobs.close_job(s, company_id, j),
            ]
        )

    db.expire_all()
    for job_id, application_id in rounds:
        assert db.get(Job, job_id).status == "closed"
        status = db.get(Application, application_id).status
        chats = _count(db, Chat, Chat.application_id == application_id)
        assert (status, chats) in {("accepted", 1), ("rejected", 0)}


def test_apply_and_close_at_once_leave_no_pending_application_on_a_closed_job(db, cast, postgres):
    rounds = []
    for n in range(6):
        job = make_job(db, cast.company, f"Vaga {n}")
        rounds.append((job.id, make_freelancer(db, nome=f"Pessoa {n}").id))
    db.commit()
    company_id = cast.company.id

    for job_id, freelancer_id in rounds:
        at_once(
            [
                lambda s, j=job_id, f=freelancer_id: applications.apply(s, f, "freelancer", j, {}),
                lambda s, j=job_id: company_jobs.close_job(s, company_id, j),
            ]
        )

    db.expire_all()
    assert _count(db, Application, Application.status == "pending") == 0
    assert _count(db, Job, Job.status == "closed") == len(rounds)


FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo",
    **shift_fields(),
}


def test_simultaneous_publications_stop_at_the_free_limit(db, cast, postgres):
    make_job(db, cast.company, "Já publicada")
    make_job(db, cast.company, "Encerrada", status=JobStatus.CLOSED)
    db.commit()
    company_id = cast.company.id

    results = at_once([lambda s: company_jobs.create_job(s, company_id, dict(FORM))] * 6)

    assert len([r for r in results if isinstance(r, int)]) == 1
    assert all(isinstance(r, PlanLimitReached) for r in results if not isinstance(r, int))
    db.expire_all()
    assert plans.usage(db, company_id).active_jobs == 2


def test_simultaneous_publications_stop_at_the_monthly_limit(db, cast, postgres):
    make_subscription(db, cast.company, tier="premium")
    for n in range(14):
        make_job(db, cast.company, f"Vaga {n}")
    db.commit()
    company_id = cast.company.id

    results = at_once([lambda s: company_jobs.create_job(s, company_id, dict(FORM))] * 6)

    assert len([r for r in results if isinstance(r, int)]) == 1
    db.expire_all()
    assert plans.usage(db, company_id).created_this_month == 15


def test_restore_and_publish_at_once_stop_at_the_free_limit(db, cast, postgres):
    make_job(db, cast.company, "Aberta")
    archived = make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    db.commit()
    company_id, archived_id = cast.company.id, archived.id

    results = at_once(
        [
            lambda s: company_jobs.restore_job(s, company_id, archived_id),
            lambda s: company_jobs.create_job(s, company_id, dict(FORM)),
        ]
    )

    assert len([r for r in results if isinstance(r, PlanLimitReached)]) == 1
    db.expire_all()
    assert plans.usage(db, company_id).active_jobs == 2


# --- one request overtaken by another (both databases) -------------------------------------


def _accept_elsewhere(company_id: int, application_id: int) -> int:
    with core.db.session_scope() as session:
        return application_answers.accept(session, company_id, application_id)


def test_accept_after_another_tab_accepted_returns_the_same_chat(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)
    db.commit()
    db.get(Job, job.id)
    db.get(Application, application.id)

    chat_id = _accept_elsewhere(cast.company.id, application.id)

    assert application_answers.accept(db, cast.company.id, application.id) == chat_id
    db.commit()
    assert _count(db, Chat) == 1
    assert _count(db, Message) == 1
    assert _count(db, Notification, Notification.type == "application_accepted") == 1


def test_reject_after_another_tab_accepted_is_refused(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer)
    db.commit()
    db.get(Application, application.id)

    _accept_elsewhere(cast.company.id, application.id)

    with pytest.raises(ServiceError) as caught:
        application_answers.reject(db, cast.company.id, application.id)
    assert caught.value.message == NOT_PENDING
    db.rollback()
    assert db.get(Application, application.id).status == "accepted"
    assert _count(db, Notification, Notification.type == "other") == 0


def test_withdraw_after_the_company_accepted_is_refused(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer)
    db.commit()
    db.get(Application, application.id)

    chat_id = _accept_elsewhere(cast.company.id, application.id)

    with pytest.raises(ServiceError) as caught:
        applications.withdraw(db, cast.freelancer.id, application.id)
    assert caught.value.message == NOT_PENDING
    db.commit()
    db.expire_all()
    assert db.get(Application, application.id).status == "accepted"
    assert db.get(Chat, chat_id) is not None


def test_accept_after_the_job_was_closed_elsewhere_is_refused(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)
    db.commit()
    db.get(Job, job.id)
    db.get(Application, application.id)

    with core.db.session_scope() as session:
        company_jobs.close_job(session, cast.company.id, job.id)

    with pytest.raises(ServiceError) as caught:
        application_answers.accept(db, cast.company.id, application.id)
    assert caught.value.message == NOT_PENDING
    db.commit()
    assert _count(db, Chat) == 0
    assert _count(db, Message) == 0


def test_accept_after_the_applicant_withdrew_is_not_found(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer)
    db.commit()
    db.get(Application, application.id)

    with core.db.session_scope() as session:
        applications.withdraw(session, cast.freelancer.id, application.id)

    with pytest.raises(ServiceError) as caught:
        application_answers.accept(db, cast.company.id, application.id)
    assert caught.value.message == NOT_FOUND
    db.rollback()
    assert _count(db, Chat) == 0


def test_second_position_taken_elsewhere_is_refused(db, cast):
    job = make_job(db, cast.company, "Garçom")
    first = make_application(db, job, cast.freelancer)
    second = make_application(db, job, cast.other)
    db.commit()
    db.get(Job, job.id)
    db.get(Application, second.id)

    _accept_elsewhere(cast.company.id, first.id)

    with pytest.raises(ServiceError) as caught:
        application_answers.accept(db, cast.company.id, second.id)
    assert caught.value.message == POSITIONS_FILLED
    db.rollback()
    assert _count(db, Application, Application.status == "accepted") == 1
