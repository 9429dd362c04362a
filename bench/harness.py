"""What every benchmark shares: servers on free ports, throwaway databases, percentiles.

The app under measurement is always the real one, started the way production starts it
(`reflex run --env prod --backend-only`, Granian workers), on a database created for the run and
dropped afterwards, so a benchmark never touches a developer's data.
"""

import os
import signal
import socket
import statistics
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from core.shift_rules import LOCAL_TZ

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"


def quick() -> bool:
    """True when BENCH_QUICK is set: tiny sizes, so `make test` proves the scripts still run."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 180) -> None:
    """Block until `url` answers (any HTTP status), or fail if `proc` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited before answering: {url}")
        try:
            with urllib.request.urlopen(url, timeout=2):  # noqa: S310 (a local test server)
                return
        except OSError as error:
            if getattr(error, "code", None):  # an HTTP error status: it answers
                return
        time.sleep(0.3)
    raise RuntimeError(f"server did not start: {url}")


def postgres_url() -> str:
    """The PostgreSQL server to create throwaway databases on ('' when none is configured)."""
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or ""
    return url if url.startswith("postgresql") else ""


def redis_url() -> str:
    """The Redis server for multi-worker modes ('' when none is configured)."""
    return os.environ.get("BENCH_REDIS_URL") or os.environ.get("TEST_REDIS_URL") or ""


def _admin(url: str):
    return create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool)


def create_database(server_url: str, prefix: str = "turno_bench") -> str:
    """Create an empty database on the PostgreSQL server of `server_url`; return its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = _admin(server_url)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop a database made by `create_database` (nothing to do for SQLite files)."""
    if not url.startswith("postgresql"):
        return
    admin = _admin(url)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    admin.dispose()


@contextmanager
def database(engine: str, workdir: Path, name: str = "bench") -> Iterator[str]:
    """A fresh database URL for 'sqlite' (a file in `workdir`) or 'postgresql' (dropped afterwards)."""
    if engine == "sqlite":
        yield f"sqlite:///{workdir / (name + '.db')}"
        return
    url = create_database(postgres_url(), f"turno_{name}")
    try:
        yield url
    finally:
        drop_database(url)


def app_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment the app runs with under measurement: fast bcrypt, no telemetry, no e-mail."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "APP_ENV": "test",
        "BCRYPT_ROUNDS": "4",
        # The load clients sign many people up from one address; the limits are not what is measured.
        "REGISTRATIONS_PER_ADDRESS_HOUR": "1000000",
        "RECOVERIES_PER_ADDRESS_HOUR": "1000000",
        "ACCOUNT_MAILS_PER_RECIPIENT_HOUR": "1000000",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    if "REFLEX_REDIS_URL" not in extra:
        env.pop("REFLEX_REDIS_URL", None)
    return env


def migrate(env: dict[str, str]) -> None:
    """Bring the database of `env` to the head revision."""
    subprocess.run([str(BIN / "alembic"), "upgrade", "head"], cwd=ROOT, env=env, check=True, capture_output=True)


def serve_app(env: dict[str, str], port: int, log: Path | None = None) -> subprocess.Popen:
    """Start the real backend in production mode on `port` (GRANIAN_WORKERS from `env`).

    Args:
        env: The app's environment (see `app_env`).
        port: The backend port.
        log: A file to write the server's stdout and stderr to (discarded when None).

    Returns:
        The server process, leader of its own process group (see `group_rss_kb`, `stop`).
    """
    command = [str(BIN / "reflex"), "run", "--env", "prod", "--backend-only", "--backend-port", str(port)]
    output = log.open("ab") if log else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    finally:
        if log:
            output.close()  # the child keeps its own descriptor
    wait_http(f"http://127.0.0.1:{port}/api/health", proc)
    return proc


def serve_asgi(workdir: Path, module: str, source: str, port: int, probe: str) -> subprocess.Popen:
    """Serve the ASGI `app` of `source` (written to `workdir/module.py`) with one Granian worker.

    `probe` is a path that answers once the server is up (any HTTP status counts).
    """
    (workdir / f"{module}.py").write_text(source)
    command = [str(BIN / "granian"), "--interface", "asgi", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--workers", "1", "--log-level", "error", f"{module}:app"], cwd=workdir, start_new_session=True
    )
    wait_http(f"http://127.0.0.1:{port}{probe}", proc)
    return proc


def _processes() -> Iterator[tuple[Path, list[str]]]:
    """Each live process's /proc directory and the fields of its stat after the command name."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield entry, (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue


def _cpu(fields: list[str]) -> float:
    """User plus system CPU seconds of a process, from its stat fields (utime, stime)."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def group_rss_kb(pgid: int) -> int:
    """Resident memory (KB) summed over the processes of group `pgid` (a server and its workers)."""
    total = 0
    for entry, fields in _processes():
        if int(fields[2]) != pgid:  # fields after the command: state, ppid, pgrp, ...
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        total += sum(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return total


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (s) used so far by the live processes of group `pgid`."""
    return sum(_cpu(fields) for _, fields in _processes() if int(fields[2]) == pgid)


def cpu_seconds_of(marker: str) -> float:
    """CPU time (s) used so far by the live processes whose command line contains `marker`.

    PostgreSQL names each backend after its database ("postgres: ... dbname ..."), so the
    database's name selects the backends serving one run.
    """
    total = 0.0
    for entry, fields in _processes():
        try:
            if marker in (entry / "cmdline").read_text(errors="replace"):
                total += _cpu(fields)
        except OSError:
            continue
    return total


def machine_cpu_seconds() -> float:
    """CPU time (s) every process of the machine used since boot (all cores, /proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    busy = values[0] + values[1] + values[2] + sum(values[5:8])  # user nice system, irq softirq steal
    return busy / os.sysconf("SC_CLK_TCK")


def settled_rss_kb(pgid: int, tolerance_kb: int = 512, quiet: int = 3, timeout: float = 60) -> int:
    """The group's RSS once it stops moving: `quiet` one-second readings within `tolerance_kb`."""
    readings = [group_rss_kb(pgid)]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(1)
        readings.append(group_rss_kb(pgid))
        recent = readings[-quiet:]
        if len(recent) == quiet and max(recent) - min(recent) <= tolerance_kb:
            break
    return readings[-1]


def stop(proc: subprocess.Popen) -> None:
    """Stop a server started by this module, with its whole process group."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def use_database(database_url: str) -> None:
    """Point this process's `core.db` at `database_url` (for creating fixtures in-process)."""
    os.environ["DATABASE_URL"] = database_url
    from core.db import get_engine
    from core.settings import get_settings

    get_settings.cache_clear()
    get_engine.cache_clear()


def pct(samples: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `samples`."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(samples: list[float]) -> str:
    """'p50 / p95 / p99' of `samples`, two decimals."""
    return f"{statistics.median(samples):.2f} / {pct(samples, 95):.2f} / {pct(samples, 99):.2f}"


def shift_fields(days: int = 3, hours: int = 8) -> dict[str, str]:
    """The shift part of a valid 'Publicar Nova Vaga' form: 18:00 (São Paulo) `days` from today, `hours` long.

    The form takes `datetime-local` text in São Paulo time (services/common/job_forms.py JobForm).
    """
    day = datetime.now(LOCAL_TZ).date() + timedelta(days=days)
    start = datetime.combine(day, datetime.min.time(), tzinfo=LOCAL_TZ).replace(hour=18)
    return {
        "inicio_em": start.strftime("%Y-%m-%dT%H:%M"),
        "fim_em": (start + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M"),
        "intervalo_min": "60",
        "endereco": "Av. Boa Viagem, 1000 - Boa Viagem, Recife",
    }


def engines() -> list[str]:
    """SQLite, and PostgreSQL when configured; BENCH_ENGINES (e.g. "postgresql") narrows the list."""
    found = ["sqlite", "postgresql"] if postgres_url() else ["sqlite"]
    wanted = [name.strip() for name in os.environ.get("BENCH_ENGINES", "").split(",") if name.strip()]
    return [name for name in found if not wanted or name in wanted]
