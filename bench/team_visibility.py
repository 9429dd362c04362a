"""Team-first vagas and blocks on the job list and the job page, against the list before them.

The catalogue of bench/job_search.py (BENCH_JOBS, default 200,000 jobs from 200 companies), then
2% of the open vagas held for a team (`jobs.equipe_ate`), 0.5% private invite vagas, and
freelancers each in 3 teams with 3 companies blocked (services/jobs/visibility.py). Timed cold (the job
list cache emptied before every call), in the same run, p50 in ms:

- **before** (the baseline): the count and page 1 under the condition the list had before
  team-first vagas existed (open and not archived), bare SQL: what the list cost until now;
- **now, bare SQL**: the same two statements under today's `public()`, and with 3 companies
  hidden (a freelancer's blocks): what the new conditions cost by themselves;
- **list now**: `list_public_jobs` for a visitor (public() also leaves out held vagas);
- **list with blocks**: `list_public_jobs` for a freelancer with 3 companies hidden;
- **team-first list**: `team_first_items` for a member of 3 teams;
- **job page, visitor** (`get_public_job`, cold) and **job page, member** (`job_for_viewer`, the
  uncached statement with the visibility rule).

Ratios are against the same-run baseline. BENCH_QUICK=1: 2,000 jobs, 5 runs, and a RESULT line
that tests/bench/test_team_visibility_quick.py checks for what each list must hold.
"""

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from sqlalchemy import false, func, insert, select, text, update
from sqlalchemy.engine import Engine
from sqlmodel import Session

from bench import harness
from bench.job_search import REPEAT, _fill, _migrate, _sizes
from core.db import make_engine
from core.types import utcnow
from models import Block, Job, JobStatus, Role, TeamMember, User
from services.jobs import job_detail, job_list_cache, jobs, visibility
from services.jobs.bulk_load import settle

HELD_SHARE = 50  # one open vaga in 50 is team-first
PRIVATE_SHARE = 200  # one in 200 is a private invite vaga
FREELANCERS = 20
TEAMS_EACH = 3
BLOCKS_EACH = 3


def _before_conditions() -> list:
    """The public list's condition before team-first and private vagas (revision 0021)."""
    return [Job.status == JobStatus.OPEN, Job.is_archived == false()]


BEFORE_INDEX = "CREATE INDEX ix_bench_list_before ON jobs (status, is_archived, criado_em)"


def _hold(engine: Engine) -> dict:
    """Hold some vagas for teams, make some private, add freelancers with teams and blocks.

    The public list's index before revision 0021 is put back beside today's, so the baseline runs
    on the index it had (each planner picks the better index for each statement).
    """
    now = utcnow()
    with Session(engine) as db:
        db.execute(text(BEFORE_INDEX))
        open_ids = db.execute(select(Job.id).where(*_before_conditions()).order_by(Job.id)).scalars().all()
        held = open_ids[::HELD_SHARE]
        private = open_ids[7::PRIVATE_SHARE]
        db.execute(update(Job).where(Job.id.in_(held)).values(equipe_ate=now + timedelta(hours=6)))
        db.execute(update(Job).where(Job.id.in_(private)).values(privada=True))
        companies = db.execute(select(User.id).where(User.role == Role.CLIENT).order_by(User.id)).scalars().all()
        held_by = db.execute(select(Job.cliente_id).where(Job.id.in_(held)).order_by(Job.id)).scalars().all()
        teams = list(dict.fromkeys(held_by))  # companies with a held vaga, so every member has some
        db.execute(
            insert(User),
            [
                {"email": f"f{i}@bench.test", "password_hash": "x", "role": Role.FREELANCER, "created_at": now}
                for i in range(FREELANCERS)
            ],
        )
        freelancers = db.execute(select(User.id).where(User.role == Role.FREELANCER).order_by(User.id)).scalars().all()
        db.execute(
            insert(TeamMember),
            [
                {"company_id": teams[(n * TEAMS_EACH + k) % len(teams)], "freelancer_id": f, "added_at": now}
                for n, f in enumerate(freelancers)
                for k in range(TEAMS_EACH)
            ],
        )
        outside = [c for c in companies if c not in set(teams[: FREELANCERS * TEAMS_EACH])]
        db.execute(
            insert(Block),
            [
                {"blocker_id": outside[(n * BLOCKS_EACH + k) % len(outside)], "blocked_id": f, "created_at": now}
                for n, f in enumerate(freelancers)
                for k in range(BLOCKS_EACH)
            ],
        )
        db.commit()
    settle(engine)  # statistics and the visibility map after the updates, as after a real load
    return {"held": len(held), "private": len(set(private) - set(held)), "freelancer": freelancers[0]}


def _times(fn: Callable[[], object]) -> list[float]:
    for _ in range(3):
        fn()
    samples = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _cold(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        job_list_cache.clear()
        return fn()

    return run


def _measure(engine_name: str, engine: Engine, count: int, setup: dict) -> list[dict]:
    freelancer = setup["freelancer"]
    before = _before_conditions()

    def bare(conditions: list) -> Callable[[], int]:
        def run() -> int:
            with engine.connect() as conn:
                total = conn.execute(jobs.count_statement(conditions)).scalar_one()
                conn.execute(jobs.page_statement(conditions, 1)).all()
                return total

        return run

    bare_before = bare(before)

    with Session(engine) as db:
        blocked_by = frozenset(db.execute(select(Block.blocker_id).where(Block.blocked_id == freelancer)).scalars())
        hidden = visibility.Hidden(companies=blocked_by)
        member_of = db.execute(select(TeamMember.company_id).where(TeamMember.freelancer_id == freelancer)).scalars()
        member_of = list(member_of)
        team_job = (
            db.execute(
                select(Job.id).where(Job.cliente_id.in_(member_of), Job.equipe_ate.is_not(None), Job.privada == false())
            )
            .scalars()
            .first()
        )
        public_job = db.execute(select(Job.id).where(*before, Job.equipe_ate.is_(None))).scalars().first()
        hidden_public = db.execute(
            select(func.count())
            .select_from(Job)
            .where(*before, Job.equipe_ate.is_(None), Job.privada == false(), Job.cliente_id.in_(blocked_by))
        ).scalar_one()
        team_total = db.execute(
            select(func.count())
            .select_from(Job)
            .where(*before, Job.equipe_ate.is_not(None), Job.privada == false(), Job.cliente_id.in_(member_of))
        ).scalar_one()

    def session_call(fn: Callable[[Session], object]) -> Callable[[], object]:
        def run() -> object:
            with Session(engine) as db:
                return fn(db)

        return run

    scenarios = {
        "before (bare SQL, open and not archived)": bare_before,
        "now (bare SQL, public())": bare(jobs.filters("", "", None, None, engine.dialect.name)),
        "now with 3 blocks (bare SQL)": bare(jobs.filters("", "", None, None, engine.dialect.name, hidden=hidden)),
        "list now, visitor": _cold(session_call(lambda db: jobs.list_public_jobs(db))),
        "list with 3 companies blocked": _cold(session_call(lambda db: jobs.list_public_jobs(db, hidden=hidden))),
        "team-first list of a member": session_call(lambda db: jobs.team_first_items(db, freelancer)),
        "job page, visitor": _cold(session_call(lambda db: job_detail.get_public_job(db, public_job))),
        "job page, team member": session_call(lambda db: job_detail.job_for_viewer(db, team_job, freelancer)),
    }
    timings = {name: _times(fn) for name, fn in scenarios.items()}
    baseline = statistics.median(timings["before (bare SQL, open and not archived)"])
    with Session(engine) as db:
        job_list_cache.clear()
        totals = {
            "before_total": bare_before(),
            "visitor_total": jobs.list_public_jobs(db).total,
            "blocked_total": jobs.list_public_jobs(db, hidden=hidden).total,
            "team_items": len(jobs.team_first_items(db, freelancer)),
            "team_page_seen": job_detail.job_for_viewer(db, team_job, freelancer) is not None,
            "team_page_hidden_from_visitors": job_detail.get_public_job(db, team_job) is None,
        }
    return [
        {
            "engine": engine_name,
            "jobs": count,
            "scenario": name,
            "p50": statistics.median(samples),
            "p95": harness.pct(samples, 95),
            "ratio": statistics.median(samples) / baseline,
            **totals,
            "held": setup["held"],
            "private": setup["private"],
            "hidden_public": hidden_public,
            "team_total": team_total,
        }
        for name, samples in timings.items()
    ]


def run() -> list[dict]:
    """Fill a throwaway database per engine and size, hold vagas, and time every scenario."""
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in _sizes():
            for engine_name in harness.engines():
                with harness.database(engine_name, Path(tmp), f"team{count}") as url:
                    _migrate(url)
                    engine = make_engine(url)
                    _fill(engine, count)
                    setup = _hold(engine)
                    harness.use_database(url)
                    name = "SQLite" if engine_name == "sqlite" else "PostgreSQL"
                    rows.extend(_measure(name, engine, count, setup))
                    engine.dispose()
    return rows


def _print(rows: list[dict]) -> None:
    print(
        f"\nTeam-first vagas and blocks, {REPEAT} runs per scenario after 3 warm-up runs (ms, cold: list cache emptied)"
    )
    print("| engine | jobs | scenario | p50 | p95 | / before |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['engine']} | {row['jobs']:,} | {row['scenario']} | {row['p50']:.2f} | {row['p95']:.2f} "
            f"| {row['ratio']:.2f}x |"
        )


def main() -> None:
    """Run, print the table and, in quick mode, the RESULT line."""
    rows = run()
    _print(rows)
    if harness.quick():
        print("RESULT " + json.dumps(rows))


if __name__ == "__main__":
    main()
