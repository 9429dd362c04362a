"""Production mode is chosen by the environment alone: state manager, origins and worker guard."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CLEAN = {
    k: v for k, v in os.environ.items() if k not in ("REFLEX_REDIS_URL", "APP_ENV", "SITE_URL", "DATABASE_URL", "PORT")
}


def _config(**env: str) -> dict:
    """rxconfig's choices in a fresh interpreter with `env` (settings are read once per process)."""
    code = (
        "import json, rxconfig; c = rxconfig.config; "
        "print(json.dumps({'mode': str(getattr(c.state_manager_mode, 'value', c.state_manager_mode)), 'redis': c.redis_url, "
        "'origins': list(c.cors_allowed_origins), 'db': c.db_url}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**CLEAN, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_one_process_keeps_state_in_memory_never_on_disk():
    assert _config()["mode"] == "memory"


def test_a_redis_url_switches_state_to_redis_and_the_database_stays_with_core_db():
    url = "postgresql+psycopg://turno@db.internal/turno"
    config = _config(REFLEX_REDIS_URL="redis://cache.internal:6379/0", DATABASE_URL=url)

    assert config["mode"] == "redis"
    assert config["redis"] == "redis://cache.internal:6379/0"
    # Reflex gets no db_url: core/db.py makes the engines from DATABASE_URL, and Reflex would only
    # compare SQLModel's metadata with the database at start and report a false schema change.
    assert config["db"] is None


def test_production_accepts_websockets_only_from_the_site_origin():
    config = _config(APP_ENV="production", SITE_URL="https://turno.example.com.br")

    assert config["origins"] == ["https://turno.example.com.br"]


def test_development_allows_only_its_own_local_origins_never_a_wildcard():
    """With '*' Starlette echoed any local site's Origin with credentials: another dev server could read the export."""
    assert _config()["origins"] == ["http://127.0.0.1:3000", "http://localhost:3000"]
    # Without SITE_URL the site is the port's own origin: nothing on :3000 may read an app on :8080.
    assert _config(PORT="8080")["origins"] == ["http://127.0.0.1:8080", "http://localhost:8080"]
    assert _config(APP_ENV="test", SITE_URL="http://192.168.0.10:3000/", PORT="3000")["origins"] == [
        "http://127.0.0.1:3000",
        "http://192.168.0.10:3000",
        "http://localhost:3000",
    ]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "run-prod needs DATABASE_URL"),
        ({"DATABASE_URL": "postgresql+psycopg://x@y/z", "WORKERS": "2"}, "Several workers need REFLEX_REDIS_URL"),
    ],
)
def test_run_prod_refuses_a_configuration_that_would_lose_data(env, message):
    done = subprocess.run(
        ["bash", str(ROOT / "scripts/run_prod.sh")],
        env={**CLEAN, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )

    assert done.returncode == 2
    assert message in done.stderr
