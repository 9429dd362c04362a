"""The payment side of the local Stripe fake (tests/support/fake_stripe.py), driven by the real library.

Payment-mode Checkout, PaymentIntents and Charges made by paying, separate transfers to a connected
account, refunds, idempotency keys (replays, mismatches, a retry after a timeout) and the stand-in
payment page with its signed webhooks: what services/money/ relies on.
"""

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
import stripe

from tests.support.fake_stripe import (
    INSUFFICIENT_SOURCE,
    NO_TRANSFERS,
    NOT_OPEN,
    WEBHOOK_SECRET,
    FakeStripe,
    brl,
)

GROUP = "turno-contratacao-7"


def _client(fake: FakeStripe, timeout: float = 10, retries: int = 1) -> stripe.StripeClient:
    return stripe.StripeClient(
        api_key="sk_test_local_fake",
        base_addresses={"api": fake.url},
        http_client=stripe.RequestsClient(timeout=timeout),
        max_network_retries=retries,
    )


@pytest.fixture
def client(fake: FakeStripe) -> stripe.StripeClient:
    return _client(fake)


class _Receiver(BaseHTTPRequestHandler):
    """A webhook endpoint that keeps what it receives: (event JSON text, Stripe-Signature)."""

    received: list[tuple[str, str]]

    def log_message(self, *_args) -> None:
        return

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        self.received.append((body, self.headers.get("Stripe-Signature", "")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def receiver(fake: FakeStripe) -> Iterator[list[tuple[str, str]]]:
    """A local webhook endpoint set as the fake's `webhook_url`; yields the (body, signature) pairs."""
    received: list[tuple[str, str]] = []
    handler = type("Receiver", (_Receiver,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    fake.webhook_url = f"http://127.0.0.1:{server.server_address[1]}/api/stripe/webhook"
    yield received
    server.shutdown()
    server.server_close()


def _params(*amounts: int, **extra) -> dict:
    """Payment-mode Checkout parameters as the app sends them, one line per amount."""
    return {
        "mode": "payment",
        "line_items": [
            {
                "price_data": {"currency": "brl", "product_data": {"name": f"Linha {i}"}, "unit_amount": amount},
                "quantity": 1,
            }
            for i, amount in enumerate(amounts)
        ],
        "payment_intent_data": {"transfer_group": GROUP, "metadata": {"hiring_id": "7", "payment_id": "3"}},
        "metadata": {"hiring_id": "7", "payment_id": "3"},
        "client_reference_id": "42",
        "customer_email": "empresa@example.com",
        "success_url": "http://turno.test/empresa/turnos?pagamento=ok&session_id={CHECKOUT_SESSION_ID}",
        "cancel_url": "http://turno.test/empresa/turnos?pagamento=cancelado",
        "locale": "pt-BR",
        **extra,
    }


def _checkout(client: stripe.StripeClient, *amounts: int, key: str | None = None, **extra) -> dict:
    options: stripe.RequestOptions = {"idempotency_key": key} if key else {}
    return client.v1.checkout.sessions.create(_params(*amounts, **extra), options).to_dict()


def _paid_charge(fake: FakeStripe, client: stripe.StripeClient, amount: int = 23520) -> dict:
    session = _checkout(client, amount)
    fake.complete_payment(session["id"], "card")
    intent = fake.payment_intents[fake.checkout_sessions[session["id"]]["payment_intent"]]
    return fake.charges[intent["latest_charge"]]


def _account(fake: FakeStripe, client: stripe.StripeClient, ready: bool = True) -> str:
    account = client.v1.accounts.create({"country": "BR", "email": "freela@example.com"})
    if ready:
        fake.complete_onboarding(account.id)
    return account.id


# --- payment-mode Checkout ------------------------------------------------------------------------------


def test_a_payment_checkout_totals_its_lines_and_keeps_its_payment_intent_data(fake, client):
    expires_at = int(time.time()) + 3600
    session = _checkout(client, 21000, 2520, key="turno-checkout-3", expires_at=expires_at)
    assert session["id"].startswith("cs_test_") and session["url"] == f"{fake.url}/c/pay/{session['id']}"
    assert (session["mode"], session["status"], session["payment_status"]) == ("payment", "open", "unpaid")
    assert (session["amount_total"], session["currency"], session["payment_intent"]) == (23520, "brl", None)
    assert (session["expires_at"], session["metadata"]) == (expires_at, {"hiring_id": "7", "payment_id": "3"})
    assert not [k for k in session if k.startswith("_")]
    kept = fake.checkout_sessions[session["id"]]
    assert [(line["name"], line["unit_amount"]) for line in kept["_line_items"]] == [
        ("Linha 0", 21000),
        ("Linha 1", 2520),
    ]
    assert kept["_payment_intent_data"] == {"transfer_group": GROUP, "metadata": {"hiring_id": "7", "payment_id": "3"}}
    (call,) = fake.calls("/v1/checkout/sessions")
    assert call.params["line_items[1][price_data][product_data][name]"] == "Linha 1"
    assert client.v1.checkout.sessions.retrieve(session["id"]).to_dict() == session


def test_a_checkout_without_expires_at_lasts_a_day_and_a_bad_one_is_refused(client):
    before = int(time.time())
    assert before + 86_400 <= _checkout(client, 1000)["expires_at"] <= int(time.time()) + 86_400
    with pytest.raises(stripe.InvalidRequestError, match="expires_at"):
        _checkout(client, 1000, expires_at=before + 60)


def test_the_same_key_and_parameters_answer_the_same_checkout_and_other_parameters_are_refused(fake, client):
    first = _checkout(client, 21000, key="turno-checkout-3")
    assert _checkout(client, 21000, key="turno-checkout-3") == first
    with pytest.raises(stripe.IdempotencyError, match="same parameters"):
        _checkout(client, 99000, key="turno-checkout-3")
    assert list(fake.checkout_sessions) == [first["id"]]
    assert fake.idempotency_keys("/v1/checkout/sessions") == ["turno-checkout-3"] * 3
    assert _checkout(client, 21000)["id"] != first["id"]  # the library's own random key: a new one


def test_an_open_checkout_expires_once_and_a_completed_one_cannot(fake, client):
    session = _checkout(client, 1000)
    assert client.v1.checkout.sessions.expire(session["id"]).status == "expired"
    with pytest.raises(stripe.InvalidRequestError, match="status of `open`"):
        client.v1.checkout.sessions.expire(session["id"])
    paid = _checkout(client, 1000)
    fake.complete_payment(paid["id"])
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.checkout.sessions.expire(paid["id"])
    assert refused.value.user_message == NOT_OPEN
    assert fake.expire_session(_checkout(client, 1000)["id"])["status"] == "expired"


def test_subscription_mode_is_unchanged(fake, client):
    session = client.v1.checkout.sessions.create(
        {"mode": "subscription", "line_items": [{"price": "price_test_premium_brl", "quantity": 1}]}
    ).to_dict()
    assert "amount_total" not in session and session["mode"] == "subscription"
    page = requests.get(session["url"], timeout=5)
    assert page.status_code == 200 and "<h1>Checkout de teste</h1>" in page.text


# --- paying: card and Pix ---------------------------------------------------------------------------------


def test_a_card_payment_makes_a_succeeded_intent_and_charge(fake, client):
    session = _checkout(client, 21000, 2520)
    completed = fake.complete_payment(session["id"], "card")
    assert (completed["status"], completed["payment_status"]) == ("complete", "paid")
    intent = client.v1.payment_intents.retrieve(completed["payment_intent"]).to_dict()
    assert (intent["amount"], intent["currency"], intent["status"]) == (23520, "brl", "succeeded")
    assert (intent["transfer_group"], intent["metadata"]) == (GROUP, {"hiring_id": "7", "payment_id": "3"})
    charge = client.v1.charges.retrieve(intent["latest_charge"]).to_dict()
    assert (charge["amount"], charge["amount_refunded"], charge["refunded"], charge["paid"]) == (23520, 0, False, True)
    assert (charge["status"], charge["payment_intent"], charge["transfer_group"]) == ("succeeded", intent["id"], GROUP)
    assert charge["balance_transaction"].startswith("txn_")
    with pytest.raises(ValueError, match="not an open"):
        fake.complete_payment(session["id"])  # paid already


def test_a_pix_payment_clears_later_or_fails(fake, client):
    session = _checkout(client, 5000)
    completed = fake.complete_payment(session["id"], "pix")
    assert (completed["status"], completed["payment_status"]) == ("complete", "unpaid")
    intent = fake.payment_intents[completed["payment_intent"]]
    assert (intent["status"], fake.charges[intent["latest_charge"]]["status"]) == ("processing", "pending")
    assert fake.settle_pix(session["id"])["payment_status"] == "paid"
    assert (intent["status"], fake.charges[intent["latest_charge"]]["status"]) == ("succeeded", "succeeded")

    failing = _checkout(client, 5000)
    intent_id = fake.complete_payment(failing["id"], "pix")["payment_intent"]
    assert fake.settle_pix(failing["id"], succeeded=False)["payment_status"] == "unpaid"
    intent = client.v1.payment_intents.retrieve(intent_id)
    assert (intent.status, fake.charges[intent.latest_charge]["status"]) == ("requires_payment_method", "failed")


# --- transfers ---------------------------------------------------------------------------------------------


def test_a_transfer_needs_an_account_that_can_receive_it(fake, client):
    charge = _paid_charge(fake, client)
    pending = _account(fake, client, ready=False)
    params = {"amount": 1000, "currency": "brl", "destination": pending, "source_transaction": charge["id"]}
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.transfers.create(params)
    assert refused.value.user_message == NO_TRANSFERS
    with pytest.raises(stripe.InvalidRequestError, match="No such destination"):
        client.v1.transfers.create({**params, "destination": "acct_unknown"})
    assert not fake.transfers


def test_a_transfer_cannot_take_more_than_its_source_charge_has_left(fake, client):
    charge = _paid_charge(fake, client, 23520)
    destination = _account(fake, client)
    params = {
        "amount": 21000,
        "currency": "brl",
        "destination": destination,
        "source_transaction": charge["id"],
        "transfer_group": GROUP,
        "metadata": {"hiring_id": "7"},
        "description": "Turno 7",
    }
    transfer = client.v1.transfers.create(params, {"idempotency_key": "turno-repasse-3"}).to_dict()
    assert transfer["id"].startswith("tr_test_") and transfer["object"] == "transfer"
    assert (transfer["amount"], transfer["destination"], transfer["source_transaction"]) == (
        21000,
        destination,
        charge["id"],
    )
    assert (transfer["transfer_group"], transfer["metadata"], transfer["reversed"]) == (
        GROUP,
        {"hiring_id": "7"},
        False,
    )
    client.v1.refunds.create({"charge": charge["id"], "amount": 2000})
    with pytest.raises(stripe.InvalidRequestError) as refused:  # 23520 - 21000 - 2000 = 520 left
        client.v1.transfers.create({**params, "amount": 521})
    assert refused.value.user_message == INSUFFICIENT_SOURCE
    assert client.v1.transfers.create({**params, "amount": 520}).amount == 520
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.transfers.create({**params, "amount": 0})
    assert len(fake.transfers) == 2


def test_a_transfer_from_a_pix_still_clearing_is_refused(fake, client):
    session = _checkout(client, 5000)
    intent = fake.payment_intents[fake.complete_payment(session["id"], "pix")["payment_intent"]]
    params = {"amount": 100, "currency": "brl", "destination": _account(fake, client)}
    with pytest.raises(stripe.InvalidRequestError, match="Insufficient funds"):
        client.v1.transfers.create({**params, "source_transaction": intent["latest_charge"]})
    assert client.v1.transfers.create(params).source_transaction is None  # from the platform's balance


# --- refunds -----------------------------------------------------------------------------------------------


def test_refunds_stop_at_what_the_charge_has_left(fake, client):
    charge = _paid_charge(fake, client, 10000)
    first = client.v1.refunds.create(
        {"payment_intent": charge["payment_intent"], "amount": 4000, "metadata": {"payment_id": "3"}},
        {"idempotency_key": "turno-estorno-3"},
    ).to_dict()
    assert (first["object"], first["amount"], first["status"]) == ("refund", 4000, "succeeded")
    assert (first["charge"], first["payment_intent"], first["metadata"]) == (
        charge["id"],
        charge["payment_intent"],
        {"payment_id": "3"},
    )
    assert (charge["amount_refunded"], charge["refunded"]) == (4000, False)
    with pytest.raises(stripe.InvalidRequestError, match="greater than"):
        client.v1.refunds.create({"charge": charge["id"], "amount": 6001})
    rest = client.v1.refunds.create({"payment_intent": charge["payment_intent"]})  # no amount: all that is left
    assert rest.amount == 6000
    assert client.v1.charges.retrieve(charge["id"]).refunded is True
    with pytest.raises(stripe.InvalidRequestError, match="already been refunded"):
        client.v1.refunds.create({"charge": charge["id"]})
    assert fake.idempotency_keys("/v1/refunds")[0] == "turno-estorno-3" and len(fake.refunds) == 2


# --- failures, hangs and retries ----------------------------------------------------------------------------


def test_fail_answers_a_stripe_error_once_and_creates_nothing(fake, client):
    charge = _paid_charge(fake, client)
    params = {
        "amount": 100,
        "currency": "brl",
        "destination": _account(fake, client),
        "source_transaction": charge["id"],
    }
    fake.fail("/v1/transfers", 402, "Insufficient funds in Stripe account.")
    with pytest.raises(stripe.CardError, match="Insufficient funds in Stripe account"):
        client.v1.transfers.create(params, {"idempotency_key": "turno-repasse-3"})
    assert not fake.transfers
    fake.fail("/v1/refunds", 400, "nope")
    with pytest.raises(stripe.InvalidRequestError, match="nope"):
        client.v1.refunds.create({"charge": charge["id"]})
    assert client.v1.transfers.create(params, {"idempotency_key": "turno-repasse-3"}).amount == 100
    assert fake.idempotency_keys("/v1/transfers") == ["turno-repasse-3", "turno-repasse-3"]


def test_a_timed_out_transfer_is_retried_by_the_library_with_the_same_key_and_made_once(fake, client):
    # stripe-python retries a read timeout (requests' Timeout) when max_network_retries > 0, after a
    # 0.5 s back-off, sending the same Idempotency-Key: the retry gets the transfer the first made.
    charge = _paid_charge(fake, client)
    params = {
        "amount": 100,
        "currency": "brl",
        "destination": _account(fake, client),
        "source_transaction": charge["id"],
    }
    fake.hang("/v1/transfers", 1.5)
    transfer = _client(fake, timeout=0.5, retries=1).v1.transfers.create(params, {"idempotency_key": "turno-repasse-3"})
    keys = fake.idempotency_keys("/v1/transfers")
    assert keys == ["turno-repasse-3", "turno-repasse-3"]
    assert list(fake.transfers) == [transfer.id]
    assert client.v1.transfers.create(params).id != transfer.id  # only one request hung; a new key, a new transfer


def test_without_retries_a_timeout_is_an_error_but_the_transfer_exists_for_the_next_try(fake, client):
    charge = _paid_charge(fake, client)
    params = {
        "amount": 100,
        "currency": "brl",
        "destination": _account(fake, client),
        "source_transaction": charge["id"],
    }
    fake.hang("/v1/transfers", 1.0)
    with pytest.raises(stripe.APIConnectionError):
        _client(fake, timeout=0.3, retries=0).v1.transfers.create(params, {"idempotency_key": "k"})
    (made,) = fake.transfers
    assert client.v1.transfers.create(params, {"idempotency_key": "k"}).id == made


# --- disputes, reversals and webhooks --------------------------------------------------------------------


def test_disputes_and_reversals_return_their_webhook_objects(fake, client):
    charge = _paid_charge(fake, client)
    dispute = fake.dispute(charge["id"])
    assert (dispute["object"], dispute["status"], dispute["reason"]) == ("dispute", "needs_response", "fraudulent")
    assert (dispute["charge"], dispute["payment_intent"], dispute["amount"]) == (
        charge["id"],
        charge["payment_intent"],
        charge["amount"],
    )
    assert fake.close_dispute(dispute["id"], "lost")["status"] == "lost"
    transfer = client.v1.transfers.create(
        {"amount": 100, "currency": "brl", "destination": _account(fake, client), "source_transaction": charge["id"]}
    )
    reversed_ = fake.reverse_transfer(transfer.id)
    assert (reversed_["reversed"], reversed_["amount_reversed"]) == (True, 100)


def test_send_event_posts_a_signed_event_or_answers_zero(fake, receiver):
    assert fake.send_event("charge.dispute.created", {"id": "dp_1"}) == 200
    ((body, signature),) = receiver
    assert stripe.Webhook.construct_event(body, signature, WEBHOOK_SECRET).data.object.id == "dp_1"
    fake.webhook_url = ""
    assert fake.send_event("charge.dispute.created", {"id": "dp_1"}) == 0
    fake.webhook_url = "http://127.0.0.1:9/nobody"
    assert fake.send_event("charge.dispute.created", {"id": "dp_1"}) == 0


# --- the stand-in payment page ------------------------------------------------------------------------------


def test_brl_formats_like_brazilians_write_money():
    assert [brl(123456), brl(5), brl(100_000_000), brl(-990)] == [
        "R$ 1.234,56",
        "R$ 0,05",
        "R$ 1.000.000,00",
        "-R$ 9,90",
    ]


def test_the_payment_page_shows_the_total_the_lines_and_three_buttons(client):
    session = _checkout(client, 100000, 23456)
    page = requests.get(session["url"], timeout=5)
    assert page.status_code == 200 and "<title>Pagamento de teste</title>" in page.text
    assert "<h1>Pagamento de teste</h1>" in page.text and "R$ 1.234,56" in page.text
    assert "Linha 0: R$ 1.000,00" in page.text and "Linha 1: R$ 234,56" in page.text
    for action, label in (("cartao", "Pagar com cartão"), ("pix", "Pagar com Pix"), ("cancelar", "Voltar")):
        assert f"action='/c/pay/{session['id']}/{action}'><button>{label}</button>" in page.text


def test_paying_by_card_on_the_page_sends_a_signed_completed_event_and_returns(fake, client, receiver):
    session = _checkout(client, 23520)
    answer = requests.post(f"{session['url']}/cartao", allow_redirects=False, timeout=10)
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"http://turno.test/empresa/turnos?pagamento=ok&session_id={session['id']}"
    ((body, signature),) = receiver
    sent = stripe.Webhook.construct_event(body, signature, WEBHOOK_SECRET)
    assert sent.type == "checkout.session.completed"
    assert (sent.data.object.id, sent.data.object.payment_status) == (session["id"], "paid")
    assert fake.payment_intents[sent.data.object.payment_intent]["status"] == "succeeded"
    again = requests.get(session["url"], timeout=5)  # paid: the page is gone
    assert again.status_code == 404
    assert requests.post(f"{session['url']}/cartao", allow_redirects=False, timeout=5).status_code == 404
    assert len(fake.payment_intents) == 1


def test_paying_by_pix_on_the_page_sends_completed_then_async_succeeded(fake, client, receiver):
    session = _checkout(client, 5000)
    answer = requests.post(f"{session['url']}/pix", allow_redirects=False, timeout=10)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"session_id={session['id']}")
    events = [stripe.Webhook.construct_event(body, sig, WEBHOOK_SECRET) for body, sig in receiver]
    assert [(e.type, e.data.object.payment_status) for e in events] == [
        ("checkout.session.completed", "unpaid"),
        ("checkout.session.async_payment_succeeded", "paid"),
    ]
    assert json.loads(receiver[1][0])["data"]["object"]["status"] == "complete"


def test_going_back_leaves_the_checkout_open_and_an_expired_one_says_so(fake, client, receiver):
    session = _checkout(client, 5000)
    answer = requests.post(f"{session['url']}/cancelar", allow_redirects=False, timeout=5)
    assert (answer.status_code, answer.headers["Location"]) == (
        303,
        "http://turno.test/empresa/turnos?pagamento=cancelado",
    )
    assert fake.checkout_sessions[session["id"]]["status"] == "open" and not receiver
    fake.expire_session(session["id"])
    expired = requests.get(session["url"], timeout=5)
    assert expired.status_code == 410 and "Sessão expirada" in expired.text
    assert requests.post(f"{session['url']}/cartao", allow_redirects=False, timeout=5).status_code == 410
    assert requests.get(f"{fake.url}/c/pay/cs_test_unknown", timeout=5).status_code == 404
    assert not fake.payment_intents and not receiver
