"""The home's real figures: open vagas and freelancers, shown only once they are worth showing.

The home used to promise '5.000+ freelancers' and '2.000+ vagas' that no database held. It now
reads the two counts (docs/product/site.md §10): the open vagas as /jobs counts them (its cached
count, services/jobs/job_list_cache.py) and the freelancers with a confirmed e-mail and a live account.
A figure below its threshold is not shown at all: 'Já são 7 vagas' invites no one.

The freelancers' count is kept for FRESH_FOR in the process: every visit of the home asks it, and a
figure a few minutes old is still true enough for a line that says 'mais de'.
"""

from collections.abc import Callable
from datetime import datetime, timedelta
from threading import Lock
from typing import TypedDict

from babel.numbers import format_decimal
from sqlmodel import Session, func, select

from core.types import utcnow
from models import Role, User
from services.jobs import jobs

MIN_OPEN_JOBS = 50
MIN_FREELANCERS = 100
FRESH_FOR = timedelta(minutes=10)

_lock = Lock()
_freelancers: dict[str, tuple[datetime, int]] = {}  # database url -> (read at, count)


class SiteFigure(TypedDict):
    """One figure of the home: '1.234' and what it counts."""

    number: str
    label: str


def freelancer_count(session: Session) -> int:
    """Freelancers with a confirmed e-mail whose account is not deleted."""
    return session.exec(
        select(func.count())
        .select_from(User)
        .where(User.role == Role.FREELANCER, User.email_confirmed_at.is_not(None), User.deleted_at.is_(None))
    ).one()


def _cached_freelancers(session: Session, now: datetime) -> int:
    key = session.get_bind().url.render_as_string()
    with _lock:
        kept = _freelancers.get(key)
    if kept is not None and now - kept[0] < FRESH_FOR:
        return kept[1]
    count = freelancer_count(session)
    with _lock:
        _freelancers[key] = (now, count)
    return count


def clear() -> None:
    """Forget the kept count (tests)."""
    with _lock:
        _freelancers.clear()


def _figure(count: int, minimum: int, label: str) -> list[SiteFigure]:
    if count < minimum:
        return []
    return [SiteFigure(number=format_decimal(count, locale="pt_BR"), label=label)]


def home_figures(session: Session, now: Callable[[], datetime] = utcnow) -> list[SiteFigure]:
    """The figures worth showing on the home, in order: open vagas, then freelancers (possibly none).

    Args:
        session: Open database session.
        now: The clock (tests move it past FRESH_FOR).
    """
    open_jobs = jobs.list_public_jobs(session).total
    freelancers = _cached_freelancers(session, now())
    return [
        *_figure(open_jobs, MIN_OPEN_JOBS, "vagas abertas agora"),
        *_figure(freelancers, MIN_FREELANCERS, "freelancers cadastrados"),
    ]
