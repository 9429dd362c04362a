"""A link that looks like a button: one interactive element (an <a>), never a button inside a link."""

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink


def link_button(*children, href: str | rx.Var, **button_props) -> rx.Component:
    """A Radix button rendered as a client-side router link to `href`.

    Args:
        *children: The button content (text, icons).
        href: Where the link goes (a route from app.routes).
        **button_props: Button props (variant, size, aria_label, id...).

    Returns:
        The <a> styled as a button.
    """
    return rx.button(ReactRouterLink.create(*children, to=href), as_child=True, **button_props)
