"""Subscription plan cards and their buttons, shared by /pricing and the company dashboard's Planos tab.

For a page or tab, use `plans_grid()` (the three cards with the viewer's buttons), then
`subscription_panel()` (plan status, 'Gerenciar assinatura', notices) and `plan_conditions()`,
and run `BillingState.load_subscription` when it opens.
"""

import reflex as rx

from components.content import check_list
from components.links import link_button
from core import routes
from core.catalog import PLAN_CONDITIONS, PLANS, Plan
from core.formatting import money
from models import Role
from states.auth import AuthState
from states.billing import PORTAL, BillingState

POPULAR = "Mais Popular"
CURRENT = "Plano atual"
LOADING = "Carregando..."
MANAGE = "Gerenciar assinatura"


def plan_price(plan: Plan) -> tuple[str, str]:
    """The price and its period as shown: ('R$ 0', 'para sempre') or ('R$ 59,90', '/mês')."""
    if plan.is_free:
        return "R$ 0", "para sempre"
    return money(plan.price), "/mês"


def _border(plan: Plan, current: rx.Var | bool) -> rx.Var | str:
    accent = f"2px solid {rx.color('accent', 9)}"
    resting = accent if plan.highlighted else f"1px solid {rx.color('gray', 5)}"
    if isinstance(current, bool):
        return accent if current else resting
    return rx.cond(current, f"2px solid {rx.color('grass', 9)}", resting)


def _current_badge(plan: Plan, current: rx.Var | bool) -> rx.Component:
    badge = rx.badge(CURRENT, size="2", color_scheme="grass", variant="soft", id=f"plano-{plan.slug}-atual")
    if isinstance(current, bool):
        return badge if current else rx.fragment()
    return rx.cond(current, badge)


def plan_card(plan: Plan, action: rx.Component, current: rx.Var | bool = False) -> rx.Component:
    """A plan's card: name (h3), price, tagline, features and the action button.

    Args:
        plan: The plan from core.catalog.PLANS.
        action: The call to action (a link or button) placed at the bottom.
        current: Whether this is the viewer's plan (a Var for state-driven pages); marks the card
            with a 'Plano atual' badge and border.

    Returns:
        The card, highlighted and marked 'Mais Popular' for the featured plan.
    """
    price, period = plan_price(plan)
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(plan.name, as_="h3", size="6", id=f"plano-{plan.slug}"),
                rx.hstack(
                    _current_badge(plan, current),
                    rx.badge(POPULAR, size="2", variant="solid", high_contrast=True)
                    if plan.highlighted
                    else rx.fragment(),
                    spacing="2",
                    wrap="wrap",
                ),
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
        style={"border": _border(plan, current)},
    )


def _button(label: rx.Var | str, plan: Plan, **props) -> rx.Component:
    props.setdefault("variant", "solid" if plan.highlighted else "outline")
    return rx.button(label, size="3", width="100%", id=f"plano-{plan.slug}-acao", **props)


def _portal_button(label: str, plan: Plan) -> rx.Component:
    return _button(
        rx.cond(BillingState.loading_plan == PORTAL, LOADING, label),
        plan,
        on_click=BillingState.open_portal,
        disabled=BillingState.loading_plan != "",
        variant="outline",
    )


def _company_action(plan: Plan) -> rx.Component:
    """A company's button: its plan is marked; paid plans start checkout, or the portal when subscribed."""
    is_current = BillingState.current_plan_slug == plan.slug
    current = _button(CURRENT, plan, disabled=True, variant="soft")
    if plan.is_free:
        other = _portal_button("Mudar para o Gratuito", plan)
    else:
        other = rx.cond(
            BillingState.has_live_subscription,
            _portal_button("Mudar de plano", plan),
            _button(
                rx.cond(BillingState.loading_plan == plan.slug, LOADING, f"Assinar {plan.name}"),
                plan,
                on_click=BillingState.start_checkout(plan.slug),
                disabled=BillingState.loading_plan != "",
            ),
        )
    if plan.is_free:
        return rx.cond(is_current, current, rx.cond(BillingState.has_live_subscription, other, rx.fragment()))
    return rx.cond(is_current, current, other)


def plan_action(plan: Plan) -> rx.Component:
    """The plan's button for whoever is looking.

    Visitors register as a company first; a signed-in company subscribes (Stripe Checkout) or
    manages its subscription (portal); freelancers see that plans are for companies.
    """
    visitor_label = "Começar grátis" if plan.is_free else f"Assinar {plan.name}"
    return rx.cond(
        AuthState.signed_in,
        rx.cond(
            AuthState.user_role == Role.CLIENT,
            _company_action(plan),
            _button("Exclusivo para empresas", plan, disabled=True, variant="soft"),
        ),
        link_button(
            visitor_label,
            href=routes.register(Role.CLIENT),
            variant="solid" if plan.highlighted else "outline",
            width="100%",
            link_id=f"plano-{plan.slug}-acao",
        ),
    )


def plans_grid() -> rx.Component:
    """The three plan cards with the viewer's buttons, the company's plan marked."""
    is_company = AuthState.signed_in & (AuthState.user_role == Role.CLIENT)
    return rx.grid(
        *[
            plan_card(plan, plan_action(plan), current=is_company & (BillingState.current_plan_slug == plan.slug))
            for plan in PLANS
        ],
        columns=rx.breakpoints(initial="1", md="3"),
        spacing="5",
        width="100%",
        align="stretch",
    )


def subscription_panel() -> rx.Component:
    """For a signed-in company: its plan's status, payment notices and 'Gerenciar assinatura'."""
    has_news = (
        ~BillingState.payments_configured
        | (BillingState.subscription_notice != "")
        | BillingState.subscribed
        | BillingState.can_manage
    )
    return rx.cond(
        AuthState.signed_in & (AuthState.user_role == Role.CLIENT) & BillingState.billing_loaded & has_news,
        rx.vstack(
            rx.cond(
                ~BillingState.payments_configured,
                rx.callout(
                    "Os pagamentos ainda não estão configurados neste ambiente: por enquanto, não é possível "
                    "assinar um plano pago.",
                    icon="info",
                    color_scheme="amber",
                    width="100%",
                ),
            ),
            rx.cond(
                BillingState.subscription_notice != "",
                rx.callout(BillingState.subscription_notice, icon="triangle-alert", color_scheme="red", width="100%"),
            ),
            rx.cond(
                BillingState.subscribed | BillingState.can_manage,
                rx.card(
                    rx.flex(
                        rx.vstack(
                            rx.text("Sua assinatura", weight="bold"),
                            rx.text(
                                rx.cond(
                                    BillingState.subscribed,
                                    BillingState.current_plan_name + " · " + BillingState.subscription_end,
                                    "Plano Gratuito",
                                ),
                                color=rx.color("gray", 11),
                                id="assinatura-status",
                            ),
                            spacing="1",
                        ),
                        rx.cond(
                            BillingState.can_manage,
                            rx.button(
                                rx.cond(BillingState.loading_plan == PORTAL, LOADING, MANAGE),
                                on_click=BillingState.open_portal,
                                disabled=BillingState.loading_plan != "",
                                variant="outline",
                                size="3",
                                id="gerenciar-assinatura",
                            ),
                        ),
                        direction=rx.breakpoints(initial="column", sm="row"),
                        justify="between",
                        align=rx.breakpoints(initial="stretch", sm="center"),
                        gap="3",
                        width="100%",
                    ),
                    size="3",
                    width="100%",
                ),
            ),
            spacing="3",
            width="100%",
            margin_bottom="1rem",
        ),
    )


def plan_conditions() -> rx.Component:
    """The general conditions of the paid plans (docs/product/money.md §9)."""
    return check_list(PLAN_CONDITIONS)
