"""Fixtures of the benchmark smoke tests: each benchmark runs in quick mode so it never rots.

These tests assert that a benchmark ran to completion and measured something, never how fast:
timings depend on the machine and belong in docs/performance.md, not in assertions.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import harness

ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=pytest.mark.skipif(not harness.postgres_url(), reason="TEST_DATABASE_URL is not set"),
    ),
]


@pytest.fixture(autouse=True)
def quick_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every benchmark in these tests runs with its quick sizes."""
    monkeypatch.setenv("BENCH_QUICK", "1")


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database migrated to head, on SQLite and (when configured) PostgreSQL."""
    with harness.database(request.param, tmp_path, "smoke") as url:
        harness.migrate(harness.app_env(url))
        previous = os.environ.get("DATABASE_URL")
        yield url
        if previous is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = previous
        harness.use_database(previous or "sqlite:///turno.db")
