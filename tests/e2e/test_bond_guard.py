"""The 'Termômetro de vínculo' in the applicants dialog, at phone size.

Two applicants to the same vaga: one worked 4 earlier weeks on the same weekday (this would be the
4th weekly rebook: yellow), the other 6 (this one is the 7th shift in 7 weeks: red). The red one is accepted only after
'Estou ciente e assumo a responsabilidade' is ticked; the refusal changes nothing.
"""

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from core.db import session_scope
from models import Application, Job, User
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import bar_job, past_shifts

PHONE = {"width": 375, "height": 812}
WEEK = timedelta(weeks=1)


def _user(db, email: str) -> int:
    return db.exec(select(User.id).where(User.email == email)).one()


def _weekly_history(company_email: str, freelancer_email: str, before, weeks: int) -> None:
    """`weeks` paid shifts of the pair, one a week on the weekday of `before`, the last a week before it."""
    past_shifts(company_email, freelancer_email, [before - WEEK * n for n in range(1, weeks + 1)], "Bartender")


def _apply(job_id: int, freelancer_email: str) -> None:
    with session_scope() as db:
        db.add(Application(vaga_id=job_id, freelancer_id=_user(db, freelancer_email)))


def test_yellow_warns_and_red_needs_the_acknowledgement_on_a_phone(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    fourth = make_account("freelancer", name=f"Ana Quarta {token}")
    seventh = make_account("freelancer", name=f"Beto Sétima {token}")
    title = f"Bartender de sábado {token}"
    job_id = bar_job(company_email, title, timedelta(days=3), vagas_disponiveis=2)
    with session_scope() as db:
        start = db.exec(select(Job.inicio_em).where(Job.id == job_id)).one()
    _weekly_history(company_email, fourth, start, 4)
    _weekly_history(company_email, seventh, start, 6)
    _apply(job_id, fourth)
    _apply(job_id, seventh)

    context, page = signed_in(browser, base_url, company_email, viewport=PHONE)
    try:
        page.goto("/client-dashboard?tab=jobs")
        page.locator(f"#job-card-{job_id}").get_by_role("button", name="Ver candidaturas").click()
        dialog = page.get_by_role("dialog", name=title)
        yellow = dialog.locator("[id^=application-]").filter(has_text=f"Ana Quarta {token}")
        red = dialog.locator("[id^=application-]").filter(has_text=f"Beto Sétima {token}")
        expect(yellow.locator(".bond-notice")).to_contain_text("Atenção ao vínculo")
        expect(yellow.locator(".bond-notice")).to_contain_text("Vocês trabalharam juntos em 5 das últimas 8 semanas")
        expect(yellow.get_by_text("Estou ciente e assumo a responsabilidade")).to_have_count(0)
        expect(red.locator(".bond-notice")).to_contain_text("Risco de vínculo empregatício")
        expect(red.get_by_role("link", name="Entenda o termômetro de vínculo")).to_have_attribute(
            "href", "/termometro-de-vinculo"
        )
        red.get_by_role("button", name="Aceitar").scroll_into_view_if_needed()
        page.screenshot(path="/tmp/shots/bond_red.png")  # the end of the red notice, the box and the buttons

        red.get_by_role("button", name="Aceitar").click()
        expect(toast(page, 'Marque "Estou ciente e assumo a responsabilidade" para continuar.')).to_be_visible()
        with session_scope() as db:
            statuses = db.exec(select(Application.status).where(Application.vaga_id == job_id)).all()
        assert sorted(statuses) == ["pending", "pending"]

        red.get_by_text("Estou ciente e assumo a responsabilidade").click()
        red.get_by_role("button", name="Aceitar").click()
        expect(toast(page, "Candidatura aceita")).to_be_visible()
        expect(red).to_contain_text("Aceita")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        page.goto("/termometro-de-vinculo")
        expect(page.get_by_role("heading", name="Termômetro de vínculo")).to_be_visible()
        expect(page.get_by_text("art. 452-A")).to_be_visible()
    finally:
        context.close()
