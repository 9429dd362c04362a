"""push devices: Web Push subscriptions per signed-in session, their queue, consents per channel.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 20:30:00.000000

'Ativar notificações neste aparelho' stores the browser's subscription for the session that asked
(deleted with it, so a logout ends the pushes), notifications wait in `push_outbox` until the
sender delivers them (with retries), and each consent given or withdrawn is kept with its time
(docs/product/reach.md "Notificações no aparelho"). New tables only: nothing existing moves, and the
downgrade drops them.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("last_sent_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["session_id"], ["auth_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("endpoint"),
    )
    op.create_index("ix_push_devices_user_id", "push_devices", ["user_id"])
    op.create_index("ix_push_devices_session_id", "push_devices", ["session_id"])
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=False),
        sa.Column("body", sa.String(length=500), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", UTCDateTime(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["device_id"], ["push_devices.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_push_outbox_device_id", "push_outbox", ["device_id"])
    op.create_index("ix_push_outbox_due", "push_outbox", ["due_at"])
    op.create_table(
        "channel_consents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("granted", sa.Boolean(), nullable=False),
        sa.Column("detail", sa.String(length=120), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_channel_consents_user", "channel_consents", ["user_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_channel_consents_user", table_name="channel_consents")
    op.drop_table("channel_consents")
    op.drop_index("ix_push_outbox_due", table_name="push_outbox")
    op.drop_index("ix_push_outbox_device_id", table_name="push_outbox")
    op.drop_table("push_outbox")
    op.drop_index("ix_push_devices_session_id", table_name="push_devices")
    op.drop_index("ix_push_devices_user_id", table_name="push_devices")
    op.drop_table("push_devices")
