"""Limits on what a visitor can repeat without signing in: registrations, recovery requests, account e-mails.

Each use is a `rate_events` row (kind, SHA-256 of the key, time); a use is allowed while fewer than
the limit were recorded in the last hour, and is then recorded in the caller's transaction. The
database is shared by every worker, so the limits hold across them. Simultaneous uses of one key
are counted one after another: on PostgreSQL each takes a transaction-scoped advisory lock of its
kind and key before counting (held until the caller's transaction ends), and SQLite lets one writer
at a time. Without that, twelve parallel requests each counted the same rows and all passed.

| Kind | Key | Limit (setting, per hour) | When over |
|---|---|---|---|
| registration | client address | REGISTRATIONS_PER_ADDRESS_HOUR (20) | the form says TOO_MANY_REQUESTS |
| recovery | client address | RECOVERIES_PER_ADDRESS_HOUR (20) | the form says TOO_MANY_REQUESTS |
| account-mail | recipient e-mail | ACCOUNT_MAILS_PER_RECIPIENT_HOUR (3) | the e-mail is not sent (logged) |
| whatsapp-code-number | the number a code goes to | WHATSAPP_CODES_PER_NUMBER_HOUR (3) | 'Enviar código' says whatsapp.WAIT (logged) |
| whatsapp-code-all | every code ('all') | WHATSAPP_CODES_HOUR (200) | 'Enviar código' says whatsapp.WAIT (logged) |
| fiscal-account | freelancer's user id | FISCAL_SAVES_PER_ACCOUNT_HOUR (5) | 'Dados fiscais' says payouts.SAVES_THROTTLED |
| fiscal-address | client address | FISCAL_SAVES_PER_ADDRESS_HOUR (20) | 'Dados fiscais' says payouts.SAVES_THROTTLED |

The first two are keyed on the address, never on the e-mail typed, so the answer is the same
whether or not the e-mail has an account; the third is decided after the answer.
"""

import hashlib
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import func, insert, select
from sqlmodel import Session

from core.settings import get_settings
from core.types import utcnow
from models import RateEvent

TOO_MANY_REQUESTS = "Muitas solicitações a partir desta conexão. Aguarde uma hora e tente novamente."
WINDOW = timedelta(hours=1)


class Kind(StrEnum):
    """What is limited."""

    REGISTRATION = "registration"
    RECOVERY = "recovery"
    ACCOUNT_MAIL = "account-mail"
    WHATSAPP_CODE_NUMBER = "whatsapp-code-number"
    WHATSAPP_CODE_ALL = "whatsapp-code-all"
    FISCAL_SAVE_ACCOUNT = "fiscal-account"
    FISCAL_SAVE_ADDRESS = "fiscal-address"


def limit_of(kind: Kind) -> int:
    """The hourly limit of `kind`, from the settings."""
    settings = get_settings()
    return {
        Kind.REGISTRATION: settings.registrations_per_address_hour,
        Kind.RECOVERY: settings.recoveries_per_address_hour,
        Kind.ACCOUNT_MAIL: settings.account_mails_per_recipient_hour,
        Kind.WHATSAPP_CODE_NUMBER: settings.whatsapp_codes_per_number_hour,
        Kind.WHATSAPP_CODE_ALL: settings.whatsapp_codes_hour,
        Kind.FISCAL_SAVE_ACCOUNT: settings.fiscal_saves_per_account_hour,
        Kind.FISCAL_SAVE_ADDRESS: settings.fiscal_saves_per_address_hour,
    }[kind]


def _digest(key: str) -> str:
    return hashlib.sha256(key.strip().lower().encode()).hexdigest()


def _lock_id(kind: Kind, digest: str) -> int:
    """The signed 64-bit advisory-lock id of one kind and key."""
    return int.from_bytes(hashlib.sha256(f"rate:{kind.value}:{digest}".encode()).digest()[:8], "big", signed=True)


def allow(session: Session, kind: Kind, key: str, now: datetime | None = None) -> bool:
    """Record one use of `kind` for `key` and return True, or return False when the hour's limit is reached.

    Args:
        session: Open database session (the caller commits; a rollback forgets the use).
        kind: What is being done.
        key: For whom: a client address or an e-mail (stored only as its SHA-256).
        now: The time of the use (the clock when None).
    """
    digest = _digest(key)
    table = RateEvent.__table__
    now = now or utcnow()
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(_lock_id(kind, digest))))
    mine = (table.c.kind == kind.value, table.c.key_hash == digest)
    session.execute(table.delete().where(*mine, table.c.created_at <= now - WINDOW))  # keeps each key's rows few
    used = session.execute(
        select(func.count()).select_from(table).where(*mine, table.c.created_at > now - WINDOW)
    ).scalar_one()
    if used >= limit_of(kind):
        return False
    session.execute(insert(table).values(kind=kind.value, key_hash=digest, created_at=now))
    return True
