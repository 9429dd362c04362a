"""Notifications of a user: the list, the unread count and marking one as read."""

from collections.abc import Iterable
from typing import NamedTuple, TypedDict

from sqlalchemy import Row, and_, bindparam, case, exists, insert, or_, true
from sqlmodel import Session, func, select

from core import signals
from core.catalog import UNREAD_BADGE_CAP
from core.formatting import date_time
from core.ids import valid_id
from core.routes import NoticeTarget, notice_path
from core.settings import get_settings
from models import (
    Notification,
    NotificationType,
    PushDevice,
    User,
    UserPreferences,
    WhatsAppContact,
)
from services.common import paging
from services.common.email import send_many_after_commit
from services.common.errors import NotAllowed, require_id
from services.reach import push, whatsapp

PAGE_SIZE = 20
MARK_READ_FAILED = "Não foi possível marcar a notificação como lida."
LOAD_MORE_FAILED = "Não foi possível carregar mais notificações."
KNOWN_TYPES = frozenset(NotificationType)
TOPIC_SWITCH = {
    NotificationType.NEW_APPLICATION: "application_updates",
    NotificationType.APPLICATION_ACCEPTED: "application_updates",
    NotificationType.APPLICATION_REJECTED: "application_updates",
    NotificationType.JOB_CLOSED: "application_updates",
    NotificationType.JOB_ALERT: "new_job_alerts",
}
NOT_EMAILED = frozenset({NotificationType.JOB_CREATED})


class NotificationRow(TypedDict):
    """One notification as the dashboards show it."""

    id: int
    type: str
    message: str
    link: str
    date: str
    read: bool


def _row(notification: Notification | Row) -> NotificationRow:
    return NotificationRow(
        id=notification.id,
        type=notification.type if notification.type in KNOWN_TYPES else NotificationType.OTHER,
        message=notification.message,
        link=notice_path(notification.target, notification.target_id),
        date=date_time(notification.created_at),
        read=notification.read,
    )


def list_for(
    session: Session, user_id: int, limit: int = PAGE_SIZE, before: object = None
) -> paging.Slice[NotificationRow]:
    """The user's notifications, newest first, one 'Carregar mais' slice at a time.

    Read along the (user_id, created_at) index: the slice starts after the notification `before`
    (the last one shown, looked up among the user's own), so notifications that arrive meanwhile
    never shift it.

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).
        limit: How many to return at most (capped at PAGE_SIZE).
        before: The id of the last notification already shown; None for the newest.

    Returns:
        Plain rows (links other than same-site paths dropped) and whether older ones follow.
    """
    limit = max(1, min(limit, PAGE_SIZE))
    query = select(Notification).where(Notification.user_id == user_id)
    cursor_id = valid_id(before)
    if before is not None:
        cursor = (
            select(Notification.created_at)
            .where(Notification.id == (cursor_id or 0), Notification.user_id == user_id)
            .scalar_subquery()
        )
        query = query.where(
            or_(
                Notification.created_at < cursor,
                and_(Notification.created_at == cursor, Notification.id < (cursor_id or 0)),
            )
        )
    rows = session.exec(query.order_by(Notification.created_at.desc(), Notification.id.desc()).limit(limit + 1)).all()
    return paging.split([_row(n) for n in rows], limit)


_UNREAD = func.coalesce(func.sum(case((Notification.read.is_(False), 1), else_=0)), 0)


def counts(session: Session, user_id: int) -> tuple[int, int]:
    """How many notifications the user has, and how many of them are unread (one statement)."""
    total, unread = session.exec(select(func.count(), _UNREAD).where(Notification.user_id == user_id)).one()
    return int(total or 0), int(unread or 0)


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


# Statements run on every notification and message, built once: SQLAlchemy then reuses their
# compiled form and cache key. Over Core tables a read costs about 20 us against 130-180 us through
# the ORM (measured on SQLite; see docs/performance-log.md, "Apply without the ORM").
_USERS, _PREFERENCES = User.__table__, UserPreferences.__table__
_PUSH_DEVICES = PushDevice.__table__
_WHATSAPP = WhatsAppContact.__table__
_RECIPIENT_OF = (
    select(
        _USERS.c.id.label("recipient_id"),
        _USERS.c.email,
        exists().where(_PUSH_DEVICES.c.user_id == _USERS.c.id).label("has_push_device"),
        exists()
        .where(
            _WHATSAPP.c.user_id == _USERS.c.id, _WHATSAPP.c.confirmed_at.is_not(None), _WHATSAPP.c.stopped_at.is_(None)
        )
        .label("has_whatsapp"),
        _PREFERENCES,
    )
    .select_from(_USERS.outerjoin(_PREFERENCES, _PREFERENCES.c.user_id == _USERS.c.id))
    .where(_USERS.c.deleted_at.is_(None), _USERS.c.is_active.is_(True))
)
_RECIPIENT = _RECIPIENT_OF.where(_USERS.c.id == bindparam("user_id"))
_RECIPIENTS = _RECIPIENT_OF.where(_USERS.c.id.in_(bindparam("user_ids", expanding=True)))
_INSERT_NOTIFICATION = insert(Notification.__table__)

# A user's settings as saved (a row whose attributes are the columns of user_preferences) or the
# defaults of a user who never saved them.
Preferences = UserPreferences | Row


def recipient_settings(session: Session, user_id: int) -> tuple[str, Preferences] | None:
    """The e-mail address and settings of an active user (defaults when never saved); None when removed."""
    found = recipient_row(session, user_id)
    return None if found is None else found[:2]


class Recipient(NamedTuple):
    """Where a notice can reach an active user, read in one statement."""

    email: str
    prefs: Preferences  # their settings (the defaults when never saved)
    has_push_device: bool  # a device with push on (services/reach/push_devices.py)
    has_whatsapp: bool  # a confirmed WhatsApp number not stopped (services/reach/whatsapp.py)


def recipient_row(session: Session, user_id: int) -> Recipient | None:
    """The channels and settings of an active user; None when the account is removed or inactive."""
    row = session.execute(_RECIPIENT, {"user_id": user_id}).first()
    return None if row is None else _recipient(row)


def recipients(session: Session, user_ids: Iterable[int]) -> dict[int, Recipient]:
    """`recipient_row` of several users in one statement: the active ones, by id."""
    rows = session.execute(_RECIPIENTS, {"user_ids": sorted(set(user_ids))})
    return {row.recipient_id: _recipient(row) for row in rows}


def _recipient(row: Row) -> Recipient:
    prefs = row if row.user_id is not None else UserPreferences(user_id=row.recipient_id)
    return Recipient(row.email, prefs, bool(row.has_push_device), bool(row.has_whatsapp))


def topic_allows(prefs: Preferences, kind: str) -> bool:
    """Whether the switch of a notification's topic is on (kinds without a topic always pass)."""
    switch = TOPIC_SWITCH.get(kind)
    return switch is None or bool(getattr(prefs, switch))


def wants_email(prefs: Preferences, kind: str) -> bool:
    """E-mail copies go only with 'Notificações por email' on and the topic's switch on.

    The notices users cause themselves ('Sua vaga foi publicada') are never e-mailed.
    """
    return kind not in NOT_EMAILED and prefs.email_notifications and topic_allows(prefs, kind)


def wants_push(prefs: Preferences, kind: str) -> bool:
    """A pop-up on the user's open pages only with 'Notificações push' on and the topic's switch on."""
    return prefs.push_notifications and topic_allows(prefs, kind)


def absolute_url(link: str) -> str:
    """The full address of an in-app path ('' or anything else: the site's home)."""
    site = get_settings().site_url
    return f"{site.rstrip('/')}{link}" if link.startswith("/") else site


def email_copy(session: Session, to: str, message: str, link: str) -> None:
    """E-mail a notification's text with a link to it, in the caller's transaction (services.common.email).

    Args:
        session: The transaction of the notice.
        to: The recipient's address.
        message: The notice's text.
        link: The in-app path of its target (`core.routes.notice_path`; '' for the site's home).
    """
    send_many_after_commit(session, [email_of(to, message, link)])


def email_of(to: str, message: str, link: str) -> tuple[str, str, str]:
    """The copy of a notice: recipient, subject and body with the link."""
    settings = get_settings()
    return (
        to,
        f"{settings.product_name}: {message[:120]}",
        f"{message}\n\nVeja no {settings.product_name}: {absolute_url(link)}\n\n"
        f"Você recebe este e-mail porque as notificações por e-mail estão ativadas. "
        f"Para desativá-las, acesse Configurações > Notificações: {settings.site_url.rstrip('/')}",
    )


class Notice(NamedTuple):
    """One notification to create (the arguments of `notify`)."""

    user_id: int
    kind: NotificationType
    message: str
    target: NoticeTarget = NoticeTarget.NONE
    target_id: int | None = None


def notify(
    session: Session,
    user_id: int,
    kind: NotificationType,
    message: str,
    target: NoticeTarget = NoticeTarget.NONE,
    target_id: int | None = None,
) -> None:
    """Create a notification in the caller's transaction (it exists only if the event does).

    The user is pinged (core.signals), so their open dashboards refresh once the transaction commits.
    An e-mail copy is sent when the user's settings ask for it (`wants_email`); a removed account
    gets nothing.

    Args:
        session: Open database session of the operation that causes the notice.
        user_id: Who is notified.
        kind: One of NotificationType.
        message: The text shown (at most 500 characters are kept).
        target: What the notice points at (core.routes.NoticeTarget), if anything.
        target_id: The chat or job of a target that names one.
    """
    notify_many(session, [Notice(user_id, kind, message, target, target_id)])


def notify_many(session: Session, notices: list[Notice]) -> None:
    """`notify` for several notices, in one statement per kind of row and not one per notice.

    The timer's reminders go a chunk at a time (services/shifts/shift_timer.py): the recipients are read
    together, the notifications and e-mail copies written with one multi-row INSERT each, and the
    pushes queued by `push.enqueue_many`. WhatsApp stays one statement per person who confirmed a
    number (few, and `whatsapp.enqueue` is that statement).
    """
    if len(notices) == 1:  # one notice (a message, an application) keeps its one-bind statement
        found = recipient_row(session, notices[0].user_id)
        reached = {} if found is None else {notices[0].user_id: found}
    else:
        reached = recipients(session, (n.user_id for n in notices))
    notices = [n for n in notices if n.user_id in reached]
    if not notices:
        return
    rows = [
        {"user_id": n.user_id, "type": n.kind, "message": n.message[:500], "target": n.target, "target_id": n.target_id}
        for n in notices
    ]
    session.execute(_INSERT_NOTIFICATION, rows[0] if len(rows) == 1 else rows)
    emails, pushes = [], []
    for n in notices:
        to = reached[n.user_id]
        signals.ping(session, n.user_id)
        link = notice_path(n.target, n.target_id)
        if wants_email(to.prefs, n.kind):
            emails.append(email_of(to.email, n.message[:500], link))
        if to.has_push_device and wants_push(to.prefs, n.kind):
            pushes.append(push.Queued(n.user_id, n.kind, n.message, absolute_url(link)))
        if to.has_whatsapp and topic_allows(to.prefs, n.kind):
            whatsapp.enqueue(session, n.user_id, n.kind, n.message, link)
    send_many_after_commit(session, emails)
    push.enqueue_many(session, pushes)


def push_allowed(session: Session, user_id: int, kind: str) -> bool:
    """Whether a notification of `kind` may pop up on the user's open pages now (their settings)."""
    recipient = recipient_settings(session, user_id)
    return recipient is not None and wants_push(recipient[1], kind)


def push_kinds(session: Session, user_id: int, kinds: set[str]) -> set[str]:
    """Which of `kinds` may pop up on the user's open pages now (one settings query for all)."""
    recipient = recipient_settings(session, user_id)
    return allowed_push(recipient[1] if recipient is not None else None, kinds)


def allowed_push(prefs: Preferences | None, kinds: Iterable[str]) -> set[str]:
    """Which of `kinds` the settings `prefs` let pop up (none for a removed user, `prefs` None)."""
    return {kind for kind in kinds if prefs is not None and wants_push(prefs, kind)}


class Bell(NamedTuple):
    """What the bell of one user's tabs shows, read at one moment: counts, newest page, pop-up settings.

    Attributes:
        total: How many notifications the user has.
        unread: How many of them are unread.
        newest: The first 'Carregar mais' slice (newest first), as `list_for` reads it.
        prefs: The user's settings (defaults when never saved); None for a removed account.
    """

    total: int
    unread: int
    newest: paging.Slice[NotificationRow]
    prefs: Preferences | None


_COUNTS = (
    select(Notification.user_id, func.count(), _UNREAD)
    .where(Notification.user_id.in_(bindparam("user_ids", expanding=True)))
    .group_by(Notification.user_id)
)
_NOTICES = Notification.__table__
_NEWEST = (
    select(_NOTICES)
    .where(_NOTICES.c.user_id == bindparam("user_id"))
    .order_by(_NOTICES.c.created_at.desc(), _NOTICES.c.id.desc())
    .limit(PAGE_SIZE + 1)
)
_SETTINGS = (
    select(_USERS.c.id.label("uid"), _PREFERENCES)
    .select_from(_USERS.outerjoin(_PREFERENCES, _PREFERENCES.c.user_id == _USERS.c.id))
    .where(
        _USERS.c.id.in_(bindparam("user_ids", expanding=True)),
        _USERS.c.deleted_at.is_(None),
        _USERS.c.is_active.is_(True),
    )
)


def _newest_pages(session: Session, user_ids: list[int]) -> dict[int, list[Row]]:
    """The newest PAGE_SIZE + 1 notifications of each user, each list newest first.

    PostgreSQL reads them in one statement (a LATERAL subquery per user, each along the
    (user_id, created_at) index); SQLite, in process, runs one prebuilt statement per user.
    """
    pages: dict[int, list[Row]] = {user_id: [] for user_id in user_ids}
    if session.get_bind().dialect.name == "postgresql":
        users = select(_USERS.c.id).where(_USERS.c.id.in_(bindparam("user_ids", expanding=True))).subquery("u")
        page = (
            select(_NOTICES)
            .where(_NOTICES.c.user_id == users.c.id)
            .order_by(_NOTICES.c.created_at.desc(), _NOTICES.c.id.desc())
            .limit(PAGE_SIZE + 1)
            .lateral("n")
        )
        rows = session.execute(
            select(page).select_from(users.join(page, true())).order_by(page.c.created_at.desc(), page.c.id.desc()),
            {"user_ids": user_ids},
        )
        for row in rows:
            pages[row.user_id].append(row)
        return pages
    for user_id in user_ids:
        pages[user_id] = list(session.execute(_NEWEST, {"user_id": user_id}))
    return pages


def bells(session: Session, user_ids: Iterable[int]) -> dict[int, Bell]:
    """The bell of many users at once, for a live update that reaches all of them (bench/fanout.py).

    Three statements on PostgreSQL whatever the number of users (counts, newest pages, settings),
    instead of three per open tab.

    Args:
        session: Open database session.
        user_ids: The users whose tabs are refreshed.

    Returns:
        Each user's Bell (a user without notifications: zero counts and an empty page).
    """
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    counts_of = {
        user_id: (int(total), int(unread)) for user_id, total, unread in session.execute(_COUNTS, {"user_ids": ids})
    }
    prefs_of: dict[int, Preferences] = {
        row.uid: row if row.user_id is not None else UserPreferences(user_id=row.uid)
        for row in session.execute(_SETTINGS, {"user_ids": ids})
    }
    result = {}
    for user_id, rows in _newest_pages(session, ids).items():
        total, unread = counts_of.get(user_id, (0, 0))
        newest = paging.split([_row(row) for row in rows], PAGE_SIZE)
        result[user_id] = Bell(total, unread, newest, prefs_of.get(user_id))
    return result
