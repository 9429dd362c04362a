"""'Minha equipe' in the browser, at phone size: add from a paid shift's card, see the tab, remove; the
plan's limit links to /pricing, whose cards say each plan's team size.

The paid shift is a fixture row (the steps that lead there have their own browser tests).
"""

import uuid

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import paid_shift

TEAM_LINES = {  # each plan's card on /pricing
    "Gratuito": "Minha equipe: até 10 profissionais",
    "Premium": "Minha equipe: até 100 profissionais",
    "Enterprise": "Minha equipe: sem limite de profissionais",
}


def test_a_company_adds_a_freelancer_to_its_team_and_removes_them_on_a_phone(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom de confiança {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Equipe {token}")
    paid_shift(company_email, freelancer_email, title)
    context, page = signed_in(browser, base_url, company_email, viewport={"width": 375, "height": 812})
    try:
        page.goto("/client-dashboard?tab=team")
        expect(page.get_by_text("Sua equipe ainda está vazia")).to_be_visible()
        expect(page.locator("#team-size")).to_have_text("0 de 10 profissionais no plano Gratuito")

        page.goto("/client-dashboard?tab=shifts")
        card = page.locator(".shift-card").filter(has_text=title).first
        card.get_by_role("button", name="Adicionar à equipe").click()
        expect(toast(page, "Adicionado à equipe")).to_be_visible()
        expect(card.get_by_text("Na sua equipe")).to_be_visible()
        expect(card.get_by_role("button", name="Adicionar à equipe")).to_have_count(0)

        page.goto("/client-dashboard?tab=team")
        member = page.locator(".team-member").filter(has_text=f"Rita Equipe {token}")
        expect(member).to_contain_text("1 turno com a sua empresa")
        expect(page.locator("#team-size")).to_have_text("1 de 10 profissionais no plano Gratuito")
        plans = page.get_by_role("link", name="Ver planos")  # next to the size, before the team is full
        expect(plans).to_have_count(1)
        expect(plans).to_have_attribute("href", "/pricing")
        page.screenshot(path="/tmp/shots/team_size_phone.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        member.get_by_role("button", name="Remover da equipe").click()
        expect(toast(page, "Removido da equipe")).to_be_visible()
        expect(page.get_by_text("Sua equipe ainda está vazia")).to_be_visible()

        plans.click()
        expect(page).to_have_url(f"{base_url}/pricing")
        for plan, line in TEAM_LINES.items():
            expect(page.get_by_role("group", name=plan).get_by_text(line)).to_be_visible()
        page.screenshot(path="/tmp/shots/pricing_team_phone.png", full_page=True)
    finally:
        context.close()
