"""Notifications of a user: the list, the unread count and marking one as read."""

from typing import TypedDict

from sqlmodel import Session, func, select

from core import signals
from core.catalog import UNREAD_BADGE_CAP
from core.formatting import date_time
from models import Notification, NotificationType
from services.errors import NotAllowed, require_id

LIST_LIMIT = 50
MARK_READ_FAILED = "Não foi possível marcar a notificação como lida."
KNOWN_TYPES = frozenset(NotificationType)


class NotificationRow(TypedDict):
    """One notification as the dashboards show it."""

    id: int
    type: str
    message: str
    link: str
    date: str
    read: bool


def _row(notification: Notification) -> NotificationRow:
    link = notification.link or ""
    return NotificationRow(
        id=notification.id,
        type=notification.type if notification.type in KNOWN_TYPES else NotificationType.OTHER,
        message=notification.message,
        link=link if link.startswith("/") and not link.startswith("//") else "",
        date=date_time(notification.created_at),
        read=notification.read,
    )


def list_for(session: Session, user_id: int, limit: int = LIST_LIMIT) -> list[NotificationRow]:
    """The user's latest notifications, newest first.

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).
        limit: How many to return at most.

    Returns:
        Plain rows; links other than same-site paths are dropped.
    """
    rows = session.exec(
        select(Notification)
        .where(Notification.user_id == user_id)
        .order_by(Notification.created_at.desc(), Notification.id.desc())
        .limit(limit)
    ).all()
    return [_row(n) for n in rows]


def unread_count(session: Session, user_id: int) -> int:
    """How many of the user's notifications are unread."""
    count = session.exec(
        select(func.count())
        .select_from(Notification)
        .where(Notification.user_id == user_id, Notification.read.is_(False))
    ).one()
    return int(count or 0)


def badge_text(count: int) -> str:
    """The bell badge: '' for none, the number up to the cap, then e.g. '9+'."""
    if count <= 0:
        return ""
    return f"{UNREAD_BADGE_CAP}+" if count > UNREAD_BADGE_CAP else str(count)


def mark_read(session: Session, user_id: int, notification_id: int) -> NotificationRow:
    """Mark one of the user's own notifications as read (reading twice is harmless).

    The notification is loaded by id AND owner, so another user's id and a missing id get the
    same refusal.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        notification_id: The notification to mark.

    Returns:
        The updated row.

    Raises:
        NotAllowed: When the id is not a notification of this user.
    """
    notification_id = require_id(notification_id, MARK_READ_FAILED)
    notification = session.exec(
        select(Notification).where(Notification.id == notification_id, Notification.user_id == user_id)
    ).first()
    if notification is None:
        raise NotAllowed(MARK_READ_FAILED)
    if not notification.read:
        notification.read = True
        session.add(notification)
        session.flush()
        signals.ping(session, user_id)
    return _row(notification)


def notify(session: Session, user_id: int, kind: NotificationType, message: str, link: str = "") -> None:
    """Create a notification in the caller's transaction (it exists only if the event does).

    The user is pinged (core.signals), so their open dashboards refresh once the transaction commits.

    Args:
        session: Open database session of the operation that causes the notice.
        user_id: Who is notified.
        kind: One of NotificationType.
        message: The text shown (at most 500 characters are kept).
        link: An in-app path to open from the notice (optional).
    """
    session.add(Notification(user_id=user_id, type=kind, message=message[:500], link=link[:200]))
    signals.ping(session, user_id)
