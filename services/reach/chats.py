"""Conversations between a company and a freelancer: the viewer's list, one conversation, sending.

A chat belongs to one accepted application; only its two participants may see it. Every lookup
filters by the acting user, so a stranger and a missing id get the same refusal. A conversation is
read in pages (the latest PAGE_SIZE messages, then older pages on demand, newer ones by id), so no
caller ever holds a whole history, and the list of conversations too (PAGE_SIZE_LIST per page,
latest activity first: every message moves its chat's `updated_at`). Every new message pings both
participants (core.signals), which the realtime layer turns into live updates once the transaction
commits.
"""

import re
from datetime import datetime
from typing import NamedTuple, TypedDict

from sqlalchemy import Row, bindparam, exists, insert
from sqlalchemy.orm import aliased
from sqlmodel import Session, case, func, or_, select, update

from core import routes, signals
from core.formatting import clock, initials, local, short_date
from core.ids import id_from_text
from core.types import utcnow
from models import Application, Chat, Job, Message, Notification, NotificationType, Profile, Role, User
from services.common import paging
from services.common.errors import NotAllowed, ServiceError
from services.common.validation import visible_length
from services.reach import notifications, push

CHAT_NOT_FOUND = "Chat não encontrado"
CANNOT_SEND = "Não é possível enviar mensagem."
MESSAGE_BLANK = "Digite uma mensagem antes de enviar."
MESSAGE_MAX = 4000
MESSAGE_TOO_LONG = f"A mensagem deve ter no máximo {MESSAGE_MAX:,} caracteres.".replace(",", ".")
PAGE_SIZE = 50
PAGE_SIZE_LIST = paging.DASHBOARD_PAGE_SIZE
NEWER_LIMIT = 200
PREVIEW_CHARS = 80
DEFAULT_CLIENT_NAME = "Cliente"
DEFAULT_FREELANCER_NAME = "Freelancer"


class ChatSummary(TypedDict):
    """One card of a conversation list."""

    id: int
    other_name: str
    other_initials: str
    other_photo: str
    job_title: str
    last_message: str
    last_time: str
    unread: int


class ChatMessage(TypedDict):
    """One message bubble."""

    id: int
    content: str
    time: str
    mine: bool


class ChatDetail(TypedDict):
    """A conversation the viewer takes part in, with its latest page of messages."""

    id: int
    other_id: int
    other_name: str
    other_initials: str
    other_photo: str
    job_title: str
    messages: list[ChatMessage]
    has_older: bool
    other_removed: bool  # the other participant deleted their account: readable, closed to new messages


class MessagePage(TypedDict):
    """Messages older than the ones shown, oldest first, and whether there are more before them."""

    messages: list[ChatMessage]
    has_older: bool


_CHATS = Chat.__table__
_MESSAGES = Message.__table__
_NOTICES = Notification.__table__


def _participant(user):
    """`user` takes part in the chat; `user` is an id or a bound parameter (prebuilt statements)."""
    return or_(_CHATS.c.client_id == user, _CHATS.c.freelancer_id == user)


def _unread(user) -> tuple:
    """A message of the chat is unread by `user`: another participant's, newer than `user`'s last visit.

    The one definition of 'unread': the per-chat counts of the list and the Mensagens badge both use it.
    """
    last_read = case((_CHATS.c.client_id == user, _CHATS.c.client_last_read_at), else_=_CHATS.c.freelancer_last_read_at)
    return (
        or_(_MESSAGES.c.sender_id.is_(None), _MESSAGES.c.sender_id != user),
        or_(last_read.is_(None), _MESSAGES.c.created_at > last_read),
    )


def _other_id(chat: Chat | Row, user_id: int) -> int:
    return chat.freelancer_id if chat.client_id == user_id else chat.client_id


def _other_name(chat: Chat, user_id: int, profile: Profile | None) -> str:
    """The freelancer's name for the company; the company's name ('Hotel Atlântico') for the freelancer."""
    if chat.client_id == user_id:
        return (profile.nome if profile else "") or DEFAULT_FREELANCER_NAME
    return (profile.empresa or profile.nome if profile else "") or DEFAULT_CLIENT_NAME


def _profiles(session: Session, user_ids: set[int]) -> dict[int, Profile]:
    if not user_ids:
        return {}
    rows = session.exec(select(Profile).where(Profile.user_id.in_(user_ids))).all()
    return {p.user_id: p for p in rows}


def _when(moment: datetime) -> str:
    """HH:mm for today (São Paulo time), dd/MM/yyyy for older activity."""
    return clock(moment) if local(moment).date() == local(utcnow()).date() else short_date(moment)


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1].rstrip() + "…"


def _unread_by_chat(session: Session, user_id: int, chat_ids: list[int]) -> dict[int, int]:
    """Messages from the other participant newer than the viewer's last visit, per chat."""
    if not chat_ids:
        return {}
    rows = session.exec(
        select(Message.chat_id, func.count())
        .join(Chat, Chat.id == Message.chat_id)
        .where(Message.chat_id.in_(chat_ids), _participant(user_id), *_unread(user_id))
        .group_by(Message.chat_id)
    ).all()
    return {chat_id: int(count) for chat_id, count in rows}


def _summary(
    user_id: int, chat: Chat, job_title: str, other_name: str | None, other_photo: str | None, last
) -> ChatSummary:
    """One card of the list; `last` is the last message's (content, created_at), or (None, None)."""
    content, sent_at = last
    default = DEFAULT_FREELANCER_NAME if chat.client_id == user_id else DEFAULT_CLIENT_NAME
    name = other_name or default
    activity = max(chat.updated_at, sent_at) if sent_at else chat.updated_at
    return ChatSummary(
        id=chat.id,
        other_name=name,
        other_initials=initials(name),
        other_photo=other_photo or "",
        job_title=job_title,
        last_message=_preview(content) if content is not None else "",
        last_time=_when(activity),
        unread=0,
    )


def _page_rows(session: Session, user_id: int, page: int) -> list[tuple]:
    """One page of the viewer's chats, latest activity first, with the job, the other person and the last message.

    The page is cut first (an index range of the participant's chats ordered by `updated_at`, which
    every new message moves), and only its rows are joined to their job, the other participant's
    profile and their last message (the highest message id of the chat, read from the
    (chat_id, id) index), so the cost does not grow with the number of chats or messages.
    """
    cut = (
        select(Chat)
        .where(_participant(user_id))
        .order_by(Chat.updated_at.desc(), Chat.id.desc())
        .offset(paging.offset(page, PAGE_SIZE_LIST))
        .limit(PAGE_SIZE_LIST)
        .subquery("page")
    )
    chat = aliased(Chat, cut)
    latest = aliased(Message)
    last_id = select(func.max(latest.id)).where(latest.chat_id == chat.id).scalar_subquery()
    other_id = case((chat.client_id == user_id, chat.freelancer_id), else_=chat.client_id)
    # as _other_name: the company's name (its person's when blank) for the freelancer
    company_name = func.coalesce(func.nullif(Profile.empresa, ""), Profile.nome)
    shown_name = case((chat.client_id == user_id, Profile.nome), else_=company_name)
    return session.exec(
        select(chat, Job.titulo, shown_name, Profile.foto_url, Message.content, Message.created_at)
        .join(Application, Application.id == chat.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == other_id, isouter=True)
        .join(Message, Message.id == last_id, isouter=True)
        .order_by(chat.updated_at.desc(), chat.id.desc())
    ).all()


def list_for(session: Session, user_id: int, page: object = 1) -> paging.Page[ChatSummary]:
    """One page (PAGE_SIZE_LIST) of the viewer's conversations, most recent activity first.

    Three statements whatever the number of chats or messages: the count, the page with its
    jobs, names and last messages, and the unread counts of that page.

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).
        page: The 1-based page wanted; clamped to the pages that exist.

    Returns:
        The page: one summary per chat (the other participant, the job, the last message and the
        unread count), the total and the number of pages.
    """
    total = session.exec(select(func.count()).select_from(Chat).where(_participant(user_id))).one()
    page, pages = paging.clamp(page, total, PAGE_SIZE_LIST)
    if not total:
        return paging.Page()
    summaries = [
        _summary(user_id, chat, title, name, photo, (content, sent_at))
        for chat, title, name, photo, content, sent_at in _page_rows(session, user_id, page)
    ]
    unread = _unread_by_chat(session, user_id, [summary["id"] for summary in summaries])
    for summary in summaries:
        summary["unread"] = unread.get(summary["id"], 0)
    return paging.Page(items=summaries, total=int(total), page=page, pages=pages)


def parse_chat_id(raw: object) -> int | None:
    """A chat id from a URL segment or handler argument, or None when it is not a positive integer."""
    return id_from_text(raw)


def _chat_query(user_id: int, chat_id: object, *columns):
    """The chat `chat_id` with its job title (and `columns`), when `user_id` takes part in it; None for a bad id."""
    chat_id = parse_chat_id(chat_id)
    if chat_id is None:
        return None
    return (
        select(Chat, Job.titulo, *columns)
        .join(Application, Application.id == Chat.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .where(Chat.id == chat_id, _participant(user_id))
    )


def _chat_for(session: Session, user_id: int, chat_id: object) -> tuple[Chat, str]:
    query = _chat_query(user_id, chat_id)
    row = session.exec(query).first() if query is not None else None
    if row is None:
        raise NotAllowed(CHAT_NOT_FOUND)
    return row


def _chat_with_other(session: Session, user_id: int, chat_id: object) -> tuple[Chat, str, Profile | None, bool]:
    """The chat, its job title, the other participant's profile and whether they deleted their account (one statement)."""
    other_id = case((Chat.client_id == user_id, Chat.freelancer_id), else_=Chat.client_id)
    removed = exists().where(User.id == other_id, User.deleted_at.is_not(None)).label("other_removed")
    query = _chat_query(user_id, chat_id, Profile, removed)
    row = (
        session.exec(query.join(Profile, Profile.user_id == other_id, isouter=True)).first()
        if query is not None
        else None
    )
    if row is None:
        raise NotAllowed(CHAT_NOT_FOUND)
    return row


def _message(message: Message | Row, user_id: int) -> ChatMessage:
    return ChatMessage(
        id=message.id, content=message.content, time=clock(message.created_at), mine=message.sender_id == user_id
    )


def _latest(session: Session, chat_id: int, before_id: int | None = None) -> tuple[list[Message], bool]:
    """Up to PAGE_SIZE messages (older than `before_id` when given), oldest first, and whether more exist.

    Read backwards along the (chat_id, id) index, so only the page's rows are touched.
    """
    query = select(Message).where(Message.chat_id == chat_id)
    if before_id is not None:
        query = query.where(Message.id < before_id)
    rows = session.exec(query.order_by(Message.id.desc()).limit(PAGE_SIZE + 1)).all()
    return list(reversed(rows[:PAGE_SIZE])), len(rows) > PAGE_SIZE


# Prebuilt Core statements for what every live message costs (the receiver's refresh runs `newer`):
# built once and executed with bound values, they skip the ORM's per-call statement building.
# The caller (:user_id) takes part in the chat.
_PARTICIPANT = _participant(bindparam("user_id"))
_CHAT_OF = select(
    _CHATS.c.id,
    _CHATS.c.client_id,
    _CHATS.c.freelancer_id,
    _CHATS.c.client_last_read_at,
    _CHATS.c.freelancer_last_read_at,
).where(_CHATS.c.id == bindparam("chat_id"), _PARTICIPANT)


class _ChatRow(NamedTuple):
    """A `_CHAT_OF` row as it stands after this session's own write (what `mark_read` reads)."""

    id: int
    client_id: int
    freelancer_id: int
    client_last_read_at: datetime | None
    freelancer_last_read_at: datetime | None


def _marker_field(chat: Chat | Row | _ChatRow, user_id: int) -> str:
    """The name of `user_id`'s read marker column in `chat`."""
    return "client_last_read_at" if chat.client_id == user_id else "freelancer_last_read_at"


_NEWER = (
    select(_MESSAGES.c.id, _MESSAGES.c.sender_id, _MESSAGES.c.content, _MESSAGES.c.created_at)
    .where(_MESSAGES.c.chat_id == bindparam("chat_id"), _MESSAGES.c.id > bindparam("after_id"))
    .order_by(_MESSAGES.c.id.desc())
    .limit(NEWER_LIMIT)
)
_MOVE_MARKER = {
    field: update(_CHATS)
    .where(_CHATS.c.id == bindparam("chat"), or_(column.is_(None), column < bindparam("upto")))
    .values({field: bindparam("marker")})
    for field, column in (
        ("client_last_read_at", _CHATS.c.client_last_read_at),
        ("freelancer_last_read_at", _CHATS.c.freelancer_last_read_at),
    )
}
_CLEAR_NOTICES = (
    update(_NOTICES)
    .where(
        _NOTICES.c.user_id == bindparam("reader"),
        _NOTICES.c.type == NotificationType.MESSAGE,
        _NOTICES.c.read.is_(False),
        _NOTICES.c.target_id == bindparam("chat_id"),
    )
    .values(read=True)
)


def mark_read(
    session: Session, chat: Chat | Row, user_id: int, upto: datetime | None = None, clear_notices: bool = True
) -> None:
    """Record that `user_id` has seen `chat` up to `upto` (now when omitted) and clear its message notices.

    The read marker only moves forward, and a message sent after `upto` stays unread even when it
    was committed before this call, so a message the reader has not been shown is never marked read.
    `clear_notices=False` skips the notices (a sender's own message leaves nothing new to clear).
    `chat` is the ORM row (the marker joins its pending UPDATE) or a `_CHAT_OF` row (one conditional
    UPDATE, which also never moves a marker back that another session moved meanwhile).
    """
    upto = upto or utcnow()
    field = _marker_field(chat, user_id)
    current = getattr(chat, field)
    if current is None or upto > current:
        if isinstance(chat, Chat):
            setattr(chat, field, upto)
            session.add(chat)
        else:
            session.execute(_MOVE_MARKER[field], {"chat": chat.id, "upto": upto, "marker": upto})
        signals.ping(session, user_id, chat.id)
    if not clear_notices:
        return
    cleared = session.execute(_CLEAR_NOTICES, {"reader": user_id, "chat_id": chat.id}).rowcount
    if cleared:
        signals.ping(session, user_id)


def open_chat(session: Session, user_id: int, chat_id: object) -> ChatDetail:
    """Load a conversation the viewer takes part in and record that they have read it.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        chat_id: The requested chat (any value; validated here).

    Returns:
        The other participant, the job title and the latest PAGE_SIZE messages, oldest first.

    Raises:
        NotAllowed: When the chat does not exist or the viewer is not a participant.
    """
    chat, job_title, profile, other_removed = _chat_with_other(session, user_id, chat_id)
    name = _other_name(chat, user_id, profile)
    latest, has_older = _latest(session, chat.id)
    mark_read(session, chat, user_id, latest[-1].created_at if latest else None)
    return ChatDetail(
        id=chat.id,
        other_id=_other_id(chat, user_id),
        other_name=name,
        other_initials=initials(name),
        other_photo=profile.foto_url if profile else "",
        job_title=job_title,
        messages=[_message(m, user_id) for m in latest],
        has_older=has_older,
        other_removed=bool(other_removed),
    )


def older(session: Session, user_id: int, chat_id: object, before_id: object) -> MessagePage:
    """The page of messages just before `before_id` in a conversation the viewer takes part in.

    Raises:
        NotAllowed: When the chat does not exist or the viewer is not a participant.
    """
    chat, _ = _chat_for(session, user_id, chat_id)
    before = id_from_text(before_id)
    if before is None:
        return MessagePage(messages=[], has_older=False)
    rows, has_older = _latest(session, chat.id, before)
    return MessagePage(messages=[_message(m, user_id) for m in rows], has_older=has_older)


def newer(session: Session, user_id: int, chat_id: object, after_id: int, mark_seen: bool = True) -> list[ChatMessage]:
    """Messages after `after_id` (at most NEWER_LIMIT, the newest ones), oldest first.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user.
        chat_id: The conversation.
        after_id: The newest message id the viewer already has (0 for none).
        mark_seen: Whether the viewer is looking at the conversation, so what is returned is read.

    Returns:
        The new messages; empty when there are none.

    Raises:
        NotAllowed: When the chat does not exist or the viewer is not a participant.
    """
    chat_key = parse_chat_id(chat_id)
    chat = session.execute(_CHAT_OF, {"chat_id": chat_key, "user_id": user_id}).first() if chat_key else None
    if chat is None:
        raise NotAllowed(CHAT_NOT_FOUND)
    return _newer_in(session, chat, user_id, after_id, mark_seen)


def _newer_in(
    session: Session, chat: Row | _ChatRow, user_id: int, after_id: int, mark_seen: bool
) -> list[ChatMessage]:
    """`newer` for a chat already checked (`chat` is a `_CHAT_OF` row or a `_ChatRow`)."""
    rows = session.execute(_NEWER, {"chat_id": chat.id, "after_id": max(after_id, 0)}).all()
    rows = list(reversed(rows))
    if rows and mark_seen:
        mark_read(session, chat, user_id, rows[-1].created_at)
    return [_message(m, user_id) for m in rows]


def other_participant(session: Session, user_id: int, chat_id: object) -> int:
    """The id of the other person in a conversation the caller takes part in.

    Raises:
        NotAllowed: With CANNOT_SEND when the chat does not exist or the caller is not in it.
    """
    try:
        chat, _ = _chat_for(session, user_id, chat_id)
    except NotAllowed:
        raise NotAllowed(CANNOT_SEND) from None
    return _other_id(chat, user_id)


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
    field = _marker_field(chat, sender_id)
    session.execute(_TOUCH_FOR_SENDER[field], {"chat": chat.id, "at": sent_at})
    if isinstance(chat, Chat):  # the UPDATE bypassed the ORM: its next read of these columns reloads them
        session.expire(chat, ["updated_at", field])
    signals.ping(session, chat.client_id, chat.id)
    signals.ping(session, chat.freelancer_id, chat.id)
    return message_id, sent_at


def _notify_message(session: Session, chat: Row, sender_id: int, job_title: str) -> None:
    """Tell the recipient, once per conversation until they read it, that a message arrived."""
    recipient = _other_id(chat, sender_id)
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
    .where(_CHATS.c.id == bindparam("chat_id"), _PARTICIPANT)
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


def _post_as_sender(session: Session, chat: Row, sender_id: int, content: str) -> tuple[ChatMessage, _ChatRow]:
    """`post` a message the caller may send (checked by `_sendable`).

    Returns:
        The message as the sender sees it, and the chat as it stands after the write.
    """
    message_id, sent_at = post(session, chat, sender_id, content)
    field = _marker_field(chat, sender_id)
    after = _ChatRow(*(getattr(chat, name) for name in _ChatRow._fields))
    marker = getattr(after, field)
    if marker is None or marker < sent_at:  # as _TOUCH_FOR_SENDER just did in SQL
        after = after._replace(**{field: sent_at})
    return ChatMessage(id=message_id, content=content, time=clock(sent_at), mine=True), after


def _send(
    session: Session, user_id: int, chat_id: object, text: object, recipient_viewing: bool
) -> tuple[ChatMessage, _ChatRow]:
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
    return _newer_in(session, chat, user_id, after_id, mark_seen=True)


# Prebuilt like `newer`'s statements: every live message recounts the receiver's Mensagens badge.
_UNREAD_TOTAL = (
    select(func.count())
    .select_from(_MESSAGES)
    .join(_CHATS, _CHATS.c.id == _MESSAGES.c.chat_id)
    .where(_PARTICIPANT, *_unread(bindparam("user_id")))
)


def unread_total(session: Session, user_id: int) -> int:
    """How many messages from others the user has not read, across all their conversations."""
    return int(session.execute(_UNREAD_TOTAL, {"user_id": user_id}).scalar_one() or 0)
