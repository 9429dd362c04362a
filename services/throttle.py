"""Login throttling per account and per client address, shared by every worker.

Failed attempts are counted in Redis when `REFLEX_REDIS_URL` is set (one counter per account and
one per address, each an atomic INCR that restarts its window with EXPIRE), else in the database
(`login_attempts` rows inside the window). Either store is shared by all workers of a deployment,
so spreading guesses over workers gains an attacker nothing. Every attempt is also kept in
`login_attempts` (the account's history); only the counting moves to Redis.

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
from services.errors import ServiceError

THROTTLED = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
ADDRESS_SIZE = 64


class FailureCounter(ABC):
    """Where recent failed logins are counted, per account (e-mail) and per client address."""

    @abstractmethod
    def failures(self, email: str, address: str) -> tuple[int, int]:
        """Recent failures of the account and of the address, in the current window."""

    @abstractmethod
    def add_failure(self, email: str, address: str) -> None:
        """Count one more failure for the account and for the address."""


class DatabaseCounter(FailureCounter):
    """Counts the failed `login_attempts` rows inside the window (the store without Redis)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def failures(self, email: str, address: str) -> tuple[int, int]:
        """Failed rows of the account and of the address newer than the window."""
        since = utcnow() - timedelta(minutes=get_settings().login_window_minutes)
        return (
            self._count(LoginAttempt.email == email, since),
            self._count(LoginAttempt.address == address[:ADDRESS_SIZE], since),
        )

    def _count(self, condition, since) -> int:
        return self._session.exec(
            select(func.count())
            .select_from(LoginAttempt)
            .where(condition, LoginAttempt.succeeded.is_(False), LoginAttempt.created_at > since)
        ).one()

    def add_failure(self, email: str, address: str) -> None:
        """Nothing to add: the failed row written by `record_failure` is the count."""


class RedisCounter(FailureCounter):
    """Counts failures in Redis: `<prefix>:account:<sha256(email)>` and `<prefix>:address:<ip>`."""

    def __init__(self, client, prefix: str) -> None:
        self._client = client
        self._prefix = prefix

    def _keys(self, email: str, address: str) -> tuple[str, str]:
        account = hashlib.sha256(email.encode()).hexdigest()
        return f"{self._prefix}:account:{account}", f"{self._prefix}:address:{address[:ADDRESS_SIZE]}"

    def failures(self, email: str, address: str) -> tuple[int, int]:
        """The two counters (0 for a key that expired or never existed)."""
        by_account, by_address = self._client.mget(self._keys(email, address))
        return int(by_account or 0), int(by_address or 0)

    def add_failure(self, email: str, address: str) -> None:
        """INCR both counters and (re)start their window, in one MULTI/EXEC transaction."""
        window = get_settings().login_window_minutes * 60
        pipe = self._client.pipeline(transaction=True)
        for key in self._keys(email, address):
            pipe.incr(key)
            pipe.expire(key, window)
        pipe.execute()


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


def check(session: Session, email: str, address: str) -> None:
    """Refuse a login attempt when the account or the address failed too often recently.

    Raises:
        ServiceError: With THROTTLED when over the limit.
    """
    settings = get_settings()
    by_account, by_address = counter(session).failures(email, address)
    if by_account >= settings.login_max_failures or by_address >= settings.login_max_failures_per_address:
        raise ServiceError(THROTTLED)


def record_failure(session: Session, email: str, address: str) -> None:
    """Count a failed attempt and keep it in its own transaction, so the refusal that follows keeps it."""
    with Session(session.get_bind()) as own:
        own.add(LoginAttempt(email=email, address=address[:ADDRESS_SIZE], succeeded=False))
        own.commit()
    counter(session).add_failure(email, address)


def record_success(session: Session, email: str, address: str) -> None:
    """Remember a successful attempt (kept for the account's history)."""
    session.add(LoginAttempt(email=email, address=address[:ADDRESS_SIZE], succeeded=True))
