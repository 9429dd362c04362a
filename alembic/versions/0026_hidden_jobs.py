"""hidden_jobs: 'Não quero ver esta vaga', one vaga a freelancer hid.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07 15:00:00.000000

An anonymous vaga no longer leads to its company (issue 41, point 3): a freelancer hides that
vaga alone (docs/product/trust.md "Bloqueios"). A new table only: nothing existing moves, and the
downgrade drops it.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "hidden_jobs",
        sa.Column("freelancer_id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["freelancer_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("freelancer_id", "job_id"),
    )
    op.create_index("ix_hidden_jobs_job", "hidden_jobs", ["job_id"])


def downgrade() -> None:
    op.drop_index("ix_hidden_jobs_job", table_name="hidden_jobs")
    op.drop_table("hidden_jobs")
