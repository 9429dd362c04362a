"""Page-template decorators: the public shell or a dashboard, each with its guard."""

from collections.abc import Callable

import reflex as rx

from components.shell import shell
from core.settings import get_settings
from states.auth import AuthState


def page_title(title: str) -> str:
    """Browser title: 'Title | Turno'."""
    return f"{title} | {get_settings().product_name}"


def public_page(route: str, title: str, on_load: list | None = None, guard=None) -> Callable:
    """Register a page inside the public shell.

    Args:
        route: The route constant from app.routes.
        title: The browser title (product name appended).
        on_load: Extra events to run after the session is loaded.
        guard: An AuthState guard event replacing the plain session load.

    Returns:
        A decorator for a function that returns the page content.
    """

    def decorator(content: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def page() -> rx.Component:
            return shell(content())

        page.__name__ = content.__name__
        first = guard or AuthState.load_session
        rx.page(route=route, title=page_title(title), on_load=[first, *(on_load or [])])(page)
        return page

    return decorator
