"""Issue 42, points 2-4: a hiring's ending frees its position, every list and count reads the hiring.

- A cancelled shift (either side) reopens its vaga when the start is at least 2 hours away; closer
  than that the vaga closes itself (nothing left to work) and 'Reabrir vaga' is offered until the start.
- One table (services/jobs/application_status.py) says how an application reads and what it counts in,
  for every hiring state and vaga stage; the dashboards' SQL counts agree with it.
- A vaga whose every hiring has ended (paid, cancelled, no-show) closes itself: it leaves the plan's
  active count, so a free company can publish or rebook without closing it by hand.

Each database test runs on SQLite and on PostgreSQL.
"""

from datetime import timedelta

import pytest
from sqlmodel import select

from core.types import utcnow
from models import Actor, Hiring, HiringState, Job, JobStatus
from services.common.errors import ServiceError
from services.jobs import application_status, company_jobs, hiring_positions, plans
from services.screens import company_dashboard, freelancer_dashboard
from services.shifts import application_answers, hiring_lifecycle
from tests.support.factories import make_application, make_company, make_freelancer, make_job
from tests.support.shift_helpers import MIN, H, by_company, by_freelancer, hire, shift_start

S = HiringState
OPEN, IN_PROGRESS, CLOSED = JobStatus.OPEN, JobStatus.IN_PROGRESS, JobStatus.CLOSED


def _job(db, job_id: int) -> Job:
    return db.exec(select(Job).where(Job.id == job_id).execution_options(populate_existing=True)).one()


def _approve(db, hiring_id: int) -> None:
    """Walk the hiring to 'aprovada' through the state table (arrival, timer exit, timer hours, approval)."""
    h = db.get(Hiring, hiring_id)
    steps = (
        ("chegada", Actor.COMPANY, h.inicio_em),
        ("saida_nao_registrada", Actor.TIMER, h.fim_em + 4 * H),
        ("horas_pelos_registros", Actor.TIMER, h.fim_em + 12 * H),
        ("aprovar", Actor.COMPANY, h.fim_em + 13 * H),
    )
    for action, actor, at in steps:
        h = hiring_lifecycle.move(db, h, action, actor, at, values={"minutos_enviados": 60}).hiring
    db.commit()


# --- point 2: a cancellation frees the position ---------------------------------------------------


@pytest.mark.parametrize("side", ["freelancer", "company"])
def test_a_cancelled_shift_far_ahead_reopens_its_vaga_and_reads_cancelled_everywhere(db, side):
    shift = hire(db, start=shift_start(days=3))
    assert _job(db, shift.job_id).status == IN_PROGRESS
    act = by_freelancer if side == "freelancer" else by_company
    act(db, shift, "cancelar", utcnow())

    job = _job(db, shift.job_id)
    assert (job.status, job.vaga_status) == (OPEN, OPEN)  # back on the public list
    overview = company_dashboard.company_overview(db, shift.company.id)
    assert overview["active_hirings"] == 0
    label = "Cancelada pelo profissional" if side == "freelancer" else "Cancelada por você"
    assert [r["status_label"] for r in overview["hirings"]] == [label]
    assert [r["status_label"] for r in company_dashboard.company_hirings(db, shift.company.id).items] == [label]
    mine = freelancer_dashboard.freelancer_overview(db, shift.freelancer.id)
    assert (mine["active_applications"], mine["completed_jobs"]) == (0, 0)

    # The freed position takes another applicant.
    other = make_freelancer(db, nome="Ana Souza")
    second = make_application(db, job, other)
    db.commit()
    application_answers.accept(db, shift.company.id, second.id)
    db.commit()
    assert _job(db, shift.job_id).status == IN_PROGRESS


def test_a_cancellation_close_to_the_start_closes_the_vaga_and_offers_reopen_until_the_start(db):
    start = (utcnow() + 90 * MIN).replace(second=0, microsecond=0)
    company = make_company(db)
    job = make_job(db, company, "Garçom", inicio_em=start, fim_em=start + 6 * H)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    hiring = db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()
    shift = type("Shift", (), {"freelancer": db.get(type(company), hiring.freelancer_id), "hiring_id": hiring.id})
    by_freelancer(db, shift, "cancelar", utcnow())

    job = _job(db, job.id)
    assert job.status == CLOSED  # nothing left to work: it leaves the plan's active count
    assert plans.usage(db, company.id).active_jobs == 0
    assert hiring_positions.reopenable_ids(db, [job], utcnow()) == {job.id}
    company_jobs.reopen_job(db, company.id, job.id)
    db.commit()
    assert _job(db, job.id).status == OPEN
    # Once the shift starts the vaga cannot reopen.
    job = _job(db, job.id)
    assert hiring_positions.reopen_refusal(job, 0, start + MIN) == hiring_positions.STARTED


def test_reopen_checks_the_free_plan_limit_for_a_closed_vaga(db):
    company = make_company(db)
    start = shift_start(days=2)
    closed = make_job(db, company, "Fechada", inicio_em=start, fim_em=start + 4 * H, status="closed")
    make_job(db, company, "Ativa 1", inicio_em=start, fim_em=start + 4 * H)
    make_job(db, company, "Ativa 2", inicio_em=start, fim_em=start + 4 * H)
    db.commit()
    with pytest.raises(plans.PlanLimitReached):
        company_jobs.reopen_job(db, company.id, closed.id)
    db.rollback()
    assert _job(db, closed.id).status == CLOSED


# --- point 3: one table for labels and counters ---------------------------------------------------

# hiring state -> (freelancer's label, company's label, active, completed) on an open or filled vaga
LIVE = {
    S.AWAITING_PAYMENT: ("Aguardando pagamento", "Aguardando pagamento", True, False),
    S.SCHEDULED: ("Aceita", "Confirmado", True, False),
    S.CONFIRMED: ("Aceita", "Confirmado", True, False),
    S.UNCONFIRMED: ("Aceita", "Confirmado", True, False),
    S.IN_PROGRESS: ("Em andamento", "Em andamento", True, False),
    S.ENDED: ("Em andamento", "Em andamento", True, False),
    S.HOURS_SENT: ("Em andamento", "Em andamento", True, False),
    S.ADJUSTMENT: ("Em andamento", "Em andamento", True, False),
    S.DISPUTED: ("Em andamento", "Em andamento", True, False),
    S.APPROVED: ("Concluída", "Concluída", False, True),
    S.PAID: ("Concluída", "Concluída", False, True),
    S.CANCELLED_BY_FREELANCER: ("Cancelada por você", "Cancelada pelo profissional", False, False),
    S.CANCELLED_BY_COMPANY: ("Cancelada pela empresa", "Cancelada por você", False, False),
    S.NO_SHOW: ("Não compareceu", "Não compareceu", False, False),
    S.EXPIRED: ("Pagamento não concluído", "Pagamento não concluído", False, False),
}
ENDED_STATES = {S.APPROVED, S.PAID, S.CANCELLED_BY_FREELANCER, S.CANCELLED_BY_COMPANY, S.NO_SHOW, S.EXPIRED}


def _expected(state: str, stage: str) -> tuple:
    """On a closed vaga a shift still moving reads 'Concluída' (the company declared the work done)."""
    if stage == CLOSED and state not in ENDED_STATES:
        return ("Concluída", "Concluída", False, True)
    return LIVE[state]


@pytest.mark.parametrize("stage", [OPEN, IN_PROGRESS, CLOSED])
@pytest.mark.parametrize("state", list(S))
def test_every_hiring_state_and_vaga_stage_reads_and_counts_once(state, stage):
    shown = application_status.view("accepted", state, stage)
    assert (shown.label, shown.company_label, shown.active, shown.completed) == _expected(state, stage)
    assert not (shown.active and shown.completed)
    assert application_status.rating_open(state, stage) == shown.completed


@pytest.mark.parametrize(
    ("status", "stage", "expected"),
    [
        ("pending", OPEN, ("Pendente", True, False)),
        ("pending", IN_PROGRESS, ("Pendente", True, False)),
        ("pending", CLOSED, ("Vaga encerrada", False, False)),
        ("rejected", OPEN, ("Recusada", False, False)),
        ("rejected", CLOSED, ("Recusada", False, False)),
        ("accepted", OPEN, ("Aceita", True, False)),  # accepted before hirings existed
        ("accepted", CLOSED, ("Concluída", False, True)),
    ],
)
def test_applications_without_a_hiring_read_from_their_status_and_the_vaga(status, stage, expected):
    shown = application_status.view(status, None, stage)
    assert (shown.label, shown.active, shown.completed) == expected


@pytest.mark.parametrize("stage", [OPEN, CLOSED])
def test_the_dashboards_count_and_label_each_hiring_state_as_the_table_says(db, stage):
    company, freelancer = make_company(db), make_freelancer(db)
    start = utcnow() - timedelta(days=2)
    for state in S:
        job = make_job(db, company, f"Turno {state}", inicio_em=start, fim_em=start + 6 * H, status=stage)
        application = make_application(db, job, freelancer, status="accepted")
        db.add(
            Hiring(
                state=state,
                application_id=application.id,
                job_id=job.id,
                company_id=company.id,
                freelancer_id=freelancer.id,
                inicio_em=start,
                fim_em=start + 6 * H,
            )
        )
    db.commit()
    rows = freelancer_dashboard.freelancer_applications(db, freelancer.id).items
    assert sorted(r["status_label"] for r in rows) == sorted(_expected(s, stage)[0] for s in S)
    mine = freelancer_dashboard.freelancer_overview(db, freelancer.id)
    assert mine["active_applications"] == sum(_expected(s, stage)[2] for s in S)
    assert mine["completed_jobs"] == sum(_expected(s, stage)[3] for s in S)
    assert company_dashboard.company_overview(db, company.id)["active_hirings"] == mine["active_applications"]
    labels = [r["status_label"] for r in company_dashboard.company_hirings(db, company.id).items]
    assert sorted(labels) == sorted(_expected(s, stage)[1] for s in S)


# --- point 4: a vaga whose hirings all ended stops counting -------------------------------------


def _two_paid_vagas(db):
    company = make_company(db)
    shifts = [hire(db, company, start=shift_start(days=3), title=f"Turno {n}") for n in (1, 2)]
    for shift in shifts:
        _approve(db, shift.hiring_id)
    return company, shifts


def test_a_paid_shift_closes_its_vaga_and_frees_the_free_plan_limit(db):
    company, shifts = _two_paid_vagas(db)
    with pytest.raises(plans.PlanLimitReached):
        plans.ensure_can_publish(db, company.id)
    db.rollback()
    for shift in shifts:
        by_company(db, shift, "marcar_pago", shift.end + 14 * H)
    assert [_job(db, s.job_id).status for s in shifts] == [CLOSED, CLOSED]
    assert plans.usage(db, company.id).active_jobs == 0
    plans.ensure_can_publish(db, company.id)  # no PlanLimitReached
    db.rollback()
    assert company_dashboard.company_job_totals(db, company.id).active == 0


def test_a_no_show_after_the_start_closes_its_vaga(db):
    shift = hire(db, start=shift_start(days=3))
    by_company(db, shift, "nao_compareceu", shift.start + 31 * MIN)
    assert _job(db, shift.job_id).status == CLOSED


def test_a_vaga_with_a_shift_still_moving_stays_active(db):
    company = make_company(db)
    start = shift_start(days=3)
    job = make_job(db, company, "Dois garçons", inicio_em=start, fim_em=start + 6 * H, vagas_disponiveis=2)
    apps = [make_application(db, job, make_freelancer(db)) for _ in range(2)]
    db.commit()
    for app in apps:
        application_answers.accept(db, company.id, app.id)
        db.commit()
    first = db.exec(select(Hiring).where(Hiring.application_id == apps[0].id)).one()
    _approve(db, first.id)
    shift = type("Shift", (), {"company": company, "hiring_id": first.id})
    by_company(db, shift, "marcar_pago", start + 20 * H)
    assert _job(db, job.id).status == IN_PROGRESS
    assert plans.usage(db, company.id).active_jobs == 1


def test_a_reopened_position_is_not_counted_as_taken(db):
    shift = hire(db, start=shift_start(days=3))
    assert hiring_positions.holding(db, shift.job_id) == 1
    by_freelancer(db, shift, "cancelar", utcnow())
    assert hiring_positions.holding(db, shift.job_id) == 0
    with pytest.raises(ServiceError):  # open already: nothing to reopen
        company_jobs.reopen_job(db, shift.company.id, shift.job_id)
    db.rollback()
