"""Mixed load: visitors, freelancers and companies using the real app at once, invariants checked.

N simulated people (BENCH_USERS, default 500: 40% visitors, 40% freelancers, 20% companies) use
the app for BENCH_DURATION seconds (default 600), each pausing BENCH_THINK seconds between actions
(default 2 to 10, jittered), arriving over the first BENCH_DURATION/4 seconds (at most 30):
- visitors browse /jobs, page, search by term, city and category, open job pages, and close the tab
  after 4 to 12 actions, someone new arriving in their place (a new tab, a new state on the server);
- freelancers search in their dashboard and on /jobs, apply to jobs (from the job page or the
  dashboard's dialog, through ApplyState.submit_application) and chat in their conversations;
- companies open 'Minhas Vagas', list a job's applications and accept pending ones while positions
  are left (CompanyJobsState.accept_application, which opens the chat); now and then from two tabs
  at the same instant (the last position must go to one of them only); and chat.
Every action is the real handlers over the websocket, exactly as the browser sends them (see
bench/load_users.py). Data is seeded in bulk first (bench/load_seed.py: the companies' open jobs of
3 to 5 positions, BENCH_FILLER_JOBS other jobs, pending applications, some accepted with a chat).
The app runs as production does: `reflex run --env prod`, two Granian workers on PostgreSQL and
Redis when BENCH_DATABASE_URL/TEST_DATABASE_URL and BENCH_REDIS_URL/TEST_REDIS_URL are set (a
database created for the run and dropped after), otherwise one process on SQLite (said in the output).

Checked and returned by `run()` (so a test can assert them):
- no failed events: every event got its expected delta within 30 s, no error toast or alert but the
  expected refusals (a job that filled up between the list and the click; the last position taken
  by the company's other tab; an applicant hired elsewhere for overlapping hours meanwhile), no redirect away from a page, no socket disconnect. A timed-out
  event is waited for 60 s more, to tell a slow answer from one that never came;
- no lost messages: every message sent is stored exactly once (counted by content) and reached the
  other participant's tab (live, on opening the conversation, or in a sweep after the run); one
  sent while the recipient had the conversation on screen must have arrived live;
- no duplicates: one application per freelancer and job (uq_applications_vaga_freelancer), one
  chat per application (chats.application_id is unique) joining that job's company and that
  freelancer, only for accepted applications, every accepted application has its chat and one
  welcome message, no job has more accepted applications than positions, a full job is no longer
  open, and every application and acceptance the UI confirmed is in the database;
- no steady memory growth: the RSS of the server's process group, sampled every BENCH_SAMPLE
  seconds (default 10): first, last, max, the slope over the second half of the run and the growth
  per visitor tab opened meanwhile; flagged when the half grows by more than 2% on a steady trend.
Also printed: events per second and p50/p95/p99 per action kind, the CPU used meanwhile by the
machine, the app server, its PostgreSQL backends, Redis, this load client and everything else,
and the tracebacks in the server's log (BENCH_SERVER_LOG=path keeps the whole log, BENCH_REPORT=path
the report as JSON).

Quick mode (BENCH_QUICK=1): 20 people for 20 s, 1 to 3 s between actions, 200 other jobs.
"""

import asyncio
import dataclasses
import json
import os
import random
import re
import shutil
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bench.harness import (
    app_env,
    cpu_seconds_of,
    create_database,
    drop_database,
    free_port,
    group_cpu_seconds,
    group_rss_kb,
    machine_cpu_seconds,
    migrate,
    pct,
    postgres_url,
    quick,
    redis_url,
    serve_app,
    stop,
)
from bench.load_seed import Seeded, seed
from bench.load_users import (
    LATE_LIMIT,
    MESSAGE_PREFIX,
    ROOM,
    TIMED_OUT,
    Company,
    Freelancer,
    Person,
    Sent,
    Visitor,
    World,
    is_refusal,
    sets,
)
from bench.wsclient import TIMEOUT

EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b")
GROWTH_SHARE = 0.02  # second-half growth above 2% of the RSS, on a steady trend, is flagged
SHORTEST_JUDGED = 120.0  # seconds: shorter runs are dominated by the ramp-up
SETTLE = 3.0


@dataclass(frozen=True)
class Config:
    """Sizes of a run (see the module docstring for the environment variables)."""

    users: int
    duration: float
    think: tuple[float, float]
    sample_every: float
    filler_jobs: int

    @classmethod
    def from_env(cls) -> "Config":
        """The sizes from BENCH_* variables, with the quick-mode defaults when BENCH_QUICK is set."""
        small = quick()
        low, high = (float(x) for x in os.environ.get("BENCH_THINK", "1,3" if small else "2,10").split(","))
        return cls(
            users=int(os.environ.get("BENCH_USERS", "20" if small else "500")),
            duration=float(os.environ.get("BENCH_DURATION", "20" if small else "600")),
            think=(low, high),
            sample_every=float(os.environ.get("BENCH_SAMPLE", "2" if small else "10")),
            filler_jobs=int(os.environ.get("BENCH_FILLER_JOBS", "200" if small else "5000")),
        )

    def split(self) -> tuple[int, int, int]:
        """(visitors, freelancers, companies): 40%, 40%, 20%, at least one freelancer and one company."""
        companies = max(1, round(self.users * 0.2))
        freelancers = max(1, round(self.users * 0.4))
        return max(0, self.users - companies - freelancers), freelancers, companies


@dataclass
class Report:
    """What a run measured and whether its invariants held (`checks`)."""

    mode: str
    people: dict[str, int]
    visits: int
    duration: float
    events: int
    events_per_second: float
    actions: dict[str, dict[str, float]]
    failures: list[str]
    timeouts: dict[str, float]
    refusals: int
    disconnects: int
    messages: dict[str, int]
    undelivered: list[str]
    duplicates: dict[str, int]
    memory: dict[str, object]
    cpu: dict[str, float]
    server_tracebacks: list[str]
    load_average: tuple[tuple[float, ...], tuple[float, ...]]
    checks: dict[str, bool | None] = field(default_factory=dict)


@dataclass
class Sampler:
    """The server group's RSS every `every` seconds: (seconds since start, KB)."""

    pgid: int
    every: float
    samples: list[tuple[float, int]] = field(default_factory=list)

    async def run(self) -> None:
        """Sample until cancelled."""
        start = time.perf_counter()
        while True:
            self.samples.append((time.perf_counter() - start, group_rss_kb(self.pgid)))
            await asyncio.sleep(self.every)


@dataclass
class Outcome:
    """The raw results of driving the people (before the database is read)."""

    world: World
    people: list[Person]
    elapsed: float
    events: int
    samples: list[tuple[float, int]]
    cpu: dict[str, float]
    started: float


def _people(url: str, seeded: Seeded, cfg: Config, world: World) -> list[Person]:
    visitors, _, _ = cfg.split()
    people: list[Person] = [Visitor(url, "/", world=world, rng=random.Random(i)) for i in range(visitors)]
    for i, member in enumerate(seeded.freelancers):
        person = Freelancer(url, "/", member.cookie, user_id=member.user_id, world=world, rng=random.Random(1000 + i))
        person.applied = set(seeded.applied.get(member.user_id, ()))
        people.append(person)
    for i, member in enumerate(seeded.companies):
        people.append(
            Company(url, "/", member.cookie, user_id=member.user_id, world=world, rng=random.Random(2000 + i))
        )
    for person in people:
        if person.user_id:
            world.people[person.user_id] = person
    return people


def _world(seeded: Seeded) -> World:
    world = World()
    for job_id, job in seeded.jobs.items():
        world.company_jobs[job.company_id][job_id] = job.vacancies
    for chat_id, company_id, freelancer_id in seeded.chats:
        world.add_chat(chat_id, company_id, freelancer_id)
    return world


async def _life(person: Person, cfg: Config, stop_at: float) -> None:
    """Arrive during the ramp-up, then act and think until the end of the run (visitors come and go)."""
    await asyncio.sleep(person.rng.uniform(0, min(30.0, cfg.duration / 4)))
    while await person.start():
        if not await _visit(person, cfg, stop_at, person.session_length()) or time.monotonic() >= stop_at:
            return
        person.world.visits.append(time.perf_counter())  # the tab closes; someone new arrives a bit later
        await person.close()
        await asyncio.sleep(max(0.0, min(person.rng.uniform(*cfg.think), stop_at - time.monotonic())))
        if time.monotonic() >= stop_at:
            return
        person.renew()


async def _visit(person: Person, cfg: Config, stop_at: float, length: int | None) -> bool:
    """Act and think until the end of the run or of the visit (`length` actions); True when the visit ended."""
    done = 0
    while time.monotonic() < stop_at and person.client.connected:
        kind = person.next_action()
        try:
            await person.act(kind)
        except Exception as exc:  # noqa: BLE001 (a bug of the load client is reported, the others go on)
            person.world.stats.fail(kind, f"load client error: {type(exc).__name__} {exc}")
        done += 1
        if length is not None and done >= length:
            return True
        pause = person.rng.uniform(*cfg.think)
        await asyncio.sleep(max(0.0, min(pause, stop_at - time.monotonic())))
    return False


async def _settle(world: World) -> None:
    """Wait for the live deliveries still under way (at most TIMEOUT + SETTLE seconds).

    Done when nothing arrived for SETTLE seconds and no message a recipient is watching is younger
    than TIMEOUT (one slower than that counts as missed anyway).
    """
    deadline = time.monotonic() + TIMEOUT + SETTLE
    last = -1
    while time.monotonic() < deadline:
        waiting = sum(sum(chats.values()) for chats in world.inbox.values())
        if waiting == last and not world.awaited(TIMEOUT):
            return
        last = waiting
        await asyncio.sleep(SETTLE)


async def _sweep_one(person: Person, world: World) -> None:
    """Open each conversation holding messages this person has not received (older pages too)."""
    for chat_id in list(world.undelivered(person.user_id)):
        person.via = "in the sweep"
        if not await person.goto("sweep_open", person.chat_path(chat_id), sets(ROOM, "status", lambda s: s == "found")):
            continue
        for _ in range(20):
            if not world.undelivered(person.user_id).get(chat_id) or not person.now(ROOM, "has_older"):
                break
            done = sets(ROOM, "loading_older", lambda loading: loading is False)
            await person.step("sweep_older", f"{ROOM}.load_older", None, done)
    person.via = ""


def _cpu_now(pgid: int, database: str) -> dict[str, float]:
    """CPU seconds used so far: the machine, the server's group, its PostgreSQL backends, Redis, this client."""
    return {
        "machine": machine_cpu_seconds(),
        "server": group_cpu_seconds(pgid),
        "postgres": cpu_seconds_of(f" {database} ") if database else 0.0,
        "redis": cpu_seconds_of("redis-server"),
        "client": time.process_time(),
    }


def _cpu_shares(before: dict[str, float], after: dict[str, float], elapsed: float) -> dict[str, float]:
    """CPU used during the run, in % of one core; 'others' is whatever else ran on the machine."""
    shares = {name: (after[name] - before[name]) / elapsed * 100 for name in before}
    shares["others"] = max(0.0, shares["machine"] - sum(v for k, v in shares.items() if k != "machine"))
    shares["cores"] = float(os.cpu_count() or 1)
    return shares


async def _drive(url: str, seeded: Seeded, cfg: Config, pgid: int, database: str) -> Outcome:
    world = _world(seeded)
    people = _people(url, seeded, cfg, world)
    sampler = Sampler(pgid, cfg.sample_every)
    sampling = asyncio.create_task(sampler.run())
    cpu_before, start = _cpu_now(pgid, database), time.perf_counter()
    stop_at = time.monotonic() + cfg.duration
    try:
        await asyncio.gather(*(_life(person, cfg, stop_at) for person in people))
    except BaseException:
        await asyncio.gather(*(tab.close() for person in people for tab in person.tabs()), return_exceptions=True)
        raise
    elapsed = time.perf_counter() - start
    tabs = [tab for person in people for tab in person.tabs()]
    events = sum(tab.sent for tab in tabs)
    cpu = _cpu_shares(cpu_before, _cpu_now(pgid, database), elapsed)
    sampling.cancel()
    sampler.samples.append((elapsed, group_rss_kb(pgid)))
    await _settle(world)
    await asyncio.gather(*(_sweep_one(person, world) for person in people if person.user_id))
    await asyncio.gather(*(tab.close() for tab in tabs), return_exceptions=True)
    return Outcome(world, people, elapsed, events, sampler.samples, cpu, start)


def _mode() -> tuple[str, dict[str, str]]:
    if postgres_url() and redis_url():
        return "2 workers, PostgreSQL, Redis", {"REFLEX_REDIS_URL": redis_url(), "GRANIAN_WORKERS": "2"}
    return "1 process, SQLite, memory state (PostgreSQL/Redis URLs not configured: fallback)", {}


def run(cfg: Config | None = None) -> Report:
    """Prepare the data, start the app, drive the people, check the database; print and return the report."""
    cfg = cfg or Config.from_env()
    mode, extra = _mode()
    load_before = os.getloadavg()
    previous = os.environ.get("DATABASE_URL")
    with tempfile.TemporaryDirectory() as tmp:
        database_url = create_database(postgres_url(), "turno_load") if extra else f"sqlite:///{Path(tmp) / 'load.db'}"
        try:
            env = app_env(database_url, **extra)
            migrate(env)
            _, freelancers, companies = cfg.split()
            seeded = seed(database_url, companies, freelancers, cfg.filler_jobs)
            log = Path(tmp) / "server.log"
            port = free_port()
            server = serve_app(env, port, log)
            try:
                database = make_url(database_url).database if extra else ""
                outcome = asyncio.run(_drive(f"http://127.0.0.1:{port}", seeded, cfg, server.pid, database))
            finally:
                stop(server)
            report = _report(cfg, mode, outcome, _database(database_url, outcome.world), _tracebacks(log))
            report.load_average = (load_before, os.getloadavg())
            _keep(log, report)
        finally:
            _release(database_url, previous)
    print_report(report)
    return report


def _keep(log: Path, report: Report) -> None:
    """Copy the server log to BENCH_SERVER_LOG and write the report as JSON to BENCH_REPORT, when set."""
    if os.environ.get("BENCH_SERVER_LOG"):
        shutil.copyfile(log, os.environ["BENCH_SERVER_LOG"])
    if os.environ.get("BENCH_REPORT"):
        Path(os.environ["BENCH_REPORT"]).write_text(json.dumps(dataclasses.asdict(report), indent=1))


def _release(database_url: str, previous: str | None) -> None:
    """Close this process's connections to the run's database, drop it, point `core.db` back where it was."""
    from core.db import get_engine
    from core.settings import get_settings

    get_engine().dispose()
    drop_database(database_url)
    if previous is None:
        os.environ.pop("DATABASE_URL", None)
    else:
        os.environ["DATABASE_URL"] = previous
    get_settings.cache_clear()
    get_engine.cache_clear()


def _database(database_url: str, world: World) -> dict[str, object]:
    """Invariant violations counted in SQL, the stored chat messages, and the confirmed writes found."""
    from core.db import get_engine

    with get_engine().connect() as conn:
        counts = {name: conn.execute(text(sql)).scalar_one() for name, sql in INVARIANTS.items()}
        stored = dict(
            conn.execute(
                text("SELECT content, count(*) FROM messages WHERE content LIKE :prefix GROUP BY content"),
                {"prefix": f"{MESSAGE_PREFIX} %"},
            ).all()
        )
        pairs = set(conn.execute(text("SELECT vaga_id, freelancer_id FROM applications")).all())
        accepted = set(conn.execute(text("SELECT id FROM applications WHERE status = 'accepted'")).scalars())
    counts["applications confirmed by the UI but missing"] = len(world.applied_ok - pairs)
    counts["acceptances confirmed by the UI but not accepted"] = len(world.accepted_ok - accepted)
    return {"counts": counts, "stored": stored}


INVARIANTS = {
    "applications repeated (same job and freelancer)": (
        "SELECT count(*) FROM (SELECT vaga_id, freelancer_id FROM applications"
        " GROUP BY vaga_id, freelancer_id HAVING count(*) > 1) AS d"
    ),
    "chats repeated (same application)": (
        "SELECT count(*) FROM (SELECT application_id FROM chats GROUP BY application_id HAVING count(*) > 1) AS d"
    ),
    "chats not matching an accepted application": (
        "SELECT count(*) FROM chats c JOIN applications a ON a.id = c.application_id JOIN jobs j ON j.id = a.vaga_id"
        " WHERE a.status <> 'accepted' OR c.client_id <> j.cliente_id OR c.freelancer_id <> a.freelancer_id"
    ),
    "accepted applications without a chat": (
        "SELECT count(*) FROM applications a LEFT JOIN chats c ON c.application_id = a.id"
        " WHERE a.status = 'accepted' AND c.id IS NULL"
    ),
    "chats without exactly one welcome message": (
        "SELECT count(*) FROM chats c WHERE (SELECT count(*) FROM messages m"
        " WHERE m.chat_id = c.id AND m.content LIKE 'Olá! Sua candidatura%') <> 1"
    ),
    "jobs with more accepted than positions": (
        "SELECT count(*) FROM (SELECT j.id FROM jobs j JOIN applications a ON a.vaga_id = j.id"
        " WHERE a.status = 'accepted' GROUP BY j.id, j.vagas_disponiveis HAVING count(*) > j.vagas_disponiveis) AS d"
    ),
    "full jobs still open": (
        "SELECT count(*) FROM jobs j WHERE j.status = 'open' AND j.vagas_disponiveis <="
        " (SELECT count(*) FROM applications a WHERE a.vaga_id = j.id AND a.status = 'accepted')"
    ),
}


def _tracebacks(log: Path) -> list[str]:
    """The exception line of each traceback in the server's log (Reflex indents and wraps some)."""
    found = []
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    for index, line in enumerate(lines):
        if line.strip().startswith("Traceback (most recent call last)"):
            tail = next((ln for ln in lines[index + 1 :] if EXCEPTION_LINE.match(ln)), "(no exception line)")
            found.append(re.sub(r"[0-9a-f]{32}", "<token>", tail.strip())[:300])
    return found


def _missed_while_watched(message: Sent) -> bool:
    """A message the recipient had on screen for TIMEOUT seconds without it arriving live."""
    if not message.watched or message.via == "live":
        return False
    return not message.left_at or message.left_at - message.sent_at >= TIMEOUT


def _messages(world: World, stored: dict[str, int]) -> dict[str, int]:
    """Counts of the messages' fate; losses count only sends the sender's page confirmed."""
    sent = world.messages
    confirmed = {content: message for content, message in sent.items() if message.confirmed}
    via = Counter(message.via for message in sent.values() if message.delivered_at)
    watched = [message for message in confirmed.values() if message.watched]
    return {
        "sent": len(sent),
        "confirmed to the sender": len(confirmed),
        "stored": sum(1 for content in sent if stored.get(content)),
        "confirmed but not stored": sum(1 for content in confirmed if not stored.get(content)),
        "stored more than once": sum(1 for count in stored.values() if count > 1),
        "stored but never sent": sum(1 for content in stored if content not in sent),
        "delivered": sum(via.values()),
        "delivered live": via["live"],
        "delivered on opening": via["on opening"],
        "delivered in the sweep": via["in the sweep"],
        "confirmed but never delivered": sum(1 for message in confirmed.values() if not message.delivered_at),
        "unconfirmed (a failed event), never delivered": sum(
            1 for message in sent.values() if not message.confirmed and not message.delivered_at
        ),
        "sent while the recipient watched": len(watched),
        "of those, live": sum(1 for message in watched if message.via == "live"),
        "of those, missed though watched 30 s": sum(1 for message in watched if _missed_while_watched(message)),
    }


def _undelivered(world: World) -> list[str]:
    """A failure line per confirmed message that never reached the other participant."""
    return [
        f"never delivered: {content!r} in chat {message.chat_id} to user {message.recipient}"
        f" (watched: {message.watched})"
        for content, message in world.messages.items()
        if message.confirmed and not message.delivered_at
    ]


def _memory(samples: list[tuple[float, int]], duration: float, visits: list[float] | None = None) -> dict[str, object]:
    """First/last/max RSS (MB), the second half's least-squares slope (KB/min) and whether it grows.

    `visits` (seconds since the first sample at which a visitor's tab closed) give the growth per
    new visitor tab in the second half: about one tab's server state means states are kept (the
    memory state manager keeps a closed tab's state for an hour), far less means something else.
    """
    second = samples[len(samples) // 2 :]
    slope, r2 = _fit(second)
    mean = statistics.fmean(kb for _, kb in second) if second else 0.0
    span = (second[-1][0] - second[0][0]) / 60 if len(second) > 1 else 0.0
    judged = duration >= SHORTEST_JUDGED and len(second) >= 5
    growing = judged and slope > 0 and r2 >= 0.5 and slope * span > GROWTH_SHARE * mean
    new_tabs = sum(1 for moment in visits or [] if second and moment >= second[0][0])
    return {
        "kb_per_new_tab": slope * span / new_tabs if new_tabs else 0.0,
        "samples": len(samples),
        "first_mb": samples[0][1] / 1024 if samples else 0.0,
        "last_mb": samples[-1][1] / 1024 if samples else 0.0,
        "max_mb": max(kb for _, kb in samples) / 1024 if samples else 0.0,
        "slope_kb_per_min": slope,
        "r2": r2,
        "judged": judged,
        "growing": growing,
        "series_mb": [round(kb / 1024) for _, kb in samples],
    }


def _fit(points: list[tuple[float, int]]) -> tuple[float, float]:
    """Least-squares slope (KB per minute) and R² of (seconds, KB) points."""
    if len(points) < 2:
        return 0.0, 0.0
    xs = [t / 60 for t, _ in points]
    ys = [float(kb) for _, kb in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    if not sxx:
        return 0.0, 0.0
    slope = sxy / sxx
    return slope, (sxy * sxy / (sxx * syy)) if syy else 0.0


def _actions(outcome: Outcome) -> dict[str, dict[str, float]]:
    stats = outcome.world.stats
    kinds = sorted(set(stats.latencies) | set(stats.failed) | set(stats.refusals))
    table = {}
    for kind in kinds:
        samples = stats.latencies.get(kind, [])
        table[kind] = {
            "ok": len(samples),
            "failed": stats.failed[kind],
            "refused": stats.refusals[kind],
            "p50": statistics.median(samples) if samples else 0.0,
            "p95": pct(samples, 95) if samples else 0.0,
            "p99": pct(samples, 99) if samples else 0.0,
        }
    return table


def _failures(outcome: Outcome) -> tuple[list[str], int]:
    """Every failed step, error toast outside a step and disconnect; and the refusals outside steps."""
    failures = [f"{kind}: {reason}" for kind, reason in outcome.world.stats.failures]
    stray_refusals = 0
    for tab in (tab for person in outcome.people for tab in person.tabs()):
        for error in tab.stray:
            if is_refusal(error):
                stray_refusals += 1
            else:
                failures.append(f"error toast outside a step on {type(tab).__name__} {tab.user_id}: {error}")
        if tab.disconnects:
            failures.append(f"{type(tab).__name__} {tab.user_id}: {tab.disconnects} disconnect(s)")
    return failures, stray_refusals


def _timeouts(world: World) -> dict[str, float]:
    """Timed-out events, how many of them were answered after all (slow, not lost), and the latest answer (s)."""
    late = world.stats.late
    return {
        "timed out": world.stats.timeouts,
        "answered later": len(late),
        "never answered": world.stats.timeouts - len(late),
        "latest answer s": max(late) / 1000 if late else 0.0,
    }


def _report(cfg: Config, mode: str, outcome: Outcome, database: dict, tracebacks: list[str]) -> Report:
    visitors, freelancers, companies = cfg.split()
    failures, stray_refusals = _failures(outcome)
    messages = _messages(outcome.world, database["stored"])
    duplicates = database["counts"]
    memory = _memory(outcome.samples, cfg.duration, [moment - outcome.started for moment in outcome.world.visits])
    report = Report(
        mode=mode,
        people={"visitors": visitors, "freelancers": freelancers, "companies": companies},
        visits=visitors + len(outcome.world.visits),
        duration=outcome.elapsed,
        events=outcome.events,
        events_per_second=outcome.events / outcome.elapsed if outcome.elapsed else 0.0,
        actions=_actions(outcome),
        failures=failures,
        timeouts=_timeouts(outcome.world),
        refusals=sum(outcome.world.stats.refusals.values()) + stray_refusals,
        disconnects=sum(tab.disconnects for person in outcome.people for tab in person.tabs()),
        messages=messages,
        undelivered=_undelivered(outcome.world),
        duplicates=duplicates,
        memory=memory,
        cpu=outcome.cpu,
        server_tracebacks=tracebacks,
        load_average=((), ()),
    )
    report.checks = {
        "no failed events": not failures,
        "no lost messages": messages["confirmed but not stored"] == 0
        and messages["confirmed but never delivered"] == 0
        and messages["stored more than once"] == 0
        and messages["of those, missed though watched 30 s"] == 0,
        "no duplicated applications or chats": not any(duplicates.values()),
        "no steady memory growth": (not memory["growing"]) if memory["judged"] else None,
        "no tracebacks in the server log": not tracebacks,
    }
    return report


def print_report(report: Report) -> None:
    """Print the report as a few tables."""
    people = ", ".join(f"{count} {kind}" for kind, count in report.people.items())
    print(f"\nMixed load: {sum(report.people.values())} people ({people}), {report.duration:.0f} s, {report.mode}")
    print(f"Visitor tabs opened: {report.visits} (visitors leave and others arrive)")
    print(f"Load average before / after: {_loads(report.load_average[0])} / {_loads(report.load_average[1])}")
    print(f"Events sent: {report.events} ({report.events_per_second:.1f}/s)")
    cpu = report.cpu
    print(
        f"CPU during the run (100% = one core, {cpu['cores']:.0f} cores): machine {cpu['machine']:.0f}%, "
        f"app server {cpu['server']:.0f}%, its PostgreSQL backends {cpu['postgres']:.0f}%, Redis {cpu['redis']:.0f}%, "
        f"load client {cpu['client']:.0f}%, everything else {cpu['others']:.0f}%"
    )
    print("\n| action | ok | failed | refused | p50 | p95 | p99 |\n|---|---|---|---|---|---|---|")
    for kind, row in report.actions.items():
        print(
            f"| {kind} | {row['ok']} | {row['failed']} | {row['refused']} | "
            f"{row['p50']:.1f} | {row['p95']:.1f} | {row['p99']:.1f} |"
        )
    print("(milliseconds; chat_delivery is the sender's event to the recipient's delta, live deliveries only)")
    print(
        f"\nFailures: {len(report.failures)}; expected refusals (a job filled up meanwhile, or the company's "
        f"other tab took the last position, or the applicant holds a shift at that time): {report.refusals}"
    )
    timeouts = [failure for failure in report.failures if TIMED_OUT in failure]
    for failure in timeouts[:5]:
        print(f"  - {failure}")
    if len(timeouts) > 5:
        print(f"  - ... and {len(timeouts) - 5} more timeouts")
    others = Counter(_failure_kind(failure) for failure in report.failures if TIMED_OUT not in failure)
    for (kind, reason), count in others.most_common():  # every other failure: each one is a finding
        print(f"  - {count}x {kind}: {reason}")
    if report.timeouts["timed out"]:
        late = report.timeouts
        print(
            f"  of which timed out: {late['timed out']:.0f}, answered later {late['answered later']:.0f} "
            f"(the latest after {late['latest answer s']:.1f} s), never answered within "
            f"{TIMEOUT + LATE_LIMIT:.0f} s {late['never answered']:.0f}"
        )
    print("Messages: " + ", ".join(f"{name} {count}" for name, count in report.messages.items()))
    for line in report.undelivered:
        print(f"  - {line}")
    print("Invariants: " + ", ".join(f"{name} {count}" for name, count in report.duplicates.items()))
    _print_memory(report.memory)
    print(f"Server log: {len(report.server_tracebacks)} traceback(s)")
    for line in Counter(report.server_tracebacks).most_common(5):
        print(f"  - {line[1]}x {line[0]}")
    print("Checks: " + ", ".join(f"{name}: {_verdict(ok)}" for name, ok in report.checks.items()))


def _print_memory(memory: dict) -> None:
    print(
        f"Server RSS ({memory['samples']} samples): first {memory['first_mb']:.0f} MB, last {memory['last_mb']:.0f} MB, "
        f"max {memory['max_mb']:.0f} MB; second-half slope {memory['slope_kb_per_min']:.0f} KB/min "
        f"(R² {memory['r2']:.2f}): "
        + ("too short to judge" if not memory["judged"] else "GROWING" if memory["growing"] else "steady")
        + (f"; {memory['kb_per_new_tab']:.0f} KB per visitor tab opened in the second half" if memory["judged"] else "")
    )
    print(f"  series (MB): {memory['series_mb']}")


def _failure_kind(failure: str) -> tuple[str, str]:
    """(action kind, what went wrong) of a failure line, without who and where, to count alike ones."""
    kind, _, rest = failure.partition(": ")
    reason = rest.split(": ", 1)[1] if " on " in rest.split(": ", 1)[0] and ": " in rest else rest
    return kind, reason[:240]


def _loads(values: tuple[float, ...]) -> str:
    return " ".join(f"{value:.2f}" for value in values) or "-"


def _verdict(ok: bool | None) -> str:
    return "not judged" if ok is None else "PASS" if ok else "FAIL"


def main() -> None:
    """Run the mixed load test with the sizes from the environment and print its report."""
    run()


if __name__ == "__main__":
    main()
