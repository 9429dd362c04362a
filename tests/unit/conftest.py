"""Shared fixtures of the unit tests.

Database tests use the `db` fixture: a Session on a database migrated with Alembic to head. It runs
once on SQLite (a temporary file) and, when the environment variable TEST_DATABASE_URL points at a
PostgreSQL server (e.g. ``postgresql+psycopg://postgres@127.0.0.1/test``), once more on a database
created for the test session on that server and dropped at its end. Without the variable the
PostgreSQL variant is reported as skipped.

Rules for tests that use `db`:
- every table is emptied after each test, so each test starts from an empty schema;
- `core.db.session_scope()` (used by code that opens its own session) works on the same engine;
- on SQLite, commit (`db.commit()`) before calling code that writes through its own session,
  otherwise that code waits for the write lock held by `db`.

Every test runs with settings read afresh from a test environment (`settings` fixture), with a
low bcrypt cost so hashing stays fast.
"""

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import NullPool
from sqlmodel import Session, SQLModel

import core.db
from alembic import command
from core.settings import Settings, get_settings
from services.accounts import session_version, sessions
from services.jobs import list_version

if TYPE_CHECKING:
    from starlette.testclient import TestClient

    from tests.support.fake_stripe import FakeStripe

ROOT = Path(__file__).resolve().parents[2]
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
TOKEN_TABLES = {list_version.TABLE, session_version.TOKEN.table}  # one row each, kept: a migrated database has them

DATABASE_KINDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=[
            pytest.mark.postgres,
            pytest.mark.skipif(not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set"),
        ],
    ),
]


def alembic_config(url: str) -> Config:
    """Alembic configuration of the project pointed at `url` (logging left to pytest)."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["database_url"] = url
    cfg.attributes["skip_logging"] = True
    return cfg


@contextmanager
def empty_database(kind: str, directory: Path) -> Iterator[str]:
    """Create an empty database and yield its URL; a PostgreSQL one is dropped afterwards.

    Args:
        kind: "sqlite" (a new file in `directory`) or "postgresql" (a uniquely named database on
            the server of TEST_DATABASE_URL).
        directory: Where the SQLite file goes.

    Yields:
        The SQLAlchemy URL of the new database.
    """
    if kind == "sqlite":
        yield f"sqlite:///{directory / f'test-{uuid.uuid4().hex[:8]}.db'}"
        return
    server = make_url(TEST_DATABASE_URL)
    name = f"turno_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "")
needs_redis = pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")


@pytest.fixture
def redis_throttle(db, monkeypatch) -> Iterator[str]:
    """Login throttle counters in the Redis of TEST_REDIS_URL under a prefix of this test's own; yields the prefix."""
    import redis

    from services.common import throttle

    monkeypatch.setenv("REFLEX_REDIS_URL", TEST_REDIS_URL)
    prefix = f"turno:test-throttle:{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(throttle, "redis_prefix", lambda _database_url: prefix)
    get_settings.cache_clear()
    yield prefix
    client = redis.Redis.from_url(TEST_REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    client.close()


@pytest.fixture(autouse=True)
def settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Settings of a test run: bcrypt cost 4, no SMTP (e-mail goes to the outbox), fixed site URL.

    Tests may change more with `monkeypatch.setenv(...)` followed by `get_settings.cache_clear()`.
    """
    monkeypatch.setenv("APP_ENV", "test")
    monkeypatch.setenv("BCRYPT_ROUNDS", "4")
    monkeypatch.setenv("SITE_URL", "http://turno.test")
    monkeypatch.setenv("SMTP_HOST", "")
    get_settings.cache_clear()
    yield get_settings()
    get_settings.cache_clear()


@pytest.fixture(scope="session", params=DATABASE_KINDS)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine on a database migrated to head, shared by the whole test session (one per kind)."""
    with empty_database(request.param, tmp_path_factory.mktemp("db")) as url:
        command.upgrade(alembic_config(url), "head")
        eng = core.db.make_engine(url)
        try:
            yield eng
        finally:
            eng.dispose()


@pytest.fixture
def db(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[Session]:
    """A Session on the test database; `core.db.session_scope()` uses the same engine.

    Every table is emptied when the test ends (children before parents), except the version
    token rows (revisions 0007 and 0008), which a migrated database always has.
    """
    monkeypatch.setattr(core.db, "get_engine", lambda: engine)
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    get_settings.cache_clear()
    try:
        with Session(engine, expire_on_commit=False) as session:
            yield session
    finally:
        sessions.touches_done()  # a handler's background session write lands in this test, not the next
        with engine.begin() as conn:
            for table in reversed(SQLModel.metadata.sorted_tables):
                if table.name not in TOKEN_TABLES:
                    conn.execute(table.delete())


@pytest.fixture(params=DATABASE_KINDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a new, empty database (SQLite, and PostgreSQL when configured)."""
    with empty_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def make_alembic_config() -> Callable[[str], Config]:
    """The factory of Alembic configurations for a database URL (see `alembic_config`)."""
    return alembic_config


@pytest.fixture
def fake_app():
    """A stand-in Reflex app for live delivery (tests/support/live_app.py), with a fresh presence registry."""
    from core.presence import get_presence
    from states import live
    from tests.support.live_app import FakeApp

    get_presence.cache_clear()
    app = FakeApp()
    live._runtime["app"] = app
    yield app
    live._runtime.clear()
    get_presence.cache_clear()


@pytest.fixture
def fake(settings, monkeypatch: pytest.MonkeyPatch) -> Iterator["FakeStripe"]:
    """A running fake Stripe (tests/support/fake_stripe.py) with the app's STRIPE_* settings pointed at it."""
    from tests.support.fake_stripe import FakeStripe, stripe_env

    with FakeStripe() as server:
        for key, value in stripe_env(server).items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()
        yield server


@pytest.fixture
def api_client() -> Iterator["TestClient"]:
    """The app's HTTP API routes (the ones mounted with api_transformer): webhooks, manifest, /app."""
    import warnings

    from app.api import api

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette 1.x prefers httpx2 for its test client; httpx works.
        from starlette.testclient import TestClient

    with TestClient(api) as client:
        yield client


@pytest.fixture
def heard() -> Iterator[list]:
    """The batches of pings core.signals hands its listeners during the test (core/signals.py)."""
    from core import signals

    batches: list = []
    signals.subscribe(batches.append)
    yield batches
    signals.unsubscribe(batches.append)
