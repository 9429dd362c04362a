"""The states of the conversation pages: the list of conversations and one conversation, both live.

`ChatListState` holds one page of the viewer's conversations; `ChatRoomState` one conversation
(only for its two participants), its bounded window of messages and sending. Both are live
refreshers (states/live.py): what the other participant (or the viewer in another tab) commits
is read into the open page without a reload.
"""

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from core import routes
from core.db import session_scope
from core.presence import chat_place, get_presence
from core.text import positive_int
from models import Role
from services.common.errors import NotAllowed, ServiceError
from services.common.paging import PagerLink, pager_fields
from services.reach import chat_sending, chats
from services.reach.chats import ChatMessage, ChatSummary
from states import live
from states.auth import DRAFT_KEY_PREFIX, AuthState
from states.failures import failed, recovers

SEND_FAILED = ("Erro ao enviar mensagem", "Não foi possível enviar sua mensagem.")
OLDER_FAILED = ("Erro ao carregar mensagens", "Não foi possível carregar as mensagens desta conversa.")
LIST_FAILED = ("Erro ao carregar conversas", "Não foi possível carregar suas conversas.")
OPEN_FAILED = ("Erro ao carregar conversa", "Ocorreu um erro ao carregar os detalhes da conversa.")
RECENT_FOLD = 20
MAX_SHOWN = 300
CHAT_PATHS = (routes.CLIENT_CHATS, routes.FREELANCER_CHATS)

# What is typed in the conversation box, mirrored in the browser for the send button (room.py).
draft = ClientStateVar.create("chat_draft", "")
_CLEAR_INPUT_JS = (
    "const i = document.getElementById('chat-input'); if (i) { i.value = ''; } "
    f"sessionStorage.removeItem('{DRAFT_KEY_PREFIX}' + location.pathname);"
)
_CLEAR_INPUT = (
    rx.call_script(_CLEAR_INPUT_JS),
    draft.push(""),
)  # after each send; built once (Reflex Var work, docs/performance.md)


@live.refresher
class ChatListState(AuthState):
    """One page (?page=N) of the viewer's conversations, most recent activity first."""

    chats: list[ChatSummary] = []
    total: int = 0
    loaded: bool = False
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""

    def _load(self, role: Role):
        user = self._caller(role)
        if user is None:
            return None
        with session_scope() as db:
            self._read(db, user.id, role)
        self.loaded = True
        return None

    def _read(self, db, user_id: int, role: str) -> None:
        """The page of the URL's ?page= and its pager."""
        page = positive_int(self.router.url.query_parameters.get("page"), 1)
        result = chats.list_for(db, user_id, page)
        self.chats, self.total = result.items, result.total
        fields = pager_fields(result.page, result.pages, lambda number: routes.chat_list(role, number))
        self.pager_items, self.prev_href, self.next_href = fields["links"], fields["prev_href"], fields["next_href"]

    @rx.event
    @recovers(*LIST_FAILED)
    def load_client(self):
        """Load the company's conversations."""
        return self._load(Role.CLIENT)

    @rx.event
    @recovers(*LIST_FAILED)
    def load_freelancer(self):
        """Load the freelancer's conversations."""
        return self._load(Role.FREELANCER)

    @classmethod
    def _live_applies(cls, path: str) -> bool:
        return path.rstrip("/") in CHAT_PATHS

    def _live_refresh(self, db, user_id: int, chat_ids: frozenset[int], notices: bool) -> None:
        if self.loaded and chat_ids:
            role = Role.CLIENT if self.router.url.path.rstrip("/") == routes.CLIENT_CHATS else Role.FREELANCER
            self._read(db, user_id, role)


@live.refresher
class ChatRoomState(AuthState):
    """One conversation, loaded only when the viewer is one of its two participants.

    The window shown is bounded: `history` holds the page loaded at opening plus older pages
    loaded on demand, `recent` the messages that arrived since (folded into `history` every
    RECENT_FOLD messages, so a live update resends a short list). At most MAX_SHOWN messages are
    kept; reading further back detaches the window from the present until 'Ver mensagens recentes'.
    """

    status: str = "loading"
    other_name: str = ""
    other_initials: str = ""
    other_photo: str = ""
    job_title: str = ""
    profile_href: str = ""
    history: list[ChatMessage] = []
    recent: list[ChatMessage] = []
    has_older: bool = False
    other_removed: bool = False  # the other participant deleted their account: the box is closed
    loading_older: bool = False
    detached: bool = False
    sending: bool = False
    announcement: str = ""
    _chat_id: int = 0
    _other_id: int = 0
    _first_id: int = 0
    _last_id: int = 0

    def _requested_id(self) -> str:
        """The last segment of the URL path (/…/chats/{id}); validated by the service."""
        return routes.last_segment(self.router.url.path)

    def _page_role(self) -> Role:
        """Whose conversation page the URL is: the company's or the freelancer's."""
        return Role.CLIENT if self.router.url.path.startswith(routes.CLIENT_CHATS + "/") else Role.FREELANCER

    def _forget(self) -> None:
        self.status = "missing"
        self.other_name = ""
        self.other_initials = ""
        self.other_photo = ""
        self.job_title = ""
        self.profile_href = ""
        self.other_removed = False
        self._show([], has_older=False)
        self._chat_id = 0
        self._other_id = 0

    def _show(self, messages: list[ChatMessage], has_older: bool) -> None:
        """Replace the window with `messages` (oldest first)."""
        self.history = messages
        self.recent = []
        self.has_older = has_older
        self.detached = False
        self._first_id = messages[0]["id"] if messages else 0
        self._last_id = messages[-1]["id"] if messages else 0

    def _append(self, messages: list[ChatMessage]) -> None:
        """Add messages newer than the last one shown (never one twice), keeping the window bounded."""
        fresh = [m for m in messages if m["id"] > self._last_id]
        if not fresh:
            return
        self._last_id = fresh[-1]["id"]
        shown = len(self.history) + len(self.recent) + len(fresh)
        if len(self.recent) + len(fresh) <= RECENT_FOLD and shown <= MAX_SHOWN:
            self.recent = self.recent + fresh
            return
        window = (self.history + self.recent + fresh)[-(MAX_SHOWN - RECENT_FOLD) :]
        if len(window) < len(self.history) + len(self.recent) + len(fresh):
            self.has_older = True
        self.history = window
        self.recent = []
        self._first_id = window[0]["id"]

    async def _open(self, role: Role):
        """Load the conversation of the URL; reopening the one shown (a reconnect) reloads it in place."""
        if self.status != "found" or str(self._chat_id) != self._requested_id():
            self.status = "loading"
            self.announcement = ""
            yield
        user = self._caller(role)
        if user is None:
            return
        try:
            with session_scope() as db:
                detail = chats.open_chat(db, user.id, self._requested_id())
        except NotAllowed:
            self._forget()
            return
        except Exception:  # also reached from send_message, which goes on to say it cannot send
            self._forget()
            yield failed("ChatRoomState._open", *OPEN_FAILED)
            return
        self.other_name = detail["other_name"]
        self.other_initials = detail["other_initials"]
        self.other_photo = detail["other_photo"]
        self.job_title = detail["job_title"]
        self.other_removed = detail["other_removed"]
        # The company may open the profile of the freelancer it talks to (they applied to its job).
        self.profile_href = routes.freelancer_profile(detail["other_id"]) if role == Role.CLIENT else ""
        self._chat_id = detail["id"]
        self._other_id = detail["other_id"]
        self._show(detail["messages"], detail["has_older"])
        self.status = "found"
        await get_presence().enter(user.id, self.router.session.client_token, chat_place(detail["id"]))

    @rx.event
    async def load_client(self):
        """Open a conversation from the company side."""
        async for update in self._open(Role.CLIENT):
            yield update

    @rx.event
    async def load_freelancer(self):
        """Open a conversation from the freelancer side."""
        async for update in self._open(Role.FREELANCER):
            yield update

    @rx.event
    @recovers(*SEND_FAILED, reset={"sending": False})
    async def send_message(self, form_data: dict):
        """Send the typed message; the input is cleared only when it was stored.

        A tab whose server state was dropped while the page stayed open (idle past Reflex's state
        expiry, an hour) arrives here with a fresh state: the conversation of the URL is reopened
        first, as the page's load does, instead of refusing the message.
        """
        if self.sending:
            return
        user = self._current_user()
        if user is not None and self.status == "loading":
            async for update in self._open(self._page_role()):
                if update is not None:  # an error toast; the intermediate 'loading' is not shown
                    yield update
        if user is None or self.status != "found" or not self._chat_id:
            yield rx.toast.error("Erro", description=chats.CANNOT_SEND)
            return
        text = form_data.get("message") if isinstance(form_data, dict) else None
        try:
            chat_sending.clean_message(text)
        except ServiceError as exc:
            yield rx.toast.error(SEND_FAILED[0], description=exc.message)
            return
        self.sending = True
        self.announcement = ""
        yield
        live.origin_tab.set(self.router.session.client_token)  # this tab shows the message itself
        try:
            viewing = await live.is_viewing(self._other_id, self._chat_id)
            with session_scope() as db:
                fresh = chat_sending.send_and_catch_up(
                    db, user.id, self._chat_id, text, self._last_id, recipient_viewing=viewing
                )
            self._append(fresh)
        except NotAllowed:
            yield rx.toast.error("Erro", description=chats.CANNOT_SEND)
            return
        finally:
            self.sending = False
        self.announcement = "Mensagem enviada"
        yield list(_CLEAR_INPUT)

    @rx.event
    @recovers(*OLDER_FAILED, reset={"loading_older": False})
    def load_older(self):
        """Prepend the page of messages before the oldest one shown."""
        if self.status != "found" or not self.has_older or self.loading_older:
            return
        user = self._caller()
        if user is None:
            return
        self.loading_older = True
        yield
        try:
            with session_scope() as db:
                page = chats.older(db, user.id, self._chat_id, self._first_id)
        except NotAllowed:  # a forged id: the same answer as any failure to read the conversation
            yield rx.toast.error(OLDER_FAILED[0], description=OLDER_FAILED[1])
            return
        finally:
            self.loading_older = False
        window = page["messages"] + self.history + self.recent
        if len(window) > MAX_SHOWN:
            window = window[:MAX_SHOWN]
            self.detached = True
            self._last_id = window[-1]["id"]
        self.history = window
        self.recent = []
        self.has_older = page["has_older"]
        self._first_id = window[0]["id"] if window else 0

    @rx.event
    @recovers(*OLDER_FAILED)
    def show_latest(self):
        """Leave an old stretch of the conversation and show the newest messages again."""
        if self.status != "found":
            return None
        user = self._caller()
        if user is None:
            return None
        try:
            with session_scope() as db:
                detail = chats.open_chat(db, user.id, self._chat_id)
        except NotAllowed:  # a forged id: the same answer as any failure to read the conversation
            return rx.toast.error(OLDER_FAILED[0], description=OLDER_FAILED[1])
        self._show(detail["messages"], detail["has_older"])
        return None

    @classmethod
    def _live_applies(cls, path: str) -> bool:
        parent, _, _ = path.rstrip("/").rpartition("/")
        return parent in CHAT_PATHS

    def _live_refresh(self, db, user_id: int, chat_ids: frozenset[int], notices: bool) -> None:
        if self.status != "found" or self.detached or self._chat_id not in chat_ids:
            return
        if self._requested_id() != str(self._chat_id):
            return
        self._append(chats.newer(db, user_id, self._chat_id, self._last_id))
