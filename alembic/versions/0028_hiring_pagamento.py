"""hiring pagamento: one name for the payment mode on both tables.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07 22:30:00.000000

A vaga says how it is paid in `jobs.pagamento`; its hirings copied it into `hirings.payment_mode`.
One name now (models.PaymentMode, 'direto' or 'garantido'): the column is renamed, its values stay.
ALTER TABLE ... RENAME COLUMN keeps the table, its indexes and triggers (PostgreSQL, SQLite >= 3.25).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE hirings RENAME COLUMN payment_mode TO pagamento")


def downgrade() -> None:
    op.execute("ALTER TABLE hirings RENAME COLUMN pagamento TO payment_mode")
