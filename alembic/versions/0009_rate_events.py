"""rate events: registrations and recovery requests per address, account e-mails per recipient

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 15:30:00.000000

services/common/rate_limits.py counts uses of the actions a visitor can repeat without signing in, in a
sliding hour: registrations and password-recovery requests per client address, and the account
e-mails (confirmation, reset, 'tentativa de cadastro') sent to one address. Keys are SHA-256
digests, never the address or e-mail itself.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

import core.types
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create rate_events and its lookup index."""
    op.create_table(
        "rate_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=30), nullable=False),
        sa.Column("key_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", core.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rate_events_kind_key_created", "rate_events", ["kind", "key_hash", "created_at"])


def downgrade() -> None:
    """Drop rate_events."""
    op.drop_index("ix_rate_events_kind_key_created", table_name="rate_events")
    op.drop_table("rate_events")
