"""Lifespan task: every server process runs the shift loop's timer (services/shift_timer.py).

Each process ticks every TICK_SECONDS; the tick's conditional updates let any number of processes
run it at once, and a process that starts after a downtime catches up on its first tick. A tick
that fails is logged and the next one tries again. `TURNO_TIMER=off` turns it off (the browser
tests drive the timer themselves with `python -m scripts.tick`-equivalent calls), and
`TURNO_TICK_SECONDS` sets another interval (bench/reminder_burst.py ticks every second).
"""

import asyncio
import contextlib
import logging
import math
import os

import reflex as rx
from starlette.concurrency import run_in_threadpool

from core import shift_rules
from core.types import utcnow
from services import shift_timer as timer

log = logging.getLogger(__name__)


def interval() -> float:
    """Seconds between ticks: TURNO_TICK_SECONDS when it is a finite positive number, else TICK_SECONDS."""
    try:
        seconds = float(os.environ.get("TURNO_TICK_SECONDS", ""))
    except ValueError:
        return float(shift_rules.TICK_SECONDS)
    return seconds if math.isfinite(seconds) and seconds > 0 else float(shift_rules.TICK_SECONDS)


async def _loop() -> None:
    pause = interval()
    while True:
        try:
            report = await run_in_threadpool(timer.tick, utcnow())
            if report.moved or report.reminded:
                log.info("shift timer: %d moved, %d reminders", report.moved, report.reminded)
        except Exception:
            log.exception("shift timer tick failed; the next one tries again")
        await asyncio.sleep(pause)


@contextlib.asynccontextmanager
async def shift_timer(app: rx.App):
    """Run the timer loop while the server runs (not when TURNO_TIMER=off)."""
    if os.environ.get("TURNO_TIMER", "on").lower() == "off":
        yield
        return
    task = asyncio.create_task(_loop())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
