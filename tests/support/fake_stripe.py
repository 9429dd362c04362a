"""A small local stand-in for the few Stripe API endpoints the app calls, plus webhook signing.

Stripe is not reachable from the test machines, so the real `stripe` library is pointed at this
server (setting STRIPE_API_BASE) and its requests, parameters and error handling are exercised for
real. The server answers:

- POST /v1/checkout/sessions            a subscription-mode Checkout Session with a local `url`
- POST /v1/billing_portal/sessions      a portal session with a local `url`
- GET  /v1/subscriptions/{id}           a subscription created by `complete_checkout`
- POST /v1/customers, GET /v1/customers/{id}
- POST /v1/accounts, GET /v1/accounts/{id}   Connect accounts (one per idempotency key, as Stripe)
- POST /v1/account_links                a hosted-onboarding link served by the fake itself
- GET  /c/pay/{id} and /p/session/{id}  the pages the browser is sent to
- GET  /setup/{link}                    a stand-in for Stripe's onboarding: 'Concluir cadastro'
                                        completes the account, sends `account.updated` to
                                        `webhook_url` (when set) and returns to the link's return_url

Every API request is recorded with its form parameters flattened the way Stripe encodes them
(e.g. ``line_items[0][price]``). `fail(path, status)` makes the next request to a path fail with a
Stripe-shaped error body; `delay_seconds` slows every API answer down.
"""

import contextlib
import hashlib
import hmac
import itertools
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import requests

PREMIUM_PRICE = "price_test_premium_brl"
ENTERPRISE_PRICE = "price_test_enterprise_brl"
WEBHOOK_SECRET = "whsec_test_secret_for_local_webhooks"
CONNECT_WEBHOOK_SECRET = "whsec_test_connect_secret_for_local_webhooks"
SECRET_KEY = "sk_test_local_fake"
PRICE_CENTS = {PREMIUM_PRICE: 5990, ENTERPRISE_PRICE: 11900}
DAY = 86_400


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


@dataclass
class FakeStripe:
    """The fake server's state; start it with `start()` (or use it as a context manager)."""

    requests: list[RecordedRequest] = field(default_factory=list)
    checkout_sessions: dict[str, dict] = field(default_factory=dict)
    subscriptions: dict[str, dict] = field(default_factory=dict)
    customers: dict[str, dict] = field(default_factory=dict)
    accounts: dict[str, dict] = field(default_factory=dict)
    account_links: dict[str, dict] = field(default_factory=dict)
    webhook_url: str = ""
    connect_secret: str = CONNECT_WEBHOOK_SECRET
    delay_seconds: float = 0.0
    _idempotent: dict[str, dict] = field(default_factory=dict)
    _failures: dict[str, _Failure] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
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

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeStripe":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    def fail(self, path: str, status: int = 400, message: str = "No such price: 'price_x'") -> None:
        """Make the next request to `path` (e.g. '/v1/checkout/sessions') fail like Stripe does."""
        error_type = "api_error" if status >= 500 else "invalid_request_error"
        with self._lock:
            self._failures[path] = _Failure(status, error_type, message)

    def calls(self, path: str, method: str = "POST") -> list[RecordedRequest]:
        """The recorded requests to one path."""
        with self._lock:
            return [r for r in self.requests if r.path == path and r.method == method]

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
            return json.loads(json.dumps(checkout)), json.loads(json.dumps(subscription))

    def complete_onboarding(self, account_id: str, payouts_enabled: bool = True) -> dict:
        """Do what finishing Stripe's hosted onboarding does: details submitted, payouts (usually) on.

        Returns:
            The account as an `account.updated` webhook object.
        """
        with self._lock:
            account = self.accounts[account_id]
            account.update(details_submitted=True, payouts_enabled=payouts_enabled, charges_enabled=payouts_enabled)
            account["requirements"]["currently_due"] = [] if payouts_enabled else ["individual.verification.document"]
            return json.loads(json.dumps(account))

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
            failure = self._failures.pop(path, None)
            if failure is not None:
                return failure.status, {"error": {"type": failure.error_type, "message": failure.message}}
            if not headers.get("authorization", "").startswith("Bearer sk_"):
                return 401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}}
            return self._route(method, path, params, headers.get("idempotency-key", ""))

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
            return 200, self._create_checkout(params)
        if method == "POST" and path == "/v1/billing_portal/sessions":
            return self._create_portal(params)
        if method == "POST" and path == "/v1/customers":
            return 200, self._new_customer(params.get("email", ""))
        if method == "GET" and len(parts) == 3 and parts[:2] == ["v1", "subscriptions"]:
            return self._found(self.subscriptions.get(parts[2]), parts[2])
        if method == "GET" and len(parts) == 3 and parts[:2] == ["v1", "customers"]:
            return self._found(self.customers.get(parts[2]), parts[2])
        return 404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL ({path})"}}

    @staticmethod
    def _found(obj: dict | None, object_id: str) -> tuple[int, dict]:
        if obj is None:
            return 404, {"error": {"type": "invalid_request_error", "message": f"No such object: '{object_id}'"}}
        return 200, obj

    def _create_checkout(self, params: dict[str, str]) -> dict:
        session_id = self._id("cs")
        metadata = {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")}
        prefix = "subscription_data[metadata]["
        subscription_metadata = {k[len(prefix) : -1]: v for k, v in params.items() if k.startswith(prefix)}
        checkout = {
            "id": session_id,
            "object": "checkout.session",
            "mode": params.get("mode"),
            "status": "open",
            "payment_status": "unpaid",
            "currency": "brl",
            "livemode": False,
            "created": int(time.time()),
            "expires_at": int(time.time()) + DAY,
            "client_reference_id": params.get("client_reference_id"),
            "customer": params.get("customer"),
            "customer_email": params.get("customer_email"),
            "metadata": metadata,
            "subscription": None,
            "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"),
            "url": f"{self.url}/c/pay/{session_id}",
            "_price": params.get("line_items[0][price]"),
            "_subscription_metadata": subscription_metadata,
        }
        self.checkout_sessions[session_id] = checkout
        return {k: v for k, v in checkout.items() if not k.startswith("_")}

    def _new_account(self, params: dict[str, str]) -> dict:
        metadata = {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")}
        account = {
            "id": self._id("acct"),
            "object": "account",
            "country": params.get("country"),
            "email": params.get("email"),
            "business_type": params.get("business_type"),
            "type": "none",
            "controller": {
                "fees": {"payer": params.get("controller[fees][payer]")},
                "losses": {"payments": params.get("controller[losses][payments]")},
                "requirement_collection": params.get("controller[requirement_collection]"),
                "stripe_dashboard": {"type": params.get("controller[stripe_dashboard][type]")},
                "is_controller": True,
                "type": "application",
            },
            "capabilities": {"transfers": "inactive"},
            "charges_enabled": False,
            "payouts_enabled": False,
            "details_submitted": False,
            "requirements": {"currently_due": ["individual.id_number", "external_account", "tos_acceptance.date"]},
            "metadata": metadata,
            "created": int(time.time()),
            "livemode": False,
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
            account = self.complete_onboarding(link["account"])
            if self.webhook_url:
                body = event("account.updated", account)
                headers = {"Stripe-Signature": sign(body, self.connect_secret), "Content-Type": "application/json"}
                with contextlib.suppress(requests.RequestException):
                    requests.post(self.webhook_url, data=body.encode(), headers=headers, timeout=10)
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
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Request-Id", f"req_{uuid.uuid4().hex[:14]}")
        if status >= 400:
            self.send_header("Stripe-Should-Retry", "false")
        self.end_headers()
        self.wfile.write(body)

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
        if path.startswith("/setup/"):  # the stand-in onboarding page's two buttons
            parts = path.strip("/").split("/")
            if len(parts) != 3 or parts[1] not in self.stripe.account_links:
                self._send(404, b"not found", "text/plain")
                return
            target = self.stripe.finish_setup(parts[1], complete=parts[2] == "concluir")
            self.send_response(303)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self._api("POST")

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path.startswith(("/c/pay/", "/p/session/")):
            title = "Checkout de teste" if path.startswith("/c/") else "Portal de teste"
            page = f"<!doctype html><html lang='pt-BR'><title>{title}</title><h1>{title}</h1></html>"
            self._send(200, page.encode(), "text/html; charset=utf-8")
            return
        if path.startswith("/setup/"):
            link = path.strip("/").split("/")[-1]
            page = (
                "<!doctype html><html lang='pt-BR'><title>Cadastro de recebimento (teste)</title>"
                "<h1>Cadastro de recebimento (teste)</h1>"
                f"<form method='post' action='/setup/{link}/concluir'><button>Concluir cadastro</button></form>"
                f"<form method='post' action='/setup/{link}/sair'><button>Sair sem concluir</button></form></html>"
            )
            self._send(200, page.encode(), "text/html; charset=utf-8")
            return
        self._api("GET")


def sign(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """A Stripe-Signature header by Stripe's scheme: t=…,v1=HMAC_SHA256(secret, f"{t}.{payload}")."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def event(event_type: str, obj: dict, event_id: str | None = None) -> str:
    """A webhook event body (JSON text) carrying `obj` as Stripe's snapshot payload does."""
    return json.dumps(
        {
            "id": event_id or f"evt_test_{uuid.uuid4().hex[:16]}",
            "object": "event",
            "api_version": "2025-03-31.basil",
            "created": int(time.time()),
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "type": event_type,
            "data": {"object": obj},
        }
    )


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
