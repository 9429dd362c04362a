"""The shift loop's timer: one idempotent `tick(now)` moves every hiring whose deadline has passed.

Each hiring stores when the timer next has work with it (`due_at`) and when its next reminder goes
out (`remind_at`). `tick` moves what is due, one hiring per transaction, through the same
`hiring_lifecycle.move` as the people do: its `version` condition lets exactly one of any number
of workers running the tick at once (or a person clicking at the same moment) move a hiring; the
others find it moved and go on. A hiring overdue by several steps (the server was down) takes them
one after the other, each at its own deadline, so a missed minute is caught up and never skipped.
Reminders are claimed the same way, by a conditional update of `remind_at`.

It runs every TICK_SECONDS in each server process (app/timer.py) and by hand with
`python -m scripts.tick`.
"""

import logging
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import update
from sqlmodel import Session, select

from core import routes
from core import shift_rules as rules
from core.db import session_scope
from models import Actor, Hiring, HiringState, Job, NotificationType
from services import faltas, hiring_lifecycle, shift_pay
from services.hiring_lifecycle import HiringMoveRefused
from services.notifications import notify
from services.shifts import approved_values, money_cents, prefilled_minutes, when

log = logging.getLogger(__name__)
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]
MAX_ROUNDS = 20  # a hiring moves at most 6 times by the timer; the rest is headroom


class TickReport(NamedTuple):
    """What one tick did."""

    moved: int
    reminded: int


def tick(now: datetime, batch: int = rules.TICK_BATCH, scope: Callable = session_scope) -> TickReport:
    """Move every hiring whose deadline is at or before `now`, and send the reminders due.

    Args:
        now: The time the tick runs for (tests pass a fake clock).
        batch: Hirings read per query.
        scope: Opens a committing session (core.db.session_scope; tests pass their own engine's).

    Returns:
        How many moves and reminders this call made (0 and 0 when another worker did them).
    """
    moved = reminded = 0
    for _ in range(MAX_ROUNDS):
        with scope() as db:
            due = db.exec(
                select(Hiring.id).where(Hiring.due_at <= now).order_by(Hiring.due_at, Hiring.id).limit(batch)
            ).all()
        if not due:
            break
        done = sum(_advance(scope, hiring_id, now) for hiring_id in due)
        moved += done
        if not done:
            break
    with scope() as db:
        reminders = db.exec(
            select(Hiring.id).where(Hiring.remind_at <= now).order_by(Hiring.remind_at, Hiring.id).limit(batch)
        ).all()
    reminded = sum(_remind(scope, hiring_id, now) for hiring_id in reminders)
    return TickReport(moved, reminded)


def _advance(scope: Callable, hiring_id: int, now: datetime) -> int:
    """Run the timer's action of one due hiring, at its deadline; 1 when it moved."""
    try:
        with scope() as db:
            h = db.get(Hiring, hiring_id, populate_existing=True)
            if h is None or h.due_at is None or h.due_at > now:
                return 0
            action = hiring_lifecycle.timer_action(h.state, h)
            at = h.due_at
            moved = hiring_lifecycle.move(
                db, h, action, Actor.TIMER, at, reason=_REASONS[action], values=_values(h, action, at)
            )
            _after(db, moved.hiring, action, at)
            return 1
    except HiringMoveRefused:
        return 0  # another worker or a person moved it first
    except Exception:
        log.exception("shift timer: hiring %s could not move; the next tick tries again", hiring_id)
        return 0


_REASONS = {
    "nao_confirmou": "Presença não confirmada até 12 horas antes do início.",
    "sem_registro": "Nenhum registro de chegada até 12 horas após o fim do turno.",
    "saida_nao_registrada": "Saída não registrada até 4 horas após o fim do turno.",
    "horas_pelos_registros": "Horas enviadas automaticamente a partir dos registros.",
    "aprovacao_automatica": "Horas aprovadas automaticamente após 48 horas.",
    "ajuste_aceito_automaticamente": "Ajuste aceito automaticamente após 48 horas.",
}


def _values(h: Hiring, action: str, at: datetime) -> dict:
    if action == "sem_registro":
        return {"terminou_em": at}
    if action == "saida_nao_registrada":
        return {"terminou_em": h.fim_em}
    if action == "horas_pelos_registros":
        return {"minutos_enviados": prefilled_minutes(h), "horas_enviadas_em": at}
    if action == "aprovacao_automatica":
        return approved_values(h, h.minutos_enviados or 0)
    if action == "ajuste_aceito_automaticamente":
        return approved_values(h, h.minutos_ajuste or 0)
    return {}


def _title(db: Session, h: Hiring) -> str:
    return db.exec(select(Job.titulo).where(Job.id == h.job_id)).first() or ""


def _after(db: Session, h: Hiring, action: str, at: datetime) -> None:
    """The falta and the notices of a timer step."""
    title, start = _title(db, h), when(h)
    to_company = to_freelancer = None
    if action == "nao_confirmou":
        to_company = f'O turno "{title}" de {start} ainda não foi confirmado. Você pode cancelar sem custo.'
        to_freelancer = f'Confirme sua presença no turno "{title}" de {start}.'
    elif action == "sem_registro":
        faltas.add(db, h.freelancer_id, h.id, rules.FALTAS_FOR_NO_SHOW, "nao_compareceu", at)
        to_company = f'Nenhum registro de chegada no turno "{title}": marcado como não compareceu.'
        to_freelancer = f'Sem registro de chegada no turno "{title}": marcado como não compareceu. Você pode contestar em até 48 horas.'
    elif action == "saida_nao_registrada":
        to_freelancer = f'Sua saída do turno "{title}" não foi registrada. Envie suas horas.'
    elif action == "horas_pelos_registros":
        to_company = (
            f'Horas do turno "{title}" enviadas a partir dos registros: {shift_pay.hours_text(h.minutos_enviados)}.'
        )
    elif action in ("aprovacao_automatica", "ajuste_aceito_automaticamente"):
        to_freelancer = f'Horas do turno "{title}" aprovadas: {shift_pay.hours_text(h.minutos_aprovados)} = {money_cents(h.valor_centavos)}.'
        to_company = f'As horas do turno "{title}" foram aprovadas automaticamente: {money_cents(h.valor_centavos)}.'
    if to_company:
        notify(db, h.company_id, NotificationType.SHIFT, to_company, routes.NoticeTarget.COMPANY_SHIFTS)
    if to_freelancer:
        notify(db, h.freelancer_id, NotificationType.SHIFT, to_freelancer, routes.NoticeTarget.FREELANCER_SHIFTS)


def _remind(scope: Callable, hiring_id: int, now: datetime) -> int:
    """Send the latest reminder due for one hiring, claimed by a conditional update; 1 when sent."""
    with scope() as db:
        h = db.get(Hiring, hiring_id, populate_existing=True)
        if h is None or h.remind_at is None or h.remind_at > now:
            return 0
        claimed_at, sent = h.remind_at, h.reminders_sent
        hours_wait = h.state == HiringState.HOURS_SENT
        if not hours_wait:  # skip the reminders a downtime made pointless: send only the latest due
            while (
                sent + 1 < len(rules.FREELANCER_REMINDERS) and h.inicio_em - rules.FREELANCER_REMINDERS[sent + 1] <= now
            ):
                sent += 1
        h.reminders_sent = sent + 1
        following = None if hours_wait else hiring_lifecycle.remind_at(h.state, h)
        changed = db.execute(
            update(_HIRINGS)
            .where(_HIRINGS.c.id == h.id, _HIRINGS.c.remind_at == claimed_at)
            .values(remind_at=following, reminders_sent=sent + 1)
            .execution_options(synchronize_session=False)
        ).rowcount
        if not changed:
            db.rollback()
            return 0
        title, start = _title(db, h), when(h)
        if hours_wait:
            notify(
                db,
                h.company_id,
                NotificationType.SHIFT,
                f'Faltam 6 horas para a aprovação automática das horas do turno "{title}".',
                routes.NoticeTarget.COMPANY_SHIFTS,
            )
        else:
            notify(
                db,
                h.freelancer_id,
                NotificationType.SHIFT,
                f'Lembrete: seu turno "{title}" começa {start}.',
                routes.NoticeTarget.FREELANCER_SHIFTS,
            )
        return 1
