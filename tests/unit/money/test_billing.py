"""services/money/billing.py and POST /api/stripe/webhook against a local fake of Stripe's API.

The real `stripe` library talks to tests/support/fake_stripe.py (STRIPE_API_BASE), so request
parameters, response parsing and Stripe's error handling are exercised for real; webhooks are
signed with Stripe's scheme and sent over HTTP to the app's Starlette routes.
"""

import json
import warnings
from datetime import timedelta

import pytest
from sqlmodel import Session, func, select

from core.settings import get_settings
from core.types import utcnow
from models import Role, StripeEvent, Subscription, User
from services.jobs import plans
from services.money import billing
from tests.support import fake_stripe
from tests.support.factories import make_job, make_user
from tests.support.fake_stripe import ENTERPRISE_PRICE, PREMIUM_PRICE, FakeStripe, event, invoice_failed, sign

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette 1.x prefers httpx2 for its test client; httpx works.
    from starlette.testclient import TestClient

BASE_URL = "http://turno.test"
WEBHOOK = "/api/stripe/webhook"


def company(db: Session, email: str = "empresa@teste.com.br") -> User:
    return make_user(db, email, Role.CLIENT, nome="Ana", empresa="Hotel Sol")


def checkout_params(fake: FakeStripe) -> dict[str, str]:
    (call,) = fake.calls("/v1/checkout/sessions")
    return call.params


def post_event(api_client: TestClient, event_type: str, obj: dict, event_id: str | None = None, api_version: str = ""):
    body = event(event_type, obj, event_id, api_version)
    return api_client.post(WEBHOOK, content=body, headers={"Stripe-Signature": sign(body)})


def subscribe(db: Session, fake: FakeStripe, api_client: TestClient, user: User, plan: str = "premium") -> dict:
    """Checkout on the fake and deliver Stripe's two events; returns the subscription object."""
    url = billing.create_checkout(db, user.id, plan, BASE_URL)
    db.commit()
    checkout, subscription = fake.complete_checkout(url.rsplit("/", 1)[-1])
    assert post_event(api_client, "checkout.session.completed", checkout).status_code == 200
    assert post_event(api_client, "customer.subscription.created", subscription).status_code == 200
    return subscription


def row_of(db: Session, user: User) -> Subscription:
    db.expire_all()
    return db.exec(select(Subscription).where(Subscription.user_id == user.id)).one()


def event_count(db: Session) -> int:
    return db.exec(select(func.count()).select_from(StripeEvent)).one()


def test_checkout_asks_stripe_for_a_brl_subscription_with_trial_and_the_company_reference(db, fake):
    user = company(db)

    url = billing.create_checkout(db, user.id, "premium", BASE_URL)

    params = checkout_params(fake)
    assert url.startswith(f"{fake.url}/c/pay/cs_test_")
    assert params["mode"] == "subscription"
    assert params["line_items[0][price]"] == PREMIUM_PRICE
    assert params["line_items[0][quantity]"] == "1"
    assert params["subscription_data[trial_period_days]"] == "7"
    assert params["client_reference_id"] == str(user.id)
    assert params["metadata[user_id]"] == str(user.id)
    assert params["subscription_data[metadata][user_id]"] == str(user.id)
    assert params["customer_email"] == "empresa@teste.com.br"
    assert "customer" not in params
    assert params["success_url"] == f"{BASE_URL}/client-dashboard?tab=plans&checkout=success"
    assert params["cancel_url"] == f"{BASE_URL}/client-dashboard?tab=plans&checkout=cancel"
    assert fake.calls("/v1/checkout/sessions")[0].headers["authorization"] == f"Bearer {fake_stripe.SECRET_KEY}"


def test_checkout_uses_the_enterprise_price(db, fake):
    user = company(db)
    billing.create_checkout(db, user.id, "enterprise", BASE_URL)
    assert checkout_params(fake)["line_items[0][price]"] == ENTERPRISE_PRICE


def test_checkout_reuses_the_stored_customer_and_gives_no_second_trial(db, fake):
    user = company(db)
    db.add(
        Subscription(
            user_id=user.id,
            tier="premium",
            status="canceled",
            stripe_customer_id="cus_old",
            stripe_subscription_id="sub_old",
        )
    )
    db.flush()

    billing.create_checkout(db, user.id, "premium", BASE_URL)

    params = checkout_params(fake)
    assert params["customer"] == "cus_old"
    assert "customer_email" not in params
    assert "subscription_data[trial_period_days]" not in params


@pytest.mark.parametrize("plan", ["free", "gold", "", "premium' OR 1=1"])
def test_checkout_refuses_plans_that_are_not_paid_plans(db, fake, plan):
    user = company(db)
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, user.id, plan, BASE_URL)
    assert caught.value.title == "Erro ao iniciar assinatura"
    assert caught.value.message == billing.INVALID_PLAN
    assert fake.requests == []


def test_checkout_is_for_companies_only(db, fake):
    freelancer = make_user(db, "free@teste.com.br", Role.FREELANCER, nome="Rui")
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, freelancer.id, "premium", BASE_URL)
    assert caught.value.message == billing.COMPANIES_ONLY
    with pytest.raises(billing.BillingError):
        billing.create_checkout(db, 987654, "premium", BASE_URL)
    assert fake.requests == []


def test_checkout_refuses_a_company_that_already_has_a_subscription(db, fake, api_client):
    user = company(db)
    subscribe(db, fake, api_client, user)
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, user.id, "enterprise", BASE_URL)
    assert caught.value.message == billing.ALREADY_SUBSCRIBED
    assert len(fake.calls("/v1/checkout/sessions")) == 1


@pytest.mark.parametrize("status", [400, 402, 500])
def test_a_stripe_error_gives_the_spec_checkout_message(db, fake, status):
    user = company(db)
    fake.fail("/v1/checkout/sessions", status)
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, user.id, "premium", BASE_URL)
    assert (caught.value.title, caught.value.message) == (
        "Erro ao iniciar assinatura",
        "Não foi possível iniciar o checkout.",
    )


def test_an_unreachable_stripe_gives_the_spec_checkout_message(db, fake, monkeypatch):
    user = company(db)
    monkeypatch.setenv("STRIPE_API_BASE", "http://127.0.0.1:9")
    get_settings.cache_clear()
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, user.id, "premium", BASE_URL)
    assert caught.value.message == billing.CHECKOUT_FAILED


@pytest.mark.parametrize("missing", ["STRIPE_SECRET_KEY", "STRIPE_PRICE_PREMIUM"])
def test_without_stripe_settings_checkout_explains_payments_are_not_configured(db, fake, monkeypatch, missing):
    user = company(db)
    monkeypatch.setenv(missing, "")
    get_settings.cache_clear()
    assert billing.payments_configured() is False
    with pytest.raises(billing.BillingError) as caught:
        billing.create_checkout(db, user.id, "premium", BASE_URL)
    assert caught.value.title == "Erro ao iniciar assinatura"
    assert "não estão configurados" in caught.value.message
    assert fake.requests == []


def test_portal_opens_for_the_stored_customer_and_returns_to_the_plans_tab(db, fake, api_client):
    user = company(db)
    subscribe(db, fake, api_client, user)

    url = billing.open_portal(db, user.id, BASE_URL)

    (call,) = fake.calls("/v1/billing_portal/sessions")
    assert url.startswith(f"{fake.url}/p/session/bps_test_")
    assert call.params == {
        "customer": row_of(db, user).stripe_customer_id,
        "return_url": f"{BASE_URL}/client-dashboard?tab=plans",
    }


def test_portal_without_a_customer_cannot_be_opened(db, fake):
    user = company(db)
    with pytest.raises(billing.BillingError) as caught:
        billing.open_portal(db, user.id, BASE_URL)
    assert (caught.value.title, caught.value.message) == (billing.PORTAL_FAILED, billing.NO_CUSTOMER)
    assert fake.requests == []


def test_portal_error_from_stripe_gives_the_spec_message(db, fake):
    user = company(db)
    db.add(Subscription(user_id=user.id, tier="premium", status="active", stripe_customer_id="cus_unknown"))
    db.flush()
    with pytest.raises(billing.BillingError) as caught:
        billing.open_portal(db, user.id, BASE_URL)
    assert caught.value.title == "Não foi possível abrir o portal de gerenciamento de assinatura"


def test_portal_without_key_explains_payments_are_not_configured(db, fake, monkeypatch):
    user = company(db)
    monkeypatch.setenv("STRIPE_SECRET_KEY", "")
    get_settings.cache_clear()
    with pytest.raises(billing.BillingError) as caught:
        billing.open_portal(db, user.id, BASE_URL)
    assert caught.value.message == billing.NOT_CONFIGURED


def test_check_subscription_of_a_free_company(db):
    user = company(db)
    assert billing.check_subscription(db, user.id) == {
        "subscribed": False,
        "subscription_tier": None,
        "subscription_end": None,
    }


def test_check_subscription_reads_our_own_records(db):
    user = company(db)
    end = (utcnow() + timedelta(days=20)).replace(microsecond=0)
    db.add(Subscription(user_id=user.id, tier="enterprise", status="active", current_period_end=end))
    db.flush()
    assert billing.check_subscription(db, user.id) == {
        "subscribed": True,
        "subscription_tier": "enterprise",
        "subscription_end": end.isoformat(),
    }


@pytest.mark.parametrize("status", ["past_due", "canceled", "unpaid", "incomplete"])
def test_check_subscription_is_false_unless_active_or_trialing(db, status):
    user = company(db)
    db.add(
        Subscription(user_id=user.id, tier="premium", status=status, current_period_end=utcnow() + timedelta(days=5))
    )
    db.flush()
    assert billing.check_subscription(db, user.id)["subscribed"] is False


def test_overview_describes_trial_renewal_and_failed_payment(db):
    user = company(db)
    row = Subscription(
        user_id=user.id,
        tier="premium",
        status="trialing",
        stripe_customer_id="cus_1",
        current_period_end=utcnow() + timedelta(days=7),
    )
    db.add(row)
    db.flush()
    trial = billing.overview(db, user.id)
    assert (trial.plan_slug, trial.subscribed, trial.can_manage) == ("premium", True, True)
    assert trial.period_text.startswith("Período de teste até ")
    row.status = "active"
    assert billing.overview(db, user.id).period_text.startswith("Próxima cobrança em ")
    row.status = "past_due"
    failed = billing.overview(db, user.id)
    assert (failed.plan_slug, failed.subscribed, failed.period_text) == ("free", False, "")
    assert "Premium não foi aprovado" in failed.notice


def test_overview_of_a_company_that_never_subscribed(db):
    user = company(db)
    assert billing.overview(db, user.id) == billing.BillingOverview(
        plan_slug="free",
        plan_name="Gratuito",
        subscribed=False,
        status="",
        period_text="",
        notice="",
        can_manage=False,
        live_subscription=False,
    )


def test_signed_upgrade_lifts_the_free_limit(db, fake, api_client):
    user = company(db)
    make_job(db, user, "Vaga 1")
    make_job(db, user, "Vaga 2")
    db.commit()
    with pytest.raises(plans.PlanLimitReached):
        plans.ensure_can_publish(db, user.id)

    subscription = subscribe(db, fake, api_client, user)

    row = row_of(db, user)
    assert (row.tier, row.status) == ("premium", "trialing")
    assert row.stripe_subscription_id == subscription["id"]
    assert row.stripe_customer_id == subscription["customer"]
    assert row.current_period_end is not None and row.current_period_end > utcnow() + timedelta(days=6)
    assert billing.check_subscription(db, user.id)["subscription_tier"] == "premium"
    plans.ensure_can_publish(db, user.id)


def test_checkout_completed_fetches_the_subscription_from_stripe(db, fake, api_client):
    user = company(db)
    url = billing.create_checkout(db, user.id, "enterprise", BASE_URL)
    db.commit()
    checkout, subscription = fake.complete_checkout(url.rsplit("/", 1)[-1], status="active")

    response = post_event(api_client, "checkout.session.completed", checkout)

    assert response.json() == {"received": True, "result": "processed"}
    assert [call.path for call in fake.requests if call.method == "GET"] == [f"/v1/subscriptions/{subscription['id']}"]
    row = row_of(db, user)
    assert (row.tier, row.status) == ("enterprise", "active")


def test_subscription_event_before_checkout_event_is_linked_by_our_metadata(db, fake, api_client):
    user = company(db)
    url = billing.create_checkout(db, user.id, "premium", BASE_URL)
    db.commit()
    checkout, subscription = fake.complete_checkout(url.rsplit("/", 1)[-1])

    assert post_event(api_client, "customer.subscription.created", subscription).status_code == 200
    assert post_event(api_client, "checkout.session.completed", checkout).status_code == 200

    row = row_of(db, user)
    assert (row.tier, row.status, row.stripe_subscription_id) == ("premium", "trialing", subscription["id"])
    assert fake.calls(f"/v1/subscriptions/{subscription['id']}", "GET") == []


def test_a_replayed_event_changes_nothing(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    created_id = "evt_test_replayed_created"
    assert (
        post_event(api_client, "customer.subscription.updated", subscription, created_id).json()["result"]
        == "processed"
    )
    assert (
        post_event(api_client, "customer.subscription.deleted", {**subscription, "status": "canceled"}).status_code
        == 200
    )
    events_before = event_count(db)

    replay = post_event(api_client, "customer.subscription.updated", subscription, created_id)

    assert (replay.status_code, replay.json()["result"]) == (200, "duplicate")
    assert event_count(db) == events_before
    assert row_of(db, user).status == "canceled"


def test_a_tampered_body_is_refused_and_changes_nothing(db, fake, api_client):
    user = company(db)
    url = billing.create_checkout(db, user.id, "premium", BASE_URL)
    db.commit()
    _, subscription = fake.complete_checkout(url.rsplit("/", 1)[-1])
    body = event("customer.subscription.created", subscription)
    header = sign(body)
    tampered = body.replace('"trialing"', '"active"')

    response = api_client.post(WEBHOOK, content=tampered, headers={"Stripe-Signature": header})

    assert response.status_code == 400
    assert event_count(db) == 0
    assert db.exec(select(Subscription)).all() == []


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Stripe-Signature": ""},
        {"Stripe-Signature": "garbage"},
        {"Stripe-Signature": "t=abc,v1=def"},
    ],
)
def test_an_unsigned_or_malformed_signature_is_refused(db, fake, api_client, headers):
    user = company(db)
    db.commit()
    body = event("customer.subscription.created", {"id": "sub_x", "metadata": {"user_id": str(user.id)}})
    assert api_client.post(WEBHOOK, content=body, headers=headers).status_code == 400
    assert event_count(db) == 0


def test_a_signature_with_another_secret_or_too_old_is_refused(db, fake, api_client):
    body = event("invoice.payment_failed", {"id": "in_x"})
    wrong_secret = api_client.post(
        WEBHOOK, content=body, headers={"Stripe-Signature": sign(body, secret="whsec_other")}
    )
    too_old = api_client.post(WEBHOOK, content=body, headers={"Stripe-Signature": sign(body, timestamp=1_600_000_000)})
    assert (wrong_secret.status_code, too_old.status_code) == (400, 400)
    assert event_count(db) == 0


def test_webhooks_are_refused_when_no_webhook_secret_is_configured(db, fake, api_client, monkeypatch):
    monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", "")
    get_settings.cache_clear()
    body = event("invoice.payment_failed", {"id": "in_x"})
    assert api_client.post(WEBHOOK, content=body, headers={"Stripe-Signature": sign(body)}).status_code == 400


def test_a_signed_body_that_is_not_an_event_is_refused(db, fake, api_client):
    body = json.dumps({"hello": "world"})
    assert api_client.post(WEBHOOK, content=body, headers={"Stripe-Signature": sign(body)}).status_code == 400


def test_an_event_type_we_do_not_handle_is_acknowledged_once(db, fake, api_client):
    response = post_event(api_client, "customer.created", {"id": "cus_x", "object": "customer"}, "evt_test_other")
    assert response.json() == {"received": True, "result": "ignored"}
    assert (
        post_event(api_client, "customer.created", {"id": "cus_x", "object": "customer"}, "evt_test_other").json()[
            "result"
        ]
        == "duplicate"
    )


def test_cancellation_brings_back_the_free_limits(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    make_job(db, user, "Vaga 1")
    make_job(db, user, "Vaga 2")
    db.commit()
    plans.ensure_can_publish(db, user.id)
    db.commit()  # the check holds SQLite's write lock until its transaction ends, as a publication's does

    assert (
        post_event(api_client, "customer.subscription.deleted", {**subscription, "status": "canceled"}).status_code
        == 200
    )

    assert row_of(db, user).status == "canceled"
    assert billing.check_subscription(db, user.id)["subscribed"] is False
    with pytest.raises(plans.PlanLimitReached):
        plans.ensure_can_publish(db, user.id)


def test_a_late_update_does_not_revive_a_canceled_subscription(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    post_event(api_client, "customer.subscription.deleted", {**subscription, "status": "canceled"})
    post_event(api_client, "customer.subscription.updated", {**subscription, "status": "active"})
    assert row_of(db, user).status == "canceled"


def test_failed_payment_applies_the_free_limits_until_stripe_reports_it_paid(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    make_job(db, user, "Vaga 1")
    make_job(db, user, "Vaga 2")
    db.commit()

    assert post_event(api_client, "invoice.payment_failed", invoice_failed(subscription)).status_code == 200

    assert row_of(db, user).status == "past_due"
    with pytest.raises(plans.PlanLimitReached):
        plans.ensure_can_publish(db, user.id)
    db.rollback()  # a refused publication ends its transaction, and with it SQLite's write lock

    post_event(api_client, "customer.subscription.updated", {**subscription, "status": "active"})
    assert row_of(db, user).status == "active"
    plans.ensure_can_publish(db, user.id)


def test_failed_payment_with_the_older_invoice_shape_is_understood(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    invoice = {
        "id": "in_old",
        "object": "invoice",
        "customer": subscription["customer"],
        "subscription": subscription["id"],
    }
    # An endpoint still on a version before 2025-03-31.basil gets the subscription at the top.
    post_event(api_client, "invoice.payment_failed", invoice, api_version="2025-02-24.acacia")
    assert row_of(db, user).status == "past_due"


def test_events_naming_no_company_change_nothing(db, fake, api_client):
    freelancer = make_user(db, "free@teste.com.br", Role.FREELANCER, nome="Rui")
    db.commit()
    stray = {
        "id": "sub_stray",
        "object": "subscription",
        "customer": "cus_stray",
        "status": "active",
        "metadata": {"user_id": str(freelancer.id)},
        "items": {"data": [{"price": {"id": PREMIUM_PRICE}, "current_period_end": 4_000_000_000}]},
    }
    checkout = {"id": "cs_x", "mode": "subscription", "client_reference_id": "999999", "customer": "cus_stray"}

    assert post_event(api_client, "customer.subscription.created", stray).status_code == 200
    assert post_event(api_client, "checkout.session.completed", checkout).status_code == 200
    assert post_event(api_client, "invoice.payment_failed", invoice_failed(stray)).status_code == 200

    assert db.exec(select(Subscription)).all() == []


def test_checkout_whose_reference_and_metadata_disagree_is_not_linked(db, fake, api_client):
    first, second = company(db), company(db, "outra@teste.com.br")
    db.commit()
    checkout = {
        "id": "cs_x",
        "mode": "subscription",
        "client_reference_id": str(first.id),
        "metadata": {"user_id": str(second.id)},
        "customer": "cus_x",
        "subscription": None,
    }
    assert post_event(api_client, "checkout.session.completed", checkout).status_code == 200
    assert db.exec(select(Subscription)).all() == []


def test_an_unknown_price_grants_no_paid_plan(db, fake, api_client):
    user = company(db)
    db.commit()
    subscription = {
        "id": "sub_unknown_price",
        "object": "subscription",
        "customer": "cus_1",
        "status": "active",
        "metadata": {"user_id": str(user.id)},
        "items": {"data": [{"price": {"id": "price_somewhere_else"}, "current_period_end": 4_000_000_000}]},
    }
    post_event(api_client, "customer.subscription.created", subscription)
    assert row_of(db, user).tier == "free"
    assert billing.check_subscription(db, user.id)["subscribed"] is False


def test_an_event_about_an_old_subscription_does_not_replace_the_live_one(db, fake, api_client):
    user = company(db)
    subscription = subscribe(db, fake, api_client, user)
    old = {**subscription, "id": "sub_older", "status": "incomplete_expired"}
    post_event(api_client, "customer.subscription.updated", old)
    post_event(api_client, "customer.subscription.deleted", {**old, "status": "canceled"})
    row = row_of(db, user)
    assert (row.stripe_subscription_id, row.status) == (subscription["id"], "trialing")


def test_a_failure_while_applying_leaves_the_event_for_stripes_retry(db, fake, api_client):
    user = company(db)
    url = billing.create_checkout(db, user.id, "premium", BASE_URL)
    db.commit()
    checkout, subscription = fake.complete_checkout(url.rsplit("/", 1)[-1])
    fake.fail(f"/v1/subscriptions/{subscription['id']}", 500)

    first = post_event(api_client, "checkout.session.completed", checkout, "evt_test_retry")
    assert first.status_code == 500
    assert event_count(db) == 0

    retry = post_event(api_client, "checkout.session.completed", checkout, "evt_test_retry")
    assert retry.json()["result"] == "processed"
    assert row_of(db, user).tier == "premium"


def test_overview_of_a_plan_granted_without_stripe(db):
    user = company(db)
    db.add(Subscription(user_id=user.id, tier="premium", status="active"))
    db.flush()
    view = billing.overview(db, user.id)
    assert (view.plan_slug, view.plan_name, view.period_text) == ("premium", "Premium", "Plano ativo")
    assert (view.can_manage, view.live_subscription) == (False, False)


def test_overview_after_a_stripe_subscription_offers_the_portal(db, fake, api_client):
    user = company(db)
    subscribe(db, fake, api_client, user)
    db.expire_all()
    view = billing.overview(db, user.id)
    assert (view.plan_name, view.can_manage, view.live_subscription) == ("Premium", True, True)
