"""Subscriptions, processed Stripe events and contact messages."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from models.base import created_at_field, optional_datetime_field


class Subscription(SQLModel, table=True):
    """A company's paid plan as last reported by a verified Stripe webhook."""

    __tablename__ = "subscriptions"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", unique=True, ondelete="CASCADE")
    tier: str = Field(max_length=16)
    status: str = Field(max_length=24)
    stripe_customer_id: str = Field(default="", max_length=64, index=True)
    stripe_subscription_id: str = Field(default="", max_length=64, index=True)
    current_period_end: datetime | None = optional_datetime_field()
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class StripeEvent(SQLModel, table=True):
    """A Stripe event id already processed, so replays change nothing."""

    __tablename__ = "stripe_events"

    id: str = Field(primary_key=True, max_length=255)
    type: str = Field(max_length=100)
    processed_at: datetime = created_at_field()


class ContactMessage(SQLModel, table=True):
    """A message sent through the contact form."""

    __tablename__ = "contact_messages"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    email: str = Field(max_length=254)
    phone: str = Field(default="", max_length=30)
    subject: str = Field(max_length=20)
    message: str = Field(max_length=5000)
    created_at: datetime = created_at_field()
