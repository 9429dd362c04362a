"""A raw websocket client that never hydrates hands none of its user's data to the next visitor of its token.

The attack, over the real backend (`reflex run --env prod --backend-only`): a script connects to
/_event with a freelancer's session cookie and no hydrate, sends the handlers that load the shifts
('Meus Turnos') and a conversation, and the session ends (the logout route, or 'Sair' sent on the
same socket). Then a visitor (no cookie) connects with the same client token and hydrates: the
state it receives must hold nothing the freelancer's session loaded. It held all of it when the
session ended outside the tab: the tab's owner was recorded at hydrate only, and a tab that never
hydrated matched the visitor ('nobody' == 'nobody'). With the state in Redis, 'Sair' itself reset
only the states its event loaded, and forgot the owner of the others.
"""

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from datetime import timedelta

import aiohttp
import pytest
import socketio

from bench import harness
from bench.wsclient import AUTH, STATE, TIMEOUT
from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import Profile, Role, User
from services.accounts import sessions
from tests.support.factories import make_application, make_chat, make_hiring, make_job, make_message

SHIFT_ADDRESS = "Rua do Turno Secreto, 77"
WELCOME = "Bem-vindo ao Hotel Canário, João!"
SECRETS = (SHIFT_ADDRESS, WELCOME, "freela@canario.com.br", "Hotel Canário")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "")
MANAGERS = [
    pytest.param("memory", id="memory"),
    pytest.param("redis", id="redis", marks=pytest.mark.skipif(not REDIS_URL, reason="TEST_REDIS_URL is not set")),
]


@pytest.fixture(scope="module", params=MANAGERS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """The real backend on a throwaway SQLite database with a freelancer's shift and conversation."""
    workdir = tmp_path_factory.mktemp("raw-session-end")
    url = f"sqlite:///{workdir / 'raw.db'}"
    port = harness.free_port()
    extra = {"REFLEX_REDIS_URL": REDIS_URL} if request.param == "redis" else {}
    env = harness.app_env(url, **extra)
    harness.migrate(env)
    previous = os.environ.get("DATABASE_URL")
    harness.use_database(url)
    ids = _seed()
    proc = harness.serve_app(env, port, log=workdir / "server.log")
    try:
        yield {"url": f"http://127.0.0.1:{port}", **ids}
    finally:
        harness.stop(proc)
        harness.use_database(previous or "sqlite:///turno.db")
        if previous is None:
            os.environ.pop("DATABASE_URL", None)


def _user(db, email: str, name: str, role: Role, company: str = "") -> User:
    user = User(email=email, password_hash=hash_password("Segura123"), role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, nome=name, empresa=company or None))
    db.flush()
    return user


def _seed() -> dict:
    with session_scope() as db:
        company = _user(db, "rh@canario.com.br", "Rita Canário", Role.CLIENT, "Hotel Canário")
        freelancer = _user(db, "freela@canario.com.br", "João Pereira", Role.FREELANCER)
        job = make_job(db, company, "Recepcionista")
        chat = make_chat(db, make_application(db, job, freelancer, status="accepted"), company, freelancer)
        make_message(db, chat, company, WELCOME, minutes_ago=5)
        start = utcnow() + timedelta(days=2)
        make_hiring(db, company, freelancer, start, state="confirmada", job={"endereco": SHIFT_ADDRESS})
        return {"freelancer": freelancer.id, "chat": chat.id}


def _cookie(user_id: int) -> str:
    with session_scope() as db:
        token, _ = sessions.create(db, user_id, remember=False)
    return f"{get_settings().session_cookie_name}={token}"


def _state_path(dotted: str) -> str:
    """The full state path Reflex names a state by (the same names the compiled frontend uses)."""
    import app.app  # noqa: F401 (registers every page and its states)
    from app.pages.chats.state import ChatRoomState
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState

    return {"dashboard": FreelancerDashboardState, "room": ChatRoomState}[dotted].get_full_name()


class RawClient:
    """A socket.io client speaking Reflex's event protocol by hand: no hydrate unless asked."""

    def __init__(self, url: str, token: str, cookie: str):
        self.url, self.token, self.cookie = url, token, cookie
        self.client = socketio.AsyncClient(reconnection=False)
        self.deltas: list[str] = []
        self.changed = asyncio.Event()

    async def connect(self, hydrate: bool) -> None:
        async def on_update(update: dict) -> None:
            self.deltas.append(json.dumps(update.get("delta") or {}, ensure_ascii=False))
            self.changed.set()

        self.client.on("event", on_update, namespace="/_event")
        auth = {"event": {"name": f"{STATE}.hydrate", "payload": {}, "router_data": _router("/")}} if hydrate else None
        await self.client.connect(
            f"{self.url}?token={self.token}",
            socketio_path="/_event",
            namespaces=["/_event"],
            transports=["websocket"],
            headers={"Cookie": self.cookie} if self.cookie else {},
            auth=auth,
            wait_timeout=TIMEOUT,
        )

    async def send(self, name: str, path: str, query: dict | None = None) -> None:
        await self.client.emit("event", {"name": name, "payload": {}, "router_data": _router(path, query)}, "/_event")

    async def until_seen(self, text: str) -> None:
        async def seen() -> None:
            while not any(text in delta for delta in self.deltas):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(seen(), TIMEOUT)

    async def close(self) -> None:
        await self.client.disconnect()
        if self.client.eio.http is not None:
            await self.client.eio.http.close()


def _router(path: str, query: dict | None = None) -> dict:
    as_path = path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    return {"pathname": path, "asPath": as_path, "query": query or {}}


async def _load_then_end(server: dict, token: str, cookie: str, ending: str) -> None:
    """The raw client: load the shifts and the conversation without hydrating, then end the session."""
    raw = RawClient(server["url"], token, cookie)
    await raw.connect(hydrate=False)
    try:
        await raw.send(f"{_state_path('dashboard')}.load", "/freelancer-dashboard", {"tab": "shifts"})
        await raw.until_seen(SHIFT_ADDRESS)
        await raw.send(f"{_state_path('room')}.load_freelancer", f"/freelancer-dashboard/chats/{server['chat']}")
        await raw.until_seen(WELCOME)
        if ending == "sair":
            await raw.send(f"{AUTH}.logout", "/freelancer-dashboard")
            await raw.until_seen('"signed_in_rx_state_": false')
    finally:
        await raw.close()
    if ending == "logout-route":
        async with (
            aiohttp.ClientSession() as http,
            http.post(server["url"] + "/api/auth/logout", headers={"Cookie": cookie}) as response,
        ):
            assert response.status == 200


async def _visitor_hydrate(server: dict, token: str) -> str:
    """A visitor (no cookie) on the same client token: everything its hydrate receives."""
    visitor = RawClient(server["url"], token, "")
    await visitor.connect(hydrate=True)
    try:
        await visitor.until_seen("is_hydrated")
    finally:
        await visitor.close()
    return "\n".join(visitor.deltas)


@pytest.mark.parametrize("ending", ["logout-route", "sair"])
def test_a_raw_client_that_never_hydrated_leaves_nothing_for_the_next_visitor(server, ending):
    token = uuid.uuid4().hex
    cookie = _cookie(server["freelancer"])

    asyncio.run(_load_then_end(server, token, cookie, ending))
    shown = asyncio.run(_visitor_hydrate(server, token))

    assert "is_hydrated" in shown
    assert [secret for secret in SECRETS if secret in shown] == []
