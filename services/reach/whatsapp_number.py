"""The person's WhatsApp number in Configurações: sending a code, confirming it, 'Parar', and where it stands.

`start` keeps the number typed in Configurações and sends it a 6-digit code as a template message
(only its SHA-256 is stored). Codes are limited per account (one a minute), per number
(WHATSAPP_CODES_PER_NUMBER_HOUR, whichever accounts ask) and in all (WHATSAPP_CODES_HOUR), in
`rate_events` rows shared by every worker (services/common/rate_limits.py); each limit answers the
same WAIT, and the per-number and global ones write a security-log line. `confirm` turns the
channel on and records the consent with its time (services/reach/consents.py); `stop` ('Parar' in
settings, or the word sent back in WhatsApp) turns it off and records the withdrawal.
"""

import hmac
import secrets
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import delete
from sqlmodel import Session

from core import audit
from core.formatting import short_date
from core.security import token_digest
from core.settings import get_settings
from core.types import utcnow
from models import WhatsAppContact, WhatsAppMessage
from services.common import rate_limits
from services.common.errors import NotAllowed, ValidationFailed
from services.reach import consents
from services.reach.whatsapp import (
    NON_DIGITS,
    PENDING,
    configured,
    format_phone,
    masked,
    normalize_phone,
    queue_message,
)

CODE_SENT = "Enviamos um código pelo WhatsApp para {phone}."
CODE_WRONG = "Código incorreto. Confira a mensagem e tente de novo."
CODE_EXPIRED = "O código expirou. Peça um novo."
TOO_MANY = "Muitas tentativas. Peça um novo código."
WAIT = "Aguarde um minuto para pedir outro código."
CONFIRMED = "WhatsApp confirmado. Você vai receber confirmações e lembretes de turno."
STOPPED = "Pronto. Você não recebe mais mensagens pelo WhatsApp."
SEND_FAILED = "Não conseguimos enviar pelo WhatsApp"
NOT_CONFIGURED = "O WhatsApp não está disponível no momento."
CODE_MINUTES = 10
CODE_ATTEMPTS = 5
RESEND_AFTER = timedelta(seconds=60)


class WhatsAppView(TypedDict):
    """The person's number as the settings show it."""

    phone: str
    state: str  # none, pending, active, stopped
    error: str
    since: str


def start(db: Session, user_id: int, raw_phone: object, now: datetime | None = None) -> str:
    """'Enviar código': keep the number (unconfirmed) and queue a code to it; returns the number as shown.

    Raises:
        NotAllowed: WhatsApp is not configured.
        ValidationFailed: Not a mobile number ('phone'); or ('code', always WAIT) a code was sent
            to this account less than a minute ago, the number had its codes for the hour, or all
            codes of the hour went out.
    """
    if not configured():
        raise NotAllowed(NOT_CONFIGURED)
    now = now or utcnow()
    phone = normalize_phone(raw_phone)
    contact = db.get(WhatsAppContact, user_id)
    if contact is not None and contact.code_sent_at is not None and now - contact.code_sent_at < RESEND_AFTER:
        raise ValidationFailed({"code": WAIT})
    _within_code_limits(db, user_id, phone, now)
    if contact is None:
        contact = WhatsAppContact(user_id=user_id, phone=phone)
    if contact.phone != phone or contact.stopped_at is not None:
        contact.confirmed_at = None
        contact.stopped_at = None
    code = f"{secrets.randbelow(1_000_000):06d}"
    contact.phone = phone
    contact.code_hash = token_digest(code)
    contact.code_sent_at = now
    contact.code_expires_at = now + timedelta(minutes=CODE_MINUTES)
    contact.code_attempts = 0
    db.add(contact)
    queue_message(db, user_id, phone, get_settings().whatsapp_template_code, [code], "", now)
    return format_phone(phone)


def _within_code_limits(db: Session, user_id: int, phone: str, now: datetime) -> None:
    """Count one more code for `phone` and for the hour, or refuse with WAIT (the per-account answer) and log it.

    The uses are recorded in the caller's transaction: a refusal rolls them back with it.
    """
    for kind, key in ((rate_limits.Kind.WHATSAPP_CODE_NUMBER, phone), (rate_limits.Kind.WHATSAPP_CODE_ALL, "all")):
        if not rate_limits.allow(db, kind, key, now):
            actor = audit.current_actor()
            audit.log_event(
                "whatsapp.code_limited",
                who=audit.user_ref(user_id),
                what=actor.handler or "whatsapp code",
                where=actor.where,
                outcome="denied",
                target=masked(phone),
                reason=f"{kind.value} limit",
            )
            raise ValidationFailed({"code": WAIT})


def confirm(db: Session, user_id: int, code: object, now: datetime | None = None) -> str | None:
    """'Confirmar': None when the code is right (the channel is on), else the message to show.

    A wrong code counts as an attempt and is kept in the caller's transaction (nothing is raised,
    so the caller commits it); after CODE_ATTEMPTS the code is cleared.
    """
    now = now or utcnow()
    contact = db.get(WhatsAppContact, user_id)
    if contact is None or not contact.code_hash or contact.code_expires_at is None:
        return CODE_EXPIRED
    if contact.code_expires_at <= now:
        contact.code_hash = ""
        db.add(contact)
        return CODE_EXPIRED
    if contact.code_attempts >= CODE_ATTEMPTS:
        contact.code_hash = ""
        db.add(contact)
        return TOO_MANY
    typed = NON_DIGITS.sub("", code) if isinstance(code, str) and len(code) <= 20 else ""
    if not hmac.compare_digest(token_digest(typed), contact.code_hash):
        contact.code_attempts += 1
        if contact.code_attempts >= CODE_ATTEMPTS:
            contact.code_hash = ""
        db.add(contact)
        return TOO_MANY if contact.code_attempts >= CODE_ATTEMPTS else CODE_WRONG
    contact.code_hash = ""
    contact.code_expires_at = None
    contact.confirmed_at = now
    contact.stopped_at = None
    contact.last_error = ""
    contact.last_error_at = None
    db.add(contact)
    consents.record(db, user_id, consents.WHATSAPP, granted=True, detail=masked(contact.phone))
    return None


def stop(db: Session, user_id: int, now: datetime | None = None) -> None:
    """'Parar': no more messages; what was waiting is dropped and the withdrawal recorded (idempotent)."""
    contact = db.get(WhatsAppContact, user_id)
    if contact is None or contact.stopped_at is not None:
        return
    was_on = contact.confirmed_at is not None
    contact.stopped_at = now or utcnow()
    contact.code_hash = ""
    db.add(contact)
    db.execute(delete(WhatsAppMessage).where(WhatsAppMessage.user_id == user_id, WhatsAppMessage.status == PENDING))
    if was_on:
        consents.record(db, user_id, consents.WHATSAPP, granted=False, detail=masked(contact.phone))


def status(db: Session, user_id: int) -> WhatsAppView:
    """Where the person's number stands, for the settings section."""
    contact = db.get(WhatsAppContact, user_id)
    if contact is None:
        return WhatsAppView(phone="", state="none", error="", since="")
    if contact.stopped_at is not None:
        state = "stopped"
    elif contact.confirmed_at is not None:
        state = "active"
    elif contact.code_hash:
        state = "pending"
    else:
        state = "none"
    error = f"{SEND_FAILED} ({contact.last_error})" if contact.last_error and state == "active" else ""
    since = short_date(contact.confirmed_at) if contact.confirmed_at is not None and state == "active" else ""
    return WhatsAppView(phone=format_phone(contact.phone), state=state, error=error, since=since)
