"""Shift confirmations and reminders by WhatsApp, opt-in (docs/product.md "WhatsApp").

- `start` keeps the number typed in Configurações and sends it a 6-digit code as a template
  message (only its SHA-256 is stored). Codes are limited per account (one a minute), per number
  (WHATSAPP_CODES_PER_NUMBER_HOUR, whichever accounts ask) and in all (WHATSAPP_CODES_HOUR), in
  `rate_events` rows shared by every worker (services/common/rate_limits.py); each limit answers the same
  WAIT, and the per-number and global ones write a security-log line. `confirm` turns the channel on and records the consent
  with its time (services/reach/consents.py); `stop` ('Parar' in settings, or the word sent back in
  WhatsApp) turns it off and records the withdrawal.
- `enqueue` is called by services/notifications.notify in the notice's transaction for the kinds
  of CHANNEL_KINDS, only for a confirmed number not stopped: one row in `whatsapp_messages`.
- `send_due` claims due rows as services/reach/push_sending.py does (a conditional UPDATE with a lease), sends
  each as a Cloud API template message (language pt_BR, the notice as the body parameter, the
  page as the URL button's suffix), keeps the API's message id, retries server errors with
  backoff and marks client errors failed at once; the person's settings then say 'Não conseguimos
  enviar pelo WhatsApp' until a message gets through.
- The webhook (app/api/whatsapp_webhook.py) is verified by its HMAC signature; `handle_webhook`
  records delivery statuses and obeys 'Parar' sent by the person.

Without a token and a phone number id in settings the channel does not exist: the settings
section does not appear, nothing is queued and the webhook answers 404.
"""

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict

import requests
from sqlalchemy import bindparam, delete, insert, literal, select, update
from sqlmodel import Session

from core import audit
from core.db import session_scope
from core.formatting import date_time, short_date
from core.security import token_digest
from core.sender import Sender, http_session
from core.settings import get_settings
from core.types import utcnow
from models import NotificationType, WhatsAppContact, WhatsAppMessage
from services.common import rate_limits
from services.common.errors import NotAllowed, ValidationFailed
from services.reach import consents

logger = logging.getLogger(__name__)

PHONE_INVALID = "Informe um celular com DDD, por exemplo (11) 98765-4321."
CODE_SENT = "Enviamos um código pelo WhatsApp para {phone}."
CODE_WRONG = "Código incorreto. Confira a mensagem e tente de novo."
CODE_EXPIRED = "O código expirou. Peça um novo."
TOO_MANY = "Muitas tentativas. Peça um novo código."
WAIT = "Aguarde um minuto para pedir outro código."
CONFIRMED = "WhatsApp confirmado. Você vai receber confirmações e lembretes de turno."
STOPPED = "Pronto. Você não recebe mais mensagens pelo WhatsApp."
SEND_FAILED = "Não conseguimos enviar pelo WhatsApp"
NOT_CONFIGURED = "O WhatsApp não está disponível no momento."

CHANNEL_KINDS = frozenset({NotificationType.SHIFT, NotificationType.APPLICATION_ACCEPTED})
STOP_WORDS = frozenset({"parar", "stop", "sair", "cancelar"})
CODE_MINUTES = 10
CODE_ATTEMPTS = 5
RESEND_AFTER = timedelta(seconds=60)
LEASE = timedelta(minutes=2)
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))
CONCURRENCY = 8
TIMEOUT_SECONDS = 10
LANGUAGE = "pt_BR"

PENDING, SENT, DELIVERED, READ, FAILED = "pendente", "enviada", "entregue", "lida", "falhou"
_DIGITS = re.compile(r"\D+")


class WhatsAppView(TypedDict):
    """The person's number as the settings show it."""

    phone: str
    state: str  # none, pending, active, stopped
    error: str
    since: str


@dataclass
class SendReport:
    """What one `send_due` round did."""

    sent: int = 0
    retried: int = 0
    failed: int = 0


def configured() -> bool:
    """Whether the Cloud API's token and phone number id are set."""
    settings = get_settings()
    return bool(settings.whatsapp_token and settings.whatsapp_phone_number_id)


# --- numbers ----------------------------------------------------------------------------------


def normalize_phone(raw: object) -> str:
    """A Brazilian mobile number as E.164 digits without '+' ('5511987654321'); ValidationFailed otherwise."""
    digits = _DIGITS.sub("", raw) if isinstance(raw, str) and len(raw) <= 40 else ""
    if len(digits) == 13 and digits.startswith("55"):
        digits = digits[2:]
    if len(digits) != 11 or not 11 <= int(digits[:2]) <= 99 or digits[2] != "9":
        raise ValidationFailed({"phone": PHONE_INVALID})
    return "55" + digits


def format_phone(e164: str) -> str:
    """'(11) 98765-4321' for '5511987654321' ('' for none)."""
    if len(e164) != 13:
        return ""
    return f"({e164[2:4]}) {e164[4:9]}-{e164[9:]}"


def masked(e164: str) -> str:
    """'(11) 9****-4321': enough to recognise the number in a consent record or a log."""
    if len(e164) != 13:
        return ""
    return f"({e164[2:4]}) {e164[4]}****-{e164[9:]}"


# --- the person's number ----------------------------------------------------------------------


def _queue(db: Session, user_id: int, phone: str, template: str, params: list[str], link: str, now: datetime) -> None:
    db.add(
        WhatsAppMessage(
            user_id=user_id, phone=phone, template=template, params=params, link=link, status=PENDING, due_at=now
        )
    )
    sender.kick_after_commit(db)


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
    _queue(db, user_id, phone, get_settings().whatsapp_template_code, [code], "", now)
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
    typed = _DIGITS.sub("", code) if isinstance(code, str) and len(code) <= 20 else ""
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


# --- queue ------------------------------------------------------------------------------------

_CONTACTS = WhatsAppContact.__table__
_MESSAGES = WhatsAppMessage.__table__


def enqueue(db: Session, user_id: int, kind: str, message: str, link: str) -> None:
    """Queue a notice for the person's confirmed number, in the notice's transaction (one statement, no row without one)."""
    if kind not in CHANNEL_KINDS or not configured():
        return
    now = utcnow()
    rows = select(
        _CONTACTS.c.user_id,
        _CONTACTS.c.phone,
        literal(get_settings().whatsapp_template_shift),
        literal([message[:900]], _MESSAGES.c.params.type),
        literal(link[:300] if link.startswith("/") else ""),
        literal(PENDING),
        literal(0),
        literal(now, _MESSAGES.c.due_at.type),
        literal(""),
        literal(""),
        literal(now, _MESSAGES.c.created_at.type),
    ).where(_CONTACTS.c.user_id == user_id, _CONTACTS.c.confirmed_at.is_not(None), _CONTACTS.c.stopped_at.is_(None))
    columns = ["user_id", "phone", "template", "params", "link", "status", "attempts", "due_at", "wamid", "error"]
    queued = db.execute(insert(_MESSAGES).from_select([*columns, "created_at"], rows)).rowcount
    if queued:
        sender.kick_after_commit(db)


# --- sender -----------------------------------------------------------------------------------

_CLAIM = (
    update(_MESSAGES)
    .where(
        _MESSAGES.c.id.in_(
            select(_MESSAGES.c.id)
            .where(_MESSAGES.c.status == PENDING, _MESSAGES.c.due_at <= bindparam("now"))
            .order_by(_MESSAGES.c.due_at, _MESSAGES.c.id)
            .limit(bindparam("batch"))
            .scalar_subquery()
        ),
        _MESSAGES.c.status == PENDING,
        _MESSAGES.c.due_at <= bindparam("now"),  # checked again: another sender may have claimed it
    )
    .values(due_at=bindparam("lease"), attempts=_MESSAGES.c.attempts + 1)
    .returning(
        _MESSAGES.c.id,
        _MESSAGES.c.user_id,
        _MESSAGES.c.phone,
        _MESSAGES.c.template,
        _MESSAGES.c.params,
        _MESSAGES.c.link,
        _MESSAGES.c.attempts,
    )
)


def template_body(phone: str, template: str, params: list[str], link: str) -> dict:
    """The Cloud API's request for one template message (language pt_BR; the link as the URL button's suffix)."""
    components: list[dict] = [{"type": "body", "parameters": [{"type": "text", "text": p} for p in params]}]
    if link:
        components.append(
            {
                "type": "button",
                "sub_type": "url",
                "index": "0",
                "parameters": [{"type": "text", "text": link.lstrip("/")}],
            }
        )
    return {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": phone,
        "type": "template",
        "template": {"name": template, "language": {"code": LANGUAGE}, "components": components},
    }


def _post(row) -> tuple[int, str, str]:
    """Send one message: (HTTP status, the API's message id, the API's error text); status 0 without an answer."""
    settings = get_settings()
    url = f"{settings.whatsapp_api_base.rstrip('/')}/{settings.whatsapp_phone_number_id}/messages"
    try:
        answer = http_session().post(
            url,
            json=template_body(row.phone, row.template, list(row.params or []), row.link),
            headers={"Authorization": f"Bearer {settings.whatsapp_token}"},
            timeout=TIMEOUT_SECONDS,
        )
    except requests.RequestException as exc:
        return 0, "", type(exc).__name__
    try:
        data = answer.json()
    except ValueError:
        data = {}
    if 200 <= answer.status_code < 300:
        messages = data.get("messages") if isinstance(data, dict) else None
        wamid = messages[0].get("id", "") if isinstance(messages, list) and messages else ""
        return answer.status_code, str(wamid)[:200], ""
    error = data.get("error") if isinstance(data, dict) else None
    text = str(error.get("message", "")) if isinstance(error, dict) else ""
    return answer.status_code, "", (text or f"HTTP {answer.status_code}")[:200]


def _fail_contact(db: Session, user_id: int, error: str, now: datetime) -> None:
    db.execute(
        update(WhatsAppContact)
        .where(WhatsAppContact.user_id == user_id)
        .values(last_error=error[:200], last_error_at=now)
    )


def _settle(results: list, now: datetime, report: SendReport, scope: Callable) -> None:
    with scope() as db:
        for row, (code, wamid, error) in results:
            if 200 <= code < 300:
                db.execute(update(WhatsAppMessage).where(WhatsAppMessage.id == row.id).values(status=SENT, wamid=wamid))
                report.sent += 1
            elif 400 <= code < 500 and code != 429:
                db.execute(
                    update(WhatsAppMessage).where(WhatsAppMessage.id == row.id).values(status=FAILED, error=error[:200])
                )
                _fail_contact(db, row.user_id, error, now)
                report.failed += 1
                logger.warning("whatsapp message %s refused: %s", row.id, error)
            elif row.attempts > len(RETRY_DELAYS):
                db.execute(
                    update(WhatsAppMessage).where(WhatsAppMessage.id == row.id).values(status=FAILED, error=error[:200])
                )
                _fail_contact(db, row.user_id, error, now)
                report.failed += 1
                logger.warning("whatsapp message %s failed after %s attempts: %s", row.id, row.attempts, error)
            else:
                due = now + RETRY_DELAYS[row.attempts - 1]
                db.execute(update(WhatsAppMessage).where(WhatsAppMessage.id == row.id).values(due_at=due))
                report.retried += 1


def send_due(
    now: datetime | None = None, scope: Callable = session_scope, batch: int = 200, rounds: int = 20
) -> SendReport:
    """Send every due message (at most `rounds` batches); returns what happened."""
    report = SendReport()
    if not configured():
        return report
    pool: ThreadPoolExecutor | None = None
    try:
        for _ in range(rounds):
            moment = now or utcnow()
            with scope() as db:
                claimed = db.execute(_CLAIM, {"now": moment, "batch": batch, "lease": moment + LEASE}).all()
            if not claimed:
                break
            pool = pool or ThreadPoolExecutor(CONCURRENCY, thread_name_prefix="whatsapp")
            answers = list(pool.map(_post, claimed))
            _settle(list(zip(claimed, answers, strict=True)), moment, report, scope)
    finally:
        if pool is not None:
            pool.shutdown()
    return report


sender = Sender("whatsapp-sender", send_due)  # this process's sender thread (core/sender.py)


# --- webhook ----------------------------------------------------------------------------------


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
        _fail_contact(db, message.user_id, message.error, now)
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


# --- LGPD -------------------------------------------------------------------------------------


def export(db: Session, user_id: int) -> dict | None:
    """The person's number and last messages for 'Baixar meus dados' (never the code)."""
    contact = db.get(WhatsAppContact, user_id)
    if contact is None:
        return None
    messages = db.execute(
        select(WhatsAppMessage.template, WhatsAppMessage.status, WhatsAppMessage.created_at)
        .where(WhatsAppMessage.user_id == user_id)
        .order_by(WhatsAppMessage.id.desc())
        .limit(50)
    ).all()
    return {
        "numero": format_phone(contact.phone),
        "confirmado_em": date_time(contact.confirmed_at) if contact.confirmed_at else None,
        "parado_em": date_time(contact.stopped_at) if contact.stopped_at else None,
        "mensagens": [
            {"modelo": row.template, "situacao": row.status, "em": date_time(row.created_at)} for row in messages
        ],
    }


def delete_all(db: Session, user_id: int) -> None:
    """Forget the person's number and messages (account deletion)."""
    db.execute(delete(WhatsAppMessage).where(WhatsAppMessage.user_id == user_id))
    db.execute(delete(WhatsAppContact).where(WhatsAppContact.user_id == user_id))
