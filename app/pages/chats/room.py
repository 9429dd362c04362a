"""One conversation's page: the header, the message log, 'Ver mensagens recentes' and the message box.

The browser side lives here too: the script that keeps the log pinned to the newest message and
the unsent text per conversation, and Enter sending the message.
"""

import reflex as rx

from app.pages.chats.state import ChatRoomState, draft
from components.dashboard import avatar, loading
from components.ui import empty_state
from core import routes
from models import Role
from services.reach import chat_sending
from states.auth import DRAFT_KEY_PREFIX

CHAT_DENIED = "O chat solicitado não existe ou você não tem permissão para acessá-lo."

# Installed once per mounted conversation: keeps the log pinned to the newest message unless the
# reader scrolled up (own messages always scroll), keeps the position when older messages are
# prepended, and keeps what is typed but not sent per conversation in the tab's sessionStorage, so
# a reload, a visit to another conversation or a reconnection after a server restart gives it back
# (the native setter and an input event let React's onChange see it, so the send button follows).
# It is forgotten once sent, and when the session ends in the tab (states/auth.py session_over).
_ROOM_JS = """
(() => {
  const log = document.getElementById('chat-messages');
  const input = document.getElementById('chat-input');
  if (!log || !input || log.dataset.live === '1') return;
  log.dataset.live = '1';
  let stick = true;
  let height = log.scrollHeight;
  log.addEventListener('scroll', () => {
    stick = log.scrollHeight - log.scrollTop - log.clientHeight < 120;
  });
  new MutationObserver(() => {
    if (log.dataset.prepending === '1') {
      log.scrollTop += log.scrollHeight - height;
      log.dataset.prepending = '';
    } else if (stick) {
      log.scrollTop = log.scrollHeight;
    }
    height = log.scrollHeight;
  }).observe(log, { childList: true, subtree: true });
  input.form?.addEventListener('submit', () => { stick = true; }, true);
  log.scrollTop = log.scrollHeight;
  const key = '__DRAFT__' + location.pathname;
  const saved = sessionStorage.getItem(key);
  if (saved && !input.value) {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(input, saved);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  input.addEventListener('input', () => {
    if (input.value) sessionStorage.setItem(key, input.value); else sessionStorage.removeItem(key);
  });
})();
""".replace("__DRAFT__", DRAFT_KEY_PREFIX)

# A React prop, not part of the script above: it works from the first render, before queued events run.
# The textarea is uncontrolled (typing never waits for React); `draft` mirrors it for the send button.
_ENTER_SENDS_JS = rx.Var(
    "((event) => { if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return; "
    "event.preventDefault(); const input = event.currentTarget; "
    "const send = document.getElementById('chat-send'); "
    "if (input.value.trim() !== '' && send?.dataset.sending !== 'true') input.form.requestSubmit(); })"
)
_MARK_PREPENDING_JS = "const l = document.getElementById('chat-messages'); if (l) { l.dataset.prepending = '1'; }"


def _bubble(message: rx.Var) -> rx.Component:
    mine = message["mine"].to(bool)
    return rx.flex(
        rx.box(
            rx.text(message["content"], white_space="pre-wrap", word_break="break-word"),
            rx.text(
                message["time"],
                size="1",
                text_align="right",
                color=rx.cond(mine, "rgba(255, 255, 255, 0.85)", rx.color("gray", 11)),
            ),
            background=rx.cond(mine, rx.color("accent", 9), rx.color("gray", 3)),
            color=rx.cond(mine, "white", rx.color("gray", 12)),
            padding="0.5rem 0.75rem",
            border_radius="14px",
            max_width="78%",
        ),
        class_name=rx.cond(mine, "chat-bubble mine", "chat-bubble theirs"),
        justify=rx.cond(mine, "end", "start"),
        width="100%",
    )


def _header(role: Role) -> rx.Component:
    state = ChatRoomState
    return rx.hstack(
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
            rx.heading(
                rx.link(
                    state.other_name,
                    href=state.profile_href,
                    id="chat-other-profile",
                    title="Ver perfil completo",
                    color="inherit",
                )
                if role == Role.CLIENT
                else state.other_name,
                as_="h1",
                size="5",
            ),
            rx.text(state.job_title, size="2", color=rx.color("gray", 11)),
            spacing="0",
        ),
        spacing="3",
        align="center",
        width="100%",
        padding_bottom="0.75rem",
        border_bottom=f"1px solid {rx.color('gray', 5)}",
    )


def _log() -> rx.Component:
    state = ChatRoomState
    older = rx.cond(
        state.has_older,
        rx.center(
            rx.button(
                rx.cond(state.loading_older, rx.spinner(size="1"), rx.icon("history", size=14)),
                "Carregar mensagens anteriores",
                variant="soft",
                size="1",
                id="chat-older",
                disabled=state.loading_older,
                on_click=[rx.call_script(_MARK_PREPENDING_JS), ChatRoomState.load_older],
            ),
            width="100%",
        ),
    )
    return rx.box(
        rx.cond(
            (state.history.length() + state.recent.length()) > 0,
            rx.vstack(
                older,
                rx.foreach(state.history, _bubble),
                rx.foreach(state.recent, _bubble),
                spacing="2",
                width="100%",
            ),
            rx.center(
                rx.text("Nenhuma mensagem ainda. Comece a conversa!", color=rx.color("gray", 11)),
                height="100%",
            ),
        ),
        id="chat-messages",
        role="log",
        aria_label="Mensagens",
        aria_live="polite",
        flex="1",
        min_height="0",
        overflow_y="auto",
        width="100%",
        padding_y="0.5rem",
    )


def _latest_banner() -> rx.Component:
    return rx.cond(
        ChatRoomState.detached,
        rx.center(
            rx.button(
                rx.icon("arrow-down", size=14),
                "Ver mensagens recentes",
                size="1",
                id="chat-latest",
                on_click=ChatRoomState.show_latest,
            ),
            width="100%",
        ),
    )


ACCOUNT_REMOVED = "Esta conta foi excluída"
ACCOUNT_REMOVED_HINT = "As mensagens continuam aqui para consulta, mas não é possível enviar novas."


def _closed_composer() -> rx.Component:
    """In place of the box when the other participant deleted their account."""
    return rx.callout(
        rx.text(rx.text.strong(ACCOUNT_REMOVED), " · ", ACCOUNT_REMOVED_HINT),
        icon="user-x",
        color_scheme="gray",
        width="100%",
        id="chat-closed",
    )


def _composer() -> rx.Component:
    """The message box, or why there is none (the other account was deleted)."""
    return rx.cond(ChatRoomState.other_removed, _closed_composer(), _open_composer())


def _open_composer() -> rx.Component:
    blank = draft.value.to(str).strip() == ""
    return rx.form(
        rx.hstack(
            rx.text_area(
                name="message",
                id="chat-input",
                placeholder="Digite sua mensagem...",
                aria_label="Mensagem",
                on_change=draft.set,
                max_length=chat_sending.MESSAGE_MAX,
                custom_attrs={"onKeyDown": _ENTER_SENDS_JS},
                rows="2",
                resize="none",
                flex="1",
                size="2",
            ),
            rx.button(
                rx.cond(ChatRoomState.sending, rx.spinner(size="2"), rx.icon("send", size=18)),
                type="submit",
                id="chat-send",
                aria_label="Enviar mensagem",
                disabled=ChatRoomState.sending | blank,
                custom_attrs={"data-sending": ChatRoomState.sending.to_string()},
                size="3",
            ),
            spacing="2",
            align="end",
            width="100%",
        ),
        rx.el.div(ChatRoomState.announcement, role="status", class_name="sr-only"),
        on_submit=ChatRoomState.send_message,
        reset_on_submit=False,
        id="chat-form",
        width="100%",
    )


def _room(role: Role) -> rx.Component:
    return rx.vstack(
        _header(role),
        _log(),
        _latest_banner(),
        _composer(),
        spacing="3",
        width="100%",
        height=["calc(100dvh - 190px)", "calc(100dvh - 190px)", "calc(100dvh - 200px)"],
        min_height="320px",
        on_mount=[draft.push(""), rx.call_script(_ROOM_JS)],  # the last conversation's draft is not this one's
    )


def room_content(role: Role) -> rx.Component:
    """The conversation of the URL for `role`: loading, 'Chat não encontrado', or the conversation."""
    return rx.fragment(
        draft,
        rx.match(
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
        ),
    )
