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
from sqlmodel import Session, delete, select, update

from core.db import session_scope
from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, Profile, User

TOUCH_INTERVAL = timedelta(minutes=1)
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


def resolve(
    session: Session, token: str | None, touch: Callable[[int, datetime], None] | None = None
) -> CurrentUser | None:
    """Return the user of a live session token, or None for a missing, unknown or expired one.

    Args:
        session: Open database session.
        token: The raw session token from the cookie.
        touch: Records that the session was used (its id, now) when TOUCH_INTERVAL has passed; by
            default an UPDATE in `session`. Event handlers pass `touch_soon`, which writes it from
            a background thread, so reading who calls never waits for the database's write lock.

    Returns:
        The caller, or None.
    """
    if not token or len(token) > 200:
        return None
    row = session.exec(
        select(
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
        .join(User, User.id == AuthSession.user_id)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .where(AuthSession.token_hash == token_digest(token))
    ).first()
    if row is None:
        return None
    session_id, expires_at, last_seen_at, remember, user_id, role, email, is_active, deleted_at, nome = row
    now = utcnow()
    if expires_at <= now or last_seen_at <= now - idle_limit(remember):
        return None
    if not is_active or deleted_at is not None:
        return None
    if last_seen_at <= now - TOUCH_INTERVAL:
        (touch or partial(_touch, session))(session_id, now)
    return CurrentUser(id=user_id, role=role, email=email, name=nome or "")


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
