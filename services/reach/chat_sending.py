"""Sending a message in a conversation: the checks, the one writer of messages, and the recipient's notice.

A send checks in one statement that the caller takes part and the other participant still has an
account, writes the message and moves the chat's last activity and the sender's read marker in two
prebuilt statements (`post`), and tells the recipient once per conversation until they read it.
Every new message pings both participants (core.signals), which the realtime layer turns into live
updates once the transaction commits.
"""

import re
from datetime import datetime

from sqlalchemy import Row, bindparam, exists, insert
from sqlmodel import Session, case, or_, select, update

from core import routes, signals
from core.formatting import clock
from core.types import utcnow
from models import Application, Chat, Job, Message, Notification, NotificationType, Profile, Role, User
from services.common.errors import NotAllowed, ServiceError
from services.common.validation import visible_length
from services.reach import notifications, push
from services.reach.chat_read_marks import PARTICIPANT, ChatRow, marker_field
from services.reach.chats import (
    CANNOT_SEND,
    DEFAULT_CLIENT_NAME,
    DEFAULT_FREELANCER_NAME,
    ChatMessage,
    newer_in,
    other_user_id,
    parse_chat_id,
)

MESSAGE_BLANK = "Digite uma mensagem antes de enviar."
MESSAGE_MAX = 4000
MESSAGE_TOO_LONG = f"A mensagem deve ter no máximo {MESSAGE_MAX:,} caracteres.".replace(",", ".")

_CHATS = Chat.__table__
_MESSAGES = Message.__table__


def _profiles(session: Session, user_ids: set[int]) -> dict[int, Profile]:
    if not user_ids:
        return {}
    rows = session.exec(select(Profile).where(Profile.user_id.in_(user_ids))).all()
    return {p.user_id: p for p in rows}


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # and lone surrogates
_LINE_BREAK = re.compile(r"\r\n?")


def clean_message(value: object) -> str:
    """The text of a message to send: control characters dropped, surrounding blanks trimmed.

    Raises:
        ServiceError: MESSAGE_BLANK for non-text input or text with nothing visible (only spaces or
            invisible characters, services/common/validation.py `visible_length`), MESSAGE_TOO_LONG above MESSAGE_MAX.
    """
    # Control characters first ('\r\x1f\n' must not become a '\r\n' that a second pass would fold),
    # then every line break (CRLF, or a lone CR as in '\r\r\n') becomes one '\n': cleaning is stable.
    text = _LINE_BREAK.sub("\n", _CONTROL.sub("", value)).strip() if isinstance(value, str) else ""
    if not visible_length(text, 1):
        raise ServiceError(MESSAGE_BLANK)
    if len(text) > MESSAGE_MAX:
        raise ServiceError(MESSAGE_TOO_LONG)
    return text


def post(session: Session, chat: Chat | Row, sender_id: int, content: str) -> tuple[int, datetime]:
    """Store a message from a participant the caller has checked, and ping both participants.

    The one writer of messages: two prebuilt statements (the insert, and one UPDATE moving the
    chat's last activity and the sender's read marker forward), skipping the ORM's unit of work as
    an apply does. `chat` is the ORM row or a `_SEND_CHECK` row; an ORM row is not refreshed.

    Returns:
        The message's id and the time it was sent.
    """
    sent_at = utcnow()
    message_id = session.execute(
        _INSERT_MESSAGE, {"chat_id": chat.id, "sender_id": sender_id, "content": content, "created_at": sent_at}
    ).scalar_one()
    field = marker_field(chat, sender_id)
    session.execute(_TOUCH_FOR_SENDER[field], {"chat": chat.id, "at": sent_at})
    if isinstance(chat, Chat):  # the UPDATE bypassed the ORM: its next read of these columns reloads them
        session.expire(chat, ["updated_at", field])
    signals.ping(session, chat.client_id, chat.id)
    signals.ping(session, chat.freelancer_id, chat.id)
    return message_id, sent_at


def _notify_message(session: Session, chat: Row, sender_id: int, job_title: str) -> None:
    """Tell the recipient, once per conversation until they read it, that a message arrived."""
    recipient = other_user_id(chat, sender_id)
    target = routes.chat_target(Role.CLIENT if chat.client_id == recipient else Role.FREELANCER)
    sender = _profiles(session, {sender_id}).get(sender_id)
    default = DEFAULT_CLIENT_NAME if chat.client_id == sender_id else DEFAULT_FREELANCER_NAME
    text = f'Nova mensagem de {(sender.nome if sender else "") or default} sobre a vaga "{job_title}"'[:500]
    pending = session.exec(
        select(Notification).where(
            Notification.user_id == recipient,
            Notification.type == NotificationType.MESSAGE,
            Notification.read.is_(False),
            Notification.target_id == chat.id,
        )
    ).first()
    notice = pending or Notification(
        user_id=recipient, type=NotificationType.MESSAGE, target=target, target_id=chat.id, message=text
    )
    notice.message = text
    notice.created_at = utcnow()
    session.add(notice)
    signals.ping(session, recipient)
    found = notifications.recipient_row(session, recipient)
    if found is None:
        return
    email, prefs, has_device, _whatsapp = found  # a chat message is not a WhatsApp topic
    link = routes.notice_path(target, chat.id)
    if pending is None and notifications.wants_email(prefs, NotificationType.MESSAGE):
        notifications.email_copy(session, email, text, link)
    if has_device and notifications.wants_push(prefs, NotificationType.MESSAGE):  # every message (one per chat shown)
        push.enqueue(session, recipient, NotificationType.MESSAGE, text, notifications.absolute_url(link))


_USERS = User.__table__
_APPLICATIONS = Application.__table__
_JOBS = Job.__table__
_OTHER = case((_CHATS.c.client_id == bindparam("user_id"), _CHATS.c.freelancer_id), else_=_CHATS.c.client_id)


# What a send checks, in one statement: the caller takes part in the chat, the job's title, and
# whether the other participant deleted their account (their conversations stay readable but closed).
_SEND_CHECK = (
    select(
        _CHATS.c.id,
        _CHATS.c.client_id,
        _CHATS.c.freelancer_id,
        _CHATS.c.client_last_read_at,
        _CHATS.c.freelancer_last_read_at,
        _JOBS.c.titulo,
        exists().where(_USERS.c.id == _OTHER, _USERS.c.deleted_at.is_not(None)).label("other_removed"),
    )
    .select_from(_CHATS)
    .join(_APPLICATIONS, _APPLICATIONS.c.id == _CHATS.c.application_id)
    .join(_JOBS, _JOBS.c.id == _APPLICATIONS.c.vaga_id)
    .where(_CHATS.c.id == bindparam("chat_id"), PARTICIPANT)
)


_INSERT_MESSAGE = insert(_MESSAGES).returning(_MESSAGES.c.id)
_AT = bindparam("at", type_=_CHATS.c.updated_at.type)


def _no_earlier(column):
    """`column` moved forward to :at, never back (another session may have moved it further)."""
    return case((or_(column.is_(None), column < _AT), _AT), else_=column)


# A sent message moves its chat's last activity and the sender's read marker, in one UPDATE.
_TOUCH_FOR_SENDER = {
    field: update(_CHATS)
    .where(_CHATS.c.id == bindparam("chat"))
    .values({"updated_at": _no_earlier(_CHATS.c.updated_at), field: _no_earlier(_CHATS.c[field])})
    for field in ("client_last_read_at", "freelancer_last_read_at")
}


def _sendable(session: Session, user_id: int, chat_id: object) -> Row:
    """The `_SEND_CHECK` row of a chat `user_id` may write in.

    Raises:
        NotAllowed: CANNOT_SEND when the chat does not exist, the caller is not in it, or the other
            participant deleted their account.
    """
    chat_key = parse_chat_id(chat_id)
    row = session.execute(_SEND_CHECK, {"chat_id": chat_key, "user_id": user_id}).first() if chat_key else None
    if row is None or row.other_removed:
        raise NotAllowed(CANNOT_SEND)
    return row


def _post_as_sender(session: Session, chat: Row, sender_id: int, content: str) -> tuple[ChatMessage, ChatRow]:
    """`post` a message the caller may send (checked by `_sendable`).

    Returns:
        The message as the sender sees it, and the chat as it stands after the write.
    """
    message_id, sent_at = post(session, chat, sender_id, content)
    field = marker_field(chat, sender_id)
    after = ChatRow(*(getattr(chat, name) for name in ChatRow._fields))
    marker = getattr(after, field)
    if marker is None or marker < sent_at:  # as _TOUCH_FOR_SENDER just did in SQL
        after = after._replace(**{field: sent_at})
    return ChatMessage(id=message_id, content=content, time=clock(sent_at), mine=True), after


def _send(
    session: Session, user_id: int, chat_id: object, text: object, recipient_viewing: bool
) -> tuple[ChatMessage, ChatRow]:
    """`send`'s work; also returns the chat as it stands after the write."""
    content = clean_message(text)
    chat = _sendable(session, user_id, chat_id)
    message, after = _post_as_sender(session, chat, user_id, content)
    if not recipient_viewing:
        _notify_message(session, chat, user_id, chat.titulo)
    return message, after


def send(session: Session, user_id: int, chat_id: object, text: object, recipient_viewing: bool = False) -> ChatMessage:
    """Send a message in a conversation the caller takes part in.

    Args:
        session: Open database session (the caller commits; nothing is written on refusal).
        user_id: The acting user (from the server-side session).
        chat_id: The conversation (any value; validated here).
        text: The message (any value; validated here).
        recipient_viewing: Whether the other participant has this conversation open right now;
            when not, they get a message notification (one per conversation until read).

    Returns:
        The stored message as the sender sees it.

    Raises:
        NotAllowed: CANNOT_SEND when the chat does not exist, the caller is not in it, or the other
            participant deleted their account.
        ServiceError: MESSAGE_BLANK or MESSAGE_TOO_LONG.
    """
    return _send(session, user_id, chat_id, text, recipient_viewing)[0]


def send_and_catch_up(
    session: Session, user_id: int, chat_id: object, text: object, after_id: int, recipient_viewing: bool = False
) -> list[ChatMessage]:
    """Send as `send` does, then return what the sender's open conversation lacks.

    The conversation page shows the messages up to `after_id`; this returns every message after it
    (the one just sent and any that arrived meanwhile), oldest first, as `newer` would, without
    reading the chat a second time.

    Raises:
        NotAllowed: As `send`.
        ServiceError: As `send`.
    """
    _, chat = _send(session, user_id, chat_id, text, recipient_viewing)
    return newer_in(session, chat, user_id, after_id, mark_seen=True)
