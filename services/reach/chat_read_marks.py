"""What a chat's reader has seen: who takes part, the read markers, and the unread counts.

`participant` is the one test of taking part in a chat and `_unread` the one definition of an
unread message: the list's per-chat counts and the Mensagens badge (`unread_total`) both use them.
`mark_read` only moves a marker forward and pings the reader (core.signals).
"""

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Row, bindparam
from sqlmodel import Session, case, func, or_, select, update

from core import signals
from core.types import utcnow
from models import Chat, Message, Notification, NotificationType

_CHATS = Chat.__table__
_MESSAGES = Message.__table__
_NOTICES = Notification.__table__


def participant(user):
    """`user` takes part in the chat; `user` is an id or a bound parameter (prebuilt statements)."""
    return or_(_CHATS.c.client_id == user, _CHATS.c.freelancer_id == user)


# The caller (:user_id) takes part in the chat: the clause of the prebuilt statements.
PARTICIPANT = participant(bindparam("user_id"))


def _unread(user) -> tuple:
    """A message of the chat is unread by `user`: another participant's, newer than `user`'s last visit.

    The one definition of 'unread': the per-chat counts of the list and the Mensagens badge both use it.
    """
    last_read = case((_CHATS.c.client_id == user, _CHATS.c.client_last_read_at), else_=_CHATS.c.freelancer_last_read_at)
    return (
        or_(_MESSAGES.c.sender_id.is_(None), _MESSAGES.c.sender_id != user),
        or_(last_read.is_(None), _MESSAGES.c.created_at > last_read),
    )


def unread_by_chat(session: Session, user_id: int, chat_ids: list[int]) -> dict[int, int]:
    """Messages from the other participant newer than the viewer's last visit, per chat."""
    if not chat_ids:
        return {}
    rows = session.exec(
        select(Message.chat_id, func.count())
        .join(Chat, Chat.id == Message.chat_id)
        .where(Message.chat_id.in_(chat_ids), participant(user_id), *_unread(user_id))
        .group_by(Message.chat_id)
    ).all()
    return {chat_id: int(count) for chat_id, count in rows}


class ChatRow(NamedTuple):
    """A `_CHAT_OF` row as it stands after this session's own write (what `mark_read` reads)."""

    id: int
    client_id: int
    freelancer_id: int
    client_last_read_at: datetime | None
    freelancer_last_read_at: datetime | None


def marker_field(chat: Chat | Row | ChatRow, user_id: int) -> str:
    """The name of `user_id`'s read marker column in `chat`."""
    return "client_last_read_at" if chat.client_id == user_id else "freelancer_last_read_at"


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
    field = marker_field(chat, user_id)
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


# Prebuilt like `newer`'s statements: every live message recounts the receiver's Mensagens badge.
_UNREAD_TOTAL = (
    select(func.count())
    .select_from(_MESSAGES)
    .join(_CHATS, _CHATS.c.id == _MESSAGES.c.chat_id)
    .where(PARTICIPANT, *_unread(bindparam("user_id")))
)


def unread_total(session: Session, user_id: int) -> int:
    """How many messages from others the user has not read, across all their conversations."""
    return int(session.execute(_UNREAD_TOTAL, {"user_id": user_id}).scalar_one() or 0)
