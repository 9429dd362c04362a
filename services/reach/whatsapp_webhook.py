"""The WhatsApp Cloud API's webhook: setting it up, checking its signature, and what it reports.

The webhook (app/api/whatsapp_webhook.py) is verified by its HMAC signature; `handle_webhook`
records delivery statuses (a failure shows in the person's settings, a delivery clears it) and
obeys 'Parar' sent by the person (services/reach/whatsapp_number.py `stop`).
"""

import hashlib
import hmac
from datetime import datetime

from sqlalchemy import select, update
from sqlmodel import Session

from core.settings import get_settings
from core.types import utcnow
from models import WhatsAppContact, WhatsAppMessage
from services.reach.whatsapp import DELIVERED, FAILED, READ, SENT, fail_contact
from services.reach.whatsapp_number import stop

STOP_WORDS = frozenset({"parar", "stop", "sair", "cancelar"})


def verify_subscription(mode: object, token: object, challenge: object) -> str | None:
    """The challenge to echo when Meta sets up the webhook with our verify token; None otherwise."""
    expected = get_settings().whatsapp_verify_token or ""
    if mode != "subscribe" or not expected or not isinstance(token, str) or not isinstance(challenge, str):
        return None
    return challenge if hmac.compare_digest(token.encode(), expected.encode()) else None


def signature_ok(body: bytes, header: str | None) -> bool:
    """Whether `X-Hub-Signature-256` is the HMAC-SHA256 of the raw body with our app secret."""
    secret = get_settings().whatsapp_app_secret
    if not secret or not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(header[len("sha256=") :], expected)


_STATUS = {"sent": SENT, "delivered": DELIVERED, "read": READ, "failed": FAILED}


def _apply_status(db: Session, item: dict, now: datetime) -> int:
    wamid, state = item.get("id"), _STATUS.get(str(item.get("status")))
    if not isinstance(wamid, str) or not wamid or state is None:
        return 0
    message = db.execute(select(WhatsAppMessage).where(WhatsAppMessage.wamid == wamid)).scalar_one_or_none()
    if message is None:
        return 0
    message.status = state
    if state == FAILED:
        errors = item.get("errors")
        first = errors[0] if isinstance(errors, list) and errors and isinstance(errors[0], dict) else {}
        message.error = str(first.get("title") or first.get("message") or "falha na entrega")[:200]
        fail_contact(db, message.user_id, message.error, now)
    elif state in (DELIVERED, READ):
        db.execute(
            update(WhatsAppContact)
            .where(WhatsAppContact.user_id == message.user_id)
            .values(last_error="", last_error_at=None)
        )
    db.add(message)
    return 1


def _inbound_text(item: dict) -> str:
    kind = item.get("type")
    if kind == "text" and isinstance(item.get("text"), dict):
        return str(item["text"].get("body", ""))
    if kind == "button" and isinstance(item.get("button"), dict):
        return str(item["button"].get("text", ""))
    return ""


def _apply_inbound(db: Session, item: dict, now: datetime) -> int:
    phone = item.get("from")
    if not isinstance(phone, str) or _inbound_text(item).strip().casefold() not in STOP_WORDS:
        return 0
    stopped = 0
    contacts = db.execute(
        select(WhatsAppContact.user_id).where(WhatsAppContact.phone == phone, WhatsAppContact.stopped_at.is_(None))
    ).scalars()
    for user_id in list(contacts):
        stop(db, user_id, now)
        stopped += 1
    return stopped


def handle_webhook(db: Session, payload: object, now: datetime | None = None) -> int:
    """Apply a verified webhook: delivery statuses and 'Parar' from the person; returns the changes made."""
    now = now or utcnow()
    applied = 0
    entries = payload.get("entry") if isinstance(payload, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        changes = entry.get("changes") if isinstance(entry, dict) else None
        for change in changes if isinstance(changes, list) else []:
            value = change.get("value") if isinstance(change, dict) else None
            if not isinstance(value, dict):
                continue
            for item in value.get("statuses") or []:
                applied += _apply_status(db, item, now) if isinstance(item, dict) else 0
            for item in value.get("messages") or []:
                applied += _apply_inbound(db, item, now) if isinstance(item, dict) else 0
    return applied
