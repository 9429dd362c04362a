"""'Selo Empresa Pontual' on screen: the badge on vagas and company cards, and the company's own panel.

Wherever the badge shows, its figures and 'Como calculamos' (/como-calculamos#selo) go with it: in
full on the job page, behind the badge on the list's rows and the category's company cards.
"""

import reflex as rx

from components.dashboard import section_card
from core import routes

BADGE = "Empresa Pontual"
HOW = "Como calculamos"
HOW_HREF = routes.HOW_WE_CALCULATE + "#selo"
MUTED = rx.color("gray", 11)
# The disclosure's look: no browser marker (a chevron says it opens, turned while open).
DISCLOSURE_STYLE = {
    "& > summary": {
        "display": "inline-flex",  # not a list item: no marker
        "alignItems": "center",
        "gap": "0.25rem",
        "listStyle": "none",
        "cursor": "pointer",
        "borderRadius": "4px",
    },
    "& > summary::-webkit-details-marker": {"display": "none"},
    "&[open] .company-punctual-chevron": {"transform": "rotate(180deg)"},
}


def punctual_badge() -> rx.Component:
    """The badge (a vaga whose company earned it; services/trust/punctuality.py)."""
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
        rx.link(HOW, href=HOW_HREF, size="1"),
        spacing="2",
        align="center",
        wrap="wrap",
    )


def punctual_details(summary: rx.Var) -> rx.Component:
    """The badge that opens its figures and 'Como calculamos' (a list row, a category's company card).

    A native disclosure (<details>): it needs no script, opens with a tap, a click, Enter or Space,
    is announced as expandable, and keeps the figures in the page for find-in-page; closed, the row
    stays as short as with the bare badge.

    Args:
        summary: The figures in one line (services.jobs `punctual_summary`).

    Returns:
        The disclosure, on a line of its own.
    """
    return rx.el.details(
        rx.el.summary(
            punctual_badge(),
            rx.icon("chevron-down", size=14, color=MUTED, aria_hidden="true", class_name="company-punctual-chevron"),
        ),
        rx.text(
            summary,
            " · ",
            rx.link(HOW, href=HOW_HREF),
            size="1",
            color=MUTED,
            class_name="company-punctual-summary",
            margin_top="0.25rem",
        ),
        class_name="company-punctual-details",
        style=DISCLOSURE_STYLE,
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
        rx.link(HOW, href=HOW_HREF, size="1"),
        action=rx.fragment(),
    )
