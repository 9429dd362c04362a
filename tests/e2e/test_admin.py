"""Turno staff's back office in the browser: a contested absence decided with a reason both sides read.

The dispute is built in the database through the services (accept, then 'Não compareceu' and
'Contestar' with explicit times); the staff account comes from scripts.create_admin's function.
Everything after that is what staff and the freelancer click and see.
"""

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Hiring, ReviewRequest, User
from scripts.create_admin import create_admin
from services.shifts import application_answers, shifts
from tests.e2e.conftest import login, toast, unique_email
from tests.support.factories import make_application, make_job

STAFF_PASSWORD = "Equipe2026"
CONTEST = "Cheguei às 18h e a supervisora me mandou esperar na portaria."
DECISION = "As mensagens mostram que o profissional estava no local."


def _person(browser: Browser, base_url: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, locale="pt-BR")
    return context, context.new_page()


def _contested_absence(company_email: str, freelancer_email: str, title: str) -> int:
    """A hiring the company marked 'Não compareceu' and the freelancer contested; returns the request id."""
    start = (utcnow() + timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
    with session_scope() as db:
        company = db.exec(select(User).where(User.email == company_email)).one()
        freelancer = db.exec(select(User).where(User.email == freelancer_email)).one()
        job = make_job(db, company, title, inicio_em=start)
        application = make_application(db, job, freelancer)
        application_answers.accept(db, company.id, application.id)
        hiring = db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()
        shifts.act(db, company.id, company.role, hiring.id, "nao_compareceu", {}, start + timedelta(hours=1))
        shifts.act(
            db,
            freelancer.id,
            freelancer.role,
            hiring.id,
            "contestar_falta",
            {"reason": CONTEST},
            start + timedelta(hours=2),
        )
        return db.exec(select(ReviewRequest.id).where(ReviewRequest.hiring_id == hiring.id)).one()


def test_staff_decides_a_contested_absence_and_the_freelancer_reads_the_reason(
    browser: Browser, base_url, make_account
):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom para jantar {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Caio Souza {token}")
    request_id = _contested_absence(company_email, freelancer_email, title)
    staff_email = unique_email("staff")
    with session_scope() as db:
        create_admin(db, staff_email, STAFF_PASSWORD)

    staff_ctx, staff = _person(browser, base_url)
    freelancer_ctx, freelancer = _person(browser, base_url)
    try:
        # Staff signs in and lands on the back office, with the dispute and its evidence.
        staff.goto("/login")
        form = staff.locator("#login-form")
        form.get_by_label("Email").fill(staff_email)
        form.get_by_label("Senha").fill(STAFF_PASSWORD)
        form.get_by_role("button", name="Entrar").click()
        staff.wait_for_url(re.compile(r"/admin/?$"))
        expect(staff.get_by_role("heading", name="Equipe Turno", level=1)).to_be_visible()
        card = staff.locator(f"#review-{request_id}")
        expect(card).to_be_visible()
        expect(card.get_by_text("Contestação de ausência")).to_be_visible()
        expect(card.get_by_role("heading", name=title)).to_be_visible()
        expect(card).to_contain_text(f"Profissional: Caio Souza {token}")
        timeline = card.locator(".admin-timeline li")
        expect(timeline).to_have_count(3)
        expect(timeline.nth(0)).to_contain_text("Empresa · Candidatura aceita")
        expect(timeline.nth(1)).to_contain_text("Empresa · Não compareceu (Agendado → Não compareceu)")
        expect(timeline.nth(2)).to_contain_text("Profissional · Ausência contestada (Não compareceu → Em disputa)")
        expect(timeline.nth(2)).to_contain_text(CONTEST)
        expect(card.locator(".admin-messages")).to_contain_text("foi aceita")

        # Nothing chosen: the form says what is missing (issue 42: it did nothing).
        card.get_by_role("button", name="Registrar decisão").click()
        expect(card.get_by_role("alert")).to_have_text(
            "Escolha a decisão. Explique o motivo com pelo menos 10 caracteres."
        )
        card.get_by_role("button", name="Registrar decisão").scroll_into_view_if_needed()
        staff.screenshot(path="/tmp/dialogs-admin-1280.png")

        # A short reason is refused under the form; a real one decides, and the item moves to the decided list.
        card.get_by_label("Aprovar horas").check()
        card.get_by_label("Motivo da decisão").fill("curto")
        card.get_by_role("button", name="Registrar decisão").click()
        expect(card.get_by_role("alert")).to_have_text("Explique o motivo com pelo menos 10 caracteres.")
        card.get_by_label("Motivo da decisão").fill(DECISION)
        card.get_by_role("button", name="Registrar decisão").click()
        expect(toast(staff, "Decisão registrada")).to_be_visible()
        expect(staff.locator(f"#review-{request_id}")).to_have_count(0)
        decided = staff.locator("#decided")
        expect(decided.get_by_role("row").filter(has_text=title)).to_contain_text("Horas aprovadas")
        expect(decided.get_by_role("row").filter(has_text=title)).to_contain_text(DECISION)

        # The freelancer reads the decision and its reason, and the back office stays closed to them.
        login(freelancer, freelancer_email)
        freelancer.goto("/freelancer-dashboard?tab=notifications")
        notice = f'A equipe Turno decidiu a disputa do turno "{title}": horas aprovadas. Motivo: {DECISION}'
        expect(freelancer.get_by_text(notice).first).to_be_visible()
        # Their shift card shows the decided hours and the decision's reason (issue 42 point 10).
        freelancer.set_viewport_size({"width": 375, "height": 812})
        freelancer.goto("/freelancer-dashboard?tab=shifts")
        shift = freelancer.locator(".shift-card").filter(has_text=title).first
        expect(shift.locator(".shift-decision")).to_have_text(
            re.compile(rf"^Decisão da equipe Turno: \d+h\d\d aprovadas\. Motivo: {DECISION}$")
        )
        expect(shift).not_to_contain_text("Ajuste proposto")
        shift.screenshot(path="/tmp/dialogs-decision-375.png")
        freelancer.goto("/admin")
        freelancer.wait_for_url(re.compile(r"/freelancer-dashboard"))
        expect(toast(freelancer, "Acesso Restrito")).to_be_visible()
        expect(freelancer.get_by_text(CONTEST)).to_have_count(0)
        expect(freelancer.get_by_role("heading", name="Equipe Turno")).to_have_count(0)
    finally:
        staff_ctx.close()
        freelancer_ctx.close()
