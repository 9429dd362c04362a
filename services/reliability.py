"""Comparecimento and pontualidade on a freelancer's profile (docs/product.md §5a, 'Como calculamos').

Over the freelancer's last 20 shifts that happened or should have (arrival recorded, or marked as a
no-show), shown once there are at least 3: 'Comparecimento 95% · Pontualidade 90% · 20 turnos'.
Comparecimento is the share of those shifts with an arrival; pontualidade the share of arrivals at
most 5 minutes after the start (a manual record counts by the server's time). Faltas stay private.
"""

from sqlalchemy import or_
from sqlmodel import Session, select

from core import shift_rules as rules
from models import Hiring, HiringState


def figures(session: Session, freelancer_id: int) -> tuple[int, int, int]:
    """(shifts counted, arrivals, punctual arrivals) over the last RELIABILITY_WINDOW shifts."""
    rows = session.exec(
        select(Hiring.chegada_em, Hiring.inicio_em)
        .where(
            Hiring.freelancer_id == freelancer_id,
            or_(Hiring.chegada_em.is_not(None), Hiring.state == HiringState.NO_SHOW),  # type: ignore[union-attr]
        )
        .order_by(Hiring.inicio_em.desc())
        .limit(rules.RELIABILITY_WINDOW)
    ).all()
    arrived = [(at, start) for at, start in rows if at is not None]
    punctual = sum(1 for at, start in arrived if at <= start + rules.PUNCTUAL_GRACE)
    return len(rows), len(arrived), punctual


def summary(session: Session, freelancer_id: int) -> str:
    """'Comparecimento 95% · Pontualidade 90% · 20 turnos', or '' below RELIABILITY_MIN_SHIFTS."""
    shifts, arrived, punctual = figures(session, freelancer_id)
    if shifts < rules.RELIABILITY_MIN_SHIFTS:
        return ""
    attendance = round(100 * arrived / shifts)
    on_time = round(100 * punctual / arrived) if arrived else 0
    return f"Comparecimento {attendance}% · Pontualidade {on_time}% · {shifts} turnos"
