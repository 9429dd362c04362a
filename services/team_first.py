"""'Oferecer primeiro à minha equipe': a new vaga seen by the company's team alone for a while.

The window is min(12 h, (I − now)/4), I the shift's start (docs/product.md "Minha equipe").
`jobs.equipe_ate` holds the vaga back from everyone else (services/job_lifecycle.py `public`);
the timer clears it when the window ends (`open_due`), which moves the job list's token, so every
cached list, the sitemap and the search see the vaga from that tick on.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import update

from models import Job

WINDOW_MAX = timedelta(hours=12)
WINDOW_SHARE = 4  # the window is at most a quarter of the time left before the shift


def window(now: datetime, starts_at: datetime) -> timedelta:
    """How long the team sees the vaga alone: min(12 h, (I − now)/4), never negative."""
    return max(timedelta(0), min(WINDOW_MAX, (starts_at - now) / WINDOW_SHARE))


def open_due(now: datetime, scope: Callable) -> int:
    """Open to everyone the team-first vagas whose window ended at or before `now`.

    Returns:
        How many vagas opened.
    """
    with scope() as db:
        return db.exec(
            update(Job)
            .where(Job.equipe_ate.is_not(None), Job.equipe_ate <= now)
            .values(equipe_ate=None)
            .execution_options(synchronize_session=False)
        ).rowcount
