"""Plans and Stripe in the browser: checkout redirect, signed webhooks to the running app, plan limits.

The app under test talks to the fake Stripe of tests/support/fake_stripe.py (fixture `fake_stripe`,
wired through STRIPE_API_BASE in conftest.app_env); webhooks are signed with Stripe's scheme and
posted over HTTP to the running app.
"""

import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Subscription, User
from services.jobs import company_jobs, plans
from services.money import billing
from tests.e2e.conftest import login
from tests.support.fake_stripe import FakeStripe, event, invoice_failed, sign
from tests.support.shift_form import shift_fields
from tests.support.shift_support import fill_shift

JOB = {
    "titulo": "Garçom para evento",
    "categoria": "eventos",
    "descricao": "Atendimento em evento corporativo de fim de ano.",
    "localizacao": "São Paulo, SP",
    **shift_fields(),
}


def user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def publish(company_id: int) -> int:
    with session_scope() as db:
        return company_jobs.create_job(db, company_id, JOB)


def post_webhook(base_url: str, body: str, signature: str | None) -> int:
    """POST a webhook body to the running app; returns the HTTP status."""
    headers = {"Content-Type": "application/json", **({"Stripe-Signature": signature} if signature else {})}
    request = urllib.request.Request(f"{base_url}/api/stripe/webhook", data=body.encode(), headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def deliver(base_url: str, event_type: str, obj: dict, event_id: str | None = None) -> int:
    body = event(event_type, obj, event_id)
    return post_webhook(base_url, body, sign(body))


def subscription_row(company_id: int) -> Subscription | None:
    with session_scope() as db:
        return db.exec(select(Subscription).where(Subscription.user_id == company_id)).first()


def _publish_in_dashboard(page: Page, title: str):
    """Fill 'Publicar Nova Vaga' in the company dashboard and submit it; returns the dialog."""
    page.goto("/client-dashboard?tab=jobs")
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    dialog.get_by_label("Título da vaga").fill(title)
    dialog.get_by_label("Categoria").select_option(label="Eventos")
    dialog.get_by_label("Descrição").fill("Atendimento em evento corporativo de fim de ano.")
    dialog.get_by_label("Localização").fill("São Paulo, SP")
    fill_shift(dialog)
    dialog.get_by_role("button", name="Publicar Vaga").click()
    return dialog


def test_company_at_its_free_limit_upgrades_to_premium_and_publishes_again(
    page: Page, make_account, fake_stripe: FakeStripe, base_url: str
):
    email = make_account("client")
    company_id = user_id(email)
    publish(company_id)
    publish(company_id)

    login(page, email)
    dialog = _publish_in_dashboard(page, "Terceira vaga do plano gratuito")
    expect(dialog.locator("#publish-plan-limit")).to_contain_text("Seu plano Gratuito permite até 2 vagas ativas.")
    page.keyboard.press("Escape")

    page.goto("/client-dashboard?tab=plans")
    free_card = page.get_by_role("group", name="Gratuito", exact=True)
    expect(free_card.get_by_text("Plano atual").first).to_be_visible()
    premium = page.get_by_role("group", name="Premium", exact=True)
    expect(premium.get_by_text("Mais Popular")).to_be_visible()

    fake_stripe.delay_seconds = 1.0
    try:
        premium.get_by_role("button", name="Assinar Premium").click()
        expect(premium.get_by_role("button", name="Carregando...")).to_be_visible()
        page.wait_for_url(re.compile(re.escape(fake_stripe.url) + r"/c/pay/cs_test_\w+"))
    finally:
        fake_stripe.delay_seconds = 0.0
    expect(page.get_by_role("heading", name="Checkout de teste")).to_be_visible()

    session_id = page.url.rsplit("/", 1)[-1]
    sent = fake_stripe.checkout_sessions[session_id]
    assert (sent["mode"], sent["client_reference_id"], sent["customer_email"]) == (
        "subscription",
        str(company_id),
        email,
    )
    assert sent["success_url"] == f"{base_url}/client-dashboard?tab=plans&checkout=success"

    # Stripe sends the browser back before its webhook arrives; the open Planos tab waits for it.
    page.goto(sent["success_url"])
    expect(page.get_by_text("Checkout concluído")).to_be_visible()
    checkout, subscription = fake_stripe.complete_checkout(session_id)
    assert deliver(base_url, "checkout.session.completed", checkout) == 200
    assert deliver(base_url, "customer.subscription.created", subscription) == 200
    expect(page.get_by_text("Assinatura confirmada")).to_be_visible()
    expect(page.locator("#assinatura-status")).to_contain_text("Premium · Período de teste até")
    expect(page.get_by_role("group", name="Premium", exact=True).get_by_text("Plano atual").first).to_be_visible()
    with session_scope() as db:
        assert billing.check_subscription(db, company_id)["subscription_tier"] == "premium"

    dialog = _publish_in_dashboard(page, "Terceira vaga, agora no Premium")
    expect(page.get_by_text("Vaga criada com sucesso!")).to_be_visible()
    expect(page.get_by_role("tab", name="Ativas (3)")).to_be_visible()

    page.goto("/client-dashboard?tab=plans")
    page.locator("#gerenciar-assinatura").click()
    page.wait_for_url(re.compile(re.escape(fake_stripe.url) + r"/p/session/bps_test_\w+"))


def test_webhooks_to_the_running_app_are_verified_and_applied_once(make_account, fake_stripe: FakeStripe, base_url):
    email = make_account("client")
    company_id = user_id(email)
    with session_scope() as db:
        url = billing.create_checkout(db, company_id, "enterprise", base_url)
    checkout, subscription = fake_stripe.complete_checkout(url.rsplit("/", 1)[-1], status="active")

    body = event("checkout.session.completed", checkout)
    assert post_webhook(base_url, body, None) == 400
    assert post_webhook(base_url, body.replace('"mode": "subscription"', '"mode": "subscription" '), sign(body)) == 400
    assert subscription_row(company_id) is None

    assert deliver(base_url, "checkout.session.completed", checkout, "evt_test_e2e_upgrade") == 200
    assert subscription_row(company_id).tier == "enterprise"
    assert deliver(base_url, "invoice.payment_failed", invoice_failed(subscription)) == 200
    assert subscription_row(company_id).status == "past_due"
    assert deliver(base_url, "checkout.session.completed", checkout, "evt_test_e2e_upgrade") == 200
    assert subscription_row(company_id).status == "past_due"

    for _ in range(2):
        publish(company_id)
    with pytest.raises(plans.PlanLimitReached):
        publish(company_id)
    assert deliver(base_url, "customer.subscription.updated", {**subscription, "status": "active"}) == 200
    publish(company_id)

    assert deliver(base_url, "customer.subscription.deleted", {**subscription, "status": "canceled"}) == 200
    assert subscription_row(company_id).status == "canceled"
    with pytest.raises(plans.PlanLimitReached):
        publish(company_id)


def test_visitor_choosing_premium_is_sent_to_company_registration(page: Page):
    page.goto("/pricing")
    page.get_by_role("group", name="Premium", exact=True).get_by_role("link", name="Assinar Premium").click()
    page.wait_for_url("**/register?type=client")
    expect(page.locator("#company-form")).to_be_visible()


def test_freelancer_cannot_subscribe(page: Page, make_account, fake_stripe: FakeStripe):
    checkouts_before = len(fake_stripe.calls("/v1/checkout/sessions"))
    login(page, make_account("freelancer"))
    page.goto("/pricing")
    expect(page.get_by_text("Os planos são para empresas. Como freelancer")).to_be_visible()
    for name in ("Gratuito", "Premium", "Enterprise"):
        button = page.get_by_role("group", name=name, exact=True).get_by_role("button", name="Exclusivo para empresas")
        expect(button).to_be_disabled()
    assert len(fake_stripe.calls("/v1/checkout/sessions")) == checkouts_before
