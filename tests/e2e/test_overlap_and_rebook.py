"""Issue 42 points 1 and 5 in the browser.

A company accepting an applicant who already holds an overlapping shift reads the held shift's time
(never the other company); 'Contratar novamente' on a paid card copies that card's own vaga, rate and
times, not the pair's latest (cancelled) shift. Seen at 1280 px and 375 px.
"""

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from core.db import session_scope
from core.formatting import local
from core.types import utcnow
from models import Application, Hiring, Job, User
from services.jobs import attendance_code
from services.shifts import application_answers
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import bar_job

PHONE = {"width": 375, "height": 812}


def _user_id(db, email: str) -> int:
    return db.exec(select(User.id).where(User.email == email)).one()


def test_accepting_an_applicant_with_an_overlapping_shift_names_its_time(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    other_company = make_account("client")
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Turno {token}")
    held = bar_job(other_company, f"Garçom almoço {token}", timedelta(days=4), hours=6)
    wanted = bar_job(company_email, f"Copa {token}", timedelta(days=4, minutes=15), hours=4)
    with session_scope() as db:
        freelancer = _user_id(db, freelancer_email)
        first = Application(vaga_id=held, freelancer_id=freelancer)
        db.add_all([first, Application(vaga_id=wanted, freelancer_id=freelancer)])
        db.flush()
        application_answers.accept(db, _user_id(db, other_company), first.id)
        start, end = db.exec(select(Hiring.inicio_em, Hiring.fim_em).where(Hiring.application_id == first.id)).one()
    message = (
        f"Este profissional já tem um turno das {local(start):%H:%M} às {local(end):%H:%M} em {local(start):%d/%m}."
    )

    context, page = signed_in(browser, base_url, company_email)
    try:
        page.goto("/client-dashboard?tab=jobs")
        expect(toast(page, "Login realizado")).to_have_count(0)  # the refusal is the one toast on screen
        page.locator(f"#job-row-{wanted}").get_by_role("button", name="Ver candidaturas").click()
        dialog = page.get_by_role("dialog", name=f"Copa {token}")
        dialog.get_by_role("button", name="Aceitar").click()
        expect(toast(page, message)).to_be_visible()
        expect(page.locator("[data-sonner-toast]").filter(has_text="Garçom almoço")).to_have_count(0)
        page.screenshot(path="/tmp/shots/overlap_refused_1280.png", animations="disabled")  # the toast landed
        expect(dialog).to_contain_text("Pendente")
        page.set_viewport_size(PHONE)
        page.reload()
        page.locator(f"#job-card-{wanted}").get_by_role("button", name="Ver candidaturas").click()
        page.get_by_role("dialog", name=f"Copa {token}").get_by_role("button", name="Aceitar").click()
        expect(toast(page, message)).to_be_visible()
        page.screenshot(path="/tmp/shots/overlap_refused_375.png", animations="disabled")
    finally:
        context.close()


def _shift(db, company: int, freelancer: int, title: str, start, hours: float, cents: int, state: str) -> None:
    job = Job(
        cliente_id=company,
        titulo=title,
        categoria="gastronomia",
        descricao="Atendimento no salão.",
        localizacao="São Paulo",
        inicio_em=start,
        fim_em=start + timedelta(hours=hours),
        endereco="Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
        codigo_segredo=attendance_code.new_secret(),
        status="closed",
        vaga_status="closed",
    )
    db.add(job)
    db.flush()
    application = Application(vaga_id=job.id, freelancer_id=freelancer, status="accepted")
    db.add(application)
    db.flush()
    db.add(
        Hiring(
            state=state,
            application_id=application.id,
            job_id=job.id,
            company_id=company,
            freelancer_id=freelancer,
            inicio_em=start,
            fim_em=start + timedelta(hours=hours),
            valor_hora_centavos=cents,
        )
    )


def test_contratar_novamente_on_the_paid_card_copies_that_card(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    lunch = f"Garçom para almoço de domingo {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Volta {token}")
    day = local(utcnow() - timedelta(days=3)).replace(second=0, microsecond=0)
    with session_scope() as db:
        company, freelancer = _user_id(db, company_email), _user_id(db, freelancer_email)
        _shift(db, company, freelancer, lunch, day.replace(hour=10, minute=57), 6, 3000, "paga")
        dinner_start = day.replace(hour=11, minute=12) + timedelta(days=1)  # later, and cancelled
        _shift(
            db, company, freelancer, f"Auxiliar de cozinha - jantar {token}", dinner_start, 4, 2200, "cancelada_empresa"
        )

    context, page = signed_in(browser, base_url, company_email)
    try:
        page.goto("/client-dashboard?tab=shifts")
        card = page.locator(".shift-card").filter(has_text=lunch).first
        card.get_by_role("button", name="Contratar novamente").click()
        dialog = page.get_by_role("dialog", name="Contratar novamente")
        expect(dialog).to_contain_text(lunch)
        expect(dialog).to_contain_text("R$ 30,00")
        expect(dialog).to_contain_text("10:57–16:57")
        expect(dialog.get_by_label("Início")).to_have_value("10:57")
        expect(dialog.get_by_label("Fim")).to_have_value("16:57")
        expect(dialog.get_by_label("Valor por hora (R$)")).to_have_value("30,00")
        expect(dialog).not_to_contain_text("Auxiliar de cozinha")
        page.screenshot(path="/tmp/shots/rebook_card_1280.png")
        page.keyboard.press("Escape")
        page.set_viewport_size(PHONE)
        page.reload()
        page.locator(".shift-card").filter(has_text=lunch).first.get_by_role(
            "button", name="Contratar novamente"
        ).click()
        dialog = page.get_by_role("dialog", name="Contratar novamente")
        expect(dialog.get_by_label("Valor por hora (R$)")).to_have_value("30,00")
        page.screenshot(path="/tmp/shots/rebook_card_375.png")
    finally:
        context.close()
