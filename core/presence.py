"""Who has the app open where: each signed-in user's browser tabs and the page each one shows.

A tab is identified by Reflex's client token (one per browser tab). Dashboard pages enter their tab
for the user resolved from the session cookie, the chat page records which conversation it shows,
and the realtime layer (states/live.py) reads the tabs to refresh and asks whether a recipient is
looking at a conversation. With one process the registry is a dictionary; with Redis
(`REFLEX_REDIS_URL`) it is a hash per user in Redis, so every worker sees every tab. Entries of
closed tabs are pruned when a delivery finds them disconnected, and expire after PRESENCE_TTL.

The Redis keys carry a fingerprint of the deployment's database (`deployment_key`): a Redis may be
shared by several deployments (staging and production, parallel test runs) whose user ids repeat,
and a deployment that saw another's tabs under its user's id would refresh them with its own data
(notifications, messages) through the shared Reflex state.
"""

import asyncio
import hashlib
from abc import ABC, abstractmethod
from functools import lru_cache

from sqlalchemy.engine import make_url

from core.settings import get_settings

PRESENCE_TTL_SECONDS = 24 * 3600
SITE = "site"
DASHBOARD = "dash"


def chat_place(chat_id: int) -> str:
    """The place of a tab showing conversation `chat_id`."""
    return f"chat-{chat_id}"


class Presence(ABC):
    """The registry of open tabs: user id -> {client token: place}."""

    @abstractmethod
    async def enter(self, user_id: int, token: str, place: str) -> None:
        """Register `token` as a tab of `user_id` showing `place`.

        A token that an account signed out of earlier stays under that account until its next
        delivery finds the tab belongs to someone else and prunes it (states/live.py).
        """

    @abstractmethod
    async def move(self, user_id: int, token: str, place: str) -> None:
        """Record a new place for a tab already registered for `user_id` (no-op otherwise)."""

    @abstractmethod
    async def leave(self, user_id: int, token: str) -> None:
        """Forget a tab of `user_id` (logout, closed or taken over by another account)."""

    @abstractmethod
    async def tabs(self, user_id: int) -> dict[str, str]:
        """The registered tabs of `user_id` and their places (connected or not)."""

    async def tabs_of(self, user_ids: list[int]) -> dict[int, dict[str, str]]:
        """The tabs of each of `user_ids` that has any (a burst of 1,000 reminders pings 1,000 users)."""
        found = [await self.tabs(user_id) for user_id in user_ids]
        return {user_id: tabs for user_id, tabs in zip(user_ids, found, strict=True) if tabs}


class MemoryPresence(Presence):
    """Presence for a single process."""

    def __init__(self) -> None:
        self._tabs: dict[int, dict[str, str]] = {}

    async def enter(self, user_id: int, token: str, place: str) -> None:
        """Register a tab (see Presence.enter)."""
        self._tabs.setdefault(user_id, {})[token] = place

    async def move(self, user_id: int, token: str, place: str) -> None:
        """Move a registered tab (see Presence.move)."""
        tabs = self._tabs.get(user_id)
        if tabs is not None and token in tabs:
            tabs[token] = place

    async def leave(self, user_id: int, token: str) -> None:
        """Forget a tab (see Presence.leave)."""
        tabs = self._tabs.get(user_id)
        if tabs is not None:
            tabs.pop(token, None)
            if not tabs:
                self._tabs.pop(user_id, None)

    async def tabs(self, user_id: int) -> dict[str, str]:
        """A copy of the user's tabs (see Presence.tabs)."""
        return dict(self._tabs.get(user_id, {}))


class RedisPresence(Presence):
    """Presence shared by every worker through Redis: one hash `<prefix>:<user id>` of token -> place."""

    def __init__(self, url: str, prefix: str = "turno:presence") -> None:
        self._url = url
        self._prefix = prefix
        self._client = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _redis(self):
        """The client of the running event loop (a client is bound to the loop that created it)."""
        import redis.asyncio as aioredis

        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = aioredis.from_url(self._url, decode_responses=True)
            self._loop = loop
        return self._client

    def _key(self, user_id: int) -> str:
        return f"{self._prefix}:{user_id}"

    async def enter(self, user_id: int, token: str, place: str) -> None:
        """Register a tab (see Presence.enter)."""
        key = self._key(user_id)
        async with self._redis().pipeline(transaction=True) as pipe:
            await pipe.hset(key, token, place).expire(key, PRESENCE_TTL_SECONDS).execute()

    async def move(self, user_id: int, token: str, place: str) -> None:
        """Move a registered tab (see Presence.move); HSET only when the field exists, atomically."""
        await self._redis().eval(
            "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end",
            1,
            self._key(user_id),
            token,
            place,
        )

    async def leave(self, user_id: int, token: str) -> None:
        """Forget a tab (see Presence.leave)."""
        await self._redis().hdel(self._key(user_id), token)

    async def tabs(self, user_id: int) -> dict[str, str]:
        """The user's tabs (see Presence.tabs)."""
        return await self._redis().hgetall(self._key(user_id))

    async def tabs_of(self, user_ids: list[int]) -> dict[int, dict[str, str]]:
        """Every user's tabs in one round trip (see Presence.tabs_of)."""
        if not user_ids:
            return {}
        async with self._redis().pipeline(transaction=False) as pipe:
            for user_id in user_ids:
                pipe.hgetall(self._key(user_id))
            found = await pipe.execute()
        return {user_id: tabs for user_id, tabs in zip(user_ids, found, strict=True) if tabs}


def deployment_key(database_url: str) -> str:
    """A short fingerprint of a deployment's database: its engine, host, port and name (not the credentials).

    Every worker of a deployment gets the same key; deployments on other databases get others.
    """
    url = make_url(database_url)
    where = f"{url.get_backend_name()}://{url.host or ''}:{url.port or ''}/{url.database or ''}"
    return hashlib.sha256(where.encode()).hexdigest()[:12]


@lru_cache
def get_presence() -> Presence:
    """The process-wide registry: this deployment's keys in Redis when `REFLEX_REDIS_URL` is set, else memory."""
    settings = get_settings()
    if not settings.redis_url:
        return MemoryPresence()
    return RedisPresence(settings.redis_url, prefix=f"turno:presence:{deployment_key(settings.database_url)}")
