"""Shift confirmations and reminders by WhatsApp, opt-in (docs/product/reach.md "WhatsApp"): the numbers, the queue, the sender.

- `enqueue` is called by services/reach/notifications.py `notify` in the notice's transaction for
  the kinds of CHANNEL_KINDS, only for a confirmed number not stopped: one row in `whatsapp_messages`.
- `send_due` claims due rows as services/reach/push_sending.py does (a conditional UPDATE with a
  lease), sends each as a Cloud API template message (language pt_BR, the notice as the body
  parameter, the page as the URL button's suffix), keeps the API's message id, retries server
  errors with backoff and marks client errors failed at once; the person's settings then say 'Não
  conseguimos enviar pelo WhatsApp' until a message gets through.
- `export` and `delete_all` are the channel's part of 'Baixar meus dados' and of account deletion.

Confirming a number and 'Parar' are services/reach/whatsapp_number.py; the webhook is
services/reach/whatsapp_webhook.py. Without a token and a phone number id in settings the channel
does not exist: the settings section does not appear, nothing is queued and the webhook answers 404.
"""

import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

import requests
from sqlalchemy import bindparam, delete, insert, literal, select, update
from sqlmodel import Session

from core.db import session_scope
from core.formatting import date_time
from core.sender import Sender, http_session
from core.settings import get_settings
from core.types import utcnow
from models import NotificationType, WhatsAppContact, WhatsAppMessage
from services.common.errors import ValidationFailed

logger = logging.getLogger(__name__)

PHONE_INVALID = "Informe um celular com DDD, por exemplo (11) 98765-4321."

CHANNEL_KINDS = frozenset({NotificationType.SHIFT, NotificationType.APPLICATION_ACCEPTED})
LEASE = timedelta(minutes=2)
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))
CONCURRENCY = 8
TIMEOUT_SECONDS = 10
LANGUAGE = "pt_BR"

PENDING, SENT, DELIVERED, READ, FAILED = "pendente", "enviada", "entregue", "lida", "falhou"
NON_DIGITS = re.compile(r"\D+")


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


def normalize_phone(raw: object) -> str:
    """A Brazilian mobile number as E.164 digits without '+' ('5511987654321'); ValidationFailed otherwise."""
    digits = NON_DIGITS.sub("", raw) if isinstance(raw, str) and len(raw) <= 40 else ""
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


def queue_message(
    db: Session, user_id: int, phone: str, template: str, params: list[str], link: str, now: datetime
) -> None:
    """Queue one template message to `phone` (the confirmation code), woken after the caller's commit."""
    db.add(
        WhatsAppMessage(
            user_id=user_id, phone=phone, template=template, params=params, link=link, status=PENDING, due_at=now
        )
    )
    sender.kick_after_commit(db)


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


def fail_contact(db: Session, user_id: int, error: str, now: datetime) -> None:
    """Note on the person's number that a message failed: the settings say so until one gets through."""
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
                fail_contact(db, row.user_id, error, now)
                report.failed += 1
                logger.warning("whatsapp message %s refused: %s", row.id, error)
            elif row.attempts > len(RETRY_DELAYS):
                db.execute(
                    update(WhatsAppMessage).where(WhatsAppMessage.id == row.id).values(status=FAILED, error=error[:200])
                )
                fail_contact(db, row.user_id, error, now)
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
