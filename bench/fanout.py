"""Notification fan-out: one company publishes a job; every connected freelancer of its city sees it.

'Alertas de novas vagas' notify the freelancers of the job's city (services.reach.notifications,
at most JOB_ALERT_LIMIT per job). N freelancers of Recife are connected, each a simulated browser
tab on /freelancer-dashboard that ran `load_chrome` (so it is registered for live updates). The
company's tab sends the real `publish` event; the clock stops, per freelancer, when that tab's
delta raises its unread badge. Reported: p50/p95/p99 over the N arrivals and the last arrival.

Baseline, same run, same client code: a bare python-socketio server broadcasting one message to
the same number of connected sockets. Modes as in bench.chat_delivery: one process on SQLite,
and two workers on PostgreSQL + Redis when both are configured. Sizes: BENCH_FANOUT (default
"100,500"; 500 is the per-job alert cap); BENCH_QUICK=1: 10.
"""

import asyncio
import os
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import socketio

from bench import harness
from bench.chat_delivery import relay_server
from bench.wsclient import AUTH, CHROME, TIMEOUT, Tab

JOBS_STATE = f"{AUTH}.app___pages___company_jobs___state____company_jobs_state"
JOB_FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de salão para 200 convidados, traje social.",
    "localizacao": "Recife",
    "vagas_disponiveis": "3",
    **harness.shift_fields(),
}


def _sizes() -> list[int]:
    if harness.quick():
        return [10]
    return [int(n) for n in os.environ.get("BENCH_FANOUT", "100,500").split(",") if n.strip()]


def _people(database_url: str, count: int) -> tuple[str, list[str]]:
    """A company and `count` freelancers of Recife with new-job alerts on; their cookies."""
    harness.use_database(database_url)
    from core.db import session_scope
    from core.settings import get_settings
    from core.types import utcnow
    from services.accounts import accounts, sessions

    name = get_settings().session_cookie_name
    tag = uuid.uuid4().hex[:8]
    common = {"password": "Bench1234", "confirmPassword": "Bench1234", "location": "Recife"}
    with session_scope() as db:
        company = accounts.register_company(
            db,
            {**common, "name": "Ana", "email": f"c{tag}@bench.turno.com.br", "company": "Buffet", "industry": "events"},
        )
        people = [company]
        for index in range(count):
            email = f"f{index}.{tag}@bench.turno.com.br"
            form = {**common, "name": f"Pessoa {index}", "email": email, "profession": "Garçom", "skills": "Salão"}
            people.append(accounts.register_freelancer(db, form))
        for user in people:
            user.email_confirmed_at = utcnow()
            db.add(user)
        db.flush()
        cookies = [f"{name}={sessions.create(db, user.id, remember=True)[0]}" for user in people]
    return cookies[0], cookies[1:]


def _badge_raised(delta: dict) -> bool:
    return bool((delta.get(CHROME) or {}).get("unread_rx_state_"))


async def _measure_app(url: str, company_cookie: str, cookies: list[str]) -> list[float]:
    tabs = [Tab(url, "/freelancer-dashboard", cookie) for cookie in cookies]
    company = Tab(url, "/client-dashboard/jobs", company_cookie)

    async def open_tab(tab: Tab) -> None:
        await tab.connect()
        await tab.call(f"{CHROME}.load_chrome", done=lambda delta: CHROME in delta)

    try:
        for start in range(0, len(tabs), 50):  # connect in waves, as people arrive
            await asyncio.gather(*(open_tab(tab) for tab in tabs[start : start + 50]))
        await open_tab(company)
        await company.call(f"{JOBS_STATE}.set_publish_open", {"value": True})
        arrivals = [tab.wait_for(_badge_raised) for tab in tabs]
        start = time.perf_counter()
        await company.emit(f"{JOBS_STATE}.publish", {"form_data": JOB_FORM})
        done = await asyncio.wait_for(asyncio.gather(*arrivals), TIMEOUT * 2)
        return [(moment - start) * 1000 for moment in done]
    finally:
        await asyncio.gather(*(tab.close() for tab in (*tabs, company)))


@dataclass
class Listener:
    """A socket of the bare broadcast baseline."""

    url: str
    client: socketio.AsyncClient
    arrived: asyncio.Future | None = None

    async def connect(self, name: str) -> None:
        """Open the socket and note when the broadcast arrives."""
        self.arrived = asyncio.get_running_loop().create_future()
        self.client.on("message", lambda _data: self.arrived.done() or self.arrived.set_result(time.perf_counter()))
        await self.client.connect(
            self.url, socketio_path="/_relay", transports=["websocket"], auth={"me": name}, wait_timeout=TIMEOUT
        )


async def _measure_broadcast(url: str, count: int) -> list[float]:
    listeners = [Listener(url, socketio.AsyncClient(reconnection=False)) for _ in range(count + 1)]
    try:
        for start in range(0, len(listeners), 50):
            await asyncio.gather(*(lst.connect(f"l{start + i}") for i, lst in enumerate(listeners[start : start + 50])))
        sender, receivers = listeners[0], listeners[1:]
        start = time.perf_counter()
        await sender.client.emit("broadcast", {"text": "nova vaga"})
        done = await asyncio.wait_for(asyncio.gather(*(lst.arrived for lst in receivers)), TIMEOUT)
        return [(moment - start) * 1000 for moment in done]
    finally:
        await asyncio.gather(*(lst.client.disconnect() for lst in listeners), return_exceptions=True)


def _modes() -> list[tuple[str, dict[str, str]]]:
    modes = [("1 process, SQLite, memory state", {})]
    if harness.postgres_url() and harness.redis_url():
        modes.append(
            ("2 workers, PostgreSQL, Redis", {"REFLEX_REDIS_URL": harness.redis_url(), "GRANIAN_WORKERS": "2"})
        )
    return modes


def run() -> list[tuple[str, int, list[float], list[float]]]:
    """(mode, receivers, baseline ms, app ms) for each mode and size."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        port = harness.free_port()
        relay = relay_server(Path(tmp), port)
        try:
            baseline = {n: asyncio.run(_measure_broadcast(f"http://127.0.0.1:{port}", n)) for n in _sizes()}
        finally:
            harness.stop(relay)
        for mode, extra in _modes():
            for count in _sizes():
                engine = "postgresql" if extra else "sqlite"
                with harness.database(engine, Path(tmp), f"fanout{count}") as url:
                    env = harness.app_env(url, **extra)
                    harness.migrate(env)
                    company, cookies = _people(url, count)
                    app_port = harness.free_port()
                    server = harness.serve_app(env, app_port)
                    try:
                        samples = asyncio.run(_measure_app(f"http://127.0.0.1:{app_port}", company, cookies))
                    finally:
                        harness.stop(server)
                rows.append((mode, count, baseline[count], samples))
    return rows


def main() -> None:
    """Run and print the table."""
    rows = run()
    print("\nNotification fan-out: publish event to each connected freelancer's badge delta, ms p50 / p95 / p99")
    print("| mode | receivers | bare broadcast | app | last arrival | ratio (p95) |")
    print("|---|---|---|---|---|---|")
    for mode, count, base, samples in rows:
        ratio = harness.pct(samples, 95) / harness.pct(base, 95)
        print(
            f"| {mode} | {count} | {harness.summary(base)} | {harness.summary(samples)} | "
            f"{max(samples):.1f} | {ratio:.1f}x |"
        )


if __name__ == "__main__":
    main()
