"""A database filled for a benchmark: jobs in bulk, and signed-in freelancers for the simulated tabs.

The bulk rows come from `scripts.seed_large` (companies, freelancers with profiles, jobs of every
category and city, some applications, chats and messages). Each seeded freelancer then gets a
server-side session, created the way `POST /api/auth/login` creates it (`services.accounts.sessions.create`),
so a tab connecting with that cookie is that freelancer signed in.
"""

import argparse
import math
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from bench.harness import use_database


@dataclass
class Population:
    """What a benchmark needs to know about the filled database.

    Attributes:
        freelancer_ids: The seeded freelancers, in id order.
        cookies: The `Cookie` header of each freelancer's session (same order).
        open_jobs: Every open, unarchived job (what /jobs lists and what one can apply to).
        applied: Per freelancer, the jobs the seed already applied them to.
    """

    freelancer_ids: list[int]
    cookies: list[str]
    open_jobs: list[int]
    applied: dict[int, set[int]] = field(default_factory=dict)

    def jobs_to_apply(self, index: int, rng: random.Random) -> Iterator[int]:
        """The open jobs freelancer `index` has not applied to, in a random order, each once.

        The order is a stride through the list (a permutation, without copying the list per freelancer).
        """
        taken = self.applied.get(self.freelancer_ids[index], set())
        count = len(self.open_jobs)
        stride = rng.randrange(1, count) if count > 1 else 1
        while math.gcd(stride, count) != 1:
            stride += 1
        start = rng.randrange(count) if count else 0
        for step in range(count):
            job = self.open_jobs[(start + step * stride) % count]
            if job not in taken:
                yield job


def seed_args(jobs: int, freelancers: int) -> argparse.Namespace:
    """seed_large's sizes for `jobs` jobs and `freelancers` freelancers (two applications each, some chats)."""
    chats = max(1, freelancers // 10)
    return argparse.Namespace(
        jobs=jobs,
        companies=max(20, jobs // 100),
        freelancers=freelancers,
        applications=freelancers * 2,
        chats=chats,
        messages=chats * 6,
    )


def populate(database_url: str, jobs: int, freelancers: int, seed: int = 7) -> Population:
    """Fill the (migrated, empty) database of `database_url` and sign every freelancer in."""
    use_database(database_url)
    from core.db import get_engine
    from scripts.seed_large import seed_large

    seed_large(get_engine(), seed_args(jobs, freelancers), random.Random(seed))
    return _sign_in_freelancers()


def _sign_in_freelancers() -> Population:
    from sqlmodel import select

    from core.db import session_scope
    from core.settings import get_settings
    from models import Application, Job, Role, User
    from services.accounts import sessions
    from services.jobs import job_lifecycle

    cookie_name = get_settings().session_cookie_name
    with session_scope() as db:
        ids = list(db.exec(select(User.id).where(User.role == Role.FREELANCER).order_by(User.id)))
        cookies = [f"{cookie_name}={sessions.create(db, uid, remember=True)[0]}" for uid in ids]
        open_jobs = list(db.exec(select(Job.id).where(job_lifecycle.public()).order_by(Job.id)))
        applied: dict[int, set[int]] = defaultdict(set)
        for job_id, freelancer_id in db.exec(select(Application.vaga_id, Application.freelancer_id)):
            applied[freelancer_id].add(job_id)
    return Population(freelancer_ids=ids, cookies=cookies, open_jobs=open_jobs, applied=dict(applied))


def count_applications(database_url: str) -> int:
    """How many applications the database holds (to check that applies really wrote their rows)."""
    use_database(database_url)
    from sqlalchemy import func
    from sqlmodel import select

    from core.db import session_scope
    from models import Application

    with session_scope() as db:
        return db.exec(select(func.count()).select_from(Application)).one()
