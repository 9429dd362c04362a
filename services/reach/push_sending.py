"""Sending the queued pushes (`send_due`) and this process's sender thread (`sender`).

`send_due` drains the queue services/reach/push.py fills: it claims due rows (an UPDATE that
moves them past a lease, so two processes never send one row twice), sends them concurrently
with VAPID, deletes what was delivered, drops devices the push service says are gone (404/410) and
retries the rest with backoff. Each push fails alone: whatever goes wrong with one (an error of any
kind) is that push's failed attempt, and the round's others are sent and settled. After a commit
that queued pushes, `sender` (core/sender.py) wakes this process's sender thread; the timer
(services/timer/clock.py) drains the queue on every tick too, which also sends the retries (a
failing step there never stops the tick's others). The timer's reminder bursts are sent by the
timer's own process.
"""

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

import certifi
import urllib3
from py_vapid import Vapid
from pywebpush import WebPusher
from sqlalchemy import bindparam, delete, func, select, update
from sqlmodel import Session

from core import vapid
from core.db import session_scope
from core.sender import Sender
from core.types import utcnow
from models import AuthSession, PushDevice, PushMessage
from services.reach.push_addresses import push_target
from services.reach.push_devices import live_session

logger = logging.getLogger(__name__)


TTL_SECONDS = 6 * 3600  # how long a push service keeps a push for a device that is off
SEND_TIMEOUT_SECONDS = 10
CONCURRENCY = 16  # pushes in flight at once per sender
BATCH = 100  # rows claimed per round (a burst's pushes go a round at a time, with a rest between)
PACE = 20.0  # after each round, rest twenty times the CPU it took (docs/performance-log.md "What the bursts share")
LEASE = timedelta(minutes=2)  # a claimed row is due again after this if its sender died
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))
VAPID_LIFETIME = 12 * 3600  # seconds a signed VAPID token is valid (RFC 8292 allows up to 24 hours)
REFUSED_ADDRESS = "RefusedAddress"  # `_send_one`'s error for an endpoint that is not a push service's
# The senders' connections, shared by their threads; no retries (a push that fails is retried by the
# queue, with backoff) and no proxy from the environment (push services are reached directly).
_HTTP = urllib3.PoolManager(maxsize=CONCURRENCY, retries=False, ca_certs=certifi.where())


@dataclass
class SendReport:
    """What one `send_due` round did."""

    sent: int = 0
    retried: int = 0
    dropped: int = 0  # gave up after the last retry
    removed_devices: int = 0  # the push service said the subscription is gone


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
            .where(PushMessage.id.in_(claimed), live_session(now))
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

    The endpoint is read again (`push_target`: a row may predate today's rules) and the connection
    is opened to the host and port that read gave, with its path as the request line; an address
    that no longer reads as a push service's answers REFUSED_ADDRESS and nothing is sent. Any error
    is this push's alone: it is retried, then dropped (`_settle`), and the round's others go on.

    The payload is encrypted for the device by pywebpush (aes128gcm, RFC 8291) and sent with
    urllib3's pool, shared by the sender's threads, which keeps each connection open between pushes:
    through `webpush` and requests a push cost 1.5 ms of CPU, this way 0.9 ms with 16 threads and
    about 0.4 ms on one thread over a kept connection (docs/performance.md).
    """
    try:
        target = push_target(item.endpoint)
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
