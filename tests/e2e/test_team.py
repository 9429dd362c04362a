"""'Minha equipe' in the browser, at phone size: add from a paid shift's card, see the tab, remove.

The paid shift is a fixture row (the steps that lead there have their own browser tests).
"""

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Application, Hiring, Job, User
from services import attendance_code
from tests.e2e.conftest import signed_in, toast


def _paid_shift(company_email: str, freelancer_email: str, title: str) -> None:
    with session_scope() as db:
        company = db.exec(select(User.id).where(User.email == company_email)).one()
        freelancer = db.exec(select(User.id).where(User.email == freelancer_email)).one()
        start = utcnow().replace(second=0, microsecond=0) - timedelta(days=2)
        job = Job(
            cliente_id=company,
            titulo=title,
            categoria="eventos",
            descricao="Atendimento em evento.",
            localizacao="São Paulo",
            inicio_em=start,
            fim_em=start + timedelta(hours=6),
            endereco="Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
            codigo_segredo=attendance_code.new_secret(),
        )
        db.add(job)
        db.flush()
        application = Application(vaga_id=job.id, freelancer_id=freelancer, status="accepted")
        db.add(application)
        db.flush()
        db.add(  # worked, approved and paid (a fixture row)
            Hiring(
                state="paga",
                application_id=application.id,
                job_id=job.id,
                company_id=company,
                freelancer_id=freelancer,
                inicio_em=start,
                fim_em=start + timedelta(hours=6),
                valor_hora_centavos=4000,
                minutos_aprovados=360,
                valor_centavos=24000,
                pago_em=start + timedelta(days=1),
                recebido_em=start + timedelta(days=1),
            )
        )


def test_a_company_adds_a_freelancer_to_its_team_and_removes_them_on_a_phone(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom de confiança {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Equipe {token}")
    _paid_shift(company_email, freelancer_email, title)
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
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        member.get_by_role("button", name="Remover da equipe").click()
        expect(toast(page, "Removido da equipe")).to_be_visible()
        expect(page.get_by_text("Sua equipe ainda está vazia")).to_be_visible()
    finally:
        context.close()
