"""Loading jobs in bulk without paying their triggers once per row.

Two sets of triggers keep derived data in step with `jobs` row by row: SQLite's FTS5 search index
(alembic revision 0004) and the job list's token (revision 0007, services/jobs/list_version.py). A load of a
million jobs would fire each a million times (the 1M search benchmark took over 13 minutes that
way); `jobs_loading` drops them, lets the caller load, then rebuilds the search index once, puts the
triggers back and moves the token once. For offline loads (seed-large, benchmarks): writes by
others while the triggers are gone would miss the index and the token.

The FTS trigger text is the live copy of revision 0004's; tests/unit/jobs/test_list_version.py checks
that dropping and recreating them here leaves the database's catalog exactly as the migration did.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import Connection, Engine

from services.jobs import list_version

FTS_TRIGGERS = {  # models.job.SEARCH_INDEX_TABLE is jobs_busca_fts
    "jobs_busca_fts_ai": "AFTER INSERT ON jobs BEGIN INSERT INTO jobs_busca_fts(rowid, busca) VALUES (new.id, new.busca); END",
    "jobs_busca_fts_ad": (
        "AFTER DELETE ON jobs BEGIN INSERT INTO jobs_busca_fts(jobs_busca_fts, rowid, busca) "
        "VALUES ('delete', old.id, old.busca); END"
    ),
    "jobs_busca_fts_au": (
        "AFTER UPDATE OF busca ON jobs BEGIN "
        "INSERT INTO jobs_busca_fts(jobs_busca_fts, rowid, busca) VALUES ('delete', old.id, old.busca); "
        "INSERT INTO jobs_busca_fts(rowid, busca) VALUES (new.id, new.busca); END"
    ),
}


@contextmanager
def jobs_loading(connection: Connection) -> Iterator[None]:
    """Load jobs (and profiles) on `connection` inside the block with their row triggers off.

    On SQLite the search index is rebuilt from `jobs` afterwards (one pass, whatever was loaded).
    A failed load leaves every trigger in place (see `list_version.triggers_suspended`).

    Args:
        connection: The loading connection; the caller commits.

    Yields:
        Nothing; insert inside the block.
    """
    sqlite = connection.dialect.name == "sqlite"
    with list_version.triggers_suspended(connection):
        if sqlite:
            for name in FTS_TRIGGERS:  # names only, from the constant above
                connection.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}")
        try:
            yield
        except BaseException:
            if sqlite:
                _create_fts_triggers(connection)
            raise
        if sqlite:
            connection.exec_driver_sql("INSERT INTO jobs_busca_fts(jobs_busca_fts) VALUES ('rebuild')")
            _create_fts_triggers(connection)


def _create_fts_triggers(connection: Connection) -> None:
    """Create the search index's triggers as revision 0004 did."""
    for name, body in FTS_TRIGGERS.items():
        connection.exec_driver_sql(f"CREATE TRIGGER {name} {body}")


def settle(engine: Engine) -> None:
    """After a bulk load, bring the tables to the state a live database is in: fresh statistics.

    Both engines get ANALYZE (without statistics SQLite drives the job search from the status index,
    which is slower, docs/performance.md). PostgreSQL gets VACUUM ANALYZE: it also sets the visibility map that index-only
    scans (the list's counts) rely on, which autovacuum does to a live table within minutes but a
    just-loaded table lacks.

    Args:
        engine: The loaded database.
    """
    statement = "VACUUM ANALYZE" if engine.dialect.name == "postgresql" else "ANALYZE"
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql(statement)
