"""Conversation list and conversation pages under each role's dashboard, updated live.

/client-dashboard/chats[/{id}] and /freelancer-dashboard/chats[/{id}]: the viewer only ever sees
chats they take part in; any other id reads 'Chat não encontrado', exactly like a missing one.
Both states are live refreshers (states/live.py): a message committed by the other participant
(or by the viewer in another tab) is loaded from the database into the open page without a reload.

- state: `ChatListState` and `ChatRoomState`.
- room: one conversation's page (header, log, message box and their browser scripts).
- here: the conversation list and the four pages.
"""

import reflex as rx

from app.layout import dashboard_page
from app.pages.chats.room import room_content
from app.pages.chats.state import ChatListState, ChatRoomState
from components.chat_list import chat_list
from components.dashboard import loading, tab_heading
from components.pager import pager
from core import routes
from models import Role


def _list_content(role: Role) -> rx.Component:
    return rx.vstack(
        tab_heading("Mensagens", "Suas conversas, das mais recentes para as mais antigas."),
        rx.cond(
            ChatListState.loaded,
            chat_list(
                ChatListState.chats,
                ChatListState.loaded,
                lambda chat_id: routes.chat(role, chat_id),
                ChatListState.total,
                pager(ChatListState.pager_items, ChatListState.prev_href, ChatListState.next_href),
            ),
            loading("Carregando conversas..."),
        ),
        spacing="3",
        width="100%",
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
    return room_content(Role.CLIENT)


@dashboard_page(
    routes.FREELANCER_CHAT,
    "Conversa",
    Role.FREELANCER,
    on_load=[ChatRoomState.load_freelancer],
    active_tab="messages",
)
def freelancer_chat_page() -> rx.Component:
    """One conversation of the freelancer."""
    return room_content(Role.FREELANCER)
