"""The dashboard shell: sidebar, desktop header, mobile top bar, profile sheet, bottom bar and the bell.

Every function takes the vars and events it shows or fires as arguments, so the dashboard
template in app/layout.py decides where the data comes from.
"""

from collections.abc import Sequence
from typing import NamedTuple

import reflex as rx

from components.dashboard import avatar, count_badge, unread_label
from components.shell import DESKTOP, MOBILE, logo

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


def _is_active(active: rx.Var | str, key: str) -> rx.Var | bool:
    return active == key


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


def _menu(
    items: Sequence[NavItem],
    active: rx.Var | str,
    badges: Badges,
    label: str,
    on_click: rx.EventHandler | None = None,
) -> rx.Component:
    """The dashboard's tabs as a labelled list of `nav_link`s (the desktop sidebar and the mobile sheet)."""
    return rx.el.nav(
        rx.vstack(
            *[nav_link(item, active, on_click, badges.get(item.key)) for item in items], spacing="1", width="100%"
        ),
        aria_label=label,
        width="100%",
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
            _menu(items, active, badges, "Menu do painel"),
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
                    _menu(items, active, badges, "Menu do perfil", on_close),
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
