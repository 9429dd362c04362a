"""whatsapp: a person's confirmed number and the template messages sent to it.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28 20:30:00.000000

Opt-in shift confirmations and reminders by WhatsApp (docs/product/reach.md "WhatsApp"): the number is
confirmed with a code, 'Parar' stops it, and each template message is kept with its delivery
status from the Cloud API's webhook. New tables only: nothing existing moves, and the downgrade
drops them.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "whatsapp_contacts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=20), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("code_sent_at", UTCDateTime(), nullable=True),
        sa.Column("code_expires_at", UTCDateTime(), nullable=True),
        sa.Column("code_attempts", sa.Integer(), nullable=False),
        sa.Column("confirmed_at", UTCDateTime(), nullable=True),
        sa.Column("stopped_at", UTCDateTime(), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=False),
        sa.Column("last_error_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_index("ix_whatsapp_contacts_phone", "whatsapp_contacts", ["phone"])
    op.create_table(
        "whatsapp_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=20), nullable=False),
        sa.Column("template", sa.String(length=60), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("link", sa.String(length=300), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", UTCDateTime(), nullable=False),
        sa.Column("wamid", sa.String(length=200), nullable=False),
        sa.Column("error", sa.String(length=200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_whatsapp_messages_user_id", "whatsapp_messages", ["user_id"])
    op.create_index("ix_whatsapp_messages_wamid", "whatsapp_messages", ["wamid"])
    op.create_index("ix_whatsapp_messages_due", "whatsapp_messages", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_whatsapp_messages_due", table_name="whatsapp_messages")
    op.drop_index("ix_whatsapp_messages_wamid", table_name="whatsapp_messages")
    op.drop_index("ix_whatsapp_messages_user_id", table_name="whatsapp_messages")
    op.drop_table("whatsapp_messages")
    op.drop_index("ix_whatsapp_contacts_phone", table_name="whatsapp_contacts")
    op.drop_table("whatsapp_contacts")
