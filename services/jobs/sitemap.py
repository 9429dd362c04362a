"""What the sitemaps list: the public pages, the category pages and every open vaga.

A sitemap file holds at most URLS_PER_FILE addresses (the protocol's limit), so /sitemap.xml is an
index of files: one of fixed pages (home, lists, categories, information) and as many of open
vagas as they need, oldest id first. Each file is computed once per list token
(services/jobs/list_version.py): any write to `jobs` moves the token, so a closed vaga leaves the sitemap
with the same commit that closed it.
"""

import math
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, select

from core import routes
from core.catalog import CATEGORIES
from core.token_cache import TokenCache
from models import Job
from services.jobs import job_lifecycle, list_version

URLS_PER_FILE = 50_000
FIXED_PATHS = (
    routes.HOME,
    routes.JOBS,
    routes.CATEGORIES,
    routes.HOW_IT_WORKS,
    routes.HOW_WE_CALCULATE,
    routes.BOND_GUIDE,
    routes.PRICING,
    routes.ABOUT,
    routes.CONTACT,
    routes.TERMS,
    routes.PRIVACY,
    routes.COOKIES,
)

_cache = TokenCache(64)


def fixed_paths() -> list[str]:
    """The pages that are always there: information pages, the lists and one page per category."""
    return [*FIXED_PATHS, *(routes.category(slug) for slug in CATEGORIES)]


def _key(db: Session, *parts: object) -> tuple:
    return (db.get_bind().url.render_as_string(), *parts)


def job_files(db: Session) -> int:
    """How many sitemap files the open vagas fill (at least one, so the index never changes shape).

    Args:
        db: Open database session.
    """
    token = list_version.current(db)

    def count() -> int:
        return db.exec(select(func.count()).select_from(Job).where(job_lifecycle.public())).one()

    total = _cache.get_or_compute(_key(db, "count"), token, count)
    return max(1, math.ceil(total / URLS_PER_FILE))


def open_jobs(db: Session, number: int) -> list[tuple[int, datetime]]:
    """File `number` (1-based) of the open vagas: (id, published at), by id.

    Args:
        db: Open database session.
        number: Which file.

    Returns:
        Up to URLS_PER_FILE vagas; none past the last file.
    """
    token = list_version.current(db)

    def read() -> list[tuple[int, datetime]]:
        query = (
            select(Job.id, Job.criado_em)
            .where(job_lifecycle.public())
            .order_by(Job.id)
            .offset((number - 1) * URLS_PER_FILE)
            .limit(URLS_PER_FILE)
        )
        return [(job_id, created) for job_id, created in db.exec(query)]

    return list(_cache.get_or_compute(_key(db, "jobs", number, URLS_PER_FILE), token, read))


def clear() -> None:
    """Forget every cached file (tests)."""
    _cache.clear()
