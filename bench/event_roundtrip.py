"""Event round trip: from an event leaving a simulated browser to the delta that shows its result.

Each user is a tab (bench.wsclient.Tab) of a signed-in freelancer on the real app, served like
production (`reflex run --env prod --backend-only`, Granian), on a database filled by
scripts/seed_large (BENCH_JOBS jobs, default 20,000). Every user goes round the pages a visitor
goes through, one event at a time, each event doing its real work:

1. the /jobs list, a random page among the first 20 (`JobsState.load`);
2. a search with a term, a city and a category (`JobsState.load` with the filters in the URL);
3. opening a job (`JobDetailState.load` on /jobs/{id});
4. the job page's apply box (`ApplyState.load_for_job`: has this freelancer applied?);
5. applying to that job (`ApplyState.submit_application`). Each freelancer applies to jobs it
   never applied to, so every apply succeeds; the application rows are counted afterwards;
6. every few rounds, 'Registrar chegada' by code on one of its confirmed shifts (bench.shift_pool:
   real vagas, applications accepted and presence confirmed, starting 30 minutes after the seed):
   the dashboard's `open_shift_action` opens the dialog (untimed), and the timed event is
   `submit_shift_action` with the code the company's screen shows at that moment. Each freelancer
   has CHECKINS_PER_SCENARIO shifts per scenario, spread over its rounds; the check-ins recorded
   are counted afterwards.

Users send on a Poisson schedule (exponential gaps, mean 1/rate), each starting at a random
point of the round. Like a browser tab, a user sends its next event only after the previous one
was answered: when the server saturates, the offered load drops instead of queueing without end,
and the events/s column shows the rate actually achieved. Round trip: `Tab.call`, from emit to
the first delta that shows the handler's result. Errors: timeouts (30 s), error toasts or alerts
sent back, exceptions, and applies that did not record the application. The client runs on the
same machine: its own event-loop lag (p99, ms) is printed with each row, since a busy client
inflates every figure, the baselines' too.

Baselines, same run, same client, same schedule: a blank Reflex app (one state, one handler that
sets a var) served the same way, and a bare python-socketio echo on Granian (bench.baselines).

Scenarios: BENCH_SCENARIOS (default "500x1,1000x0.2": users x events per second per user), each
for BENCH_DURATION seconds (default 600). Modes: one process on SQLite with the memory state
manager; when BENCH_DATABASE_URL (or TEST_DATABASE_URL) and BENCH_REDIS_URL (or TEST_REDIS_URL)
are set, also two workers on PostgreSQL and Redis (the blank app then on Redis and two workers
too). BENCH_QUICK=1: 20 users x 1 event/s for 5 s on 2,000 jobs, so tests can run it.
BENCH_TARGETS (default "echo,blank,app") and BENCH_MODES (default "sqlite,postgresql") narrow a
run while working on one of them; a goal's ratio then shows '-' for the baseline left out.
"""

import asyncio
import math
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Protocol
from urllib.parse import urlencode

from bench.baselines import SET_VALUE, blank_env, blank_project, serve_blank, serve_echo, value_is
from bench.harness import (
    app_env,
    database,
    free_port,
    migrate,
    pct,
    postgres_url,
    quick,
    redis_url,
    serve_app,
    stop,
    summary,
)
from bench.population import Population, count_applications, populate
from bench.shift_pool import OpenShift, confirmed_shifts, count_check_ins
from bench.wsclient import AUTH, STATE, EventError, Predicate, Tab, has
from core.catalog import CITIES
from core.types import utcnow

JOBS = f"{STATE}.app___pages___jobs____jobs_state"
DETAIL = f"{STATE}.app___pages___job_detail___state____job_detail_state"
APPLY = f"{AUTH}.states___apply____apply_state"
DASHBOARD = f"{APPLY}.app___pages___freelancer_dashboard___state____freelancer_dashboard_state"
KINDS = ("jobs list page", "search + city + category", "open job", "apply box", "apply", "check-in (code)")
ROUND = 5  # the page kinds of one round; the check-in comes between rounds
CHECKINS_PER_SCENARIO = 2 if quick() else int(os.environ.get("BENCH_CHECKINS") or 4)
SHIFTS_START_IN = timedelta(minutes=30)
LIST_PAGES = 20
SEARCHES = [  # (term, category): a job title word and its category, as seed_large writes them
    ("garcom", "restaurante"),
    ("bartender", "restaurante"),
    ("chef", "gastronomia"),
    ("confeiteiro", "gastronomia"),
    ("recepcionista", "hotel"),
    ("camareira", "hotel"),
    ("seguranca", "eventos"),
    ("dj", "musica"),
    ("fotografo", "fotografia"),
    ("motorista", "outros"),
]
CONNECT_AT_ONCE = 20
WARMUP_USERS = 20
GOAL_P95, GOAL_P99, GOAL_RATIO = 10.0, 50.0, 1.5
TARGETS = ("echo", "blank", "app")
ENGINES = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Config:
    """The sizes of one run (from the environment; BENCH_QUICK shrinks them)."""

    scenarios: list[tuple[int, float]]
    duration: float
    jobs: int
    targets: frozenset[str] = frozenset(TARGETS)
    engines: frozenset[str] = frozenset(ENGINES)


def config() -> Config:
    """Read BENCH_SCENARIOS, BENCH_DURATION and BENCH_JOBS, with the quick defaults under BENCH_QUICK."""
    small = quick()
    spec = os.environ.get("BENCH_SCENARIOS") or ("20x1" if small else "500x1,1000x0.2")
    scenarios = []
    for item in spec.split(","):
        users, rate = item.strip().split("x")
        scenarios.append((int(users), float(rate)))
    duration = float(os.environ.get("BENCH_DURATION") or (5 if small else 600))
    jobs = int(os.environ.get("BENCH_JOBS") or (2000 if small else 20000))
    return Config(scenarios, duration, jobs, _choice("BENCH_TARGETS", TARGETS), _choice("BENCH_MODES", ENGINES))


def _choice(variable: str, allowed: tuple[str, ...]) -> frozenset[str]:
    """The comma-separated names in `variable` (all of `allowed` when unset); an unknown name is an error."""
    names = {name.strip() for name in (os.environ.get(variable) or ",".join(allowed)).split(",") if name.strip()}
    unknown = names - set(allowed)
    if unknown:
        raise ValueError(f"{variable}: unknown {sorted(unknown)}; choose from {', '.join(allowed)}")
    return frozenset(names)


@dataclass
class Step:
    """One event to send: its kind (for the report), full handler name, payload and 'result shown' test."""

    kind: str
    event: str
    payload: dict
    done: Predicate
    check: Callable[[], str] = lambda: ""  # after the round trip: '' or what went wrong
    before: tuple[tuple[str, dict, Predicate], ...] = ()  # untimed events that lead to this one


class User(Protocol):
    """A simulated user: a tab that can be prepared (connected, on its first page) and asked for its next event."""

    tab: Tab

    async def prepare(self) -> None:
        """Connect and reach the page the schedule starts from (not timed)."""

    def step(self) -> Step:
        """The next event of this user's round."""


@dataclass
class Outcome:
    """What one target did in one scenario."""

    samples: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter = field(default_factory=Counter)
    sent: int = 0
    applied: int = 0
    checked_in: int = 0
    client_lag: list[float] = field(default_factory=list)
    stamps: list[tuple[float, float, str]] = field(
        default_factory=list
    )  # (wall-clock time sent, ms, kind) of each sample

    def all(self) -> list[float]:
        """Every round trip (ms), whatever the kind."""
        return [sample for samples in self.samples.values() for sample in samples]

    def error_count(self) -> int:
        """Every error of every kind."""
        return sum(self.errors.values())


@dataclass
class CounterUser:
    """A user of the blank app or the echo: each event sets a new value and waits for it to come back."""

    tab: Tab
    value: int = 0

    async def prepare(self) -> None:
        """Connect (hydrate)."""
        await self.tab.connect()

    def step(self) -> Step:
        """Set the next value."""
        self.value += 1
        return Step("set_value", SET_VALUE, {"value": self.value}, value_is(self.value))


@dataclass
class FreelancerUser:
    """A signed-in freelancer going round the job pages, checking in now and then (see the module docstring).

    Attributes:
        shifts: Its confirmed shifts left for this scenario (one check-in each).
        every: A check-in after every `every` rounds while shifts are left.
    """

    tab: Tab
    jobs: Iterator[int]
    rng: random.Random
    shifts: list[OpenShift] = field(default_factory=list)
    every: int = 1
    position: int = 0
    job_id: int = 0
    outcome: Outcome | None = None
    _status: str = ""
    _shift_error: str | None = None
    _checkin_at_round: int = -1

    async def prepare(self) -> None:
        """Connect on /jobs, load the list and open a first job with its apply box, so any step can come first."""
        await self.tab.connect()
        for step in (self._list(), self._open(), self._apply_box()):
            await self.tab.call(step.event, step.payload, step.done)
        self.position = self.rng.randrange(ROUND)

    def step(self) -> Step:
        """The next step of the round: list, search, open, apply box, apply; a check-in between rounds."""
        rounds, place = divmod(self.position, ROUND)
        if place == 0 and self.shifts and rounds % self.every == 0 and self._checkin_at_round != rounds:
            self._checkin_at_round = rounds
            return self._check_in()
        makers = (self._list, self._search, self._open, self._apply_box, self._apply)
        step = makers[place]()
        self.position += 1
        return step

    def _list(self) -> Step:
        page = self.rng.randint(1, LIST_PAGES)
        self.tab.set_page("/jobs" if page == 1 else f"/jobs?page={page}")
        return Step(KINDS[0], f"{JOBS}.load", {}, has(JOBS, "items"))

    def _search(self) -> Step:
        term, category = self.rng.choice(SEARCHES)
        self.tab.set_page("/jobs?" + urlencode({"search": term, "city": self.rng.choice(CITIES), "category": category}))
        return Step(KINDS[1], f"{JOBS}.load", {}, has(JOBS, "items"))

    def _open(self) -> Step:
        self.job_id = next(self.jobs)
        self.tab.set_page(f"/jobs/{self.job_id}", "/jobs/[id]")
        loaded = lambda delta: (delta.get(DETAIL) or {}).get("loading_rx_state_") is False  # noqa: E731
        return Step(KINDS[2], f"{DETAIL}.load", {}, loaded)

    def _apply_box(self) -> Step:
        job_id = self.job_id
        return Step(
            KINDS[3],
            f"{APPLY}.load_for_job",
            {},
            lambda delta: (delta.get(APPLY) or {}).get("apply_job_id_rx_state_") == job_id,
        )

    def _apply(self) -> Step:
        self._status = ""

        def finished(delta: dict) -> bool:
            changes = delta.get(APPLY) or {}
            if changes.get("apply_submitting_rx_state_") is not False:
                return False
            self._status = changes.get("apply_status_rx_state_", "")
            return True

        def check() -> str:
            return "" if self._status == "pending" else "apply not recorded"

        message = {"valor_proposto": "", "mensagem": "Tenho experiência e disponibilidade."}
        return Step(KINDS[4], f"{APPLY}.submit_application", {"form_data": message}, finished, check)

    def _check_in(self) -> Step:
        shift = self.shifts.pop(0)
        self._shift_error = None
        self.tab.set_page("/freelancer-dashboard?tab=shifts", "/freelancer-dashboard")

        def opened(delta: dict) -> bool:
            return (delta.get(DASHBOARD) or {}).get("shift_dialog_open_rx_state_") is True

        def finished(delta: dict) -> bool:
            changes = delta.get(DASHBOARD) or {}
            if changes.get("shift_error_rx_state_"):
                self._shift_error = changes["shift_error_rx_state_"]
                return True
            if changes.get("shift_dialog_open_rx_state_") is False:
                self._shift_error = ""
                return True
            return False

        def check() -> str:
            return "" if self._shift_error == "" else f"check-in refused: {self._shift_error}"

        payload = {"form_data": {"method": "codigo", "code": shift.code(utcnow())}}
        open_dialog = (f"{DASHBOARD}.open_shift_action", {"hiring_id": shift.hiring_id, "action": "chegada"}, opened)
        return Step(KINDS[5], f"{DASHBOARD}.submit_shift_action", payload, finished, check, before=(open_dialog,))


async def _limited(coroutines: list, limit: int = CONNECT_AT_ONCE) -> list:
    """Run `coroutines` at most `limit` at a time; exceptions are returned, not raised."""
    gate = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with gate:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines), return_exceptions=True)


async def _send(user: User, outcome: Outcome) -> None:
    """Send the user's next event, wait for its result, and file the time or the error."""
    step = user.step()
    outcome.sent += 1
    sent_at = time.time()
    try:
        for event, payload, done in step.before:
            await user.tab.call(event, payload, done)
        elapsed = await user.tab.call(step.event, step.payload, step.done)
    except TimeoutError:
        outcome.errors[f"{step.kind}: timeout"] += 1
        return
    except EventError as shown:
        outcome.errors[f"error shown while waiting for '{step.kind}': {shown}"] += 1  # maybe from an earlier event
        return
    except Exception as exc:  # noqa: BLE001 (any failure of the client or the socket is a counted error)
        outcome.errors[f"{step.kind}: exception {type(exc).__name__}"] += 1
        return
    problem = step.check()
    if problem:
        outcome.errors[f"{step.kind}: {problem}"] += 1
        return
    outcome.samples.setdefault(step.kind, []).append(elapsed)
    outcome.stamps.append((sent_at, elapsed, step.kind))
    if step.kind == "apply":
        outcome.applied += 1
    elif step.kind == KINDS[5]:
        outcome.checked_in += 1


@dataclass
class _Deadline:
    """When the users stop (loop time); `measure` brings it forward when the work alongside ends."""

    at: float


async def _run_user(user: User, rate: float, deadline: _Deadline, rng: random.Random, outcome: Outcome) -> None:
    """Send events on a Poisson schedule until `deadline`; an event that overruns delays the next one."""
    loop = asyncio.get_running_loop()
    due = loop.time() + rng.expovariate(rate)
    while due < deadline.at:
        await asyncio.sleep(max(0.0, due - loop.time()))
        await _send(user, outcome)
        due = max(due + rng.expovariate(rate), loop.time())


async def _warm_up(user: User, outcome: Outcome) -> None:
    """One untimed round of the user's events (first calls pay for imports, caches and connections)."""
    warm = Outcome()
    for _ in range(ROUND):
        await _send(user, warm)
    outcome.errors.update(warm.errors)
    outcome.applied += warm.applied
    outcome.checked_in += warm.checked_in


async def _prepare_all(users: list[User], outcome: Outcome) -> list[User]:
    """Connect every user and warm the server up with a few; the ones that failed to connect are left out."""
    prepared = await _limited([user.prepare() for user in users])
    ready = []
    for user, result in zip(users, prepared, strict=True):
        if isinstance(result, BaseException):
            outcome.errors[f"connect {type(result).__name__}"] += 1
        else:
            ready.append(user)
    await _limited([_warm_up(user, outcome) for user in ready[:WARMUP_USERS]])
    return ready


async def _watch_client(deadline: _Deadline, lags: list[float], tick: float = 0.01) -> None:
    """How late this process's event loop wakes up (ms): when it lags, the client inflates the times."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline.at:
        start = loop.time()
        await asyncio.sleep(tick)
        lags.append((loop.time() - start - tick) * 1000)


async def measure(
    users: list[User],
    rate: float,
    duration: float,
    seed: int = 1,
    alongside: Callable[[], Awaitable[None]] | None = None,
) -> Outcome:
    """Prepare every user, then run them all for `duration` seconds at `rate` events/s each.

    Args:
        users: The simulated users.
        rate: Events per second per user (Poisson).
        duration: Seconds of sending, after every user is prepared.
        seed: The schedule's seed.
        alongside: Work started with the users (bench/reminder_burst.py makes reminders due in it);
            when it returns, the users stop, before `duration` if it ends sooner.
    """
    outcome = Outcome()
    ready = await _prepare_all(users, outcome)
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = _Deadline(loop.time() + duration)

    async def beside() -> None:
        await alongside()
        deadline.at = min(deadline.at, loop.time())

    extra = [beside()] if alongside else []
    try:
        await asyncio.gather(
            *extra,
            _watch_client(deadline, outcome.client_lag),
            *(_run_user(u, rate, deadline, random.Random(rng.random()), outcome) for u in ready),
        )
    finally:
        await asyncio.gather(*(user.tab.close() for user in users), return_exceptions=True)
    return outcome


def _counter_users(url: str, count: int, _rate: float = 0.0) -> list[User]:
    return [CounterUser(Tab(url, "/")) for _ in range(count)]


@dataclass
class AppUsers:
    """Freelancer users for the app, one per seeded freelancer, keeping their job order across scenarios."""

    url: str
    population: Population
    duration: float
    shifts: dict[int, list[OpenShift]] = field(default_factory=dict)
    sequences: dict[int, Iterator[int]] = field(default_factory=dict)

    def make(self, count: int, rate: float) -> list[User]:
        """`count` users, the i-th signed in as the i-th freelancer, with this scenario's share of its shifts."""
        if count > len(self.population.cookies):
            raise ValueError(f"{count} users but only {len(self.population.cookies)} freelancers seeded")
        rounds = max(1, math.floor(self.duration * rate / ROUND))
        every = max(1, rounds // max(1, CHECKINS_PER_SCENARIO))
        users: list[User] = []
        for index in range(count):
            rng = random.Random(index)
            jobs = self.sequences.setdefault(index, self.population.jobs_to_apply(index, rng))
            left = self.shifts.get(self.population.freelancer_ids[index], [])
            mine, self.shifts[self.population.freelancer_ids[index]] = (
                left[:CHECKINS_PER_SCENARIO],
                left[CHECKINS_PER_SCENARIO:],
            )
            tab = Tab(self.url, "/jobs", self.population.cookies[index])
            users.append(FreelancerUser(tab, jobs, rng, shifts=mine, every=every))
        return users


def shifts_needed(cfg: Config) -> dict[int, int]:
    """Per user index, the confirmed shifts its scenarios will check in to."""
    needed: dict[int, int] = {}
    for users, _ in cfg.scenarios:
        for index in range(users):
            needed[index] = needed.get(index, 0) + CHECKINS_PER_SCENARIO
    return needed


@dataclass
class Row:
    """One line of the report."""

    mode: str
    scenario: str
    target: str
    outcome: Outcome


def _scenario_label(users: int, rate: float) -> str:
    return f"{users} users x {rate:g} event/s"


def _measure_all(url: str, make: Callable[[int, float], list[User]], cfg: Config, mode: str, target: str) -> list[Row]:
    rows = []
    for users, rate in cfg.scenarios:
        outcome = asyncio.run(measure(make(users, rate), rate, cfg.duration))
        rows.append(Row(mode, _scenario_label(users, rate), target, outcome))
    return rows


def _echo_rows(workdir: Path, cfg: Config) -> list[Row]:
    port = free_port()
    server = serve_echo(workdir, port)
    try:
        url = f"http://127.0.0.1:{port}"
        return _measure_all(url, lambda n, _rate: _counter_users(url, n), cfg, "any", "bare socketio echo")
    finally:
        stop(server)


def _blank_rows(workdir: Path, cfg: Config, mode: str, extra: dict[str, str]) -> list[Row]:
    port = free_port()
    server = serve_blank(blank_project(workdir), blank_env(**extra), port)
    try:
        url = f"http://127.0.0.1:{port}"
        return _measure_all(url, lambda n, _rate: _counter_users(url, n), cfg, mode, "blank Reflex app")
    finally:
        stop(server)


def _app_rows(workdir: Path, cfg: Config, mode: str, extra: dict[str, str]) -> list[Row]:
    engine = "postgresql" if "REFLEX_REDIS_URL" in extra else "sqlite"
    with database(engine, workdir, "roundtrip") as url:
        env = app_env(url, **extra)
        migrate(env)
        population = populate(url, cfg.jobs, max(users for users, _ in cfg.scenarios))
        needed = shifts_needed(cfg)
        shifts = confirmed_shifts(
            url, population.freelancer_ids[: len(needed)], max(needed.values(), default=0), utcnow() + SHIFTS_START_IN
        )
        before = count_applications(url), count_check_ins(url)
        port = free_port()
        server = serve_app(env, port)
        try:
            users = AppUsers(f"http://127.0.0.1:{port}", population, cfg.duration, shifts)
            rows = _measure_all(users.url, users.make, cfg, mode, "Turno")
        finally:
            stop(server)
        _check_writes(url, rows, before)
        return rows


def _check_writes(url: str, rows: list[Row], before: tuple[int, int]) -> None:
    """Count the rows the applies and check-ins wrote; a difference is an error of the last row."""
    applied = sum(row.outcome.applied for row in rows)
    checked_in = sum(row.outcome.checked_in for row in rows)
    written = count_applications(url) - before[0], count_check_ins(url) - before[1]
    if written[0] != applied:
        rows[-1].outcome.errors[f"application rows {written[0]} != applies {applied}"] += 1
    if written[1] != checked_in:
        rows[-1].outcome.errors[f"check-ins recorded {written[1]} != check-ins answered {checked_in}"] += 1


def modes(engines: frozenset[str] = frozenset(ENGINES)) -> list[tuple[str, dict[str, str]]]:
    """(label, extra environment) per mode of `engines`; PostgreSQL + Redis only when both are configured."""
    result = []
    if "sqlite" in engines:
        result.append(("1 process, SQLite, memory state", {"GRANIAN_WORKERS": "1"}))
    if "postgresql" in engines and postgres_url() and redis_url():
        result.append(("2 workers, PostgreSQL, Redis", {"GRANIAN_WORKERS": "2", "REFLEX_REDIS_URL": redis_url()}))
    return result


def run(cfg: Config | None = None) -> list[Row]:
    """Measure the echo once, then the blank app and Turno in every mode; return every row."""
    cfg = cfg or config()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        rows = _echo_rows(workdir, cfg) if "echo" in cfg.targets else []
        for mode, extra in modes(cfg.engines):
            if "blank" in cfg.targets:
                rows += _blank_rows(workdir, cfg, mode, extra)
            if "app" in cfg.targets:
                rows += _app_rows(workdir, cfg, mode, extra)
    return rows


def _p95(row: Row | None) -> float:
    return pct(row.outcome.all(), 95) if row and row.outcome.all() else float("nan")


def _find(rows: list[Row], scenario: str, target: str, mode: str | None = None) -> Row | None:
    return next((r for r in rows if r.scenario == scenario and r.target == target and mode in (None, r.mode)), None)


def report(rows: list[Row], cfg: Config) -> None:
    """Print the tables (all targets, the app's event kinds) and whether each goal is met."""
    print(f"\nEvent round trip, ms p50 / p95 / p99, {cfg.duration:g} s per scenario, {cfg.jobs} jobs")
    print(
        "| mode | scenario | target | events | events/s | errors | p50 / p95 / p99 | p95 vs blank | p95 vs echo "
        "| client loop lag p99 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        blank = _find(rows, row.scenario, "blank Reflex app", row.mode)
        echo = _find(rows, row.scenario, "bare socketio echo")
        samples = row.outcome.all()
        times = summary(samples) if samples else "-"
        vs_blank = f"{_p95(row) / _p95(blank):.2f}x" if blank else "-"
        vs_echo = f"{_p95(row) / _p95(echo):.2f}x" if echo else "-"
        print(
            f"| {row.mode} | {row.scenario} | {row.target} | {row.outcome.sent} | {row.outcome.sent / cfg.duration:.0f} "
            f"| {row.outcome.error_count()} "
            f"| {times} | {vs_blank} | {vs_echo} | {pct(row.outcome.client_lag or [0], 99):.1f} |"
        )
    print("\nTurno by event kind, ms p50 / p95 / p99")
    print("| mode | scenario | event | events | p50 / p95 / p99 |")
    print("|---|---|---|---|---|")
    for row in (r for r in rows if r.target == "Turno"):
        for kind in KINDS:
            samples = row.outcome.samples.get(kind, [])
            print(f"| {row.mode} | {row.scenario} | {kind} | {len(samples)} | {summary(samples) if samples else '-'} |")
    _print_goals(rows)


def _print_goals(rows: list[Row]) -> None:
    print("\nGoals (Turno): p95 <= 10 ms, p99 <= 50 ms, 0 errors, p95 <= 1.5x the blank app's")
    for row in (r for r in rows if r.target == "Turno"):
        samples = row.outcome.all()
        p95 = pct(samples, 95) if samples else float("inf")
        p99 = pct(samples, 99) if samples else float("inf")
        blank = _find(rows, row.scenario, "blank Reflex app", row.mode)
        checks = [
            f"p95 {p95:.2f} ms {'met' if p95 <= GOAL_P95 else 'NOT met'}",
            f"p99 {p99:.2f} ms {'met' if p99 <= GOAL_P99 else 'NOT met'}",
            f"errors {row.outcome.error_count()} {'met' if not row.outcome.error_count() else 'NOT met'}",
        ]
        if blank:
            ratio = p95 / _p95(blank)
            checks.append(f"vs blank {ratio:.2f}x {'met' if ratio <= GOAL_RATIO else 'NOT met'}")
        print(f"- {row.mode}, {row.scenario}: " + "; ".join(checks))
        for error, count in row.outcome.errors.items():
            if count:
                print(f"  - {error}: {count}")


def main() -> list[Row]:
    """Run the benchmark with the sizes from the environment and print the report."""
    cfg = config()
    rows = run(cfg)
    report(rows, cfg)
    return rows


if __name__ == "__main__":
    main()
