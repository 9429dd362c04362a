"""Mensagens: the card of one conversation and a page of them with their count."""

from collections.abc import Callable

import reflex as rx

from components.dashboard import avatar, count_label, tab_heading
from components.pager import pager
from components.ui import empty_state
from core import routes


def chat_card(row: rx.Var, href: rx.Var | str) -> rx.Component:
    """One conversation: the other participant, the job, the last message, time and unread count."""
    return rx.link(
        rx.hstack(
            avatar(row["other_photo"], row["other_initials"], size="4"),
            rx.vstack(
                rx.hstack(
                    rx.text(row["other_name"], weight="bold", size="3", trim="both"),
                    rx.spacer(),
                    rx.text(row["last_time"], size="1", color=rx.color("gray", 11)),
                    width="100%",
                    align="center",
                ),
                rx.text(row["job_title"], size="2", color=rx.color("accent", 11)),
                rx.hstack(
                    rx.text(
                        rx.cond(row["last_message"] != "", row["last_message"], "Nenhuma mensagem ainda."),
                        size="2",
                        color=rx.color("gray", 11),
                        overflow="hidden",
                        text_overflow="ellipsis",
                        white_space="nowrap",
                        flex="1",
                        min_width="0",
                    ),
                    rx.cond(
                        row["unread"].to(int) > 0,
                        rx.badge(row["unread"].to_string(), color_scheme="red", variant="solid", radius="full"),
                    ),
                    width="100%",
                    align="center",
                ),
                spacing="1",
                flex="1",
                min_width="0",
            ),
            spacing="3",
            align="center",
            width="100%",
        ),
        href=href,
        underline="none",
        color=rx.color("gray", 12),
        display="block",
        padding="0.85rem 1rem",
        border=f"1px solid {rx.color('gray', 5)}",
        border_radius="10px",
        width="100%",
        _hover={"background": rx.color("gray", 2)},
    )


def chat_list(
    rows: rx.Var,
    loaded: rx.Var,
    href: Callable[[rx.Var], rx.Var | str],
    total: rx.Var,
    pages: rx.Component | None = None,
) -> rx.Component:
    """One page of conversation cards with the count of all of them, or 'Nenhuma conversa ainda'.

    Args:
        rows: The conversations of the page.
        loaded: Whether the list has arrived (the empty state waits for it).
        href: Builds a conversation's URL from its id.
        total: How many conversations there are in all.
        pages: The pager under the cards.
    """
    return rx.vstack(
        rx.badge(count_label(total, "conversa", "conversas"), size="2", variant="soft", id="chats-count"),
        rx.cond(
            rows.length() > 0,
            rx.vstack(
                rx.foreach(rows, lambda row: chat_card(row, href(row["id"]))),
                *([pages] if pages is not None else []),
                spacing="2",
                width="100%",
            ),
            rx.cond(
                loaded,
                empty_state(
                    "message-square",
                    "Nenhuma conversa ainda",
                    "As conversas começam quando uma candidatura é aceita.",
                ),
            ),
        ),
        spacing="3",
        width="100%",
    )


def messages_tab(state: type, role: str, subtitle: str) -> rx.Component:
    """A dashboard's 'Mensagens' tab: the caller's conversations, most recent first, and their pager.

    Args:
        state: The dashboard state (states/dashboard_tabs.py DashboardTabs) holding the page.
        role: The viewer's role: each conversation opens under their dashboard.
        subtitle: The line under the heading.
    """
    return rx.vstack(
        tab_heading("Mensagens", subtitle),
        chat_list(
            state.chats,
            state.loaded_tab == "messages",
            lambda chat_id: routes.chat(role, chat_id),
            state.chats_total,
            pager(state.pager_items, state.prev_href, state.next_href),
        ),
        spacing="3",
        width="100%",
    )
