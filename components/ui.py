"""Small presentational pieces used across pages."""

import reflex as rx


def page_heading(title: str, subtitle: str = "") -> rx.Component:
    """The page's h1 with an optional lead paragraph."""
    return rx.vstack(
        rx.heading(title, as_="h1", size="8"),
        rx.text(subtitle, size="4", color=rx.color("gray", 11)) if subtitle else rx.fragment(),
        spacing="2",
        margin_bottom="1.5rem",
    )


def auth_card(title: str, subtitle: str, *children: rx.Component) -> rx.Component:
    """A centred card for the account forms."""
    return rx.center(
        rx.card(
            rx.vstack(
                rx.heading(title, as_="h1", size="7"),
                rx.text(subtitle, color=rx.color("gray", 11)),
                *children,
                spacing="4",
                width="100%",
            ),
            size="4",
            width="100%",
            max_width="520px",
        ),
        width="100%",
    )


def empty_state(icon: str, title: str, text: str = "", *actions: rx.Component) -> rx.Component:
    """A friendly message for an empty list, with optional actions."""
    return rx.center(
        rx.vstack(
            rx.icon(icon, size=40, color=rx.color("gray", 9)),
            rx.heading(title, as_="h3", size="4"),
            rx.text(text, color=rx.color("gray", 11), text_align="center") if text else rx.fragment(),
            *actions,
            align="center",
            spacing="3",
        ),
        padding="3rem 1rem",
        width="100%",
    )


def link_button(text: str | rx.Var, href: str | rx.Var, *, link_id: str = "", **props) -> rx.Component:
    """A link that looks like a button (one focusable <a>, no button nested inside a link).

    Args:
        text: The link text.
        href: Where it goes (a route from app.routes).
        link_id: Stable id for tests (optional).
        **props: Button props (variant, size, width...).

    Returns:
        A Radix button rendered as the link element.
    """
    props.setdefault("size", "3")
    return rx.button(
        rx.link(text, href=href, underline="none", id=link_id or None),
        as_child=True,
        **props,
    )
