"""One freelancer, one place at a time: no hiring whose time overlaps a shift they already hold.

A shift is held by a hiring in any state but the terminal ones (`hiring_lifecycle.TERMINAL`:
paid, cancelled by either side, no-show, expired): 'Aguardando pagamento' holds its time while the
company pays. Shifts that only touch (one ends at 16:00, the next starts at 16:00) do not overlap.

Accepting an application (services/shifts/application_answers.py `accept`, also behind 'Aceitar e pagar' and
'Aceitar convite') calls `refuse_overlap` inside its transaction, after `hold_freelancer`: two
accepts of overlapping vagas for the same freelancer, in two companies, at the same instant, decide
one after the other. On PostgreSQL that is a transaction-scoped advisory lock keyed by the
freelancer (`pg_advisory_xact_lock`); on SQLite the accept already runs as the database's one
writer (core.db.lock_for_write, taken by `company_jobs.owned_job(lock=True)`).
'Contratar novamente' checks the new date when the invite is sent (services/trust/invite_sending.py), and again
when it is accepted.
"""

import hashlib
from datetime import datetime

from sqlalchemy import func, select
from sqlmodel import Session

from core.db import lock_for_write
from core.formatting import local
from models import Hiring
from services.common.errors import ServiceError
from services.shifts import hiring_lifecycle

_KEY_PREFIX = b"turno:freelancer-shifts:"
HELD = "Este profissional já tem um turno"  # how the company's refusal starts (the time follows)


class ShiftOverlap(ServiceError):
    """The freelancer already holds a shift at that time; the message names its time, never its company.

    Attributes:
        start: The held shift's start (aware).
        end: The held shift's end (aware).
    """

    def __init__(self, start: datetime, end: datetime):
        self.start, self.end = start, end
        super().__init__(f"{HELD} {held_time(start, end)}.")

    def for_freelancer(self) -> ServiceError:
        """The same refusal, worded for the freelancer ('Você já tem um turno …')."""
        return ServiceError(f"Você já tem um turno {held_time(self.start, self.end)}.")


def held_time(start: datetime, end: datetime) -> str:
    """'das 10:57 às 16:57 em 07/12' in São Paulo time (the start's day)."""
    first, last = local(start), local(end)
    return f"das {first:%H:%M} às {last:%H:%M} em {first:%d/%m}"


def _lock_key(freelancer_id: int) -> int:
    """The signed 64-bit advisory-lock id of one freelancer's shifts."""
    digest = hashlib.sha256(_KEY_PREFIX + str(freelancer_id).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def hold_freelancer(session: Session, freelancer_id: int) -> None:
    """Until the transaction ends, no other transaction decides on this freelancer's shifts.

    PostgreSQL: `pg_advisory_xact_lock` on the freelancer (released at commit or rollback).
    SQLite: the transaction becomes the one writer (a no-op when it already is).
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(_lock_key(freelancer_id))))
    else:
        lock_for_write(session)


def held_shift(
    session: Session, freelancer_id: int, start: datetime, end: datetime, except_application: int | None = None
) -> Hiring | None:
    """The earliest shift the freelancer holds that overlaps [start, end) (None when free)."""
    query = (
        select(Hiring)
        .where(
            Hiring.freelancer_id == freelancer_id,
            Hiring.state.not_in(hiring_lifecycle.TERMINAL),
            Hiring.inicio_em < end,
            Hiring.fim_em > start,
        )
        .order_by(Hiring.inicio_em, Hiring.id)
        .limit(1)
    )
    if except_application is not None:
        query = query.where(Hiring.application_id != except_application)
    return session.execute(query).scalars().first()


def refuse_overlap(
    session: Session, freelancer_id: int, start: datetime, end: datetime, except_application: int | None = None
) -> None:
    """Refuse a shift [start, end) for a freelancer who holds an overlapping one.

    Call `hold_freelancer` first in a transaction that then hires, so the answer stays true until commit.

    Raises:
        ShiftOverlap: Naming the held shift's time.
    """
    held = held_shift(session, freelancer_id, start, end, except_application)
    if held is not None:
        raise ShiftOverlap(held.inicio_em, held.fim_em)
