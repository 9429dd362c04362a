"""A small local stand-in for the few Stripe API endpoints the app calls, plus webhook signing.

Stripe is not reachable from the test machines, so the real `stripe` library is pointed at this
server (setting STRIPE_API_BASE) and its requests, parameters and error handling are exercised for
real. The server answers:

- POST /v1/checkout/sessions            a Checkout Session with a local `url`: subscription mode
                                        (`line_items[0][price]`) or payment mode (`price_data` lines)
- GET  /v1/checkout/sessions/{id}, POST /v1/checkout/sessions/{id}/expire
- POST /v1/billing_portal/sessions      a portal session with a local `url`
- GET  /v1/subscriptions/{id}           a subscription created by `complete_checkout`
- POST /v1/customers, GET /v1/customers/{id}
- POST /v1/accounts, GET /v1/accounts/{id}   Connect accounts (one per idempotency key, as Stripe),
                                        with Stripe's `individual` (a Person: `id_number_provided`,
                                        `verification.status`; never the id number itself) and
                                        `requirements` lists
- POST /v1/account_links                a hosted-onboarding link served by the fake itself
- GET  /v1/payment_intents/{id}, GET /v1/charges/{id}   made by `complete_payment`
- POST /v1/transfers                    separate transfers to a connected account, checked like
                                        Stripe (payouts enabled, `source_transaction` funds)
- POST /v1/refunds                      refunds of a charge (by `payment_intent` or `charge`)
- GET  /c/pay/{id} and /p/session/{id}  the pages the browser is sent to; a payment-mode Checkout's
                                        page pays by card or Pix (or goes back), sends the signed
                                        `checkout.session.*` events to `webhook_url` and returns
                                        to the session's success_url (cancel_url)
- GET  /setup/{link}                    a stand-in for Stripe's onboarding: 'Concluir cadastro'
                                        completes the account, sends `account.updated` to
                                        `webhook_url` (when set) and returns to the link's return_url

Every API request is recorded with its form parameters flattened the way Stripe encodes them
(e.g. ``line_items[0][price]``) and its headers (`idempotency_keys(path)` lists the keys sent).
POSTs to /v1/checkout/sessions, /v1/transfers and /v1/refunds are idempotent as at Stripe: a key
seen before with the same parameters answers the first answer again and creates nothing; with other
parameters it answers 400 `idempotency_error`. `fail(path, status)` makes the next request to a path
fail with a Stripe-shaped error body; `hang(path, seconds)` makes the next one succeed but answer
late (a client that times out retries with the same key); `delay_seconds` slows every API answer.
Disputes and transfer reversals have no API here: `dispute`, `close_dispute` and `reverse_transfer`
change the state and return the webhook object, which `send_event` can deliver signed.
"""

import contextlib
import hashlib
import hmac
import html
import itertools
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl, urlsplit

import requests

from tests.support.local_http import LocalServer, serve, shut
from tests.support.stripe_spec import validate as spec

PREMIUM_PRICE = "price_test_premium_brl"
ENTERPRISE_PRICE = "price_test_enterprise_brl"
WEBHOOK_SECRET = "whsec_test_secret_for_local_webhooks"
CONNECT_WEBHOOK_SECRET = "whsec_test_connect_secret_for_local_webhooks"
SECRET_KEY = "sk_test_local_fake"
PRICE_CENTS = {PREMIUM_PRICE: 5990, ENTERPRISE_PRICE: 11900}
DAY = 86_400
IDEMPOTENT_PATHS = ("/v1/checkout/sessions", "/v1/transfers", "/v1/refunds")
NOT_OPEN = "Only Checkout Sessions with a status of `open` can be expired."
NO_TRANSFERS = (
    "Your destination account needs to have at least one of the following capabilities enabled: "
    "transfers, crypto_transfers, legacy_payments"
)
INSUFFICIENT_SOURCE = "Insufficient funds in source transaction."


@dataclass
class RecordedRequest:
    """One API request the fake received."""

    method: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]


@dataclass
class _Failure:
    status: int
    error_type: str
    message: str
    code: str | None = None


@dataclass
class _Replay:
    """The first answer to an idempotent request, given again to a retry with the same key."""

    path: str
    params: dict[str, str]
    body: dict


@dataclass
class FakeStripe:
    """The fake server's state; start it with `start()` (or use it as a context manager)."""

    requests: list[RecordedRequest] = field(default_factory=list)
    checkout_sessions: dict[str, dict] = field(default_factory=dict)
    subscriptions: dict[str, dict] = field(default_factory=dict)
    customers: dict[str, dict] = field(default_factory=dict)
    accounts: dict[str, dict] = field(default_factory=dict)
    account_links: dict[str, dict] = field(default_factory=dict)
    payment_intents: dict[str, dict] = field(default_factory=dict)
    charges: dict[str, dict] = field(default_factory=dict)
    transfers: dict[str, dict] = field(default_factory=dict)
    refunds: dict[str, dict] = field(default_factory=dict)
    disputes: dict[str, dict] = field(default_factory=dict)
    refused: list[spec.Problem] = field(default_factory=list)  # requests Stripe's description refuses
    webhook_url: str = ""
    connect_secret: str = CONNECT_WEBHOOK_SECRET
    delay_seconds: float = 0.0
    _idempotent: dict[str, dict] = field(default_factory=dict)
    _receipts: dict[str, str] = field(default_factory=dict)  # receipt token -> charge id
    _replays: dict[str, _Replay] = field(default_factory=dict)
    _failures: dict[str, _Failure] = field(default_factory=dict)
    _hangs: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: LocalServer | None = None
    _counter: itertools.count = field(default_factory=lambda: itertools.count(1))

    @property
    def url(self) -> str:
        """The server's origin, e.g. http://127.0.0.1:54321 (the value of STRIPE_API_BASE)."""
        assert self._server is not None, "start() the fake first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeStripe":
        """Serve on a free local port in a daemon thread."""
        fake = self

        class Handler(_Handler):
            stripe = fake

        self._server = serve(Handler, self)
        return self

    def stop(self) -> None:
        """Stop serving."""
        shut(self._server)
        self._server = None

    def __enter__(self) -> "FakeStripe":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    def fail(
        self, path: str, status: int = 400, message: str = "No such price: 'price_x'", code: str | None = None
    ) -> None:
        """Make the next request to `path` (e.g. '/v1/checkout/sessions') fail like Stripe does.

        The error's type follows the status as Stripe's does: `api_error` for 5xx, `card_error` for
        402 and `invalid_request_error` for the other 4xx. Nothing is created by that request.

        Args:
            path: The exact request path, e.g. '/v1/transfers'.
            status: The HTTP status of the answer.
            message: The error's message.
            code: The error's `code`, e.g. 'balance_insufficient' (none by default).
        """
        if status >= 500:
            error_type = "api_error"
        elif status == 402:
            error_type = "card_error"
        else:
            error_type = "invalid_request_error"
        with self._lock:
            self._failures[path] = _Failure(status, error_type, message, code)

    def hang(self, path: str, seconds: float) -> None:
        """Make the next request to `path` succeed but answer only after `seconds`.

        The request is processed at once (the object is created and kept under its idempotency key),
        so a client that gives up before the answer and retries with the same key gets the same
        object. Only that one request is late.
        """
        with self._lock:
            self._hangs[path] = seconds

    def calls(self, path: str, method: str = "POST") -> list[RecordedRequest]:
        """The recorded requests to one path."""
        with self._lock:
            return [r for r in self.requests if r.path == path and r.method == method]

    def idempotency_keys(self, path: str) -> list[str]:
        """The `Idempotency-Key` of every POST recorded to `path`, in order ('' for one sent without)."""
        return [r.headers.get("idempotency-key", "") for r in self.calls(path)]

    def complete_checkout(self, session_id: str, status: str = "trialing", trial_days: int = 7) -> tuple[dict, dict]:
        """Do what paying on Stripe's page does: create the customer and the subscription.

        Returns:
            The completed Checkout Session and the new subscription, as webhook objects.
        """
        with self._lock:
            checkout = self.checkout_sessions[session_id]
            customer_id = checkout["customer"] or self._new_customer(checkout["customer_email"] or "")["id"]
            subscription = self._new_subscription(customer_id, checkout, status, trial_days)
            checkout.update(
                customer=customer_id,
                subscription=subscription["id"],
                status="complete",
                payment_status="no_payment_required" if status == "trialing" else "paid",
            )
            return _public(checkout), _public(subscription)

    def complete_onboarding(self, account_id: str, payouts_enabled: bool = True, verified: bool | None = None) -> dict:
        """Do what finishing Stripe's hosted onboarding does: details submitted, payouts (usually) on.

        The individual gave their id number (Stripe answers only `id_number_provided`, never the
        number) and, with payouts on, Stripe verified them: `individual.verification.status` is
        'verified'. With payouts off Stripe still wants a document ('unverified', the document in
        `requirements.currently_due`). `verified` overrides the status alone (e.g. payouts on while
        the identity check is still 'pending').

        Returns:
            The account as an `account.updated` webhook object.
        """
        with self._lock:
            account = self.accounts[account_id]
            account.update(details_submitted=True, payouts_enabled=payouts_enabled, charges_enabled=payouts_enabled)
            account["requirements"]["currently_due"] = [] if payouts_enabled else ["individual.verification.document"]
            account["requirements"]["eventually_due"] = list(account["requirements"]["currently_due"])
            passed = payouts_enabled if verified is None else verified
            status = "verified" if passed else "pending" if payouts_enabled else "unverified"
            account["individual"]["id_number_provided"] = True
            account["individual"]["verification"]["status"] = status
            account["requirements"]["pending_verification"] = ["individual.id_number"] if status == "pending" else []
            return json.loads(json.dumps(account))

    def ready_account(self, email: str) -> str:
        """A Brazilian connected account that finished onboarding (payouts on): its id."""
        account = self._new_account({"country": "BR", "email": email})
        self.complete_onboarding(account["id"])
        return account["id"]

    def paid_charge(self, amount: int, transfer_group: str = "") -> tuple[str, str]:
        """A succeeded card charge, as a paid Checkout leaves it, without the page: (payment intent, charge)."""
        with self._lock:
            intent_id, charge_id = self._id("pi"), self._id("ch")
            self.payment_intents[intent_id] = {
                "id": intent_id,
                "object": "payment_intent",
                "amount": amount,
                "currency": "brl",
                "status": "succeeded",
                "transfer_group": transfer_group,
                "latest_charge": charge_id,
            }
            self.charges[charge_id] = {
                "id": charge_id,
                "object": "charge",
                "amount": amount,
                "amount_refunded": 0,
                "refunded": False,
                "paid": True,
                "status": "succeeded",
                "currency": "brl",
                "payment_intent": intent_id,
                "transfer_group": transfer_group,
                "metadata": {},
            }
        return intent_id, charge_id

    def complete_payment(self, session_id: str, method: str = "card") -> dict:
        """Do what paying a payment-mode Checkout on Stripe's page does.

        A PaymentIntent (`pi_…`) and its Charge (`ch_…`) are made with the Checkout's total and its
        `payment_intent_data` (transfer group, metadata). A card is paid at once; a Pix is still
        clearing (PaymentIntent 'processing', Charge 'pending', the Checkout 'complete' but 'unpaid')
        until `settle_pix`.

        Args:
            session_id: An open payment-mode Checkout Session.
            method: 'card' or 'pix'.

        Returns:
            The completed Checkout Session, as a `checkout.session.completed` webhook object.

        Raises:
            ValueError: The method is unknown, or the session is not an open payment-mode one.
        """
        if method not in ("card", "pix"):
            raise ValueError(f"unknown payment method {method!r}: use 'card' or 'pix'")
        with self._lock:
            checkout = self.checkout_sessions.get(session_id)
            if checkout is None or checkout["mode"] != "payment" or checkout["status"] != "open":
                raise ValueError(f"{session_id} is not an open payment-mode Checkout Session")
            pending = method == "pix"
            now = int(time.time())
            amount, currency = checkout["amount_total"], checkout["currency"]
            data = checkout["_payment_intent_data"]
            intent_id, charge_id = self._id("pi"), self._id("ch")
            self.payment_intents[intent_id] = {
                "id": intent_id,
                "object": "payment_intent",
                "amount": amount,
                "amount_received": 0 if pending else amount,
                "currency": currency,
                "status": "processing" if pending else "succeeded",
                "payment_method_types": [method],
                "transfer_group": data["transfer_group"],
                "metadata": dict(data["metadata"]),
                "latest_charge": charge_id,
                "created": now,
                "livemode": False,
            }
            self.charges[charge_id] = {
                "id": charge_id,
                "object": "charge",
                "amount": amount,
                "amount_captured": amount,
                "amount_refunded": 0,
                "refunded": False,
                "captured": True,
                "paid": not pending,
                "status": "pending" if pending else "succeeded",
                "currency": currency,
                "payment_intent": intent_id,
                "payment_method_details": {"type": method},
                "transfer_group": data["transfer_group"],
                "metadata": dict(data["metadata"]),
                "balance_transaction": self._id("txn"),
                "disputed": False,
                # As Stripe's (pay.stripe.com/receipts/payment/<opaque>): the charge id is not in it.
                "receipt_url": f"{self.url}/receipts/payment/{self._receipt_token(charge_id)}",
                "created": now,
                "livemode": False,
            }
            checkout.update(
                status="complete",
                payment_intent=intent_id,
                payment_status="unpaid" if pending else "paid",
                customer_details={"email": checkout["customer_email"]},
            )
            return _public(checkout)

    def settle_pix(self, session_id: str, succeeded: bool = True) -> dict:
        """The Pix of a completed Checkout clears (or fails: it was never paid).

        Args:
            session_id: A Checkout Session completed with `complete_payment(..., "pix")`.
            succeeded: True: PaymentIntent and Charge succeed, the Checkout is 'paid'. False: the
                PaymentIntent 'requires_payment_method', the Charge 'failed', the Checkout stays 'unpaid'.

        Returns:
            The Checkout Session, as a `checkout.session.async_payment_succeeded` (or `_failed`)
            webhook object.

        Raises:
            ValueError: The session has no Pix payment clearing.
        """
        with self._lock:
            checkout = self.checkout_sessions[session_id]
            intent = self.payment_intents.get(checkout.get("payment_intent") or "")
            if intent is None or intent["status"] != "processing":
                raise ValueError(f"{session_id} has no Pix payment clearing")
            charge = self.charges[intent["latest_charge"]]
            if succeeded:
                intent.update(status="succeeded", amount_received=intent["amount"])
                charge.update(status="succeeded", paid=True)
                checkout["payment_status"] = "paid"
            else:
                intent["status"] = "requires_payment_method"
                charge.update(status="failed", paid=False, failure_code="payment_intent_payment_attempt_expired")
            return _public(checkout)

    def expire_session(self, session_id: str) -> dict:
        """An open Checkout Session expires (nobody paid in time), as Stripe does at `expires_at`.

        Returns:
            The session, as a `checkout.session.expired` webhook object.

        Raises:
            ValueError: The session is not open.
        """
        with self._lock:
            status, body = self._expire(session_id)
            if status != 200:
                raise ValueError(body["error"]["message"])
            return body

    def dispute(self, charge_id: str) -> dict:
        """The payer disputes a charge (a chargeback): a dispute waiting for the platform's response.

        Returns:
            The new dispute, as a `charge.dispute.created` webhook object.
        """
        with self._lock:
            charge = self.charges[charge_id]
            charge["disputed"] = True
            dispute_id = self._id("dp")
            now = int(time.time())
            self.disputes[dispute_id] = {
                "id": dispute_id,
                "object": "dispute",
                "amount": charge["amount"],
                "currency": charge["currency"],
                "charge": charge_id,
                "payment_intent": charge["payment_intent"],
                "status": "needs_response",
                "reason": "fraudulent",
                "is_charge_refundable": False,
                "evidence_details": {"due_by": now + 7 * DAY, "has_evidence": False},
                "metadata": {},
                "created": now,
                "livemode": False,
            }
            return _public(self.disputes[dispute_id])

    def close_dispute(self, dispute_id: str, status: str = "won") -> dict:
        """A dispute is decided: 'won' (the money stays) or 'lost' (it goes back to the payer).

        Returns:
            The dispute, as a `charge.dispute.closed` webhook object.
        """
        with self._lock:
            dispute = self.disputes[dispute_id]
            dispute["status"] = status
            return _public(dispute)

    def reverse_transfer(self, transfer_id: str) -> dict:
        """The platform takes a whole transfer back from the connected account.

        Returns:
            The transfer, as a `transfer.reversed` webhook object.
        """
        with self._lock:
            transfer = self.transfers[transfer_id]
            transfer.update(reversed=True, amount_reversed=transfer["amount"])
            return _public(transfer)

    def send_event(self, event_type: str, obj: dict, secret: str = WEBHOOK_SECRET) -> int:
        """Post a signed webhook event carrying `obj` to `webhook_url`, as Stripe delivers one.

        Args:
            event_type: e.g. 'checkout.session.completed'.
            obj: The event's `data.object`.
            secret: The endpoint's signing secret (the Connect endpoint has `connect_secret`).

        Returns:
            The HTTP status of the answer; 0 when `webhook_url` is empty or nothing answered.
        """
        if not self.webhook_url:
            return 0
        body = event(event_type, obj)
        headers = {"Stripe-Signature": sign(body, secret), "Content-Type": "application/json"}
        try:
            return requests.post(self.webhook_url, data=body.encode(), headers=headers, timeout=10).status_code
        except requests.RequestException:
            return 0

    def checkout_page(self, session_id: str) -> tuple[int, str]:
        """The stand-in for Stripe's hosted Checkout page of a session.

        Returns:
            The HTTP status and the HTML: a subscription Checkout's plain page, a payment-mode one's
            total, lines and buttons, 410 'Sessão expirada' for an expired one, 404 otherwise.
        """
        with self._lock:
            checkout = self.checkout_sessions.get(session_id)
            checkout = None if checkout is None else json.loads(json.dumps(checkout))
        if checkout is not None and checkout["mode"] != "payment":
            title = "Checkout de teste"
            return 200, f"<!doctype html><html lang='pt-BR'><title>{title}</title><h1>{title}</h1></html>"
        closed = _closed_page(checkout)
        if closed is not None:
            return closed
        assert checkout is not None
        lines = "".join(_line_html(line) for line in checkout["_line_items"])
        buttons = "".join(
            f"<form method='post' action='/c/pay/{session_id}/{action}'><button>{label}</button></form>"
            for action, label in (("cartao", "Pagar com cartão"), ("pix", "Pagar com Pix"), ("cancelar", "Voltar"))
        )
        return 200, (
            "<!doctype html><html lang='pt-BR'><title>Pagamento de teste</title><h1>Pagamento de teste</h1>"
            f"<p>Total: <strong>{brl(checkout['amount_total'])}</strong></p><ul>{lines}</ul>{buttons}</html>"
        )

    def checkout_action(self, session_id: str, action: str) -> tuple[int, str, str]:
        """A button of the payment page: 'cartao', 'pix' or 'cancelar'.

        A card payment sends `checkout.session.completed`; a Pix sends it unpaid and then, once
        cleared, `checkout.session.async_payment_succeeded` (both signed with WEBHOOK_SECRET, when
        `webhook_url` is set). 'cancelar' leaves the session open.

        Returns:
            (303, the success_url or cancel_url to go to, '') or (status, '', an HTML page) when the
            session cannot be paid.
        """
        with self._lock:
            checkout = self.checkout_sessions.get(session_id)
            checkout = None if checkout is None else json.loads(json.dumps(checkout))
        if checkout is None or checkout["mode"] != "payment":
            checkout = None  # the subscription page has no buttons
        closed = _closed_page(checkout)
        if closed is not None:
            return closed[0], "", closed[1]
        assert checkout is not None
        if action == "cancelar":
            return 303, checkout["cancel_url"] or "", ""
        try:
            completed = self.complete_payment(session_id, "pix" if action == "pix" else "card")
        except ValueError:  # paid or expired meanwhile (a double click)
            status, page = self.checkout_page(session_id)
            return status, "", page
        self.send_event("checkout.session.completed", completed)
        if action == "pix":
            self.send_event("checkout.session.async_payment_succeeded", self.settle_pix(session_id))
        return 303, (checkout["success_url"] or "").replace("{CHECKOUT_SESSION_ID}", session_id), ""

    def _receipt_token(self, charge_id: str) -> str:
        token = uuid.uuid4().hex
        self._receipts[token] = charge_id
        return token

    def receipt_page(self, token: str) -> tuple[int, str]:
        """The stand-in for a charge's `receipt_url` (by its opaque token)."""
        with self._lock:
            charge = self.charges.get(self._receipts.get(token, ""))
            amount = None if charge is None else charge["amount"]
        if amount is None:
            return 404, _page("Recibo não encontrado", "")
        return 200, _page("Recibo de teste", f"<p>Valor pago: {brl(amount)}</p>")

    def _id(self, prefix: str) -> str:
        return f"{prefix}_test_{next(self._counter):04d}{uuid.uuid4().hex[:10]}"

    def _new_customer(self, email: str) -> dict:
        customer = {
            "id": self._id("cus"),
            "object": "customer",
            "email": email,
            "created": int(time.time()),
            "livemode": False,
            "metadata": {},
        }
        self.customers[customer["id"]] = customer
        return customer

    def _new_subscription(self, customer_id: str, checkout: dict, status: str, trial_days: int) -> dict:
        now = int(time.time())
        price = checkout["_price"]
        period_end = now + (trial_days if status == "trialing" else 30) * DAY
        subscription_id = self._id("sub")
        subscription = {
            "id": subscription_id,
            "object": "subscription",
            "customer": customer_id,
            "status": status,
            "currency": "brl",
            "cancel_at_period_end": False,
            "created": now,
            "start_date": now,
            "livemode": False,
            "metadata": dict(checkout["_subscription_metadata"]),
            "trial_start": now if status == "trialing" else None,
            "trial_end": period_end if status == "trialing" else None,
            "items": {
                "object": "list",
                "has_more": False,
                "url": f"/v1/subscription_items?subscription={subscription_id}",
                "data": [
                    {
                        "id": self._id("si"),
                        "object": "subscription_item",
                        "subscription": subscription_id,
                        "quantity": 1,
                        "current_period_start": now,
                        "current_period_end": period_end,
                        "price": {
                            "id": price,
                            "object": "price",
                            "active": True,
                            "currency": "brl",
                            "unit_amount": PRICE_CENTS.get(price, 0),
                            "type": "recurring",
                            "recurring": {"interval": "month", "interval_count": 1},
                        },
                    }
                ],
            },
        }
        self.subscriptions[subscription_id] = subscription
        return subscription

    def _handle(self, method: str, path: str, params: dict[str, str], headers: dict[str, str]) -> tuple[int, dict]:
        if self.delay_seconds:
            time.sleep(self.delay_seconds)  # lets a browser test see the button's loading text
        with self._lock:
            self.requests.append(RecordedRequest(method, path, params, headers))
            late = self._hangs.pop(path, 0.0)
            status, body = self._answer(method, path, params, headers)
            body = json.loads(json.dumps(body))  # a snapshot: the objects may change once the lock is released
        if late:
            time.sleep(late)  # done already: only the answer is late
        return status, body

    def _answer(self, method: str, path: str, params: dict[str, str], headers: dict[str, str]) -> tuple[int, dict]:
        failure = self._failures.pop(path, None)
        if failure is not None:
            return _error(failure.message, code=failure.code, status=failure.status, error_type=failure.error_type)
        if not headers.get("authorization", "").startswith("Bearer sk_"):
            return 401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}}
        refused = _refused(method, path, params, headers)
        if refused is not None:
            self.refused.append(refused)
            return 400, refused.error()
        key = headers.get("idempotency-key", "")
        if method != "POST" or not key or path not in IDEMPOTENT_PATHS:
            return self._route(method, path, params, key)
        replay = self._replays.get(key)
        if replay is not None:
            if replay.path != path:
                return _error(
                    "Keys for idempotent requests can only be used for the same endpoint they were first used for "
                    f"('{replay.path}' vs '{path}'). Try using a key other than '{key}' if you meant to execute a "
                    "different request.",
                    error_type="idempotency_error",
                )
            if replay.params != params:
                return _error(
                    "Keys for idempotent requests can only be used with the same parameters they were first used "
                    f"with. Try using a key other than '{key}' if you meant to execute a different request.",
                    error_type="idempotency_error",
                )
            return 200, replay.body
        status, body = self._route(method, path, params, key)
        if status == 200:  # as at Stripe, a request refused by validation saves no result
            self._replays[key] = _Replay(path, dict(params), json.loads(json.dumps(body)))
        return status, body

    def _route(self, method: str, path: str, params: dict[str, str], key: str = "") -> tuple[int, dict]:
        parts = path.strip("/").split("/")
        if method == "POST" and path == "/v1/accounts":
            if key and key in self._idempotent:
                return 200, self._idempotent[key]
            account = self._new_account(params)
            if key:
                self._idempotent[key] = account
            return 200, account
        if method == "GET" and len(parts) == 3 and parts[:2] == ["v1", "accounts"]:
            return self._found(self.accounts.get(parts[2]), parts[2])
        if method == "POST" and path == "/v1/account_links":
            return self._new_account_link(params)
        if method == "POST" and path == "/v1/checkout/sessions":
            return self._create_checkout(params)
        if len(parts) == 4 and parts[:3] == ["v1", "checkout", "sessions"] and method == "GET":
            return self._found(self.checkout_sessions.get(parts[3]), parts[3], "checkout.session")
        if (
            method == "POST"
            and len(parts) == 5
            and parts[:3] == ["v1", "checkout", "sessions"]
            and parts[4] == "expire"
        ):
            return self._expire(parts[3])
        if method == "POST" and path == "/v1/billing_portal/sessions":
            return self._create_portal(params)
        if method == "POST" and path == "/v1/customers":
            return 200, self._new_customer(params.get("email", ""))
        if method == "POST" and path == "/v1/transfers":
            return self._new_transfer(params)
        if method == "POST" and path == "/v1/refunds":
            return self._new_refund(params)
        if method == "GET" and len(parts) == 3:
            found = {
                "subscriptions": (self.subscriptions, "object"),
                "customers": (self.customers, "object"),
                "payment_intents": (self.payment_intents, "payment_intent"),
                "charges": (self.charges, "charge"),
                "transfers": (self.transfers, "transfer"),
                "refunds": (self.refunds, "refund"),
            }.get(parts[1])
            if parts[0] == "v1" and found is not None:
                return self._found(found[0].get(parts[2]), parts[2], found[1])
        return 404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL ({path})"}}

    @staticmethod
    def _found(obj: dict | None, object_id: str, noun: str = "object") -> tuple[int, dict]:
        if obj is None:
            return 404, {"error": {"type": "invalid_request_error", "message": f"No such {noun}: '{object_id}'"}}
        return 200, _public(obj)

    def _create_checkout(self, params: dict[str, str]) -> tuple[int, dict]:
        now = int(time.time())
        expires_at = now + DAY
        if params.get("expires_at"):
            expires_at = _integer(params["expires_at"]) or 0
            if not now + 30 * 60 - 60 <= expires_at <= now + DAY + 60:  # a minute's slack for slow tests
                return _error(
                    "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
                    param="expires_at",
                )
        lines: list[dict] = []
        if params.get("mode") == "payment":
            lines, refused = _payment_lines(params)
            if refused:
                return _error(refused)
        session_id = self._id("cs")
        checkout = {
            "id": session_id,
            "object": "checkout.session",
            "mode": params.get("mode"),
            "status": "open",
            "payment_status": "unpaid",
            "currency": lines[0]["currency"] if lines else "brl",
            "livemode": False,
            "created": now,
            "expires_at": expires_at,
            "client_reference_id": params.get("client_reference_id"),
            "customer": params.get("customer"),
            "customer_email": params.get("customer_email"),
            "metadata": _sub(params, "metadata"),
            "subscription": None,
            "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"),
            "url": f"{self.url}/c/pay/{session_id}",
            "_price": params.get("line_items[0][price]"),
            "_subscription_metadata": _sub(params, "subscription_data[metadata]"),
        }
        if params.get("mode") == "payment":
            total = sum(line["unit_amount"] * line["quantity"] for line in lines)
            checkout.update(
                amount_subtotal=total,
                amount_total=total,
                locale=params.get("locale"),
                payment_intent=None,
                customer_details=None,
                _line_items=lines,
                _payment_intent_data={
                    "transfer_group": params.get("payment_intent_data[transfer_group]"),
                    "metadata": _sub(params, "payment_intent_data[metadata]"),
                },
            )
        self.checkout_sessions[session_id] = checkout
        return 200, _public(checkout)

    def _expire(self, session_id: str) -> tuple[int, dict]:
        checkout = self.checkout_sessions.get(session_id)
        if checkout is None:
            return self._found(None, session_id, "checkout.session")
        if checkout["status"] != "open":
            return _error(NOT_OPEN)
        checkout["status"] = "expired"
        return 200, _public(checkout)

    def _new_transfer(self, params: dict[str, str]) -> tuple[int, dict]:
        amount = _integer(params.get("amount"))
        if amount is None or amount <= 0:
            return _error("Invalid positive integer", param="amount")
        currency = params.get("currency", "")
        if not currency:
            return _error("Missing required param: currency.", param="currency")
        destination = params.get("destination", "")
        account = self.accounts.get(destination)
        if account is None:
            return _error(f"No such destination: '{destination}'", param="destination")
        if not account["payouts_enabled"]:
            return _error(NO_TRANSFERS, param="destination")
        source = params.get("source_transaction") or None
        if source is not None:
            charge = self.charges.get(source)
            if charge is None:
                return _error(f"No such charge: '{source}'", param="source_transaction")
            if charge["currency"] != currency:
                return _error(
                    f"The currency of source_transaction's balance transaction ({charge['currency']}) must be the "
                    f"same as the transfer currency ({currency})",
                    param="currency",
                )
            transferred = sum(
                t["amount"] - t["amount_reversed"] for t in self.transfers.values() if t["source_transaction"] == source
            )
            if charge["status"] != "succeeded" or amount > charge["amount"] - charge["amount_refunded"] - transferred:
                return _error(INSUFFICIENT_SOURCE, param="source_transaction")
        transfer_id = self._id("tr")
        transfer = {
            "id": transfer_id,
            "object": "transfer",
            "amount": amount,
            "amount_reversed": 0,
            "currency": currency,
            "destination": destination,
            "destination_payment": self._id("py"),
            "source_transaction": source,
            "source_type": "card",
            "transfer_group": params.get("transfer_group"),
            "description": params.get("description"),
            "metadata": _sub(params, "metadata"),
            "reversed": False,
            "balance_transaction": self._id("txn"),
            "created": int(time.time()),
            "livemode": False,
        }
        self.transfers[transfer_id] = transfer
        return 200, _public(transfer)

    def _new_refund(self, params: dict[str, str]) -> tuple[int, dict]:
        intent_id, charge_id = params.get("payment_intent", ""), params.get("charge", "")
        if not intent_id and not charge_id:
            return _error("One of `charge` or `payment_intent` is required.")
        if intent_id:
            intent = self.payment_intents.get(intent_id)
            if intent is None:
                return _error(f"No such payment_intent: '{intent_id}'", param="payment_intent")
            if charge_id and charge_id != intent["latest_charge"]:
                return _error(f"Charge {charge_id} does not belong to PaymentIntent {intent_id}.", param="charge")
            charge_id = intent["latest_charge"]
        charge = self.charges.get(charge_id)
        if charge is None:
            return _error(f"No such charge: '{charge_id}'", param="charge")
        if charge["status"] != "succeeded":
            return _error(
                f"This PaymentIntent ({charge['payment_intent']}) does not have a successful charge to refund."
            )
        left = charge["amount"] - charge["amount_refunded"]
        if left <= 0:
            return _error(f"Charge {charge_id} has already been refunded.", code="charge_already_refunded")
        amount = left if params.get("amount") is None else _integer(params["amount"])
        if amount is None or amount <= 0:
            return _error("Invalid positive integer", param="amount")
        if amount > left:
            what = "charge amount" if charge["amount_refunded"] == 0 else "unrefunded amount on charge"
            return _error(f"Refund amount ({_plain(amount)}) is greater than {what} ({_plain(left)})", param="amount")
        refund_id = self._id("re")
        refund = {
            "id": refund_id,
            "object": "refund",
            "amount": amount,
            "currency": charge["currency"],
            "charge": charge_id,
            "payment_intent": charge["payment_intent"],
            "status": "succeeded",
            "reason": params.get("reason"),
            "metadata": _sub(params, "metadata"),
            "balance_transaction": self._id("txn"),
            "created": int(time.time()),
        }
        self.refunds[refund_id] = refund
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] >= charge["amount"]
        return 200, _public(refund)

    def _new_account(self, params: dict[str, str]) -> dict:
        metadata = {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")}
        account_id = self._id("acct")
        id_number = bool(params.get("individual[id_number]"))  # kept nowhere: Stripe never returns it
        due = ["individual.id_number", "external_account", "tos_acceptance.date"][1 if id_number else 0 :]
        account = {
            "id": account_id,
            "object": "account",
            "country": params.get("country"),
            "email": params.get("email"),
            "business_type": params.get("business_type"),
            "type": "none",
            "controller": {
                "fees": {"payer": params.get("controller[fees][payer]", "application")},
                "losses": {"payments": params.get("controller[losses][payments]", "application")},
                "requirement_collection": params.get("controller[requirement_collection]", "stripe"),
                "stripe_dashboard": {"type": params.get("controller[stripe_dashboard][type]", "express")},
                "is_controller": True,
                "type": "application",
            },
            "capabilities": {"transfers": "inactive"},
            "charges_enabled": False,
            "payouts_enabled": False,
            "details_submitted": False,
            "requirements": {
                "currently_due": due,
                "eventually_due": list(due),
                "past_due": [],
                "pending_verification": [],
                "errors": [],
            },
            "individual": {
                "id": self._id("person"),
                "object": "person",
                "account": account_id,
                "id_number_provided": id_number,
                "verification": {"status": "unverified", "details": None, "details_code": None},
            },
            "metadata": metadata,
            "created": int(time.time()),
        }
        self.accounts[account["id"]] = account
        return account

    def _new_account_link(self, params: dict[str, str]) -> tuple[int, dict]:
        account_id = params.get("account", "")
        if account_id not in self.accounts:
            return 400, {"error": {"type": "invalid_request_error", "message": f"No such account: '{account_id}'"}}
        link_id = self._id("al")
        self.account_links[link_id] = {
            "account": account_id,
            "return_url": params.get("return_url"),
            "refresh_url": params.get("refresh_url"),
        }
        return 200, {
            "object": "account_link",
            "created": int(time.time()),
            "expires_at": int(time.time()) + 300,
            "url": f"{self.url}/setup/{link_id}",
        }

    def finish_setup(self, link_id: str, complete: bool) -> str:
        """The browser left the stand-in onboarding page: complete the account (or not); the URL to return to."""
        link = self.account_links[link_id]
        if complete:
            self.send_event("account.updated", self.complete_onboarding(link["account"]), self.connect_secret)
        return link["return_url"]

    def _create_portal(self, params: dict[str, str]) -> tuple[int, dict]:
        customer = params.get("customer", "")
        if customer not in self.customers:
            return 400, {"error": {"type": "invalid_request_error", "message": f"No such customer: '{customer}'"}}
        portal_id = self._id("bps")
        return 200, {
            "id": portal_id,
            "object": "billing_portal.session",
            "customer": customer,
            "livemode": False,
            "created": int(time.time()),
            "return_url": params.get("return_url"),
            "url": f"{self.url}/p/session/{portal_id}",
        }


class _Handler(BaseHTTPRequestHandler):
    stripe: FakeStripe

    def log_message(self, *_args) -> None:
        return

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        with contextlib.suppress(ConnectionError):  # a client that timed out has gone (see `hang`)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Request-Id", f"req_{uuid.uuid4().hex[:14]}")
            if status >= 400:
                self.send_header("Stripe-Should-Retry", "false")
            self.end_headers()
            self.wfile.write(body)

    def _html(self, status: int, page: str) -> None:
        self._send(status, page.encode(), "text/html; charset=utf-8")

    def _redirect(self, location: str) -> None:
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _api(self, method: str) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode() if length else url.query
        params = dict(parse_qsl(raw, keep_blank_values=True))
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, body = self.stripe._handle(method, url.path, params, headers)
        self._send(status, json.dumps(body).encode(), "application/json")

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        parts = path.strip("/").split("/")
        if path.startswith("/setup/"):  # the stand-in onboarding page's two buttons
            if len(parts) != 3 or parts[1] not in self.stripe.account_links:
                self._send(404, b"not found", "text/plain")
                return
            self._redirect(self.stripe.finish_setup(parts[1], complete=parts[2] == "concluir"))
            return
        if path.startswith("/c/pay/"):  # the payment page's three buttons
            if len(parts) != 4 or parts[3] not in ("cartao", "pix", "cancelar"):
                self._send(404, b"not found", "text/plain")
                return
            status, location, page = self.stripe.checkout_action(parts[2], parts[3])
            if location:
                self._redirect(location)
            else:
                self._html(status, page)
            return
        self._api("POST")

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path.startswith("/c/pay/"):
            self._html(*self.stripe.checkout_page(path.strip("/").split("/")[-1]))
            return
        if path.startswith("/p/session/"):
            title = "Portal de teste"
            self._html(200, f"<!doctype html><html lang='pt-BR'><title>{title}</title><h1>{title}</h1></html>")
            return
        if path.startswith("/receipts/"):
            self._html(*self.stripe.receipt_page(path.strip("/").split("/")[-1]))
            return
        if path.startswith("/setup/"):
            link = path.strip("/").split("/")[-1]
            page = (
                "<!doctype html><html lang='pt-BR'><title>Cadastro de recebimento (teste)</title>"
                "<h1>Cadastro de recebimento (teste)</h1>"
                f"<form method='post' action='/setup/{link}/concluir'><button>Concluir cadastro</button></form>"
                f"<form method='post' action='/setup/{link}/sair'><button>Sair sem concluir</button></form></html>"
            )
            self._html(200, page)
            return
        self._api("GET")


def _refused(method: str, path: str, params: dict[str, str], headers: dict[str, str]) -> spec.Problem | None:
    """The first thing Stripe's description refuses in a request: its version, headers or parameters."""
    version = headers.get("stripe-version", "")
    if version != spec.api_version():
        return spec.Problem(
            "", "", f"Stripe-Version {version!r}: this fake (and the product) speak {spec.api_version()}"
        )
    key = headers.get("idempotency-key")
    if key is not None and not 0 < len(key) <= 255:
        return spec.Problem("", "", "Idempotency-Key must be 1 to 255 characters.")
    account = headers.get("stripe-account")
    if account is not None and not account.startswith("acct_"):
        return spec.Problem("", "", f"Stripe-Account {account!r} is not a connected account id.")
    problems = spec.validate_request(method, path, params)
    return problems[0] if problems else None


def sign(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """A Stripe-Signature header by Stripe's scheme: t=…,v1=HMAC_SHA256(secret, f"{t}.{payload}")."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def event(event_type: str, obj: dict, event_id: str | None = None, api_version: str = "") -> str:
    """A webhook event body (JSON text) carrying `obj` as Stripe's snapshot payload does.

    An event of the pinned API version (the default) is checked against Stripe's description
    (tests/support/stripe_spec): an envelope or an object Stripe would not send fails the test that
    builds it. An older `api_version` is for the shapes older endpoints receive, and is not checked.
    """
    version = api_version or spec.api_version()
    body = {
        "id": event_id or f"evt_test_{uuid.uuid4().hex[:16]}",
        "object": "event",
        "api_version": version,
        "created": int(time.time()),
        "livemode": False,
        "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "type": event_type,
        "data": {"object": obj},
    }
    problems = spec.validate_event(body) if version == spec.api_version() else []
    assert not problems, f"{event_type} is not Stripe's shape: " + "; ".join(p.message for p in problems)
    return json.dumps(body)


def invoice_failed(subscription: dict) -> dict:
    """An invoice whose payment failed, linked to `subscription` as the 2025+ API does."""
    return {
        "id": f"in_test_{uuid.uuid4().hex[:12]}",
        "object": "invoice",
        "customer": subscription["customer"],
        "status": "open",
        "currency": "brl",
        "amount_due": 5990,
        "attempt_count": 1,
        "billing_reason": "subscription_cycle",
        "parent": {
            "type": "subscription_details",
            "quote_details": None,
            "subscription_details": {"subscription": subscription["id"], "metadata": subscription["metadata"]},
        },
    }


def stripe_env(fake: FakeStripe) -> dict[str, str]:
    """The STRIPE_* environment variables that point the app at `fake`."""
    return {
        "STRIPE_SECRET_KEY": SECRET_KEY,
        "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "STRIPE_CONNECT_WEBHOOK_SECRET": CONNECT_WEBHOOK_SECRET,
        "STRIPE_PRICE_PREMIUM": PREMIUM_PRICE,
        "STRIPE_PRICE_ENTERPRISE": ENTERPRISE_PRICE,
        "STRIPE_API_BASE": fake.url,
    }


def brl(cents: int) -> str:
    """An amount in centavos as Brazilians write it: 123456 -> 'R$ 1.234,56'."""
    reais, centavos = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}R$ {reais:,}".replace(",", ".") + f",{centavos:02d}"


def _plain(cents: int) -> str:
    """An amount as Stripe's English error messages write it: 'R$210.00'."""
    return f"R${cents // 100}.{cents % 100:02d}"


def _public(obj: dict) -> dict:
    """A JSON copy of an object without the fake's own (underscore) keys, as the API answers it."""
    return json.loads(json.dumps({k: v for k, v in obj.items() if not k.startswith("_")}))


def _error(
    message: str,
    param: str | None = None,
    code: str | None = None,
    status: int = 400,
    error_type: str = "invalid_request_error",
) -> tuple[int, dict]:
    """A Stripe-shaped error answer."""
    error: dict[str, str] = {"type": error_type, "message": message}
    if param:
        error["param"] = param
    if code:
        error["code"] = code
    return status, {"error": error}


def _integer(value: str | None) -> int | None:
    """A form parameter as an integer (None when it is not one)."""
    try:
        return int(value or "")
    except ValueError:
        return None


def _sub(params: dict[str, str], prefix: str) -> dict[str, str]:
    """The flat hash `prefix[k]=v` of the form parameters, e.g. `metadata`, as {k: v}."""
    start = f"{prefix}["
    return {k[len(start) : -1]: v for k, v in params.items() if k.startswith(start) and "[" not in k[len(start) :]}


def _payment_lines(params: dict[str, str]) -> tuple[list[dict], str]:
    """The `price_data` line items of a payment-mode Checkout, or the reason Stripe would refuse them."""
    lines: list[dict] = []
    for i in itertools.count():
        line = f"line_items[{i}]"
        if not any(k.startswith(f"{line}[") for k in params):
            break
        names = {
            "currency": f"{line}[price_data][currency]",
            "name": f"{line}[price_data][product_data][name]",
            "unit_amount": f"{line}[price_data][unit_amount]",
        }
        for name in names.values():
            if not params.get(name):
                return [], f"Missing required param: {name}."
        unit_amount = _integer(params[names["unit_amount"]])
        quantity = _integer(params.get(f"{line}[quantity]"))
        if unit_amount is None or unit_amount < 0:
            return [], f"Invalid non-negative integer: {names['unit_amount']}."
        if quantity is None or quantity < 1:
            return [], f"Missing required param: {line}[quantity]."
        lines.append(
            {
                "name": params[names["name"]],
                "currency": params[names["currency"]].lower(),
                "unit_amount": unit_amount,
                "quantity": quantity,
            }
        )
    if not lines:
        return [], "You must provide at least one line item (`line_items`) in `payment` mode."
    if len({line["currency"] for line in lines}) > 1:
        return [], "All line items must have the same currency."
    return lines, ""


def _line_html(line: dict) -> str:
    quantity = "" if line["quantity"] == 1 else f"{line['quantity']} × "
    return f"<li>{quantity}{html.escape(line['name'])}: {brl(line['unit_amount'] * line['quantity'])}</li>"


def _page(title: str, body: str) -> str:
    return f"<!doctype html><html lang='pt-BR'><title>{title}</title><h1>{title}</h1>{body}</html>"


def _closed_page(checkout: dict | None) -> tuple[int, str] | None:
    """The page instead of a payment-mode Checkout that cannot be paid (None when it is open)."""
    if checkout is None:
        return 404, _page("Sessão não encontrada", "<p>Este link de pagamento não existe.</p>")
    if checkout["status"] == "expired":
        return 410, _page("Sessão expirada", "<p>Este link de pagamento expirou. Volte ao Turno para pagar.</p>")
    if checkout["status"] != "open":
        return 404, _page("Pagamento já concluído", "<p>Este link de pagamento já foi usado.</p>")
    return None
