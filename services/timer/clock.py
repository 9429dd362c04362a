"""The timer's tick: every domain's due work, each step failing alone.

It runs every TICK_SECONDS in a timer process beside each server process (app/timer.py starts
`python -m scripts.tick --every ...`, which paces itself and, on PostgreSQL, lets one process tick
at a time: `tick_alone`), and by hand with `python -m scripts.tick`. The shift loop's own steps
(moving hirings, reminders) are services/shifts/shift_timer.py; the others belong to their domains.
"""

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple, TypeVar

from sqlalchemy import text

from core import shift_rules as rules
from core.db import session_scope
from services.money import settlement
from services.reach import push_sending, whatsapp
from services.shifts import shift_timer
from services.shifts.shift_timer import CHUNK, SQLITE_CHUNK, Pace, paced
from services.timer import trust_steps

log = logging.getLogger(__name__)
T = TypeVar("T")
TIMER_LOCK_KEY = 0x7475726E6F  # pg_try_advisory_lock key of the timer ('turno')


class TickReport(NamedTuple):
    """What one tick did."""

    moved: int
    reminded: int
    settled: int = 0  # protected payments paid out or refunded (services/money/)


def tick(
    now: datetime,
    batch: int = rules.TICK_BATCH,
    scope: Callable = session_scope,
    workers: int | None = None,
    pace: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> TickReport:
    """Move every hiring whose deadline is at or before `now`, and send the reminders due.

    Due rows are read `batch` at a time and worked in chunks, one transaction per chunk and a
    savepoint per moved hiring (a hiring another worker moved first is skipped alone) and a few
    statements for a chunk's reminders (`_remind_all`): CHUNK hirings on
    PostgreSQL, on TICK_WORKERS threads (the time is round trips, not the database); SQLITE_CHUNK on
    SQLite, on one thread (it has one writer, and a transaction holds it). A hiring that fails for
    any other reason is logged and left for the next tick; it does not hold back the others.

    Args:
        now: The time the tick runs for (tests pass a fake clock).
        batch: Hirings read per query.
        scope: Opens a committing session (core.db.session_scope; tests pass their own engine's).
        workers: Threads for the chunks (None: TICK_WORKERS on PostgreSQL, 1 on SQLite).
        pace: After each chunk, rest `pace` times as long as the chunk took (the timer process uses
            TICK_PACE so a burst leaves the cores to the people's requests; 0: no rest).
        sleep: How to rest (tests pass a recorder).

    Returns:
        How many moves and reminders this call made (0 and 0 when another worker did them).
    """
    with scope() as db:
        postgres = db.get_bind().dialect.name == "postgresql"
    if workers is None:
        workers = rules.TICK_WORKERS if postgres else 1
    how = Pace(workers, CHUNK if postgres else SQLITE_CHUNK, pace, sleep)
    moved = _step("moving hirings", lambda: shift_timer.move_due(now, scope, batch, how), 0)
    reminded = _step("reminders", lambda: shift_timer.remind_due(now, scope, batch, how), 0)
    settled = _step("protected payments", lambda: settlement.settle_due(now, scope), 0)
    # team-first windows, invites, badges: their own rows and counts
    _step("trust", lambda: trust_steps.run(now, paced(scope, how)), None)
    # pushes due again (retries) and any a sender thread has not taken yet
    _step("push", lambda: push_sending.send_due(now, scope), None)
    # the same for WhatsApp messages (nothing without WhatsApp configured)
    _step("WhatsApp", lambda: whatsapp.send_due(now, scope), None)
    return TickReport(moved, reminded, settled)


def _step(name: str, run: Callable[[], T], failed: T) -> T:
    """One step of the tick, run so that its failure is logged and the tick's other steps still run.

    A push service's bad answer, a broken row or a database hiccup in one step (sending pushes, say)
    never holds back another (the WhatsApp retries): each step is retried by the next tick anyway.

    Args:
        name: What the step does (the log line's).
        run: The step.
        failed: What the step counts when it raised (0, or None for steps that count nothing).
    """
    try:
        return run()
    except Exception:
        log.exception("shift timer: %s failed; the tick's other steps go on and the next tick tries again", name)
        return failed


def tick_alone(now: datetime, pace: float = rules.TICK_PACE) -> TickReport | None:
    """`tick` on core.db's database, unless another process is ticking it (None then).

    On PostgreSQL a session-level advisory lock (`pg_try_advisory_lock`) lets one timer process work
    at a time: every server process has one, and two at once would only share a burst's CPU. The lock
    goes with its connection, so a process that dies frees it. SQLite runs one server process.
    """
    from core.db import get_engine

    engine = get_engine()
    if engine.dialect.name != "postgresql":
        return tick(now, pace=pace)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": TIMER_LOCK_KEY}).scalar():
            return None
        try:
            return tick(now, pace=pace, workers=rules.TIMER_PROCESS_WORKERS)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": TIMER_LOCK_KEY})
