"""The life of a hiring (one accepted application's shift): its states and the only way to move it.

Every transition of the state table in docs/product/shifts.md "Turnos" is a row of `RULES`
(services/shifts/hiring_rules.py): the action, the states it leaves, the state it reaches, who may
trigger it and the time window it needs. `move`
is the only writer of `hirings.state`: it checks the rule, writes the new state with the values the
step records under an optimistic `version` condition (so two clicks, two tabs or two workers move a
hiring once), recomputes when the timer next has work with the row (`due_at`) and when the next
reminder goes out (`remind_at`), and records the step in `hiring_events`. Callers check who is
calling (services/shifts/shifts.py) and commit; a refused move raises and changes nothing.
"""

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import insert, inspect, select, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from core import shift_rules as rules
from models import Actor, Hiring, HiringEvent, HiringState, PaymentMode
from services.jobs import hiring_positions
from services.shifts.hiring_actions import HiringAction as A
from services.shifts.hiring_rules import (
    NOT_NOW,
    SCHEDULED,
    ended_at,
    is_direct,
    rule_for,
    sent_at,
    timer_action,
    window_refusal,
)

S = HiringState
E, P, T, TIMER = Actor.COMPANY, Actor.FREELANCER, Actor.STAFF, Actor.TIMER
TERMINAL = frozenset({S.PAID, S.CANCELLED_BY_FREELANCER, S.CANCELLED_BY_COMPANY, S.NO_SHOW, S.EXPIRED})
RATABLE = frozenset({S.APPROVED, S.PAID})
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]
_EVENTS = HiringEvent.__table__  # type: ignore[attr-defined]

STALE = "Este turno acabou de mudar. Atualize a página e tente de novo."


class HiringMoveRefused(ValueError):
    """The rule table does not allow this move now; `message` is what the person sees."""

    def __init__(self, message: str = NOT_NOW):
        super().__init__(message)
        self.message = message


def due_at(state: str, h: Hiring) -> datetime | None:
    """When the timer next has work with a hiring in `state` (None when nothing is ever due)."""
    action = timer_action(state, h)
    if action is None:
        return None
    rule = rule_for(action, state, TIMER)
    return rule.window.opens(h)


def reminders_passed(inicio_em: datetime, sent: int, now: datetime) -> int:
    """How many of the freelancer's reminders are gone by `now`: the `sent` ones and every later one whose time passed.

    The one place that skips reminders whose time has passed (a shift paid or accepted late, a timer
    back from a downtime): only what is still ahead of the shift is sent.
    """
    passed = sent
    while passed < len(rules.FREELANCER_REMINDERS) and inicio_em - rules.FREELANCER_REMINDERS[passed] <= now:
        passed += 1
    return passed


def remind_at(state: str, h: Hiring) -> datetime | None:
    """When the next reminder of a hiring in `state` goes out (None when none is left).

    Scheduled shifts remind the freelancer at I - 24 h and I - 2 h (`reminders_sent` counts those
    gone); hours waiting for approval remind the company 6 h before the automatic approval (hours
    only a person approves are reminded at the same time, with what to do).
    """
    if state in (S.SCHEDULED, S.CONFIRMED, S.UNCONFIRMED):
        left = rules.FREELANCER_REMINDERS[h.reminders_sent :]
        return h.inicio_em - left[0] if left else None
    if state == S.HOURS_SENT and h.horas_enviadas_em is not None:
        return sent_at(h) + rules.APPROVAL_WINDOW - rules.APPROVAL_REMINDER_BEFORE
    return None


# Where a protected payment's money goes once the hiring is here (services/money/).
SETTLES = frozenset({S.APPROVED, S.CANCELLED_BY_FREELANCER, S.CANCELLED_BY_COMPANY, S.NO_SHOW, S.EXPIRED})


def settle_at(state: str, h: Hiring, now: datetime) -> datetime | None:
    """When the settlement of a protected payment runs for a hiring reaching `state` (None: not now).

    A no-show may still be contested (and approved by Turno), so its refund waits for the end of
    that window; a decided dispute or any other ending settles at once.
    """
    if state not in SETTLES:
        return None
    if state == S.NO_SHOW:
        return max(now, ended_at(h) + rules.CONTEST_WINDOW)
    return now


class Moved(NamedTuple):
    """A move that happened: the hiring as it is now and the state it left."""

    hiring: Hiring
    from_state: str


MoveListener = Callable[[Session, Moved, str, str], None]
_LISTENERS: list[MoveListener] = []


def listen(listener: MoveListener) -> None:
    """Hear every move: `listener(session, moved, action, actor)` runs at the end of each, in its transaction.

    The domains above the shift loop (money: services/money/expiry.py) subscribe here, so the shift
    loop never calls them; services/__init__.py connects them for every process that imports a service.
    """
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def move(
    session: Session,
    hiring: Hiring,
    action: str,
    actor: str,
    now: datetime,
    *,
    actor_id: int | None = None,
    reason: str = "",
    values: dict | None = None,
) -> Moved:
    """Run one transition of the state table on `hiring` as it was read (its `version`).

    Args:
        session: Open session (the caller commits, or rolls back on any error).
        hiring: The hiring as read; its `version` is the one the move expects.
        action: The action (a `Rule.action`).
        actor: Who triggers it (models.Actor).
        now: The time of the move (the timer passes the time it runs for).
        actor_id: The user who acted (None for the timer).
        reason: Why, shown in the 'Linha do tempo'.
        values: Other columns the step records (times, minutes, amounts).

    Returns:
        The hiring re-read after the move, and the state it left.

    Raises:
        HiringMoveRefused: No rule allows it, it is outside its window, or another request moved
            the hiring first (STALE).
    """
    rule = rule_for(action, hiring.state, actor)
    if rule is None:
        raise HiringMoveRefused()
    refusal = window_refusal(rule, hiring, now)
    if refusal is not None:
        raise HiringMoveRefused(refusal)
    fields = dict(values or {})
    after = Hiring.model_construct(**{**hiring.model_dump(), **fields, "state": rule.target, "updated_at": now})
    if action == "pagamento_confirmado":  # reminders whose time passed while the company paid are skipped
        fields["reminders_sent"] = reminders_passed(after.inicio_em, after.reminders_sent, now)
        fields["remind_at"] = remind_at(rule.target, Hiring.model_construct(**{**after.model_dump(), **fields}))
    elif rule.target != hiring.state or "reminders_sent" in fields:
        fields["remind_at"] = remind_at(rule.target, after)
    fields["due_at"] = due_at(rule.target, after)
    if not is_direct(hiring) and rule.target != hiring.state:
        fields["repasse_em"] = settle_at(rule.target, after, now)
    fields.update(state=rule.target, version=hiring.version + 1, updated_at=now)
    changed = session.execute(
        update(_HIRINGS)
        .where(_HIRINGS.c.id == hiring.id, _HIRINGS.c.version == hiring.version)
        .values(**fields)
        .execution_options(synchronize_session=False)
    ).rowcount
    if not changed:
        raise HiringMoveRefused(STALE)
    from_state = hiring.state  # read before the row is brought up to date (the same identity)
    record(session, hiring.id, action, actor, now, actor_id, from_state, rule.target, reason)
    written = _as_written(session, hiring, fields)
    if rule.target != from_state and rule.target in TERMINAL:  # its vaga reopens a position or closes
        hiring_positions.hiring_ended(session, written, now)
    moved = Moved(written, from_state)
    for listener in _LISTENERS:
        listener(session, moved, action, actor)
    return moved


def _as_written(session: Session, hiring: Hiring, fields: dict) -> Hiring:
    """The hiring as the UPDATE just wrote it: the loaded row given the written values, else re-read.

    The values are set as already committed (not as changes), so the session never writes them again;
    the timer moves thousands of rows and saves the SELECT per move this way.
    """
    state = inspect(hiring, raiseerr=False)
    if state is None or not state.persistent or state.session is not session:
        return reread(session, hiring.id)
    for key, value in fields.items():
        set_committed_value(hiring, key, value)
    return hiring


def record(
    session: Session,
    hiring_id: int,
    action: str,
    actor: str,
    at: datetime,
    actor_id: int | None = None,
    from_state: str = "",
    to_state: str = "",
    reason: str = "",
) -> None:
    """Add one row to a hiring's 'Linha do tempo'."""
    session.execute(
        insert(_EVENTS).values(
            hiring_id=hiring_id,
            actor=actor,
            actor_id=actor_id,
            action=action,
            from_state=from_state,
            to_state=to_state,
            reason=reason[:500],
            at=at,
        )
    )


def reread(session: Session, hiring_id: int) -> Hiring:
    """The hiring as the database holds it now (not as this session first read it)."""
    return session.exec(
        select(Hiring).where(Hiring.id == hiring_id).execution_options(populate_existing=True)
    ).scalar_one()


def create(session: Session, values: dict, now: datetime, actor_id: int | None) -> Hiring:
    """The hiring of an application just accepted: 'agendada', with its first event and deadlines.

    Args:
        session: Open session (the caller commits).
        values: application_id, job_id, company_id, freelancer_id, inicio_em, fim_em,
            intervalo_min and valor_hora_centavos.
        now: The time of the acceptance.
        actor_id: The company that accepted.
    """
    state = S.SCHEDULED if values.get("pagamento", PaymentMode.DIRECT) != PaymentMode.GUARANTEED else S.AWAITING_PAYMENT
    draft = Hiring(**values, state=state, created_at=now, updated_at=now)
    draft.due_at = due_at(state, draft)
    draft.remind_at = _next_reminder_after(draft, now)
    session.add(draft)
    session.flush()
    record(session, draft.id, A.ACCEPT, E, now, actor_id, "", state)
    return draft


def _next_reminder_after(h: Hiring, now: datetime) -> datetime | None:
    """Skip the reminders whose time has passed already (a shift accepted 10 h before it starts)."""
    if h.state in SCHEDULED:
        h.reminders_sent = reminders_passed(h.inicio_em, h.reminders_sent, now)
    return remind_at(h.state, h)


def is_ratable(state: str) -> bool:
    """Ratings open once the hours are approved (docs/product/shifts.md "Turnos")."""
    return state in RATABLE
