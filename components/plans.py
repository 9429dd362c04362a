"""Subscription plan cards, shared by /pricing and the company dashboard."""

import reflex as rx

from components.content import check_list
from core.catalog import PLAN_CONDITIONS, Plan
from core.formatting import money

POPULAR = "Mais Popular"


def plan_price(plan: Plan) -> tuple[str, str]:
    """The price and its period as shown: ('R$ 0', 'para sempre') or ('R$ 59,90', '/mês')."""
    if plan.is_free:
        return "R$ 0", "para sempre"
    return money(plan.price), "/mês"


def plan_card(plan: Plan, action: rx.Component) -> rx.Component:
    """A plan's card: name (h3), price, tagline, features and the action button.

    Args:
        plan: The plan from core.catalog.PLANS.
        action: The call to action (a link or button) placed at the bottom.

    Returns:
        The card, highlighted and marked 'Mais Popular' for the featured plan.
    """
    price, period = plan_price(plan)
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(plan.name, as_="h3", size="6", id=f"plano-{plan.slug}"),
                rx.badge(POPULAR, size="2", variant="solid", high_contrast=True) if plan.highlighted else rx.fragment(),
                justify="between",
                align="center",
                wrap="wrap",
                width="100%",
            ),
            rx.text(
                rx.text.span(price, size="8", weight="bold"),
                rx.text.span(f" {period}", size="3", color=rx.color("gray", 11)),
            ),
            rx.text(plan.tagline, color=rx.color("gray", 11)),
            rx.separator(size="4"),
            check_list(plan.features),
            rx.spacer(),
            action,
            spacing="4",
            height="100%",
            align="stretch",
        ),
        size="3",
        width="100%",
        aria_labelledby=f"plano-{plan.slug}",
        role="group",
        style={"border": f"2px solid {rx.color('accent', 9)}"} if plan.highlighted else {},
    )


def plan_conditions() -> rx.Component:
    """The general conditions of the paid plans (SPEC §9)."""
    return check_list(PLAN_CONDITIONS)
