"""Chats, messages and notifications."""

from datetime import datetime
from enum import StrEnum

from sqlmodel import Field, Index, SQLModel

from core.routes import notice_path
from models.base import created_at_field, optional_datetime_field


class Chat(SQLModel, table=True):
    """A conversation born from one accepted application; two participants."""

    __tablename__ = "chats"
    __table_args__ = (
        Index("ix_chats_client_updated", "client_id", "updated_at"),
        Index("ix_chats_freelancer_updated", "freelancer_id", "updated_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    client_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    application_id: int = Field(foreign_key="applications.id", unique=True, ondelete="CASCADE")
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
    client_last_read_at: datetime | None = optional_datetime_field()
    freelancer_last_read_at: datetime | None = optional_datetime_field()


class Message(SQLModel, table=True):
    """One chat message; sender_id is null once the sender deleted their account."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ix_messages_chat_created", "chat_id", "created_at"),
        Index("ix_messages_chat_latest", "chat_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(foreign_key="chats.id", ondelete="CASCADE")
    sender_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    content: str = Field(max_length=4000)
    created_at: datetime = created_at_field()


class NotificationType(StrEnum):
    """Notification types, chat messages included (docs/product/reach.md §6)."""

    NEW_APPLICATION = "new_application"
    APPLICATION_ACCEPTED = "application_accepted"
    JOB_CLOSED = "job_closed"
    JOB_CREATED = "job_created"
    APPLICATION_REJECTED = "application_rejected"
    JOB_ALERT = "job_alert"
    MESSAGE = "message"
    SHIFT = "shift"  # a step of a hiring's shift or one of its reminders
    OTHER = "other"


class Notification(SQLModel, table=True):
    """A notice for one user; unread to read, one way only."""

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_user_created", "user_id", "created_at"),
        Index("ix_notifications_user_read", "user_id", "read"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    type: str = Field(max_length=24)
    message: str = Field(max_length=500)
    target: str = Field(default="", max_length=30)  # core.routes.NoticeTarget: what it points at
    target_id: int | None = None  # the chat or job of a target that names one
    read: bool = False
    created_at: datetime = created_at_field()

    @property
    def link(self) -> str:
        """The in-app address of what the notice points at ('' for nothing)."""
        return notice_path(self.target, self.target_id)
