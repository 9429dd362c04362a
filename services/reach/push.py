"""Notifications on the device: Web Push to the browsers people activated (docs/product/reach.md "Notificações no aparelho").

This module is the queue: `enqueue` is called by services/reach/notifications.py `notify` in the
notice's own transaction and writes one row per live device in `push_outbox`, so a rollback pushes
nothing and the request that caused it never waits for a push service; `enqueue_many` does the
same for a chunk of reminders in two statements. After a commit that queued pushes, the sender
thread wakes (services/reach/push_sending.py `sender`).

Beside it: push_devices.py (subscribing a browser, the settings list, removing one),
push_sending.py (draining the queue with VAPID) and push_addresses.py (the one parse of a push
service's address).
"""

from typing import NamedTuple

from sqlalchemy import insert, literal, select
from sqlmodel import Session

from core import vapid
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, NotificationType, PushDevice, PushMessage
from services.reach.push_devices import live_session
from services.reach.push_sending import sender

TITLES = {
    NotificationType.MESSAGE: "Nova mensagem",
    NotificationType.NEW_APPLICATION: "Nova candidatura",
    NotificationType.APPLICATION_ACCEPTED: "Candidatura aceita",
    NotificationType.APPLICATION_REJECTED: "Candidatura não selecionada",
    NotificationType.JOB_CLOSED: "Vaga encerrada",
    NotificationType.JOB_ALERT: "Nova vaga na sua cidade",
}
# Notices a person causes themselves ('Sua vaga foi publicada') never reach their devices.
NOT_PUSHED = frozenset({NotificationType.JOB_CREATED})


def enqueue(db: Session, user_id: int, kind: str, message: str, url: str) -> None:
    """Queue a notice for every live device of `user_id`, in the notice's transaction (one statement).

    Args:
        db: The transaction of the notice.
        user_id: Who is notified (their settings allowed a push of `kind`).
        kind: The notification's NotificationType.
        message: Its text (the push's body).
        url: The full address clicking it opens.
    """
    if kind in NOT_PUSHED or not vapid.public_key():
        return
    now = utcnow()
    title = TITLES.get(kind, get_settings().product_name)
    rows = (
        select(
            PushDevice.id,
            literal(title),
            literal(message[:500]),
            literal(url[:500]),
            literal(0),
            literal(now, PushMessage.__table__.c.due_at.type),
            literal(now, PushMessage.__table__.c.created_at.type),
        )
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id == user_id, live_session(now))
    )
    columns = ["device_id", "title", "body", "url", "attempts", "due_at", "created_at"]
    if db.execute(insert(PushMessage.__table__).from_select(columns, rows)).rowcount:
        sender.kick_after_commit(db)


class Queued(NamedTuple):
    """A notice to push to every live device of a user (the arguments of `enqueue`)."""

    user_id: int
    kind: str
    message: str
    url: str


def enqueue_many(db: Session, notices: list[Queued]) -> None:
    """Queue many notices at once, in the notices' transaction (a reminder chunk's; services/shifts/shift_timer.py).

    One notice is `enqueue`'s one statement. More read their users' live devices in one statement
    and write every push in one multi-row INSERT: two statements for a chunk of 50 reminders, where
    one each made a burst's statements the database's work (docs/performance.md).

    Args:
        db: The transaction of the notices.
        notices: Each one's user (their settings allowed a push of its kind), kind, text and address.
    """
    notices = [n for n in notices if n.kind not in NOT_PUSHED]
    if len(notices) == 1:
        enqueue(db, *notices[0])
        return
    if not notices or not vapid.public_key():
        return
    now = utcnow()
    devices: dict[int, list[int]] = {}
    found = db.execute(
        select(PushDevice.user_id, PushDevice.id)
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id.in_({n.user_id for n in notices}), live_session(now))
    )
    for user_id, device_id in found:
        devices.setdefault(user_id, []).append(device_id)
    product = get_settings().product_name
    rows = [
        {
            "device_id": device_id,
            "title": TITLES.get(n.kind, product),
            "body": n.message[:500],
            "url": n.url[:500],
            "attempts": 0,
            "due_at": now,
            "created_at": now,
        }
        for n in notices
        for device_id in devices.get(n.user_id, ())
    ]
    if rows:
        db.execute(insert(PushMessage.__table__), rows)
        sender.kick_after_commit(db)
