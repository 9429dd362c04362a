"""protected payments: a vaga's payment mode, a company's CNPJ, Checkout payments and the ledger

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 13:40:00.000000

'Pagamento garantido pelo Turno' (docs/product/money.md "Pagamento garantido"): a vaga says how it is
paid (`jobs.pagamento`, 'direto' for every existing vaga); a company gives its CNPJ before its
first protected payment (`profiles.cnpj`, empty for everyone); each Stripe Checkout a company opens
for a hiring is a `protected_payments` row and every money step a `money_movements` ledger line
(unique idempotency key). A hiring remembers when its settlement next runs (`repasse_em`, indexed
for the timer), how many tries failed and the last failure. Existing rows get the defaults, so
nothing that was paid directly changes; the downgrade drops the new tables and columns.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op
from core.types import UTCDateTime

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _str(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("pagamento", _str(16), nullable=False, server_default="direto"))
    with op.batch_alter_table("profiles") as batch:
        batch.add_column(sa.Column("cnpj", _str(14), nullable=False, server_default=""))
    with op.batch_alter_table("hirings") as batch:
        batch.add_column(sa.Column("repasse_em", UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("repasse_tentativas", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("repasse_erro", _str(200), nullable=False, server_default=""))
    op.create_index("ix_hirings_settle", "hirings", ["repasse_em"])
    op.create_table(
        "protected_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hiring_id", sa.Integer(), nullable=False),
        sa.Column("company_id", sa.Integer(), nullable=False),
        sa.Column("kind", _str(16), nullable=False),
        sa.Column("status", _str(16), nullable=False),
        sa.Column("freelancer_centavos", sa.Integer(), nullable=False),
        sa.Column("fee_centavos", sa.Integer(), nullable=False),
        sa.Column("fee_percent", sa.Integer(), nullable=False),
        sa.Column("checkout_session_id", _str(255), nullable=False),
        sa.Column("checkout_url", _str(1000), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=True),
        sa.Column("payment_intent_id", _str(255), nullable=False),
        sa.Column("charge_id", _str(255), nullable=False),
        sa.Column("receipt_url", _str(1000), nullable=False),
        sa.Column("paid_at", UTCDateTime(), nullable=True),
        sa.Column("dispute_id", _str(255), nullable=False),
        sa.Column("disputed_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["hiring_id"], ["hirings.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["company_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_protected_payments_hiring", "protected_payments", ["hiring_id"])
    op.create_index("ix_protected_payments_company", "protected_payments", ["company_id", "created_at"])
    op.create_index("ix_protected_payments_checkout_session_id", "protected_payments", ["checkout_session_id"])
    op.create_index("ix_protected_payments_charge_id", "protected_payments", ["charge_id"])
    op.create_table(
        "money_movements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hiring_id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("kind", _str(16), nullable=False),
        sa.Column("amount_centavos", sa.Integer(), nullable=False),
        sa.Column("stripe_id", _str(255), nullable=False),
        sa.Column("key", _str(120), nullable=False),
        sa.Column("reversed_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["hiring_id"], ["hirings.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["payment_id"], ["protected_payments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_index("ix_money_movements_hiring", "money_movements", ["hiring_id"])


def downgrade() -> None:
    op.drop_index("ix_money_movements_hiring", table_name="money_movements")
    op.drop_table("money_movements")
    for index in ("charge_id", "checkout_session_id", "company", "hiring"):
        op.drop_index(f"ix_protected_payments_{index}", table_name="protected_payments")
    op.drop_table("protected_payments")
    op.drop_index("ix_hirings_settle", table_name="hirings")
    with op.batch_alter_table("hirings") as batch:
        batch.drop_column("repasse_erro")
        batch.drop_column("repasse_tentativas")
        batch.drop_column("repasse_em")
    with op.batch_alter_table("profiles") as batch:
        batch.drop_column("cnpj")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("pagamento")
