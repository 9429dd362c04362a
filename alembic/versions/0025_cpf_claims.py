"""cpf claims: several accounts may claim a CPF, one holds it once Stripe verified its owner.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07 14:10:00.000000

Saving a CPF no longer says whether another account has it (issue 41, point 4): the plain unique
constraint on `payout_accounts.cpf` becomes a plain index, and a partial unique index keeps one
*verified* account per CPF (`cpf_status = 'verificado'`, set when Stripe reports the connected
account's individual verified). Rows that existed had unique CPFs; those Stripe already enabled
payouts for (which in Brazil needs the individual verified) start verified, the others pending.

The downgrade restores the unique constraint: where several accounts claim one CPF it keeps the
verified claim (else the one of the lowest user id) and deletes the other claims, which the old schema cannot hold.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "payout_accounts"
VERIFIED = sa.text("cpf_status = 'verificado'")
SQLITE_NAMES = {"uq": "uq_%(table_name)s_%(column_0_name)s"}  # SQLite's unique constraint has no name


def _cpf_unique_name() -> str | None:
    for constraint in sa.inspect(op.get_bind()).get_unique_constraints(TABLE):
        if constraint["column_names"] == ["cpf"]:
            return constraint["name"]
    return None


def upgrade() -> None:
    """Claims instead of a unique CPF; existing rows with payouts enabled start verified."""
    name = _cpf_unique_name() or "uq_payout_accounts_cpf"
    with op.batch_alter_table(TABLE, naming_convention=SQLITE_NAMES) as batch:
        batch.add_column(sa.Column("cpf_status", sa.String(length=16), nullable=False, server_default="pendente"))
        batch.drop_constraint(name, type_="unique")
    verified = sa.text("UPDATE payout_accounts SET cpf_status = 'verificado' WHERE payouts_enabled = :on")
    op.execute(verified.bindparams(on=True))
    op.create_index("ix_payout_accounts_cpf", TABLE, ["cpf"])
    op.create_index(
        "uq_payout_accounts_verified_cpf",
        TABLE,
        ["cpf"],
        unique=True,
        sqlite_where=VERIFIED,
        postgresql_where=VERIFIED,
    )


def downgrade() -> None:
    """One row per CPF again (other claims deleted) and the unique constraint back."""
    op.execute(  # one claim per CPF: the verified one, else the lowest user id
        sa.text(
            "DELETE FROM payout_accounts WHERE EXISTS (SELECT 1 FROM payout_accounts AS other "
            "WHERE other.cpf = payout_accounts.cpf AND other.user_id <> payout_accounts.user_id "
            "AND (other.cpf_status = 'verificado' "
            "OR (payout_accounts.cpf_status <> 'verificado' AND other.user_id < payout_accounts.user_id)))"
        )
    )
    op.drop_index("uq_payout_accounts_verified_cpf", table_name=TABLE)
    op.drop_index("ix_payout_accounts_cpf", table_name=TABLE)
    with op.batch_alter_table(TABLE) as batch:
        batch.drop_column("cpf_status")
        batch.create_unique_constraint("payout_accounts_cpf_key", ["cpf"])
