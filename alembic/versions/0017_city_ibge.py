"""cities from the IBGE list: jobs and profiles keep the municipality's code beside its display name

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 06:00:00.000000

A city is now chosen from Brazil's municipalities (core.cities, core/data/municipios.csv) and kept
as its IBGE code (`cidade_ibge`) plus its display name in `localizacao` ('Curitiba, PR'). This
revision adds the column to `jobs` and `profiles` and moves each existing free-text location to
its best match (core.cities.best_match: the exact name, with its state when given; a name several
states share goes to the state capital when one of them is; otherwise a close spelling). A location
with no clear match keeps its text and no code; the form asks for a city from the list the next
time it is saved. For a moved job the derived `cidade_busca` (0016's form) and `busca` (0015's form)
are rewritten too, with those revisions' own functions so their meaning stays fixed.

The downgrade drops the columns; the locations keep their display names, which older code reads
as free text.
"""

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path

import sqlalchemy as sa

from alembic import op
from core.cities import best_match

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000
_JOBS = sa.table(
    "jobs",
    sa.column("id", sa.Integer),
    sa.column("titulo", sa.String),
    sa.column("categoria", sa.String),
    sa.column("localizacao", sa.String),
    sa.column("endereco", sa.String),
    sa.column("busca", sa.String),
    sa.column("cidade_busca", sa.String),
    sa.column("cidade_ibge", sa.Integer),
)
_PROFILES = sa.table(
    "profiles",
    sa.column("user_id", sa.Integer),
    sa.column("localizacao", sa.String),
    sa.column("cidade_busca", sa.String),
    sa.column("cidade_ibge", sa.Integer),
)


def _revision_function(filename: str, name: str) -> Callable:
    """A function of an earlier revision's file (they never change, so neither does what it computes)."""
    spec = importlib.util.spec_from_file_location(f"turno_revision_{name}", Path(__file__).with_name(filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


@cache
def _moved(location: str | None) -> tuple[str, int] | None:
    """(display name, IBGE code) a stored location moves to, or None when it stays as it is."""
    city = best_match(location or "")
    return (city.label, city.code) if city is not None else None


def _batches(bind, table, key) -> Iterator[Sequence]:
    """The rows of `table`, BATCH at a time, in `key` order."""
    last = None
    while True:
        query = sa.select(table).order_by(key).limit(BATCH)
        rows = bind.execute(query if last is None else query.where(key > last)).all()
        if not rows:
            return
        yield rows
        last = rows[-1]._mapping[key.name]


def _move(bind, table, key, extra: Callable | None = None) -> None:
    """Move every row of `table` whose location has a municipality: name, code and folded city.

    Args:
        bind: The migration's connection.
        table: _JOBS or _PROFILES.
        key: The table's primary key column.
        extra: For a row and its new display name, other columns to write (the job's `busca`).
    """
    city_key = _revision_function("0016_job_city_key.py", "city_0016")
    for rows in _batches(bind, table, key):
        changes = []
        for row in rows:
            moved = _moved(row.localizacao)
            if moved is not None:
                label, code = moved
                values = {"localizacao": label, "cidade_ibge": code, "cidade_busca": city_key(label)}
                values.update(extra(row, label) if extra else {})
                changes.append({"row_key": row._mapping[key.name], **{f"new_{name}": v for name, v in values.items()}})
        if changes:
            columns = [name.removeprefix("new_") for name in changes[0] if name != "row_key"]
            statement = table.update().where(key == sa.bindparam("row_key"))  # SET's own names are reserved
            bind.execute(statement.values({name: sa.bindparam(f"new_{name}") for name in columns}), changes)


def _move_jobs(bind) -> None:
    busca = _revision_function("0015_search_city_and_address.py", "busca_0015")
    _move(bind, _JOBS, _JOBS.c.id, lambda row, label: {"busca": busca(row.titulo, row.categoria, label, row.endereco)})


def _move_profiles(bind) -> None:
    _move(bind, _PROFILES, _PROFILES.c.user_id)


def upgrade() -> None:
    """Add `cidade_ibge` to jobs and profiles and move every location to its municipality."""
    op.add_column("jobs", sa.Column("cidade_ibge", sa.Integer(), nullable=True))
    op.add_column("profiles", sa.Column("cidade_ibge", sa.Integer(), nullable=True))
    bind = op.get_bind()
    try:
        _move_jobs(bind)
        _move_profiles(bind)
    finally:
        if bind.dialect.name == "postgresql":  # fire the job list token's deferred triggers (0007) now
            op.execute("SET CONSTRAINTS ALL IMMEDIATE")
            op.execute("SET CONSTRAINTS ALL DEFERRED")


def downgrade() -> None:
    """Drop the codes; the display names stay, as free text."""
    op.execute("ALTER TABLE profiles DROP COLUMN cidade_ibge")
    op.execute("ALTER TABLE jobs DROP COLUMN cidade_ibge")
