"""The baselines a benchmark measures in the same run as the app: a blank Reflex app and a bare echo.

Both speak Reflex's websocket protocol, so the same `bench.wsclient.Tab` drives them with the same
schedule as the real app:

- the **blank Reflex app** is a minimal project generated in a temporary directory (rxconfig.py
  and one `State` with a handler that sets a var), served exactly like Turno
  (`reflex run --env prod --backend-only`, Granian), with the state manager Turno would choose:
  memory for one worker, Redis when `REFLEX_REDIS_URL` is set (see Turno's rxconfig.py);
- the **bare echo** is python-socketio alone on Granian, answering each event on `/_event` with a
  delta that carries the event's value back: no state, no handler, no database.

An event for either is `set_value` with `{"value": n}`, and its round trip ends when the delta
holding `n` arrives (`value_is`).
"""

import os
import subprocess
from pathlib import Path

from bench.harness import BIN, serve_asgi, wait_http
from bench.wsclient import STATE, Predicate

BLANK_STATE = f"{STATE}.blank___blank____state"
SET_VALUE = f"{BLANK_STATE}.set_value"

_BLANK_RXCONFIG = """
import os

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

redis_url = os.environ.get("REFLEX_REDIS_URL") or None
config = rx.Config(
    app_name="blank",
    redis_url=redis_url,
    state_manager_mode="redis" if redis_url else "memory",
    telemetry_enabled=False,
    disable_plugins=[SitemapPlugin],
)
"""

_BLANK_APP = """
import reflex as rx


class State(rx.State):
    value: int = 0

    @rx.event
    def set_value(self, value: int):
        self.value = value


def index():
    return rx.text(State.value)


app = rx.App()
app.add_page(index)
"""

_ECHO_SERVER = """
import socketio

sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins="*")


@sio.on("connect", namespace="/_event")
async def connect(sid, environ, auth):
    return True


@sio.on("event", namespace="/_event")
async def event(sid, data):
    state = data["name"].rsplit(".", 1)[0]
    update = {"delta": {state: {"value_rx_state_": data["payload"].get("value")}}, "events": []}
    await sio.emit("event", update, to=sid, namespace="/_event")


app = socketio.ASGIApp(sio, socketio_path="_event")
"""


def value_is(value: int) -> Predicate:
    """A predicate true for the delta in which the blank state's (or the echo's) value is `value`."""
    return lambda delta: (delta.get(BLANK_STATE) or {}).get("value_rx_state_") == value


def blank_project(workdir: Path) -> Path:
    """Write the blank Reflex project under `workdir`; return its directory."""
    project = workdir / "blank_app"
    (project / "blank").mkdir(parents=True, exist_ok=True)
    (project / "rxconfig.py").write_text(_BLANK_RXCONFIG)
    (project / "blank" / "__init__.py").write_text("")
    (project / "blank" / "blank.py").write_text(_BLANK_APP)
    return project


def blank_env(**extra: str) -> dict[str, str]:
    """The blank app's environment: this one without Turno's PYTHONPATH (Turno's rxconfig must not win) or Redis."""
    env = {**os.environ, "REFLEX_TELEMETRY_ENABLED": "false", **extra}
    env.pop("PYTHONPATH", None)
    if "REFLEX_REDIS_URL" not in extra:
        env.pop("REFLEX_REDIS_URL", None)
    return env


def serve_blank(project: Path, env: dict[str, str], port: int) -> subprocess.Popen:
    """Serve the blank project like Turno: `reflex run --env prod --backend-only` (GRANIAN_WORKERS from `env`)."""
    command = [str(BIN / "reflex"), "run", "--env", "prod", "--backend-only", "--backend-port", str(port)]
    proc = subprocess.Popen(
        command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    wait_http(f"http://127.0.0.1:{port}/ping", proc)
    return proc


def serve_echo(workdir: Path, port: int) -> subprocess.Popen:
    """Serve the bare python-socketio echo on `port` (one Granian worker)."""
    return serve_asgi(workdir, "bare_echo", _ECHO_SERVER, port, "/_event/?EIO=4&transport=polling")
