"""Issue 42, points 2-3 in the browser: a freelancer's cancellation frees the vaga, every screen says so.

A freelancer is hired for two vagas of a company on the free plan and cancels both from 'Meus Turnos'
(at phone size). The vaga starting in 10 hours is back in 'Aberta'; the one starting in 90 minutes
closed itself and 'Minhas Vagas' offers 'Reabrir vaga'. The company's overview and 'Contratações' read
'Cancelada pelo profissional' with no active hiring; the freelancer's counters count neither shift.
"""

import re
import uuid
from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import apply_and_get_hired, bar_job, my_shifts

SHOTS = Path("/tmp/lifecycle-shots")


def _cancel(freelancer: Page, title: str) -> None:
    card = my_shifts(freelancer, "freelancer", title)
    card.get_by_role("button", name="Cancelar turno").click()
    freelancer.get_by_role("dialog", name="Cancelar turno").get_by_role("button", name="Confirmar").click()
    expect(toast(freelancer, "Turno cancelado")).to_be_visible()


def test_a_freelancers_cancellation_reopens_the_vaga_and_every_count_reads_it(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Cancela {token}")
    far, near = f"Bar do congresso {token}", f"Bar do coquetel {token}"
    SHOTS.mkdir(exist_ok=True)
    far_id = bar_job(company_email, far, timedelta(hours=10))
    near_id = bar_job(company_email, near, timedelta(minutes=90))
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email, viewport={"width": 375, "height": 812})
    try:
        apply_and_get_hired(freelancer, company, far_id, far, freelancer_email)
        apply_and_get_hired(freelancer, company, near_id, near, freelancer_email)
        company.goto("/client-dashboard")
        expect(company.locator("#stat-active-hirings")).to_have_text("2")

        _cancel(freelancer, far)
        _cancel(freelancer, near)

        # The company: no active hiring, each row reads the cancellation (overview and 'Contratações').
        company.goto("/client-dashboard")
        expect(company.locator("#stat-active-hirings")).to_have_text("0")
        expect(company.get_by_text("Cancelada pelo profissional").locator("visible=true")).to_have_count(2)
        expect(company.get_by_text("Confirmado", exact=True).locator("visible=true")).to_have_count(0)
        company.screenshot(path=SHOTS / "company-overview-1280.png", full_page=True)
        company.goto("/client-dashboard?tab=hirings")
        expect(company.get_by_text("Cancelada pelo profissional").locator("visible=true")).to_have_count(2)

        # The far vaga is open again; the near one closed itself and offers 'Reabrir vaga'.
        company.goto("/client-dashboard?tab=jobs")
        expect(company.locator(f"#job-row-{far_id}")).to_contain_text("Aberta")
        expect(company.get_by_role("tab", name=re.compile(r"^Ativas \(1\)$"))).to_be_visible()
        company.get_by_role("tab", name=re.compile(r"^Encerradas \(1\)$")).click()
        near_row = company.locator(f"#job-row-{near_id}")
        expect(near_row).to_contain_text("Fechada")
        company.screenshot(path=SHOTS / "company-reopen-1280.png", full_page=True)
        near_row.get_by_role("button", name="Reabrir vaga").click()
        expect(toast(company, "Vaga reaberta")).to_be_visible()
        company.get_by_role("tab", name=re.compile(r"^Ativas \(2\)$")).click()
        expect(company.locator(f"#job-row-{near_id}")).to_contain_text("Aberta")

        # The freelancer: neither shift is active nor a finished job; each reads 'Cancelada por você'.
        freelancer.goto("/freelancer-dashboard")
        expect(freelancer.locator("#stat-active-applications")).to_have_text("0")
        expect(freelancer.locator("#stat-completed-jobs")).to_have_text("0")
        freelancer.goto("/freelancer-dashboard?tab=applications")
        cards = freelancer.locator(".application-card")
        expect(cards.filter(has_text="Cancelada por você").locator("visible=true")).to_have_count(2)
        freelancer.screenshot(path=SHOTS / "freelancer-applications-375.png", full_page=True)
        company.set_viewport_size({"width": 375, "height": 812})
        company.goto("/client-dashboard?tab=hirings")
        expect(company.get_by_text("Cancelada pelo profissional").locator("visible=true")).to_have_count(2)
        company.screenshot(path=SHOTS / "company-hirings-375.png", full_page=True)
    finally:
        company_ctx.close()
        freelancer_ctx.close()
