"""Stateless building blocks of the dashboards: navigation, bell, cards, badges and lists.

Every function takes the vars and events it shows or fires as arguments, so pages and the
dashboard template in app/layout.py decide where the data comes from.
"""

from collections.abc import Callable, Sequence
from typing import NamedTuple

import reflex as rx

from components.pager import load_more
from components.shell import DESKTOP, MOBILE, logo
from components.ui import empty_state

SIDEBAR_WIDTH = "248px"
BOTTOM_BAR_HEIGHT = "64px"


class NavItem(NamedTuple):
    """One dashboard tab: its key (?tab=), label, lucide icon and link."""

    key: str
    label: str
    icon: str
    href: str


class Badge(NamedTuple):
    """A live counter on a tab: its text ('' hides it, '9+' above nine) and the number for screen readers."""

    text: rx.Var
    count: rx.Var


Badges = dict[str, Badge]


def count_label(count: rx.Var, singular: str, plural: str) -> rx.Var:
    """'1 conversa' / '3 conversas': a count with the right noun form."""
    return rx.cond(count == 1, "1 " + singular, count.to_string() + " " + plural)


def _is_active(active: rx.Var | str, key: str) -> rx.Var | bool:
    return active == key


def avatar(photo: rx.Var, initials: rx.Var, size: str = "3") -> rx.Component:
    """The user's photo, or their initials when there is none."""
    return rx.avatar(src=photo, fallback=initials, size=size, radius="full", alt="")


def count_badge(text: rx.Var) -> rx.Component:
    """A small red counter pinned to the corner of an icon (hidden when `text` is empty).

    Screen readers get the count from the link's own label instead.
    """
    return rx.cond(
        text != "",
        rx.el.span(
            text,
            aria_hidden="true",
            style={
                "position": "absolute",
                "top": "-4px",
                "right": "-6px",
                "minWidth": "18px",
                "height": "18px",
                "padding": "0 4px",
                "borderRadius": "9999px",
                "background": rx.color("red", 9),
                "color": "white",
                "fontSize": "11px",
                "fontWeight": "700",
                "lineHeight": "18px",
                "textAlign": "center",
            },
        ),
    )


def unread_label(unread: rx.Var, name: str = "Notificações") -> rx.Var:
    """Accessible name of a link to the notifications, e.g. 'Notificações: 2 não lidas'."""
    return rx.cond(unread > 0, name + ": " + count_label(unread, "não lida", "não lidas"), name)


def notification_bell(href: str, badge: rx.Var, unread: rx.Var, element_id: str) -> rx.Component:
    """The bell linking to the notifications tab, with the unread badge ('9+' above nine)."""
    return rx.link(
        rx.box(
            rx.icon("bell", size=22),
            count_badge(badge),
            position="relative",
            display="flex",
        ),
        href=href,
        id=element_id,
        aria_label=unread_label(unread),
        color=rx.color("gray", 12),
        padding="0.5rem",
        border_radius="9999px",
        _hover={"background": rx.color("gray", 3)},
    )


def _pill(text: rx.Var) -> rx.Component:
    """A counter shown after a tab's label (hidden when `text` is empty)."""
    return rx.cond(
        text != "",
        rx.badge(text, color_scheme="red", variant="solid", radius="full", aria_hidden="true", margin_left="auto"),
    )


def nav_link(
    item: NavItem, active: rx.Var | str, on_click: rx.EventHandler | None = None, badge: Badge | None = None
) -> rx.Component:
    """A sidebar or sheet link; the current tab is highlighted and marked aria-current.

    With a badge, the unread count follows the label and is part of the link's accessible name.
    """
    is_active = _is_active(active, item.key)
    return rx.link(
        rx.hstack(
            rx.icon(item.icon, size=18),
            rx.text(item.label, size="3"),
            _pill(badge.text) if badge else rx.fragment(),
            spacing="3",
            align="center",
            width="100%",
        ),
        href=item.href,
        on_click=on_click,
        aria_label=unread_label(badge.count, item.label) if badge else None,
        aria_current=rx.cond(is_active, "page", "false"),
        underline="none",
        color=rx.cond(is_active, rx.color("accent", 11), rx.color("gray", 12)),
        background=rx.cond(is_active, rx.color("accent", 3), "transparent"),
        font_weight=rx.cond(is_active, "600", "400"),
        padding="0.55rem 0.75rem",
        border_radius="8px",
        width="100%",
        _hover={"background": rx.color("accent", 3)},
    )


def logout_button(on_logout: rx.EventHandler, element_id: str) -> rx.Component:
    """Sair."""
    return rx.button(
        rx.icon("log-out", size=18),
        "Sair",
        variant="ghost",
        color_scheme="red",
        on_click=on_logout,
        id=element_id,
        justify="start",
        width="100%",
        size="3",
    )


def sidebar(
    subtitle: str,
    items: Sequence[NavItem],
    active: rx.Var | str,
    on_logout: rx.EventHandler,
    badges: Badges | None = None,
) -> rx.Component:
    """Desktop sidebar: the logo, the area's name, every tab (with its live badge) and Sair."""
    badges = badges or {}
    return rx.el.aside(
        rx.vstack(
            rx.vstack(logo(), rx.text(subtitle, size="2", color=rx.color("gray", 11)), spacing="1", padding="0.5rem"),
            rx.el.nav(
                rx.vstack(
                    *[nav_link(item, active, badge=badges.get(item.key)) for item in items], spacing="1", width="100%"
                ),
                aria_label="Menu do painel",
                width="100%",
            ),
            rx.spacer(),
            logout_button(on_logout, "sidebar-logout"),
            spacing="5",
            width="100%",
            padding="1rem 0.75rem",
            style={"position": "sticky", "top": "0", "height": "100vh", "overflowY": "auto"},
        ),
        display=DESKTOP,
        style={
            "width": SIDEBAR_WIDTH,
            "flexShrink": "0",
            "borderRight": f"1px solid {rx.color('gray', 5)}",
            "background": rx.color("gray", 2),
        },
    )


def desktop_header(
    title: rx.Var | str, subtitle: rx.Var | str, bell: rx.Component, *actions: rx.Component
) -> rx.Component:
    """Desktop top bar: who is signed in on the left, actions and the bell on the right."""
    return rx.el.header(
        rx.hstack(
            rx.vstack(
                rx.text(title, weight="bold", size="4"),
                rx.text(subtitle, size="2", color=rx.color("gray", 11)),
                spacing="0",
            ),
            rx.spacer(),
            *actions,
            bell,
            align="center",
            spacing="4",
            width="100%",
            padding="0.75rem 1.5rem",
        ),
        display=DESKTOP,
        style={
            "position": "sticky",
            "top": "0",
            "zIndex": "30",
            "background": rx.color("gray", 1),
            "borderBottom": f"1px solid {rx.color('gray', 5)}",
        },
    )


def mobile_top_bar(bell: rx.Component, photo: rx.Var, initials: rx.Var, on_open: rx.EventHandler) -> rx.Component:
    """Mobile top bar: the logo, the bell and the avatar that opens the profile sheet."""
    return rx.el.header(
        rx.hstack(
            logo(),
            rx.spacer(),
            bell,
            rx.el.button(
                avatar(photo, initials, size="2"),
                on_click=on_open,
                id="open-profile-sheet",
                aria_label="Abrir perfil",
                aria_haspopup="dialog",
                style={"background": "none", "border": "none", "padding": "0", "cursor": "pointer"},
            ),
            align="center",
            spacing="3",
            width="100%",
            padding="0.6rem 1rem",
        ),
        display=MOBILE,
        style={
            "position": "sticky",
            "top": "0",
            "zIndex": "30",
            "background": rx.color("gray", 1),
            "borderBottom": f"1px solid {rx.color('gray', 5)}",
        },
    )


def _sheet_line(icon: str, text: rx.Var, empty: str) -> rx.Component:
    return rx.hstack(
        rx.icon(icon, size=16, color=rx.color("gray", 10), flex_shrink="0"),
        rx.text(rx.cond(text != "", text, empty), size="2", color=rx.color("gray", 11), word_break="break-word"),
        spacing="2",
        align="center",
    )


def profile_sheet(
    is_open: rx.Var,
    on_close: rx.EventHandler,
    me: rx.Var,
    items: Sequence[NavItem],
    active: rx.Var | str,
    on_logout: rx.EventHandler,
    badges: Badges | None = None,
) -> rx.Component:
    """Mobile side sheet: photo or initials, name, e-mail, address, phone, every tab and Sair."""
    badges = badges or {}
    return rx.cond(
        is_open,
        rx.box(
            rx.box(
                on_click=on_close,
                position="fixed",
                inset="0",
                background="rgba(0, 0, 0, 0.45)",
                aria_hidden="true",
            ),
            rx.box(
                rx.vstack(
                    rx.hstack(
                        rx.spacer(),
                        rx.icon_button(
                            rx.icon("x"),
                            variant="ghost",
                            on_click=on_close,
                            aria_label="Fechar perfil",
                            id="close-profile-sheet",
                        ),
                        width="100%",
                    ),
                    avatar(me["foto_url"], me["initials"], size="6"),
                    rx.heading(me["nome"], as_="h2", size="5", id="profile-sheet-title"),
                    _sheet_line("mail", me["email"], ""),
                    _sheet_line("map-pin", me["endereco"], "Endereço não informado"),
                    _sheet_line("phone", me["telefone"], "Telefone não informado"),
                    rx.separator(),
                    rx.el.nav(
                        rx.vstack(
                            *[nav_link(item, active, on_close, badges.get(item.key)) for item in items],
                            spacing="1",
                            width="100%",
                        ),
                        aria_label="Menu do perfil",
                        width="100%",
                    ),
                    rx.separator(),
                    logout_button(on_logout, "sheet-logout"),
                    spacing="3",
                    width="100%",
                ),
                role="dialog",
                aria_modal="true",
                aria_labelledby="profile-sheet-title",
                id="profile-sheet",
                position="fixed",
                top="0",
                right="0",
                height="100%",
                width="min(320px, 86vw)",
                overflow_y="auto",
                padding="1rem 1.25rem 1.5rem",
                background=rx.color("gray", 1),
                box_shadow="-8px 0 24px rgba(0, 0, 0, 0.18)",
            ),
            position="fixed",
            inset="0",
            z_index="60",
            display=MOBILE,
        ),
    )


def bottom_bar(items: Sequence[NavItem], active: rx.Var | str, badges: Badges) -> rx.Component:
    """Mobile bottom bar with five tabs; tabs with a badge (alerts, messages) show their live count."""
    links = []
    for item in items:
        is_active = _is_active(active, item.key)
        badge = badges.get(item.key)
        icon = rx.box(
            rx.icon(item.icon, size=20),
            count_badge(badge.text) if badge else rx.fragment(),
            position="relative",
            display="flex",
        )
        links.append(
            rx.link(
                rx.vstack(icon, rx.text(item.label, size="1"), spacing="1", align="center"),
                href=item.href,
                aria_label=unread_label(badge.count, item.label) if badge else None,
                aria_current=rx.cond(is_active, "page", "false"),
                underline="none",
                color=rx.cond(is_active, rx.color("accent", 11), rx.color("gray", 11)),
                font_weight=rx.cond(is_active, "600", "400"),
                flex="1",
                display="flex",
                justify_content="center",
                padding_y="0.5rem",
            )
        )
    return rx.el.nav(
        rx.hstack(*links, spacing="0", width="100%", align="center"),
        aria_label="Navegação principal",
        display=MOBILE,
        style={
            "position": "fixed",
            "bottom": "0",
            "left": "0",
            "right": "0",
            "zIndex": "40",
            "minHeight": BOTTOM_BAR_HEIGHT,
            "paddingBottom": "env(safe-area-inset-bottom)",
            "background": rx.color("gray", 1),
            "borderTop": f"1px solid {rx.color('gray', 5)}",
        },
    )


def tab_heading(title: str, subtitle: str | rx.Var = "", *actions: rx.Component) -> rx.Component:
    """The h1 of a dashboard tab with an optional lead and actions on the right."""
    return rx.flex(
        rx.vstack(
            rx.heading(title, as_="h1", size="7"),
            rx.text(subtitle, color=rx.color("gray", 11))
            if isinstance(subtitle, rx.Var) or subtitle
            else rx.fragment(),
            spacing="1",
        ),
        rx.spacer(),
        *actions,
        direction=rx.breakpoints(initial="column", sm="row"),
        align=rx.breakpoints(initial="start", sm="center"),
        gap="0.75rem",
        width="100%",
        margin_bottom="1.25rem",
    )


def stat_card(label: str, value: rx.Var, icon: str, element_id: str, hint: rx.Var | str = "") -> rx.Component:
    """A counter card."""
    return rx.card(
        rx.hstack(
            rx.center(
                rx.icon(icon, size=22, color=rx.color("accent", 11)),
                background=rx.color("accent", 3),
                border_radius="10px",
                width="44px",
                height="44px",
                flex_shrink="0",
            ),
            rx.vstack(
                rx.text(label, size="2", color=rx.color("gray", 11)),
                rx.text(value, size="6", weight="bold", id=element_id),
                rx.text(hint, size="1", color=rx.color("gray", 11))
                if isinstance(hint, rx.Var) or hint
                else rx.fragment(),
                spacing="0",
            ),
            spacing="3",
            align="center",
        ),
        width="100%",
    )


JOB_STATUS_COLORS = (("open", "green"), ("in_progress", "blue"), ("closed", "gray"), ("archived", "orange"))
APPLICATION_STATUS_COLORS = (("pending", "amber"), ("accepted", "green"), ("rejected", "red"))


def status_badge(status: rx.Var, label: rx.Var, colors: Sequence[tuple[str, str]] = JOB_STATUS_COLORS) -> rx.Component:
    """A coloured badge for a job or application status."""
    return rx.match(
        status,
        *[(value, rx.badge(label, color_scheme=color, variant="soft", size="2")) for value, color in colors],
        rx.badge(label, color_scheme="gray", variant="soft", size="2"),
    )


def section_card(title: str, *children: rx.Component, action: rx.Component | None = None) -> rx.Component:
    """A titled card grouping part of a tab."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(title, as_="h2", size="4"),
                rx.spacer(),
                action or rx.fragment(),
                width="100%",
                align="center",
            ),
            *children,
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


def detail_row(label: str, value: rx.Var, empty: str = "Não informado") -> rx.Component:
    """One label/value line of a read-only profile."""
    return rx.data_list.item(
        rx.data_list.label(label, min_width="140px"),
        rx.data_list.value(
            rx.cond(value != "", rx.text(value, word_break="break-word"), rx.text(empty, color=rx.color("gray", 10)))
        ),
    )


def detail_item(label: rx.Var | str, value: rx.Component) -> rx.Component:
    """One label/value line whose value is a component (badges, a list)."""
    return rx.data_list.item(rx.data_list.label(label, min_width="140px"), rx.data_list.value(value))


def detail_list(*rows: rx.Component) -> rx.Component:
    """A read-only list of label/value rows that stacks on small screens."""
    return rx.data_list.root(*rows, orientation=rx.breakpoints(initial="vertical", sm="horizontal"), size="2")


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


def loading(text: str = "Carregando...") -> rx.Component:
    """A centred spinner with a text."""
    return rx.center(
        rx.hstack(rx.spinner(size="3"), rx.text(text, color=rx.color("gray", 11)), spacing="3", align="center"),
        padding="3rem 1rem",
        width="100%",
    )
