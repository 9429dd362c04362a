"""The freelancer profile page (/freelancers/{id}) in the browser: reached from the applications dialog and
the conversation by the company the freelancer applied to, refused to everyone else."""

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Application, Profile
from services.jobs import company_jobs
from services.shifts import application_answers, applications, ratings
from tests.support.chat_support import JOB_FORM, account, hire, open_chat, person, user_id
from tests.support.shift_form import shift_fields

NOT_FOUND = "Perfil não encontrado"


def _application_id(job_id: int, freelancer_id: int) -> int:
    with session_scope() as db:
        return db.exec(
            select(Application.id).where(Application.vaga_id == job_id, Application.freelancer_id == freelancer_id)
        ).one()


def _rated_freelancer():
    """A hire whose freelancer has a complete profile and one 5-star review from a finished job."""
    pair = hire()
    company, freelancer = user_id(pair.company), user_id(pair.freelancer)
    with session_scope() as db:
        profile = db.get(Profile, freelancer)
        profile.habilidades = ["Drinks", "Coquetelaria", "Inglês"]
        profile.biografia = "Bartender há oito anos em eventos e hotéis."
        profile.telefone = "(11) 98888-7777"
        profile.website = "https://joaosilva.com.br"
        db.add(profile)
        done = company_jobs.create_job(  # another day: one shift at a time
            db, company, {**JOB_FORM, **shift_fields(days=5), "titulo": "Coquetel de lançamento"}
        )
        application = applications.apply(db, freelancer, "freelancer", done, {})
        application_answers.accept(db, company, application)
        company_jobs.close_job(db, company, done)
        ratings.rate(db, company, application, {"stars": 5, "comment": "Excelente profissional."})
    return pair, freelancer


def _expect_profile(page: Page, freelancer_id: int) -> None:
    expect(page).to_have_url(re.compile(rf"/freelancers/{freelancer_id}$"))
    expect(page).to_have_title(re.compile(r"^Perfil do Freelancer"))
    expect(page.get_by_role("heading", level=1, name="João Silva")).to_be_visible()
    expect(page.locator("#profile-profession")).to_have_text("Bartender")
    for skill in ("Drinks", "Coquetelaria", "Inglês"):
        expect(page.locator("#profile-skills").get_by_text(skill, exact=True)).to_be_visible()
    expect(page.locator("#profile-rating")).to_have_text("5,0 (1 avaliação)")
    review = page.locator(".profile-review").first
    expect(review).to_contain_text("Excelente profissional.")
    expect(review).to_contain_text("Empresa de Mariana Costa")
    expect(review).to_contain_text("Coquetel de lançamento")
    expect(review).to_contain_text(re.compile(r"\d{2}/\d{2}/\d{4}"))
    website = page.get_by_role("link", name="https://joaosilva.com.br")
    expect(website).to_have_attribute("href", "https://joaosilva.com.br")
    expect(website).to_have_attribute("rel", "noopener noreferrer nofollow")
    expect(website).to_have_attribute("target", "_blank")
    expect(page.get_by_text("98888-7777")).to_have_count(0)


def test_the_company_opens_the_profile_from_the_applications_dialog_and_the_conversation(browser, base_url):
    pair, freelancer_id = _rated_freelancer()
    context, page = person(browser, base_url, pair.company)
    try:
        page.goto("/client-dashboard?tab=jobs")
        page.locator(f"#job-row-{pair.job_id}").get_by_role("button", name="Ver candidaturas").click()
        dialog = page.get_by_role("dialog", name=JOB_FORM["titulo"])
        link = dialog.locator(f"#applicant-profile-link-{_application_id(pair.job_id, freelancer_id)}")
        expect(link).to_have_text("Ver perfil completo")
        link.click()
        _expect_profile(page, freelancer_id)
        applied = page.locator("#profile-applications")
        expect(applied).to_contain_text(JOB_FORM["titulo"])
        expect(applied).to_contain_text("Aceita")

        open_chat(page, "client", pair.chat_id)
        page.locator("#chat-other-profile").click()
        _expect_profile(page, freelancer_id)
    finally:
        context.close()


def test_another_company_typing_the_address_sees_perfil_nao_encontrado(browser, base_url):
    _, freelancer_id = _rated_freelancer()
    context, page = person(browser, base_url, account("client", "Rui Rival"))
    try:
        page.goto(f"/freelancers/{freelancer_id}")
        expect(page.get_by_role("heading", level=1, name=NOT_FOUND)).to_be_visible()
        expect(page.get_by_text("Este perfil não existe ou você não tem permissão para vê-lo.")).to_be_visible()
        expect(page.get_by_text("João Silva")).to_have_count(0)
        page.locator("#profile-not-found-back").click()
        expect(page).to_have_url(re.compile(r"/client-dashboard$"))

        page.goto("/freelancers/abc")
        expect(page.get_by_role("heading", level=1, name=NOT_FOUND)).to_be_visible()
    finally:
        context.close()


def test_the_freelancer_previews_their_own_profile_on_a_phone(browser, base_url):
    pair, freelancer_id = _rated_freelancer()
    context, page = person(browser, base_url, pair.freelancer, mobile=True)
    try:
        page.goto(f"/freelancers/{freelancer_id}")
        _expect_profile(page, freelancer_id)
        expect(page.locator("#profile-preview-note")).to_contain_text("prévia do seu perfil público")
        expect(page.locator("#profile-applications")).to_have_count(0)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375
    finally:
        context.close()


def test_a_visitor_is_sent_to_login_and_the_marketing_page_still_works(page: Page):
    page.goto("/freelancers/1")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Ffreelancers%2F1$"))
    page.goto("/freelancers")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_text(NOT_FOUND)).to_have_count(0)
