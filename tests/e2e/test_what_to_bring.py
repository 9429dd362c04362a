"""'Traje e o que levar' in browsers: the company says it when publishing, and every freelancer reads it.

The company types it in 'Publicar Nova Vaga'; the vaga's page (and its first HTML, before any script)
shows it; a freelancer reads it again in the apply box, and once hired on the shift card.
"""

import uuid
from datetime import timedelta

import httpx
from playwright.sync_api import Browser, Page, expect
from sqlmodel import select

from core.catalog import BRING_LABEL
from core.db import session_scope
from models import Job, User
from services.shifts import application_answers, applications
from tests.e2e.conftest import login, signed_in, toast
from tests.support.shift_support import bar_job, fill_shift, my_shifts

ATTIRE = "Camisa social branca, calça preta, sapato preto fechado"


def _company_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def test_a_published_vaga_says_what_to_wear_on_its_page_and_its_first_paint(page: Page, base_url: str, make_account):
    email = make_account("client")
    title = f"Garçom de gala {uuid.uuid4().hex[:6]}"
    login(page, email)
    page.goto("/client-dashboard?tab=jobs")
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    dialog.get_by_label("Título da vaga").fill(title)
    dialog.get_by_label("Categoria").select_option(label="Eventos")
    dialog.get_by_label("Descrição").fill("Serviço à francesa para 80 convidados.")
    dialog.get_by_label("Localização").fill("São Paulo, SP")
    fill_shift(dialog, days=4, hour=19, hours=6)
    field = dialog.get_by_label(BRING_LABEL)
    expect(field).to_have_attribute("placeholder", "Ex.: camisa preta, calça social, sapato fechado")
    field.fill(ATTIRE)
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    with session_scope() as db:
        job = db.exec(select(Job).where(Job.cliente_id == _company_id(email))).one()
    assert job.o_que_levar == ATTIRE

    page.goto(f"/jobs/{job.id}")
    expect(page.locator("#job-bring")).to_contain_text(BRING_LABEL)
    expect(page.locator("#job-bring")).to_contain_text(ATTIRE)
    first_html = httpx.get(f"{base_url}/jobs/{job.id}").text
    assert f"<dt>{BRING_LABEL}</dt><dd>{ATTIRE}</dd>" in first_html


def test_a_freelancer_reads_it_before_applying_and_on_the_shift_card(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Bartender de gala {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Drinks {token}")
    job_id = bar_job(company_email, title, timedelta(days=2), o_que_levar=ATTIRE)
    context, freelancer = signed_in(browser, base_url, freelancer_email)
    try:
        freelancer.goto(f"/jobs/{job_id}")
        expect(freelancer.locator("#detail-apply-bring")).to_contain_text(f"{BRING_LABEL}: {ATTIRE}")

        with session_scope() as db:
            freelancer_id = db.exec(select(User.id).where(User.email == freelancer_email)).one()
            application_id = applications.apply(db, freelancer_id, "freelancer", job_id, {})
            db.commit()
            application_answers.accept(db, _company_id(company_email), application_id)

        card = my_shifts(freelancer, "freelancer", title)
        expect(card.locator(".shift-bring")).to_have_text(f"{BRING_LABEL}: {ATTIRE}")
    finally:
        context.close()
