"""'Selo Empresa Pontual' on screen: the badge on vagas and the company's own panel."""

import reflex as rx

from components.dashboard import section_card
from core import routes

BADGE = "Empresa Pontual"
MUTED = rx.color("gray", 11)


def punctual_badge() -> rx.Component:
    """The badge (a vaga whose company earned it; services/punctuality.py)."""
    return rx.badge(
        rx.icon("clock", size=14, aria_hidden="true"),
        BADGE,
        color_scheme="blue",
        variant="soft",
        high_contrast=True,
        class_name="company-punctual",
    )


def punctual_line(summary: rx.Var) -> rx.Component:
    """The badge with its figures and how they are computed (the job page)."""
    return rx.hstack(
        punctual_badge(),
        rx.text(summary, size="1", color=MUTED, id="job-punctual-summary"),
        rx.link("Como calculamos", href=routes.HOW_WE_CALCULATE + "#selo", size="1"),
        spacing="2",
        align="center",
        wrap="wrap",
    )


def punctuality_panel(panel: rx.Var) -> rx.Component:
    """The company's own panel: the badge or what it lacks, and the figures."""
    return section_card(
        "Selo Empresa Pontual",
        rx.cond(
            panel["badge"].to(bool),
            rx.hstack(punctual_badge(), rx.text("Sua empresa tem o selo.", size="2"), spacing="2", align="center"),
            rx.vstack(
                rx.text("Para ter o selo:", size="2", weight="medium"),
                rx.foreach(panel["missing"].to(list[str]), lambda line: rx.text("• ", line, size="2")),
                spacing="1",
            ),
        ),
        rx.text(panel["summary"], size="1", color=MUTED),
        rx.link("Como calculamos", href=routes.HOW_WE_CALCULATE + "#selo", size="1"),
        action=rx.fragment(),
    )
