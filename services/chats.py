"""Conversations between a company and a freelancer: the viewer's list and one conversation.

A chat belongs to one accepted application; only its two participants may see it. Every lookup
filters by the acting user, so a stranger and a missing id get the same refusal.
"""

from datetime import datetime
from typing import TypedDict

from sqlmodel import Session, case, func, or_, select

from core.formatting import clock, initials, local, short_date
from core.ids import id_from_text
from core.types import utcnow
from models import Application, Chat, Job, Message, Profile
from services.errors import NotAllowed

CHAT_NOT_FOUND = "Chat não encontrado"
MESSAGES_LIMIT = 200
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
    """A conversation the viewer takes part in."""

    id: int
    other_name: str
    other_initials: str
    other_photo: str
    job_title: str
    messages: list[ChatMessage]


def _participant_filter(user_id: int):
    return or_(Chat.client_id == user_id, Chat.freelancer_id == user_id)


def _other_id(chat: Chat, user_id: int) -> int:
    return chat.freelancer_id if chat.client_id == user_id else chat.client_id


def _other_name(chat: Chat, user_id: int, profile: Profile | None) -> str:
    default = DEFAULT_FREELANCER_NAME if chat.client_id == user_id else DEFAULT_CLIENT_NAME
    return (profile.nome if profile else "") or default


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
    last_read = case((Chat.client_id == user_id, Chat.client_last_read_at), else_=Chat.freelancer_last_read_at)
    rows = session.exec(
        select(Message.chat_id, func.count())
        .join(Chat, Chat.id == Message.chat_id)
        .where(
            Message.chat_id.in_(chat_ids),
            _participant_filter(user_id),
            or_(Message.sender_id.is_(None), Message.sender_id != user_id),
            or_(last_read.is_(None), Message.created_at > last_read),
        )
        .group_by(Message.chat_id)
    ).all()
    return {chat_id: int(count) for chat_id, count in rows}


def list_for(session: Session, user_id: int) -> list[ChatSummary]:
    """The viewer's conversations, most recent activity first.

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).

    Returns:
        One summary per chat: the other participant, the job, the last message and unread count.
    """
    last_ids = (
        select(Message.chat_id.label("chat_id"), func.max(Message.id).label("last_id"))
        .group_by(Message.chat_id)
        .subquery()
    )
    rows = session.exec(
        select(Chat, Job.titulo, Message)
        .join(Application, Application.id == Chat.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .join(last_ids, last_ids.c.chat_id == Chat.id, isouter=True)
        .join(Message, Message.id == last_ids.c.last_id, isouter=True)
        .where(_participant_filter(user_id))
    ).all()
    profiles = _profiles(session, {_other_id(chat, user_id) for chat, _, _ in rows})
    unread = _unread_by_chat(session, user_id, [chat.id for chat, _, _ in rows])
    summaries: list[tuple[datetime, ChatSummary]] = []
    for chat, job_title, last in rows:
        profile = profiles.get(_other_id(chat, user_id))
        name = _other_name(chat, user_id, profile)
        activity = max(chat.updated_at, last.created_at) if last else chat.updated_at
        summary = ChatSummary(
            id=chat.id,
            other_name=name,
            other_initials=initials(name),
            other_photo=profile.foto_url if profile else "",
            job_title=job_title,
            last_message=_preview(last.content) if last else "",
            last_time=_when(activity),
            unread=unread.get(chat.id, 0),
        )
        summaries.append((activity, summary))
    summaries.sort(key=lambda item: (item[0], item[1]["id"]), reverse=True)
    return [summary for _, summary in summaries]


def parse_chat_id(raw: object) -> int | None:
    """A chat id from a URL segment or handler argument, or None when it is not a positive integer."""
    return id_from_text(raw)


def _chat_for(session: Session, user_id: int, chat_id: object) -> tuple[Chat, str]:
    chat_id = parse_chat_id(chat_id)
    if chat_id is None:
        raise NotAllowed(CHAT_NOT_FOUND)
    row = session.exec(
        select(Chat, Job.titulo)
        .join(Application, Application.id == Chat.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .where(Chat.id == chat_id, _participant_filter(user_id))
    ).first()
    if row is None:
        raise NotAllowed(CHAT_NOT_FOUND)
    return row


def open_chat(session: Session, user_id: int, chat_id: object) -> ChatDetail:
    """Load a conversation the viewer takes part in and record that they have read it.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        chat_id: The requested chat (any value; validated here).

    Returns:
        The other participant, the job title and the latest messages, oldest first.

    Raises:
        NotAllowed: When the chat does not exist or the viewer is not a participant.
    """
    chat, job_title = _chat_for(session, user_id, chat_id)
    profile = _profiles(session, {_other_id(chat, user_id)}).get(_other_id(chat, user_id))
    name = _other_name(chat, user_id, profile)
    latest = session.exec(
        select(Message).where(Message.chat_id == chat.id).order_by(Message.id.desc()).limit(MESSAGES_LIMIT)
    ).all()
    messages = [
        ChatMessage(id=m.id, content=m.content, time=clock(m.created_at), mine=m.sender_id == user_id)
        for m in reversed(latest)
    ]
    if chat.client_id == user_id:
        chat.client_last_read_at = utcnow()
    else:
        chat.freelancer_last_read_at = utcnow()
    session.add(chat)
    return ChatDetail(
        id=chat.id,
        other_name=name,
        other_initials=initials(name),
        other_photo=profile.foto_url if profile else "",
        job_title=job_title,
        messages=messages,
    )
