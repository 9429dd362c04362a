"""team members: the freelancers a company added to 'Minha equipe'.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 14:20:00.000000

A company adds a freelancer it worked with (a paid shift) to its team (docs/product/trust.md "Minha
equipe"). One row per company and freelancer, deleted with either account. A new table: nothing
existing moves, and the downgrade drops it.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "team_members",
        sa.Column("company_id", sa.Integer(), nullable=False),
        sa.Column("freelancer_id", sa.Integer(), nullable=False),
        sa.Column("added_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["company_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["freelancer_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("company_id", "freelancer_id"),
    )
    op.create_index("ix_team_members_freelancer", "team_members", ["freelancer_id"])


def downgrade() -> None:
    op.drop_index("ix_team_members_freelancer", table_name="team_members")
    op.drop_table("team_members")
