"""Notifications on the device: Web Push to the browsers people activated (docs/product.md "Notificações no aparelho").

- `register` stores a browser's subscription ('Ativar notificações neste aparelho') for the session
  that asked, so logging out there (or the session's end anywhere) ends the pushes with it; the
  consent is recorded with its time (services/reach/consents.py).
- `enqueue` is called by services/notifications.notify in the notice's own transaction: one row
  per live device in `push_outbox`, so a rollback pushes nothing and the request that caused it
  never waits for a push service.
- `send_due` drains the queue: it claims due rows (an UPDATE that moves them past a lease, so two
  processes never send one row twice), sends them concurrently with VAPID, deletes what was
  delivered, drops devices the push service says are gone (404/410) and retries the rest with
  backoff. Each push fails alone: whatever goes wrong with one (an error of any kind) is that
  push's failed attempt, and the round's others are sent and settled. After a commit that queued
  pushes, `sender` (core/sender.py) wakes this process's sender thread; the timer
  (services/shifts/shift_timer.py) drains the queue on every tick too, which also sends the retries (a
  failing step there never stops the tick's others). The timer's reminder bursts are sent by the
  timer's own process.
- `_push_target` is the one parse of an endpoint, at registration and again before each push: the
  connection goes to the host and port it read, and the request line carries its path, so no other
  URL parser ever reads the address a browser chose.
"""

import json
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import NamedTuple, TypedDict

import certifi
import urllib3
from py_vapid import Vapid
from pywebpush import WebPusher
from sqlalchemy import and_, bindparam, delete, func, insert, literal, or_, select, update
from sqlmodel import Session

from core import vapid
from core.db import session_scope
from core.formatting import date_time, short_date
from core.security import token_digest
from core.sender import Sender
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, NotificationType, PushDevice, PushMessage
from services.accounts.sessions import idle_limit
from services.common.errors import NotAllowed, ValidationFailed, require_id
from services.reach import consents

logger = logging.getLogger(__name__)

CANNOT_ENABLE = "Não foi possível ativar as notificações neste aparelho."
NOT_SUPPORTED = "Este navegador não recebe notificações. Use o Chrome, o Edge, o Firefox ou o Safari atualizado."
DENIED = "As notificações estão bloqueadas neste navegador. Libere-as nas configurações do site e tente de novo."
ENABLED = "Notificações ativadas neste aparelho."
REMOVED = "Aparelho removido. Ele não recebe mais notificações."
DEVICE_MISSING = "Aparelho não encontrado."

MAX_DEVICES = 10  # per account: the oldest is replaced by an eleventh
TTL_SECONDS = 6 * 3600  # how long a push service keeps a push for a device that is off
SEND_TIMEOUT_SECONDS = 10
CONCURRENCY = 16  # pushes in flight at once per sender
BATCH = 100  # rows claimed per round (a burst's pushes go a round at a time, with a rest between)
PACE = 20.0  # after each round, rest twenty times the CPU it took (docs/performance.md "What the bursts share")
LEASE = timedelta(minutes=2)  # a claimed row is due again after this if its sender died
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))
KEY_BYTES = {"p256dh": 65, "auth": 16}
VAPID_LIFETIME = 12 * 3600  # seconds a signed VAPID token is valid (RFC 8292 allows up to 24 hours)
REFUSED_ADDRESS = "RefusedAddress"  # `_send_one`'s error for an endpoint that is not a push service's
# The senders' connections, shared by their threads; no retries (a push that fails is retried by the
# queue, with backoff) and no proxy from the environment (push services are reached directly).
_HTTP = urllib3.PoolManager(maxsize=CONCURRENCY, retries=False, ca_certs=certifi.where())

TITLES = {
    NotificationType.MESSAGE: "Nova mensagem",
    NotificationType.NEW_APPLICATION: "Nova candidatura",
    NotificationType.APPLICATION_ACCEPTED: "Candidatura aceita",
    NotificationType.APPLICATION_REJECTED: "Candidatura não selecionada",
    NotificationType.JOB_CLOSED: "Vaga encerrada",
    NotificationType.JOB_ALERT: "Nova vaga na sua cidade",
}
# Notices a person causes themselves ('Sua vaga foi publicada') never reach their devices.
NOT_PUSHED = frozenset({NotificationType.JOB_CREATED})


class DeviceView(TypedDict):
    """One device as the settings list shows it."""

    id: int
    name: str
    since: str
    this_device: bool


@dataclass
class SendReport:
    """What one `send_due` round did."""

    sent: int = 0
    retried: int = 0
    dropped: int = 0  # gave up after the last retry
    removed_devices: int = 0  # the push service said the subscription is gone


# --- devices ----------------------------------------------------------------------------------


def device_name(user_agent: str) -> str:
    """A person's name for a browser from its User-Agent: 'Chrome no Android', 'Safari no iPhone'."""
    agent = user_agent or ""
    if "Edg/" in agent:
        browser = "Edge"
    elif "Firefox/" in agent or "FxiOS" in agent:
        browser = "Firefox"
    elif "SamsungBrowser" in agent:
        browser = "Samsung Internet"
    elif "Chrome/" in agent or "CriOS" in agent:
        browser = "Chrome"
    elif "Safari/" in agent:
        browser = "Safari"
    else:
        browser = "Navegador"
    for marker, system in (
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("Windows", "Windows"),
        ("Mac OS X", "Mac"),
        ("CrOS", "Chromebook"),
        ("Linux", "Linux"),
    ):
        if marker in agent:
            return f"{browser} no {system}"
    return browser


class _Target(NamedTuple):
    """Where a push goes, read once from its endpoint: the connection and the request line are made of these."""

    scheme: str  # "https" ("http" only for a local fake outside production)
    host: str  # lowercase ASCII: a DNS name under PUSH_HOSTS, or "127.0.0.1"/"localhost" outside production
    port: int
    path: str  # the request target: path and query, exactly as registered

    @property
    def origin(self) -> str:
        """The push service's origin (RFC 6454; the VAPID `aud`): no port when it is the scheme's own."""
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{self.host}" + ("" if self.port == default else f":{self.port}")


# The whole grammar an endpoint may have: scheme, a host of letters, digits, dots and hyphens, an
# optional port, then a path (and query) of URL characters. No userinfo ('@'), backslash, fragment,
# space, control or non-ASCII character anywhere, and no '%' in the authority: where parsers read
# such an address differently (urlsplit against urllib3 on `\@`), the address is refused.
_ENDPOINT = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9.-]{1,253})(?::(?P<port>[1-9][0-9]{0,4}))?"
    r"(?P<path>/(?!/)[A-Za-z0-9._~!$&'()*+,;=:/?%-]*)"
)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_PERCENT = re.compile(r"(?:[^%]|%[0-9A-Fa-f]{2})*")  # every '%' starts an escape (the path's; WNS tokens have them)
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
MAX_ENDPOINT = 1000


def _dns_name(host: str) -> bool:
    """Whether `host` is a plain DNS name of lowercase letters, digits and hyphens.

    No empty label (so no trailing dot), no IDNA ('xn--', or any label with '--' as its third and
    fourth characters) and not an IPv4 literal (a last label of digits).
    """
    labels = host.split(".")
    return all(_LABEL.fullmatch(label) and label[2:4] != "--" for label in labels) and not labels[-1].isdigit()


@lru_cache(maxsize=4)
def _known_hosts(push_hosts: str) -> tuple[tuple[str, str], ...]:
    """PUSH_HOSTS as (host, '.' + host) pairs: a push's address is read again before each push."""
    hosts = [item.strip().lower() for item in push_hosts.split(",") if item.strip()]
    return tuple((host, "." + host) for host in hosts)


def _push_target(endpoint: str) -> _Target | None:
    """The one parse of an endpoint a browser sent, or None when the server must not POST there.

    Production rules: exactly `https://<host>[:443]/<path>`, the host a DNS name equal to one of
    PUSH_HOSTS or under one. Outside production `http://127.0.0.1:<port>/...` and
    `http://localhost:<port>/...` are allowed too (the tests' fake push service), parsed just as
    strictly. A percent escape is allowed in the path (Windows' push addresses carry them in their
    token) since the path only travels in the request line to the host read here; never in the
    authority.

    Args:
        endpoint: The address as the browser sent it (or as a device row keeps it).
    """
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
        return None
    found = _ENDPOINT.fullmatch(endpoint)
    if found is None or not _PERCENT.fullmatch(found["path"]):
        return None
    scheme, host, path = found["scheme"], found["host"], found["path"]
    port = int(found["port"] or (443 if scheme == "https" else 80))
    settings = get_settings()
    if scheme == "http":
        local = not settings.is_production and host in _LOCAL_HOSTS and port <= 65535
        return _Target(scheme, host, port, path) if local else None
    listed = any(host == item or host.endswith(under) for item, under in _known_hosts(settings.push_hosts))
    return _Target(scheme, host, port, path) if port == 443 and _dns_name(host) and listed else None


def _allowed_endpoint(endpoint: str) -> bool:
    """Whether we may POST to `endpoint` (`_push_target` reads it): a push service's address, never another host.

    The address comes from the browser, so it is checked like any URL the server would fetch for a
    user: anything else (an internal address, another site, an address parsers read differently)
    is refused.
    """
    return _push_target(endpoint) is not None


def _clean_subscription(subscription: object) -> tuple[str, str, str]:
    """The endpoint and keys of a browser's `PushSubscription.toJSON()`; ValidationFailed otherwise."""
    failed = ValidationFailed({"push": CANNOT_ENABLE})
    if not isinstance(subscription, dict):
        raise failed
    endpoint, keys = subscription.get("endpoint"), subscription.get("keys")
    if not isinstance(endpoint, str) or not _allowed_endpoint(endpoint):
        raise failed
    if not isinstance(keys, dict):
        raise failed
    cleaned = []
    for name, size in KEY_BYTES.items():
        value = keys.get(name)
        try:
            raw = vapid.b64url_decode(value) if isinstance(value, str) and len(value) <= 200 else b""
        except ValueError:
            raw = b""
        if len(raw) != size or (name == "p256dh" and raw[0] != 4):
            raise failed
        cleaned.append(value)
    return endpoint, cleaned[0], cleaned[1]


def _session_id(db: Session, user_id: int, session_token: str | None) -> int:
    """The id of the caller's own session row (NotAllowed when the token is not theirs)."""
    found = (
        db.execute(
            select(AuthSession.id).where(
                AuthSession.token_hash == token_digest(session_token or ""), AuthSession.user_id == user_id
            )
        ).scalar_one_or_none()
        if session_token
        else None
    )
    if found is None:
        raise NotAllowed(CANNOT_ENABLE)
    return found


def register(db: Session, user_id: int, session_token: str | None, subscription: object, user_agent: str) -> None:
    """Keep this browser's subscription for the caller's session ('Ativar notificações neste aparelho').

    The same subscription registered again (another account on the same browser, or the same
    one after a new login) moves to the caller: a browser pushes for one person only. Above
    MAX_DEVICES the account's oldest device is removed.

    Args:
        db: Open database session.
        user_id: The caller.
        session_token: The caller's session cookie (the device belongs to that session).
        subscription: `PushSubscription.toJSON()` as the browser sent it.
        user_agent: The browser's User-Agent, for the device's name.

    Raises:
        ValidationFailed: A malformed subscription, or an endpoint that is not a push service.
        NotAllowed: The session is not the caller's (or push is off).
    """
    if not vapid.public_key():
        raise NotAllowed(CANNOT_ENABLE)
    endpoint, p256dh, auth = _clean_subscription(subscription)
    session_id = _session_id(db, user_id, session_token)
    name = device_name(user_agent)
    db.execute(delete(PushDevice).where(PushDevice.endpoint == endpoint))
    db.add(PushDevice(user_id=user_id, session_id=session_id, endpoint=endpoint, p256dh=p256dh, auth=auth, name=name))
    db.flush()
    extra = db.execute(
        select(PushDevice.id)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.created_at.desc(), PushDevice.id.desc())
        .offset(MAX_DEVICES)
    ).scalars()
    for device_id in list(extra):
        db.execute(delete(PushDevice).where(PushDevice.id == device_id))
    consents.record(db, user_id, consents.PUSH, granted=True, detail=name)


def devices(db: Session, user_id: int, session_token: str | None) -> list[DeviceView]:
    """The caller's devices with notifications on, newest first, marking the one of this session."""
    here = token_digest(session_token) if session_token else ""
    rows = db.execute(
        select(PushDevice.id, PushDevice.name, PushDevice.created_at, AuthSession.token_hash)
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.created_at.desc(), PushDevice.id.desc())
    ).all()
    return [
        DeviceView(id=row.id, name=row.name, since=short_date(row.created_at), this_device=row.token_hash == here)
        for row in rows
    ]


def export(db: Session, user_id: int) -> list[dict[str, str]]:
    """The user's devices for 'Baixar meus dados': name, since when and the push address (never the keys)."""
    rows = db.execute(
        select(PushDevice.name, PushDevice.created_at, PushDevice.endpoint)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.id)
    ).all()
    return [{"aparelho": row.name, "ativado_em": date_time(row.created_at), "endereco": row.endpoint} for row in rows]


def remove(db: Session, user_id: int, device_id: object) -> None:
    """Stop pushes to one of the caller's devices ('Remover'); the withdrawal is recorded.

    Raises:
        NotAllowed: No such device of the caller's (someone else's looks the same as a missing one).
    """
    wanted = require_id(device_id, DEVICE_MISSING)
    device = db.get(PushDevice, wanted)
    if device is None or device.user_id != user_id:
        raise NotAllowed(DEVICE_MISSING, target=wanted)
    name = device.name
    db.delete(device)
    consents.record(db, user_id, consents.PUSH, granted=False, detail=name)


# --- queue ------------------------------------------------------------------------------------


def _live_session(now):
    """SQL: the device's session is still live (not past its absolute or idle expiry)."""
    return and_(
        AuthSession.expires_at > now,
        or_(
            and_(AuthSession.remember.is_(False), AuthSession.last_seen_at > now - idle_limit(False)),
            and_(AuthSession.remember.is_(True), AuthSession.last_seen_at > now - idle_limit(True)),
        ),
    )


def enqueue(db: Session, user_id: int, kind: str, message: str, url: str) -> None:
    """Queue a notice for every live device of `user_id`, in the notice's transaction (one statement).

    Args:
        db: The transaction of the notice.
        user_id: Who is notified (their settings allowed a push of `kind`).
        kind: The notification's NotificationType.
        message: Its text (the push's body).
        url: The full address clicking it opens.
    """
    if kind in NOT_PUSHED or not vapid.public_key():
        return
    now = utcnow()
    title = TITLES.get(kind, get_settings().product_name)
    rows = (
        select(
            PushDevice.id,
            literal(title),
            literal(message[:500]),
            literal(url[:500]),
            literal(0),
            literal(now, PushMessage.__table__.c.due_at.type),
            literal(now, PushMessage.__table__.c.created_at.type),
        )
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id == user_id, _live_session(now))
    )
    columns = ["device_id", "title", "body", "url", "attempts", "due_at", "created_at"]
    if db.execute(insert(PushMessage.__table__).from_select(columns, rows)).rowcount:
        sender.kick_after_commit(db)


class Queued(NamedTuple):
    """A notice to push to every live device of a user (the arguments of `enqueue`)."""

    user_id: int
    kind: str
    message: str
    url: str


def enqueue_many(db: Session, notices: list[Queued]) -> None:
    """Queue many notices at once, in the notices' transaction (a reminder chunk's; services/shifts/shift_timer.py).

    One notice is `enqueue`'s one statement. More read their users' live devices in one statement
    and write every push in one multi-row INSERT: two statements for a chunk of 50 reminders, where
    one each made a burst's statements the database's work (docs/performance.md).

    Args:
        db: The transaction of the notices.
        notices: Each one's user (their settings allowed a push of its kind), kind, text and address.
    """
    notices = [n for n in notices if n.kind not in NOT_PUSHED]
    if len(notices) == 1:
        enqueue(db, *notices[0])
        return
    if not notices or not vapid.public_key():
        return
    now = utcnow()
    devices: dict[int, list[int]] = {}
    found = db.execute(
        select(PushDevice.user_id, PushDevice.id)
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id.in_({n.user_id for n in notices}), _live_session(now))
    )
    for user_id, device_id in found:
        devices.setdefault(user_id, []).append(device_id)
    product = get_settings().product_name
    rows = [
        {
            "device_id": device_id,
            "title": TITLES.get(n.kind, product),
            "body": n.message[:500],
            "url": n.url[:500],
            "attempts": 0,
            "due_at": now,
            "created_at": now,
        }
        for n in notices
        for device_id in devices.get(n.user_id, ())
    ]
    if rows:
        db.execute(insert(PushMessage.__table__), rows)
        sender.kick_after_commit(db)


# --- sender -----------------------------------------------------------------------------------

_CLAIM = (
    update(PushMessage.__table__)
    .where(
        PushMessage.__table__.c.id.in_(
            select(PushMessage.__table__.c.id)
            .where(PushMessage.__table__.c.due_at <= bindparam("now"))
            .order_by(PushMessage.__table__.c.due_at, PushMessage.__table__.c.id)
            .limit(bindparam("batch"))
            .scalar_subquery()
        ),
        PushMessage.__table__.c.due_at <= bindparam("now"),  # checked again: another sender may have claimed it
    )
    .values(due_at=bindparam("lease"), attempts=PushMessage.__table__.c.attempts + 1)
    .returning(PushMessage.__table__.c.id)
)


@dataclass(frozen=True)
class _Outgoing:
    id: int
    device_id: int
    attempts: int
    endpoint: str
    p256dh: str
    auth: str
    payload: str


def _claim(now: datetime, batch: int, scope: Callable) -> tuple[list[_Outgoing], int]:
    """Claim up to `batch` due rows for this sender; rows of ended sessions are dropped (second value)."""
    with scope() as db:
        claimed = list(db.execute(_CLAIM, {"now": now, "batch": batch, "lease": now + LEASE}).scalars())
        if not claimed:
            return [], 0
        rows = db.execute(
            select(
                PushMessage.id,
                PushMessage.device_id,
                PushMessage.attempts,
                PushMessage.title,
                PushMessage.body,
                PushMessage.url,
                PushDevice.endpoint,
                PushDevice.p256dh,
                PushDevice.auth,
            )
            .join(PushDevice, PushDevice.id == PushMessage.device_id)
            .join(AuthSession, AuthSession.id == PushDevice.session_id)
            .where(PushMessage.id.in_(claimed), _live_session(now))
        ).all()
        outgoing = [
            _Outgoing(
                row.id,
                row.device_id,
                row.attempts,
                row.endpoint,
                row.p256dh,
                row.auth,
                json.dumps({"title": row.title, "body": row.body, "url": row.url}, ensure_ascii=False),
            )
            for row in rows
        ]
        stale = set(claimed) - {item.id for item in outgoing}
        if stale:  # the device's session ended (idle) before the push went out
            db.execute(delete(PushMessage).where(PushMessage.id.in_(stale)))
        return outgoing, len(stale)


class _Signer:
    """VAPID for one `send_due` call: the key, and one signed header per push service.

    A VAPID token names the push service (`aud`) and not the device, so one signature serves every
    push to that service; signing each push was a tenth of its CPU (docs/performance.md). A call
    lasts minutes at most, far inside the token's VAPID_LIFETIME.
    """

    def __init__(self, key: Vapid, subject: str) -> None:
        self._key = key
        self._subject = subject
        self._headers: dict[str, str] = {}
        self._lock = threading.Lock()

    def authorization(self, audience: str) -> str:
        """The `Authorization` header for a push to the service at `audience` (a `_Target.origin`), signed once."""
        with self._lock:
            if audience not in self._headers:
                claims = {"sub": self._subject, "aud": audience, "exp": int(time.time()) + VAPID_LIFETIME}
                self._headers[audience] = self._key.sign(claims)["Authorization"]
            return self._headers[audience]


def _signer() -> _Signer:
    return _Signer(Vapid.from_raw(vapid.private_key().encode()), vapid.subject())


def _send_one(item: _Outgoing, signer: _Signer) -> tuple[int, str]:
    """POST one push; the push service's status (0: no answer) and, with no answer, the error's name.

    The endpoint is read again (`_push_target`: a row may predate today's rules) and the connection
    is opened to the host and port that read gave, with its path as the request line; an address
    that no longer reads as a push service's answers REFUSED_ADDRESS and nothing is sent. Any error
    is this push's alone: it is retried, then dropped (`_settle`), and the round's others go on.

    The payload is encrypted for the device by pywebpush (aes128gcm, RFC 8291) and sent with
    urllib3's pool, shared by the sender's threads, which keeps each connection open between pushes:
    through `webpush` and requests a push cost 1.5 ms of CPU, this way 0.9 ms with 16 threads and
    about 0.4 ms on one thread over a kept connection (docs/performance.md).
    """
    try:
        target = _push_target(item.endpoint)
        if target is None:
            return 0, REFUSED_ADDRESS
        subscription = {"endpoint": target.origin + target.path, "keys": {"p256dh": item.p256dh, "auth": item.auth}}
        body = WebPusher(subscription).encode(item.payload.encode(), "aes128gcm")["body"]
        headers = {
            "Authorization": signer.authorization(target.origin),
            "Content-Encoding": "aes128gcm",
            "TTL": str(TTL_SECONDS),
        }
        connection = _HTTP.connection_from_host(target.host, target.port, target.scheme)
        answer = connection.urlopen(
            "POST", target.path, body=body, headers=headers, timeout=SEND_TIMEOUT_SECONDS, redirect=False
        )
    except Exception as exc:  # one push's failure, whatever it is, must not end the round
        logger.debug("push %s failed", item.id, exc_info=True)
        return 0, _failure(exc)
    return answer.status, ""


def _timed_send(item: _Outgoing, signer: _Signer) -> tuple[tuple[int, str], float]:
    """`_send_one`, and the CPU seconds it took on this thread (not its wait for the push service)."""
    started = time.thread_time()
    answer = _send_one(item, signer)
    return answer, time.thread_time() - started


def _failure(exc: Exception) -> str:
    """A short name for a push that got no answer (the warning's key)."""
    if isinstance(exc, urllib3.exceptions.NewConnectionError):
        return "ConnectionError"
    if isinstance(exc, urllib3.exceptions.TimeoutError):
        return "Timeout"
    if isinstance(exc, (urllib3.exceptions.ProtocolError, OSError)):
        return "ConnectionError"
    return type(exc).__name__


def _settle(
    results: list[tuple[_Outgoing, tuple[int, str]]], now: datetime, report: SendReport, scope: Callable
) -> None:
    """Record the answers: delivered rows deleted, gone devices removed, the rest retried or dropped.

    A device whose address is not a push service's (REFUSED_ADDRESS: saved before today's rules) is
    removed like a gone one, with its pushes, and a line says so: no retry could ever send them.
    """
    delivered = [item for item, (status, _) in results if 200 <= status < 300]
    refused = {item.device_id for item, (_, error) in results if error == REFUSED_ADDRESS}
    gone = {item.device_id for item, (status, _) in results if status in (404, 410)} | refused
    for device_id in sorted(refused):
        logger.warning("push: device %s removed, its address is not a push service's; its pushes dropped", device_id)
    with scope() as db:
        if delivered:
            db.execute(delete(PushMessage).where(PushMessage.id.in_([item.id for item in delivered])))
            db.execute(
                update(PushDevice)
                .where(PushDevice.id.in_({item.device_id for item in delivered}))
                .values(last_sent_at=now)
            )
            report.sent += len(delivered)
        if gone:
            db.execute(delete(PushDevice).where(PushDevice.id.in_(gone)))
            report.removed_devices += len(gone)
        failed: Counter[int | str] = Counter()
        for item, (status, error) in results:
            if 200 <= status < 300 or item.device_id in gone:
                continue
            failed[status or error] += 1
            if item.attempts > len(RETRY_DELAYS):
                db.execute(delete(PushMessage).where(PushMessage.id == item.id))
                report.dropped += 1
                logger.warning(
                    "push %s dropped after %s attempts (last status or error %s)",
                    item.id,
                    item.attempts,
                    status or error,
                )
            else:
                due = now + RETRY_DELAYS[item.attempts - 1]
                db.execute(update(PushMessage).where(PushMessage.id == item.id).values(due_at=due))
                report.retried += 1
        if failed:  # one line per round: a push service that is down would flood the log otherwise
            logger.warning(
                "push: %s of %s not accepted, by status or error: %s", failed.total(), len(results), dict(failed)
            )


def send_due(
    now: datetime | None = None,
    scope: Callable = session_scope,
    batch: int = BATCH,
    rounds: int = 20,
    pace: float = PACE,
    sleep: Callable[[float], None] = time.sleep,
) -> SendReport:
    """Send every due push (at most `rounds` batches); returns what happened.

    Args:
        now: The time to send at (the timer's tick, tests; the clock otherwise).
        scope: Session factory (core.db.session_scope, or a test's).
        batch: Rows claimed per round.
        rounds: Rounds before returning (the rest waits for the next call).
        pace: After each round, rest `pace` times the CPU it took in this process (0: no rest). CPU
            and not time: the wait for a remote push service costs this machine nothing. Every
            round, and not only a full one: a burst's pushes come a chunk of reminders at a time,
            in rounds smaller than `batch`, and a lone push's rest is a few milliseconds.
        sleep: How to rest (tests pass a recorder).
    """
    report = SendReport()
    if not vapid.private_key():
        return report
    signer: _Signer | None = None
    pool: ThreadPoolExecutor | None = None
    try:
        for _ in range(rounds):
            started = time.thread_time()
            moment = now or utcnow()
            outgoing, stale = _claim(moment, batch, scope)
            report.dropped += stale
            if not outgoing:
                break
            signer = signer or _signer()
            pool = pool or ThreadPoolExecutor(CONCURRENCY, thread_name_prefix="push")
            timed = list(pool.map(lambda item, key=signer: _timed_send(item, key), outgoing))
            _settle([(item, answer) for item, (answer, _) in zip(outgoing, timed, strict=True)], moment, report, scope)
            if pace > 0:  # leave the cores to requests a while, in proportion: one push rests a few ms
                sleep((time.thread_time() - started + sum(cpu for _, cpu in timed)) * pace)
    finally:
        if pool is not None:
            pool.shutdown()
    return report


def pending_count(db: Session) -> int:
    """Rows waiting in the queue (tests and the benchmark)."""
    return db.execute(select(func.count()).select_from(PushMessage)).scalar_one()


sender = Sender("push-sender", send_due)  # this process's sender thread (core/sender.py)
