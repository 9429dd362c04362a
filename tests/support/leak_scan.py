"""Leak scan: everything the app sends to the browsers of the e2e tests is searched for secrets.

Every websocket frame a page receives and every body of an HTTP response from the app's own routes
(`/api/...` and Reflex's `/_upload`, whose answer is a state delta) is collected per test and, when
the test ends, searched for:

- bcrypt password hashes (`$2a$`, `$2b$`, `$2y$` ...);
- session tokens: every session cookie value the browsers held (from `Set-Cookie` and
  `context.cookies()`), and the SHA-256 digests stored for sessions and e-mailed tokens;
- e-mailed confirmation and reset tokens (read from the links in the dev outbox);
- Stripe ids and keys: the ids the fake Stripe issued and our database stores, the configured price
  ids, webhook secret and secret key, and anything shaped like `cus_`, `sub_`, `cs_test_`, `pi_`,
  `in_`, `price_`, `whsec_`, `sk_`/`pk_`/`rk_` ...;
- the e-mail address or phone number of a user other than the one the page is signed in as.

Who a page is signed in as is resolved like the server does it: the session cookie the browser held
when the websocket connected (or sent with the HTTP request), looked up in `auth_sessions`.

A finding is not a leak when the value is the viewer's own, when this browser itself sent the value
earlier (typed into a form, carried in a URL it opened: echoing it back tells nothing new), or when
one of the `ALLOWANCES` below names that viewer, page, field and kind. Each allowance says why.
"""

import hashlib
import itertools
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Download, Error, Page, Request, Response, Route, WebSocket
from sqlalchemy import text

from core import db as core_db
from core.settings import get_settings

PASSWORD_HASH = "password hash"
SESSION_TOKEN = "session token"
TOKEN_DIGEST = "token digest"
EMAIL_TOKEN = "e-mail token"
STRIPE = "Stripe id"
EMAIL = "e-mail"
PHONE = "phone"
CPF = "CPF"

BCRYPT = re.compile(r"\$2[abxy]\$\d\d\$")
TOKEN_RUN = re.compile(r"[A-Za-z0-9_\-]{16,}")
CPF_SHAPE = re.compile(r"(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)")
STRIPE_SHAPE = re.compile(
    r"(?<![A-Za-z0-9])(?:acct|cus|sub|sub_sched|si|pi|in|ii|ch|tr|re|dp|cs_test|cs_live|bps|price|prod|evt|seti|pm|txn"
    r"|whsec|sk_test|sk_live|pk_test|pk_live|rk_test|rk_live)_[A-Za-z0-9_]{14,}"
)
EMAIL_SHAPE = re.compile(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+")
MAIL_TOKEN = re.compile(r"[?&]token=([A-Za-z0-9_\-]{16,})")
MIN_PHONE_DIGITS = 8
SOCKET_IO_PREFIX = re.compile(r"^\d+(?:/[^,\[{]*,)?\d*")
RUNS: list["LeakScan"] = []


def _looks_random(suffix: str) -> bool:
    """Whether a Stripe-shaped suffix has the digits or capitals of an id (not `in_progress_jobs`)."""
    return any(c.isdigit() for c in suffix) or any(c.isupper() for c in suffix)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


@dataclass(frozen=True)
class Hit:
    """A value of a checked kind found in what a browser received."""

    kind: str
    value: str
    owners: frozenset[int] = frozenset()


@dataclass
class Received:
    """One websocket frame or HTTP body a browser received, with who and where it was."""

    channel: str
    url: str
    text: str
    viewer_id: int | None
    browser: "BrowserLog"
    seq: int


@dataclass
class Finding:
    """Where a hit was: the JSON path inside the frame (or 'raw') and the frame itself."""

    hit: Hit
    path: str
    received: Received
    payload: object


@dataclass
class BrowserLog:
    """What one browser profile (a Playwright context) sent and the session cookies it held."""

    sent: list[tuple[int, str]] = field(default_factory=list)
    cookies: set[str] = field(default_factory=set)

    def sent_before(self, value: str, seq: int) -> bool:
        """Whether this browser sent the value itself (form data, a URL it opened) before `seq`."""
        needle = value.lower()
        return any(when < seq and needle in chunk.lower() for when, chunk in self.sent)


@dataclass(frozen=True)
class Allowance:
    """A value the product legitimately sends to one kind of viewer, on one page, in one field.

    Attributes:
        name: Short name used in reports.
        kinds: Which kinds of hit it covers.
        page: Regular expression the page's path must match (the URL path for HTTP bodies).
        path: Regular expression the JSON path of the field must match.
        reason: Why the product shows this value there.
        viewer_may_see: Extra check of viewer and value (for example: it is the viewer's own).
    """

    name: str
    kinds: frozenset[str]
    page: str
    path: str
    reason: str
    viewer_may_see: Callable[["Finding", "LeakScan"], bool] = lambda _finding, _scan: True

    def covers(self, finding: Finding, scan: "LeakScan") -> bool:
        """Whether this allowance covers the finding."""
        page = urlsplit(finding.received.url).path
        return (
            finding.hit.kind in self.kinds
            and re.search(self.page, page) is not None
            and re.search(self.path, finding.path) is not None
            and self.viewer_may_see(finding, scan)
        )


def _opened_mailbox(finding: Finding, _scan: "LeakScan") -> bool:
    """The browser opened the dev mailbox before receiving this."""
    return finding.received.browser.sent_before("/dev/mailbox", finding.received.seq)


def _own_stripe_page(finding: Finding, scan: "LeakScan") -> bool:
    """The id is the viewer's own Checkout or portal session, inside a redirect to Stripe's page."""
    index = int(finding.path.split(".")[1])
    event = finding.payload["events"][index] if isinstance(finding.payload, dict) else {}
    url = str(event.get("payload", {}).get("path", ""))
    stripe_page = urlsplit(url).path in (f"/c/pay/{finding.hit.value}", f"/p/session/{finding.hit.value}")
    viewer = finding.received.viewer_id
    return (
        event.get("name") == "_redirect"
        and stripe_page
        and viewer is not None
        and scan.stripe_session_of(finding) == viewer
    )


def _shape_only(finding: Finding, scan: "LeakScan") -> bool:
    """The value only looks like a Stripe id: no Stripe id or key the run knows of."""
    return finding.hit.value not in scan.stripe_ids


ALLOWANCES: tuple[Allowance, ...] = (
    Allowance(
        name="dev mailbox",
        kinds=frozenset({EMAIL, EMAIL_TOKEN}),
        page=r"",
        path=r"(^|\.)app___pages___mailbox____mailbox_state\.emails_rx_state_\.\d+\.(to|body)$",
        reason=(
            "/dev/mailbox lists the locally kept e-mails (recipient and body with its links) to any"
            " visitor, because it is the developer's outbox; it exists only outside production"
            " (core.settings.dev_mailbox_enabled), and the browser tests open confirmation and reset"
            " links there. Only MailboxState.emails[*].to/.body, and only in a browser that opened"
            " /dev/mailbox: Reflex keeps a tab's state and sends it again when the tab loads another"
            " page, so the list follows the tab to the link it opens."
        ),
        viewer_may_see=_opened_mailbox,
    ),
    Allowance(
        name="Stripe-hosted page",
        kinds=frozenset({STRIPE}),
        page=r"^/client-dashboard/?$",
        path=r"^events\.\d+\.payload\.path$",
        reason=(
            "'Assinar' and 'Gerenciar assinatura' send the company's browser to the page Stripe hosts"
            " for it (Checkout /c/pay/cs_..., portal /p/session/bps_...); the session id is part of that"
            " URL by Stripe's design. Only in a _redirect event, only the viewer's own session."
        ),
        viewer_may_see=_own_stripe_page,
    ),
    Allowance(
        name="connection id",
        kinds=frozenset({STRIPE}),
        page=r"",
        path=r"^sid$|(^|\.)rx_router_session_rx_state_\.session_id$",
        reason=(
            "The socket's own id (engine.io/socket.io `sid`, which Reflex repeats as"
            " router.session.session_id) is 20 random URL-safe characters; a browser run opens thousands,"
            " and now and then one starts with a Stripe prefix such as `ch_` (a CI run failed on"
            " `ch_EtDrMz3txn8k7AANZ`)."
            " Only in those two fields, and only when the value is no Stripe id or key the run knows."
        ),
        viewer_may_see=_shape_only,
    ),
)


def walk(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string (and number) inside a JSON value with its dotted path; JSON inside strings too."""
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            yield f"{inner}#key", str(key)
            yield from walk(item, inner)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}.{index}" if path else str(index))
    elif isinstance(value, str):
        stripped = value.lstrip()
        if stripped[:1] in ("{", "["):
            try:
                yield from walk(json.loads(value), path)
                return
            except ValueError:
                pass
        yield path, value
    elif value is not None:
        yield path, str(value)


def parse(raw: str) -> object:
    """The JSON of a socket.io frame (`42["event", payload]`: the payload) or an HTTP body; None if not JSON."""
    body = SOCKET_IO_PREFIX.sub("", raw, count=1)
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if isinstance(message, list) and len(message) == 2 and message[0] == "event":
        payload = message[1]
        if isinstance(payload, str):
            try:
                return json.loads(payload)
            except ValueError:
                return payload
        return payload
    return message


class LeakScan:
    """The session-wide scanner: known secrets and personal data, totals, and the findings."""

    def __init__(self, stripe_fake: object | None = None) -> None:
        """Start with the secrets the configuration already knows (Stripe keys and prices).

        Args:
            stripe_fake: The FakeStripe of the run (its issued ids and sessions), if any.
        """
        settings = get_settings()
        self.stripe_fake = stripe_fake
        self.secrets: dict[str, str] = {}
        self.stripe_ids: set[str] = set()
        self.cpfs: set[str] = set()  # stored CPFs, bare: shown only masked, never whole
        for value in (
            settings.stripe_secret_key,
            settings.stripe_webhook_secret,
            settings.stripe_price_premium,
            settings.stripe_price_enterprise,
        ):
            if value:
                self.learn_stripe_id(value)
        self.emails: dict[str, int] = {}
        self.phones: dict[str, set[int]] = {}
        self._phone_pattern: re.Pattern | None = None
        self.sessions: dict[str, int] = {}
        self.frames = 0
        self.bodies = 0
        self.bytes = 0
        self.leaks: list[str] = []
        self.seconds = 0.0
        self.unreadable = 0

    def learn_stripe_id(self, value: str) -> None:
        """Remember a Stripe id or key (searched as a substring too: ids may sit inside URLs)."""
        self.secrets[value] = STRIPE
        self.stripe_ids.add(value)

    def learn_cookie(self, token: str) -> None:
        """Remember a session cookie value (and its stored digest) as secrets."""
        if token:
            self.secrets[token] = SESSION_TOKEN
            self.secrets[_digest(token)] = TOKEN_DIGEST

    def viewer_of(self, token: str | None) -> int | None:
        """The user a session token signs in (None for visitors or revoked sessions)."""
        if not token:
            return None
        if token not in self.sessions:
            with core_db.get_engine().connect() as db:
                row = db.execute(
                    text("SELECT user_id FROM auth_sessions WHERE token_hash = :h"), {"h": _digest(token)}
                ).first()
            if row is None:
                return None
            self.sessions[token] = int(row[0])
        return self.sessions[token]

    def refresh(self) -> None:
        """Read the e-mails, phones, token digests, e-mailed tokens and Stripe ids stored right now.

        Values are kept for the rest of the run, so an account deleted later is still recognised.
        """
        with core_db.get_engine().connect() as db:
            for user_id, email in db.execute(text("SELECT id, email FROM users")):
                self.emails[email.lower()] = int(user_id)
            phones_before = len(self.phones)
            for user_id, phone in db.execute(text("SELECT user_id, telefone FROM profiles WHERE telefone != ''")):
                if sum(c.isdigit() for c in phone) >= MIN_PHONE_DIGITS:
                    self.phones.setdefault(phone.strip(), set()).add(int(user_id))
            for table in ("auth_sessions", "email_tokens"):
                for (digest,) in db.execute(text(f"SELECT token_hash FROM {table}")):  # noqa: S608
                    self.secrets[digest] = TOKEN_DIGEST
            for (body,) in db.execute(text("SELECT body FROM outbox_emails")):
                for token in MAIL_TOKEN.findall(body):
                    self.secrets[token] = EMAIL_TOKEN
                    self.secrets[_digest(token)] = TOKEN_DIGEST
            for ids in db.execute(text("SELECT stripe_customer_id, stripe_subscription_id FROM subscriptions")):
                for value in ids:
                    if value:
                        self.learn_stripe_id(value)
            self.cpfs.update(cpf for (cpf,) in db.execute(text("SELECT cpf FROM payout_accounts")))
        for value in self._fake_stripe_ids():
            self.learn_stripe_id(value)
        if len(self.phones) != phones_before or self._phone_pattern is None:
            self._phone_pattern = self._compile_phones()

    def _fake_stripe_ids(self) -> Iterator[str]:
        fake = self.stripe_fake
        if fake is None:
            return
        names = ("checkout_sessions", "subscriptions", "customers", "accounts", "payment_intents", "charges")
        for store in (getattr(fake, name, {}) for name in (*names, "transfers", "refunds", "disputes")):
            for object_id, obj in list(store.items()):
                yield object_id
                for _path, value in walk(obj):
                    if STRIPE_SHAPE.fullmatch(value):
                        yield value

    def _compile_phones(self) -> re.Pattern | None:
        forms: set[str] = set()
        for phone in self.phones:
            forms.add(re.escape(phone))
            digits = re.sub(r"\D", "", phone)
            if len(digits) >= MIN_PHONE_DIGITS:
                forms.add(digits)
        if not forms:
            return None
        return re.compile(r"(?<!\d)(?:" + "|".join(sorted(forms, key=len, reverse=True)) + r")(?!\d)")

    def _phone_owners(self, found: str) -> frozenset[int]:
        digits = re.sub(r"\D", "", found)
        owners: set[int] = set()
        for phone, users in self.phones.items():
            if phone == found or re.sub(r"\D", "", phone) == digits:
                owners |= users
        return frozenset(owners)

    def hits(self, raw: str) -> set[Hit]:
        """Every checked value in a text, with the users an e-mail or phone belongs to."""
        found: set[Hit] = set()
        if BCRYPT.search(raw):
            found.update(Hit(PASSWORD_HASH, m.group(0)) for m in BCRYPT.finditer(raw))
        for run in TOKEN_RUN.findall(raw):
            kind = self.secrets.get(run)
            if kind:
                found.add(Hit(kind, run))
        for match in CPF_SHAPE.finditer(raw):
            if re.sub(r"\D", "", match.group(0)) in self.cpfs:
                found.add(Hit(CPF, match.group(0)))
        for match in STRIPE_SHAPE.finditer(raw):
            value = match.group(0)
            suffix = value.split("_", 1)[1]
            if value in self.secrets or _looks_random(suffix):
                found.add(Hit(STRIPE, value))
        found.update(Hit(STRIPE, stripe_id) for stripe_id in self.stripe_ids if stripe_id in raw)
        for address in EMAIL_SHAPE.findall(raw):
            owner = self.emails.get(address.lower())
            if owner is not None:
                found.add(Hit(EMAIL, address, frozenset({owner})))
        if self._phone_pattern is not None:
            for match in self._phone_pattern.finditer(raw):
                found.add(Hit(PHONE, match.group(0), self._phone_owners(match.group(0))))
        return found

    def stripe_session_of(self, finding: Finding) -> int | None:
        """The company a Checkout or portal session in a redirect URL was opened for."""
        fake = self.stripe_fake
        value = finding.hit.value
        if fake is None:
            return None
        checkout = fake.checkout_sessions.get(value)
        if checkout is not None:
            reference = checkout.get("client_reference_id") or ""
            return int(reference) if reference.isdigit() else None
        if value.startswith("bps_"):
            viewer = finding.received.viewer_id
            with core_db.get_engine().connect() as db:
                row = db.execute(
                    text("SELECT stripe_customer_id FROM subscriptions WHERE user_id = :u"), {"u": viewer or 0}
                ).first()
            opened_for = {call.params.get("customer") for call in fake.calls("/v1/billing_portal/sessions")}
            return viewer if row is not None and row[0] and row[0] in opened_for else None
        return None

    def _locate(self, hit: Hit, payload: object) -> list[str]:
        if payload is None:
            return ["raw"]
        paths = [path for path, value in walk(payload) if hit.value in value]
        return paths or ["raw"]

    def _excused(self, finding: Finding) -> bool:
        hit, received = finding.hit, finding.received
        if hit.kind in (EMAIL, PHONE) and received.viewer_id is not None and received.viewer_id in hit.owners:
            return True
        if received.browser.sent_before(hit.value, received.seq):
            return True
        return any(allowance.covers(finding, self) for allowance in ALLOWANCES)

    def scan(self, items: list[Received]) -> list[str]:
        """Search received frames and bodies; return one line per leak (and count them all).

        Args:
            items: What the browsers of one test received.

        Returns:
            Human-readable descriptions of the leaks found.
        """
        if not items:
            return []
        started = time.perf_counter()
        try:
            return self._scan(items)
        finally:
            self.seconds += time.perf_counter() - started

    def _scan(self, items: list[Received]) -> list[str]:
        self.refresh()
        for browser in {id(item.browser): item.browser for item in items}.values():
            for token in browser.cookies:
                self.learn_cookie(token)
        leaks: list[str] = []
        for item in items:
            self.bytes += len(item.text.encode())
            if item.channel == "ws":
                self.frames += 1
            else:
                self.bodies += 1
            found = self.hits(item.text)
            if not found:
                continue
            payload = parse(item.text)
            for hit in found:
                for path in self._locate(hit, payload):
                    finding = Finding(hit, path, item, payload)
                    if not self._excused(finding):
                        leaks.append(describe(finding))
        self.leaks.extend(leaks)
        return leaks

    def summary(self) -> str:
        """One line for the end of the run."""
        megabytes = self.bytes / 1_000_000
        return (
            f"leak scan: {self.frames + self.bodies:,} frames ({self.frames:,} websocket, {self.bodies:,} HTTP"
            f" bodies), {megabytes:,.1f} MB, {len(self.leaks)} leaks (scanning took {self.seconds:,.1f} s;"
            f" {self.unreadable} upload answers unreadable)"
        )


def describe(finding: Finding) -> str:
    """A leak as a line: kind, value, where, whom it belongs to and who received it."""
    hit, received = finding.hit, finding.received
    owners = f" of user {sorted(hit.owners)}" if hit.owners else ""
    return (
        f"{hit.kind} {hit.value!r}{owners} sent to viewer {received.viewer_id} over {received.channel}"
        f" on {urlsplit(received.url).path} at {finding.path}"
    )


API_PREFIX = "/api/"
UPLOAD_PATH = "/_upload"


def _text(payload: str | bytes) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", "replace")


class Watch:
    """Collects what the browsers of one test receive from the app, and what they send to it.

    Websocket frames arrive with their payload. HTTP bodies of `/api/...` are taken by relaying
    the request (`route.fetch` then `route.fulfill`): a body read later from a `response` event is
    gone once the page navigates, which the login does at once. A download (the LGPD export, an
    `<a download>` link the route does not see) is read from its file before its profile closes.
    Reflex's `POST /_upload` answer is read from the `response` event (the upload page stays); a
    body that cannot be read is counted in `unreadable` and printed in the summary.
    """

    def __init__(self, scan: LeakScan, base_url: str) -> None:
        """Watch browsers talking to the app at `base_url` for one test.

        Args:
            scan: The session's scanner.
            base_url: The app's origin; other hosts (the fake Stripe pages) are not scanned.
        """
        self.scan = scan
        self.netloc = urlsplit(base_url).netloc
        self.items: list[Received] = []
        self.contexts: list[tuple[BrowserContext, BrowserLog]] = []
        self.downloads: list[tuple[Download, BrowserContext, Received]] = []
        self._seq = itertools.count()

    def _ours(self, url: str) -> bool:
        return urlsplit(url).netloc == self.netloc

    def _is_api(self, url: str) -> bool:
        return self._ours(url) and urlsplit(url).path.startswith(API_PREFIX)

    def attach(self, context: BrowserContext) -> None:
        """Follow every page, websocket, request and API answer of a new browser profile."""
        log = BrowserLog()
        self.contexts.append((context, log))
        context.on("page", lambda page: self._page(page, context, log))
        context.on("request", lambda request: self._request(request, log))
        context.on("response", lambda response: self._upload_answer(response, context, log))
        context.route(self._is_api, lambda route: self._relay(route, context, log))

    def _page(self, page: Page, context: BrowserContext, log: BrowserLog) -> None:
        page.on("websocket", lambda ws: self._websocket(ws, page, context, log))
        page.on("download", lambda download: self._download(download, context, log))

    def _session_cookie(self, context: BrowserContext, log: BrowserLog) -> str | None:
        """The session cookie the profile holds now (remembered as a secret)."""
        name = get_settings().session_cookie_name
        try:
            cookies = context.cookies()
        except Error:
            return None
        values = [c["value"] for c in cookies if c["name"] == name and self.netloc.startswith(c["domain"])]
        log.cookies.update(values)
        return values[0] if values else None

    def _websocket(self, ws: WebSocket, page: Page, context: BrowserContext, log: BrowserLog) -> None:
        if not self._ours(ws.url):
            return
        viewer = self.scan.viewer_of(self._session_cookie(context, log))
        ws.on("framesent", lambda payload: log.sent.append((next(self._seq), _text(payload))))
        ws.on(
            "framereceived",
            lambda payload: self.items.append(Received("ws", page.url, _text(payload), viewer, log, next(self._seq))),
        )

    def _request(self, request: Request, log: BrowserLog) -> None:
        if not self._ours(request.url):
            return
        try:
            body = request.post_data or ""
        except (Error, UnicodeDecodeError):
            body = ""
        log.sent.append((next(self._seq), f"{request.url}\n{body}"))

    def _relay(self, route: Route, context: BrowserContext, log: BrowserLog) -> None:
        """Pass an API request on, keep its answer's body, and give the browser the same answer."""
        viewer = self.scan.viewer_of(self._session_cookie(context, log))
        try:
            response = route.fetch()
        except Error:
            route.abort()
            return
        body = response.body()
        self.items.append(Received("http", route.request.url, _text(body), viewer, log, next(self._seq)))
        route.fulfill(response=response)

    def _upload_answer(self, response: Response, context: BrowserContext, log: BrowserLog) -> None:
        if not self._ours(response.url) or urlsplit(response.url).path.rstrip("/") != UPLOAD_PATH:
            return
        viewer = self.scan.viewer_of(self._session_cookie(context, log))
        try:
            body = response.body()
        except Error:
            self.scan.unreadable += 1
            return
        self.items.append(Received("http", response.url, _text(body), viewer, log, next(self._seq)))

    def _download(self, download: Download, context: BrowserContext, log: BrowserLog) -> None:
        if self._ours(download.url):
            viewer = self.scan.viewer_of(self._session_cookie(context, log))
            self.downloads.append((download, context, Received("http", download.url, "", viewer, log, next(self._seq))))

    def before_close(self, context: BrowserContext) -> None:
        """Last look at a profile before it closes: its session cookies and the files it downloaded."""
        for known, log in self.contexts:
            if known is context:
                self._session_cookie(context, log)
        finished = [(download, received) for download, owner, received in self.downloads if owner is context]
        self.downloads = [entry for entry in self.downloads if entry[1] is not context]
        for download, received in finished:
            path = download.path()
            received.text = Path(path).read_text(encoding="utf-8", errors="replace") if path else ""
            self.items.append(received)

    def finish(self) -> list[str]:
        """Scan what arrived so far (open profiles are flushed first) and return the leaks."""
        for context, _log in self.contexts:
            self.before_close(context)
        items, self.items = self.items, []
        _dump(items)
        return self.scan.scan(items)


def _dump(items: list[Received]) -> None:
    """With LEAK_SCAN_DUMP=<file>, append what was received (for reading frames while debugging)."""
    target = os.environ.get("LEAK_SCAN_DUMP")
    if target:
        with Path(target).open("a", encoding="utf-8") as out:
            for item in items:
                out.write(f"{item.channel} viewer={item.viewer_id} {item.url} {item.text[:3000]}\n")


def _cookie_value(header: str) -> str | None:
    name = get_settings().session_cookie_name
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None
