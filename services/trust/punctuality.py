"""'Selo Empresa Pontual' kept on each company's profile, refreshed by the timer (core/punctuality.py).

Not computed on page views: the job list and the job page read `profiles.selo_pontual` and
`selo_resumo` in the statements they already run (cached under the list token, which the profile
triggers move when these change, alembic 0022). The timer step `refresh_due` recomputes a company
when one of its hirings changed since its last computation (`hirings.updated_at` after
`profiles.selo_em`, over ix_hirings_company_updated) or a day has passed (the 90-day window slides),
from that company's own 90 days of hirings, and writes the shown columns only when they change.
Companies without hirings are never due (their panel says what they lack without a computation).
"""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, exists, or_, select, update
from sqlmodel import Session

from core.punctuality import AUTO_APPROVAL_HOURS, WINDOW_DAYS, HiringFacts, Punctuality, score
from models import Hiring, HiringEvent, HiringState, Profile, Role
from services.shifts.hiring_lifecycle import RATABLE

REFRESH_EVERY = timedelta(days=1)
# A hiring change stamped `updated_at = now` may commit a moment after the timer read the hirings:
# `selo_em` is the computation's time less this, so such a change is still seen on the next tick.
IN_FLIGHT = timedelta(minutes=1)
BATCH = 100
NOT_A_SHIFT = (HiringState.AWAITING_PAYMENT, HiringState.EXPIRED)
ANSWERS = ("aprovar", "aprovacao_automatica", "contestar_ajuste")
BADGE = "Empresa Pontual"


def _aware(moment: datetime | None) -> datetime | None:
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def _hours(later: datetime | None, earlier: datetime | None) -> float | None:
    if later is None or earlier is None:
        return None
    return max(0.0, (_aware(later) - _aware(earlier)).total_seconds() / 3600)


def facts(session: Session, company_id: int, now: datetime) -> list[HiringFacts]:
    """The company's hirings whose shift started in the last 90 days, as the rule reads them (two statements)."""
    hirings = (
        session.execute(
            select(Hiring).where(
                Hiring.company_id == company_id,
                Hiring.inicio_em > now - timedelta(days=WINDOW_DAYS),
                Hiring.inicio_em <= now,
                Hiring.state.not_in(NOT_A_SHIFT),
            )
        )
        .scalars()
        .all()
    )
    if not hirings:
        return []
    events: dict[int, dict[str, datetime]] = {}
    for hiring_id, action, at in session.execute(
        select(HiringEvent.hiring_id, HiringEvent.action, HiringEvent.at).where(
            HiringEvent.hiring_id.in_([h.id for h in hirings]), HiringEvent.action.in_(ANSWERS)
        )
    ).all():
        events.setdefault(hiring_id, {})[action] = at
    return [_facts(hiring, events.get(hiring.id, {}), now) for hiring in hirings]


def _facts(hiring: Hiring, events: dict[str, datetime], now: datetime) -> HiringFacts:
    """One hiring as the rule reads it.

    Only a shift whose hours were approved (or paid) happened: a cancelled one, a no-show or one still
    running is no evidence of punctuality. Hours left unanswered longer than the automatic approval's
    48 h (hours above the schedule wait for the company, never for the timer) count as waited so far.
    """
    waited = _hours(now, hiring.horas_enviadas_em)
    if "aprovacao_automatica" in events:
        answer = AUTO_APPROVAL_HOURS
    elif hiring.state == HiringState.HOURS_SENT:
        answer = waited if waited is not None and waited >= AUTO_APPROVAL_HOURS else None
    elif hiring.ajuste_em is not None:
        answer = _hours(hiring.ajuste_em, hiring.horas_enviadas_em)
    else:
        answer = _hours(events.get("aprovar"), hiring.horas_enviadas_em)
    adjusted = hiring.ajuste_em is not None
    reversed_ = (
        adjusted
        and "contestar_ajuste" in events
        and hiring.minutos_aprovados is not None
        and hiring.minutos_aprovados == hiring.minutos_enviados
    )
    return HiringFacts(
        happened=hiring.state in RATABLE,
        late_cancel=hiring.state == HiringState.CANCELLED_BY_COMPANY and hiring.taxa_cancelamento_centavos > 0,
        answer_hours=answer,
        adjusted=adjusted,
        reversed=bool(reversed_),
        disputed=hiring.state == HiringState.DISPUTED,
    )


def refresh(session: Session, company_id: int, now: datetime) -> Punctuality:
    """Recompute one company and keep it on its profile (the shown columns only when they change)."""
    result = score(facts(session, company_id, now))
    profile = session.get(Profile, company_id)
    if profile is None:
        return result
    summary = result.summary if result.badge else ""
    shown = {"selo_pontual": result.badge, "selo_resumo": summary}
    values = {
        "selo_em": now - IN_FLIGHT,
        "selo_dados": {
            "turnos": result.hirings,
            "cancelamentos_tardios": round(result.late_cancel * 100),
            "horas_para_aprovar": None if result.approval_hours is None else round(result.approval_hours, 1),
            "ajustes_revertidos": round(result.reversed * 100),
            "disputas_abertas": result.disputes,
            "resumo": result.summary,
            "falta": result.missing,
        },
    }
    if (profile.selo_pontual, profile.selo_resumo) != (shown["selo_pontual"], shown["selo_resumo"]):
        values.update(shown)
    session.execute(update(Profile).where(Profile.user_id == company_id).values(**values))
    return result


def due(session: Session, now: datetime, limit: int = BATCH) -> list[int]:
    """Companies to recompute: never computed, computed over a day ago, or with a hiring changed since."""
    changed = exists().where(
        Hiring.company_id == Profile.user_id, or_(Profile.selo_em.is_(None), Hiring.updated_at > Profile.selo_em)
    )
    return list(
        session.execute(
            select(Profile.user_id)
            .where(
                Profile.tipo_usuario == Role.CLIENT,
                or_(changed, and_(Profile.selo_em.is_not(None), Profile.selo_em < now - REFRESH_EVERY)),
            )
            .order_by(Profile.selo_em.is_not(None), Profile.selo_em, Profile.user_id)
            .limit(limit)
        ).scalars()
    )


def refresh_due(now: datetime, scope: Callable) -> int:
    """The timer's step: recompute the companies `due` lists, one transaction each."""
    with scope() as db:
        companies = due(db, now)
    for company_id in companies:
        with scope() as db:
            refresh(db, company_id, now)
    return len(companies)


def panel(session: Session, company_id: int) -> dict:
    """The company's own 'Selo Empresa Pontual' panel: the badge, its figures and what it lacks."""
    row = session.execute(select(Profile.selo_pontual, Profile.selo_dados).where(Profile.user_id == company_id)).first()
    data = (row.selo_dados if row is not None else None) or {}
    return {
        "badge": bool(row.selo_pontual) if row is not None else False,
        "summary": data.get("resumo", "Ainda sem turnos nos últimos 90 dias."),
        "missing": list(data.get("falta", [f"Faltam 5 turnos nos últimos {WINDOW_DAYS} dias."])),
    }
