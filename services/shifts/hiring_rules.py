"""The hiring's state table: every transition as a row of `RULES`, its time windows and their refusals.

Each row says the action, the states it leaves, the state it reaches, who may trigger it and the
time window it needs (docs/product/shifts.md "Turnos"); `TIMER_ACTIONS` says what the timer does
in each state. Reading only: services/shifts/hiring_lifecycle.py `move` is the one writer that
applies a row.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from core import shift_rules as rules
from models import Actor, Hiring, HiringState, PaymentMode
from services.jobs import shift_pay
from services.shifts.hiring_actions import HiringAction as A

S = HiringState
E, P, T, TIMER = Actor.COMPANY, Actor.FREELANCER, Actor.STAFF, Actor.TIMER
NOT_NOW = "Esta ação não está disponível para este turno agora."
SCHEDULED = frozenset({S.SCHEDULED, S.CONFIRMED, S.UNCONFIRMED})


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


def ended_at(h: Hiring) -> datetime:
    """When the shift's work ended: the recorded exit or the scheduled end."""
    return h.terminou_em or h.fim_em


def sent_at(h: Hiring) -> datetime:
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
    return None if hours_need_company(h) else sent_at(h) + rules.APPROVAL_WINDOW


def is_direct(h: Hiring) -> bool:
    """Paid directly by the company (the sides record the payment), not through Turno."""
    return h.pagamento != PaymentMode.GUARANTEED


def _awaiting_since(h: Hiring) -> datetime:
    """When the company chose 'Aceitar e pagar' (the move into 'aguardando_pagamento' set it)."""
    return h.updated_at


_BEFORE_START = Window(closes=_start, late=SHIFT_STARTED)


_DIRECT = Window(needs=is_direct)


_FEE_OWED = Window(needs=lambda h: h.taxa_cancelamento_centavos > 0 and is_direct(h))


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
        Window(lambda h: sent_at(h) + rules.APPROVAL_WINDOW, needs=lambda h: not hours_need_company(h)),
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
        Window(closes=lambda h: ended_at(h) + rules.CONTEST_WINDOW, late=CONTEST_LATE),
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
        if window_refusal(rule, h, now) is None:
            seen.append(rule.action)
    return seen


def window_refusal(rule: Rule, h: Hiring, now: datetime) -> str | None:
    """Why `rule` cannot run on `h` at `now` (its window's message), or None when it can."""
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


def scheduled_minutes(h: Hiring) -> int:
    """The shift's paid minutes as scheduled: end - start - break."""
    return max(int((h.fim_em - h.inicio_em) / timedelta(minutes=1)) - h.intervalo_min, 0)
