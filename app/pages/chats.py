"""Conversation list and conversation pages under each role's dashboard.

/client-dashboard/chats[/{id}] and /freelancer-dashboard/chats[/{id}]: the viewer only ever sees
chats they take part in; any other id reads 'Chat não encontrado', exactly like a missing one.
"""

import reflex as rx

from app import routes
from app.layout import dashboard_page
from components.dashboard import avatar, chat_list, loading, tab_heading
from components.ui import empty_state
from core.db import session_scope
from models import Role
from services import chats
from services.chats import ChatMessage, ChatSummary
from services.errors import NotAllowed
from states.auth import AuthState

CHAT_DENIED = "O chat solicitado não existe ou você não tem permissão para acessá-lo."
_SCROLL_TO_END_JS = (
    "setTimeout(() => { const el = document.getElementById('chat-messages'); "
    "if (el) { el.scrollTop = el.scrollHeight; } }, 60);"
)


class ChatListState(AuthState):
    """The viewer's conversations."""

    chats: list[ChatSummary] = []
    loaded: bool = False

    def _load(self, role: Role):
        user = self._current_user()
        if user is None or user.role != role:
            return None
        try:
            with session_scope() as db:
                self.chats = chats.list_for(db, user.id)
        except Exception:
            return rx.toast.error("Erro ao carregar conversas", description="Não foi possível carregar suas conversas.")
        self.loaded = True
        return None

    @rx.event
    def load_client(self):
        """Load the company's conversations."""
        return self._load(Role.CLIENT)

    @rx.event
    def load_freelancer(self):
        """Load the freelancer's conversations."""
        return self._load(Role.FREELANCER)


class ChatRoomState(AuthState):
    """One conversation, loaded only when the viewer is one of its two participants."""

    status: str = "loading"
    other_name: str = ""
    other_initials: str = ""
    other_photo: str = ""
    job_title: str = ""
    messages: list[ChatMessage] = []

    def _requested_id(self) -> str:
        """The last segment of the URL path (/…/chats/{id}); validated by the service."""
        return self.router.url.path.rstrip("/").rsplit("/", 1)[-1]

    def _load(self, role: Role):
        self.status = "loading"
        user = self._current_user()
        if user is None or user.role != role:
            return None
        try:
            with session_scope() as db:
                detail = chats.open_chat(db, user.id, self._requested_id())
        except NotAllowed:
            self._forget()
            return None
        except Exception:
            self._forget()
            return rx.toast.error(
                "Erro ao carregar conversa", description="Ocorreu um erro ao carregar os detalhes da conversa."
            )
        self.other_name = detail["other_name"]
        self.other_initials = detail["other_initials"]
        self.other_photo = detail["other_photo"]
        self.job_title = detail["job_title"]
        self.messages = detail["messages"]
        self.status = "found"
        return rx.call_script(_SCROLL_TO_END_JS)

    def _forget(self) -> None:
        self.status = "missing"
        self.other_name = ""
        self.other_initials = ""
        self.other_photo = ""
        self.job_title = ""
        self.messages = []

    @rx.event
    def load_client(self):
        """Open a conversation from the company side."""
        return self._load(Role.CLIENT)

    @rx.event
    def load_freelancer(self):
        """Open a conversation from the freelancer side."""
        return self._load(Role.FREELANCER)


def _list_content(role: Role) -> rx.Component:
    return rx.vstack(
        tab_heading("Mensagens", "Suas conversas, das mais recentes para as mais antigas."),
        rx.cond(
            ChatListState.loaded,
            chat_list(ChatListState.chats, ChatListState.loaded, lambda chat_id: routes.chat(role, chat_id)),
            loading("Carregando conversas..."),
        ),
        spacing="3",
        width="100%",
    )


def _bubble(message: rx.Var) -> rx.Component:
    mine = message["mine"].to(bool)
    return rx.flex(
        rx.box(
            rx.text(message["content"], white_space="pre-wrap", word_break="break-word"),
            rx.text(
                message["time"],
                size="1",
                text_align="right",
                color=rx.cond(mine, "rgba(255, 255, 255, 0.8)", rx.color("gray", 11)),
            ),
            background=rx.cond(mine, rx.color("accent", 9), rx.color("gray", 3)),
            color=rx.cond(mine, "white", rx.color("gray", 12)),
            padding="0.5rem 0.75rem",
            border_radius="14px",
            max_width="78%",
        ),
        justify=rx.cond(mine, "end", "start"),
        width="100%",
    )


def _room(role: Role) -> rx.Component:
    state = ChatRoomState
    return rx.vstack(
        rx.hstack(
            rx.link(
                rx.icon("arrow-left", size=20),
                href=routes.chat_list(role),
                aria_label="Voltar para conversas",
                id="chat-back",
                color=rx.color("gray", 12),
                padding="0.4rem",
                border_radius="9999px",
                _hover={"background": rx.color("gray", 3)},
            ),
            avatar(state.other_photo, state.other_initials),
            rx.vstack(
                rx.heading(state.other_name, as_="h1", size="5"),
                rx.text(state.job_title, size="2", color=rx.color("gray", 11)),
                spacing="0",
            ),
            spacing="3",
            align="center",
            width="100%",
            padding_bottom="0.75rem",
            border_bottom=f"1px solid {rx.color('gray', 5)}",
        ),
        rx.box(
            rx.cond(
                state.messages.length() > 0,
                rx.vstack(rx.foreach(state.messages, _bubble), spacing="2", width="100%"),
                rx.center(
                    rx.text("Nenhuma mensagem ainda. Comece a conversa!", color=rx.color("gray", 11)),
                    height="100%",
                ),
            ),
            id="chat-messages",
            role="log",
            aria_label="Mensagens",
            height=["calc(100dvh - 290px)", "calc(100dvh - 290px)", "calc(100dvh - 200px)"],
            min_height="240px",
            overflow_y="auto",
            width="100%",
            padding_y="0.5rem",
        ),
        spacing="3",
        width="100%",
    )


def _room_content(role: Role) -> rx.Component:
    return rx.match(
        ChatRoomState.status,
        ("loading", loading("Carregando conversa...")),
        (
            "missing",
            empty_state(
                "message-square-x",
                "Chat não encontrado",
                CHAT_DENIED,
                rx.link(rx.button("Voltar para conversas", variant="outline"), href=routes.chat_list(role)),
            ),
        ),
        _room(role),
    )


@dashboard_page(
    routes.CLIENT_CHATS, "Mensagens", Role.CLIENT, on_load=[ChatListState.load_client], active_tab="messages"
)
def client_chats_page() -> rx.Component:
    """The company's conversation list."""
    return _list_content(Role.CLIENT)


@dashboard_page(
    routes.FREELANCER_CHATS,
    "Mensagens",
    Role.FREELANCER,
    on_load=[ChatListState.load_freelancer],
    active_tab="messages",
)
def freelancer_chats_page() -> rx.Component:
    """The freelancer's conversation list."""
    return _list_content(Role.FREELANCER)


@dashboard_page(routes.CLIENT_CHAT, "Conversa", Role.CLIENT, on_load=[ChatRoomState.load_client], active_tab="messages")
def client_chat_page() -> rx.Component:
    """One conversation of the company."""
    return _room_content(Role.CLIENT)


@dashboard_page(
    routes.FREELANCER_CHAT,
    "Conversa",
    Role.FREELANCER,
    on_load=[ChatRoomState.load_freelancer],
    active_tab="messages",
)
def freelancer_chat_page() -> rx.Component:
    """One conversation of the freelancer."""
    return _room_content(Role.FREELANCER)
