"""Server-side login sessions: random tokens, stored hashed, expiring, revocable.

A session ends at the first of: its absolute expiry (`expires_at`, fixed at login), its idle
expiry (no use for `idle_limit`), logout, a password change or reset, or the account's deletion.
Using a session refreshes `last_seen_at` at most once per TOUCH_INTERVAL, so a busy tab costs one
write a minute, not one per event.
"""

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from threading import Lock

from sqlalchemy import and_, or_
from sqlalchemy.engine import Connection
from sqlmodel import Session, delete, select, update

from core.db import session_scope
from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, Profile, SessionVersion, User

TOUCH_INTERVAL = timedelta(minutes=1)
Toucher = Callable[[int, datetime], None]  # records a session's use: (its id, now)
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CurrentUser:
    """Who is calling: the plain facts handlers need, never the ORM row."""

    id: int
    role: str
    email: str
    name: str


def create(session: Session, user_id: int, remember: bool) -> tuple[str, int | None]:
    """Open a session for a user.

    Args:
        session: Open database session.
        user_id: The user signing in.
        remember: 'Lembrar de mim': a persistent cookie with the longer lifetime.

    Returns:
        The raw token (for the cookie only) and the cookie max-age (None: browser session).
    """
    settings = get_settings()
    lifetime = timedelta(days=settings.remember_days) if remember else timedelta(hours=settings.session_hours)
    token = new_token()
    session.add(
        AuthSession(user_id=user_id, token_hash=token_digest(token), expires_at=utcnow() + lifetime, remember=remember)
    )
    return token, int(lifetime.total_seconds()) if remember else None


@dataclass(frozen=True)
class SessionFacts:
    """What the database says about one session token: enough to decide, without another query, whether it is live.

    Attributes:
        session_id: The session row.
        expires_at: Its absolute end.
        last_seen_at: Its last recorded use.
        remember: 'Lembrar de mim' (the longer idle limit).
        user: Its user, or None when the account is inactive or deleted.
    """

    session_id: int
    expires_at: datetime
    last_seen_at: datetime
    remember: bool
    user: CurrentUser | None

    def live(self, now: datetime) -> bool:
        """Whether the session may be used at `now`: not past its absolute or idle expiry, and its account active."""
        return self.user is not None and self.expires_at > now and self.last_seen_at > now - idle_limit(self.remember)

    def needs_touch(self, now: datetime) -> bool:
        """Whether a use at `now` must be recorded (TOUCH_INTERVAL has passed since the last one)."""
        return self.last_seen_at <= now - TOUCH_INTERVAL


def well_formed(token: str | None) -> bool:
    """Whether `token` could be a session token at all (present and of sane length)."""
    return bool(token) and len(token) <= 200  # type: ignore[arg-type]


_FACTS = (
    AuthSession.id,
    AuthSession.expires_at,
    AuthSession.last_seen_at,
    AuthSession.remember,
    User.id,
    User.role,
    User.email,
    User.is_active,
    User.deleted_at,
    Profile.nome,
)


def lookup(db: Session | Connection, digest: str) -> SessionFacts | None:
    """The facts of the session whose token hashes to `digest`, or None when there is none (one query).

    Args:
        db: Open database session, or a connection.
        digest: `token_digest` of the raw token.

    Returns:
        The session's facts, or None.
    """
    connection = db.connection() if isinstance(db, Session) else db
    row = connection.execute(
        select(*_FACTS)
        .join(User, User.id == AuthSession.user_id)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .where(AuthSession.token_hash == digest)
    ).first()
    return _facts(tuple(row)) if row is not None else None


def lookup_with_version(connection: Connection, digest: str) -> tuple[str | None, SessionFacts | None]:
    """The session version token (services/accounts/session_version.py) and `lookup`'s facts, in one statement.

    For a token the cache has not seen: the token and the facts come from one snapshot, and the
    first event of a tab costs one query, not two. Call it on a fresh connection (on PostgreSQL a
    transaction that already wrote would read a token its own writes have not moved yet).

    Args:
        connection: A connection that has not written.
        digest: `token_digest` of the raw token.

    Returns:
        (the version token or None when its row is missing, the facts or None).
    """
    version = SessionVersion.__table__
    row = connection.execute(
        select(version.c.token, *_FACTS)
        .select_from(version)
        .join(AuthSession, AuthSession.token_hash == digest, isouter=True)
        .join(User, User.id == AuthSession.user_id, isouter=True)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .where(version.c.id == 1)
    ).first()
    if row is None:
        return None, lookup(connection, digest)
    return row[0], _facts(tuple(row[1:])) if row[1] is not None else None


def _facts(row: tuple) -> SessionFacts:
    """A `SessionFacts` from the columns of `_FACTS`."""
    session_id, expires_at, last_seen_at, remember, user_id, role, email, is_active, deleted_at, nome = row
    active = is_active and deleted_at is None
    user = CurrentUser(id=user_id, role=role, email=email, name=nome or "") if active else None
    return SessionFacts(session_id, expires_at, last_seen_at, bool(remember), user)


def admit(facts: SessionFacts | None, now: datetime, touch: Toucher) -> CurrentUser | None:
    """The user of a looked-up session if it is live at `now`, recording the use when TOUCH_INTERVAL has passed.

    Args:
        facts: From `lookup` (None: no such session).
        now: The time of the use.
        touch: Records a use (the session's id, now).

    Returns:
        The caller, or None.
    """
    if facts is None or not facts.live(now):
        return None
    if facts.needs_touch(now):
        touch(facts.session_id, now)
    return facts.user


def resolve(session: Session, token: str | None, touch: Toucher | None = None) -> CurrentUser | None:
    """Return the user of a live session token, or None for a missing, unknown or expired one.

    Event handlers use services.accounts.session_cache.who, which answers the same from a cache while the
    session version token holds.

    Args:
        session: Open database session.
        token: The raw session token from the cookie.
        touch: Records that the session was used (its id, now) when TOUCH_INTERVAL has passed; by
            default an UPDATE in `session`. `touch_soon` writes it from a background thread, so
            reading who calls never waits for the database's write lock.

    Returns:
        The caller, or None.
    """
    if not well_formed(token):
        return None
    facts = lookup(session, token_digest(token))  # type: ignore[arg-type]
    return admit(facts, utcnow(), touch or partial(_touch, session))


def idle_limit(remember: bool) -> timedelta:
    """How long a session may go unused: minutes for a browser session, days for 'Lembrar de mim'."""
    settings = get_settings()
    if remember:
        return timedelta(days=settings.remember_idle_days)
    return timedelta(minutes=settings.session_idle_minutes)


def _touch(session: Session, session_id: int, now: datetime) -> None:
    """Record that a session was used now (one UPDATE; concurrent touches are harmless)."""
    session.exec(
        update(AuthSession)
        .where(AuthSession.id == session_id, AuthSession.last_seen_at <= now - TOUCH_INTERVAL)
        .values(last_seen_at=now)
    )


_touch_pending: set[int] = set()
_touch_lock = Lock()
_toucher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="session-touch")


def touch_soon(session_id: int, now: datetime) -> None:
    """Write a session's use from a background thread (at most one pending write per session).

    A failed write is logged and tried again at the session's next use. The idle limits are hours
    and days; a write that lands a moment late changes nothing.

    Args:
        session_id: The session used.
        now: When it was used.
    """
    with _touch_lock:
        if session_id in _touch_pending:
            return
        _touch_pending.add(session_id)
    _toucher.submit(_touch_now, session_id, now)


def _touch_now(session_id: int, now: datetime) -> None:
    """The background half of `touch_soon`."""
    try:
        with session_scope() as db:
            _touch(db, session_id, now)
    except Exception:
        logger.exception("recording a session's use failed")
    finally:
        with _touch_lock:
            _touch_pending.discard(session_id)


def touches_done() -> None:
    """Wait until every `touch_soon` write submitted so far has finished (tests)."""
    _toucher.submit(lambda: None).result()


def revoke(session: Session, token: str | None) -> None:
    """End the session of a token (logout)."""
    if token:
        session.exec(delete(AuthSession).where(AuthSession.token_hash == token_digest(token)))


def revoke_all(session: Session, user_id: int) -> None:
    """End every session of a user (password reset or change, account deletion)."""
    session.exec(delete(AuthSession).where(AuthSession.user_id == user_id))


def revoke_others(session: Session, user_id: int, keep_token: str | None) -> int:
    """End every session of a user but the one of `keep_token` (a password change); returns how many ended."""
    query = delete(AuthSession).where(AuthSession.user_id == user_id)
    if keep_token:
        query = query.where(AuthSession.token_hash != token_digest(keep_token))
    return session.exec(query).rowcount or 0


def purge_expired(session: Session) -> int:
    """Delete sessions past their absolute or idle expiry; returns how many were removed."""
    now = utcnow()
    idle = or_(
        and_(AuthSession.remember.is_(False), AuthSession.last_seen_at <= now - idle_limit(False)),
        and_(AuthSession.remember.is_(True), AuthSession.last_seen_at <= now - idle_limit(True)),
    )
    result = session.exec(delete(AuthSession).where(or_(AuthSession.expires_at <= now, idle)))
    return result.rowcount or 0
