"""Notificações: the icon and card of each notification and the panel that lists them."""

from collections.abc import Callable

import reflex as rx

from components.dashboard import count_label, tab_heading
from components.pager import load_more
from components.ui import empty_state


def notification_icon(kind: rx.Var) -> rx.Component:
    """The icon and colour of a notification type."""

    def bubble(icon: str, color: str) -> rx.Component:
        return rx.center(
            rx.icon(icon, size=18, color=rx.color(color, 11)),
            background=rx.color(color, 3),
            border_radius="9999px",
            width="36px",
            height="36px",
            flex_shrink="0",
        )

    return rx.match(
        kind,
        ("new_application", bubble("user-plus", "blue")),
        ("application_accepted", bubble("circle-check", "green")),
        ("job_closed", bubble("circle-x", "red")),
        ("job_created", bubble("briefcase", "violet")),
        ("application_rejected", bubble("circle-minus", "gray")),
        ("job_alert", bubble("bell-ring", "amber")),
        ("message", bubble("message-circle", "cyan")),
        bubble("info", "gray"),
    )


def notification_card(row: rx.Var, on_mark: Callable[[rx.Var], rx.event.EventSpec]) -> rx.Component:
    """One notification: icon, message, date, unread highlight and the mark-as-read button."""
    unread = ~row["read"].to(bool)
    return rx.box(
        rx.hstack(
            notification_icon(row["type"]),
            rx.vstack(
                rx.text(row["message"], weight=rx.cond(unread, "bold", "regular"), word_break="break-word"),
                rx.hstack(
                    rx.text(row["date"], size="1", color=rx.color("gray", 11)),
                    rx.cond(row["link"] != "", rx.link("Ver", href=row["link"].to(str), size="1")),
                    spacing="3",
                ),
                spacing="1",
                flex="1",
                min_width="0",
            ),
            rx.cond(
                unread,
                rx.button(
                    rx.icon("check", size=16),
                    rx.text("Marcar como lida", display=["none", "inline", "inline"]),
                    size="1",
                    variant="soft",
                    on_click=on_mark(row["id"]),
                    aria_label="Marcar como lida",
                    flex_shrink="0",
                ),
            ),
            spacing="3",
            align="start",
            width="100%",
        ),
        class_name=rx.cond(unread, "notification unread", "notification"),
        padding="0.85rem 1rem",
        border_radius="10px",
        border=f"1px solid {rx.color('gray', 5)}",
        border_left=rx.cond(unread, f"4px solid {rx.color('accent', 9)}", f"1px solid {rx.color('gray', 5)}"),
        background=rx.cond(unread, rx.color("accent", 2), rx.color("gray", 1)),
        width="100%",
    )


def notifications_panel(state: type) -> rx.Component:
    """The Notificações tab: count badge, the list with 'Carregar mais', or 'Sem notificações'.

    Args:
        state: The dashboard chrome state (states.dashboard.DashboardState): the rows shown, their
            total, whether older ones follow, and the mark-as-read and load-more handlers.
    """
    rows = state.notifications
    return rx.vstack(
        tab_heading("Notificações"),
        rx.hstack(
            rx.badge(
                count_label(state.notifications_total, "notificação", "notificações"),
                size="2",
                variant="soft",
                id="notifications-count",
            ),
            width="100%",
        ),
        rx.cond(
            rows.length() > 0,
            rx.vstack(
                rx.foreach(rows, lambda row: notification_card(row, state.mark_notification_read)),
                load_more(
                    state.notifications_more,
                    state.load_more_notifications,
                    state.loading_more_notifications,
                    "more-notifications",
                ),
                spacing="2",
                width="100%",
            ),
            rx.cond(
                state.notifications_loaded,
                empty_state("bell-off", "Sem notificações", "Você será avisado aqui sobre vagas e candidaturas."),
            ),
        ),
        spacing="3",
        width="100%",
    )
