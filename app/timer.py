"""Lifespan task: each server process starts the shift loop's timer process beside itself.

The timer (`python -m scripts.tick --every N --parent PID`, services/shifts/shift_timer.py) runs in its own
process so a burst of work (1,000 reminders at once) never holds the interpreter lock the server's
event loop needs: bench/reminder_burst.py measured other users' p95 rising 20 to 50 times while
the same burst ran on a thread of the server (docs/performance.md). It ticks every TICK_SECONDS,
paces itself, lets one process tick at a time on PostgreSQL, and ends when the server does (it
is stopped here, and it also watches its parent). `TURNO_TIMER=off` starts none, and
`TURNO_TICK_SECONDS` sets another interval (bench/reminder_burst.py ticks every second).
The timer's commits ping the users they concern through a pipe to this process, which refreshes
their open tabs as it does for its own commits (core/ping_relay.py).
"""

import asyncio
import contextlib
import logging
import math
import os
import subprocess
import sys
from pathlib import Path

import reflex as rx

from core import ping_relay, shift_rules

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[1]
STOP_SECONDS = 5.0


def interval() -> float:
    """Seconds between ticks: TURNO_TICK_SECONDS when it is a finite positive number, else TICK_SECONDS."""
    try:
        seconds = float(os.environ.get("TURNO_TICK_SECONDS", ""))
    except ValueError:
        return float(shift_rules.TICK_SECONDS)
    return seconds if math.isfinite(seconds) and seconds > 0 else float(shift_rules.TICK_SECONDS)


def command() -> list[str]:
    """The timer process's command line, for this server process."""
    return [sys.executable, "-m", "scripts.tick", "--every", f"{interval():g}", "--parent", str(os.getpid())]


def start() -> subprocess.Popen:
    """Start the timer process (same environment, project root as its directory), its pings piped here."""
    read, write = os.pipe()
    try:
        command_line = [*command(), "--pings-fd", str(write)]
        process = subprocess.Popen(command_line, cwd=ROOT, pass_fds=(write,))  # noqa: S603 (ours, numbers)
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)  # the timer holds its own copy; at its end the reader sees the end of the pipe
    ping_relay.receive(read)
    return process


def stop(process: subprocess.Popen) -> None:
    """Ask the timer process to end; kill it when it does not within STOP_SECONDS."""
    process.terminate()
    try:
        process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.asynccontextmanager
async def shift_timer(app: rx.App):
    """Run the timer process while the server runs (not when TURNO_TIMER=off)."""
    if os.environ.get("TURNO_TIMER", "on").lower() == "off":
        yield
        return
    process = start()
    log.info("shift timer process %d started, every %g s", process.pid, interval())
    try:
        yield
    finally:
        await asyncio.to_thread(stop, process)
