"""Company subscriptions with Stripe: checkout, customer portal, our own status and verified webhooks.

Only a verified, not yet processed webhook changes a subscription (docs/product/money.md §9, "Stripe");
the checkout and the portal merely send the company to Stripe. The plan limits read the
`subscriptions` row through services.jobs.plans.current_plan, so an upgrade counts as soon as its
webhook is stored.
"""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict

import stripe
from sqlmodel import Session, select

from core import routes
from core.catalog import TRIAL_DAYS, plan_by_slug
from core.formatting import short_date
from core.settings import get_settings
from core.types import utcnow
from models import Role, StripeEvent, Subscription, User
from services.common.errors import ServiceError
from services.jobs import plans
from services.money import payout_verification, stripe_api, stripe_events

log = logging.getLogger(__name__)

CHECKOUT_ERROR = "Erro ao iniciar assinatura"
CHECKOUT_FAILED = "Não foi possível iniciar o checkout."
PORTAL_FAILED = "Não foi possível abrir o portal de gerenciamento de assinatura"
STATUS_FAILED = "Não foi possível verificar o status da sua assinatura"
NOT_CONFIGURED = (
    "Os pagamentos ainda não estão configurados neste ambiente, por isso não é possível assinar agora. "
    "Fale com a nossa equipe pela página de contato."
)
COMPANIES_ONLY = "Os planos pagos são exclusivos para empresas."
INVALID_PLAN = "Escolha o plano Premium ou Enterprise."
ALREADY_SUBSCRIBED = (
    "Sua empresa já tem uma assinatura. Para mudar de plano ou atualizar o pagamento, use 'Gerenciar assinatura'."
)
NO_CUSTOMER = "Sua empresa ainda não tem uma assinatura paga para gerenciar."
TRY_AGAIN = "Tente novamente em alguns instantes."

PAID_PLAN_SLUGS = ("premium", "enterprise")
LIVE_STATUSES = ("active", "trialing", "past_due", "unpaid", "paused")
CANCELED = "canceled"
PAST_DUE = "past_due"


class BillingError(ServiceError):
    """A billing action that failed, with its toast title and a Portuguese description (docs/product/money.md §9).

    Attributes:
        title: The toast title (one of the subscription errors of docs/product/money.md §9).
        message: The description shown under the title.
    """

    def __init__(self, title: str, message: str):
        super().__init__(message)
        self.title = title


class InvalidWebhook(Exception):
    """A webhook request whose signature or payload cannot be trusted (answered with HTTP 400)."""


class SubscriptionStatus(TypedDict):
    """check-subscription (docs/product/money.md §9): whether a paid plan is in force, which, and until when.

    Attributes:
        subscribed: A paid plan is active or in its trial.
        subscription_tier: 'premium' or 'enterprise' while subscribed, else None.
        subscription_end: End of the current period (ISO 8601, UTC) while subscribed, else None.
    """

    subscribed: bool
    subscription_tier: str | None
    subscription_end: str | None


@dataclass(frozen=True)
class BillingOverview:
    """What the plan cards show a company about its subscription.

    Attributes:
        plan_slug: The plan in force ('free', 'premium' or 'enterprise').
        plan_name: Its name as shown ('Gratuito', 'Premium', 'Enterprise').
        subscribed: A paid plan is in force.
        status: Stripe's subscription status as last reported ('' without a subscription).
        period_text: 'Período de teste até dd/MM/yyyy' or 'Próxima cobrança em dd/MM/yyyy' ('' when free).
        notice: A warning to show, e.g. a failed payment ('' when none).
        can_manage: The company has a Stripe customer, so the portal can be opened.
        live_subscription: A Stripe subscription that is not over exists, so plan changes go through
            the portal (a second checkout is refused).
    """

    plan_slug: str
    plan_name: str
    subscribed: bool
    status: str
    period_text: str
    notice: str
    can_manage: bool
    live_subscription: bool


def payments_configured() -> bool:
    """Whether the Stripe key and both price ids are set, so a checkout can be started."""
    settings = get_settings()
    return bool(settings.stripe_secret_key and settings.stripe_price_premium and settings.stripe_price_enterprise)


def _subscription_of(session: Session, user_id: int) -> Subscription | None:
    return session.exec(select(Subscription).where(Subscription.user_id == user_id)).first()


def _company(session: Session, user_id: int) -> User | None:
    """The active company account with this id, or None (a freelancer or a missing id alike)."""
    user = session.get(User, user_id)
    if user is None or user.role != Role.CLIENT or not user.is_active or user.deleted_at is not None:
        return None
    return user


def _is_live(row: Subscription | None) -> bool:
    """Whether the row holds a Stripe subscription that is not over (changes go through the portal)."""
    return bool(row is not None and row.stripe_subscription_id and row.status in LIVE_STATUSES)


def _price_for(plan_slug: str) -> str | None:
    settings = get_settings()
    return {"premium": settings.stripe_price_premium, "enterprise": settings.stripe_price_enterprise}.get(plan_slug)


def _tier_for(price_id: str | None) -> str:
    """Our plan slug for a Stripe price id; an unknown price grants nothing ('free')."""
    settings = get_settings()
    if price_id and price_id == settings.stripe_price_premium:
        return "premium"
    if price_id and price_id == settings.stripe_price_enterprise:
        return "enterprise"
    log.warning("Stripe price %r matches no plan; treated as the free plan", price_id)
    return plans.FREE


def create_checkout(session: Session, company_id: int, plan_slug: str, base_url: str) -> str:
    """Start a Stripe Checkout Session for a paid plan and return its URL.

    Identity (client_reference_id, metadata, customer) comes only from `company_id`, which the
    caller resolved from the session cookie. The first subscription gets the free trial.

    Args:
        session: Open database session.
        company_id: The signed-in company.
        plan_slug: 'premium' or 'enterprise'.
        base_url: Public origin of the site, for the success and cancel URLs.

    Returns:
        The Checkout URL the browser is sent to.

    Raises:
        BillingError: Titled 'Erro ao iniciar assinatura' (not configured, not a company, already
            subscribed, or Stripe refused: 'Não foi possível iniciar o checkout.').
    """
    if plan_slug not in PAID_PLAN_SLUGS:
        raise BillingError(CHECKOUT_ERROR, INVALID_PLAN)
    if not payments_configured():
        raise BillingError(CHECKOUT_ERROR, NOT_CONFIGURED)
    company = _company(session, company_id)
    if company is None:
        raise BillingError(CHECKOUT_ERROR, COMPANIES_ONLY)
    existing = _subscription_of(session, company_id)
    if _is_live(existing):
        raise BillingError(CHECKOUT_ERROR, ALREADY_SUBSCRIBED)
    reference = {"user_id": str(company_id), "plan": plan_slug}
    subscription_data: dict[str, Any] = {"metadata": reference}
    if existing is None or not existing.stripe_subscription_id:
        subscription_data["trial_period_days"] = TRIAL_DAYS
    params: dict[str, Any] = {
        "mode": "subscription",
        "line_items": [{"price": _price_for(plan_slug), "quantity": 1}],
        "subscription_data": subscription_data,
        "client_reference_id": str(company_id),
        "metadata": reference,
        "locale": "pt-BR",
        "success_url": base_url.rstrip("/") + routes.company_plans("success"),
        "cancel_url": base_url.rstrip("/") + routes.company_plans("cancel"),
    }
    if existing is not None and existing.stripe_customer_id:
        params["customer"] = existing.stripe_customer_id
    else:
        params["customer_email"] = company.email
    try:
        checkout = stripe_api.client().v1.checkout.sessions.create(params)
    except stripe.StripeError as exc:
        log.warning("Stripe refused a checkout for company %s: %s", company_id, exc)
        raise BillingError(CHECKOUT_ERROR, CHECKOUT_FAILED) from exc
    if not getattr(checkout, "url", None):
        raise BillingError(CHECKOUT_ERROR, CHECKOUT_FAILED)
    return checkout.url


def open_portal(session: Session, company_id: int, base_url: str) -> str:
    """Open a Stripe customer-portal session for the company's stored customer.

    Args:
        session: Open database session.
        company_id: The signed-in company.
        base_url: Public origin of the site, for the portal's return link.

    Returns:
        The portal URL the browser is sent to.

    Raises:
        BillingError: Titled 'Não foi possível abrir o portal de gerenciamento de assinatura'.
    """
    if not get_settings().stripe_secret_key:
        raise BillingError(PORTAL_FAILED, NOT_CONFIGURED)
    existing = _subscription_of(session, company_id) if _company(session, company_id) else None
    if existing is None or not existing.stripe_customer_id:
        raise BillingError(PORTAL_FAILED, NO_CUSTOMER)
    params = {"customer": existing.stripe_customer_id, "return_url": base_url.rstrip("/") + routes.company_plans()}
    try:
        portal = stripe_api.client().v1.billing_portal.sessions.create(params)
    except stripe.StripeError as exc:
        log.warning("Stripe refused a portal session for company %s: %s", company_id, exc)
        raise BillingError(PORTAL_FAILED, TRY_AGAIN) from exc
    if not getattr(portal, "url", None):
        raise BillingError(PORTAL_FAILED, TRY_AGAIN)
    return portal.url


def check_subscription(session: Session, user_id: int) -> SubscriptionStatus:
    """check-subscription (docs/product/money.md §9), answered from our own records (never from Stripe)."""
    plan = plans.current_plan(session, user_id)
    if plan.is_free:
        return SubscriptionStatus(subscribed=False, subscription_tier=None, subscription_end=None)
    row = _subscription_of(session, user_id)
    end = row.current_period_end if row is not None else None
    return SubscriptionStatus(
        subscribed=True, subscription_tier=plan.slug, subscription_end=end.isoformat() if end else None
    )


def overview(session: Session, user_id: int) -> BillingOverview:
    """The plan in force and the subscription details the plan cards show."""
    status = check_subscription(session, user_id)
    row = _subscription_of(session, user_id)
    plan_slug = status["subscription_tier"] or plans.FREE
    plan_name = plan_by_slug(plan_slug).name
    period_text = ""
    if status["subscribed"] and row is not None:
        period_text = "Plano ativo"
        if row.current_period_end is not None:
            label = "Período de teste até" if row.status == "trialing" else "Próxima cobrança em"
            period_text = f"{label} {short_date(row.current_period_end)}"
    notice = ""
    if row is not None and row.status in (PAST_DUE, "unpaid"):
        plan = plan_by_slug(row.tier)
        name = plan.name if plan else "pago"
        notice = (
            f"O pagamento do plano {name} não foi aprovado. Enquanto isso, valem os limites do plano Gratuito. "
            "Atualize a forma de pagamento em 'Gerenciar assinatura'."
        )
    return BillingOverview(
        plan_slug=plan_slug,
        plan_name=plan_name,
        subscribed=status["subscribed"],
        status=row.status if row is not None else "",
        period_text=period_text,
        notice=notice,
        can_manage=bool(row is not None and row.stripe_customer_id),
        live_subscription=_is_live(row),
    )


def handle_event(session: Session, payload: bytes, signature_header: str | None) -> str:
    """Verify a Stripe webhook on its raw body and apply it once.

    The event id is stored in the same transaction as its effect, so a replay changes nothing and a
    failure leaves the event to Stripe's retry.

    Args:
        session: Open database session (the caller commits).
        payload: The request body exactly as received.
        signature_header: The Stripe-Signature header.

    Returns:
        'processed', 'duplicate' (already seen) or 'ignored' (a type we do not act on).

    Raises:
        InvalidWebhook: Bad or missing signature, no webhook secret configured, or a malformed body.
    """
    event = _verified_event(payload, signature_header)
    event_id, event_type = event.get("id"), event.get("type")
    obj = (event.get("data") or {}).get("object")
    if not isinstance(event_id, str) or not isinstance(event_type, str) or not isinstance(obj, dict):
        raise InvalidWebhook("event without id, type or object")
    if session.get(StripeEvent, event_id) is not None:
        return "duplicate"
    session.add(StripeEvent(id=event_id[:255], type=event_type[:100]))
    session.flush()
    handler = _HANDLERS.get(event_type)
    if handler is None:
        return "ignored"
    handler(session, obj)
    return "processed"


def _verified_event(payload: bytes, signature_header: str | None) -> dict:
    """The event, verified with the account endpoint's secret or, for Connect events, the Connect one."""
    settings = get_settings()
    secrets = [s for s in (settings.stripe_webhook_secret, settings.stripe_connect_webhook_secret) if s]
    if not secrets:
        raise InvalidWebhook("STRIPE_WEBHOOK_SECRET is not configured")
    problem: Exception | None = None
    for secret in secrets:
        try:
            return stripe.Webhook.construct_event(
                payload, signature_header, secret, api_key=settings.stripe_secret_key
            ).to_dict()
        except (ValueError, UnicodeDecodeError, stripe.SignatureVerificationError) as exc:
            problem = exc
    raise InvalidWebhook(str(problem))


def _id_of(value: Any) -> str:
    """The id of an expandable Stripe field (an id string or an expanded object)."""
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else ""


def _user_id_from(*candidates: Any) -> int | None:
    """The first candidate that is a positive integer id written as text."""
    for candidate in candidates:
        if isinstance(candidate, str) and candidate.isdigit() and len(candidate) < 12:
            return int(candidate)
    return None


def _row_for_company(session: Session, company_id: int | None) -> Subscription | None:
    """The company's subscription row, created when missing; None when the id is not a company."""
    if company_id is None or _company(session, company_id) is None:
        return None
    row = _subscription_of(session, company_id)
    if row is None:
        row = Subscription(user_id=company_id, tier=plans.FREE, status="incomplete")
        session.add(row)
    return row


def _find_row(session: Session, subscription_id: str, customer_id: str, metadata: dict) -> Subscription | None:
    """Match an event to a company: by subscription id, then our metadata, then the customer id."""
    if subscription_id:
        row = session.exec(select(Subscription).where(Subscription.stripe_subscription_id == subscription_id)).first()
        if row is not None:
            return row
    row = _row_for_company(session, _user_id_from(metadata.get("user_id")))
    if row is not None:
        return row
    if customer_id:
        return session.exec(select(Subscription).where(Subscription.stripe_customer_id == customer_id)).first()
    return None


def _period_end(subscription: dict, item: dict) -> datetime | None:
    """End of the current period: on the item (API 2025-03 and later) or the subscription (older)."""
    for value in (
        item.get("current_period_end"),
        subscription.get("current_period_end"),
        subscription.get("trial_end"),
    ):
        if isinstance(value, int) and value > 0:
            return datetime.fromtimestamp(value, UTC)
    return None


def _first_item(subscription: dict) -> dict:
    items = subscription.get("items")
    data = items.get("data") if isinstance(items, dict) else None
    return data[0] if isinstance(data, list) and data and isinstance(data[0], dict) else {}


def _apply_subscription(session: Session, row: Subscription, subscription: dict) -> None:
    """Copy a Stripe subscription's tier, status and period onto the company's row.

    A subscription Stripe has canceled is final, and an event about another subscription does not
    replace a live one unless it is itself paid (a late event about an old subscription).
    """
    subscription_id = _id_of(subscription)
    status = subscription.get("status") if isinstance(subscription.get("status"), str) else ""
    same = row.stripe_subscription_id == subscription_id
    if same and row.status == CANCELED:
        return
    if row.stripe_subscription_id and not same and row.status in LIVE_STATUSES and status not in plans.PAID_STATUSES:
        return
    item = _first_item(subscription)
    row.stripe_subscription_id = subscription_id[:64]
    row.stripe_customer_id = _id_of(subscription.get("customer"))[:64] or row.stripe_customer_id
    row.tier = _tier_for(_id_of(item.get("price")))
    row.status = status[:24]
    row.current_period_end = _period_end(subscription, item)
    row.updated_at = utcnow()
    session.add(row)


def _on_checkout_completed(session: Session, checkout: dict) -> None:
    """Link the Stripe customer and subscription to the company that started the checkout.

    A payment-mode Checkout is a protected payment of a hiring (services/money/).
    """
    if stripe_events.on_checkout_completed(session, checkout):
        return
    if checkout.get("mode") != "subscription":
        return
    metadata = checkout.get("metadata") if isinstance(checkout.get("metadata"), dict) else {}
    company_id = _user_id_from(checkout.get("client_reference_id"))
    if company_id is None or (metadata.get("user_id") not in (None, str(company_id))):
        log.warning("checkout %s has no consistent company reference", checkout.get("id"))
        return
    row = _row_for_company(session, company_id)
    if row is None:
        log.warning("checkout %s refers to %s, which is not a company", checkout.get("id"), company_id)
        return
    row.stripe_customer_id = _id_of(checkout.get("customer"))[:64] or row.stripe_customer_id
    row.updated_at = utcnow()
    session.add(row)
    subscription = checkout.get("subscription")
    subscription_id = _id_of(subscription)
    if not subscription_id or (row.stripe_subscription_id == subscription_id and row.status != "incomplete"):
        return
    if not isinstance(subscription, dict):
        subscription = stripe_api.client().v1.subscriptions.retrieve(subscription_id).to_dict()
    _apply_subscription(session, row, subscription)


def _on_subscription_changed(session: Session, subscription: dict) -> None:
    """customer.subscription.created/updated: tier from the price, status and period end."""
    metadata = subscription.get("metadata") if isinstance(subscription.get("metadata"), dict) else {}
    row = _find_row(session, _id_of(subscription), _id_of(subscription.get("customer")), metadata)
    if row is None:
        log.warning("subscription %s matches no company", _id_of(subscription))
        return
    _apply_subscription(session, row, subscription)


def _on_subscription_deleted(session: Session, subscription: dict) -> None:
    """customer.subscription.deleted: the company falls back to the free plan."""
    subscription_id = _id_of(subscription)
    row = session.exec(select(Subscription).where(Subscription.stripe_subscription_id == subscription_id)).first()
    if row is None:
        return
    row.status = CANCELED
    row.updated_at = utcnow()
    session.add(row)


def _invoice_subscription_id(invoice: dict) -> str:
    """The invoice's subscription: under parent.subscription_details (API 2025-03+) or at the top (older)."""
    parent = invoice.get("parent") if isinstance(invoice.get("parent"), dict) else {}
    details = parent.get("subscription_details") if isinstance(parent.get("subscription_details"), dict) else {}
    return _id_of(details.get("subscription")) or _id_of(invoice.get("subscription"))


def _on_payment_failed(session: Session, invoice: dict) -> None:
    """invoice.payment_failed: the subscription is past due, so the free limits apply until it is paid."""
    subscription_id = _invoice_subscription_id(invoice)
    if not subscription_id:
        return
    row = session.exec(select(Subscription).where(Subscription.stripe_subscription_id == subscription_id)).first()
    if row is None or row.status == CANCELED:
        return
    row.status = PAST_DUE
    row.updated_at = utcnow()
    session.add(row)


_HANDLERS = {
    "checkout.session.completed": _on_checkout_completed,
    "customer.subscription.created": _on_subscription_changed,
    "customer.subscription.updated": _on_subscription_changed,
    "customer.subscription.deleted": _on_subscription_deleted,
    "invoice.payment_failed": _on_payment_failed,
    "account.updated": payout_verification.on_account_updated,
    **stripe_events.HANDLERS,
}
