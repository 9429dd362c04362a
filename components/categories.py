"""Category link cards, shared by the home page and /categories."""

import reflex as rx

from core import routes

CATEGORY_ICONS = {
    "hotel": "hotel",
    "gastronomia": "chef-hat",
    "restaurante": "utensils",
    "eventos": "party-popper",
    "musica": "music",
    "fotografia": "camera",
    "design": "palette",
    "outros": "layout-grid",
}


def category_card(slug: str, label: str, description: str = "", heading_level: str = "") -> rx.Component:
    """A card linking to a category page (canonical slug).

    Args:
        slug: Canonical category slug.
        label: The category's label.
        description: Optional line under the label.
        heading_level: When set (e.g. 'h2'), the label is a heading of that level.

    Returns:
        The whole card as one link.
    """
    title = rx.heading(label, as_=heading_level, size="5") if heading_level else rx.text(label, weight="medium")
    return rx.link(
        rx.card(
            rx.vstack(
                rx.icon(
                    CATEGORY_ICONS.get(slug, "layout-grid"), size=28, color=rx.color("accent", 11), aria_hidden="true"
                ),
                title,
                rx.text(description, size="2", color=rx.color("gray", 11), text_align="center")
                if description
                else rx.fragment(),
                align="center",
                spacing="2",
            ),
            width="100%",
            height="100%",
            class_name="link-card",
        ),
        href=routes.category(slug),
        underline="none",
        color=rx.color("gray", 12),
        id=f"categoria-{slug}",
    )
