"""session version token: session_version and its triggers; the job list token follows a company's bio and links

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 12:00:00.000000

Every event handler asks who is calling (services/accounts/sessions.py `resolve`): a join of the session,
its user and profile, about a quarter of a millisecond, on every event. The app now keeps the
answers per process (services/accounts/session_cache.py), valid while this table's one token is unchanged.
Triggers replace the token in the same commit as the end or change of any session and any change
of a user's e-mail, role, activity, deletion or shown name, whichever process wrote it. A login
and the refresh of `last_seen_at` do not move it. On PostgreSQL they are deferred constraint
triggers (run at commit: the token row is locked last and briefly); on SQLite, plain row triggers.

The job list token's profile triggers (0007) now also fire on `biografia`, `website` and
`redes_sociais`: the public job page, which shows them, is cached on that token too.

The trigger text is frozen here; services/accounts/session_version.py holds the live copy, and
tests/unit/accounts/test_session_cache.py checks the two agree. A later revision that rebuilds
`auth_sessions`, `users` or `profiles` on SQLite (batch "move and copy") drops these triggers and
must create them again. `last_seen_at` set back (never by the app) moves the token too: the cache
trusts only uses it has seen.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "session_version"
NEW_TOKEN = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text || clock_timestamp()::text)"}
SQLITE_TRIGGERS = {
    f"{TABLE}_sessions_au": "AFTER UPDATE OF user_id, token_hash, expires_at, remember ON auth_sessions",
    f"{TABLE}_sessions_ad": "AFTER DELETE ON auth_sessions",
    f"{TABLE}_sessions_back": "AFTER UPDATE OF last_seen_at ON auth_sessions WHEN NEW.last_seen_at < OLD.last_seen_at",
    f"{TABLE}_users_au": "AFTER UPDATE OF email, role, is_active, deleted_at ON users",
    f"{TABLE}_users_ad": "AFTER DELETE ON users",
    f"{TABLE}_profiles_ai": "AFTER INSERT ON profiles",
    f"{TABLE}_profiles_au": "AFTER UPDATE OF nome ON profiles",
    f"{TABLE}_profiles_ad": "AFTER DELETE ON profiles",
}
PG_FUNCTION = f"{TABLE}_bump"
PG_TRIGGERS = {
    f"{TABLE}_sessions": (
        "auth_sessions",
        "AFTER UPDATE OF user_id, token_hash, expires_at, remember OR DELETE ON auth_sessions",
        "",
    ),
    f"{TABLE}_sessions_back": (
        "auth_sessions",
        "AFTER UPDATE OF last_seen_at ON auth_sessions",
        "WHEN (NEW.last_seen_at < OLD.last_seen_at)",
    ),
    f"{TABLE}_users": ("users", "AFTER UPDATE OF email, role, is_active, deleted_at OR DELETE ON users", ""),
    f"{TABLE}_profiles": ("profiles", "AFTER INSERT OR UPDATE OF nome OR DELETE ON profiles", ""),
}
LIST_TABLE = "job_list_version"
LIST_PROFILE_COLUMNS = {
    "0007": "empresa, nome, foto_url",
    "0008": "empresa, nome, foto_url, biografia, website, redes_sociais",
}


def _list_profile_triggers(dialect: str, revision_columns: str) -> None:
    """Re-create the job list token's profile update trigger(s) to fire on `revision_columns`."""
    bump = f"UPDATE {LIST_TABLE} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"
    if dialect == "sqlite":
        op.execute(f"DROP TRIGGER IF EXISTS {LIST_TABLE}_profiles_au")
        op.execute(
            f"CREATE TRIGGER {LIST_TABLE}_profiles_au AFTER UPDATE OF {revision_columns} ON profiles BEGIN {bump}; END"
        )
        return
    op.execute(f"DROP TRIGGER IF EXISTS {LIST_TABLE}_profiles ON profiles")
    op.execute(
        f"CREATE CONSTRAINT TRIGGER {LIST_TABLE}_profiles AFTER INSERT OR UPDATE OF {revision_columns} OR DELETE ON profiles "
        f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {LIST_TABLE}_bump()"
    )


def upgrade() -> None:
    """Create the table with its one row and the triggers that keep its token moving; widen the list's."""
    _list_profile_triggers(op.get_bind().dialect.name, LIST_PROFILE_COLUMNS["0008"])
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    dialect = op.get_bind().dialect.name
    op.execute(f"INSERT INTO {TABLE} (id, token) VALUES (1, {NEW_TOKEN[dialect]})")
    bump = f"UPDATE {TABLE} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"
    if dialect == "sqlite":
        for name, when in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} BEGIN {bump}; END")
        return
    op.execute(
        f"CREATE OR REPLACE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {bump}; RETURN NULL; END $$"
    )
    for name, (_table, when, condition) in PG_TRIGGERS.items():
        op.execute(
            f"CREATE CONSTRAINT TRIGGER {name} {when} DEFERRABLE INITIALLY DEFERRED "
            f"FOR EACH ROW {condition} EXECUTE FUNCTION {PG_FUNCTION}()"
        )


def downgrade() -> None:
    """Drop the triggers, the function (PostgreSQL) and the table; the list's triggers as 0007 made them."""
    _list_profile_triggers(op.get_bind().dialect.name, LIST_PROFILE_COLUMNS["0007"])
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        for name, (table, _when, _condition) in PG_TRIGGERS.items():
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")
    op.drop_table(TABLE)
