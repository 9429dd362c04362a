"""A burst of shift reminders while other people use the site: their event p95 during it, against without.

The app is served like production (`reflex run --env prod --backend-only`), with its lifespan timer
ticking every second (`TURNO_TICK_SECONDS=1`; 30 s in production only spreads the same work less
often). BENCH_REMINDERS freelancers (default 1,000) each have a confirmed shift 30 hours ahead,
made through the real services (bench.shift_pool); their 24-hour reminders are not due yet.

BENCH_USERS other freelancers (default 300) go round the job pages as in bench/event_roundtrip.py
(list, search, open a job, apply box, apply; no check-ins) at BENCH_RATE events/s each (default 1),
for three windows of BENCH_WINDOW seconds (default 30). At the end of the first window every
reminder is made due at once (one UPDATE of `remind_at`); the server's next tick claims and sends
them (a notification and an e-mail each, BENCH_REMINDERS / TICK_BATCH ticks). The burst lasts
from that UPDATE until the last reminder is claimed (the database is polled every 0.2 s).

Every reminded freelancer has also activated push on one device (a live session and a
subscription of tests/support/fake_push.py, served by a process of its own that checks VAPID and
decrypts each push as a browser would), so each reminder is also a Web Push, sent by the timer's
process (services/push.py). The burst then lasts until the last reminder is claimed and the last
push has arrived.

BENCH_PUSH=0 gives no one a device: the same burst without pushes, to compare with.

Figures: the p50 / p95 / p99 of the events sent before the burst (the baseline, same run, same
users) and of those sent during it, their ratio, the burst's length, the reminders written and
the pushes received with the seconds from the UPDATE to the last one. Goal (issues: reminders
'without stalling other users' events'; a push burst to 1,000 'within a minute'): p95 during <=
1.5x p95 before, no errors, every reminder sent once, every push delivered within PUSH_GOAL_SECONDS.
The script prints met or NOT met; nothing asserts it.

Modes as bench/event_roundtrip.py: one process on SQLite, and two workers on PostgreSQL and
Redis when both are configured (BENCH_MODES narrows). BENCH_QUICK=1: 20 users, 50 reminders,
3-second windows.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from bench.event_roundtrip import AppUsers, Outcome, measure, modes
from bench.harness import ROOT, app_env, database, free_port, migrate, pct, quick, serve_app, stop, summary
from bench.population import populate
from bench.shift_pool import confirmed_shifts
from core.types import utcnow

QUICK = quick()
REMINDERS = 50 if QUICK else int(os.environ.get("BENCH_REMINDERS", "1000"))
USERS = 20 if QUICK else int(os.environ.get("BENCH_USERS", "300"))
RATE = float(os.environ.get("BENCH_RATE", "1"))
WINDOW = 3.0 if QUICK else float(os.environ.get("BENCH_WINDOW", "30"))
JOBS = 2_000 if QUICK else int(os.environ.get("BENCH_JOBS", "20000"))
PUSH = os.environ.get("BENCH_PUSH", "1") != "0"  # 0: the freelancers have no device (the run before push)
SHIFT_IN = timedelta(hours=30)  # the 24-hour reminder is 6 hours away until the burst makes it due
POLL_SECONDS = 0.2
GOAL_RATIO = 1.5
PUSH_GOAL_SECONDS = 60.0


@dataclass
class Burst:
    """When the reminders were made due, when the last one was claimed, and how many went out."""

    armed_at: float = 0.0
    done_at: float = 0.0
    claimed: int = 0
    notices: int = 0
    emails: int = 0
    pushed: int = 0
    last_push_at: float = 0.0

    @property
    def seconds(self) -> float:
        """From the UPDATE that made them due to the last one claimed and pushed."""
        return self.done_at - self.armed_at

    @property
    def push_seconds(self) -> float:
        """From the UPDATE to the last push the push service accepted."""
        return self.last_push_at - self.armed_at if self.pushed else float("nan")


@dataclass
class Result:
    """One mode's figures."""

    mode: str
    outcome: Outcome
    burst: Burst
    before: list[float] = field(default_factory=list)
    during: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """p95 during the burst over p95 before it."""
        return pct(self.during, 95) / pct(self.before, 95) if self.before and self.during else float("nan")

    @property
    def met(self) -> bool:
        """The goal: p95 ratio within GOAL_RATIO, no errors, every reminder claimed and written once."""
        return (
            self.ratio <= GOAL_RATIO
            and not self.outcome.error_count()
            and self.burst.claimed == self.burst.notices == self.burst.emails == REMINDERS
            and (not PUSH or (self.burst.pushed == REMINDERS and self.burst.push_seconds <= PUSH_GOAL_SECONDS))
        )


def _arm(hiring_ids: list[int]) -> None:
    """Make every reminder due now, in one statement."""
    from sqlalchemy import update

    from core.db import session_scope
    from models import Hiring

    with session_scope() as db:
        db.exec(update(Hiring).where(Hiring.id.in_(hiring_ids)).values(remind_at=utcnow()))


def _claimed(hiring_ids: list[int]) -> int:
    """How many of the hirings had their reminder claimed."""
    from sqlalchemy import func
    from sqlmodel import select

    from core.db import session_scope
    from models import Hiring

    with session_scope() as db:
        query = select(func.count()).select_from(Hiring).where(Hiring.id.in_(hiring_ids), Hiring.reminders_sent > 0)
        return db.exec(query).one()


def _written(recipients: list[int], since) -> tuple[int, int]:
    """Notifications and e-mails written to the recipients since `since` (the reminders)."""
    from sqlalchemy import func
    from sqlmodel import select

    from core.db import session_scope
    from models import Notification, OutboxEmail, User

    with session_scope() as db:
        notices = db.exec(
            select(func.count())
            .select_from(Notification)
            .where(Notification.user_id.in_(recipients), Notification.created_at >= since)
        ).one()
        emails = db.exec(
            select(func.count())
            .select_from(OutboxEmail)
            .join(User, User.email == OutboxEmail.to_email)
            .where(User.id.in_(recipients), OutboxEmail.created_at >= since)
        ).one()
    return notices, emails


def _push_stats(push_url: str) -> dict:
    """The fake push service's count of accepted pushes and their first and last arrival."""
    with urllib.request.urlopen(f"{push_url}/_stats", timeout=5) as answer:  # noqa: S310 (our local fake)
        return json.loads(answer.read())


def _start_push_service(workdir: Path, subscriptions: int) -> tuple[subprocess.Popen, str, list[dict]]:
    """The fake push service in its own process, with `subscriptions` browsers subscribed."""
    port = free_port()
    out = workdir / f"subscriptions-{port}.json"
    command = [
        sys.executable,
        "-m",
        "tests.support.fake_push",
        "--port",
        str(port),
        "--subscriptions",
        str(subscriptions),
    ]
    process = subprocess.Popen([*command, "--out", str(out)], cwd=ROOT)
    deadline = time.time() + 60
    while not out.exists() or not out.read_text():
        if time.time() > deadline or process.poll() is not None:
            raise RuntimeError("the fake push service did not start")
        time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}", json.loads(out.read_text())


def _activate_push(database_url: str, freelancer_ids: list[int], subscriptions: list[dict]) -> None:
    """Each freelancer signs in once ('Lembrar de mim') and activates push on that browser."""
    from core.db import make_engine, session_scope
    from services import push, sessions

    engine = make_engine(database_url)
    try:
        with session_scope(engine) as db:
            for freelancer_id, subscription in zip(freelancer_ids, subscriptions, strict=True):
                token, _ = sessions.create(db, freelancer_id, remember=True)
                db.flush()
                push.register(db, freelancer_id, token, subscription, "Mozilla/5.0 (Linux; Android 14) Chrome/156.0")
    finally:
        engine.dispose()


def _burst_task(hiring_ids: list[int], burst: Burst, push_url: str):
    """The work run beside the users: wait a window, make the reminders due, poll until all are claimed and pushed."""

    async def run() -> None:
        await asyncio.sleep(WINDOW)
        burst.armed_at = time.time()
        await asyncio.to_thread(_arm, hiring_ids)
        deadline = burst.armed_at + max(2 * WINDOW, PUSH_GOAL_SECONDS + 10)
        while time.time() < deadline:
            burst.claimed = await asyncio.to_thread(_claimed, hiring_ids)
            stats = await asyncio.to_thread(_push_stats, push_url)
            burst.pushed, burst.last_push_at = stats["deliveries"], stats["last"]
            if burst.claimed >= len(hiring_ids) and (burst.pushed >= len(hiring_ids) or not PUSH):
                break
            await asyncio.sleep(POLL_SECONDS)
        burst.done_at = time.time()

    return run


def _mode(workdir: Path, mode: str, extra: dict[str, str]) -> Result:
    engine = "postgresql" if "REFLEX_REDIS_URL" in extra else "sqlite"
    with database(engine, workdir, "burst") as url:
        env = app_env(url, TURNO_TICK_SECONDS="1", **extra)
        migrate(env)
        population = populate(url, JOBS, USERS + REMINDERS)
        recipients = population.freelancer_ids[USERS : USERS + REMINDERS]
        shifts = confirmed_shifts(url, recipients, 1, utcnow() + SHIFT_IN)
        hiring_ids = [made[0].hiring_id for made in shifts.values()]
        push_service, push_url, subscriptions = _start_push_service(workdir, len(recipients) if PUSH else 0)
        if PUSH:
            _activate_push(url, recipients, subscriptions)
        since = utcnow()
        port = free_port()
        server = serve_app(env, port)
        burst = Burst()
        try:
            users = AppUsers(f"http://127.0.0.1:{port}", population, 3 * WINDOW)
            task = _burst_task(hiring_ids, burst, push_url)
            outcome = asyncio.run(measure(users.make(USERS, RATE), RATE, 3 * WINDOW, alongside=task))
        finally:
            stop(server)
            push_service.kill()
            push_service.wait()
        burst.notices, burst.emails = _written(recipients, since)
    before = [ms for sent, ms in outcome.stamps if sent < burst.armed_at]
    during = [ms for sent, ms in outcome.stamps if burst.armed_at <= sent <= burst.done_at]
    return Result(mode, outcome, burst, before, during)


def run() -> list[Result]:
    """Every mode's figures."""
    from bench.event_roundtrip import config

    with tempfile.TemporaryDirectory() as tmp:
        return [_mode(Path(tmp), mode, extra) for mode, extra in modes(config().engines)]


def report(results: list[Result]) -> None:
    """Print the table and whether each mode meets the goal."""
    print(
        f"\nReminder burst: {REMINDERS} reminders made due at once; {USERS} users x {RATE:g} event/s, "
        f"windows of {WINDOW:g} s; ms p50 / p95 / p99"
    )
    print(
        "| mode | burst s | claimed / notices / e-mails / pushes | last push s | events before | before "
        "| events during | during | p95 during / before | errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        b = r.burst
        print(
            f"| {r.mode} | {b.seconds:.1f} | {b.claimed} / {b.notices} / {b.emails} / {b.pushed} "
            f"| {b.push_seconds:.1f} | {len(r.before)} "
            f"| {summary(r.before) if r.before else '-'} | {len(r.during)} | {summary(r.during) if r.during else '-'} "
            f"| {r.ratio:.2f}x | {r.outcome.error_count()} |"
        )
    print(
        f"\nGoal: p95 during <= {GOAL_RATIO}x before, 0 errors, every reminder sent once, "
        f"every push delivered within {PUSH_GOAL_SECONDS:g} s"
    )
    for r in results:
        print(f"- {r.mode}: {'met' if r.met else 'NOT met'}")
        for error, count in r.outcome.errors.items():
            print(f"  - {error}: {count}")


def main() -> list[Result]:
    """Run in every mode and print the report."""
    results = run()
    report(results)
    return results


if __name__ == "__main__":
    main()
