"""Opening a Stripe Checkout for a guaranteed hiring's payment (the acceptance or a top-up of hours)."""

import logging
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import stripe
from sqlmodel import Session

from core import routes
from core import shift_rules as rules
from core.formatting import money
from models import (
    Hiring,
    Job,
    PaymentKind,
    PaymentStatus,
    ProtectedPayment,
    Role,
    User,
)
from services.common.errors import NotAllowed
from services.jobs import shift_pay
from services.jobs.pricing import NOT_CONFIGURED, configured
from services.money import stripe_api
from services.money.payments import (
    NOTHING_TO_PAY,
    PAY_ERROR,
    PAY_FAILED,
    PaymentError,
    S,
    amount_due,
    latest_payment,
    transfer_group,
)
from services.shifts import hiring_rules

log = logging.getLogger(__name__)


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
    reusable = latest_payment(session, h.id, kind)
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
    hours = shift_pay.hours_text(hiring_rules.scheduled_minutes(h) if payment.kind == PaymentKind.ACCEPTANCE else None)
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
