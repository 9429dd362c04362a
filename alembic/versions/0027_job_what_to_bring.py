"""job what to bring: 'Traje e o que levar', the attire and items a vaga expects.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-08 10:00:00.000000

A company can dismiss a freelancer for 'Traje inadequado' (services/jobs/shift_pay.py DISMISS_REASONS),
so a vaga now says beforehand what to wear and bring (docs/product/jobs.md §4). One optional text
column, '' for every existing vaga; the downgrade drops it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(
            sa.Column("o_que_levar", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("o_que_levar")
