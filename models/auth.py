"""Server-side sessions, single-use e-mail tokens and login attempts."""

from datetime import datetime
from enum import StrEnum

from sqlmodel import Field, Index, SQLModel

from core.types import UTCDateTime, utcnow
from models.base import created_at_field, optional_datetime_field


class AuthSession(SQLModel, table=True):
    """A signed-in browser; only the SHA-256 of its random token is stored.

    `expires_at` is the absolute end (12 hours, or 30 days with 'Lembrar de mim'); `last_seen_at`
    is when the session was last used (refreshed at most once a minute), for the idle expiry.
    """

    __tablename__ = "auth_sessions"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = created_at_field()
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    remember: bool = False


class SessionVersion(SQLModel, table=True):
    """One row whose token changes with every write that can change who a session token belongs to.

    Database triggers (alembic revision 0008, services/accounts/session_version.py) replace the token when a
    session ends or changes, and when a user's role, e-mail, activity or shown name changes; the app
    only reads it, to know its cache of session lookups is still right.
    """

    __tablename__ = "session_version"

    id: int = Field(default=1, primary_key=True)
    token: str = Field(max_length=40)


class TokenPurpose(StrEnum):
    """What an e-mailed token is good for."""

    CONFIRM_EMAIL = "confirm_email"
    RESET_PASSWORD = "reset_password"


class EmailToken(SQLModel, table=True):
    """A single-use token sent by e-mail (confirmation or password reset)."""

    __tablename__ = "email_tokens"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    purpose: str = Field(max_length=20)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = created_at_field()
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    used_at: datetime | None = optional_datetime_field()


class TrustedDevice(SQLModel, table=True):
    """A browser that signed in to the account before (services/accounts/devices.py); only its token's SHA-256 is kept.

    Its cookie exempts that browser from the lockouts strangers can cause (per account from
    unknown browsers, per address); it grants no access by itself.
    """

    __tablename__ = "trusted_devices"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = created_at_field()
    last_used_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class LoginAttempt(SQLModel, table=True):
    """One login attempt, kept for throttling per account and per client address.

    `trusted` marks a password typed by a browser that already holds the account's trust (a
    trusted-device cookie, or a signed-in session): those failures count apart from strangers'.
    """

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_email_created", "email", "created_at"),
        Index("ix_login_attempts_address_created", "address", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254)
    address: str = Field(max_length=64)
    succeeded: bool = False
    trusted: bool = False
    created_at: datetime = created_at_field()


class RateEvent(SQLModel, table=True):
    """One use of a rate-limited action (services/common/rate_limits.py): what, for whom (a SHA-256), when."""

    __tablename__ = "rate_events"
    __table_args__ = (Index("ix_rate_events_kind_key_created", "kind", "key_hash", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=30)
    key_hash: str = Field(max_length=64)
    created_at: datetime = created_at_field()


class OutboxEmail(SQLModel, table=True):
    """An e-mail kept locally when no SMTP server is configured (listed at /dev/mailbox)."""

    __tablename__ = "outbox_emails"

    id: int | None = Field(default=None, primary_key=True)
    to_email: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=200)
    body: str
    created_at: datetime = created_at_field()
