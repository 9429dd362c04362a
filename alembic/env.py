"""Alembic environment: the database URL comes from core.settings (or config attributes)."""

from logging.config import fileConfig

from sqlalchemy import create_engine, pool
from sqlmodel import SQLModel

import models  # noqa: F401  (registers every table)
from alembic import context
from core.settings import get_settings
from models.job import SEARCH_INDEX_TABLE as FTS_PREFIX

config = context.config
if config.config_file_name is not None and not config.attributes.get("skip_logging"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _url() -> str:
    return config.attributes.get("database_url") or get_settings().database_url


def _render_item(type_, obj, autogen_context):
    """Render project column types with an import so revisions stay self-contained."""
    if type_ == "type" and obj.__class__.__module__ == "core.types":
        autogen_context.imports.add("import core.types")
        return f"core.types.{obj.__class__.__name__}()"
    if type_ == "type" and obj.__class__.__module__.startswith("sqlmodel"):
        autogen_context.imports.add("import sqlmodel")
    return False


def run_migrations_offline() -> None:
    """Emit SQL for the configured URL without a connection."""
    context.configure(
        url=_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Apply migrations over a live connection."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


def _include_name(name, type_, _parent_names) -> bool:
    """Leave SQLite's search objects (revision 0004: FTS5 table, scan index; not models) out of autogenerate."""
    return not (type_ in ("table", "index") and name and name.startswith(FTS_PREFIX))


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_name=_include_name,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()
    if connection.dialect.name == "sqlite":
        # Planner statistics, sampled (fast at any size): without them SQLite drives the job search
        # from the status index instead of the FTS matches, 4x slower (docs/performance.md).
        connection.exec_driver_sql("PRAGMA analysis_limit=1000")
        connection.exec_driver_sql("ANALYZE")
        connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
