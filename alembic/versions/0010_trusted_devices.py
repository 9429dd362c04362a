"""trusted devices: browsers that signed in before are not locked out by strangers' failures

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 17:10:00.000000

services/accounts/devices.py gives a browser a random cookie when it signs in (only its SHA-256 is kept in
trusted_devices). A login from that browser to that account skips the per-address and per-account
lockouts that anyone can trigger, and counts its own failures apart (login_attempts.trusted).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

import core.types
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create trusted_devices and add login_attempts.trusted (false for every earlier attempt)."""
    op.create_table(
        "trusted_devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", core.types.UTCDateTime(), nullable=False),
        sa.Column("last_used_at", core.types.UTCDateTime(), nullable=False),
        sa.Column("expires_at", core.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_trusted_devices_user_id"), "trusted_devices", ["user_id"], unique=False)
    with op.batch_alter_table("login_attempts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("trusted", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop login_attempts.trusted and trusted_devices."""
    with op.batch_alter_table("login_attempts", schema=None) as batch_op:
        batch_op.drop_column("trusted")
    op.drop_index(op.f("ix_trusted_devices_user_id"), table_name="trusted_devices")
    op.drop_table("trusted_devices")
