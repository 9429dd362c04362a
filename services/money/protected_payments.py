"""'Pagamento garantido pelo Turno': the company pays at acceptance, the freelancer is paid after approval.

docs/product.md "Pagamento garantido" is the rule book; in short:

- 'Aceitar e pagar R$ X' accepts the application with the hiring in 'aguardando_pagamento' and opens a
  Stripe Checkout (mode payment, Pix and card as the account enables them) for the hours' part plus
  Turno's fee by the company's plan (`fee_percent`). Separate charges and transfers: the money stays
  on the platform under one `transfer_group` per hiring.
- A verified webhook says it was paid (`checkout.session.completed`, or the async success of a Pix):
  the hiring becomes 'agendada'. Unpaid after 60 minutes, or the Checkout expired or the Pix failed:
  the hiring expires and the application returns to pending.
- When the hiring ends (approved, cancelled, no-show, expired), `settle` moves the money: one Transfer
  of what the freelancer is owed (`source_transaction` = the charge), one refund of the unused part,
  and Turno keeps its fee on what was transferred. Approved hours beyond what was paid wait for a
  'complemento' Checkout. Every Stripe call carries an idempotency key made of the step and the
  payment (`turno-repasse-12`), so a retry after a timeout cannot pay twice, and each done step is a
  `money_movements` row under that key: for every payment, charged = transferred + refunded + fee.
- `settle` runs under a lease on the hiring (one worker at a time); a failure is recorded on the
  hiring ('Pagamento pendente') and retried by the timer with backoff (`rules.SETTLE_BACKOFF`).
- An open dispute (`charge.dispute.created`) blocks the company's new protected acceptances until it
  is closed; the freelancer keeps what was transferred.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import stripe
from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core import background, routes
from core import shift_rules as rules
from core.db import session_scope
from core.formatting import money, short_date
from core.types import utcnow
from models import (
    Actor,
    Hiring,
    HiringState,
    Job,
    MoneyMovement,
    MovementKind,
    NotificationType,
    PaymentKind,
    PaymentStatus,
    PayoutAccount,
    Profile,
    ProtectedPayment,
    Role,
    User,
)
from services.common.errors import NotAllowed, ServiceError
from services.jobs import shift_pay
from services.jobs.pricing import DISPUTE_BLOCKS, GUARANTEED, NOT_CONFIGURED, Quote, configured, fee, fee_percent, quote
from services.money import payouts, stripe_api
from services.reach.notifications import notify
from services.shifts import hiring_lifecycle
from services.shifts.hiring_lifecycle import HiringMoveRefused

log = logging.getLogger(__name__)
S = HiringState
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]

PAY_ERROR = "Não foi possível abrir o pagamento"
PAY_FAILED = "O Stripe não respondeu. Tente novamente em alguns instantes."
NOTHING_TO_PAY = "Não há pagamento pendente para este turno."
NO_PAYOUT_ACCOUNT = "O freelancer ainda não configurou o recebimento."
SET_UP_PAYOUTS = "Configure seu recebimento em Meus Ganhos para receber."
PAYOUT_WAITING = "Suas horas foram aprovadas e o pagamento está garantido: configure seu recebimento em Meus Ganhos."
TOP_UP_WAITING = "complemento"  # repasse_erro while approved hours wait for the company's top-up
LABELS = {
    PaymentStatus.OPEN: "Aguardando pagamento",
    PaymentStatus.PROCESSING: "Pix em processamento",
    PaymentStatus.PAID: "Pago",
    PaymentStatus.EXPIRED: "Expirado",
    PaymentStatus.FAILED: "Não concluído",
}
KIND_LABELS = {PaymentKind.ACCEPTANCE: "Contratação", PaymentKind.TOP_UP: "Complemento de horas"}


class PaymentError(ServiceError):
    """A protected-payment action that failed, with its toast title and a Portuguese description."""

    def __init__(self, title: str, message: str):
        super().__init__(message)
        self.title = title


# --- the company's side before paying -------------------------------------------------------------


# --- Checkout -------------------------------------------------------------------------------------


def _paid(session: Session, hiring_id: int) -> list[ProtectedPayment]:
    return list(
        session.exec(
            select(ProtectedPayment)
            .where(ProtectedPayment.hiring_id == hiring_id, ProtectedPayment.status == PaymentStatus.PAID)
            .order_by(ProtectedPayment.id)
        ).all()
    )


def _latest(session: Session, hiring_id: int, kind: str) -> ProtectedPayment | None:
    return session.exec(
        select(ProtectedPayment)
        .where(ProtectedPayment.hiring_id == hiring_id, ProtectedPayment.kind == kind)
        .order_by(ProtectedPayment.id.desc())
    ).first()


def covered(payments: list[ProtectedPayment], current: ProtectedPayment | None) -> list[ProtectedPayment]:
    """The paid payments that count for the hiring: its current acceptance payment and its top-ups.

    An older acceptance payment (paid after its Checkout had expired and the company accepted again)
    does not count: it is refunded in full.
    """
    return [p for p in payments if p.kind == PaymentKind.TOP_UP or (current is not None and p.id == current.id)]


def _counted_ids(payments: list[ProtectedPayment], current: ProtectedPayment | None) -> set[int]:
    return {p.id for p in covered(payments, current)}


def top_up_due(session: Session, h: Hiring) -> Quote | None:
    """What an approved hiring still needs the company to pay (None when what was paid covers it)."""
    if h.state != S.APPROVED or h.payment_mode != GUARANTEED or h.valor_centavos is None:
        return None
    paid = sum(p.freelancer_centavos for p in covered(_paid(session, h.id), _latest(session, h.id, "aceite")))
    missing = h.valor_centavos - paid
    if missing <= 0:
        return None
    percent = fee_percent(session, h.company_id)
    return Quote(missing, percent, fee(missing, percent))


def amount_due(session: Session, h: Hiring) -> Quote | None:
    """What the company pays now for this hiring: at acceptance, or a top-up (None: nothing)."""
    if h.payment_mode != GUARANTEED:
        return None
    if h.state == S.AWAITING_PAYMENT:
        minutes = hiring_lifecycle.scheduled_minutes(h)
        return quote(session, h.company_id, minutes, h.valor_hora_centavos)
    return top_up_due(session, h)


def _return_urls(base_url: str) -> tuple[str, str]:
    tab = base_url.rstrip("/") + routes.dashboard_tab(Role.CLIENT, "shifts")
    return f"{tab}&pagamento=ok&session_id={{CHECKOUT_SESSION_ID}}", f"{tab}&pagamento=voltou"


def open_checkout(session: Session, company_id: int, hiring_id: int, base_url: str, now: datetime) -> str:
    """The Stripe Checkout URL where the company pays a hiring (at acceptance, or a top-up).

    An open Checkout still valid is reused; otherwise a new one is created with an idempotency key
    made of the new payment row's id. The caller commits (the payment row and the Checkout's id).

    Raises:
        NotAllowed: Not the company's hiring.
        PaymentError: Nothing to pay, payments not configured, or Stripe refused.
    """
    h = session.get(Hiring, hiring_id)
    if h is None or h.company_id != company_id:
        raise NotAllowed(NOTHING_TO_PAY)
    if not configured():
        raise PaymentError(PAY_ERROR, NOT_CONFIGURED)
    due = amount_due(session, h)
    if due is None:
        raise PaymentError(PAY_ERROR, NOTHING_TO_PAY)
    kind = PaymentKind.ACCEPTANCE if h.state == S.AWAITING_PAYMENT else PaymentKind.TOP_UP
    reusable = _latest(session, h.id, kind)
    if (
        reusable is not None
        and reusable.status == PaymentStatus.OPEN
        and reusable.checkout_url
        and reusable.amount_centavos == due.total_centavos
        and reusable.expires_at is not None
        and reusable.expires_at > now + timedelta(minutes=5)
    ):
        return reusable.checkout_url
    payment = ProtectedPayment(
        hiring_id=h.id,
        company_id=company_id,
        kind=kind,
        freelancer_centavos=due.freelancer_centavos,
        fee_centavos=due.fee_centavos,
        fee_percent=due.fee_percent,
        expires_at=now + rules.PAYMENT_WINDOW if kind == PaymentKind.ACCEPTANCE else now + timedelta(hours=23),
        created_at=now,
        updated_at=now,
    )
    session.add(payment)
    session.flush()
    try:
        checkout = stripe_api.client().v1.checkout.sessions.create(
            _checkout_params(session, h, payment, base_url), {"idempotency_key": f"turno-checkout-{payment.id}"}
        )
    except stripe.StripeError as exc:
        log.warning("Stripe refused the checkout of hiring %s: %s", h.id, exc)
        raise PaymentError(PAY_ERROR, PAY_FAILED) from exc
    if not getattr(checkout, "url", None):
        raise PaymentError(PAY_ERROR, PAY_FAILED)
    payment.checkout_session_id = checkout.id
    payment.checkout_url = checkout.url
    session.add(payment)
    return checkout.url


def _checkout_params(session: Session, h: Hiring, payment: ProtectedPayment, base_url: str) -> dict[str, Any]:
    job = session.get(Job, h.job_id)
    title = job.titulo if job else "Turno"
    company = session.get(User, h.company_id)
    success, cancel = _return_urls(base_url)
    hours = shift_pay.hours_text(
        hiring_lifecycle.scheduled_minutes(h) if payment.kind == PaymentKind.ACCEPTANCE else None
    )
    what = f"{title}: {hours} × {money(Decimal(h.valor_hora_centavos) / 100)}/h"
    if payment.kind == PaymentKind.TOP_UP:
        what = f"{title}: complemento das horas aprovadas"
    metadata = {"hiring_id": str(h.id), "payment_id": str(payment.id), "kind": payment.kind}
    return {
        "mode": "payment",
        "line_items": [
            _line(what, payment.freelancer_centavos),
            _line(f"Taxa de serviço Turno ({payment.fee_percent}%)", payment.fee_centavos),
        ],
        "payment_intent_data": {"transfer_group": transfer_group(h.id), "metadata": metadata},
        "metadata": metadata,
        "client_reference_id": str(h.company_id),
        "customer_email": company.email if company else None,
        "success_url": success,
        "cancel_url": cancel,
        "expires_at": int(payment.expires_at.timestamp()),
        "locale": "pt-BR",
    }


def _line(name: str, amount: int) -> dict[str, Any]:
    return {
        "price_data": {"currency": "brl", "product_data": {"name": name[:250]}, "unit_amount": amount},
        "quantity": 1,
    }


def transfer_group(hiring_id: int) -> str:
    """The Stripe transfer group of a hiring: its charges and its transfers."""
    return f"turno-contratacao-{hiring_id}"


# --- webhooks -------------------------------------------------------------------------------------


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
        payment.payment_intent_id = _id_of(checkout.get("payment_intent"))
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
    current = _latest(session, h.id, PaymentKind.ACCEPTANCE)
    return current is not None and current.id == payment.id


def _close(session: Session, payment: ProtectedPayment, status: str) -> None:
    payment.status = status
    payment.updated_at = _now()
    session.add(payment)
    h = hiring_lifecycle.reread(session, payment.hiring_id)
    if _awaits(session, h, payment):
        try:
            hiring_lifecycle.move(session, h, "pagamento_nao_concluido", Actor.TIMER, _now())  # money/expiry.py
        except HiringMoveRefused:
            return


def _mark_paid(session: Session, payment: ProtectedPayment, checkout: dict) -> None:
    """Record a payment received (once) and move what it unlocks."""
    if payment.status == PaymentStatus.PAID:
        return
    now = _now()
    intent_id = _id_of(checkout.get("payment_intent")) or payment.payment_intent_id
    charge_id, receipt = _charge_of(intent_id)
    payment.status = PaymentStatus.PAID
    payment.payment_intent_id = intent_id
    payment.charge_id = charge_id
    payment.receipt_url = receipt
    payment.paid_at = now
    payment.updated_at = now
    session.add(payment)
    _ledger(session, payment, MovementKind.CHARGE, payment.amount_centavos, charge_id, f"turno-cobranca-{payment.id}")
    h = hiring_lifecycle.reread(session, payment.hiring_id)
    if _awaits(session, h, payment):
        moved = hiring_lifecycle.move(session, h, "pagamento_confirmado", Actor.TIMER, now)
        _tell_paid(session, moved.hiring, payment)
        return
    # A top-up, or money that arrived after the hiring moved on (expired, accepted again): settle it.
    _schedule(session, h.id, now)


def _charge_of(intent_id: str) -> tuple[str, str]:
    """The charge id and receipt of a PaymentIntent ('' when Stripe cannot say now; settle asks again)."""
    if not intent_id:
        return "", ""
    try:
        intent = stripe_api.client().v1.payment_intents.retrieve(intent_id).to_dict()
        charge_id = _id_of(intent.get("latest_charge"))
        receipt = ""
        if charge_id:
            receipt = stripe_api.client().v1.charges.retrieve(charge_id).to_dict().get("receipt_url") or ""
        return charge_id, receipt
    except stripe.StripeError as exc:
        log.warning("Could not read payment intent %s: %s", intent_id, exc)
        return "", ""


def _tell_paid(session: Session, h: Hiring, payment: ProtectedPayment) -> None:
    job = session.get(Job, h.job_id)
    title = job.titulo if job else ""
    message = (
        f'Sua candidatura para a vaga "{title}" foi aceita! O pagamento de {_money(payment.freelancer_centavos)} '
        "está garantido pelo Turno."
    )
    if not _destination(session, h.freelancer_id):
        message += " " + SET_UP_PAYOUTS
    notify(
        session, h.freelancer_id, NotificationType.APPLICATION_ACCEPTED, message, routes.NoticeTarget.FREELANCER_SHIFTS
    )
    notify(
        session,
        h.company_id,
        NotificationType.SHIFT,
        f'Pagamento de {_money(payment.amount_centavos)} recebido: o turno "{title}" está agendado.',
        routes.NoticeTarget.COMPANY_SHIFTS,
    )


def on_dispute_opened(session: Session, dispute: dict) -> None:
    """`charge.dispute.created`: block the company's new protected acceptances."""
    payment = _by_charge(session, dispute)
    if payment is not None and payment.disputed_at is None:
        payment.dispute_id = str(dispute.get("id") or "")[:255]
        payment.disputed_at = _now()
        session.add(payment)
        notify(session, payment.company_id, NotificationType.OTHER, DISPUTE_BLOCKS, routes.NoticeTarget.COMPANY_SHIFTS)


def on_dispute_closed(session: Session, dispute: dict) -> None:
    """`charge.dispute.closed`: the block is lifted (won or lost, the freelancer keeps what was paid)."""
    payment = _by_charge(session, dispute)
    if payment is not None and payment.disputed_at is not None:
        payment.disputed_at = None
        session.add(payment)


def _by_charge(session: Session, obj: dict) -> ProtectedPayment | None:
    charge_id = _id_of(obj.get("charge"))
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
        row.reversed_at = _now()
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


# --- settlement -----------------------------------------------------------------------------------


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
    """What the freelancer is owed once the hiring ended (None while it has not)."""
    if h.state in (S.APPROVED, S.PAID):
        return h.valor_centavos or 0
    if h.state == S.CANCELLED_BY_COMPANY:
        return h.taxa_cancelamento_centavos
    if h.state in (S.CANCELLED_BY_FREELANCER, S.NO_SHOW, S.EXPIRED):
        return 0
    return None


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
    now = now or _now()
    if not _claim(scope, hiring_id, now):
        return ""
    try:
        with scope() as db:
            h = db.get(Hiring, hiring_id)
            payments = _paid(db, hiring_id)
            current = _latest(db, hiring_id, PaymentKind.ACCEPTANCE)
            done = set(db.exec(select(MoneyMovement.key).where(MoneyMovement.hiring_id == hiring_id)).all())
            destination = _destination(db, h.freelancer_id)
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


def _destination(session: Session, freelancer_id: int) -> str:
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
        _ledger(db, step.payment, step.kind, step.amount, stripe_id, step.key)


def _transfer(h: Hiring, step: Step, destination: str) -> str:
    charge_id = step.payment.charge_id or _charge_of(step.payment.payment_intent_id)[0]
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


def _ledger(session: Session, payment: ProtectedPayment, kind: str, amount: int, stripe_id: str, key: str) -> None:
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
                    created_at=_now(),
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
            moved = hiring_lifecycle.move(db, h, "repasse", Actor.TIMER, now, values=paid)
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
        f'Pagamento de {_money(h.valor_centavos or 0)} do turno "{title}" enviado para sua conta de recebimento.',
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


def _schedule(session: Session, hiring_id: int, now: datetime) -> None:
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
    background.submit("settlements", lambda: settle_due(_now()))


def settle_due(now: datetime, scope: Callable = session_scope, limit: int = 100) -> int:
    """Settle every hiring whose settlement is due; how many were paid or settled."""
    with scope() as db:
        ids = due_hirings(db, now, limit)
    return sum(1 for hiring_id in ids if settle(hiring_id, now, scope) in ("pago", "acertado"))


# --- what the screens show ------------------------------------------------------------------------


def ledger_totals(session: Session, hiring_id: int) -> dict[str, int]:
    """The hiring's ledger summed by kind (centavos)."""
    rows = session.exec(
        select(MoneyMovement.kind, func.sum(MoneyMovement.amount_centavos))
        .where(MoneyMovement.hiring_id == hiring_id)
        .group_by(MoneyMovement.kind)
    ).all()
    totals = dict.fromkeys((MovementKind.CHARGE, MovementKind.TRANSFER, MovementKind.REFUND, MovementKind.FEE), 0)
    totals.update({kind: int(total or 0) for kind, total in rows})
    return totals


@dataclass(frozen=True)
class Settlement:
    """What `settle` would move if the hiring ended now as asked (centavos): shown before confirming."""

    charged: int  # what the company paid for the hiring so far
    transfer: int  # to the freelancer
    refund: int  # back to the company
    fee: int  # Turno's fee kept on what is transferred
    top_up: int  # what the company would still pay (the hours' part plus its fee); 0 when covered


def settlement_preview(session: Session, h: Hiring, state: str, owed_centavos: int) -> Settlement:
    """The settlement of `h` if it moved to `state` owing the freelancer `owed_centavos`, by `plan_steps`.

    The approval dialog (state 'aprovada', the hours' pay) and the cancel dialogs (a late cancellation's
    fee, or nothing) read it; nothing is written, and `settle` recomputes from the row when it runs.
    """
    payments = _paid(session, h.id)
    probe = SimpleNamespace(state=state, valor_centavos=owed_centavos, taxa_cancelamento_centavos=owed_centavos)
    steps, missing = plan_steps(probe, payments, _latest(session, h.id, PaymentKind.ACCEPTANCE))  # type: ignore[arg-type]
    kinds = (MovementKind.TRANSFER, MovementKind.REFUND, MovementKind.FEE)
    total = {kind: sum(step.amount for step in steps if step.kind == kind) for kind in kinds}
    top_up = 0
    if missing > 0:
        percent = fee_percent(session, h.company_id)
        top_up = Quote(missing, percent, fee(missing, percent)).total_centavos
    return Settlement(
        charged=sum(p.amount_centavos for p in payments),
        transfer=total[MovementKind.TRANSFER],
        refund=total[MovementKind.REFUND],
        fee=total[MovementKind.FEE],
        top_up=top_up,
    )


def _money(centavos: int) -> str:
    return money(Decimal(centavos) / 100)


def _id_of(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else ""


def _now() -> datetime:
    return utcnow()


@dataclass(frozen=True)
class Receipt:
    """One protected payment in the company's 'Pagamentos' list."""

    id: int
    date: str  # dd/MM/yyyy of the payment (or of the Checkout while unpaid)
    job_title: str
    freelancer: str
    kind: str  # 'Contratação' or 'Complemento de horas'
    amount: str  # what was charged
    refunded: str  # what came back ('' when nothing)
    status: str
    receipt_url: str  # Stripe's receipt ('' until paid)


def receipts(session: Session, company_id: int, limit: int = 100) -> list[Receipt]:
    """The company's protected payments, newest first, with what was refunded of each."""
    rows = session.exec(
        select(ProtectedPayment, Job.titulo, Profile.nome)
        .join(Hiring, Hiring.id == ProtectedPayment.hiring_id)
        .join(Job, Job.id == Hiring.job_id)
        .join(Profile, Profile.user_id == Hiring.freelancer_id, isouter=True)
        .where(ProtectedPayment.company_id == company_id, ProtectedPayment.checkout_session_id != "")
        .order_by(ProtectedPayment.created_at.desc(), ProtectedPayment.id.desc())
        .limit(limit)
    ).all()
    ids = [p.id for p, _t, _n in rows]
    refunded = dict(
        session.exec(
            select(MoneyMovement.payment_id, func.sum(MoneyMovement.amount_centavos))
            .where(MoneyMovement.payment_id.in_(ids), MoneyMovement.kind == MovementKind.REFUND)
            .group_by(MoneyMovement.payment_id)
        ).all()
    )
    return [
        Receipt(
            id=p.id,
            date=short_date(p.paid_at or p.created_at),
            job_title=title,
            freelancer=name or "Freelancer",
            kind=KIND_LABELS.get(p.kind, p.kind),
            amount=_money(p.amount_centavos),
            refunded=_money(int(refunded[p.id])) if refunded.get(p.id) else "",
            status=LABELS.get(p.status, p.status),
            receipt_url=p.receipt_url,
        )
        for p, title, name in rows
    ]
