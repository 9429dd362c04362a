"""Reaching people outside the open tab: push subscriptions, their queue, and consents per channel.

services/reach/push_devices.py is the only writer of `push_devices`, services/reach/push.py and
push_sending.py of `push_outbox`, services/reach/whatsapp*.py of `whatsapp_contacts` and
`whatsapp_messages`, services/reach/consents.py of `channel_consents`
(docs/product/reach.md "Notificações no aparelho" and "WhatsApp").
"""

from datetime import datetime

from sqlalchemy import JSON, Column
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


class WhatsAppContact(SQLModel, table=True):
    """A person's WhatsApp number for shift confirmations and reminders, confirmed by a code.

    services/reach/whatsapp_number.py, whatsapp.py and whatsapp_webhook.py are its only writers. The
    number receives messages only while `confirmed_at` is set and `stopped_at` is not ('Parar' sets it).
    """

    __tablename__ = "whatsapp_contacts"

    user_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    phone: str = Field(max_length=20, index=True)  # E.164 digits without '+', e.g. 5511987654321
    code_hash: str = Field(default="", max_length=64)  # SHA-256 of the pending code ('' when none)
    code_sent_at: datetime | None = optional_datetime_field()
    code_expires_at: datetime | None = optional_datetime_field()
    code_attempts: int = 0
    confirmed_at: datetime | None = optional_datetime_field()
    stopped_at: datetime | None = optional_datetime_field()
    last_error: str = Field(default="", max_length=200)  # shown in settings until a message gets through
    last_error_at: datetime | None = optional_datetime_field()


class WhatsAppMessage(SQLModel, table=True):
    """One template message to a WhatsApp number: queued, sent (with the API's id), delivered or failed."""

    __tablename__ = "whatsapp_messages"
    __table_args__ = (Index("ix_whatsapp_messages_due", "status", "due_at"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    phone: str = Field(max_length=20)
    template: str = Field(max_length=60)
    params: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    link: str = Field(default="", max_length=300)  # the path the template's button opens ('' for none)
    status: str = Field(default="pendente", max_length=12)  # pendente, enviada, entregue, lida, falhou
    attempts: int = 0
    due_at: datetime = required_datetime_field()
    wamid: str = Field(default="", max_length=200, index=True)  # the Cloud API's message id once accepted
    error: str = Field(default="", max_length=200)
    created_at: datetime = created_at_field()
