"""The payments of a guaranteed hiring: which are paid, what is still due, their labels and errors.

'Pagamento garantido pelo Turno': the company pays at acceptance, the freelancer is paid after approval.

docs/product/money.md "Pagamento garantido" is the rule book; in short:

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
from typing import Any

import stripe
from sqlmodel import Session, select

from models import (
    Hiring,
    HiringState,
    PaymentKind,
    PaymentMode,
    PaymentStatus,
    ProtectedPayment,
)
from services.common.errors import ServiceError
from services.jobs.pricing import Quote, fee, fee_percent, quote
from services.money import stripe_api
from services.shifts import hiring_rules

log = logging.getLogger(__name__)


S = HiringState


_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]


PAY_ERROR = "Não foi possível abrir o pagamento"


PAY_FAILED = "O Stripe não respondeu. Tente novamente em alguns instantes."


NOTHING_TO_PAY = "Não há pagamento pendente para este turno."


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


def paid_payments(session: Session, hiring_id: int) -> list[ProtectedPayment]:
    """The hiring's payments that were paid, oldest first."""
    return list(
        session.exec(
            select(ProtectedPayment)
            .where(ProtectedPayment.hiring_id == hiring_id, ProtectedPayment.status == PaymentStatus.PAID)
            .order_by(ProtectedPayment.id)
        ).all()
    )


def latest_payment(session: Session, hiring_id: int, kind: str) -> ProtectedPayment | None:
    """The hiring's newest payment of `kind` (acceptance or top-up), if any."""
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
    if h.state != S.APPROVED or h.pagamento != PaymentMode.GUARANTEED or h.valor_centavos is None:
        return None
    paid = sum(
        p.freelancer_centavos for p in covered(paid_payments(session, h.id), latest_payment(session, h.id, "aceite"))
    )
    missing = h.valor_centavos - paid
    if missing <= 0:
        return None
    percent = fee_percent(session, h.company_id)
    return Quote(missing, percent, fee(missing, percent))


def amount_due(session: Session, h: Hiring) -> Quote | None:
    """What the company pays now for this hiring: at acceptance, or a top-up (None: nothing)."""
    if h.pagamento != PaymentMode.GUARANTEED:
        return None
    if h.state == S.AWAITING_PAYMENT:
        minutes = hiring_rules.scheduled_minutes(h)
        return quote(session, h.company_id, minutes, h.valor_hora_centavos)
    return top_up_due(session, h)


def transfer_group(hiring_id: int) -> str:
    """The Stripe transfer group of a hiring: its charges and its transfers."""
    return f"turno-contratacao-{hiring_id}"


def stripe_id_of(value: Any) -> str:
    """The id of a Stripe object given expanded (a dict) or as its id."""
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else ""


def charge_of(intent_id: str) -> tuple[str, str]:
    """The charge id and receipt of a PaymentIntent ('' when Stripe cannot say now; settle asks again)."""
    if not intent_id:
        return "", ""
    try:
        intent = stripe_api.client().v1.payment_intents.retrieve(intent_id).to_dict()
        charge_id = stripe_id_of(intent.get("latest_charge"))
        receipt = ""
        if charge_id:
            receipt = stripe_api.client().v1.charges.retrieve(charge_id).to_dict().get("receipt_url") or ""
        return charge_id, receipt
    except stripe.StripeError as exc:
        log.warning("Could not read payment intent %s: %s", intent_id, exc)
        return "", ""


NO_PAYOUT_ACCOUNT = "O freelancer ainda não configurou o recebimento."


SET_UP_PAYOUTS = "Configure seu recebimento em Meus Ganhos para receber."


PAYOUT_WAITING = "Suas horas foram aprovadas e o pagamento está garantido: configure seu recebimento em Meus Ganhos."


TOP_UP_WAITING = "complemento"  # repasse_erro while approved hours wait for the company's top-up
