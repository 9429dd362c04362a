"""The parts every dashboard page shares: the viewer's profile card, notifications and the bell."""

import time
from collections.abc import Callable

import reflex as rx

from core.db import session_scope
from core.presence import DASHBOARD, get_presence
from services.accounts import profiles
from services.accounts.profiles import ProfileView
from services.common import paging
from services.reach import chat_read_marks, notifications
from services.reach.notifications import Bell, NotificationRow
from states.auth import AuthState
from states.failures import recovers
from states.messages import ERROR_TITLE

# Module-level: inside the class body `notifications` is the state var, not the service.
MORE_NOTICES_FAILED = notifications.LOAD_MORE_FAILED
MARK_READ_FAILED = notifications.MARK_READ_FAILED

EMPTY_PROFILE: ProfileView = ProfileView(
    id=0,
    role="",
    nome="",
    email="",
    initials="",
    foto_url="",
    empresa="",
    industria="",
    localizacao="",
    endereco="",
    telefone="",
    biografia="",
    descricao="",
    website="",
    profissao="",
    habilidades=[],
    experiencia="",
    instagram="",
    facebook="",
    linkedin="",
)


_FOCUS_JS = "setTimeout(() => document.getElementById('{element_id}')?.focus(), 50);"
_SHEET_OPENED_JS = (
    "if (!window.__turnoSheetEsc) { window.__turnoSheetEsc = true; "
    "document.addEventListener('keydown', (e) => { if (e.key === 'Escape') "
    "document.getElementById('close-profile-sheet')?.click(); }); } "
    + _FOCUS_JS.format(element_id="close-profile-sheet")
)


def apply_theme_script(theme: str) -> str:
    """JavaScript that applies a saved theme (light, dark or system) through the hidden theme button."""
    safe = theme if theme in profiles.THEME_LABELS else "system"
    return f"window.__turnoTheme = '{safe}'; document.getElementById('apply-saved-theme')?.click();"


class DashboardState(AuthState):
    """Dashboard chrome: profile side sheet, unread badge and the notification list.

    Everything is loaded for the user resolved from the session cookie on the server; no handler
    takes a user id.
    """

    me: ProfileView = EMPTY_PROFILE
    unread: int = 0
    unread_messages: int = 0
    notifications: list[NotificationRow] = []
    notifications_total: int = 0
    notifications_more: bool = False
    notifications_loaded: bool = False
    loading_more_notifications: bool = False
    sheet_open: bool = False
    _live_user_id: int = 0
    _push: str = ""
    _bell_read_at: int = 0  # time.time_ns() just before the bell shown was read from the database

    @rx.var
    def unread_badge(self) -> str:
        """The bell badge text: '' when nothing is unread, '9+' above nine."""
        return notifications.badge_text(self.unread)

    @rx.var
    def messages_badge(self) -> str:
        """The Mensagens tab's badge: unread chat messages, '' for none, '9+' above nine."""
        return notifications.badge_text(self.unread_messages)

    @rx.event
    @recovers("Erro ao carregar perfil", profiles.PROFILE_LOAD_FAILED)
    async def load_chrome(self):
        """On every dashboard page: the caller's profile card, badges and notifications.

        The tab is also entered in core.presence for the user resolved from the session cookie,
        so live updates (states/live.py) reach it from then on.
        """
        self.sheet_open = False
        user = self._current_user()
        if user is None:
            self._live_user_id = 0
            return None
        with session_scope() as db:
            self.me, theme = profiles.own_profile_and_theme(db, user.id)
            self.notifications_loaded = False
            self._refresh_counts(db, user.id, notices=True)
        self._live_user_id = user.id
        await get_presence().enter(user.id, self.router.session.client_token, DASHBOARD)
        return rx.call_script(apply_theme_script(theme))

    def _take_push(self) -> str:
        """The newest notification that arrived since the last refresh and may pop up ('' when none)."""
        message, self._push = self._push, ""
        return message

    def _refresh_counts(self, db, user_id: int, notices: bool, chats_changed: bool = True) -> None:
        """Reload from the database the badges and list that a change can affect.

        A notification newer than the ones shown before, unread, whose pop-up the user's settings
        allow ('Notificações push' and its topic's switch), is kept for `_take_push`.

        Args:
            db: Open database session.
            user_id: The user the tab belongs to.
            notices: A notification was created or read: the bell and the list.
            chats_changed: A conversation changed: the Mensagens badge.
        """
        if notices:
            read_at = time.time_ns()
            total, unread = notifications.counts(db, user_id)
            newest = notifications.list_for(db, user_id)
            self._show_bell(total, unread, newest, read_at, lambda kinds: notifications.push_kinds(db, user_id, kinds))
        if chats_changed:
            self.unread_messages = chat_read_marks.unread_total(db, user_id)

    def _show_prefetched_bell(self, bell: Bell, read_at: int) -> bool:
        """Show a bell read for many users at once (states/live.py), unless the tab shows a later read.

        Args:
            bell: The user's bell, read outside this tab's lock.
            read_at: time.time_ns() taken just before that read.

        Returns:
            Whether it was shown; False when the tab shows what a later read found, so the caller
            reads this tab's bell again instead.
        """
        if read_at <= self._bell_read_at:
            return False
        self._show_bell(
            bell.total, bell.unread, bell.newest, read_at, lambda kinds: notifications.allowed_push(bell.prefs, kinds)
        )
        return True

    def _show_bell(
        self,
        total: int,
        unread: int,
        newest: paging.Slice[NotificationRow],
        read_at: int,
        push_kinds: Callable[[set[str]], set[str]],
    ) -> None:
        """Show the counts and the newest page read at `read_at`; keep a new notification for `_take_push`.

        A notification newer than the ones shown before, unread, whose pop-up the user's settings
        allow (`push_kinds`, asked only when there is one), is kept for `_take_push`.
        """
        seen = max((n["id"] for n in self.notifications), default=0) if self.notifications_loaded else None
        self.notifications_total, self.unread = total, unread
        self._place_newest(newest)
        self._bell_read_at = read_at
        fresh = [n for n in self.notifications if seen is not None and n["id"] > seen and not n["read"]]
        allowed = push_kinds({n["type"] for n in fresh}) if fresh else set()
        shown = next((n for n in fresh if n["type"] in allowed), None)
        if shown is not None:
            self._push = shown["message"]

    def _place_newest(self, newest: paging.Slice[NotificationRow]) -> None:
        """Show the newest page read again; older rows loaded with 'Carregar mais' stay below it.

        A refresh must not cost more as the user reads further back, so only the first page is
        read; the rows shown before that it does not hold follow it in their order (a message
        notice moved to the top leaves the older part).
        """
        older: list[NotificationRow] = []
        if self.notifications_loaded and len(self.notifications) > notifications.PAGE_SIZE:
            ids = {n["id"] for n in newest.items}
            older = [n for n in self.notifications if n["id"] not in ids]
        self.notifications = newest.items + older
        self.notifications_more = newest.has_more if not older else self.notifications_more
        self.notifications_loaded = True

    @rx.event
    @recovers(ERROR_TITLE, MORE_NOTICES_FAILED, reset={"loading_more_notifications": False})
    def load_more_notifications(self):
        """'Carregar mais': append the next page of the caller's older notifications."""
        if not self.notifications_loaded or not self.notifications_more or self.loading_more_notifications:
            return
        if not self.notifications:
            return
        user = self._caller()
        if user is None:
            return
        self.loading_more_notifications = True
        yield
        try:
            with session_scope() as db:
                older = notifications.list_for(db, user.id, before=self.notifications[-1]["id"])
        finally:
            self.loading_more_notifications = False
        shown = {n["id"] for n in self.notifications}
        self.notifications = self.notifications + [n for n in older.items if n["id"] not in shown]
        self.notifications_more = older.has_more

    @rx.event
    @recovers(ERROR_TITLE, MARK_READ_FAILED)
    def mark_notification_read(self, notification_id: int):
        """Mark one of the caller's notifications as read; the service checks it is theirs."""
        user = self._caller()
        if user is None:
            return rx.toast.error(ERROR_TITLE, description=notifications.MARK_READ_FAILED)
        with session_scope() as db:
            row = notifications.mark_read(db, user.id, notification_id)
            read_at = time.time_ns()  # a bell read before this one must not undo it (live.py reads it again)
            self.unread = notifications.unread_count(db, user.id)
        self.notifications = [row if n["id"] == row["id"] else n for n in self.notifications]
        self._bell_read_at = read_at
        return rx.toast.success("Notificação marcada como lida")

    @rx.event
    def open_sheet(self):
        """Open the mobile profile side sheet, move the focus into it and let Escape close it."""
        self.sheet_open = True
        return rx.call_script(_SHEET_OPENED_JS)

    @rx.event
    def close_sheet(self):
        """Close the mobile profile side sheet and give the focus back to the avatar button."""
        self.sheet_open = False
        return rx.call_script(_FOCUS_JS.format(element_id="open-profile-sheet"))
