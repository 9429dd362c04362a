"""Building blocks of the static pages: sections, prose, lists, numbered steps and legal texts."""

from collections.abc import Sequence

import reflex as rx

from components.ui import page_heading

Block = str | Sequence[str] | rx.Component
"""A paragraph (text), a bullet list (a sequence of texts) or a ready component."""

MUTED = rx.color("gray", 11)


def section(title: str, *children: rx.Component, section_id: str = "", lead: str = "") -> rx.Component:
    """A page section with an h2 title, an optional lead paragraph and its content.

    Args:
        title: The h2 text.
        *children: The section's content.
        section_id: Anchor id of the section (optional).
        lead: A short paragraph under the title (optional).

    Returns:
        A <section> labelled by its heading.
    """
    heading_id = f"{section_id}-titulo" if section_id else None
    return rx.el.section(
        rx.vstack(
            rx.heading(title, as_="h2", size=rx.breakpoints(initial="6", md="7"), id=heading_id),
            rx.text(lead, size="4", color=MUTED) if lead else rx.fragment(),
            *children,
            spacing="4",
            width="100%",
        ),
        id=section_id or None,
        aria_labelledby=heading_id,
        style={"width": "100%", "paddingTop": "1.5rem", "paddingBottom": "1.5rem"},
    )


def paragraph(text: str) -> rx.Component:
    """A paragraph of body text."""
    return rx.text(text, as_="p", size="3", line_height="1.7")


def bullet_list(items: Sequence[str]) -> rx.Component:
    """An unordered list of short texts."""
    return rx.el.ul(
        *[rx.el.li(item, style={"marginBottom": "0.35rem"}) for item in items],
        style={"paddingLeft": "1.25rem", "lineHeight": "1.7", "listStyle": "disc"},
    )


def blocks(content: Sequence[Block]) -> list[rx.Component]:
    """Render paragraphs (texts), bullet lists (sequences of texts) and components in order."""
    return [
        item if isinstance(item, rx.Component) else paragraph(item) if isinstance(item, str) else bullet_list(item)
        for item in content
    ]


def check_list(items: Sequence[str]) -> rx.Component:
    """A list of features, each with a check mark (the mark is decorative)."""
    return rx.el.ul(
        *[
            rx.el.li(
                rx.hstack(
                    rx.icon("check", size=18, color=rx.color("green", 11), aria_hidden="true", flex_shrink="0"),
                    rx.text(item, size="3"),
                    spacing="2",
                    align="start",
                ),
            )
            for item in items
        ],
        style={"display": "flex", "flexDirection": "column", "gap": "0.6rem", "listStyle": "none", "padding": 0},
    )


def numbered_steps(steps: Sequence[tuple[str, str]]) -> rx.Component:
    """An ordered list of steps, each with a number, an h3 title and a description."""
    return rx.el.ol(
        *[
            rx.el.li(
                rx.hstack(
                    rx.center(
                        rx.text(str(number), weight="bold", aria_hidden="true"),
                        width="2rem",
                        height="2rem",
                        border_radius="9999px",
                        flex_shrink="0",
                        background=rx.color("accent", 4),
                        color=rx.color("accent", 12),
                    ),
                    rx.vstack(
                        rx.heading(title, as_="h3", size="4"),
                        rx.text(text, color=MUTED),
                        spacing="1",
                    ),
                    spacing="3",
                    align="start",
                ),
            )
            for number, (title, text) in enumerate(steps, start=1)
        ],
        style={"display": "flex", "flexDirection": "column", "gap": "1.25rem", "listStyle": "none", "padding": 0},
    )


def feature_card(icon: str, title: str, text: str) -> rx.Component:
    """A card with a decorative icon, an h3 title and a description."""
    return rx.card(
        rx.vstack(
            rx.icon(icon, size=28, color=rx.color("accent", 11), aria_hidden="true"),
            rx.heading(title, as_="h3", size="4"),
            rx.text(text, color=MUTED),
            spacing="2",
        ),
        size="2",
        width="100%",
    )


def card_grid(*cards: rx.Component, columns: int = 3) -> rx.Component:
    """A responsive grid: one column on phones, two on tablets, `columns` from 768 px."""
    return rx.grid(
        *cards,
        columns=rx.breakpoints(initial="1", sm=str(min(columns, 2)), md=str(columns)),
        spacing="4",
        width="100%",
    )


def legal_page(title: str, updated: str, intro: Sequence[Block], parts: Sequence[tuple[str, Sequence[Block]]]):
    """A legal text: h1, last-update line, introduction and numbered h2 sections.

    Args:
        title: The page's h1.
        updated: The date text after 'Última atualização:'.
        intro: Paragraphs before the first section.
        parts: (section title, its paragraphs and lists) in order; titles get their number.

    Returns:
        The page content, with a table of contents linking every section.
    """
    return rx.box(
        page_heading(title, f"Última atualização: {updated}"),
        *blocks(intro),
        rx.el.nav(
            rx.heading("Nesta página", as_="h2", size="4", margin_bottom="0.5rem"),
            rx.el.ol(
                *[
                    rx.el.li(rx.link(part_title, href=f"#secao-{number}"))
                    for number, (part_title, _) in enumerate(parts, start=1)
                ],
                style={"paddingLeft": "1.25rem", "lineHeight": "1.9", "listStyle": "decimal"},
            ),
            aria_label="Índice",
            style={
                "margin": "1.5rem 0",
                "padding": "1rem 1.25rem",
                "borderRadius": "var(--radius-3)",
                "background": rx.color("gray", 2),
                "border": f"1px solid {rx.color('gray', 5)}",
            },
        ),
        *[
            rx.el.section(
                rx.heading(
                    f"{number}. {part_title}",
                    as_="h2",
                    size="5",
                    id=f"secao-{number}",
                    margin_bottom="0.5rem",
                    scroll_margin_top="6rem",
                ),
                *blocks(content),
                style={"paddingTop": "1rem"},
            )
            for number, (part_title, content) in enumerate(parts, start=1)
        ],
        max_width="800px",
        width="100%",
        class_name="legal-text",
    )
