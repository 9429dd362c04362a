"""payout accounts: a freelancer's CPF, fiscal data and Stripe connected account

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 08:30:00.000000

'Pagamento garantido pelo Turno' pays freelancers through a Stripe connected account. Before one
is opened the freelancer gives a CPF (unique), says whether they invoice as MEI (with its CNPJ) or
as autônomo, and where from (an IBGE municipality code, for the NFS-e). One row per freelancer,
deleted with the account. A new table: nothing existing moves, and the downgrade drops it.

Also an index on `profiles.cidade_ibge`: new-job alerts find the freelancers of a municipality by
its code (services.jobs.job_alerts.alert_new_job).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op
from core.types import UTCDateTime

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _str(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    op.create_table(
        "payout_accounts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("cpf", _str(11), nullable=False),
        sa.Column("regime", _str(16), nullable=False),
        sa.Column("mei_cnpj", _str(14), nullable=False),
        sa.Column("municipio_ibge", sa.Integer(), nullable=True),
        sa.Column("stripe_account_id", _str(64), nullable=False),
        sa.Column("details_submitted", sa.Boolean(), nullable=False),
        sa.Column("payouts_enabled", sa.Boolean(), nullable=False),
        sa.Column("requirements_due", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
        sa.UniqueConstraint("cpf"),
    )
    op.create_index("ix_payout_accounts_stripe_account_id", "payout_accounts", ["stripe_account_id"])
    op.create_index("ix_profiles_cidade_ibge", "profiles", ["cidade_ibge"])


def downgrade() -> None:
    op.drop_index("ix_profiles_cidade_ibge", table_name="profiles")
    op.drop_index("ix_payout_accounts_stripe_account_id", table_name="payout_accounts")
    op.drop_table("payout_accounts")
