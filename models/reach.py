"""Reaching people outside the open tab: push subscriptions, their queue, and consents per channel.

services/push.py is the only writer of `push_devices` and `push_outbox`; services/consents.py of
`channel_consents` (docs/product.md "Notificações no aparelho").
"""

from datetime import datetime

from sqlmodel import Field, Index, SQLModel

from models.base import created_at_field, optional_datetime_field, required_datetime_field


class PushDevice(SQLModel, table=True):
    """One browser's Web Push subscription, for the signed-in session that activated it.

    The row belongs to that session (`session_id`): logging out on the device, a password change
    elsewhere or the session's expiry ends it, so an ended session never receives a push.
    """

    __tablename__ = "push_devices"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    session_id: int = Field(foreign_key="auth_sessions.id", index=True, ondelete="CASCADE")
    endpoint: str = Field(max_length=1000, unique=True)
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)
    name: str = Field(max_length=80)
    created_at: datetime = created_at_field()
    last_sent_at: datetime | None = optional_datetime_field()


class PushMessage(SQLModel, table=True):
    """A notification waiting to be pushed to one device (the queue the sender drains, with retries)."""

    __tablename__ = "push_outbox"
    __table_args__ = (Index("ix_push_outbox_due", "due_at"),)

    id: int | None = Field(default=None, primary_key=True)
    device_id: int = Field(foreign_key="push_devices.id", index=True, ondelete="CASCADE")
    title: str = Field(max_length=80)
    body: str = Field(max_length=500)
    url: str = Field(max_length=500)
    attempts: int = 0
    due_at: datetime = required_datetime_field()
    created_at: datetime = created_at_field()


class ChannelConsent(SQLModel, table=True):
    """One consent given or withdrawn for a channel (LGPD art. 8: proof of when and for what)."""

    __tablename__ = "channel_consents"
    __table_args__ = (Index("ix_channel_consents_user", "user_id", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    channel: str = Field(max_length=16)  # 'push' or 'whatsapp'
    granted: bool
    detail: str = Field(default="", max_length=120)  # the device's name, the phone number
    at: datetime = created_at_field()
