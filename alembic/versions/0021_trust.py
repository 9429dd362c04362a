"""trust: team-first vagas, private invite vagas, blocks and 'Contratar novamente' invites.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 16:10:00.000000

`jobs.equipe_ate` holds a team-first vaga back from everyone but the company's team until that
instant; `jobs.privada` marks a 'Contratar novamente' vaga, seen only by its invited freelancer
(docs/product/trust.md "Minha equipe"). `blocks` holds either side's refusal to work with the other;
`invites` the private invites. Existing vagas stay public (both columns default to "not held").
The downgrade drops the tables and columns.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PUBLIC_INDEXES = {
    "ix_jobs_public_list": ["status", "is_archived", "privada", "criado_em", "equipe_ate", "cliente_id"],
    "ix_jobs_categoria_status": ["categoria", "status", "is_archived", "privada", "equipe_ate"],
    "ix_jobs_public_city": ["status", "is_archived", "privada", "cidade_busca", "criado_em", "equipe_ate"],
}
PUBLIC_INDEXES_BEFORE = {
    "ix_jobs_public_list": ["status", "is_archived", "criado_em"],
    "ix_jobs_categoria_status": ["categoria", "status", "is_archived"],
    "ix_jobs_public_city": ["status", "is_archived", "cidade_busca", "criado_em"],
}


def upgrade() -> None:
    # Plain ALTER TABLE on both engines: a batch copy would drop the SQLite jobs triggers (search, list token).
    op.add_column("jobs", sa.Column("equipe_ate", UTCDateTime(), nullable=True))
    op.add_column("jobs", sa.Column("privada", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_jobs_team_first", "jobs", ["equipe_ate"])
    # The public list filters on the two new columns too: put them in its indexes, so its count stays
    # an index-only read (bench/team_visibility.py measured 6x slower on SQLite without them).
    for name, columns in PUBLIC_INDEXES.items():
        op.drop_index(name, table_name="jobs")
        op.create_index(name, "jobs", columns)
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), nullable=False),
        sa.Column("blocked_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["blocker_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["blocked_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id"),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("company_id", sa.Integer(), nullable=False),
        sa.Column("freelancer_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("mensagem", sa.String(length=500), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("answered_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["company_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["freelancer_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("job_id"),
    )
    op.create_index("ix_invites_freelancer_status", "invites", ["freelancer_id", "status"])
    op.create_index("ix_invites_company_created", "invites", ["company_id", "created_at"])
    op.create_index("ix_invites_expires", "invites", ["status", "expires_at"])


def downgrade() -> None:
    for index in ("ix_invites_expires", "ix_invites_company_created", "ix_invites_freelancer_status"):
        op.drop_index(index, table_name="invites")
    op.drop_table("invites")
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    for name, columns in PUBLIC_INDEXES_BEFORE.items():
        op.drop_index(name, table_name="jobs")
        op.create_index(name, "jobs", columns)
    op.drop_index("ix_jobs_team_first", table_name="jobs")
    op.drop_column("jobs", "privada")
    op.drop_column("jobs", "equipe_ate")
