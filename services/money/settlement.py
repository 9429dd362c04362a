"""Settling a guaranteed hiring once it ends: a Transfer of what is owed, a refund of the rest, a ledger row per step."""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import stripe
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core import background, routes
from core import shift_rules as rules
from core.db import session_scope
from core.formatting import money_cents
from core.types import utcnow
from models import (
    Actor,
    Hiring,
    Job,
    MoneyMovement,
    MovementKind,
    NotificationType,
    PaymentKind,
    PayoutAccount,
    ProtectedPayment,
)
from services.jobs.pricing import fee
from services.money import payouts, stripe_api
from services.money.payments import (
    _HIRINGS,
    NO_PAYOUT_ACCOUNT,
    PAYOUT_WAITING,
    TOP_UP_WAITING,
    S,
    _counted_ids,
    charge_of,
    latest_payment,
    paid_payments,
    transfer_group,
)
from services.reach.notifications import notify
from services.shifts import hiring_lifecycle
from services.shifts.hiring_actions import HiringAction as A

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    """One money step of a settlement: a transfer, a refund or the fee kept, for one payment."""

    kind: str
    payment: ProtectedPayment
    amount: int

    @property
    def key(self) -> str:
        """The idempotency key of the step's Stripe call, also the ledger line's unique key."""
        return f"turno-{self.kind}-{self.payment.id}"


def owed(h: Hiring) -> int | None:
    """What the freelancer is owed once the hiring ended (None while it has not: hiring_lifecycle.SETTLES)."""
    if h.state not in hiring_lifecycle.SETTLES and h.state != S.PAID:
        return None
    if h.state in (S.APPROVED, S.PAID):
        return h.valor_centavos or 0
    return h.taxa_cancelamento_centavos if h.state == S.CANCELLED_BY_COMPANY else 0


def plan_steps(h: Hiring, payments: list[ProtectedPayment], current: ProtectedPayment | None) -> tuple[list[Step], int]:
    """The transfers, refunds and fees that settle a hiring, and the part still to be paid (top-up).

    What is owed is taken from the counted payments in order (acceptance, then top-ups); from each,
    Turno keeps its fee on the part transferred and refunds the rest. Payments that do not count are
    refunded whole. A hiring still running settles only those.
    """
    due = owed(h)
    counted = _counted_ids(payments, current)
    left = due or 0
    steps: list[Step] = []
    for payment in payments:
        give = 0
        if due is not None and payment.id in counted:
            give = min(payment.freelancer_centavos, left)
            left -= give
        elif due is None and payment.id in counted:
            continue  # still running: its money waits
        kept = min(fee(give, payment.fee_percent), payment.fee_centavos)
        back = payment.amount_centavos - give - kept
        steps += [
            Step(k, payment, amount)
            for k, amount in ((MovementKind.TRANSFER, give), (MovementKind.REFUND, back), (MovementKind.FEE, kept))
            if amount > 0
        ]
    return steps, left if due is not None else 0


def settle(hiring_id: int, now: datetime | None = None, scope: Callable = session_scope) -> str:
    """Move a hiring's protected money as far as it can go now; safe to call from any worker, any time.

    Returns:
        'pago' (the freelancer was paid in full), 'acertado' (refunds and fees done), 'complemento'
        (waiting for the company's top-up), 'pendente' (a step failed; retried later) or '' (nothing
        to do, or another worker holds the hiring).
    """
    now = now or utcnow()
    if not _claim(scope, hiring_id, now):
        return ""
    try:
        with scope() as db:
            h = db.get(Hiring, hiring_id)
            payments = paid_payments(db, hiring_id)
            current = latest_payment(db, hiring_id, PaymentKind.ACCEPTANCE)
            done = set(db.exec(select(MoneyMovement.key).where(MoneyMovement.hiring_id == hiring_id)).all())
            destination = payout_destination(db, h.freelancer_id)
            db.expunge_all()
        steps, missing = plan_steps(h, payments, current)
        for step in steps:
            if step.key not in done:
                _run(scope, h, step, destination)
        return _finish(scope, hiring_id, missing, now)
    except _StepFailed as failure:
        _failed(scope, hiring_id, now, failure.message)
        return "pendente"


def settle_soon(hiring_id: int) -> None:
    """Settle a hiring after the answer, off the request (an approval pays at once, not at the next tick)."""
    background.submit("settlement", lambda: settle(hiring_id))


class _StepFailed(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _claim(scope: Callable, hiring_id: int, now: datetime) -> bool:
    """Take the hiring's settlement for SETTLE_LEASE (a conditional update: one worker wins)."""
    with scope() as db:
        return bool(
            db.execute(
                update(_HIRINGS)
                .where(_HIRINGS.c.id == hiring_id, _HIRINGS.c.repasse_em.is_not(None), _HIRINGS.c.repasse_em <= now)
                .values(repasse_em=now + rules.SETTLE_LEASE)
                .execution_options(synchronize_session=False)
            ).rowcount
        )


def payout_destination(session: Session, freelancer_id: int) -> str:
    """The freelancer's connected Stripe account when it can receive ('' when not yet)."""
    row = session.get(PayoutAccount, freelancer_id)
    return row.stripe_account_id if payouts.can_receive(row) else ""


def _run(scope: Callable, h: Hiring, step: Step, destination: str) -> None:
    """Do one step at Stripe (same key on every try) and write its ledger line."""
    stripe_id = ""
    try:
        if step.kind == MovementKind.TRANSFER:
            if not destination:
                raise _StepFailed(NO_PAYOUT_ACCOUNT)
            stripe_id = _transfer(h, step, destination)
        elif step.kind == MovementKind.REFUND:
            stripe_id = _refund(step)
    except stripe.StripeError as exc:
        log.warning("Stripe refused %s of hiring %s: %s", step.key, h.id, exc)
        raise _StepFailed("O Stripe recusou o repasse. Nova tentativa em breve.") from exc
    with scope() as db:
        record_movement(db, step.payment, step.kind, step.amount, stripe_id, step.key)


def _transfer(h: Hiring, step: Step, destination: str) -> str:
    charge_id = step.payment.charge_id or charge_of(step.payment.payment_intent_id)[0]
    params: dict[str, Any] = {
        "amount": step.amount,
        "currency": "brl",
        "destination": destination,
        "transfer_group": transfer_group(h.id),
        "metadata": {"hiring_id": str(h.id), "payment_id": str(step.payment.id)},
    }
    if charge_id:
        params["source_transaction"] = charge_id
    return stripe_api.client().v1.transfers.create(params, {"idempotency_key": step.key}).id


def _refund(step: Step) -> str:
    params: dict[str, Any] = {
        "payment_intent": step.payment.payment_intent_id,
        "amount": step.amount,
        "metadata": {"hiring_id": str(step.payment.hiring_id), "payment_id": str(step.payment.id)},
    }
    return stripe_api.client().v1.refunds.create(params, {"idempotency_key": step.key}).id


def record_movement(
    session: Session, payment: ProtectedPayment, kind: str, amount: int, stripe_id: str, key: str
) -> None:
    """Write a ledger line once (its key is unique: a second writer's insert is dropped)."""
    try:
        with session.begin_nested():
            session.add(
                MoneyMovement(
                    hiring_id=payment.hiring_id,
                    payment_id=payment.id,
                    kind=kind,
                    amount_centavos=amount,
                    stripe_id=stripe_id,
                    key=key,
                    created_at=utcnow(),
                )
            )
            session.flush()
    except IntegrityError:
        pass


def _finish(scope: Callable, hiring_id: int, missing: int, now: datetime) -> str:
    with scope() as db:
        h = hiring_lifecycle.reread(db, hiring_id)
        values: dict[str, Any] = {"repasse_em": None, "repasse_tentativas": 0, "repasse_erro": ""}
        result = "acertado"
        if missing > 0:
            values["repasse_erro"] = TOP_UP_WAITING
            result = "complemento"
        elif h.state == S.CANCELLED_BY_COMPANY and h.taxa_cancelamento_centavos > 0:
            values["pago_em"] = now  # the late-cancellation fee reached the freelancer
        elif h.state == S.APPROVED:  # the move clears `repasse_em` ('paga' settles nothing more)
            paid = {"pago_em": now, "repasse_tentativas": 0, "repasse_erro": ""}
            moved = hiring_lifecycle.move(db, h, A.PAID_OUT, Actor.TIMER, now, values=paid)
            _tell_transferred(db, moved.hiring)
            return "pago"
        db.execute(  # unless a payment that arrived meanwhile asked for another settlement
            update(_HIRINGS)
            .where(_HIRINGS.c.id == hiring_id, _HIRINGS.c.repasse_em == now + rules.SETTLE_LEASE)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return result


def _tell_transferred(session: Session, h: Hiring) -> None:
    job = session.get(Job, h.job_id)
    title = job.titulo if job else ""
    notify(
        session,
        h.freelancer_id,
        NotificationType.SHIFT,
        f'Pagamento de {money_cents(h.valor_centavos or 0)} do turno "{title}" enviado para sua conta de recebimento.',
        routes.NoticeTarget.FREELANCER_SHIFTS,
    )


def _failed(scope: Callable, hiring_id: int, now: datetime, message: str) -> None:
    with scope() as db:
        tries = db.exec(select(Hiring.repasse_tentativas).where(Hiring.id == hiring_id)).one()
        if tries == 0 and message == NO_PAYOUT_ACCOUNT:  # once: the money waits for the freelancer's account
            freelancer_id = db.exec(select(Hiring.freelancer_id).where(Hiring.id == hiring_id)).one()
            notify(db, freelancer_id, NotificationType.SHIFT, PAYOUT_WAITING, routes.NoticeTarget.FREELANCER_SHIFTS)
        wait = rules.SETTLE_BACKOFF[min(tries, len(rules.SETTLE_BACKOFF) - 1)]
        db.execute(
            update(_HIRINGS)
            .where(_HIRINGS.c.id == hiring_id)
            .values(repasse_em=now + wait, repasse_tentativas=tries + 1, repasse_erro=message[:200])
            .execution_options(synchronize_session=False)
        )


def schedule_settlement(session: Session, hiring_id: int, now: datetime) -> None:
    """Ask for a settlement now (a top-up or a late payment arrived)."""
    session.execute(
        update(_HIRINGS)
        .where(_HIRINGS.c.id == hiring_id)
        .values(repasse_em=now, repasse_erro="")
        .execution_options(synchronize_session=False)
    )


def due_hirings(session: Session, now: datetime, limit: int = 100) -> list[int]:
    """Hirings whose settlement is due (the timer settles them)."""
    return list(
        session.exec(
            select(Hiring.id)
            .where(Hiring.repasse_em.is_not(None), Hiring.repasse_em <= now)
            .order_by(Hiring.repasse_em)
            .limit(limit)
        ).all()
    )


def settle_due_soon() -> None:
    """`settle_due` after the answer, off the request (a webhook that brought money settles at once)."""
    background.submit("settlements", lambda: settle_due(utcnow()))


def settle_due(now: datetime, scope: Callable = session_scope, limit: int = 100) -> int:
    """Settle every hiring whose settlement is due; how many were paid or settled."""
    with scope() as db:
        ids = due_hirings(db, now, limit)
    return sum(1 for hiring_id in ids if settle(hiring_id, now, scope) in ("pago", "acertado"))
