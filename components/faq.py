"""Frequently asked questions as native disclosure widgets (<details>/<summary>).

Native disclosures need no script, are announced as expandable by screen readers, open with
Enter or Space, and keep their answers in the page for search and for find-in-page.
"""

from collections.abc import Sequence

import reflex as rx

from components.content import section


def faq_item(question: str, answer: str) -> rx.Component:
    """One question (an h3 inside the summary) and its answer."""
    return rx.el.details(
        rx.el.summary(
            rx.heading(question, as_="h3", size="4", style={"display": "inline"}),
            class_name="faq-summary",
        ),
        rx.text(answer, as_="p", color=rx.color("gray", 11), line_height="1.7", padding="0 1rem 1rem"),
        class_name="faq-item",
    )


def faq(items: Sequence[tuple[str, str]], section_id: str = "perguntas") -> rx.Component:
    """A 'Perguntas frequentes' section with one disclosure per question.

    Args:
        items: (question, answer) pairs in order.
        section_id: Anchor id of the section.

    Returns:
        The FAQ section.
    """
    return section(
        "Perguntas frequentes",
        rx.vstack(*[faq_item(question, answer) for question, answer in items], spacing="3", width="100%"),
        section_id=section_id,
    )
