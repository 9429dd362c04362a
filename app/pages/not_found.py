"""The page for any unknown path."""

import reflex as rx

from components.links import link_button
from components.shell import shell
from core import routes
from states.auth import AuthState


def not_found_page() -> rx.Component:
    """Not-found page with a link home."""
    return shell(
        rx.center(
            rx.vstack(
                rx.text("404", size="9", weight="bold", color=rx.color("accent", 11)),
                rx.heading("Página não encontrada", as_="h1", size="7"),
                rx.text("A página que você procura não existe ou foi movida."),
                link_button("Voltar para o início", href=routes.HOME),
                align="center",
                spacing="3",
            ),
            padding_y="4rem",
        )
    )


NOT_FOUND_ON_LOAD = [AuthState.load_session]
