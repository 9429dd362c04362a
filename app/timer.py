"""Lifespan task: every server process runs the shift loop's timer (services/shift_timer.py).

Each process ticks every TICK_SECONDS; the tick's conditional updates let any number of processes
run it at once, and a process that starts after a downtime catches up on its first tick. A tick
that fails is logged and the next one tries again. `TURNO_TIMER=off` turns it off (the browser
tests drive the timer themselves with `python -m scripts.tick`-equivalent calls).
"""

import asyncio
import contextlib
import logging
import os

import reflex as rx
from starlette.concurrency import run_in_threadpool

from core import shift_rules
from core.types import utcnow
from services import shift_timer as timer

log = logging.getLogger(__name__)


async def _loop() -> None:
    while True:
        try:
            report = await run_in_threadpool(timer.tick, utcnow())
            if report.moved or report.reminded:
                log.info("shift timer: %d moved, %d reminders", report.moved, report.reminded)
        except Exception:
            log.exception("shift timer tick failed; the next one tries again")
        await asyncio.sleep(shift_rules.TICK_SECONDS)


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
