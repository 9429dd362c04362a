"""`python -m scripts.tick`: run the shift loop's timer once, now (services/shifts/shift_timer.py).

Once: for a cron, a catch-up by hand or a look at what is due; prints what it did.

`--every SECONDS --parent PID [--pings-fd FD]`: the timer process each server process starts
beside itself (app/timer.py). It ticks every SECONDS (`tick_alone`: paced, and one process at a
time on PostgreSQL), logs what it moved, survives a failed tick, and ends when its parent is gone.
With `--pings-fd` it writes its commits' pings to that pipe, so the server refreshes the open tabs
they concern (core/ping_relay.py).
"""

import argparse
import contextlib
import logging
import os
import time
from collections.abc import Callable

from core import ping_relay
from core.types import utcnow
from services.timer.clock import tick, tick_alone

log = logging.getLogger("turno.timer")
CHECK_PARENT_SECONDS = 1.0
NICENESS = 10  # the timer process's CPU priority below the server's (docs/performance.md)


def once() -> None:
    """Tick once and print the moves and reminders it made."""
    report = tick(utcnow())
    moved = "1 turno movido" if report.moved == 1 else f"{report.moved} turnos movidos"
    reminded = "1 lembrete enviado" if report.reminded == 1 else f"{report.reminded} lembretes enviados"
    print(f"{moved}, {reminded}")


def loop(
    every: float,
    parent: int,
    step: Callable[[], object] = lambda: tick_alone(utcnow()),
    sleep: Callable[[float], None] = time.sleep,
    parent_of_me: Callable[[], int] = os.getppid,
) -> int:
    """Tick every `every` seconds while `parent` is this process's parent; return the ticks run.

    Args:
        every: Seconds between the start of one tick and the next check for work.
        parent: The server process that started this one; when it is gone, the loop ends.
        step: One tick (tests pass their own).
        sleep: How to wait (tests pass a fake clock).
        parent_of_me: The current parent's pid (os.getppid; tests pass their own).
    """
    ticks = 0
    while parent_of_me() == parent:
        try:
            report = step()
            ticks += 1
            if report is not None and (report.moved or report.reminded):
                log.info("shift timer: %d moved, %d reminders", report.moved, report.reminded)
        except Exception:
            log.exception("shift timer tick failed; the next one tries again")
        waited = 0.0
        while waited < every and parent_of_me() == parent:
            pause = min(CHECK_PARENT_SECONDS, every - waited)
            sleep(pause)
            waited += pause
    return ticks


def main(argv: list[str] | None = None) -> None:
    """Once, or the timer process's loop with --every and --parent."""
    parser = argparse.ArgumentParser(description="O relógio dos turnos: move o que venceu e envia lembretes.")
    parser.add_argument("--every", type=float, help="segundos entre execuções (processo do relógio)")
    parser.add_argument("--parent", type=int, help="pid do servidor; o relógio termina quando ele termina")
    parser.add_argument("--pings-fd", type=int, help="pipe do servidor para os avisos às abas abertas")
    args = parser.parse_args(argv)
    if args.every is None:
        once()
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    os.nice(NICENESS)  # the server's requests come first when the cores are busy
    if args.pings_fd is not None:
        ping_relay.send_to(args.pings_fd)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C on `make run` reaches the whole group
        loop(args.every, args.parent if args.parent is not None else os.getppid())


if __name__ == "__main__":
    main()
