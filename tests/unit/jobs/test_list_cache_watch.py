"""The job list cache cannot go stale silently: its statements read only what the list token watches.

services/jobs/job_list_cache.py keeps counts, pages and job pages until the list token
(services/jobs/list_version.py) changes, and database triggers change the token only on writes to the
columns in `WATCHED_COLUMNS`. A cached statement that reads any other column would serve an old
answer after that column changes; this test fails as soon as one does.
"""

import pytest
from sqlalchemy import select
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import ColumnClause

from models import Job, Profile, User
from services.jobs import job_detail
from services.jobs.list_version import WATCHED_COLUMNS


def columns_read(statement) -> set[tuple[str, str]]:
    """Every (table, column) a statement refers to, in its columns, joins, filters and subqueries."""
    found = set()
    for element in visitors.iterate(statement, {"column_collections": True}):
        if isinstance(element, ColumnClause) and getattr(element, "table", None) is not None:
            found.add((element.table.name, element.name))
    return found


def unwatched(statement) -> set[tuple[str, str]]:
    """The columns a statement reads that no trigger of the list token watches."""
    out = set()
    for table, column in columns_read(statement):
        watched = WATCHED_COLUMNS.get(table, frozenset())
        if watched is not None and column not in watched:
            out.add((table, column))
    return out


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_every_cached_statement_reads_only_watched_columns(dialect):
    statements = job_detail.cached_statements(dialect)

    assert set(statements) == {"count", "page", "job page"}
    for name, statement in statements.items():
        assert columns_read(statement), name  # the walk sees the statement's columns at all
        assert unwatched(statement) == set(), name


def test_the_walk_sees_filters_joins_and_subqueries():
    statements = job_detail.cached_statements("sqlite")

    read = columns_read(statements["count"])
    assert {
        ("jobs", "cidade_busca"),
        ("jobs", "categoria"),
        ("jobs", "cliente_id"),
        ("jobs_busca_fts", "rowid"),
    } <= read
    assert ("profiles", "user_id") in columns_read(statements["page"])  # the join condition


def test_a_statement_reading_an_unwatched_column_is_caught():
    shows_the_phone = select(Job.id, Profile.telefone).join(Profile, Profile.user_id == Job.cliente_id)
    filters_on_users = select(Job.id).where(
        Job.cliente_id.in_(select(Profile.user_id).where(Profile.cidade_busca == "x"))
    )

    reads_users = select(Job.id).join(User, User.id == Job.cliente_id).where(User.is_active)

    assert unwatched(shows_the_phone) == {("profiles", "telefone")}
    assert unwatched(reads_users) == {("users", "id"), ("users", "is_active")}
    assert unwatched(filters_on_users) == {("profiles", "cidade_busca")}
