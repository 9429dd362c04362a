"""`python -m scripts.tick`: run the shift loop's timer once, now (services/shift_timer.py).

The server processes run it every 30 seconds by themselves; this is for a cron, a catch-up by hand
or a look at what is due. Prints what it did.
"""

from core.types import utcnow
from services.shift_timer import tick


def main() -> None:
    """Tick once and print the moves and reminders it made."""
    report = tick(utcnow())
    print(f"{report.moved} turnos movidos, {report.reminded} lembretes enviados")


if __name__ == "__main__":
    main()
