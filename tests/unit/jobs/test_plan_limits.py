"""services/jobs/plans.py: which plan a company is on and the publishing limits of docs/product/jobs.md §4.

Gratuito: at most 2 active (open or in_progress) jobs. Premium: 15 and Enterprise: 30 jobs created
per calendar month in São Paulo time. Anything but an active or trialing, unexpired subscription is
the free plan. At a limit nothing is created.
"""

from datetime import UTC, datetime, timedelta

import pytest

from core.types import utcnow
from models import JobStatus
from services.jobs import company_jobs, plans
from services.jobs.plans import PlanLimitReached
from tests.support.factories import make_cast, make_job, make_subscription, snapshot
from tests.support.shift_form import shift_day, shift_fields

FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    **shift_fields(),
}
FREE_LIMIT = "Seu plano Gratuito permite até 2 vagas ativas. Encerre ou arquive uma vaga, ou conheça os planos pagos."


@pytest.fixture
def cast(db):
    return make_cast(db)


def _refused(db, call, message: str | None = None) -> None:
    """`call` raises PlanLimitReached (with `message` when given) and changes nothing."""
    before = snapshot(db)
    with pytest.raises(PlanLimitReached) as caught:
        call()
    if message is not None:
        assert caught.value.message == message
    assert snapshot(db) == before


# --- current_plan --------------------------------------------------------------------------


def test_without_a_subscription_the_plan_is_free(db, cast):
    assert plans.current_plan(db, cast.company.id).slug == "free"


@pytest.mark.parametrize(
    ("tier", "status", "period_end_days", "plan"),
    [
        ("premium", "active", None, "premium"),
        ("premium", "trialing", 7, "premium"),
        ("enterprise", "active", 30, "enterprise"),
        ("enterprise", "trialing", None, "enterprise"),
        ("premium", "canceled", 30, "free"),
        ("premium", "past_due", 30, "free"),
        ("premium", "incomplete", None, "free"),
        ("premium", "active", -1, "free"),
        ("enterprise", "trialing", -1, "free"),
        ("gold", "active", 30, "free"),
        ("free", "active", 30, "free"),
    ],
)
def test_current_plan_follows_the_subscription(db, cast, tier, status, period_end_days, plan):
    period_end = None if period_end_days is None else utcnow() + timedelta(days=period_end_days)
    make_subscription(db, cast.company, tier=tier, status=status, period_end=period_end)

    assert plans.current_plan(db, cast.company.id).slug == plan
    assert plans.current_plan(db, cast.rival.id).slug == "free"


# --- usage ---------------------------------------------------------------------------------


def test_usage_counts_active_jobs_and_jobs_created_this_month(db, cast):
    make_job(db, cast.company, "Aberta")
    make_job(db, cast.company, "Em andamento", status=JobStatus.IN_PROGRESS)
    make_job(db, cast.company, "Fechada", status=JobStatus.CLOSED)
    make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    make_job(db, cast.company, "Antiga aberta", criado_em=utcnow() - timedelta(days=70))
    make_job(db, cast.rival, "Da rival")

    state = plans.usage(db, cast.company.id)

    assert state.plan.slug == "free"
    assert state.active_jobs == 3
    assert state.created_this_month == 4


@pytest.mark.parametrize(
    ("now", "counted", "not_counted"),
    [
        # 01:00 in São Paulo on 1 December: only what was created since local midnight counts.
        (
            datetime(2026, 12, 1, 4, 0, tzinfo=UTC),
            datetime(2026, 12, 1, 3, 30, tzinfo=UTC),
            datetime(2026, 12, 1, 2, 30, tzinfo=UTC),
        ),
        # 23:00 in São Paulo on 30 November (already December in UTC): November still counts.
        (
            datetime(2026, 12, 1, 2, 0, tzinfo=UTC),
            datetime(2026, 11, 1, 3, 30, tzinfo=UTC),
            datetime(2026, 11, 1, 2, 30, tzinfo=UTC),
        ),
    ],
)
def test_the_month_is_the_calendar_month_in_sao_paulo(db, cast, monkeypatch, now, counted, not_counted):
    monkeypatch.setattr(plans, "utcnow", lambda: now)
    make_job(db, cast.company, "Conta", criado_em=counted)
    make_job(db, cast.company, "Não conta", criado_em=not_counted)

    assert plans.usage(db, cast.company.id).created_this_month == 1


# --- free plan: 2 active jobs --------------------------------------------------------------


def test_free_company_publishes_two_jobs_and_the_third_is_refused(db, cast):
    first = company_jobs.create_job(db, cast.company.id, dict(FORM))
    company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Segunda"})

    _refused(db, lambda: company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Terceira"}), FREE_LIMIT)
    _refused(db, lambda: company_jobs.duplicate_job(db, cast.company.id, first, [shift_day(5).isoformat()]), FREE_LIMIT)
    company_jobs.create_job(db, cast.rival.id, dict(FORM))


def test_in_progress_jobs_count_as_active(db, cast):
    make_job(db, cast.company, status=JobStatus.IN_PROGRESS, vaga_status=JobStatus.IN_PROGRESS)
    make_job(db, cast.company)

    _refused(db, lambda: company_jobs.create_job(db, cast.company.id, dict(FORM)), FREE_LIMIT)


def test_archived_and_closed_jobs_do_not_count(db, cast):
    for n in range(3):
        make_job(db, cast.company, f"Arquivada {n}", status=JobStatus.ARCHIVED, is_archived=True)
        make_job(db, cast.company, f"Fechada {n}", status=JobStatus.CLOSED, vaga_status=JobStatus.CLOSED)
    make_job(db, cast.company, "Aberta")

    assert company_jobs.create_job(db, cast.company.id, dict(FORM))


def test_archiving_or_closing_frees_a_place(db, cast):
    first = make_job(db, cast.company, "Primeira")
    second = make_job(db, cast.company, "Segunda")

    company_jobs.archive_job(db, cast.company.id, first.id)
    company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Terceira"})
    company_jobs.close_job(db, cast.company.id, second.id)
    company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Quarta"})

    assert plans.usage(db, cast.company.id).active_jobs == 2


def test_restoring_an_archived_job_at_the_limit_is_refused(db, cast):
    archived = make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    make_job(db, cast.company, "Aberta 1")
    make_job(db, cast.company, "Aberta 2")

    _refused(db, lambda: company_jobs.restore_job(db, cast.company.id, archived.id), FREE_LIMIT)
    assert (archived.status, archived.is_archived) == ("archived", True)


def test_restoring_below_the_limit_is_allowed(db, cast):
    archived = make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    make_job(db, cast.company, "Aberta 1")

    company_jobs.restore_job(db, cast.company.id, archived.id)

    assert archived.status == "open"


@pytest.mark.parametrize(
    ("status", "period_end_days"), [("canceled", 30), ("active", -1), ("trialing", -2), ("unpaid", None)]
)
def test_a_lapsed_subscription_falls_back_to_the_free_limit(db, cast, status, period_end_days):
    period_end = None if period_end_days is None else utcnow() + timedelta(days=period_end_days)
    make_subscription(db, cast.company, tier="premium", status=status, period_end=period_end)
    make_job(db, cast.company, "Aberta 1")
    make_job(db, cast.company, "Aberta 2")

    _refused(db, lambda: company_jobs.create_job(db, cast.company.id, dict(FORM)), FREE_LIMIT)


# --- paid plans: jobs created per month ----------------------------------------------------


@pytest.mark.parametrize(("tier", "limit"), [("premium", 15), ("enterprise", 30)])
@pytest.mark.parametrize("status", ["active", "trialing"])
def test_paid_plan_publishes_up_to_its_monthly_limit(db, cast, tier, limit, status):
    make_subscription(db, cast.company, tier=tier, status=status, period_end=utcnow() + timedelta(days=20))
    for n in range(limit - 2):
        make_job(db, cast.company, f"Vaga {n}", status=JobStatus.CLOSED if n % 2 else JobStatus.OPEN)
    make_job(db, cast.company, "Antiga", criado_em=utcnow() - timedelta(days=70))

    company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Penúltima"})
    last = company_jobs.create_job(db, cast.company.id, {**FORM, "titulo": "Última"})
    name, hint = (
        ("Premium", "Conheça o plano Enterprise ou aguarde o próximo mês.")
        if tier == "premium"
        else ("Enterprise", "Aguarde o próximo mês para publicar novas vagas.")  # no larger plan to offer
    )
    message = f"Seu plano {name} permite até {limit} vagas publicadas por mês. {hint}"

    _refused(db, lambda: company_jobs.create_job(db, cast.company.id, dict(FORM)), message)
    _refused(db, lambda: company_jobs.duplicate_job(db, cast.company.id, last, [shift_day(5).isoformat()]), message)
    assert plans.usage(db, cast.company.id).created_this_month == limit


def test_archived_jobs_still_count_for_the_month(db, cast):
    make_subscription(db, cast.company, tier="premium")
    for n in range(15):
        make_job(db, cast.company, f"Vaga {n}", status=JobStatus.ARCHIVED, is_archived=True)

    _refused(db, lambda: company_jobs.create_job(db, cast.company.id, dict(FORM)))


def test_paid_plan_has_no_active_job_limit(db, cast):
    make_subscription(db, cast.company, tier="premium")
    for n in range(5):
        make_job(db, cast.company, f"Antiga {n}", criado_em=utcnow() - timedelta(days=70))
    archived = make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)

    company_jobs.create_job(db, cast.company.id, dict(FORM))
    company_jobs.restore_job(db, cast.company.id, archived.id)

    assert plans.usage(db, cast.company.id).active_jobs == 7
