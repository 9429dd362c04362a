"""Comparecimento and pontualidade on a freelancer's profile (docs/product/shifts.md §5a, 'Como calculamos').

Over the freelancer's last 20 shifts that happened or should have (arrival recorded, or marked as a
no-show), shown once there are at least 3: 'Comparecimento 95% · Pontualidade 90% · 20 turnos'.
Comparecimento is the share of those shifts with an arrival; pontualidade the share of arrivals at
most 5 minutes after the start (a manual record counts by the server's time). Faltas stay private.

One freelancer (a profile page) is one statement; a list of them (the company's 'Minha equipe' tab)
is one statement too, whatever its length (`summaries`).
"""

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import func, or_
from sqlmodel import Session, select

from core import shift_rules as rules
from models import Hiring, HiringState

# The shifts that count (they happened, or should have) and which are the latest: the rule's rows.
_COUNTED = or_(Hiring.chegada_em.is_not(None), Hiring.state == HiringState.NO_SHOW)  # type: ignore[union-attr]
_NEWEST_FIRST = (Hiring.inicio_em.desc(), Hiring.id.desc())


def _tally(rows: Iterable[tuple[datetime | None, datetime]]) -> tuple[int, int, int]:
    """(shifts counted, arrivals, punctual arrivals) of a freelancer's counted (arrival, start) rows."""
    rows = list(rows)
    arrived = [(at, start) for at, start in rows if at is not None]
    punctual = sum(1 for at, start in arrived if at <= start + rules.PUNCTUAL_GRACE)
    return len(rows), len(arrived), punctual


def _text(shifts: int, arrived: int, punctual: int) -> str:
    """The line the screens show for the figures ('' below RELIABILITY_MIN_SHIFTS)."""
    if shifts < rules.RELIABILITY_MIN_SHIFTS:
        return ""
    attendance = round(100 * arrived / shifts)
    on_time = round(100 * punctual / arrived) if arrived else 0
    return f"Comparecimento {attendance}% · Pontualidade {on_time}% · {shifts} turnos"


def figures(session: Session, freelancer_id: int) -> tuple[int, int, int]:
    """(shifts counted, arrivals, punctual arrivals) over the last RELIABILITY_WINDOW shifts."""
    rows = session.exec(
        select(Hiring.chegada_em, Hiring.inicio_em)
        .where(Hiring.freelancer_id == freelancer_id, _COUNTED)
        .order_by(*_NEWEST_FIRST)
        .limit(rules.RELIABILITY_WINDOW)
    ).all()
    return _tally(rows)


def summary(session: Session, freelancer_id: int) -> str:
    """'Comparecimento 95% · Pontualidade 90% · 20 turnos', or '' below RELIABILITY_MIN_SHIFTS."""
    return _text(*figures(session, freelancer_id))


def figures_of(session: Session, freelancer_ids: Iterable[int]) -> dict[int, tuple[int, int, int]]:
    """`figures` of several freelancers in one statement (every id is a key; (0, 0, 0) without shifts).

    Each freelancer's last RELIABILITY_WINDOW counted shifts are picked by a window function
    (ROW_NUMBER per freelancer, newest first, as `figures` orders them), on both databases.
    """
    ids = sorted(set(freelancer_ids))
    if not ids:
        return {}
    rank = func.row_number().over(partition_by=Hiring.freelancer_id, order_by=_NEWEST_FIRST).label("rank")
    latest = (
        select(Hiring.freelancer_id, Hiring.chegada_em, Hiring.inicio_em, rank)
        .where(Hiring.freelancer_id.in_(ids), _COUNTED)
        .subquery()
    )
    rows = session.exec(
        select(latest.c.freelancer_id, latest.c.chegada_em, latest.c.inicio_em).where(
            latest.c.rank <= rules.RELIABILITY_WINDOW
        )
    ).all()
    by_freelancer: dict[int, list[tuple[datetime | None, datetime]]] = {freelancer: [] for freelancer in ids}
    for freelancer, at, start in rows:
        by_freelancer[freelancer].append((at, start))
    return {freelancer: _tally(found) for freelancer, found in by_freelancer.items()}


def summaries(session: Session, freelancer_ids: Iterable[int]) -> dict[int, str]:
    """`summary` of several freelancers in one statement, by id ('' below RELIABILITY_MIN_SHIFTS)."""
    return {freelancer: _text(*found) for freelancer, found in figures_of(session, freelancer_ids).items()}
