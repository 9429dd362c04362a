"""Live updates: after a commit, refresh every open tab of the users the change concerns.

The flow, end to end:
1. A service records pings in its transaction (core.signals: a notification for user U, a message in
   chat C for both participants). A rollback drops them.
2. On commit, `_schedule` starts `deliver(pings)` as its own asyncio task: never awaited inside the
   handler that committed, so the sender's state lock is not held while other tabs are updated.
3. `deliver` reads each user's open tabs from core.presence (memory, or Redis shared by every
   worker) and reads the bells of all users with a new notification together (notifications.bells).
   It skips and prunes tabs whose socket is gone, and for each tab opens its state with
   `app.modify_state(...)`. Inside, each registered refresher whose page the tab shows reloads from
   the database exactly what it displays (new messages after the last one shown, the chat list,
   the dashboard tab), then the dashboard chrome recounts the unread badges. Reflex sends the
   resulting delta to the browser; with Redis it relays the delta to the worker holding the socket.

A push carries no data of its own: every tab reloads from the database for the user it belongs to,
after checking that the tab still belongs to that user. So a lost or repeated push costs nothing
but a refresh, and a reconnect (which runs the page's on_load again) recovers everything.
"""

import asyncio
import contextlib
import contextvars
import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Protocol

import reflex as rx
from reflex.state import StateUpdate
from reflex_base.event import Event

from core import routes, signals
from core.db import session_scope
from core.presence import chat_place, get_presence
from core.signals import Ping
from services.accounts import session_cache
from services.reach import notifications
from states.auth import session_over
from states.dashboard import DashboardState
from states.session_end import forget_user, session_user_id

logger = logging.getLogger(__name__)


class LiveRefresher(Protocol):
    """A state that reloads what it shows when its user is pinged."""

    @classmethod
    def _live_applies(cls, path: str) -> bool:
        """Whether a tab at `path` shows this state (so it is worth loading)."""

    def _live_refresh(self, db, user_id: int, chat_ids: frozenset[int], notices: bool) -> None:
        """Reload from `db` what changed for `user_id` (messages of `chat_ids`, notifications)."""


SESSION_ENDED = "Sua sessão foi encerrada. Entre novamente."
# Where a tab whose session ended goes when a delivery finds it (a full load: its socket reconnects as a visitor).
_TO_LOGIN = rx.call_script(session_over(SESSION_ENDED, routes.LOGIN))

# The tab whose own handler made the change: it shows the result already, so deliveries skip it.
origin_tab: contextvars.ContextVar[str] = contextvars.ContextVar("origin_tab", default="")
# The session version token read once per delivery, against which every tab's session is checked.
_session_version: contextvars.ContextVar[str | None] = contextvars.ContextVar("session_version", default=None)
_refreshers: list[type] = []
_tasks: set[asyncio.Task] = set()
_runtime: dict[str, object] = {}


def refresher(state_cls: type) -> type:
    """Class decorator: refresh `state_cls` in live pushes (it implements LiveRefresher)."""
    if state_cls not in _refreshers:
        _refreshers.append(state_cls)
    return state_cls


def _group(pings: Iterable[Ping]) -> dict[int, set[int]]:
    """Map each user id to the chat ids that changed for them (0 and BELL_ONLY: notifications)."""
    topics: dict[int, set[int]] = defaultdict(set)
    for ping in pings:
        topics[ping.user_id].add(ping.chat_id)
    return topics


# A bell read for many users at once, and time.time_ns() taken just before the read.
Prefetched = tuple[notifications.Bell, int]


async def _refresh_tab(app: rx.App, token: str, user_id: int, topics: set[int], bell: Prefetched | None = None) -> bool:
    """Reload one tab of `user_id`; False when the tab no longer belongs to them.

    The bell comes from `bell` when given, so a tab only the bell changes for (a new-job alert)
    costs no database work of its own; a tab that shows a later read of its bell, or whose page
    lists what changed, reads the database here. When a new notification may pop up
    (DashboardState._take_push), the tab also gets a toast.
    """
    push = ""
    async with app.modify_state(rx.BaseStateToken(ident=token, cls=DashboardState)) as root:
        chrome = await root.get_state(DashboardState)
        if chrome._live_user_id != user_id:
            return False
        if session_user_id(chrome, _session_version.get()) != user_id:  # ended elsewhere (states/session_end.py)
            await forget_user(root)
            ended = True
        else:
            push = await _refresh_loaded_tab(root, chrome, user_id, topics, bell)
            ended = False
    if ended:
        await app.event_namespace.emit_update(update=StateUpdate(events=Event.from_event_type(_TO_LOGIN)), token=token)
        return False
    if push:
        toast = rx.toast.info("Nova notificação", description=push, id="push-notice")
        await app.event_namespace.emit_update(update=StateUpdate(events=Event.from_event_type(toast)), token=token)
    return True


async def _refresh_loaded_tab(
    root, chrome: DashboardState, user_id: int, topics: set[int], bell: Prefetched | None
) -> str:
    """Reload what a live tab of `user_id` shows; returns the notification to pop up ('' for none)."""
    chat_ids = frozenset(topic for topic in topics if topic > 0)
    notices = 0 in topics
    bell_changed = notices or signals.BELL_ONLY in topics
    shown = bell is not None and bell_changed and chrome._show_prefetched_bell(*bell)
    if chat_ids or notices or (bell_changed and not shown):
        path = root.router.url.path
        with session_scope() as db:
            for state_cls in _refreshers:
                if state_cls._live_applies(path):
                    state = await root.get_state(state_cls)
                    state._live_refresh(db, user_id, chat_ids, notices)
            chrome._refresh_counts(db, user_id, notices=bell_changed and not shown, chats_changed=bool(chat_ids))
            signals.discard(db)  # read markers moved here concern this user, whose tabs this pass refreshes
    return chrome._take_push()


async def _deliver_user(
    app: rx.App, user_id: int, topics: set[int], tabs: dict[str, str], bell: Prefetched | None
) -> int:
    """Refresh the connected tabs `tabs` of one user, the tabs showing a changed chat first."""
    presence = get_presence()
    token_manager = app.event_namespace._token_manager
    viewing = {chat_place(chat_id) for chat_id in topics if chat_id > 0}
    refreshed = 0
    for token, _place in sorted(tabs.items(), key=lambda item: item[1] not in viewing):
        try:
            if not await token_manager.is_token_connected(token) or not await _refresh_tab(
                app, token, user_id, topics, bell
            ):
                await presence.leave(user_id, token)
                continue
        except Exception:
            logger.exception("live refresh of a tab failed")
            continue
        refreshed += 1
    return refreshed


def _prefetch_bells(user_ids: list[int]) -> dict[int, Prefetched]:
    """The bells of `user_ids`, read in one pass (three statements on PostgreSQL) instead of per tab."""
    if not user_ids:
        return {}
    read_at = time.time_ns()
    with session_scope() as db:
        return {user_id: (bell, read_at) for user_id, bell in notifications.bells(db, user_ids).items()}


async def deliver(pings: Iterable[Ping], skip: str = "") -> int:
    """Refresh the open tabs of every pinged user (but the tab `skip`); returns how many were refreshed.

    The open tabs of all pinged users are looked up first; the bells of those with an open tab
    and a notification change are then read together (`_prefetch_bells`), so a new-job alert to
    500 freelancers costs a few statements rather than three per tab.
    """
    app = _runtime.get("app")
    if app is None or app.event_namespace is None:
        return 0
    groups = _group(pings)
    try:
        found = await get_presence().tabs_of(list(groups))  # one round trip to Redis for the whole batch
    except Exception:  # the tabs refresh on their next load
        logger.exception("live refresh: the open tabs could not be read")
        return 0
    tabs_of = {}
    for user_id, tabs in found.items():
        tabs.pop(skip, None)
        if tabs:
            tabs_of[user_id] = tabs
    if not tabs_of:
        return 0
    try:
        _session_version.set(session_cache.current_version())  # the tasks below copy this context
    except Exception:  # each tab then reads the version itself
        _session_version.set(None)
        logger.exception("live refresh: reading the session version failed")
    bell_users = [user_id for user_id in tabs_of if groups[user_id] & {0, signals.BELL_ONLY}]
    try:
        bells = _prefetch_bells(bell_users)
    except Exception:  # each tab then reads its own bell
        logger.exception("live refresh: reading the bells failed")
        bells = {}
    results = await asyncio.gather(
        *(_deliver_user(app, user_id, groups[user_id], tabs, bells.get(user_id)) for user_id, tabs in tabs_of.items()),
        return_exceptions=True,
    )
    return sum(r for r in results if isinstance(r, int))


def _track(task: asyncio.Task) -> None:
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def _schedule(pings: frozenset[Ping]) -> None:
    """core.signals listener: start a delivery on the app's event loop, from any thread."""
    loop = _runtime.get("loop")
    if loop is None:
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    skip = origin_tab.get()
    if running is loop:
        _track(loop.create_task(deliver(pings, skip)))
    else:  # a commit made in a worker thread (e.g. a sync API route)
        asyncio.run_coroutine_threadsafe(deliver(pings, skip), loop)


async def is_viewing(user_id: int, chat_id: int) -> bool:
    """Whether `user_id` has conversation `chat_id` open in a connected tab right now."""
    app = _runtime.get("app")
    if app is None or app.event_namespace is None:
        return False
    place = chat_place(chat_id)
    token_manager = app.event_namespace._token_manager
    for token, tab_place in (await get_presence().tabs(user_id)).items():
        if (
            tab_place == place
            and await token_manager.is_token_connected(token)
            and await _signed_in_as(app, token, user_id)
        ):
            return True
    return False


async def _signed_in_as(app: rx.App, token: str, user_id: int) -> bool:
    """Whether the tab `token` still belongs to `user_id` on a live session (a tab whose session ended reads nothing).

    The tab's state is read without its lock: `is_viewing` runs inside the sender's handler, which
    holds the sender's lock, and the other participant may be sending at that moment too, holding
    theirs and asking about the sender (two locks taken in opposite orders: a deadlock). The cookie
    and the user a tab was loaded for only change when its socket reconnects.
    """
    root = await app.state_manager.get_state(rx.BaseStateToken(ident=token, cls=DashboardState))
    chrome = await root.get_state(DashboardState)
    return chrome._live_user_id == user_id and session_user_id(chrome) == user_id


async def pending() -> None:
    """Wait for the deliveries started so far (tests and benchmarks)."""
    while _tasks:
        await asyncio.gather(*list(_tasks), return_exceptions=True)


@contextlib.asynccontextmanager
async def live_updates(app: rx.App):
    """Lifespan task of the app: deliver the pings of every commit while the server runs."""
    _runtime["app"] = app
    _runtime["loop"] = asyncio.get_running_loop()
    signals.subscribe(_schedule)
    try:
        yield
    finally:
        signals.unsubscribe(_schedule)
        _runtime.clear()


DASHBOARD_LIVE_TABS = frozenset({"overview", "hirings", "shifts", "freelancers", "applications", "messages"})


def refresh_dashboard_tab(state, db, user_id: int, chat_ids: frozenset[int], notices: bool) -> None:
    """Reload a dashboard's open tab when a change concerns it.

    A notification can change any list or counter of the tabs in DASHBOARD_LIVE_TABS (a new
    application, an acceptance, a closed job); a chat message changes the Mensagens tab. Tabs
    holding a form or a search the user is typing in are left alone.

    Args:
        state: A dashboard state with `tab`, `loaded_tab` and `_load_tab(db, user_id)`.
        db: Open database session.
        user_id: The user the tab belongs to.
        chat_ids: Conversations that changed.
        notices: Whether a notification was created or read.
    """
    if state.loaded_tab != state.tab or state.tab not in DASHBOARD_LIVE_TABS:
        return
    if notices or (chat_ids and state.tab == "messages"):
        state._load_tab(db, user_id)
