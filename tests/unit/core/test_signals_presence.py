"""After-commit pings (core.signals) and the registry of open tabs (core.presence, memory and Redis)."""

import asyncio
import os
import uuid

import pytest
from sqlmodel import Session

from core import signals
from core.db import session_scope
from core.presence import MemoryPresence, RedisPresence, chat_place, get_presence
from core.settings import get_settings
from core.signals import Ping
from models import Role
from services.reach import notifications
from tests.support.factories import make_user

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "")


def test_pings_reach_listeners_only_after_commit(db, heard):
    user = make_user(db, "a@x.com", Role.CLIENT)
    db.commit()

    with session_scope() as session:
        notifications.notify(session, user.id, "other", "Olá")
        signals.ping(session, user.id, 7)
        assert heard == []

    assert heard == [frozenset({Ping(user.id), Ping(user.id, 7)})]


def test_a_rollback_drops_the_pings(db, heard):
    user = make_user(db, "a@x.com", Role.CLIENT)
    db.commit()

    with pytest.raises(RuntimeError), session_scope() as session:
        notifications.notify(session, user.id, "other", "Olá")
        raise RuntimeError("falhou")
    with session_scope():
        pass

    assert heard == []


def test_discard_forgets_pings_of_the_transaction(engine, heard):
    with Session(engine) as session:
        signals.ping(session, 5)
        signals.discard(session)
        session.commit()

    assert heard == []


def test_a_failing_listener_does_not_break_the_commit_or_other_listeners(engine, heard):
    def broken(_pings):
        raise ValueError("quebrado")

    signals.subscribe(broken)
    try:
        with Session(engine) as session:
            signals.ping(session, 9)
            session.commit()
    finally:
        signals.unsubscribe(broken)

    assert heard == [frozenset({Ping(9)})]


def _presences():
    kinds = [pytest.param("memory", id="memory")]
    kinds.append(
        pytest.param(
            "redis", id="redis", marks=pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")
        )
    )
    return kinds


@pytest.fixture(params=_presences())
def presence(request):
    if request.param == "memory":
        return MemoryPresence()
    return RedisPresence(TEST_REDIS_URL, prefix=f"turno-test:{uuid.uuid4().hex[:8]}")


def test_presence_keeps_tabs_per_user_with_their_place(presence):
    async def scenario():
        await presence.enter(1, "tab-a", "dash")
        await presence.enter(1, "tab-b", chat_place(4))
        await presence.enter(2, "tab-c", "dash")
        return await presence.tabs(1), await presence.tabs(2), await presence.tabs(3)

    first, second, nobody = asyncio.run(scenario())

    assert first == {"tab-a": "dash", "tab-b": "chat-4"}
    assert second == {"tab-c": "dash"}
    assert nobody == {}


def test_presence_reads_the_tabs_of_many_users_at_once(presence):
    async def scenario():
        await presence.enter(1, "tab-a", "dash")
        await presence.enter(1, "tab-b", chat_place(4))
        await presence.enter(3, "tab-c", "site")
        return await presence.tabs_of([1, 2, 3]), await presence.tabs_of([])

    many, none = asyncio.run(scenario())

    assert many == {1: {"tab-a": "dash", "tab-b": "chat-4"}, 3: {"tab-c": "site"}}  # user 2 has no tab
    assert none == {}


def test_publish_hands_a_batch_to_every_listener(heard):
    signals.publish(frozenset({Ping(4, 2)}))

    assert heard == [frozenset({Ping(4, 2)})]


def test_presence_move_only_updates_a_registered_tab(presence):
    async def scenario():
        await presence.enter(1, "tab-a", chat_place(4))
        await presence.move(1, "tab-a", "site")
        await presence.move(1, "tab-unknown", "site")
        await presence.move(2, "tab-a", "dash")
        return await presence.tabs(1), await presence.tabs(2)

    mine, other = asyncio.run(scenario())

    assert mine == {"tab-a": "site"}
    assert other == {}


def test_presence_leave_forgets_one_tab(presence):
    async def scenario():
        await presence.enter(1, "tab-a", "dash")
        await presence.enter(1, "tab-b", "dash")
        await presence.leave(1, "tab-a")
        await presence.leave(1, "tab-never")
        return await presence.tabs(1)

    assert asyncio.run(scenario()) == {"tab-b": "dash"}


@pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")
def test_redis_presence_is_shared_by_separate_clients():
    prefix = f"turno-test:{uuid.uuid4().hex[:8]}"
    writer, reader = RedisPresence(TEST_REDIS_URL, prefix), RedisPresence(TEST_REDIS_URL, prefix)

    async def scenario():
        await writer.enter(8, "tab-x", chat_place(2))
        return await reader.tabs(8)

    assert asyncio.run(scenario()) == {"tab-x": "chat-2"}


def _presence_of(monkeypatch: pytest.MonkeyPatch, redis_url: str, database_url: str):
    """The registry a deployment on `database_url` builds (its settings read afresh)."""
    monkeypatch.setenv("REFLEX_REDIS_URL", redis_url)
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    get_presence.cache_clear()
    return get_presence()


def test_presence_keys_belong_to_the_deployments_database(monkeypatch):
    try:
        same = _presence_of(monkeypatch, "redis://127.0.0.1:6379/0", "postgresql+psycopg://app@db:5432/turno")
        again = _presence_of(
            monkeypatch, "redis://127.0.0.1:6379/0", "postgresql://ops:s3cret@db:5432/turno?sslmode=require"
        )
        other = _presence_of(monkeypatch, "redis://127.0.0.1:6379/0", "postgresql+psycopg://app@db:5432/turno_staging")
    finally:
        get_presence.cache_clear()

    assert same._prefix == again._prefix  # every worker of a deployment, whatever its credentials
    assert same._prefix != other._prefix
    assert "s3cret" not in again._prefix


@pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")
def test_deployments_sharing_a_redis_do_not_see_each_others_tabs(monkeypatch):
    """User ids repeat between databases: a deployment seeing another's tabs would refresh them with its data."""
    run = uuid.uuid4().hex[:8]
    try:
        production = _presence_of(monkeypatch, TEST_REDIS_URL, f"postgresql://db/turno_{run}")
        staging = _presence_of(monkeypatch, TEST_REDIS_URL, f"postgresql://db/turno_staging_{run}")
    finally:
        get_presence.cache_clear()

    async def scenario():
        await production.enter(1, "tab-production", "dash")
        await staging.enter(1, "tab-staging", "dash")
        seen = await production.tabs(1), await staging.tabs(1)
        await production.leave(1, "tab-production")
        await staging.leave(1, "tab-staging")
        return seen

    assert asyncio.run(scenario()) == ({"tab-production": "dash"}, {"tab-staging": "dash"})
