"""Version tokens: one-row tables whose random token database triggers replace in the same commit as a write.

A process that keeps something read from the database (a page of the public job list, who a
session token belongs to) stores it with the token it read *before* its query. The entry stays
right for as long as the token is unchanged, whichever process or worker wrote, and whatever wrote
(the app, a script, a restore: a restored database brings back its own token with its own rows).
Reading the token is one single-row SELECT in plain SQL, far cheaper than the questions it saves
(docs/performance.md).

On PostgreSQL the triggers are deferred constraint triggers: the token row is updated at commit,
after the writer holds every other lock it needs, so it cannot take part in a deadlock, and it is
locked only for the commit itself. On SQLite (one writer at a time) they are plain row triggers.

Each token's trigger text lives in its module (services/jobs/list_version.py, services/accounts/session_version.py)
for code that must put it back (bulk loads drop it, see `VersionToken.triggers_suspended`); each
migration keeps its own frozen copy, and unit tests check both match.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import literal_column, update
from sqlalchemy.engine import Connection
from sqlmodel import Session, SQLModel

NEW_TOKEN = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text || clock_timestamp()::text)"}
Trigger = str | tuple[str, str]  # 'AFTER ... ON table', or that and a row condition (its WHEN)


def _parts(trigger: Trigger) -> tuple[str, str]:
    """A trigger's 'AFTER ... ON table' clause and its row condition ('' for none)."""
    return (trigger, "") if isinstance(trigger, str) else trigger


@dataclass(frozen=True)
class VersionToken:
    """One token table and the triggers that move its token.

    Attributes:
        model: The one-row table (columns `id` = 1 and `token`).
        sqlite_triggers: Trigger name -> its 'AFTER ... ON table' clause (and row condition), on SQLite.
        pg_triggers: Trigger name -> its 'AFTER ... ON table' clause (and row condition), on PostgreSQL.
    """

    model: type[SQLModel]
    sqlite_triggers: dict[str, Trigger]
    pg_triggers: dict[str, Trigger]

    @property
    def table(self) -> str:
        """The token table's name."""
        return self.model.__tablename__  # type: ignore[return-value]

    @property
    def pg_function(self) -> str:
        """The PostgreSQL trigger function's name."""
        return f"{self.table}_bump"

    def trigger_ddl(self, dialect: str) -> list[str]:
        """The statements that create the token's triggers (and, on PostgreSQL, their function).

        Args:
            dialect: The database's dialect name ("sqlite" or "postgresql").

        Returns:
            CREATE statements, in order.
        """
        bump = f"UPDATE {self.table} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"  # noqa: S608 (constants only)
        if dialect == "sqlite":
            statements = []
            for name, trigger in self.sqlite_triggers.items():
                when, condition = _parts(trigger)
                statements.append(
                    f"CREATE TRIGGER {name} {when}{f' WHEN {condition}' if condition else ''} BEGIN {bump}; END"
                )
            return statements
        function = (
            f"CREATE OR REPLACE FUNCTION {self.pg_function}() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN {bump}; RETURN NULL; END $$"
        )
        triggers = []
        for name, trigger in self.pg_triggers.items():
            when, condition = _parts(trigger)
            triggers.append(
                f"CREATE CONSTRAINT TRIGGER {name} {when} DEFERRABLE INITIALLY DEFERRED "
                f"FOR EACH ROW{f' WHEN ({condition})' if condition else ''} EXECUTE FUNCTION {self.pg_function}()"
            )
        return [function, *triggers]

    def drop_ddl(self, dialect: str) -> list[str]:
        """The statements that drop the token's triggers (the function stays: the migration owns it).

        Args:
            dialect: The database's dialect name.

        Returns:
            DROP statements.
        """
        if dialect == "sqlite":
            return [f"DROP TRIGGER IF EXISTS {name}" for name in self.sqlite_triggers]
        return [
            f"DROP TRIGGER IF EXISTS {name} ON {_parts(trigger)[0].rsplit(' ', 1)[1]}"
            for name, trigger in self.pg_triggers.items()
        ]

    def bump(self, connection: Connection) -> None:
        """Give the token a new value now (after writes the triggers did not see, e.g. a bulk load).

        Args:
            connection: An open connection inside the writing transaction.
        """
        model = self.model
        token = literal_column(NEW_TOKEN[connection.dialect.name])
        connection.execute(update(model).where(model.id == 1).values(token=token))  # type: ignore[attr-defined]

    def current(self, db: Session | Connection) -> str | None:
        """The token as this session or connection sees it, or None when nothing may be cached for it.

        None when the row is missing, and on PostgreSQL when this transaction has already written
        (its XID is assigned): there the triggers move the token only at commit, so the token would
        not yet show the transaction's own writes. On SQLite they run at once, so own writes move it.

        Args:
            db: Open database session, or a connection.

        Returns:
            The current token, or None.
        """
        connection = db.connection() if isinstance(db, Session) else db
        if connection.dialect.name == "postgresql":
            sql = f"SELECT token, txid_current_if_assigned() FROM {self.table} WHERE id = 1"  # noqa: S608
            row = connection.exec_driver_sql(sql).first()
            return row[0] if row is not None and row[1] is None else None
        row = connection.exec_driver_sql(f"SELECT token FROM {self.table} WHERE id = 1").first()  # noqa: S608
        return row[0] if row is not None else None

    @contextmanager
    def triggers_suspended(self, connection: Connection) -> Iterator[None]:
        """Drop the token's triggers for a bulk load, then put them back and bump the token once.

        Row triggers cost one extra write per loaded row; a load of a million rows needs one bump.
        On PostgreSQL the drop is part of the caller's transaction (a failed load rolls it back);
        SQLite's driver runs DDL outside any transaction, so there a failed load puts the triggers
        back itself. Meant for offline loads: writes by others while the triggers are gone do not
        move the token.

        Args:
            connection: The loading connection; the caller commits.

        Yields:
            Nothing; load inside the block.
        """
        dialect = connection.dialect.name
        for statement in self.drop_ddl(dialect):
            connection.exec_driver_sql(statement)
        try:
            yield
        except BaseException:
            if dialect == "sqlite":
                self._create_triggers(connection)
            raise
        self._create_triggers(connection)
        self.bump(connection)

    def _create_triggers(self, connection: Connection) -> None:
        """Run `trigger_ddl` on `connection`."""
        for statement in self.trigger_ddl(connection.dialect.name):
            connection.exec_driver_sql(statement)
