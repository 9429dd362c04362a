"""What the company and freelancer dashboards do alike with their tabs.

Each dashboard page shows one tab chosen by `?tab=`, loads it for the caller resolved from the
session, pages its list with `?page=`, keeps the 'Mensagens' tab and refreshes the open tab when a
live push concerns it (states/live.py). A dashboard state mixes `DashboardTabs` in, names its role,
home route and load-failure texts, and loads its own tabs in `_load_tab`.
"""

from typing import ClassVar

import reflex as rx

from core import routes
from core.db import session_scope
from core.text import positive_int
from models import Role
from services.common.paging import Page, PagerLink, pager_fields
from services.reach import chats
from services.reach.chats import ChatSummary
from states import live
from states.auth import AuthState
from states.failures import recovers
from states.messages import GENERIC_LOAD_ERROR

MESSAGES_LOAD_ERROR = ("Erro ao carregar conversas", "Não foi possível carregar suas conversas.")


class DashboardTabs(AuthState, mixin=True):
    """The selected tab (from ?tab=), its loading and paging, and the conversations of 'Mensagens'."""

    ROLE: ClassVar[Role]
    HOME: ClassVar[str]
    LOAD_ERRORS: ClassVar[dict[str, tuple[str, str]]] = {}
    TAB_EVENTS: ClassVar[dict[str, rx.EventHandler]] = {}

    tab: str = "overview"
    loaded_tab: str = ""
    chats: list[ChatSummary] = []
    chats_total: int = 0
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""

    @rx.event
    @recovers(lambda state: {"messages": MESSAGES_LOAD_ERROR, **state.LOAD_ERRORS}.get(state.tab, GENERIC_LOAD_ERROR))
    def load(self):
        """Pick the tab from ?tab= (default overview) and load what it shows."""
        requested = self.router.url.query_parameters.get("tab", "overview")
        self.tab = requested if requested in routes.tab_keys(self.ROLE) else "overview"
        user = self._caller(self.ROLE)
        if user is None:
            return None
        with session_scope() as db:
            self._load_tab(db, user.id)
        self.loaded_tab = self.tab
        return self._after_load()

    def _after_load(self):
        """Events to run once the tab has loaded (a toast, a follow-up event), or None."""
        return self.TAB_EVENTS.get(self.tab)

    def _load_tab(self, db, user_id: int) -> None:
        """Load what the open tab shows (each dashboard adds its own tabs, then calls this)."""
        if self.tab == "messages":
            result = self._paged(chats.list_for(db, user_id, self._page()))
            self.chats, self.chats_total = result.items, result.total

    def _after_rating(self, db, user_id: int) -> None:
        self._load_tab(db, user_id)

    @classmethod
    def _live_applies(cls, path: str) -> bool:
        return path.rstrip("/") == cls.HOME

    def _live_refresh(self, db, user_id: int, chat_ids: frozenset[int], notices: bool) -> None:
        live.refresh_dashboard_tab(self, db, user_id, chat_ids, notices)

    def _page(self) -> int:
        """The page of the tab's list asked for in ?page= (the first when absent or malformed)."""
        return positive_int(self.router.url.query_parameters.get("page"), 1)

    def _paged(self, result: Page) -> Page:
        """Keep the pager of the tab's list for `result`, and pass it on."""
        fields = pager_fields(
            result.page, result.pages, lambda number: routes.dashboard_tab(self.ROLE, self.tab, number)
        )
        self.pager_items, self.prev_href, self.next_href = fields["links"], fields["prev_href"], fields["next_href"]
        return result
