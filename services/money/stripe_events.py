"""What Stripe tells about a guaranteed payment (verified webhooks): paid, failed, expired, disputed, reversed."""

import logging
from collections.abc import Callable
from typing import Any

from sqlmodel import Session, select

from core import routes
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
    PaymentStatus,
    ProtectedPayment,
)
from services.jobs.pricing import DISPUTE_BLOCKS
from services.money import settlement
from services.money.payments import SET_UP_PAYOUTS, S, charge_of, latest_payment, stripe_id_of
from services.reach.notifications import notify
from services.shifts import hiring_lifecycle
from services.shifts.hiring_actions import HiringAction as A
from services.shifts.hiring_lifecycle import HiringMoveRefused

log = logging.getLogger(__name__)


def _payment_for(session: Session, checkout: dict) -> ProtectedPayment | None:
    session_id = checkout.get("id")
    if isinstance(session_id, str) and session_id:
        row = session.exec(select(ProtectedPayment).where(ProtectedPayment.checkout_session_id == session_id)).first()
        if row is not None:
            return row
    payment_id = (checkout.get("metadata") or {}).get("payment_id")
    if isinstance(payment_id, str) and payment_id.isdigit():
        return session.get(ProtectedPayment, int(payment_id))
    return None


def on_checkout_completed(session: Session, checkout: dict) -> bool:
    """`checkout.session.completed` of a payment-mode Checkout: paid, or a Pix still clearing.

    Returns:
        True when the Checkout was a protected payment (subscriptions are handled elsewhere).
    """
    if checkout.get("mode") != "payment":
        return False
    payment = _payment_for(session, checkout)
    if payment is None:
        log.info("checkout.session.completed for a payment we do not know: %s", checkout.get("id"))
        return True
    if checkout.get("payment_status") == "paid":
        _mark_paid(session, payment, checkout)
    elif payment.status == PaymentStatus.OPEN:
        payment.status = PaymentStatus.PROCESSING
        payment.payment_intent_id = stripe_id_of(checkout.get("payment_intent"))
        session.add(payment)
    return True


def on_async_succeeded(session: Session, checkout: dict) -> None:
    """`checkout.session.async_payment_succeeded`: a Pix cleared."""
    payment = _payment_for(session, checkout)
    if payment is not None:
        _mark_paid(session, payment, checkout)


def on_async_failed(session: Session, checkout: dict) -> None:
    """`checkout.session.async_payment_failed`: the Pix was not paid; the acceptance is undone."""
    payment = _payment_for(session, checkout)
    if payment is not None and payment.status in (PaymentStatus.OPEN, PaymentStatus.PROCESSING):
        _close(session, payment, PaymentStatus.FAILED)


def on_checkout_expired(session: Session, checkout: dict) -> None:
    """`checkout.session.expired`: nobody paid; an acceptance returns to pending."""
    payment = _payment_for(session, checkout)
    if payment is not None and payment.status == PaymentStatus.OPEN:
        _close(session, payment, PaymentStatus.EXPIRED)


def _awaits(session: Session, h: Hiring, payment: ProtectedPayment) -> bool:
    """Whether `payment` is the acceptance payment the hiring is waiting for right now."""
    if payment.kind != PaymentKind.ACCEPTANCE or h.state != S.AWAITING_PAYMENT:
        return False
    current = latest_payment(session, h.id, PaymentKind.ACCEPTANCE)
    return current is not None and current.id == payment.id


def _close(session: Session, payment: ProtectedPayment, status: str) -> None:
    payment.status = status
    payment.updated_at = utcnow()
    session.add(payment)
    h = hiring_lifecycle.reread(session, payment.hiring_id)
    if _awaits(session, h, payment):
        try:
            hiring_lifecycle.move(session, h, A.PAYMENT_NOT_COMPLETED, Actor.TIMER, utcnow())  # money/expiry.py
        except HiringMoveRefused:
            return


def _mark_paid(session: Session, payment: ProtectedPayment, checkout: dict) -> None:
    """Record a payment received (once) and move what it unlocks."""
    if payment.status == PaymentStatus.PAID:
        return
    now = utcnow()
    intent_id = stripe_id_of(checkout.get("payment_intent")) or payment.payment_intent_id
    charge_id, receipt = charge_of(intent_id)
    payment.status = PaymentStatus.PAID
    payment.payment_intent_id = intent_id
    payment.charge_id = charge_id
    payment.receipt_url = receipt
    payment.paid_at = now
    payment.updated_at = now
    session.add(payment)
    settlement.record_movement(
        session, payment, MovementKind.CHARGE, payment.amount_centavos, charge_id, f"turno-cobranca-{payment.id}"
    )
    h = hiring_lifecycle.reread(session, payment.hiring_id)
    if _awaits(session, h, payment):
        moved = hiring_lifecycle.move(session, h, A.PAYMENT_CONFIRMED, Actor.TIMER, now)
        _tell_paid(session, moved.hiring, payment)
        return
    # A top-up, or money that arrived after the hiring moved on (expired, accepted again): settle it.
    settlement.schedule_settlement(session, h.id, now)


def _tell_paid(session: Session, h: Hiring, payment: ProtectedPayment) -> None:
    job = session.get(Job, h.job_id)
    title = job.titulo if job else ""
    message = (
        f'Sua candidatura para a vaga "{title}" foi aceita! O pagamento de {money_cents(payment.freelancer_centavos)} '
        "está garantido pelo Turno."
    )
    if not settlement.payout_destination(session, h.freelancer_id):
        message += " " + SET_UP_PAYOUTS
    notify(
        session, h.freelancer_id, NotificationType.APPLICATION_ACCEPTED, message, routes.NoticeTarget.FREELANCER_SHIFTS
    )
    notify(
        session,
        h.company_id,
        NotificationType.SHIFT,
        f'Pagamento de {money_cents(payment.amount_centavos)} recebido: o turno "{title}" está agendado.',
        routes.NoticeTarget.COMPANY_SHIFTS,
    )


def on_dispute_opened(session: Session, dispute: dict) -> None:
    """`charge.dispute.created`: block the company's new protected acceptances."""
    payment = _by_charge(session, dispute)
    if payment is not None and payment.disputed_at is None:
        payment.dispute_id = str(dispute.get("id") or "")[:255]
        payment.disputed_at = utcnow()
        session.add(payment)
        notify(session, payment.company_id, NotificationType.OTHER, DISPUTE_BLOCKS, routes.NoticeTarget.COMPANY_SHIFTS)


def on_dispute_closed(session: Session, dispute: dict) -> None:
    """`charge.dispute.closed`: the block is lifted (won or lost, the freelancer keeps what was paid)."""
    payment = _by_charge(session, dispute)
    if payment is not None and payment.disputed_at is not None:
        payment.disputed_at = None
        session.add(payment)


def _by_charge(session: Session, obj: dict) -> ProtectedPayment | None:
    charge_id = stripe_id_of(obj.get("charge"))
    if not charge_id:
        return None
    return session.exec(select(ProtectedPayment).where(ProtectedPayment.charge_id == charge_id)).first()


def on_transfer_reversed(session: Session, transfer: dict) -> None:
    """`transfer.reversed`: mark the ledger line (Turno staff follow it up; nothing moves by itself)."""
    transfer_id = transfer.get("id")
    if not isinstance(transfer_id, str) or not transfer_id:
        return
    row = session.exec(select(MoneyMovement).where(MoneyMovement.stripe_id == transfer_id)).first()
    if row is not None and row.reversed_at is None:
        row.reversed_at = utcnow()
        session.add(row)
        log.warning("Transfer %s of hiring %s was reversed", transfer_id, row.hiring_id)


HANDLERS: dict[str, Callable[[Session, dict], Any]] = {
    "checkout.session.async_payment_succeeded": on_async_succeeded,
    "checkout.session.async_payment_failed": on_async_failed,
    "checkout.session.expired": on_checkout_expired,
    "charge.dispute.created": on_dispute_opened,
    "charge.dispute.closed": on_dispute_closed,
    "transfer.reversed": on_transfer_reversed,
}
