"""Stripe's API description (tests/support/stripe_spec) as the fake and the tests apply it.

A request with a parameter Stripe does not know, of the wrong type or enum, or without a required
one is refused by the fake with Stripe's error, so the product's call raises; the client sends the
pinned API version; webhook events are checked against the event and object schemas; the trimmed
description regenerates identically from its script.
"""

import json

import pytest
import stripe
from sqlmodel import Session

from models import Role
from scripts import stripe_types, trim_stripe_spec
from services.money import billing, stripe_api
from tests.support import fake_stripe
from tests.support.factories import make_user
from tests.support.fake_stripe import FakeStripe
from tests.support.stripe_spec import validate

BASE_URL = "http://localhost:3000"


def _transfer(fake: FakeStripe, **extra: object) -> stripe.Transfer:
    intent, charge = fake.paid_charge(10_000)
    account = fake.ready_account("rui@teste.com.br")
    params = {"amount": 9000, "currency": "brl", "destination": account, "source_transaction": charge, **extra}
    return stripe_api.client().v1.transfers.create(params, {"idempotency_key": f"turno-test-{intent}"})


def test_a_misspelt_transfer_parameter_is_refused_as_stripe_does(fake):
    _, charge = fake.paid_charge(10_000)
    account = fake.ready_account("rui@teste.com.br")
    params = {"amount": 9000, "currency": "brl", "destination": account, "source_transactionn": charge}

    with pytest.raises(stripe.InvalidRequestError) as refused:
        stripe_api.client().v1.transfers.create(params)

    assert refused.value.http_status == 400
    assert refused.value.code == "parameter_unknown"
    assert refused.value.param == "source_transactionn"
    assert "Received unknown parameter: source_transactionn" in str(refused.value)
    assert fake.transfers == {}


def test_a_well_formed_transfer_passes_and_a_nested_misspelling_does_not(fake):
    assert _transfer(fake).amount == 9000
    with pytest.raises(stripe.InvalidRequestError) as refused:
        _transfer(fake, metadata={"hiring_id": "7"}, transfer_data={"destinaton": "acct_x"})
    assert (refused.value.code, refused.value.param) == ("parameter_unknown", "transfer_data")
    assert len(fake.transfers) == 1


def test_a_wrong_checkout_mode_and_a_text_amount_are_refused(fake):
    params = {
        "mode": "subscriptions",
        "line_items": [{"price": fake_stripe.PREMIUM_PRICE, "quantity": 1}],
        "success_url": f"{BASE_URL}/ok",
    }
    with pytest.raises(stripe.InvalidRequestError) as refused:
        stripe_api.client().v1.checkout.sessions.create(params)
    assert refused.value.param == "mode"
    assert "must be one of payment, setup, subscription" in str(refused.value)

    with pytest.raises(stripe.InvalidRequestError) as refused:
        stripe_api.client().v1.refunds.create({"payment_intent": "pi_x", "amount": "dez"})
    assert (refused.value.code, refused.value.param) == ("parameter_invalid_integer", "amount")
    assert fake.checkout_sessions == {}


def test_a_missing_required_parameter_and_an_unexpandable_field_are_refused(fake):
    account = fake.ready_account("rui@teste.com.br")
    with pytest.raises(stripe.InvalidRequestError) as refused:
        stripe_api.client().v1.transfers.create({"amount": 100, "destination": account})
    assert (refused.value.code, refused.value.param) == ("parameter_missing", "currency")

    _, charge = fake.paid_charge(500)
    with pytest.raises(stripe.InvalidRequestError) as refused:
        stripe_api.client().v1.charges.retrieve(charge, {"expand": ["payment_intent", "receipt_url"]})
    assert refused.value.param == "expand[1]"
    assert stripe_api.client().v1.charges.retrieve(charge, {"expand": ["payment_intent"]}).id == charge


def test_the_product_call_raises_when_it_sends_a_wrong_type(db: Session, fake, monkeypatch):
    user = make_user(db, "empresa@teste.com.br", Role.CLIENT, nome="Ana", empresa="Hotel Sol")
    db.commit()
    monkeypatch.setattr(billing, "TRIAL_DAYS", "sete")  # subscription_data[trial_period_days]=sete

    with pytest.raises(billing.BillingError):
        billing.create_checkout(db, user.id, "premium", BASE_URL)

    (refused,) = fake.refused
    assert (refused.code, refused.param) == ("parameter_invalid_integer", "subscription_data[trial_period_days]")
    assert fake.checkout_sessions == {}


def test_the_client_sends_the_pinned_api_version_and_the_fake_refuses_another(fake):
    assert stripe_api.API_VERSION == validate.api_version() == "2026-10-28.endive"
    _transfer(fake)
    (call,) = fake.calls("/v1/transfers")
    assert call.headers["stripe-version"] == stripe_api.API_VERSION

    older = stripe.StripeClient(
        api_key=fake_stripe.SECRET_KEY, base_addresses={"api": fake.url}, stripe_version="2025-03-31.basil"
    )
    with pytest.raises(stripe.InvalidRequestError, match=r"2026-10-28\.endive"):
        older.v1.accounts.retrieve("acct_x")


def test_unflatten_rebuilds_stripe_form_encoding():
    flat = {
        "line_items[0][price_data][currency]": "brl",
        "line_items[1][quantity]": "2",
        "metadata[user_id]": "7",
        "expand[0]": "payment_intent",
        "mode": "payment",
    }
    assert validate.unflatten(flat) == {
        "line_items": [{"price_data": {"currency": "brl"}}, {"quantity": "2"}],
        "metadata": {"user_id": "7"},
        "expand": ["payment_intent"],
        "mode": "payment",
    }
    assert (
        validate.validate_request("POST", "/v1/transfers", {"amount": "1", "currency": "brl", "destination": "a"}) == []
    )
    (gap,) = validate.validate_request("POST", "/v1/checkout/sessions", {"line_items[1][quantity]": "1"})
    assert gap.param == "line_items"


def test_the_fakes_webhook_objects_are_stripes_shape(fake):
    _, charge = fake.paid_charge(10_000)
    dispute = fake.dispute(charge)
    for event_type, obj in (
        ("charge.dispute.created", dispute),
        ("charge.dispute.closed", fake.close_dispute(dispute["id"], "lost")),
        ("account.updated", fake.complete_onboarding(fake.ready_account("rui@teste.com.br"))),
    ):
        assert validate.validate_event(fake_stripe.event(event_type, obj)) == [], event_type


def test_an_event_stripe_would_not_send_is_refused():
    wrong_status = {"id": "dp_1", "object": "dispute", "status": "perdida", "amount": 100}
    (problem,) = validate.validate_event(json.loads(_unchecked("charge.dispute.closed", wrong_status)))
    assert problem.param == "data.object.status"

    invented = {"id": "tr_1", "object": "transfer", "amount": 100, "destination_account": "acct_1"}
    (problem,) = validate.validate_event(json.loads(_unchecked("transfer.reversed", invented)))
    assert problem.param == "data.object.destination_account"

    envelope = json.loads(_unchecked("transfer.reversed", {"id": "tr_1", "object": "transfer"}))
    del envelope["type"]
    assert [p.param for p in validate.validate_event(envelope)] == ["type"]
    with pytest.raises(AssertionError, match="not Stripe's shape"):
        fake_stripe.event("transfer.reversed", invented)


def _unchecked(event_type: str, obj: dict) -> str:
    """An event body built like fake_stripe.event's, without its check."""
    return json.dumps(
        {
            "id": "evt_1",
            "object": "event",
            "api_version": validate.api_version(),
            "created": 1,
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "type": event_type,
            "data": {"object": obj},
        }
    )


def test_the_trimmed_description_regenerates_identically():
    document = trim_stripe_spec.from_stripe_python()
    assert trim_stripe_spec.dump(document) == validate.SPEC.read_text()
    assert document["x-turno-source"]["api_version"] == stripe.api_version == stripe_api.API_VERSION
    assert validate.SPEC.stat().st_size < 1_000_000


def test_trimming_a_full_spec_keeps_the_operations_and_the_closure_of_their_schemas():
    ref = stripe_types.ref
    full = {
        "openapi": "3.0.0",
        "info": {"version": "2099-01-01.test"},
        "paths": {
            template: {method: {"description": "long prose", "responses": {"200": {"content": {"x": ref(answer)}}}}}
            for method, template, _params, answer in trim_stripe_spec.OPERATIONS
        }
        | {"/v1/balance": {"get": {"responses": {}}}},
        "components": {
            "schemas": {name: {"type": "object", "description": "prose"} for name in trim_stripe_spec.OBJECTS}
            | {
                "transfer": {"properties": {"reversals": ref("transfer_reversal_list")}},
                "transfer_reversal_list": {"properties": {"data": {"items": ref("transfer_reversal")}}},
                "transfer_reversal": {"type": "object"},
                "balance": {"type": "object"},
            }
        },
    }

    trimmed = trim_stripe_spec.trim(full, "synthetic")

    assert "/v1/balance" not in trimmed["paths"]
    assert trimmed["paths"]["/v1/transfers"]["post"] == {"responses": {"200": {"content": {"x": ref("transfer")}}}}
    assert {"transfer_reversal_list", "transfer_reversal"} <= trimmed["components"]["schemas"].keys()
    assert "balance" not in trimmed["components"]["schemas"]
    assert "description" not in json.dumps(trimmed)
    assert trimmed["x-turno-source"] == {"from": "synthetic", "api_version": "2099-01-01.test"}
