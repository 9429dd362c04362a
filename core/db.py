"""Database engine and sessions."""

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from core.settings import get_settings

SQLITE_BUSY_SECONDS = 30


def make_engine(url: str, connections: int | None = None) -> Engine:
    """Create an engine for `url` with the pragmas and pool settings the app relies on.

    Args:
        url: A SQLAlchemy database URL (SQLite or PostgreSQL).
        connections: The most connections open at once; the app's pool sizes when omitted.

    Returns:
        The configured engine.
    """
    pool = {} if connections is None else {"pool_size": connections, "max_overflow": 0}
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS}, **pool)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, **(pool or {"pool_size": 10, "max_overflow": 10}))


@lru_cache
def get_engine() -> Engine:
    """Return the process-wide engine for the configured database."""
    return make_engine(get_settings().database_url)


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """Open a session that commits on success and rolls back on any error.

    Args:
        engine: The engine to use; the configured one when omitted.

    Yields:
        An open SQLModel session.
    """
    with Session(engine or get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def lock_for_write(session: Session) -> None:
    """On SQLite, make the session's transaction the database's one writer now (BEGIN IMMEDIATE).

    SQLite ignores SELECT ... FOR UPDATE, and Python's sqlite3 module begins a transaction only at
    its first write: every read before it sees whatever was committed at that instant, so code that
    reads, decides and then writes can decide on rows that another request changes in between.
    After this call the transaction holds SQLite's write lock until it ends (other writers wait,
    within the busy timeout), so what it reads next stays true until it commits. Nothing happens
    on PostgreSQL (callers lock the rows they decide on) or when the transaction already wrote.

    Inside one process the callers first queue on a lock of their own (`_writer_lock`), held until
    the transaction ends: SQLite's busy handler polls with sleeps of up to 100 ms, so under load
    writers waiting on each other slept far longer than the writes took (docs/performance.md).
    Other processes still meet SQLite's own lock.

    Args:
        session: The session whose transaction is about to read and then write.

    Raises:
        sqlite3.OperationalError: Another writer of this process held the lock for longer than
            SQLITE_BUSY_SECONDS (as SQLite itself answers a writer that waited that long).
    """
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return
    if connection.connection.dbapi_connection.in_transaction:
        return
    lock = _writer_lock(connection.engine.url.render_as_string())
    if not lock.acquire(timeout=SQLITE_BUSY_SECONDS):
        raise sqlite3.OperationalError("database is locked")
    held = [True]

    def release(_session: Session, transaction) -> None:
        if transaction.parent is None and held[0]:
            held[0] = False
            lock.release()

    event.listen(session, "after_transaction_end", release)
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        release(session, session.get_transaction())
        raise


_writer_locks: dict[str, threading.Lock] = {}
_writer_locks_guard = threading.Lock()


def _writer_lock(url: str) -> threading.Lock:
    """This process's queue for the write lock of the SQLite database at `url`."""
    with _writer_locks_guard:
        return _writer_locks.setdefault(url, threading.Lock())
