"""A simulated browser tab speaking Reflex's websocket event protocol (python-socketio).

A tab connects to `/_event` with the session cookie a real browser would send, hydrates like the
compiled frontend does, and sends events by their full state path with a JSON payload. Every
update the server pushes is offered to the waiters registered with `wait_for`, so a benchmark can
time "event sent" to "delta that shows the result arrived" for any handler.

A tab also notices what a browser would show as a failure: an error toast or a `window.alert`
sent by a handler (or by Reflex's own exception handler). Such an event is kept in `errors` and
fails the waiting `call` at once with `EventError`, so a benchmark counts it instead of timing out.
With `frames` set to a list, the size of every update frame received (the raw socket.io text, in
bytes) is appended to it with a label of the states it changed.

`Browser` goes further and acts like the compiled frontend on what the server sends back: it
boots with `hydrate_and_load` (so the page's on_load handlers run), navigates client-side with
`on_load_internal`, follows `rx.redirect`, answers the session flash script's callback, and keeps
the error toasts, alerts and disconnects it saw, for a load test to count as failures (instead of
failing the waiting call).
"""

import asyncio
import contextlib
import json
import os
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

import socketio

STATE = "reflex___state____state"
AUTH = f"{STATE}.states___auth____auth_state"
CHROME = f"{AUTH}.states___dashboard____dashboard_state"
ON_LOAD = f"{STATE}.reflex___state____on_load_internal_state.on_load_internal"
SHOW_FLASH = f"{AUTH}.show_flash"
# How long a client waits for an answer before the run fails. In quick mode (`make test`) a run only
# has to prove the script works, on whatever busy machine CI gets: a fan-out once took over a
# minute to reach 10 tabs with `make bench` running beside it, so the wait is generous there.
TIMEOUT = 120.0 if os.environ.get("BENCH_QUICK", "") not in ("", "0") else 30.0

Delta = dict
Predicate = Callable[[Delta], bool]
_ERROR_CALL = re.compile(r'__toast.*?\["error"\]|\balert\b')
_TOAST_TEXT = re.compile(r'\["error"\]\(("(?:[^"\\]|\\.)*")(?:.*?\["description"\] : ("(?:[^"\\]|\\.)*"))?')


class EventError(Exception):
    """The server answered an event with an error toast or an alert (what the user would see)."""


def error_shown(event: dict) -> str:
    """The error a server-sent event shows the user ('' when it shows none): 'title | description' for a toast."""
    name = event.get("name", "")
    payload = event.get("payload") or {}
    script = str(payload.get("function", ""))
    if name == "_call_function" and _ERROR_CALL.search(script):
        toast = _TOAST_TEXT.search(script)
        if toast is None:
            return script[:200]
        return " | ".join(json.loads(text) for text in toast.groups() if text)
    if name in ("_alert", "_window_alert", "window_alert"):
        return str(payload)[:200]
    return ""


@dataclass
class Tab:
    """One browser tab: a socket, a client token, the page it is on and a cookie.

    `path` is the URL as the browser shows it (query included); `route` the page's route
    pattern when it has parameters (e.g. '/jobs/[id]'), else the path without its query.
    """

    url: str
    path: str
    cookie: str = ""
    route: str = ""
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    client: socketio.AsyncClient = field(default_factory=lambda: socketio.AsyncClient(reconnection=False))
    waiters: list[tuple[Predicate, asyncio.Future]] = field(default_factory=list)
    on_delta: list[Callable[[Delta], None]] = field(default_factory=list)
    on_event: list[Callable[[dict], None]] = field(default_factory=list)
    received: int = 0
    sent: int = 0
    disconnects: int = 0
    closing: bool = False
    boot: str = "hydrate"
    fail_on_error: bool = True
    errors: list[str] = field(default_factory=list)
    frames: list[tuple[int, str]] | None = None
    _frame_size: int = 0

    def router(self, query: dict | None = None) -> dict:
        """The router data the compiled frontend sends with every event (Reflex reads the URL from asPath)."""
        split = urlsplit(self.path)
        params = dict(parse_qsl(split.query))
        return {"pathname": self.route or split.path, "asPath": self.path, "query": {**params, **(query or {})}}

    def set_page(self, path: str, route: str = "") -> None:
        """Be on another page from now on (what a client-side navigation changes)."""
        self.path = path
        self.route = route

    async def connect(self) -> None:
        """Open the socket and hydrate (`boot`: 'hydrate', or 'hydrate_and_load' as the frontend does)."""
        self.client.on("event", self._on_update, namespace="/_event")
        self.client.on("disconnect", self._on_disconnect, namespace="/_event")
        if self.frames is not None:
            self.client.eio.on("message", self._on_frame)
        hydrate = {"name": f"{STATE}.{self.boot}", "payload": {}, "router_data": self.router()}
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
        self.sent += 1
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

    async def _on_frame(self, data: str | bytes) -> None:
        self._frame_size = len(data.encode() if isinstance(data, str) else data)
        await self.client._handle_eio_message(data)  # socket.io's own dispatch, unchanged

    def _on_disconnect(self, *_reason) -> None:
        if not self.closing:
            self.disconnects += 1

    async def _on_update(self, update: dict) -> None:
        for event in update.get("events") or []:
            for callback in self.on_event:
                callback(event)
            shown = error_shown(event) if self.fail_on_error else ""
            if shown:
                self._fail(shown)
        delta = update.get("delta") or {}
        if self.frames is not None and self._frame_size:
            self.frames.append((self._frame_size, ",".join(sorted(delta)) or "events only"))
            self._frame_size = 0
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

    def _fail(self, shown: str) -> None:
        """Record an error the page would show and fail every pending waiter with it."""
        self.errors.append(shown)
        for _done, future in self.waiters:
            if not future.done():
                future.set_exception(EventError(shown))
        self.waiters = []

    def renew(self) -> None:
        """Become a new tab (a new token and socket, as a new visitor's), after `close`; counters go on."""
        self.token = uuid.uuid4().hex
        self.client = socketio.AsyncClient(reconnection=False)
        self.waiters = []
        self.closing = False

    async def close(self) -> None:
        """Disconnect (errors ignored: the server may already be gone); not counted in `disconnects`."""
        self.closing = True
        with contextlib.suppress(Exception):  # closing a dead socket is not worth reporting
            await self.client.disconnect()


@dataclass
class Browser(Tab):
    """A tab that behaves like the compiled frontend: on_load handlers, redirects, flash callbacks.

    Attributes:
        errors: Error toasts and alerts seen (their text), for the caller to count as failures.
        redirects: Paths the server redirected this tab to (followed client-side).
    """

    boot: str = "hydrate_and_load"
    fail_on_error: bool = False
    redirects: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Hook the frontend's reactions to the events the server sends."""
        self.on_event.append(self._react)

    async def navigate(self, path: str) -> float:
        """Client-side navigation to `path`: on_load_internal, done when the page is hydrated again; ms."""
        self.path = path
        return await self.call(ON_LOAD, done=hydrated)

    def _react(self, event: dict) -> None:
        name = event.get("name", "")
        payload = event.get("payload") or {}
        if name == "_redirect" and not payload.get("external"):
            self.redirects.append(payload.get("path", ""))
            asyncio.get_running_loop().create_task(self._follow(payload.get("path", "")))
        elif name == "_call_script" and "show_flash" in str(payload.get("callback", "")):
            asyncio.get_running_loop().create_task(self.emit(SHOW_FLASH, {"message": ""}))
        elif (text := error_text(event)) is not None:
            self.errors.append(text)

    async def _follow(self, path: str) -> None:
        with contextlib.suppress(Exception):  # a closed socket: the run is ending
            self.path = path
            await self.emit(ON_LOAD)


def error_text(event: dict) -> str | None:
    """The error a server-sent event shows the user (`error_shown`), or None when it shows none."""
    return error_shown(event) or None


def hydrated(delta: Delta) -> bool:
    """True for the delta that ends a page load (the on_load chain sets is_hydrated)."""
    return (delta.get(STATE) or {}).get("is_hydrated_rx_state_") is True


def has(state: str, var: str) -> Predicate:
    """A predicate true for a delta that sets `var` of `state` (the `_rx_state_` suffix added)."""
    key = f"{var}_rx_state_"
    return lambda delta: key in (delta.get(state) or {})
