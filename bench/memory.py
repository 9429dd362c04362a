"""Memory per session: the server's resident memory with many connected tabs, state and delta sizes.

1. **RSS per idle session.** The real app (one process, SQLite, the memory state manager, served
   like production) is measured with 0, 500 and 1,500 connected tabs (BENCH_SESSIONS), half of them
   signed-in freelancers on /freelancer-dashboard that ran its load handlers (guard, load_chrome,
   FreelancerDashboardState.load), half visitors on /jobs that loaded the list (load_session,
   JobsState.load). RSS is the sum of VmRSS over the server's process group (/proc), read once it
   stops moving. Level 0 is after a warm-up of one tab of each kind (left connected), so the
   first-use costs (imports, caches, database connections) are not charged to the sessions.
   Baselines, same run: the blank Reflex app (bench.baselines) with the same numbers of tabs, each
   having sent one event, and the bare python-socketio echo on Granian (the transport alone: what
   any websocket costs before Reflex or Turno hold anything for it).
2. **Serialized state per client token.** In this process, on the same database, each page's
   handlers run on one state tree (tests/support/state_harness.py) and every state of the tree is
   serialized with `BaseState._serialize()`, the pickle Reflex's Redis state manager stores.
3. **Delta sizes.** The raw socket.io frames (bytes) a scripted session receives: a freelancer
   through every dashboard tab and two rounds of list, search, open, apply box and apply, and a
   visitor through list, search and a job. The hydrate snapshot right after connecting is
   reported apart: this client asks for the full state, while a browser sends the hashes of its
   compiled initial state and gets only what differs.

Goals (printed, not asserted): <= 100 KB per idle session, no state over 100 KB, delta p95 <= 5 KB.
Sizes: BENCH_SESSIONS (default "0,500,1500"), BENCH_JOBS (default 20000); BENCH_QUICK=1 makes
them "0,20,50" and 2,000.
"""

import asyncio
import os
import random
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.baselines import SET_VALUE, blank_env, blank_project, serve_blank, serve_echo, value_is
from bench.event_roundtrip import APPLY, DETAIL, JOBS, FreelancerUser
from bench.harness import app_env, free_port, migrate, pct, quick, serve_app, settled_rss_kb, stop
from bench.population import Population, populate
from bench.wsclient import AUTH, CHROME, Tab, has

DASHBOARD = f"{APPLY}.app___pages___freelancer_dashboard___state____freelancer_dashboard_state"
DASHBOARD_TABS = ("overview", "jobs", "applications", "messages")
OPEN_AT_ONCE = 20
GOAL_SESSION_KB, GOAL_STATE_KB, GOAL_DELTA_P95 = 100, 100, 5 * 1024


@dataclass(frozen=True)
class Config:
    """The sizes of one run (from the environment; BENCH_QUICK shrinks them)."""

    levels: list[int]
    jobs: int


def config() -> Config:
    """Read BENCH_SESSIONS and BENCH_JOBS, with the quick defaults under BENCH_QUICK."""
    small = quick()
    levels = os.environ.get("BENCH_SESSIONS") or ("0,20,50" if small else "0,500,1500")
    jobs = int(os.environ.get("BENCH_JOBS") or (2000 if small else 20000))
    return Config(sorted({int(n) for n in levels.split(",")} | {0}), jobs)


# --- tabs ---------------------------------------------------------------------------------------


async def open_freelancer(tab: Tab) -> None:
    """What /freelancer-dashboard runs on load: the guard, the frame's data, the tab's data."""
    await tab.connect()
    await tab.call(f"{AUTH}.guard_freelancer", done=lambda delta: AUTH in delta)
    await tab.call(f"{CHROME}.load_chrome", done=lambda delta: CHROME in delta)
    await tab.call(f"{DASHBOARD}.load", done=has(DASHBOARD, "loaded_tab"))


async def open_visitor(tab: Tab) -> None:
    """What /jobs runs on load: the session check and the first page of the list."""
    await tab.connect()
    await tab.call(f"{AUTH}.load_session", done=lambda delta: AUTH in delta)
    await tab.call(f"{JOBS}.load", done=has(JOBS, "items"))


async def open_blank(tab: Tab) -> None:
    """Connect to the blank app and send it one event."""
    await tab.connect()
    await tab.call(SET_VALUE, {"value": 1}, value_is(1))


@dataclass
class Sessions:
    """The open tabs of one target, and how to open the next one."""

    opener: Callable[[int], tuple[Tab, Callable]]
    tabs: list[Tab] = field(default_factory=list)
    failures: int = 0

    async def grow(self, total: int) -> None:
        """Open tabs (a few at a time) until `total` are open."""
        gate = asyncio.Semaphore(OPEN_AT_ONCE)

        async def one(index: int) -> None:
            tab, open_ = self.opener(index)
            async with gate:
                try:
                    await open_(tab)
                except Exception:  # noqa: BLE001 (a tab that failed to open is counted, not fatal)
                    self.failures += 1
                    await tab.close()
                    return
            self.tabs.append(tab)

        await asyncio.gather(*(one(i) for i in range(len(self.tabs) + self.failures, total + self.failures)))

    async def close(self) -> None:
        """Disconnect every tab."""
        await asyncio.gather(*(tab.close() for tab in self.tabs), return_exceptions=True)


def app_opener(url: str, population: Population) -> Callable[[int], tuple[Tab, Callable]]:
    """Even tabs: the i-th freelancer on the dashboard; odd tabs: a visitor on /jobs."""

    def opener(index: int) -> tuple[Tab, Callable]:
        if index % 2 == 0:
            cookie = population.cookies[index // 2]
            return Tab(url, "/freelancer-dashboard", cookie), open_freelancer
        return Tab(url, "/jobs"), open_visitor

    return opener


def blank_opener(url: str) -> Callable[[int], tuple[Tab, Callable]]:
    """Every tab on the blank app's only page (or on the echo, which answers the same event)."""
    return lambda _index: (Tab(url, "/"), open_blank)


# --- RSS per session ----------------------------------------------------------------------------


@dataclass
class RssResult:
    """Resident memory (KB) of one target per number of open sessions."""

    target: str
    rss_kb: dict[int, int] = field(default_factory=dict)
    failures: int = 0

    def per_session_kb(self) -> float:
        """KB per session between level 0 and the highest level."""
        top = max(self.rss_kb)
        return (self.rss_kb[top] - self.rss_kb[0]) / top if top else 0.0


async def _levels(server: subprocess.Popen, sessions: Sessions, levels: list[int], result: RssResult) -> None:
    quiet = 2 if quick() else 4
    await sessions.grow(2)  # warm-up, one of each kind, left open
    for level in levels:
        await sessions.grow(level + 2)
        result.rss_kb[level] = await asyncio.to_thread(settled_rss_kb, server.pid, 512, quiet)
        print(f"  {result.target}: {level} sessions, {result.rss_kb[level] / 1024:.1f} MB", flush=True)
    result.failures = sessions.failures


def measure_rss(
    server: subprocess.Popen, opener: Callable[[int], tuple[Tab, Callable]], levels: list[int], target: str
) -> RssResult:
    """Open tabs level by level on `server` and read its settled RSS at each level."""
    result = RssResult(target)
    sessions = Sessions(opener)

    async def go() -> None:
        try:
            await _levels(server, sessions, levels, result)
        finally:
            await sessions.close()

    asyncio.run(go())
    return result


# --- delta sizes --------------------------------------------------------------------------------


@dataclass
class Frames:
    """Frame sizes (bytes) a scripted session received, with the states each changed."""

    hydrate: list[int] = field(default_factory=list)
    deltas: list[tuple[int, str]] = field(default_factory=list)

    def take(self, tab: Tab, connected: bool) -> None:
        """Move the tab's recorded frames here (the first after connecting is the hydrate snapshot)."""
        frames = list(tab.frames or [])
        if connected and frames:
            self.hydrate.append(frames.pop(0)[0])
        self.deltas.extend(frames)
        tab.frames = []


async def _script_freelancer(url: str, population: Population, frames: Frames) -> None:
    index = len(population.cookies) - 1  # the last freelancer: not used by the RSS sessions' first half
    tab = Tab(url, "/freelancer-dashboard", population.cookies[index], frames=[])
    await open_freelancer(tab)
    frames.take(tab, connected=True)
    for name in DASHBOARD_TABS[1:]:
        tab.set_page(f"/freelancer-dashboard?tab={name}")
        await tab.call(f"{DASHBOARD}.load", done=has(DASHBOARD, "loaded_tab"))
    rng = random.Random(3)
    user = FreelancerUser(tab, population.jobs_to_apply(index, rng), rng)
    for step in (user._list(), user._open(), user._apply_box()):
        await tab.call(step.event, step.payload, step.done)
    user.position = 0
    for _ in range(10):
        step = user.step()
        await tab.call(step.event, step.payload, step.done)
    frames.take(tab, connected=False)
    await tab.close()


async def _script_visitor(url: str, population: Population, frames: Frames) -> None:
    tab = Tab(url, "/jobs", frames=[])
    await open_visitor(tab)
    frames.take(tab, connected=True)
    tab.set_page("/jobs?search=chef&city=Recife&category=gastronomia")
    await tab.call(f"{JOBS}.load", done=has(JOBS, "items"))
    tab.set_page(f"/jobs/{population.open_jobs[0]}", "/jobs/[id]")
    await tab.call(f"{DETAIL}.load", done=lambda delta: (delta.get(DETAIL) or {}).get("loading_rx_state_") is False)
    await tab.call(f"{APPLY}.load_for_job", done=lambda delta: APPLY in delta)
    frames.take(tab, connected=False)
    await tab.close()


def measure_frames(url: str, population: Population) -> Frames:
    """Run the scripted freelancer and visitor sessions and collect their frame sizes."""
    frames = Frames()

    async def go() -> None:
        await _script_freelancer(url, population, frames)
        await _script_visitor(url, population, frames)

    asyncio.run(go())
    return frames


# --- serialized state ---------------------------------------------------------------------------


def _state_tree(root) -> list:
    states = [root]
    for child in root.substates.values():
        states.extend(_state_tree(child))
    return states


def _tree_sizes(root) -> dict[str, int]:
    """Serialized bytes of every state of a token's tree, by state name (what Redis would store)."""
    return {state.get_full_name(): len(state._serialize()) for state in _state_tree(root)}


@dataclass
class StateSizes:
    """The serialized states of one page flow's token, and the error toasts its handlers returned."""

    page: str
    sizes: dict[str, int]
    errors: list[str]


def _navigate(root, path: str, query: dict | None = None) -> None:
    from reflex.istate.data import RouterData

    data = {**root.router_data, "pathname": path.split("?")[0], "asPath": path, "query": query or {}}
    root.router_data = data
    root.router = RouterData.from_router_data(data)


def _page_flows(population: Population) -> list[tuple[str, str, list[tuple[str, type, str, tuple]]]]:
    """(page, cookie, [(path, state class, handler name, args)]) for each page the benchmarks reach."""
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState
    from app.pages.job_detail.state import JobDetailState
    from app.pages.jobs import JobsState
    from states.apply import ApplyState
    from states.auth import AuthState
    from states.dashboard import DashboardState

    job = population.open_jobs[-1]
    cookie = population.cookies[0]
    dashboard = [
        ("/freelancer-dashboard", AuthState, "guard_freelancer", ()),
        ("/freelancer-dashboard", DashboardState, "load_chrome", ()),
        *((f"/freelancer-dashboard?tab={t}", FreelancerDashboardState, "load", ()) for t in DASHBOARD_TABS),
    ]
    jobs_list = [("/jobs", AuthState, "load_session", ()), ("/jobs", JobsState, "load", ())]
    detail = [(f"/jobs/{job}", JobDetailState, "load", ()), (f"/jobs/{job}", ApplyState, "load_for_job", ())]
    apply = [(f"/jobs/{job}", ApplyState, "submit_application", ({"mensagem": "Olá"},))]
    return [
        ("visitor, /jobs", "", jobs_list),
        ("visitor, /jobs then /jobs/[id]", "", jobs_list + detail),
        ("freelancer, every dashboard tab", cookie, dashboard),
        ("freelancer, dashboard, /jobs, /jobs/[id], applied", cookie, dashboard + jobs_list + detail + apply),
    ]


def measure_state_sizes(database_url: str, population: Population) -> list[StateSizes]:
    """Per page flow, the serialized size of each state of the token's tree after its handlers ran."""
    from bench.harness import use_database

    use_database(database_url)
    from reflex.state import State

    import app.app  # noqa: F401  (registers every page and state)
    from tests.support.state_harness import run, state_for, toasts

    results = []
    for page, cookie, flow in _page_flows(population):
        root = state_for(State, cookie)
        errors = []
        for path, state_cls, handler, args in flow:
            _navigate(root, path)
            state = root.get_substate(state_cls.get_full_name().split(".")[1:])
            errors += [t for t in toasts(run(state, getattr(state_cls, handler), *args)) if t.startswith("error")]
        results.append(StateSizes(page, _tree_sizes(root), errors))
    return results


# --- run and report -----------------------------------------------------------------------------


@dataclass
class Results:
    """Everything one run measured."""

    rss: list[RssResult]
    states: list[StateSizes]
    frames: Frames


def _app_part(workdir: Path, cfg: Config) -> tuple[RssResult, list, Frames]:
    url = f"sqlite:///{workdir / 'memory.db'}"
    env = app_env(url, GRANIAN_WORKERS="1")
    migrate(env)
    population = populate(url, cfg.jobs, max(cfg.levels) // 2 + 10)  # spares for tabs that fail to open
    port = free_port()
    server = serve_app(env, port)
    try:
        rss = measure_rss(server, app_opener(f"http://127.0.0.1:{port}", population), cfg.levels, "Turno")
        frames = measure_frames(f"http://127.0.0.1:{port}", population)
    finally:
        stop(server)
    return rss, measure_state_sizes(url, population), frames


def _blank_part(workdir: Path, cfg: Config) -> RssResult:
    port = free_port()
    server = serve_blank(blank_project(workdir), blank_env(GRANIAN_WORKERS="1"), port)
    try:
        return measure_rss(server, blank_opener(f"http://127.0.0.1:{port}"), cfg.levels, "blank Reflex app")
    finally:
        stop(server)


def _echo_part(workdir: Path, cfg: Config) -> RssResult:
    port = free_port()
    server = serve_echo(workdir, port)
    try:
        return measure_rss(server, blank_opener(f"http://127.0.0.1:{port}"), cfg.levels, "bare socketio echo")
    finally:
        stop(server)


def run(cfg: Config | None = None) -> Results:
    """Measure the echo's and the blank app's RSS, then the app's RSS, frames and state sizes."""
    cfg = cfg or config()
    with tempfile.TemporaryDirectory() as tmp:
        echo = _echo_part(Path(tmp), cfg)
        blank = _blank_part(Path(tmp), cfg)
        app_rss, states, frames = _app_part(Path(tmp), cfg)
    return Results([echo, blank, app_rss], states, frames)


def _report_rss(results: Results, cfg: Config) -> None:
    echo, blank, app = results.rss
    print("\nServer RSS (MB, whole process group) by open sessions")
    print("| target | " + " | ".join(f"{n} sessions" for n in cfg.levels) + " | KB per session | failed to open |")
    print("|---|" + "---|" * len(cfg.levels) + "---|---|")
    for result in results.rss:
        cells = " | ".join(f"{result.rss_kb[n] / 1024:.1f}" for n in cfg.levels)
        print(f"| {result.target} | {cells} | {result.per_session_kb():.1f} | {result.failures} |")
    ratio = app.per_session_kb() / blank.per_session_kb() if blank.per_session_kb() > 0 else float("nan")
    above = app.per_session_kb() - echo.per_session_kb()
    met = "met" if app.per_session_kb() <= GOAL_SESSION_KB else "NOT met"
    print(f"Turno / blank per session: {ratio:.2f}x; Turno above the bare transport: {above:.1f} KB per session.")
    print(f"Goal <= {GOAL_SESSION_KB} KB per idle session: {met} ({app.per_session_kb():.1f} KB)")


def _report_states(results: Results) -> None:
    print("\nSerialized state per client token (KB; pickles of every state in the tree)")
    print("| page flow | states | total | largest state | its size | handler errors |")
    print("|---|---|---|---|---|---|")
    biggest = 0
    for flow in results.states:
        name, size = max(flow.sizes.items(), key=lambda item: item[1])
        biggest = max(biggest, size)
        total = sum(flow.sizes.values()) / 1024
        short = name.rsplit(".", 1)[-1]
        print(f"| {flow.page} | {len(flow.sizes)} | {total:.1f} | {short} | {size / 1024:.1f} | {len(flow.errors)} |")
        for error in flow.errors:
            print(f"  - {error}")
    met = "met" if biggest <= GOAL_STATE_KB * 1024 else "NOT met"
    print(f"Goal: no state over {GOAL_STATE_KB} KB: {met} (largest {biggest / 1024:.1f} KB)")


def _report_frames(results: Results) -> None:
    sizes = [size for size, _label in results.frames.deltas]
    print("\nWebsocket frames of the scripted sessions (bytes)")
    print("| frames | p50 / p95 / max | hydrate snapshots |")
    print("|---|---|---|")
    hydrate = ", ".join(str(size) for size in results.frames.hydrate)
    print(f"| {len(sizes)} | {statistics.median(sizes):.0f} / {pct(sizes, 95):.0f} / {max(sizes)} | {hydrate} |")
    largest = sorted(results.frames.deltas, reverse=True)[:3]
    print("Largest: " + "; ".join(f"{size} B ({label.rsplit('.', 1)[-1]})" for size, label in largest))
    met = "met" if pct(sizes, 95) <= GOAL_DELTA_P95 else "NOT met"
    print(f"Goal: delta p95 <= {GOAL_DELTA_P95 // 1024} KB: {met}")


def report(results: Results, cfg: Config) -> None:
    """Print the RSS, state size and frame tables with their goals."""
    _report_rss(results, cfg)
    _report_states(results)
    _report_frames(results)


def main() -> Results:
    """Run the benchmark with the sizes from the environment and print the report."""
    cfg = config()
    results = run(cfg)
    report(results, cfg)
    return results


if __name__ == "__main__":
    main()
