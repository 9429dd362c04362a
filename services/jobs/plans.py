"""Which plan a company is on, and the publishing limits each plan allows (docs/product/jobs.md §4)."""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, func, select

from core.catalog import PLANS, Plan, plan_by_slug
from core.db import lock_for_write
from core.formatting import LOCAL_TZ
from core.types import utcnow
from models import Job, Subscription, User
from services.common.errors import ServiceError
from services.jobs import job_lifecycle

PAID_STATUSES = ("active", "trialing")
FREE = "free"


MONTHLY_UPGRADE = "Conheça o plano Enterprise ou aguarde o próximo mês."
# The largest plan has nothing to upgrade to (docs/product/jobs.md §4).
MONTHLY_AT_TOP = "Aguarde o próximo mês para publicar novas vagas."


class PlanLimitReached(ServiceError):
    """Publishing would exceed the company's plan; the UI links to /pricing."""


@dataclass(frozen=True)
class PlanUsage:
    """A company's plan and how much of it is used.

    Attributes:
        plan: The plan in force.
        active_jobs: Open or in-progress jobs right now.
        created_this_month: Jobs created in the current calendar month (São Paulo time).
    """

    plan: Plan
    active_jobs: int
    created_this_month: int


def current_plan(session: Session, company_id: int) -> Plan:
    """The company's plan: its paid tier while the subscription is active or trialing, else free."""
    subscription = session.exec(select(Subscription).where(Subscription.user_id == company_id)).first()
    if subscription is not None and subscription.status in PAID_STATUSES:
        still_valid = subscription.current_period_end is None or subscription.current_period_end > utcnow()
        plan = plan_by_slug(subscription.tier)
        if plan is not None and still_valid:
            return plan
    return PLANS[0]


def _month_start(now: datetime) -> datetime:
    local = now.astimezone(LOCAL_TZ)
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def _hold_company(session: Session, company_id: int) -> None:
    """Lock the company's user row (PostgreSQL), or the database (SQLite), until the transaction ends.

    Two publications of one company then run one after the other, so the second counts the first
    and two simultaneous submissions cannot both take the last place. FOR NO KEY UPDATE leaves rows
    that merely reference the user (notifications, applications) free to be inserted meanwhile.
    SQLite has no row locks: the transaction takes its write lock before counting (core.db).
    """
    lock_for_write(session)
    session.exec(select(User.id).where(User.id == company_id).with_for_update(key_share=True)).first()


def hold_company(session: Session, company_id: int) -> None:
    """Serialize a company's limited writes (jobs, team members) until the transaction ends (`_hold_company`)."""
    _hold_company(session, company_id)


def usage(session: Session, company_id: int) -> PlanUsage:
    """Count what the company's plan limits apply to."""
    active = session.exec(
        select(func.count())
        .select_from(Job)
        .where(
            Job.cliente_id == company_id,
            job_lifecycle.active_for_plan(),
        )
    ).one()
    created = session.exec(
        select(func.count())
        .select_from(Job)
        .where(Job.cliente_id == company_id, Job.criado_em >= _month_start(utcnow()))
    ).one()
    return PlanUsage(plan=current_plan(session, company_id), active_jobs=active, created_this_month=created)


def ensure_can_publish_active(
    session: Session, company_id: int, state: PlanUsage | None = None, count: int = 1
) -> None:
    """Refuse `count` more active (open) jobs beyond the plan's active-job limit.

    Raises:
        PlanLimitReached: With a Portuguese explanation naming the plan and its limit.
    """
    if state is None:
        _hold_company(session, company_id)
        state = usage(session, company_id)
    plan = state.plan
    if plan.active_job_limit is not None and state.active_jobs + count > plan.active_job_limit:
        raise PlanLimitReached(
            f"Seu plano {plan.name} permite até {plan.active_job_limit} vagas ativas. "
            "Encerre ou arquive uma vaga, ou conheça os planos pagos."
        )


def ensure_can_publish(session: Session, company_id: int, count: int = 1) -> None:
    """Refuse `count` newly created jobs ('Duplicar' creates several) beyond the plan's active or monthly limits.

    The company's publications are serialised until the caller's transaction ends (see
    `_hold_company`), so the caller should create the job in that same transaction.

    Raises:
        PlanLimitReached: With a Portuguese explanation naming the plan and its limit.
    """
    _hold_company(session, company_id)
    state = usage(session, company_id)
    plan = state.plan
    ensure_can_publish_active(session, company_id, state, count)
    if plan.monthly_job_limit is not None and state.created_this_month + count > plan.monthly_job_limit:
        raise PlanLimitReached(
            f"Seu plano {plan.name} permite até {plan.monthly_job_limit} vagas publicadas por mês. "
            + (MONTHLY_AT_TOP if plan.slug == PLANS[-1].slug else MONTHLY_UPGRADE)
        )
