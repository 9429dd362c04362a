"""The one way the app talks to Stripe: a client with the configured key and API origin.

Subscriptions (services/money/billing.py) and payouts (services/money/payouts.py,
payout_verification.py) use it; tests point `STRIPE_API_BASE` at the local fake of
tests/support/fake_stripe.py, so the real library's requests, parameters and errors are exercised.
"""

import stripe

from core.settings import get_settings

REQUEST_TIMEOUT_SECONDS = 20
# The API version every request asks for and the webhook endpoints must be created with (README):
# the one stripe-python 16.1.0 is generated for and tests/support/stripe_spec describes.
API_VERSION = "2026-10-28.endive"


def client() -> stripe.StripeClient:
    """A Stripe client with the configured key, API origin and pinned API version (no global state is touched)."""
    settings = get_settings()
    return stripe.StripeClient(
        api_key=settings.stripe_secret_key or "",
        base_addresses={"api": settings.stripe_api_base.rstrip("/")},
        http_client=stripe.RequestsClient(timeout=REQUEST_TIMEOUT_SECONDS),
        max_network_retries=1,
        stripe_version=API_VERSION,
    )
