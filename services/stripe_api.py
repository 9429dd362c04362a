"""The one way the app talks to Stripe: a client with the configured key and API origin.

Subscriptions (services/billing.py) and payouts (services/payouts.py) both use it; tests point
`STRIPE_API_BASE` at the local fake of tests/support/fake_stripe.py, so the real library's
requests, parameters and errors are exercised.
"""

import stripe

from core.settings import get_settings

REQUEST_TIMEOUT_SECONDS = 20


def client() -> stripe.StripeClient:
    """A Stripe client with the configured key and API origin (no global state is touched)."""
    settings = get_settings()
    return stripe.StripeClient(
        api_key=settings.stripe_secret_key or "",
        base_addresses={"api": settings.stripe_api_base.rstrip("/")},
        http_client=stripe.RequestsClient(timeout=REQUEST_TIMEOUT_SECONDS),
        max_network_retries=1,
    )
