"""punctuality badge: a company's 'Selo Empresa Pontual' kept on its profile.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 16:50:00.000000

`profiles.selo_pontual` (the badge), `selo_resumo` (its figures in one line, shown with it) and
`selo_dados` (the figures and what is missing, for the company's own panel) are written by the
timer (services/trust/punctuality.py) when the company's hirings changed or a day passed;
`selo_em` is when. The job list and the job page show the first two, so the job list token's
profile triggers now also fire on them (their text lives in services/jobs/list_version.py; the frozen copy
is here). `ix_hirings_company_updated` finds the companies whose hirings changed since. Existing
companies start without the badge until the timer's first pass.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from core.types import UTCDateTime

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIST_TABLE = "job_list_version"
NEW_TOKEN = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text || clock_timestamp()::text)"}
LIST_PROFILE_COLUMNS = {
    "0008": "empresa, nome, foto_url, biografia, website, redes_sociais",
    "0022": "empresa, nome, foto_url, biografia, website, redes_sociais, selo_pontual, selo_resumo",
}


def _list_profile_triggers(dialect: str, columns: str) -> None:
    """Re-create the job list token's profile trigger(s) to fire on `columns` (as revision 0008 does)."""
    bump = f"UPDATE {LIST_TABLE} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"
    if dialect == "sqlite":
        op.execute(f"DROP TRIGGER IF EXISTS {LIST_TABLE}_profiles_au")
        op.execute(f"CREATE TRIGGER {LIST_TABLE}_profiles_au AFTER UPDATE OF {columns} ON profiles BEGIN {bump}; END")
        return
    op.execute(f"DROP TRIGGER IF EXISTS {LIST_TABLE}_profiles ON profiles")
    op.execute(
        f"CREATE CONSTRAINT TRIGGER {LIST_TABLE}_profiles AFTER INSERT OR UPDATE OF {columns} OR DELETE ON profiles "
        f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {LIST_TABLE}_bump()"
    )


def upgrade() -> None:
    # Plain ALTER TABLE: a batch copy of `profiles` would drop its triggers on SQLite.
    op.add_column("profiles", sa.Column("selo_pontual", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("profiles", sa.Column("selo_resumo", sa.String(length=200), nullable=False, server_default=""))
    op.add_column("profiles", sa.Column("selo_dados", sa.JSON(), nullable=True))
    op.add_column("profiles", sa.Column("selo_em", UTCDateTime(), nullable=True))
    op.create_index("ix_hirings_company_updated", "hirings", ["company_id", "updated_at"])
    _list_profile_triggers(op.get_bind().dialect.name, LIST_PROFILE_COLUMNS["0022"])


def downgrade() -> None:
    _list_profile_triggers(op.get_bind().dialect.name, LIST_PROFILE_COLUMNS["0008"])
    op.drop_index("ix_hirings_company_updated", table_name="hirings")
    for column in ("selo_em", "selo_dados", "selo_resumo", "selo_pontual"):
        op.drop_column("profiles", column)
