"""Conversations between a company and a freelancer: the viewer's list and reading one conversation.

A chat belongs to one accepted application; only its two participants may see it. Every lookup
filters by the acting user, so a stranger and a missing id get the same refusal. A conversation is
read in pages (the latest PAGE_SIZE messages, then older pages on demand, newer ones by id), so no
caller ever holds a whole history, and the list of conversations too (PAGE_SIZE_LIST per page,
latest activity first: every message moves its chat's `updated_at`).

Sending a message is services/reach/chat_sending.py; what the reader has seen (read markers, unread
counts) is services/reach/chat_read_marks.py.
"""

from datetime import datetime
from typing import TypedDict

from sqlalchemy import Row, bindparam, exists
from sqlalchemy.orm import aliased
from sqlmodel import Session, case, func, select

from core.formatting import clock, initials, local, short_date
from core.ids import id_from_text
from core.types import utcnow
from models import Application, Chat, Job, Message, Profile, User
from services.common import paging
from services.common.errors import NotAllowed
from services.reach.chat_read_marks import PARTICIPANT, ChatRow, mark_read, participant, unread_by_chat

CHAT_NOT_FOUND = "Chat não encontrado"
CANNOT_SEND = "Não é possível enviar mensagem."
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


def other_user_id(chat: Chat | Row, user_id: int) -> int:
    """The id of the participant of `chat` who is not `user_id`."""
    return chat.freelancer_id if chat.client_id == user_id else chat.client_id


def _other_name(chat: Chat, user_id: int, profile: Profile | None) -> str:
    """The freelancer's name for the company; the company's name ('Hotel Atlântico') for the freelancer."""
    if chat.client_id == user_id:
        return (profile.nome if profile else "") or DEFAULT_FREELANCER_NAME
    return (profile.empresa or profile.nome if profile else "") or DEFAULT_CLIENT_NAME


def _when(moment: datetime) -> str:
    """HH:mm for today (São Paulo time), dd/MM/yyyy for older activity."""
    return clock(moment) if local(moment).date() == local(utcnow()).date() else short_date(moment)


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1].rstrip() + "…"


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
        .where(participant(user_id))
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
    total = session.exec(select(func.count()).select_from(Chat).where(participant(user_id))).one()
    page, pages = paging.clamp(page, total, PAGE_SIZE_LIST)
    if not total:
        return paging.Page()
    summaries = [
        _summary(user_id, chat, title, name, photo, (content, sent_at))
        for chat, title, name, photo, content, sent_at in _page_rows(session, user_id, page)
    ]
    unread = unread_by_chat(session, user_id, [summary["id"] for summary in summaries])
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
        .where(Chat.id == chat_id, participant(user_id))
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
_CHAT_OF = select(
    _CHATS.c.id,
    _CHATS.c.client_id,
    _CHATS.c.freelancer_id,
    _CHATS.c.client_last_read_at,
    _CHATS.c.freelancer_last_read_at,
).where(_CHATS.c.id == bindparam("chat_id"), PARTICIPANT)


_NEWER = (
    select(_MESSAGES.c.id, _MESSAGES.c.sender_id, _MESSAGES.c.content, _MESSAGES.c.created_at)
    .where(_MESSAGES.c.chat_id == bindparam("chat_id"), _MESSAGES.c.id > bindparam("after_id"))
    .order_by(_MESSAGES.c.id.desc())
    .limit(NEWER_LIMIT)
)


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
        other_id=other_user_id(chat, user_id),
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
    return newer_in(session, chat, user_id, after_id, mark_seen)


def newer_in(session: Session, chat: Row | ChatRow, user_id: int, after_id: int, mark_seen: bool) -> list[ChatMessage]:
    """`newer` for a chat already checked (`chat` is a `_CHAT_OF` row or a `ChatRow`)."""
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
    return other_user_id(chat, user_id)
