"""The public job list's version token: changes in the same commit as anything the list shows.

`job_list_version` holds one row whose `token` every write to `jobs`, and every change of a
company's shown name or photo in `profiles`, replaces with a random value, from database triggers
(alembic revision 0007). A reader that fetched the token before a list query knows that query's
result stays right for as long as the token is unchanged, whichever process or worker wrote, and
whatever wrote (the app, a script, a restore: a restored database brings back its own token with
its own rows). services/job_list_cache.py keys its cache on it.

On PostgreSQL the triggers are deferred constraint triggers: the token row is updated at commit,
after the writer holds every other lock it needs, so it cannot take part in a deadlock, and it is
locked only for the commit itself. On SQLite (one writer at a time) they are plain row triggers.

The trigger text lives here once for code that must put it back (bulk loads drop it, see
`triggers_suspended`); the migration keeps its own frozen copy, and a unit test checks both match.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import literal_column, update
from sqlalchemy.engine import Connection
from sqlmodel import Session

from models.job import JobListVersion

TABLE = JobListVersion.__tablename__
_NEW_TOKEN = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text || clock_timestamp()::text)"}
_BUMP = f"UPDATE {TABLE} SET token = {{token}} WHERE id = 1"  # noqa: S608 (constants only: trigger text)
_SHOWN_PROFILE_COLUMNS = "empresa, nome, foto_url"
# Read once per list request: plain SQL, no ORM statement to build (profiled at 6% of a /jobs event).
_READ = "SELECT token FROM job_list_version WHERE id = 1"
_READ_PG = "SELECT token, txid_current_if_assigned() FROM job_list_version WHERE id = 1"

SQLITE_TRIGGERS = {
    f"{TABLE}_jobs_ai": "AFTER INSERT ON jobs",
    f"{TABLE}_jobs_au": "AFTER UPDATE ON jobs",
    f"{TABLE}_jobs_ad": "AFTER DELETE ON jobs",
    f"{TABLE}_profiles_ai": "AFTER INSERT ON profiles",
    f"{TABLE}_profiles_au": f"AFTER UPDATE OF {_SHOWN_PROFILE_COLUMNS} ON profiles",
    f"{TABLE}_profiles_ad": "AFTER DELETE ON profiles",
}
PG_FUNCTION = f"{TABLE}_bump"
PG_TRIGGERS = {
    f"{TABLE}_jobs": "AFTER INSERT OR UPDATE OR DELETE ON jobs",
    f"{TABLE}_profiles": f"AFTER INSERT OR UPDATE OF {_SHOWN_PROFILE_COLUMNS} OR DELETE ON profiles",
}


def trigger_ddl(dialect: str) -> list[str]:
    """The statements that create the token's triggers (and, on PostgreSQL, their function).

    Args:
        dialect: The database's dialect name ("sqlite" or "postgresql").

    Returns:
        CREATE statements, in order.
    """
    bump = _BUMP.format(token=_NEW_TOKEN[dialect])
    if dialect == "sqlite":
        return [f"CREATE TRIGGER {name} {when} BEGIN {bump}; END" for name, when in SQLITE_TRIGGERS.items()]
    function = (
        f"CREATE OR REPLACE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN {bump}; RETURN NULL; END $$"
    )
    triggers = [
        f"CREATE CONSTRAINT TRIGGER {name} {when} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()"
        for name, when in PG_TRIGGERS.items()
    ]
    return [function, *triggers]


def drop_ddl(dialect: str) -> list[str]:
    """The statements that drop the token's triggers (the function stays: the migration owns it).

    Args:
        dialect: The database's dialect name.

    Returns:
        DROP statements.
    """
    if dialect == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name}" for name in SQLITE_TRIGGERS]
    return [f"DROP TRIGGER IF EXISTS {name} ON {when.rsplit(' ', 1)[1]}" for name, when in PG_TRIGGERS.items()]


def bump(connection: Connection) -> None:
    """Give the list a new token now (after writes the triggers did not see, e.g. a bulk load).

    Args:
        connection: An open connection inside the writing transaction.
    """
    token = literal_column(_NEW_TOKEN[connection.dialect.name])
    connection.execute(update(JobListVersion).where(JobListVersion.id == 1).values(token=token))


def current(db: Session) -> str | None:
    """The token as this session sees it, or None when nothing may be cached for this session.

    None when the row is missing, and on PostgreSQL when this transaction has already written
    (its XID is assigned): there the triggers move the token only at commit, so the token would not
    yet show the transaction's own writes. On SQLite they run at once, so own writes move it.

    Args:
        db: Open database session.

    Returns:
        The current token, or None.
    """
    connection = db.connection()
    if connection.dialect.name == "postgresql":
        row = connection.exec_driver_sql(_READ_PG).first()
        return row[0] if row is not None and row[1] is None else None
    row = connection.exec_driver_sql(_READ).first()
    return row[0] if row is not None else None


@contextmanager
def triggers_suspended(connection: Connection) -> Iterator[None]:
    """Drop the token's triggers for a bulk load, then put them back and bump the token once.

    Row triggers cost one extra write per loaded row; a load of a million jobs needs one bump. On
    PostgreSQL the drop is part of the caller's transaction (a failed load rolls it back); SQLite's
    driver runs DDL outside any transaction, so there a failed load puts the triggers back itself.
    Meant for offline loads: writes by others while the triggers are gone do not move the token.

    Args:
        connection: The loading connection; the caller commits.

    Yields:
        Nothing; load inside the block.
    """
    dialect = connection.dialect.name
    for statement in drop_ddl(dialect):
        connection.exec_driver_sql(statement)
    try:
        yield
    except BaseException:
        if dialect == "sqlite":
            _create_triggers(connection)
        raise
    _create_triggers(connection)
    bump(connection)


def _create_triggers(connection: Connection) -> None:
    """Run `trigger_ddl` on `connection`."""
    for statement in trigger_ddl(connection.dialect.name):
        connection.exec_driver_sql(statement)
