"""Login throttling per account and per client address, kept in the database (shared by workers)."""

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from core.settings import get_settings
from core.types import utcnow
from models import LoginAttempt
from services.errors import ServiceError

THROTTLED = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."


def check(session: Session, email: str, address: str) -> None:
    """Refuse a login attempt when the account or the address failed too often recently.

    Raises:
        ServiceError: With THROTTLED when over the limit.
    """
    settings = get_settings()
    since = utcnow() - timedelta(minutes=settings.login_window_minutes)
    by_account = _failures(session, LoginAttempt.email == email, since)
    by_address = _failures(session, LoginAttempt.address == address, since)
    if by_account >= settings.login_max_failures or by_address >= settings.login_max_failures_per_address:
        raise ServiceError(THROTTLED)


def _failures(session: Session, condition, since) -> int:
    return session.exec(
        select(func.count())
        .select_from(LoginAttempt)
        .where(condition, LoginAttempt.succeeded.is_(False), LoginAttempt.created_at > since)
    ).one()


def record_failure(session: Session, email: str, address: str) -> None:
    """Remember a failed attempt in its own transaction, so the refusal that follows keeps it."""
    with Session(session.get_bind()) as own:
        own.add(LoginAttempt(email=email, address=address[:64], succeeded=False))
        own.commit()


def record_success(session: Session, email: str, address: str) -> None:
    """Remember a successful attempt (kept for the account's history)."""
    session.add(LoginAttempt(email=email, address=address[:64], succeeded=True))
