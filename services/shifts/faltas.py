"""Faltas, suspensions and human reviews (docs/product/shifts.md "Turnos", reliability).

A freelancer's faltas are private. Three active ones suspend new applications for 14 days (shifts
already confirmed stay). A falta lapses after 90 days, and eight paid shifts in a row remove the
oldest active one. Each falta, no-show or suspension can go to Turno staff ('Pedir revisão humana',
within 7 days); disputes go there too. This module keeps those rows; services/shifts/shifts.py decides
when a step causes one.
"""

from datetime import datetime

from sqlalchemy import bindparam, func, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, select

from core import shift_rules as rules
from core.formatting import counted, local
from models import Actor, Falta, Hiring, HiringEvent, HiringState, ReviewRequest
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.validation import visible_length

SUSPENDED = "Você está com 3 faltas ativas e não pode se candidatar a novas vagas até {ate}."
REVIEW_SENT_ALREADY = "Você já pediu uma revisão desta falta."
REVIEW_LATE = "O prazo de 7 dias para pedir revisão terminou."
FALTA_NOT_FOUND = "Falta não encontrada."
MOTIVOS = {
    "cancelamento": "Cancelamento do turno",
    "nao_confirmou": "Presença não confirmada",
    "nao_compareceu": "Não compareceu",
}


def _active(freelancer_id: int, now: datetime):
    return (
        Falta.freelancer_id == freelancer_id,
        Falta.removida_em.is_(None),  # type: ignore[union-attr]
        Falta.expires_at > now,
    )


def active_points(session: Session, freelancer_id: int, now: datetime) -> int:
    """The weight of a freelancer's active faltas."""
    return int(session.exec(select(func.coalesce(func.sum(Falta.pontos), 0)).where(*_active(freelancer_id, now))).one())


def add(session: Session, freelancer_id: int, hiring_id: int | None, points: int, motivo: str, now: datetime) -> Falta:
    """Record a falta; reaching 3 active points starts a 14-day suspension of new applications."""
    falta = Falta(
        freelancer_id=freelancer_id,
        hiring_id=hiring_id,
        pontos=points,
        motivo=motivo,
        created_at=now,
        expires_at=now + rules.FALTA_LIFETIME,
    )
    session.add(falta)
    session.flush()
    if active_points(session, freelancer_id, now) >= rules.FALTAS_TO_SUSPEND:
        falta.suspende_ate = now + rules.SUSPENSION
        session.add(falta)
        session.flush()
    return falta


_FALTAS = Falta.__table__  # type: ignore[attr-defined]
# The end of a running suspension (NULL when none), built once: applying asks it on every apply
# as a column of its one job query (services/shifts/applications.py).
SUSPENDED_UNTIL = (
    sa_select(func.max(_FALTAS.c.suspende_ate))
    .where(
        _FALTAS.c.freelancer_id == bindparam("freelancer_id"),
        _FALTAS.c.removida_em.is_(None),
        _FALTAS.c.suspende_ate > bindparam("now", type_=_FALTAS.c.suspende_ate.type),
    )
    .scalar_subquery()
)


def suspended_until(session: Session, freelancer_id: int, now: datetime) -> datetime | None:
    """The end of the freelancer's suspension, or None when they may apply."""
    return session.execute(sa_select(SUSPENDED_UNTIL), {"freelancer_id": freelancer_id, "now": now}).scalar()


def refuse_if_suspended(until: datetime | None) -> None:
    """Raises ServiceError(SUSPENDED) when `until` (a suspension's end, read with SUSPENDED_UNTIL) is set."""
    if until is not None:
        raise ServiceError(SUSPENDED.format(ate=f"{local(until):%d/%m/%Y}"))


def forgive_after_paid_streak(session: Session, freelancer_id: int, now: datetime) -> None:
    """Eight shifts paid in a row since the latest falta (or forgiveness) remove the oldest active falta."""
    last = session.exec(
        select(func.max(func.coalesce(Falta.removida_em, Falta.created_at))).where(Falta.freelancer_id == freelancer_id)
    ).one()
    if last is None:
        return
    streak = session.exec(
        select(func.count())
        .select_from(Hiring)
        .where(
            Hiring.freelancer_id == freelancer_id,
            Hiring.state == HiringState.PAID,
            func.coalesce(Hiring.pago_em, Hiring.recebido_em) > last,
        )
    ).one()
    if streak < rules.PAID_STREAK_FORGIVES:
        return
    oldest = session.exec(select(Falta).where(*_active(freelancer_id, now)).order_by(Falta.created_at)).first()
    if oldest is not None:
        oldest.removida_em, oldest.removida_motivo = now, "8 turnos pagos seguidos."
        oldest.suspende_ate = None
        session.add(oldest)
        session.flush()


def lift_for_hiring(session: Session, hiring_id: int, reason: str, now: datetime) -> None:
    """Turno staff decided for the freelancer: the hiring's faltas (and their suspension) go."""
    session.execute(
        update(Falta)
        .where(Falta.hiring_id == hiring_id, Falta.removida_em.is_(None))  # type: ignore[union-attr]
        .values(removida_em=now, removida_motivo=reason[:500], suspende_ate=None)
    )


def open_review(
    session: Session, hiring: Hiring, user_id: int, kind: str, reason: str, now: datetime, falta_id=None
) -> None:
    """Put a dispute or a review request in /admin's queue."""
    session.add(
        ReviewRequest(
            hiring_id=hiring.id, requested_by=user_id, kind=kind, falta_id=falta_id, motivo=reason, created_at=now
        )
    )
    session.flush()


def close_reviews(session: Session, hiring_id: int, staff_id: int, decision: str, reason: str, now: datetime) -> None:
    """Record the staff decision on every open request of a hiring."""
    session.execute(
        update(ReviewRequest)
        .where(ReviewRequest.hiring_id == hiring_id, ReviewRequest.decided_at.is_(None))  # type: ignore[union-attr]
        .values(decided_at=now, decided_by=staff_id, decisao=decision, decisao_motivo=reason[:1000])
    )


def request_review(session: Session, freelancer_id: int, falta_id: object, reason: str, now: datetime) -> None:
    """'Pedir revisão humana' of one of the freelancer's faltas, within 7 days of it.

    Raises:
        NotAllowed: Not the freelancer's falta.
        ServiceError: Too late, already asked, or the reason is too short.
    """
    falta = session.get(Falta, require_id(falta_id, FALTA_NOT_FOUND))
    if falta is None or falta.freelancer_id != freelancer_id:
        raise NotAllowed(FALTA_NOT_FOUND, target=f"falta {falta_id}")
    if now - falta.created_at > rules.REVIEW_WINDOW or falta.removida_em is not None:
        raise ServiceError(REVIEW_LATE)
    if session.exec(select(ReviewRequest.id).where(ReviewRequest.falta_id == falta.id)).first() is not None:
        raise ServiceError(REVIEW_SENT_ALREADY)
    text = " ".join(reason.split())
    if visible_length(text, rules.ADJUST_REASON_MIN) < rules.ADJUST_REASON_MIN:
        raise ServiceError("Explique o motivo com pelo menos 10 caracteres.")
    if falta.hiring_id is None:
        raise ServiceError(REVIEW_LATE)
    session.add(
        ReviewRequest(
            hiring_id=falta.hiring_id,
            requested_by=freelancer_id,
            kind="revisao",
            falta_id=falta.id,
            motivo=text[:1000],
            created_at=now,
        )
    )
    session.flush()


def decide_review(
    session: Session, request_id: int, staff_id: int, remove: bool, reason: str, now: datetime
) -> ReviewRequest:
    """Turno staff answers a review request: the falta is removed or kept, with a reason both sides see.

    The decision is written only while the request is still open (a conditional UPDATE), so two
    staff members deciding at once record one decision; the other gets "Este pedido já foi decidido.".
    """
    decided = session.execute(
        update(ReviewRequest)
        .where(ReviewRequest.id == request_id, ReviewRequest.decided_at.is_(None))  # type: ignore[union-attr]
        .values(
            decided_at=now,
            decided_by=staff_id,
            decisao="falta_removida" if remove else "falta_mantida",
            decisao_motivo=reason[:1000],
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    if not decided:
        raise ServiceError("Este pedido já foi decidido.")
    request = session.exec(
        select(ReviewRequest).where(ReviewRequest.id == request_id).execution_options(populate_existing=True)
    ).one()
    if remove and request.falta_id is not None:
        session.execute(
            update(Falta)
            .where(Falta.id == request.falta_id)
            .values(removida_em=now, removida_motivo=reason[:500], suspende_ate=None)
        )
    session.add(
        HiringEvent(
            hiring_id=request.hiring_id,
            actor=Actor.STAFF,
            actor_id=staff_id,
            action="revisao",
            reason=f"{'Falta removida' if remove else 'Falta mantida'}: {reason}"[:500],
            at=now,
        )
    )
    session.flush()
    return request


def wrong_codes(session: Session, hiring_id: int, now: datetime) -> int:
    """Wrong attendance codes typed for a hiring in the last 10 minutes."""
    return session.exec(
        select(func.count())
        .select_from(HiringEvent)
        .where(
            HiringEvent.hiring_id == hiring_id,
            HiringEvent.action == "codigo_incorreto",
            HiringEvent.at > now - rules.WRONG_CODES_WINDOW,
        )
    ).one()


def for_freelancer(session: Session, freelancer_id: int, now: datetime) -> list[dict]:
    """The freelancer's faltas, newest first, with whether each is active and may still be reviewed."""
    rows = session.exec(
        select(Falta).where(Falta.freelancer_id == freelancer_id).order_by(Falta.created_at.desc())
    ).all()
    asked = set(
        session.exec(select(ReviewRequest.falta_id).where(ReviewRequest.falta_id.in_([f.id for f in rows]))).all()
    )
    return [
        {
            "id": f.id,
            "points": f.pontos,
            "counted": counted(f.pontos, "falta", "faltas"),  # '2 faltas': what the rules count, never 'pontos'
            "reason": MOTIVOS.get(f.motivo, f.motivo),
            "date": f"{local(f.created_at):%d/%m/%Y}",
            "active": f.removida_em is None and f.expires_at > now,
            "can_review": f.removida_em is None and now - f.created_at <= rules.REVIEW_WINDOW and f.id not in asked,
            "reviewed": f.id in asked,
        }
        for f in rows
    ]
