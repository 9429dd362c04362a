"""A link that looks like a button: one interactive element (an <a>), never a button inside a link."""

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink


def link_button(*children, href: str | rx.Var, link_id: str = "", **button_props) -> rx.Component:
    """A Radix button rendered as a client-side router link to `href`.

    Args:
        *children: The button content (text, icons).
        href: Where the link goes (a route from core.routes).
        link_id: A stable id on the <a>, for tests (optional).
        **button_props: Button props (variant, size, aria_label...); size defaults to "3".

    Returns:
        The <a> styled as a button.
    """
    button_props.setdefault("size", "3")
    link_props = {"id": link_id} if link_id else {}
    return rx.button(ReactRouterLink.create(*children, to=href, **link_props), as_child=True, **button_props)
