"""Issue 42 point 11 in browsers at 375 px: 'Próximo turno' on top of both overviews, and tap targets.

A vaga starts in 30 minutes (check-in is open); the freelancer is hired through the screens. On a
phone-sized window the freelancer's overview puts the shift first, with when, where, pay, what to
bring, the company and one large 'Registrar chegada' that opens the check-in dialog right there; the
card then offers 'Registrar saída'. The company's overview offers 'Código de presença', whose code
fits its card. On the company's shift card the code is the primary action; every button and
action link of the cards and 'Minhas Vagas' is at least 44 px tall at 375 px.
"""

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import apply_and_get_hired, bar_job, my_shifts

PHONE = {"width": 375, "height": 812}
TAP = 44  # px: the smallest tap target at 375 px


def _height(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None, "not laid out"
    return box["height"]


def _fits_the_width(page: Page) -> None:
    """Nothing wider than the window (no sideways scrolling)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_next_shift_leads_both_overviews_with_one_large_button(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Bar do congresso {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Lia Coquetéis {token}")
    job_id = bar_job(company_email, title, timedelta(minutes=30), o_que_levar="Camisa preta e avental")
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email, viewport=PHONE)
    try:
        freelancer.goto("/freelancer-dashboard")
        expect(freelancer.get_by_role("heading", name="Visão Geral")).to_be_visible()
        expect(freelancer.locator("#next-shift")).to_have_count(0)  # nobody hired: no card

        apply_and_get_hired(freelancer, company, job_id, title, freelancer_email)  # the company at 1280 px
        company.set_viewport_size(PHONE)

        # The freelancer's overview: the shift first, what it needs, one large button.
        freelancer.goto("/freelancer-dashboard")
        card = freelancer.locator("#next-shift")
        expect(card).to_be_visible()
        expect(card.get_by_role("heading", name="Próximo turno")).to_be_visible()
        expect(card.locator(".next-shift-title")).to_have_text(title)
        expect(card).to_contain_text("Hoje")
        expect(card.locator(".next-shift-pay")).to_have_text("Pagamento: R$ 220,00 pelo turno")  # 5h30 x R$ 40
        expect(card).to_contain_text("Av. Paulista, 1578")
        expect(card.locator(".next-shift-bring")).to_have_text("Traje e o que levar: Camisa preta e avental")
        expect(card.locator(".next-shift-people")).to_have_text("Empresa: Empresa Teste")
        stats = freelancer.locator("#stat-active-applications")
        assert card.bounding_box()["y"] < stats.bounding_box()["y"]  # on top, before the counters
        button = card.get_by_role("button", name="Registrar chegada")
        expect(button).to_be_visible()
        assert _height(button) >= TAP and button.bounding_box()["width"] >= 0.7 * PHONE["width"]
        assert _height(card.get_by_role("link", name="Ver no mapa")) >= TAP
        _fits_the_width(freelancer)

        # The check-in dialog opens on the overview; the card moves on to the next step.
        button.click()
        dialog = freelancer.get_by_role("dialog", name="Registrar chegada")
        expect(dialog.locator(".shift-subject")).to_contain_text(title)
        dialog.get_by_role("button", name="Não consigo registrar").click()
        expect(toast(freelancer, "Chegada registrada")).to_be_visible()
        expect(card.get_by_role("button", name="Registrar saída")).to_be_visible()
        expect(card).to_contain_text("Em andamento")

        # The company's overview: who is coming, and 'Código de presença' as its large button.
        company.goto("/client-dashboard")
        company_card = company.locator("#next-shift")
        expect(company_card.locator(".next-shift-title")).to_have_text(title)
        expect(company_card.locator(".next-shift-people")).to_have_text(f"Profissional: Lia Coquetéis {token}")
        code_link = company_card.get_by_role("link", name="Código de presença")
        assert _height(code_link) >= TAP
        _fits_the_width(company)
        code_link.click()
        expect(company).to_have_url(re.compile(rf"/client-dashboard/presenca/{job_id}$"))
        code = company.locator("#attendance-code")
        expect(code).to_have_text(re.compile(r"^\d{6}$"))
        fits = code.evaluate(
            "el => { const card = el.closest('.rt-Card').getBoundingClientRect(); const r = el.getBoundingClientRect();"
            " return r.left >= card.left && r.right <= card.right && el.scrollWidth <= el.clientWidth + 1; }"
        )
        assert fits, "the attendance code overflows its card at 375 px"
        _fits_the_width(company)
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_the_companys_shift_card_leads_with_the_code_and_every_tap_target_is_44_px(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom do coquetel {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rui Bandeja {token}")
    job_id = bar_job(company_email, title, timedelta(hours=20))
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email, viewport=PHONE)
    try:
        apply_and_get_hired(freelancer, company, job_id, title, freelancer_email)  # the company at 1280 px
        company.set_viewport_size(PHONE)

        card = my_shifts(company, "client", title)
        buttons = card.locator("a.rt-BaseButton, button.rt-BaseButton")
        first = buttons.first
        expect(first).to_have_text("Código de presença")
        expect(first).to_have_class(re.compile(r"rt-variant-solid"))
        cancel = card.get_by_role("button", name="Cancelar turno")
        expect(cancel).to_have_class(re.compile(r"rt-variant-soft"))
        for target in (
            first,
            cancel,
            card.get_by_role("link", name="Abrir conversa"),
            card.get_by_role("link", name="Ver no mapa"),
        ):
            assert _height(target) >= TAP, target
        _fits_the_width(company)

        mine = my_shifts(freelancer, "freelancer", title)
        for target in (mine.get_by_role("link", name="Abrir conversa"), mine.get_by_role("link", name="Ver no mapa")):
            assert _height(target) >= TAP, target

        company.goto("/client-dashboard?tab=jobs")
        for key in ("applications", "archive", "duplicate", "delete"):  # the phone's cards, not the table
            target = company.locator(f"#{key}-{job_id}-card")
            expect(target).to_be_visible()
            assert _height(target) >= TAP, key
        _fits_the_width(company)
    finally:
        company_ctx.close()
        freelancer_ctx.close()
