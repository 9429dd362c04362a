"""Fixtures of the benchmark smoke tests: each benchmark runs in quick mode so it never rots.

These tests assert that a benchmark ran to completion and measured something, never how fast:
timings depend on the machine and belong in docs/performance.md, not in assertions.
"""

import os
import re
import subprocess
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


def run_quick(module: str, timeout: float = 600) -> list[list[str]]:
    """Run `python -m <module>` with BENCH_QUICK=1 as `make bench` would; return its table rows.

    Rows are the markdown table lines printed (header and separator lines excluded), split into
    cells. The run must exit with status 0.
    """
    env = {**os.environ, "BENCH_QUICK": "1", "PYTHONPATH": str(harness.ROOT)}
    done = subprocess.run(
        [str(harness.BIN / "python"), "-m", module],
        cwd=harness.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{module} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    lines = [line for line in done.stdout.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1:] if lines]


def numbers(cell: str) -> list[float]:
    """The numbers in a table cell such as '1.20 / 3.40 / 5.60' or '2.5x'."""
    return [float(part) for part in re.findall(r"\d+(?:\.\d+)?", cell.replace(",", ""))]
