"""Issue 42 point 14 in the browser: each side rates a paid shift from its card, once.

The company (1280 px) rates the freelancer from 'Turnos' with 'Avaliar profissional'; the freelancer
(375 px) rates the company from 'Meus Turnos' with 'Avaliar empresa'. Each card then reads 'Você
avaliou ★ N' and offers no second rating, also after a reload; the rating is tied to that shift's
application, as the 'Avaliar' of 'Contratações' and 'Minhas Candidaturas' is.
"""

import re
import uuid
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Application, Job, Rating
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import my_shifts, paid_shift

SHOTS = Path("/tmp/stale-shots")


def _rate_from_card(page: Page, card: Locator, button: str, stars: int, shot: str) -> None:
    card.get_by_role("button", name=button).click()
    dialog = page.get_by_role("dialog", name=re.compile("^Avaliar "))
    dialog.get_by_role("button", name=f"{stars} estrelas").click()
    page.screenshot(path=SHOTS / f"{shot}-dialog.png")
    dialog.get_by_role("button", name="Enviar avaliação").click()
    expect(toast(page, "Avaliação enviada!")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(card).to_contain_text(f"Você avaliou ★ {stars}")
    expect(card.get_by_role("button", name=button)).to_have_count(0)


def test_both_sides_rate_a_paid_shift_from_its_card_once(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom do almoço {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Caio Salão {token}")
    paid_shift(company_email, freelancer_email, title)
    SHOTS.mkdir(exist_ok=True)
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email, viewport={"width": 375, "height": 812})
    try:
        card = my_shifts(company, "client", title)
        expect(card.locator(".shift-state")).to_have_text("Pago")
        company.screenshot(path=SHOTS / "company-card-to-rate-1280.png", full_page=True)
        _rate_from_card(company, card, "Avaliar profissional", 4, "company-1280")
        company.screenshot(path=SHOTS / "company-card-rated-1280.png", full_page=True)

        card = my_shifts(freelancer, "freelancer", title)
        card.screenshot(path=SHOTS / "freelancer-card-to-rate-375.png")
        _rate_from_card(freelancer, card, "Avaliar empresa", 5, "freelancer-375")
        card.screenshot(path=SHOTS / "freelancer-card-rated-375.png")
        assert freelancer.evaluate("document.documentElement.scrollWidth") <= 375

        for page, role, button, stars in (
            (company, "client", "Avaliar profissional", 4),
            (freelancer, "freelancer", "Avaliar empresa", 5),
        ):
            card = my_shifts(page, role, title)
            expect(card).to_contain_text(f"Você avaliou ★ {stars}")
            expect(card.get_by_role("button", name=button)).to_have_count(0)
        with session_scope() as db:  # both ratings belong to this shift's application
            application_id = db.exec(
                select(Application.id).join(Job, Job.id == Application.vaga_id).where(Job.titulo == title)
            ).one()
            stars = db.exec(select(Rating.stars).where(Rating.application_id == application_id)).all()
        assert sorted(stars) == [4, 5]
    finally:
        company_ctx.close()
        freelancer_ctx.close()
