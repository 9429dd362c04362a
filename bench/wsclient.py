"""A simulated browser tab speaking Reflex's websocket event protocol (python-socketio).

A tab connects to `/_event` with the session cookie a real browser would send, hydrates like the
compiled frontend does, and sends events by their full state path with a JSON payload. Every
update the server pushes is offered to the waiters registered with `wait_for`, so a benchmark can
time "event sent" to "delta that shows the result arrived" for any handler.
"""

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import socketio

STATE = "reflex___state____state"
AUTH = f"{STATE}.states___auth____auth_state"
CHROME = f"{AUTH}.states___dashboard____dashboard_state"
TIMEOUT = 30.0

Delta = dict
Predicate = Callable[[Delta], bool]


@dataclass
class Tab:
    """One browser tab: a socket, a client token, the page path it is on and a cookie."""

    url: str
    path: str
    cookie: str = ""
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    client: socketio.AsyncClient = field(default_factory=lambda: socketio.AsyncClient(reconnection=False))
    waiters: list[tuple[Predicate, asyncio.Future]] = field(default_factory=list)
    on_delta: list[Callable[[Delta], None]] = field(default_factory=list)
    received: int = 0

    def router(self, query: dict | None = None) -> dict:
        """The router data the compiled frontend sends with every event."""
        return {"pathname": self.path, "asPath": self.path, "query": query or {}}

    async def connect(self) -> None:
        """Open the socket and hydrate (the first thing a page does)."""
        self.client.on("event", self._on_update, namespace="/_event")
        hydrate = {"name": f"{STATE}.hydrate", "payload": {}, "router_data": self.router()}
        await self.client.connect(
            f"{self.url}?token={self.token}",
            socketio_path="/_event",
            namespaces=["/_event"],
            transports=["websocket"],
            headers={"Cookie": self.cookie} if self.cookie else {},
            auth={"event": hydrate},
            wait_timeout=TIMEOUT,
        )

    async def emit(self, name: str, payload: dict | None = None) -> None:
        """Send one event (`name` is the handler's full state path) without waiting."""
        event = {"name": name, "payload": payload or {}, "router_data": self.router()}
        await self.client.emit("event", event, "/_event")

    def wait_for(self, done: Predicate) -> asyncio.Future:
        """A future resolved with the perf_counter time of the first delta for which `done` is true."""
        future = asyncio.get_running_loop().create_future()
        self.waiters.append((done, future))
        return future

    async def call(self, name: str, payload: dict | None = None, done: Predicate | None = None) -> float:
        """Send an event and wait for its delta (any delta when `done` is None); return ms elapsed."""
        arrival = self.wait_for(done or (lambda _delta: True))
        start = time.perf_counter()
        await self.emit(name, payload)
        return (await asyncio.wait_for(arrival, TIMEOUT) - start) * 1000

    async def _on_update(self, update: dict) -> None:
        delta = update.get("delta") or {}
        if not delta:
            return
        self.received += 1
        for callback in self.on_delta:
            callback(delta)
        pending = []
        for done, future in self.waiters:
            if future.done():
                continue
            if done(delta):
                future.set_result(time.perf_counter())
            else:
                pending.append((done, future))
        self.waiters = pending

    async def close(self) -> None:
        """Disconnect (errors ignored: the server may already be gone)."""
        with contextlib.suppress(Exception):  # closing a dead socket is not worth reporting
            await self.client.disconnect()


def has(state: str, var: str) -> Predicate:
    """A predicate true for a delta that sets `var` of `state` (the `_rx_state_` suffix added)."""
    key = f"{var}_rx_state_"
    return lambda delta: key in (delta.get(state) or {})
