"""job list version token: job_list_version and the triggers that replace its token

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 10:00:00.000000

The public job list (/jobs and the freelancer's search) is the same for every visitor, so the app
caches its pages and counts (services/jobs/job_list_cache.py). A cached entry is valid while this
table's one token is unchanged; triggers replace the token in the same commit as any write to
`jobs` and any change of a company's shown name or photo in `profiles`, whichever process wrote
it. On PostgreSQL they are deferred constraint triggers (run at commit: the token row is locked
last and briefly, so it adds no deadlock); on SQLite, plain row triggers.

The trigger text is frozen here; services/jobs/list_version.py holds the live copy that bulk loads put back,
and tests/unit/jobs/test_list_version.py checks the two agree. A later revision that rebuilds `jobs`
or `profiles` on SQLite (batch "move and copy") drops these triggers and must create them again.
"""
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = 'job_list_version'
NEW_TOKEN = {'sqlite': 'lower(hex(randomblob(16)))', 'postgresql': 'md5(random()::text || clock_timestamp()::text)'}
SQLITE_TRIGGERS = {
    f'{TABLE}_jobs_ai': 'AFTER INSERT ON jobs',
    f'{TABLE}_jobs_au': 'AFTER UPDATE ON jobs',
    f'{TABLE}_jobs_ad': 'AFTER DELETE ON jobs',
    f'{TABLE}_profiles_ai': 'AFTER INSERT ON profiles',
    f'{TABLE}_profiles_au': 'AFTER UPDATE OF empresa, nome, foto_url ON profiles',
    f'{TABLE}_profiles_ad': 'AFTER DELETE ON profiles',
}
PG_FUNCTION = f'{TABLE}_bump'
PG_TRIGGERS = {
    f'{TABLE}_jobs': ('jobs', 'AFTER INSERT OR UPDATE OR DELETE ON jobs'),
    f'{TABLE}_profiles': ('profiles', 'AFTER INSERT OR UPDATE OF empresa, nome, foto_url OR DELETE ON profiles'),
}


def upgrade() -> None:
    """Create the table with its one row and the triggers that keep its token moving."""
    op.create_table(
        TABLE,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    dialect = op.get_bind().dialect.name
    op.execute(f"INSERT INTO {TABLE} (id, token) VALUES (1, {NEW_TOKEN[dialect]})")
    bump = f"UPDATE {TABLE} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"
    if dialect == 'sqlite':
        for name, when in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} BEGIN {bump}; END")
        return
    op.execute(
        f"CREATE OR REPLACE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {bump}; RETURN NULL; END $$"
    )
    for name, (_table, when) in PG_TRIGGERS.items():
        op.execute(
            f"CREATE CONSTRAINT TRIGGER {name} {when} DEFERRABLE INITIALLY DEFERRED "
            f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()"
        )


def downgrade() -> None:
    """Drop the triggers, the function (PostgreSQL) and the table."""
    if op.get_bind().dialect.name == 'sqlite':
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        for name, (table, _when) in PG_TRIGGERS.items():
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")
    op.drop_table(TABLE)
