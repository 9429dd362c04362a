"""What a new person sees first, and the words they read (issue 42 points 7, 12 and 13).

The home shows no invented figures and keeps 'Cadastrar' in a phone's first screen; the mobile
menu closes after a link; the header's city picker says what it is; a refused publish shows its
message where the person is looking; the publish form starts from the company profile and
'Possui intervalo' follows the break; the job list's pay column is the hourly value.
"""

import re

from playwright.sync_api import Browser, Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Profile, User
from services.jobs import company_jobs
from tests.e2e.conftest import login
from tests.support.shift_form import shift_fields
from tests.support.shift_support import fill_shift

PHONE = {"width": 375, "height": 667}
ADDRESS = "Rua Augusta, 1500 - Consolação, São Paulo - SP"


def _company(email: str, address: str = "") -> int:
    with session_scope() as db:
        user_id = db.exec(select(User.id).where(User.email == email)).one()
        if address:
            profile = db.get(Profile, user_id)
            profile.endereco = address
            db.add(profile)
    return user_id


def _publish(company_id: int, title: str) -> int:
    with session_scope() as db:
        return company_jobs.create_job(
            db,
            company_id,
            {
                "titulo": title,
                "categoria": "eventos",
                "descricao": "Atendimento em evento corporativo de fim de ano.",
                "localizacao": "São Paulo, SP",
                "valor_hora": "30,00",
                **shift_fields(),
            },
        )


def _phone(browser: Browser, base_url: str) -> Page:
    context = browser.new_context(base_url=base_url, viewport=PHONE, locale="pt-BR", is_mobile=True, has_touch=True)
    return context.new_page()


def test_the_home_tells_no_invented_figures_and_cadastrar_is_in_a_phones_first_screen(browser: Browser, base_url):
    page = _phone(browser, base_url)
    try:
        page.goto("/")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        expect(page.get_by_text("5.000+")).to_have_count(0)
        expect(page.get_by_text("2.000+")).to_have_count(0)
        signup = page.locator("#mobile-signup")
        expect(signup).to_have_text("Cadastrar")
        expect(signup).to_be_in_viewport()
        signup.click()
        expect(page).to_have_url(re.compile(r"/register/?$"))
    finally:
        page.context.close()


def test_the_mobile_menu_closes_after_following_a_link(mobile_page: Page):
    page = mobile_page
    page.goto("/about")
    page.get_by_role("button", name="Abrir menu").click()
    menu = page.locator("#mobile-menu")
    expect(menu.get_by_label("Sua cidade")).to_be_visible()
    menu.get_by_role("link", name="Vagas").click()
    expect(page).to_have_url(re.compile(r"/jobs/?$"))
    expect(page.get_by_role("heading", name="Vagas disponíveis")).to_be_visible()
    expect(page.locator("#mobile-menu")).to_have_count(0)


def test_the_header_city_picker_says_sua_cidade_and_the_list_says_valor_por_hora(page: Page, make_account):
    _publish(_company(make_account("client")), "Garçom para coquetel")
    page.goto("/jobs")
    picker = page.get_by_label("Sua cidade")
    expect(picker).to_be_visible()
    expect(picker).to_have_value("")
    expect(page.get_by_role("columnheader", name="Valor por hora")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Salário")).to_have_count(0)


def test_a_plan_limit_refusal_is_in_view_on_a_phone(browser: Browser, base_url, make_account):
    email = make_account("client")
    company = _company(email)
    _publish(company, "Primeira vaga")
    _publish(company, "Segunda vaga")
    page = _phone(browser, base_url)
    try:
        login(page, email)
        page.goto("/client-dashboard?tab=jobs")
        expect(page.get_by_role("heading", name="Minhas Vagas")).to_be_visible()
        page.locator("#publish-job").click()
        dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
        dialog.get_by_label("Título da vaga").fill("Terceira vaga")
        dialog.get_by_label("Categoria").select_option(label="Hotelaria")
        dialog.get_by_label("Descrição").fill("Camareira para alta temporada de verão.")
        fill_shift(dialog)
        submit = dialog.get_by_role("button", name="Publicar Vaga")
        submit.scroll_into_view_if_needed()
        submit.click()

        limit = dialog.locator("#publish-plan-limit")
        expect(limit).to_contain_text("Seu plano Gratuito permite até 2 vagas ativas.")
        expect(limit).to_be_in_viewport()
        expect(limit).to_be_focused()
    finally:
        page.context.close()


def test_a_field_error_is_scrolled_to_and_its_field_focused(browser: Browser, base_url, make_account):
    email = make_account("client")
    page = _phone(browser, base_url)
    try:
        login(page, email)
        page.goto("/client-dashboard?tab=jobs")
        page.locator("#publish-job").click()
        dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
        submit = dialog.get_by_role("button", name="Publicar Vaga")
        submit.scroll_into_view_if_needed()
        submit.click()

        expect(dialog.locator("#job-titulo-error")).to_be_in_viewport()
        expect(dialog.get_by_label("Título da vaga")).to_be_focused()
    finally:
        page.context.close()


def test_publishing_starts_from_the_company_profile_and_possui_intervalo_follows_the_break(page: Page, make_account):
    email = make_account("client")
    _company(email, ADDRESS)
    login(page, email)
    page.goto("/client-dashboard?tab=jobs")
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")

    expect(dialog.get_by_label("Localização")).to_have_value("São Paulo, SP")
    expect(dialog.get_by_label("Endereço do turno")).to_have_value(ADDRESS)

    minutes = dialog.get_by_label("Intervalo (minutos, não remunerado)")
    has_break = dialog.get_by_role("checkbox", name="Possui intervalo")
    expect(has_break).not_to_be_checked()
    minutes.fill("30")
    expect(has_break).to_be_checked()
    minutes.fill("0")
    expect(has_break).not_to_be_checked()
    has_break.click()
    expect(minutes).to_have_value("60")
    expect(has_break).to_be_checked()
