"""Run a benchmark's quick mode in a child process (it starts servers and points core.db at its own database)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_quick(script: str, timeout: float = 900) -> object:
    """Run `script` with BENCH_QUICK=1; it prints 'RESULT <json>' last. Returns the decoded JSON."""
    env = {
        **os.environ,
        "BENCH_QUICK": "1",
        "PYTHONPATH": str(ROOT),
        "REFLEX_TELEMETRY_ENABLED": "false",
        "PATH": f"{ROOT / '.tools' / 'node_modules' / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for name in ("BENCH_SCENARIOS", "BENCH_DURATION", "BENCH_JOBS", "BENCH_SESSIONS"):
        env.pop(name, None)  # the quick sizes, whatever the caller's shell sets
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert proc.returncode == 0, f"benchmark failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"no RESULT line in:\n{proc.stdout[-3000:]}"
    return json.loads(lines[-1].removeprefix("RESULT "))
