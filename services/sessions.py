"""Server-side login sessions: random tokens, stored hashed, expiring, revocable."""

from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, delete, select

from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, Profile, User


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
    if auth.expires_at <= utcnow() or not user.is_active or user.deleted_at is not None:
        return None
    return CurrentUser(id=user.id, role=user.role, email=user.email, name=profile.nome if profile else "")


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
    """Delete expired sessions; returns how many were removed."""
    result = session.exec(delete(AuthSession).where(AuthSession.expires_at <= utcnow()))
    return result.rowcount or 0
