"""SQLite job search index: an FTS5 trigram index over jobs.busca

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 23:10:00.000000

PostgreSQL serves `busca LIKE '%term%'` from the pg_trgm GIN index of revision 0002. SQLite has no
such index: at 200,000 jobs the scan took 80-110 ms per search (docs/performance.md). Here SQLite
gets the same kind of index, FTS5's trigram tokenizer over the folded `busca` column, kept as an
external-content table synchronised by triggers, which answers `LIKE '%term%'` from the index for
terms of three characters or more (services.jobs uses it on SQLite only). Shorter terms ('dj')
cannot use trigrams; for them a covering index (status, is_archived, busca) lets the count scan
the index instead of the table (4-7x faster at 200,000 jobs). Both objects carry the
`jobs_busca_fts` prefix, which alembic/env.py leaves out of autogenerate: they are not models.

A later revision that rebuilds the `jobs` table on SQLite (batch "move and copy") drops these
triggers and must create them again; tests/unit/models/test_migrations.py checks they exist at head.
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = 'jobs_busca_fts'
SCAN_INDEX = 'jobs_busca_fts_scan'
TRIGGERS = {
    'jobs_busca_fts_ai': f"AFTER INSERT ON jobs BEGIN INSERT INTO {TABLE}(rowid, busca) VALUES (new.id, new.busca); END",
    'jobs_busca_fts_ad': (
        f"AFTER DELETE ON jobs BEGIN INSERT INTO {TABLE}({TABLE}, rowid, busca) VALUES ('delete', old.id, old.busca); END"
    ),
    'jobs_busca_fts_au': (
        f"AFTER UPDATE OF busca ON jobs BEGIN "
        f"INSERT INTO {TABLE}({TABLE}, rowid, busca) VALUES ('delete', old.id, old.busca); "
        f"INSERT INTO {TABLE}(rowid, busca) VALUES (new.id, new.busca); END"
    ),
}


def upgrade() -> None:
    """Create the trigram index, fill it from the existing jobs and keep it in step (SQLite only)."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(busca, content='jobs', content_rowid='id', tokenize='trigram')"
    )
    op.execute(f"INSERT INTO {TABLE}({TABLE}) VALUES ('rebuild')")
    for name, body in TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {body}")
    op.execute(f"CREATE INDEX {SCAN_INDEX} ON jobs (status, is_archived, busca)")


def downgrade() -> None:
    """Drop the triggers and the index (SQLite only)."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    op.execute(f"DROP INDEX IF EXISTS {SCAN_INDEX}")
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute(f"DROP TABLE IF EXISTS {TABLE}")
