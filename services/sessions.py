"""Server-side login sessions: random tokens, stored hashed, expiring, revocable.

A session ends at the first of: its absolute expiry (`expires_at`, fixed at login), its idle
expiry (no use for `idle_limit`), logout, a password change or reset, or the account's deletion.
Using a session refreshes `last_seen_at` at most once per TOUCH_INTERVAL, so a busy tab costs one
write a minute, not one per event.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_
from sqlmodel import Session, delete, select, update

from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, Profile, User

TOUCH_INTERVAL = timedelta(minutes=1)


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


def resolve(session: Session, token: str | None) -> CurrentUser | None:
    """Return the user of a live session token, or None for a missing, unknown or expired one."""
    if not token or len(token) > 200:
        return None
    row = session.exec(
        select(AuthSession, User, Profile)
        .join(User, User.id == AuthSession.user_id)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .where(AuthSession.token_hash == token_digest(token))
    ).first()
    if row is None:
        return None
    auth, user, profile = row
    now = utcnow()
    if auth.expires_at <= now or auth.last_seen_at <= now - idle_limit(auth.remember):
        return None
    if not user.is_active or user.deleted_at is not None:
        return None
    if auth.last_seen_at <= now - TOUCH_INTERVAL:
        _touch(session, auth.id, now)
    return CurrentUser(id=user.id, role=user.role, email=user.email, name=profile.nome if profile else "")


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
