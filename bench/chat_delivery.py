"""Chat delivery latency: one participant's send to the other participant's state delta.

Simulated browsers speak Reflex's websocket protocol (python-socketio): each person connects with
a real session cookie, opens the conversation page's handlers (load_chrome, load_client or
load_freelancer) exactly as the browser does, and the sender calls ChatRoomState.send_message.
The clock stops when the receiver's socket gets the delta holding that message. So the figure
includes the handler, the database write, the after-commit ping, the presence lookup, the
receiver's state update and the websocket hop, on the real app served by `reflex run --env prod`.

Baseline, measured in the same run with the same client code: a bare python-socketio relay
(served by Granian, like the app) that forwards each message to the peer's socket, with no state and no
database. Conversations: 1, 50 and 200 at once (BENCH_CONVERSATIONS="1,50,200"), BENCH_ROUNDS messages
each (default 40), alternating direction. Modes: one process on SQLite (the memory state
manager), and when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names PostgreSQL and BENCH_REDIS_URL
(or TEST_REDIS_URL) is set, two workers with Redis, the two people of each pair on whichever
worker accepted them.
"""

import asyncio
import os
import statistics
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import socketio

from bench import harness
from bench.harness import (
    app_env,
    create_database,
    drop_database,
    free_port,
    migrate,
    postgres_url,
    redis_url,
    serve_app,
    serve_asgi,
    stop,
    summary,
    use_database,
)
from bench.wsclient import AUTH, CHROME, TIMEOUT, Tab

ROUNDS = 4 if harness.quick() else int(os.environ.get("BENCH_ROUNDS", "40"))
CONVERSATIONS = (
    [2] if harness.quick() else [int(n) for n in os.environ.get("BENCH_CONVERSATIONS", "1,50,200").split(",") if n]
)
ROOM = f"{AUTH}.app___pages___chats___state____chat_room_state"
INTERVAL = float(os.environ.get("BENCH_INTERVAL", "0.5"))
PATTERNS = [(f"paced, 1 message / {INTERVAL:g} s per conversation", INTERVAL), ("burst, all at once", 0.0)]

_RELAY_SERVER = """
import socketio

sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins="*")
peers = {}


@sio.event
async def connect(sid, environ, auth):
    peers[auth["me"]] = sid


@sio.event
async def broadcast(sid, data):
    await sio.emit("message", data, skip_sid=sid)


@sio.event
async def relay(sid, data):
    target = peers.get(data["to"])
    if target:
        await sio.emit("message", data, to=target)


app = socketio.ASGIApp(sio, socketio_path="_relay")
"""


@dataclass
class Person(Tab):
    """One signed-in person with the conversation page open."""

    messages: dict[str, asyncio.Future] = field(default_factory=dict)

    async def open(self) -> None:
        """Connect and run the conversation page's load handlers, as the browser does."""
        self.on_delta.append(self._watch_messages)
        await self.connect()
        handler = "load_client" if self.path.startswith("/client") else "load_freelancer"
        await self.call(f"{CHROME}.load_chrome", done=lambda delta: CHROME in delta)
        found = lambda delta: delta.get(ROOM, {}).get("status_rx_state_") == "found"  # noqa: E731
        await self.call(f"{ROOM}.{handler}", done=found)

    def _watch_messages(self, delta: dict) -> None:
        for key in ("recent_rx_state_", "history_rx_state_"):
            for message in delta.get(ROOM, {}).get(key) or []:
                future = self.messages.pop(message.get("content", ""), None)
                if future is not None and not future.done():
                    future.set_result(time.perf_counter())

    def expect(self, text: str) -> asyncio.Future:
        """A future resolved with the time the message `text` shows up in this tab's state."""
        future = asyncio.get_running_loop().create_future()
        self.messages[text] = future
        return future

    async def send(self, text: str) -> None:
        """What pressing Enter in the composer sends."""
        await self.emit(f"{ROOM}.send_message", {"form_data": {"message": text}})


@dataclass
class RelayPerson:
    """A client of the bare relay: the same socket library, no state, no database."""

    url: str
    name: str
    client: socketio.AsyncClient = field(default_factory=lambda: socketio.AsyncClient(reconnection=False))
    waiting: dict[str, asyncio.Future] = field(default_factory=dict)

    async def connect(self) -> None:
        """Open the socket."""
        self.client.on("message", self._on_message)
        await self.client.connect(
            self.url, socketio_path="/_relay", transports=["websocket"], auth={"me": self.name}, wait_timeout=TIMEOUT
        )

    async def _on_message(self, data: dict) -> None:
        future = self.waiting.pop(data["text"], None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    def expect(self, text: str) -> asyncio.Future:
        """A future resolved when `text` arrives."""
        future = asyncio.get_running_loop().create_future()
        self.waiting[text] = future
        return future

    async def send_to(self, peer: str, text: str) -> None:
        """Relay `text` to `peer`."""
        await self.client.emit("relay", {"to": peer, "text": text})

    async def close(self) -> None:
        """Disconnect."""
        await self.client.disconnect()


async def _exchange(pairs: list[tuple], send, interval: float) -> list[float]:
    """ROUNDS messages per pair, alternating direction; latencies in ms.

    With `interval` 0 every pair sends at the same instant each round (a burst: the last message
    waits for all the others). Otherwise each pair sends one message every `interval` seconds,
    the pairs spread evenly over the interval, as people typing at their own pace.
    """

    async def conversation(index: int, first, second) -> list[float]:
        await asyncio.sleep(interval * index / len(pairs))
        latencies = []
        for number in range(ROUNDS):
            sender, receiver = (first, second) if number % 2 == 0 else (second, first)
            text_ = f"bench {index}-{number}-{uuid.uuid4().hex[:6]}"
            arrival = receiver.expect(text_)
            start = time.perf_counter()
            await send(sender, receiver, text_)
            latencies.append((await asyncio.wait_for(arrival, TIMEOUT) - start) * 1000)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - start)))
        return latencies

    if interval:
        results = await asyncio.gather(*(conversation(i, a, b) for i, (a, b) in enumerate(pairs)))
        return [sample for samples in results for sample in samples]
    samples: list[float] = []
    for number in range(ROUNDS):
        started = []
        for index, (first, second) in enumerate(pairs):
            sender, receiver = (first, second) if number % 2 == 0 else (second, first)
            text_ = f"bench {index}-{number}-{uuid.uuid4().hex[:6]}"
            arrival = receiver.expect(text_)
            start = time.perf_counter()
            await send(sender, receiver, text_)
            started.append((start, arrival))
        for start, arrival in started:
            samples.append((await asyncio.wait_for(arrival, TIMEOUT) - start) * 1000)
    return samples


def _create_pairs(database_url: str, count: int) -> list[tuple[str, str, int]]:
    """`count` companies and freelancers with an accepted application each: cookies and chat ids."""
    use_database(database_url)
    from core.db import session_scope
    from core.settings import get_settings
    from core.types import utcnow
    from services.accounts import accounts, sessions
    from services.jobs import company_jobs
    from services.shifts import application_answers, applications

    cookie_name = get_settings().session_cookie_name
    result = []
    with session_scope() as db:
        for index in range(count):
            tag = uuid.uuid4().hex[:8]
            common = {"password": "Bench1234", "confirmPassword": "Bench1234", "location": "Recife"}
            company = accounts.register_company(
                db,
                {
                    **common,
                    "name": f"Empresa {index}",
                    "email": f"c{tag}@bench.turno.com.br",
                    "company": "Bench Eventos",
                    "industry": "events",
                },
            )
            freelancer = accounts.register_freelancer(
                db,
                {
                    **common,
                    "name": f"Pessoa {index}",
                    "email": f"f{tag}@bench.turno.com.br",
                    "profession": "Garçom",
                    "skills": "Atendimento",
                },
            )
            for user in (company, freelancer):
                user.email_confirmed_at = utcnow()
                db.add(user)
            db.flush()
            job_id = company_jobs.create_job(
                db,
                company.id,
                {
                    "titulo": f"Vaga {index}",
                    "categoria": "eventos",
                    "descricao": "Bench " * 5,
                    "localizacao": "Recife",
                    "vagas_disponiveis": 2,
                    **harness.shift_fields(),
                },
            )
            application_id = applications.apply(db, freelancer.id, "freelancer", job_id, {})
            chat_id = application_answers.accept(db, company.id, application_id)
            company_token, _ = sessions.create(db, company.id, remember=True)
            freelancer_token, _ = sessions.create(db, freelancer.id, remember=True)
            result.append((f"{cookie_name}={company_token}", f"{cookie_name}={freelancer_token}", chat_id))
    return result


async def _measure_app(url: str, pairs_data: list[tuple[str, str, int]]) -> dict[str, list[float]]:
    pairs = []
    for company_cookie, freelancer_cookie, chat_id in pairs_data:
        company = Person(url, f"/client-dashboard/chats/{chat_id}", company_cookie)
        freelancer = Person(url, f"/freelancer-dashboard/chats/{chat_id}", freelancer_cookie)
        pairs.append((company, freelancer))
    await asyncio.gather(*(person.open() for pair in pairs for person in pair))

    async def send(sender, _receiver, text_):
        await sender.send(text_)

    try:
        await _exchange(pairs[:1], send, 0)  # warm-up
        return {label: await _exchange(pairs, send, interval) for label, interval in PATTERNS}
    finally:
        await asyncio.gather(*(person.close() for pair in pairs for person in pair), return_exceptions=True)


async def _measure_relay(url: str, count: int) -> dict[str, list[float]]:
    pairs = [(RelayPerson(url, f"a{i}"), RelayPerson(url, f"b{i}")) for i in range(count)]
    await asyncio.gather(*(person.connect() for pair in pairs for person in pair))

    async def send(sender, receiver, text_):
        await sender.send_to(receiver.name, text_)

    try:
        await _exchange(pairs[:1], send, 0)
        return {label: await _exchange(pairs, send, interval) for label, interval in PATTERNS}
    finally:
        await asyncio.gather(*(person.close() for pair in pairs for person in pair), return_exceptions=True)


def _modes() -> list[tuple[str, dict[str, str]]]:
    """(label, extra environment) per mode; PostgreSQL + Redis only when both are configured."""
    modes = [("1 process, SQLite, memory state", {})]
    if postgres_url() and redis_url():
        modes.append(("2 workers, PostgreSQL, Redis", {"REFLEX_REDIS_URL": redis_url(), "GRANIAN_WORKERS": "2"}))
    return modes


def relay_server(workdir: Path, port: int) -> subprocess.Popen:
    """The bare relay baseline (and the fan-out's broadcast), served by Granian like the app."""
    return serve_asgi(workdir, "bare_relay", _RELAY_SERVER, port, "/_relay/?EIO=4&transport=polling")


def run() -> list[tuple]:
    """Measure the relay baseline and the app in each mode.

    Returns:
        (mode, conversations, pattern, messages, relay summary, app summary, p50 ratio) rows.
    """
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        relay_port = free_port()
        relay = relay_server(Path(tmp), relay_port)
        try:
            baseline = {n: asyncio.run(_measure_relay(f"http://127.0.0.1:{relay_port}", n)) for n in CONVERSATIONS}
        finally:
            stop(relay)
        for mode, extra in _modes():
            database_url = create_database(postgres_url()) if extra else f"sqlite:///{Path(tmp) / 'chat.db'}"
            env = app_env(database_url, **extra)
            migrate(env)
            port = free_port()
            server = serve_app(env, port)
            try:
                for count in CONVERSATIONS:
                    measured = asyncio.run(_measure_app(f"http://127.0.0.1:{port}", _create_pairs(database_url, count)))
                    for pattern, samples in measured.items():
                        base = baseline[count][pattern]
                        ratio = statistics.median(samples) / statistics.median(base)
                        rows.append((mode, count, pattern, len(samples), summary(base), summary(samples), ratio))
            finally:
                stop(server)
                drop_database(database_url)
    return rows


def main() -> None:
    """Print the table of `run()`."""
    rows = run()
    print(f"\nChat delivery: sender's event to the receiver's delta, ms p50 / p95 / p99 ({ROUNDS} messages each)")
    print("| mode | conversations | pattern | messages | bare relay | app | ratio (p50) |")
    print("|---|---|---|---|---|---|---|")
    for mode, count, pattern, total, base, app, ratio in rows:
        print(f"| {mode} | {count} | {pattern} | {total} | {base} | {app} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
