"""session idle expiry: auth_sessions.last_seen_at

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 12:00:00.000000

A session now also ends after a period without use (services/accounts/sessions.py: idle expiry), so each
row records when it was last used. Sessions open at upgrade time count as used now: nobody is
signed out by the deploy itself, and each is then held to the idle limit from that moment.
"""
from collections.abc import Sequence

import sqlalchemy as sa

import core.types
from alembic import op
from core.types import utcnow

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen_at', core.types.UTCDateTime(), nullable=True))
    sessions = sa.table('auth_sessions', sa.column('last_seen_at', core.types.UTCDateTime()))
    op.execute(sessions.update().values(last_seen_at=utcnow()))
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.alter_column('last_seen_at', existing_type=core.types.UTCDateTime(), nullable=False)


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_column('last_seen_at')
