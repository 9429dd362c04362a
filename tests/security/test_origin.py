"""The websocket refuses handshakes from other sites in production (cross-site websocket hijacking).

The real backend runs as in production (`reflex run --env prod --backend-only`, APP_ENV=production,
SITE_URL = the server's own origin). A signed-in user's cookie goes with every handshake, as a
browser would send it when a page of another site opens a socket to us: a foreign Origin, the
opaque 'null' origin and a missing Origin are refused with HTTP 403 before Reflex sees the socket;
the site's own origin connects and its socket acts as the signed-in user.
"""

import asyncio
import json
import os
import uuid
from collections.abc import Iterator

import aiohttp
import pytest
import socketio
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.api.origin_guard import guard_websocket_origin
from bench import harness
from bench.wsclient import AUTH, STATE
from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import Profile, Role, User
from services.accounts import sessions

TIMEOUT = 30
REFUSED = {"foreign": "https://evil.example", "null": "null", "missing": None}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A production-mode backend on a free port with one signed-in company: its url, origin and cookie."""
    workdir = tmp_path_factory.mktemp("origin")
    url = f"sqlite:///{workdir / 'origin.db'}"
    port = harness.free_port()
    origin = f"http://127.0.0.1:{port}"
    env = harness.app_env(url, APP_ENV="production", SITE_URL=origin)
    harness.migrate(env)
    previous = os.environ.get("DATABASE_URL")
    cookie = _signed_in_cookie(url)
    proc = harness.serve_app(env, port, log=workdir / "server.log")
    try:
        yield {"url": origin, "origin": origin, "cookie": cookie}
    finally:
        harness.stop(proc)
        harness.use_database(previous or "sqlite:///turno.db")
        if previous is None:
            os.environ.pop("DATABASE_URL", None)


def _signed_in_cookie(database_url: str) -> str:
    """Create a confirmed company in the server's database and return a Cookie header of its session."""
    harness.use_database(database_url)
    with session_scope() as db:
        user = User(
            email="ana@empresa.com",
            password_hash=hash_password("Segura123"),
            role=Role.CLIENT,
            email_confirmed_at=utcnow(),
        )
        db.add(user)
        db.flush()
        db.add(Profile(user_id=user.id, tipo_usuario=Role.CLIENT, nome="Ana"))
        token, _ = sessions.create(db, user.id, remember=False)
    return f"{get_settings().session_cookie_name}={token}"


def _headers(cookie: str, origin: str | None) -> dict[str, str]:
    headers = {"Cookie": cookie}
    if origin is not None:
        headers["Origin"] = origin
    return headers


async def _handshake_status(url: str, headers: dict[str, str]) -> int:
    """The HTTP status of a raw websocket handshake on /_event (101 when it is accepted)."""
    ws_url = url.replace("http://", "ws://") + "/_event/?EIO=4&transport=websocket"
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(ws_url, headers=headers, timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT)):
                return 101
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


async def _signed_in_over_socket(url: str, headers: dict[str, str]) -> bool:
    """Connect as the browser does, run AuthState.load_session and report whether the socket is signed in."""
    client = socketio.AsyncClient(reconnection=False)
    signed_in: asyncio.Future = asyncio.get_running_loop().create_future()

    async def on_update(update: dict) -> None:
        auth = (update.get("delta") or {}).get(AUTH, {})
        if auth.get("auth_checked_rx_state_") is True and not signed_in.done():  # load_session's answer
            signed_in.set_result(auth.get("signed_in_rx_state_"))

    client.on("event", on_update, namespace="/_event")
    router = {"pathname": "/", "asPath": "/", "query": {}}
    try:
        await client.connect(
            f"{url}?token={uuid.uuid4().hex}",
            socketio_path="/_event",
            namespaces=["/_event"],
            transports=["websocket"],
            headers=dict(headers),
            auth={"event": {"name": f"{STATE}.hydrate", "payload": {}, "router_data": router}},
            wait_timeout=TIMEOUT,
        )
        await client.emit("event", {"name": f"{AUTH}.load_session", "payload": {}, "router_data": router}, "/_event")
        return await asyncio.wait_for(signed_in, TIMEOUT)
    finally:
        await client.disconnect()
        if client.eio.http is not None:
            await client.eio.http.close()


@pytest.mark.parametrize("origin", REFUSED.values(), ids=REFUSED.keys())
def test_foreign_null_and_missing_origins_are_refused_with_403(server, origin):
    status = asyncio.run(_handshake_status(server["url"], _headers(server["cookie"], origin)))

    assert status == 403


@pytest.mark.parametrize("origin", REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_origin_gets_no_socket_io_session(server, origin):
    with pytest.raises(socketio.exceptions.ConnectionError):
        asyncio.run(_signed_in_over_socket(server["url"], _headers(server["cookie"], origin)))


def test_the_sites_own_origin_connects_and_acts_as_the_signed_in_user(server):
    headers = _headers(server["cookie"], server["origin"])

    assert asyncio.run(_handshake_status(server["url"], headers)) == 101
    assert asyncio.run(_signed_in_over_socket(server["url"], headers)) is True


def test_the_health_route_still_answers_without_an_origin(server):
    async def fetch() -> tuple[int, dict]:
        async with aiohttp.ClientSession() as http, http.get(server["url"] + "/api/health") as response:
            return response.status, json.loads(await response.text())

    status, _body = asyncio.run(fetch())

    assert status == 200


def _echo_app() -> Starlette:
    async def accept(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text("ok")
        await websocket.close()

    return Starlette(routes=[WebSocketRoute("/_event/", accept)])


@pytest.mark.parametrize("origin", [*REFUSED.values(), "http://localhost:3000"], ids=[*REFUSED, "localhost"])
def test_outside_production_every_origin_connects_for_local_development(monkeypatch, origin):
    monkeypatch.setenv("APP_ENV", "development")
    get_settings.cache_clear()
    client = TestClient(guard_websocket_origin(_echo_app()))

    with client.websocket_connect("/_event/", headers=_headers("", origin)) as socket:
        assert socket.receive_text() == "ok"
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [("https://turno.com.br", True), ("HTTPS://Turno.com.br", True), ("https://turno.com.br.evil.example", False)],
)
def test_in_production_only_the_exact_site_origin_passes(monkeypatch, origin, accepted):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("SITE_URL", "https://turno.com.br/")
    get_settings.cache_clear()
    client = TestClient(guard_websocket_origin(_echo_app()))

    if accepted:
        with client.websocket_connect("/_event/", headers=_headers("", origin)) as socket:
            assert socket.receive_text() == "ok"
    else:
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/_event/", headers=_headers("", origin)),
        ):
            pass
        assert refused.value.code == 1008
    get_settings.cache_clear()
