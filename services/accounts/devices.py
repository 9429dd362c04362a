"""Trusted devices: a browser that signed in to an account before is not locked out by strangers.

OWASP's "slow down online guessing attacks with device cookies": a successful login gives the
browser a random token in an HttpOnly cookie (only its SHA-256 is stored, in `trusted_devices`,
tied to the account). A later login from that browser to the same account skips the two lockouts a
stranger can trigger, the per-account one (failures from unknown browsers) and the per-address one
(a hotel's Wi-Fi, a carrier's NAT, the proxy), and is throttled by its own count of trusted
failures instead (services/common/throttle.py). A device token opens nothing by itself: the password is
still needed, and a token presented for another account is ignored.

Trust lasts DEVICE_TRUST_DAYS from the last successful login, and ends with a password reset (the
reset says someone else may know the password) and with the account's deletion.
"""

from datetime import timedelta

from sqlmodel import Session, delete, select

from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import TrustedDevice, User

TOKEN_SIZE = 200


def trusted_for(session: Session, token: str | None, email: str) -> TrustedDevice | None:
    """The unexpired device of `token` when it belongs to the live account of `email`, else None.

    Args:
        session: Open database session.
        token: The raw device cookie (None or anything a browser sent).
        email: The normalised e-mail typed in the login form.
    """
    if not isinstance(token, str) or not token or len(token) > TOKEN_SIZE:
        return None
    return session.exec(
        select(TrustedDevice)
        .join(User, User.id == TrustedDevice.user_id)
        .where(
            TrustedDevice.token_hash == token_digest(token),
            TrustedDevice.expires_at > utcnow(),
            User.email == email,
            User.deleted_at.is_(None),
        )
    ).first()


def remember(session: Session, user_id: int, device: TrustedDevice | None, presented: str | None) -> tuple[str, int]:
    """Trust the browser that just signed in: renew its device, or create one with a new token.

    Args:
        session: Open database session (the caller commits).
        user_id: The account signed in to.
        device: The browser's device for this account, when `presented` was one (`trusted_for`).
        presented: The raw device cookie the browser sent.

    Returns:
        The raw token to set in the cookie (the same one when renewed) and its max-age in seconds.
    """
    lifetime = timedelta(days=get_settings().device_trust_days)
    now = utcnow()
    if device is not None and presented:
        device.last_used_at = now
        device.expires_at = now + lifetime
        session.add(device)
        return presented, int(lifetime.total_seconds())
    session.exec(delete(TrustedDevice).where(TrustedDevice.user_id == user_id, TrustedDevice.expires_at <= now))
    token = new_token()
    session.add(
        TrustedDevice(user_id=user_id, token_hash=token_digest(token), last_used_at=now, expires_at=now + lifetime)
    )
    return token, int(lifetime.total_seconds())


def forget_all(session: Session, user_id: int) -> None:
    """End the trust of every browser of the account (password reset, deletion)."""
    session.exec(delete(TrustedDevice).where(TrustedDevice.user_id == user_id))


def of_user(session: Session, user_id: int) -> list[TrustedDevice]:
    """The account's trusted browsers, oldest first (for 'Baixar meus dados')."""
    return list(
        session.exec(
            select(TrustedDevice).where(TrustedDevice.user_id == user_id).order_by(TrustedDevice.created_at)
        ).all()
    )
