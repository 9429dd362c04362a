"""Login throttling per account and per client address, shared by every worker.

Failed attempts are counted in Redis when `REFLEX_REDIS_URL` is set (one counter per account and
one per address, each an atomic INCR that restarts its window with EXPIRE), else in the database
(`login_attempts` rows inside the window). Either store is shared by all workers of a deployment,
so spreading guesses over workers gains an attacker nothing. Every attempt is also kept in
`login_attempts` (the account's history); only the counting moves to Redis.

Failures typed by a browser that already holds the account's trust (a trusted-device cookie at
login, services/accounts/devices.py, or a signed-in session changing the password or deleting the account)
are also counted apart, per account (`trusted`), and only that count can refuse such a browser:
strangers' failures, on the account or from a shared address, cannot lock it out. Its own
failures still count for the account (so switching to an unknown browser buys no extra guesses)
but not for the address. The limit is the same (LOGIN_MAX_FAILURES).

| counter | counts failures of | refuses |
|---|---|---|
| account | the account, from any browser | unknown browsers, at LOGIN_MAX_FAILURES |
| address | unknown browsers at the address | unknown browsers, at LOGIN_MAX_FAILURES_PER_ADDRESS |
| trusted | the account, from its trusted browsers and sessions | trusted browsers, at LOGIN_MAX_FAILURES |

The Redis keys carry the deployment's database fingerprint (core.presence.deployment_key), as the
presence registry does: deployments sharing a Redis do not lock out each other's users. The
account key holds the SHA-256 of the e-mail, not the address itself.
"""

import hashlib
from abc import ABC, abstractmethod
from datetime import timedelta
from functools import lru_cache

from sqlalchemy import func
from sqlmodel import Session, select

from core.presence import deployment_key
from core.settings import get_settings
from core.types import utcnow
from models import LoginAttempt
from services.common.errors import ServiceError

THROTTLED = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
ADDRESS_SIZE = 64


class FailureCounter(ABC):
    """Where recent failed logins are counted (the three counters of the module's table)."""

    @abstractmethod
    def failures(self, email: str, address: str) -> tuple[int, int]:
        """Recent failures of the account (from any browser) and of unknown browsers at the address."""

    @abstractmethod
    def add_failure(self, email: str, address: str) -> None:
        """Count one more failure from an unknown browser for the account and for the address."""

    @abstractmethod
    def trusted_failures(self, email: str) -> int:
        """Recent failures of the account typed by its trusted browsers and sessions."""

    @abstractmethod
    def add_trusted_failure(self, email: str) -> None:
        """Count one more failure typed by a trusted browser or session: for the account and its trusted count."""


class DatabaseCounter(FailureCounter):
    """Counts the failed `login_attempts` rows inside the window (the store without Redis)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def failures(self, email: str, address: str) -> tuple[int, int]:
        """Failed rows of the account (any browser) and untrusted ones of the address, newer than the window."""
        since = utcnow() - timedelta(minutes=get_settings().login_window_minutes)
        return (
            self._count(since, LoginAttempt.email == email),
            self._count(since, LoginAttempt.address == address[:ADDRESS_SIZE], LoginAttempt.trusted.is_(False)),
        )

    def trusted_failures(self, email: str) -> int:
        """Failed trusted rows of the account newer than the window."""
        since = utcnow() - timedelta(minutes=get_settings().login_window_minutes)
        return self._count(since, LoginAttempt.email == email, LoginAttempt.trusted.is_(True))

    def _count(self, since, *conditions) -> int:
        return self._session.exec(
            select(func.count())
            .select_from(LoginAttempt)
            .where(*conditions, LoginAttempt.succeeded.is_(False), LoginAttempt.created_at > since)
        ).one()

    def add_failure(self, email: str, address: str) -> None:
        """Nothing to add: the failed row written by `record_failure` is the count."""

    def add_trusted_failure(self, email: str) -> None:
        """Nothing to add: the failed trusted row written by `record_failure` is the count."""


class RedisCounter(FailureCounter):
    """Counts failures in Redis: `<prefix>:account|trusted:<sha256(email)>` and `<prefix>:address:<ip>`."""

    def __init__(self, client, prefix: str) -> None:
        self._client = client
        self._prefix = prefix

    def _account_key(self, email: str) -> str:
        return f"{self._prefix}:account:{_digest(email)}"

    def _keys(self, email: str, address: str) -> tuple[str, str]:
        return self._account_key(email), f"{self._prefix}:address:{address[:ADDRESS_SIZE]}"

    def _trusted_key(self, email: str) -> str:
        return f"{self._prefix}:trusted:{_digest(email)}"

    def failures(self, email: str, address: str) -> tuple[int, int]:
        """The two counters (0 for a key that expired or never existed)."""
        by_account, by_address = self._client.mget(self._keys(email, address))
        return int(by_account or 0), int(by_address or 0)

    def add_failure(self, email: str, address: str) -> None:
        """INCR both counters and (re)start their window, in one MULTI/EXEC transaction."""
        self._increment(*self._keys(email, address))

    def trusted_failures(self, email: str) -> int:
        """The account's trusted counter (0 for a key that expired or never existed)."""
        return int(self._client.get(self._trusted_key(email)) or 0)

    def add_trusted_failure(self, email: str) -> None:
        """INCR the account's trusted and account counters and (re)start their window."""
        self._increment(self._trusted_key(email), self._account_key(email))

    def _increment(self, *keys: str) -> None:
        window = get_settings().login_window_minutes * 60
        pipe = self._client.pipeline(transaction=True)
        for key in keys:
            pipe.incr(key)
            pipe.expire(key, window)
        pipe.execute()


def _digest(email: str) -> str:
    return hashlib.sha256(email.encode()).hexdigest()


@lru_cache
def _redis_client(url: str):
    """One thread-safe Redis client (with its connection pool) per URL for the process."""
    import redis

    return redis.Redis.from_url(url, decode_responses=True)


def redis_prefix(database_url: str) -> str:
    """The key prefix of a deployment's throttle counters in a Redis it may share with others."""
    return f"turno:throttle:{deployment_key(database_url)}"


def counter(session: Session) -> FailureCounter:
    """The counter this deployment uses: Redis when `REFLEX_REDIS_URL` is set, else the database."""
    settings = get_settings()
    if settings.redis_url:
        return RedisCounter(_redis_client(settings.redis_url), redis_prefix(settings.database_url))
    return DatabaseCounter(session)


def check(session: Session, email: str, address: str, trusted: bool = False) -> None:
    """Refuse a password attempt when it failed too often recently.

    Args:
        session: Open database session.
        email: The account's normalised e-mail.
        address: The client's address.
        trusted: The attempt comes from a trusted browser or a signed-in session of the account:
            only the account's trusted failures can refuse it, never strangers' or the address's.

    Raises:
        ServiceError: With THROTTLED when over the limit.
    """
    settings = get_settings()
    if trusted:
        if counter(session).trusted_failures(email) >= settings.login_max_failures:
            raise ServiceError(THROTTLED)
        return
    by_account, by_address = counter(session).failures(email, address)
    if by_account >= settings.login_max_failures or by_address >= settings.login_max_failures_per_address:
        raise ServiceError(THROTTLED)


def record_failure(session: Session, email: str, address: str, trusted: bool = False) -> None:
    """Count a failed attempt and keep it in its own transaction, so the refusal that follows keeps it.

    Args:
        session: Open database session.
        email: The account's normalised e-mail.
        address: The client's address (kept in the history; counted only for an unknown browser).
        trusted: As for `check`.
    """
    with Session(session.get_bind()) as own:
        own.add(LoginAttempt(email=email, address=address[:ADDRESS_SIZE], succeeded=False, trusted=trusted))
        own.commit()
    if trusted:
        counter(session).add_trusted_failure(email)
    else:
        counter(session).add_failure(email, address)


def record_success(session: Session, email: str, address: str, trusted: bool = False) -> None:
    """Remember a successful attempt (kept for the account's history)."""
    session.add(LoginAttempt(email=email, address=address[:ADDRESS_SIZE], succeeded=True, trusted=trusted))
