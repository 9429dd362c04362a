"""The life of a hiring (one accepted application's shift): its states and the only way to move it.

Every transition of the state table in docs/product/shifts.md "Turnos" is a row of `RULES`: the action,
the states it leaves, the state it reaches, who may trigger it and the time window it needs. `move`
is the only writer of `hirings.state`: it checks the rule, writes the new state with the values the
step records under an optimistic `version` condition (so two clicks, two tabs or two workers move a
hiring once), recomputes when the timer next has work with the row (`due_at`) and when the next
reminder goes out (`remind_at`), and records the step in `hiring_events`. Callers check who is
calling (services/shifts/shifts.py) and commit; a refused move raises and changes nothing.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import insert, inspect, select, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from core import shift_rules as rules
from models import Actor, Hiring, HiringEvent, HiringState, PaymentMode
from services.jobs import hiring_positions, shift_pay
from services.shifts.hiring_actions import HiringAction as A

S = HiringState
E, P, T, TIMER = Actor.COMPANY, Actor.FREELANCER, Actor.STAFF, Actor.TIMER
SCHEDULED = frozenset({S.SCHEDULED, S.CONFIRMED, S.UNCONFIRMED})
TERMINAL = frozenset({S.PAID, S.CANCELLED_BY_FREELANCER, S.CANCELLED_BY_COMPANY, S.NO_SHOW, S.EXPIRED})
RATABLE = frozenset({S.APPROVED, S.PAID})
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]
_EVENTS = HiringEvent.__table__  # type: ignore[attr-defined]

STALE = "Este turno acabou de mudar. Atualize a página e tente de novo."
NOT_NOW = "Esta ação não está disponível para este turno agora."


class HiringMoveRefused(ValueError):
    """The rule table does not allow this move now; `message` is what the person sees."""

    def __init__(self, message: str = NOT_NOW):
        super().__init__(message)
        self.message = message


class Window(NamedTuple):
    """When an action may run, relative to the hiring's times; None bounds are open.

    `needs` is a condition on the row itself (None: always met), e.g. a late-cancellation fee owed.
    """

    opens: Callable[[Hiring], datetime] | None = None
    closes: Callable[[Hiring], datetime | None] | None = None  # a None it returns: never closes
    early: str = NOT_NOW
    late: str = NOT_NOW
    needs: Callable[[Hiring], bool] | None = None


_ALWAYS = Window()


@dataclass(frozen=True)
class Rule:
    """One row of the state table: `action` by one of `actors` moves `sources` to `target` within `window`."""

    action: str
    sources: frozenset
    target: str
    actors: frozenset
    window: Window = _ALWAYS


def _start(h: Hiring) -> datetime:
    return h.inicio_em


def _end(h: Hiring) -> datetime:
    return h.fim_em


def _ended(h: Hiring) -> datetime:
    """When the shift's work ended: the recorded exit or the scheduled end."""
    return h.terminou_em or h.fim_em


def _sent(h: Hiring) -> datetime:
    """When the hours were sent (the last change for a row that lacks it)."""
    return h.horas_enviadas_em or h.updated_at


def _adjusted(h: Hiring) -> datetime:
    """When the adjustment was proposed (the last change for a row that lacks it)."""
    return h.ajuste_em or h.updated_at


CONFIRM_EARLY = "Você poderá confirmar presença a partir de 48 horas antes do início do turno."
CHECK_IN_EARLY = "O registro de chegada abre 60 minutos antes do início do turno."
CHECK_IN_LATE = "O turno já terminou: use 'Não consigo registrar' ou fale com a empresa."
SHIFT_STARTED = "O turno já começou: não é mais possível cancelar."
NO_SHOW_EARLY = "Você poderá marcar 'Não compareceu' 30 minutos após o início do turno."
HOURS_LATE = "O prazo para enviar as horas terminou; elas foram enviadas a partir dos registros."
ADJUST_LATE = "O prazo de 48 horas para ajustar estas horas terminou."
CONTEST_LATE = "O prazo de 48 horas para contestar terminou."


def recorded_minutes(h: Hiring) -> int | None:
    """What the attendance records pay when both the arrival and the exit were recorded (None otherwise).

    A dismissal ('Dispensar agora') pays by its reason from the minutes between the records; any other
    shift pays what `shift_pay.recorded_minutes` reads from them (what 'Enviar horas' is prefilled with).
    """
    if h.chegada_em is None or h.saida_em is None:
        return None
    if h.dispensa_motivo:
        worked = shift_pay.minutes_between(max(h.chegada_em, h.inicio_em), h.saida_em)
        return shift_pay.dismissal_minutes(h.dispensa_motivo, worked, scheduled_minutes(h))
    return shift_pay.recorded_minutes(h.inicio_em, h.fim_em, h.intervalo_min, h.chegada_em, h.saida_em)


def hours_need_company(h: Hiring) -> str:
    """Why the hours sent wait for a person and never for the timer: 'agendado', 'registros' or '' (they don't).

    'agendado': more than the scheduled paid minutes (end - start - break). 'registros': more than the
    attendance records pay plus HOURS_RECORDS_TOLERANCE, when both the arrival and the exit were recorded.
    Such hours are approved only by the company ('Aprovar horas', or 'Ajustar horas' and the freelancer's
    answer) or by Turno staff deciding a dispute; the timer leaves them alone.
    """
    sent = h.minutos_enviados or 0
    if sent > scheduled_minutes(h):
        return "agendado"
    records = recorded_minutes(h)
    tolerance = int(rules.HOURS_RECORDS_TOLERANCE / timedelta(minutes=1))
    if records is not None and sent > records + tolerance:
        return "registros"
    return ""


def _approval_closes(h: Hiring) -> datetime | None:
    """When the automatic approval would take the hours sent (None: it never does, the company answers)."""
    return None if hours_need_company(h) else _sent(h) + rules.APPROVAL_WINDOW


def _direct(h: Hiring) -> bool:
    """Paid directly by the company (the sides record the payment), not through Turno."""
    return h.pagamento != PaymentMode.GUARANTEED


def _awaiting_since(h: Hiring) -> datetime:
    """When the company chose 'Aceitar e pagar' (the move into 'aguardando_pagamento' set it)."""
    return h.updated_at


_BEFORE_START = Window(closes=_start, late=SHIFT_STARTED)
_DIRECT = Window(needs=_direct)
_FEE_OWED = Window(needs=lambda h: h.taxa_cancelamento_centavos > 0 and _direct(h))
RULES: tuple[Rule, ...] = (
    # 'Pagamento garantido' (services/money/): the Checkout's outcome moves the hiring.
    Rule(A.PAYMENT_CONFIRMED, frozenset({S.AWAITING_PAYMENT}), S.SCHEDULED, frozenset({TIMER})),
    Rule(
        A.PAYMENT_EXPIRED,
        frozenset({S.AWAITING_PAYMENT}),
        S.EXPIRED,
        frozenset({TIMER}),
        Window(lambda h: _awaiting_since(h) + rules.PAYMENT_WINDOW),
    ),
    Rule(A.PAYMENT_NOT_COMPLETED, frozenset({S.AWAITING_PAYMENT}), S.EXPIRED, frozenset({TIMER})),
    Rule(A.GIVE_UP, frozenset({S.AWAITING_PAYMENT}), S.EXPIRED, frozenset({E})),
    Rule(A.ACCEPT_AGAIN, frozenset({S.EXPIRED}), S.AWAITING_PAYMENT, frozenset({E})),
    Rule(A.PAID_OUT, frozenset({S.APPROVED}), S.PAID, frozenset({TIMER})),
    Rule(
        A.CONFIRM,
        frozenset({S.SCHEDULED, S.UNCONFIRMED}),
        S.CONFIRMED,
        frozenset({P}),
        Window(lambda h: h.inicio_em - rules.CONFIRM_FROM, _start, CONFIRM_EARLY, SHIFT_STARTED),
    ),
    Rule(
        A.NOT_CONFIRMED,
        frozenset({S.SCHEDULED}),
        S.UNCONFIRMED,
        frozenset({TIMER}),
        Window(lambda h: h.inicio_em - rules.UNCONFIRMED_AT),
    ),
    Rule(A.CANCEL_FREE, frozenset({S.UNCONFIRMED}), S.CANCELLED_BY_COMPANY, frozenset({E}), _BEFORE_START),
    Rule(A.CANCEL, SCHEDULED, S.CANCELLED_BY_FREELANCER, frozenset({P}), _BEFORE_START),
    Rule(A.CANCEL, SCHEDULED, S.CANCELLED_BY_COMPANY, frozenset({E}), _BEFORE_START),
    Rule(
        A.CHECK_IN,
        SCHEDULED,
        S.IN_PROGRESS,
        frozenset({P, E}),
        Window(lambda h: h.inicio_em - rules.CHECK_IN_FROM, _end, CHECK_IN_EARLY, CHECK_IN_LATE),
    ),
    Rule(A.CHECK_OUT, frozenset({S.IN_PROGRESS}), S.ENDED, frozenset({P})),
    Rule(A.DISMISS, frozenset({S.IN_PROGRESS}), S.ENDED, frozenset({E})),
    Rule(
        A.EXIT_NOT_RECORDED,
        frozenset({S.IN_PROGRESS}),
        S.ENDED,
        frozenset({TIMER}),
        Window(lambda h: h.fim_em + rules.CHECK_OUT_MISSING),
    ),
    Rule(
        A.SEND_HOURS,
        frozenset({S.ENDED}),
        S.HOURS_SENT,
        frozenset({P}),
        Window(closes=lambda h: h.fim_em + rules.HOURS_DEADLINE, late=HOURS_LATE),
    ),
    Rule(
        A.HOURS_FROM_RECORDS,
        frozenset({S.ENDED}),
        S.HOURS_SENT,
        frozenset({TIMER}),
        Window(lambda h: h.fim_em + rules.HOURS_DEADLINE),
    ),
    Rule(A.APPROVE, frozenset({S.HOURS_SENT}), S.APPROVED, frozenset({E})),
    Rule(
        A.AUTO_APPROVAL,
        frozenset({S.HOURS_SENT}),
        S.APPROVED,
        frozenset({TIMER}),
        Window(lambda h: _sent(h) + rules.APPROVAL_WINDOW, needs=lambda h: not hours_need_company(h)),
    ),
    Rule(
        A.ADJUST,
        frozenset({S.HOURS_SENT}),
        S.ADJUSTMENT,
        frozenset({E}),
        Window(closes=_approval_closes, late=ADJUST_LATE),
    ),
    Rule(A.ACCEPT_ADJUSTMENT, frozenset({S.ADJUSTMENT}), S.APPROVED, frozenset({P})),
    Rule(
        A.CONTEST_ADJUSTMENT,
        frozenset({S.ADJUSTMENT}),
        S.DISPUTED,
        frozenset({P}),
        Window(closes=lambda h: _adjusted(h) + rules.ADJUSTMENT_WINDOW, late=CONTEST_LATE),
    ),
    Rule(
        A.ADJUSTMENT_AUTO_ACCEPTED,
        frozenset({S.ADJUSTMENT}),
        S.APPROVED,
        frozenset({TIMER}),
        Window(lambda h: _adjusted(h) + rules.ADJUSTMENT_WINDOW),
    ),
    Rule(
        A.NO_SHOW,
        SCHEDULED,
        S.NO_SHOW,
        frozenset({E}),
        Window(lambda h: h.inicio_em + rules.NO_SHOW_FROM, early=NO_SHOW_EARLY),
    ),
    Rule(A.NO_RECORD, SCHEDULED, S.NO_SHOW, frozenset({TIMER}), Window(lambda h: h.fim_em + rules.NO_RECORD_NO_SHOW)),
    Rule(
        A.CONTEST_ABSENCE,
        frozenset({S.NO_SHOW}),
        S.DISPUTED,
        frozenset({P}),
        Window(closes=lambda h: _ended(h) + rules.CONTEST_WINDOW, late=CONTEST_LATE),
    ),
    Rule(A.DECIDE_APPROVE, frozenset({S.DISPUTED}), S.APPROVED, frozenset({T})),
    Rule(A.DECIDE_ABSENCE, frozenset({S.DISPUTED}), S.NO_SHOW, frozenset({T})),
    Rule(A.MARK_PAID, frozenset({S.APPROVED}), S.PAID, frozenset({E}), _DIRECT),
    Rule(A.CONFIRM_RECEIPT, frozenset({S.APPROVED}), S.PAID, frozenset({P}), _DIRECT),
    # The other side's confirmation of a payment already marked: recorded, the state stays.
    Rule(A.MARK_PAID, frozenset({S.PAID}), S.PAID, frozenset({E}), _DIRECT),
    Rule(A.CONFIRM_RECEIPT, frozenset({S.PAID}), S.PAID, frozenset({P}), _DIRECT),
    # A late cancellation's fee (direct payment): each side records it paid; the state stays.
    Rule(A.MARK_PAID, frozenset({S.CANCELLED_BY_COMPANY}), S.CANCELLED_BY_COMPANY, frozenset({E}), _FEE_OWED),
    Rule(
        A.CONFIRM_RECEIPT,
        frozenset({S.CANCELLED_BY_COMPANY}),
        S.CANCELLED_BY_COMPANY,
        frozenset({P}),
        _FEE_OWED,
    ),
)
# What the timer does in each state, and from when (the rules above hold the windows).
TIMER_ACTIONS = {
    S.AWAITING_PAYMENT: A.PAYMENT_EXPIRED,
    S.SCHEDULED: A.NOT_CONFIRMED,
    S.CONFIRMED: A.NO_RECORD,
    S.UNCONFIRMED: A.NO_RECORD,
    S.IN_PROGRESS: A.EXIT_NOT_RECORDED,
    S.ENDED: A.HOURS_FROM_RECORDS,
    S.HOURS_SENT: A.AUTO_APPROVAL,
    S.ADJUSTMENT: A.ADJUSTMENT_AUTO_ACCEPTED,
}


def rule_for(action: str, state: str, actor: str) -> Rule | None:
    """The rule that lets `actor` run `action` from `state`, or None."""
    for rule in RULES:
        if rule.action == action and state in rule.sources and actor in rule.actors:
            return rule
    return None


def allowed_actions(h: Hiring, actor: str, now: datetime) -> list[str]:
    """The actions `actor` may run on `h` at `now` (what the screens offer)."""
    seen = []
    for rule in RULES:
        if rule.action in seen or h.state not in rule.sources or actor not in rule.actors:
            continue
        if _window_refusal(rule, h, now) is None:
            seen.append(rule.action)
    return seen


def _window_refusal(rule: Rule, h: Hiring, now: datetime) -> str | None:
    if rule.window.needs is not None and not rule.window.needs(h):
        return NOT_NOW
    opens, closes = rule.window.opens, rule.window.closes
    if opens is not None and now < opens(h):
        return rule.window.early
    if closes is not None and (until := closes(h)) is not None and now >= until:
        return rule.window.late
    return None


def timer_action(state: str, h: Hiring) -> str | None:
    """What the timer does next with a hiring in `state` (None: nothing, ever).

    A shift accepted less than 12 hours before it starts is never marked 'nao_confirmada' (the
    freelancer was hired after that deadline); its next timer step is the missing-record no-show.
    Hours above the schedule or the records (`hours_need_company`) are never approved by the timer.
    """
    action = TIMER_ACTIONS.get(state)
    if action == "nao_confirmou" and h.created_at is not None and h.created_at > h.inicio_em - rules.UNCONFIRMED_AT:
        return "sem_registro"
    if action == "aprovacao_automatica" and hours_need_company(h):
        return None
    return action


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
        return _sent(h) + rules.APPROVAL_WINDOW - rules.APPROVAL_REMINDER_BEFORE
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
        return max(now, _ended(h) + rules.CONTEST_WINDOW)
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
    refusal = _window_refusal(rule, hiring, now)
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
    if not _direct(hiring) and rule.target != hiring.state:
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


def scheduled_minutes(h: Hiring) -> int:
    """The shift's paid minutes as scheduled: end - start - break."""
    return max(int((h.fim_em - h.inicio_em) / timedelta(minutes=1)) - h.intervalo_min, 0)
