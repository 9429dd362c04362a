"""The signed-in company's plan, and the buttons that send it to Stripe Checkout or the customer portal.

Used by /pricing and by the company dashboard's Planos tab (components.plans). Wire it with
`BillingState.load_subscription` in the page's on_load (or when the tab opens): it also reads the
`?checkout=success|cancel` Stripe sends the browser back with.
"""

import asyncio
import logging

import reflex as rx

from core import routes
from core.db import session_scope
from core.settings import get_settings
from models import Role
from services.money import billing
from services.money.billing import BillingError, BillingOverview
from states.auth import AuthState
from states.failures import recovers

log = logging.getLogger(__name__)

PORTAL = "portal"
WATCH_ATTEMPTS = 20
WATCH_INTERVAL_SECONDS = 3
COMPANIES_ONLY_TITLE = "Os planos são para empresas"
COMPANIES_ONLY_TEXT = "Como freelancer, você usa a plataforma gratuitamente."


def _overview(user_id: int) -> BillingOverview:
    with session_scope() as db:
        return billing.overview(db, user_id)


def _checkout_url(user_id: int, plan: str) -> str:
    with session_scope() as db:
        return billing.create_checkout(db, user_id, plan, get_settings().site_url)


def _portal_url(user_id: int) -> str:
    with session_scope() as db:
        return billing.open_portal(db, user_id, get_settings().site_url)


class BillingState(AuthState):
    """Plan cards' data and actions; the company is always the one of the session cookie.

    Attributes:
        loading_plan: 'premium' or 'enterprise' while its checkout starts, 'portal' while the
            portal opens, '' when idle (the clicked button reads 'Carregando...').
        current_plan_slug: The plan in force for a signed-in company ('' for anyone else).
        current_plan_name: Its name ('Gratuito', 'Premium', 'Enterprise').
        subscribed: A paid plan is in force.
        subscription_end: 'Período de teste até dd/MM/yyyy' or 'Próxima cobrança em dd/MM/yyyy'.
        subscription_notice: A warning such as a failed payment ('' when none).
        can_manage: The company has a Stripe customer, so 'Gerenciar assinatura' is offered.
        has_live_subscription: A Stripe subscription that is not over exists (plan changes go
            through the portal instead of a second checkout).
        payments_configured: Stripe is configured on this server.
        billing_loaded: The company's plan has been read at least once.
    """

    loading_plan: str = ""
    current_plan_slug: str = ""
    current_plan_name: str = ""
    subscribed: bool = False
    subscription_end: str = ""
    subscription_notice: str = ""
    can_manage: bool = False
    has_live_subscription: bool = False
    payments_configured: bool = True
    billing_loaded: bool = False
    _watching: bool = False

    def _show(self, view: BillingOverview | None) -> None:
        self.current_plan_slug = view.plan_slug if view else ""
        self.current_plan_name = view.plan_name if view else ""
        self.subscribed = view.subscribed if view else False
        self.subscription_end = view.period_text if view else ""
        self.subscription_notice = view.notice if view else ""
        self.can_manage = view.can_manage if view else False
        self.has_live_subscription = view.live_subscription if view else False
        self.billing_loaded = view is not None

    @rx.event
    @recovers(billing.STATUS_FAILED, None)
    def load_subscription(self):
        """Read the signed-in company's plan from our records; react to a return from Checkout."""
        self.loading_plan = ""
        self.payments_configured = billing.payments_configured()
        user = self._caller(Role.CLIENT)
        if user is None:
            self._show(None)
            return None
        view = _overview(user.id)
        self._show(view)
        returned = self.router.url.query_parameters.get("checkout", "")
        if returned == "cancel":
            return rx.toast.info("Assinatura não concluída", description="O checkout foi cancelado e nada foi cobrado.")
        if returned == "success" and not view.subscribed:
            return [
                rx.toast.success(
                    "Checkout concluído",
                    description="Estamos confirmando sua assinatura; o plano aparece aqui em instantes.",
                ),
                BillingState.watch_checkout,
            ]
        return None

    @rx.event(background=True)
    async def watch_checkout(self):
        """After a successful checkout, re-read our records until Stripe's webhook has arrived."""
        async with self:
            if self._watching:
                return
            self._watching = True
        try:
            for _ in range(WATCH_ATTEMPTS):
                await asyncio.sleep(WATCH_INTERVAL_SECONDS)
                async with self:
                    user = self._current_user()
                if user is None or user.role != Role.CLIENT:
                    return
                view = await rx.run_in_thread(lambda user_id=user.id: _overview(user_id))
                async with self:
                    self._show(view)
                if view.subscribed:
                    yield rx.toast.success("Assinatura confirmada", description=view.period_text or None)
                    return
        except Exception:  # a background watcher: the page shows the plan at the next load anyway
            log.exception("watching a checkout failed")
        finally:
            async with self:
                self._watching = False

    def _refusal(self, user) -> list | None:
        """Send a visitor to sign up first and tell a freelancer that plans are for companies."""
        if user is None:
            self._deny("client only")
            return [rx.redirect(routes.register(Role.CLIENT))]
        if user.role != Role.CLIENT:
            self._deny("client only", user)
            return [rx.toast.info(COMPANIES_ONLY_TITLE, description=COMPANIES_ONLY_TEXT)]
        return None

    @rx.event
    @recovers(billing.CHECKOUT_ERROR, billing.CHECKOUT_FAILED, reset={"loading_plan": ""})
    async def start_checkout(self, plan: str):
        """Start Stripe Checkout for 'premium' or 'enterprise' and send the browser there.

        The redirect replaces this page (an absolute URL on another host is loaded with
        window.location); `is_external=True` would open a new tab, which pop-up blockers stop.
        """
        if self.loading_plan:
            return
        if not isinstance(plan, str) or plan not in billing.PAID_PLAN_SLUGS:
            yield rx.toast.error(billing.CHECKOUT_ERROR, description=billing.INVALID_PLAN)
            return
        user = self._current_user()
        refusal = self._refusal(user)
        if refusal:
            for event in refusal:
                yield event
            return
        self.loading_plan = plan
        yield
        try:
            url = await rx.run_in_thread(lambda: _checkout_url(user.id, plan))
        except BillingError as exc:
            self.loading_plan = ""
            yield rx.toast.error(exc.title, description=exc.message)
            return
        yield rx.redirect(url)

    @rx.event
    @recovers(billing.PORTAL_FAILED, billing.TRY_AGAIN, reset={"loading_plan": ""})
    async def open_portal(self):
        """'Gerenciar assinatura': open Stripe's customer portal for the company's customer."""
        if self.loading_plan:
            return
        user = self._current_user()
        refusal = self._refusal(user)
        if refusal:
            for event in refusal:
                yield event
            return
        self.loading_plan = PORTAL
        yield
        try:
            url = await rx.run_in_thread(lambda: _portal_url(user.id))
        except BillingError as exc:
            self.loading_plan = ""
            yield rx.toast.error(exc.title, description=exc.message)
            return
        yield rx.redirect(url)
