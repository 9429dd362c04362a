"""Cities chosen from the IBGE list in the browser (issue 24 #6): the city box suggests, the keys and a tap
choose, and the server stores the municipality's name and code or says why it cannot."""

import re

from playwright.sync_api import Locator, Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Job, Profile, User
from services.common.validation import CITY_AMBIGUOUS
from tests.e2e.conftest import PASSWORD, login, unique_email
from tests.e2e.test_auth_flows import fill_common
from tests.e2e.test_company_jobs import job_count, open_jobs_tab, toast, user_id
from tests.support.shift_support import fill_shift


def _options(box: Locator, page: Page) -> Locator:
    """The suggestions of a city box (its listbox is the one the box controls)."""
    return page.locator(f"#{box.get_attribute('aria-controls')}").get_by_role("option")


def _fill_job(dialog: Locator, title: str) -> None:
    dialog.get_by_label("Título da vaga").fill(title)
    dialog.get_by_label("Categoria").select_option(label="Eventos")
    dialog.get_by_label("Descrição").fill("Serviço de volantes para 120 convidados.")
    fill_shift(dialog, days=5, hour=19, hours=6)


def test_a_company_chooses_the_city_with_the_keys_and_enter_does_not_send_the_form(page: Page, make_account):
    email = make_account("client")
    open_jobs_tab(page, email)
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    box = dialog.get_by_role("combobox", name="Localização")
    box.clear()  # publishing starts from the company's own city (issue 42): this vaga is elsewhere

    box.press_sequentially("florianop")  # no accent typed

    options = _options(box, page)
    expect(options.first).to_have_text("Florianópolis, SC")
    expect(box).to_have_attribute("aria-expanded", "true")
    box.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", "job-localizacao-opcao-0")
    box.press("Enter")
    expect(box).to_have_value("Florianópolis, SC")
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(dialog.get_by_text("Título deve ter pelo menos 2 caracteres.")).to_have_count(0)  # not sent
    _fill_job(dialog, "Garçom para casamento na praia")
    dialog.get_by_role("button", name="Publicar Vaga").click()

    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    expect(page.locator("#active-jobs-table")).to_contain_text("Florianópolis, SC")
    with session_scope() as db:
        job = db.exec(select(Job).where(Job.cliente_id == user_id(email))).one()
    assert (job.localizacao, job.cidade_ibge) == ("Florianópolis, SC", 4205407)


def test_a_name_several_states_share_asks_for_the_state_and_saves_nothing(page: Page, make_account):
    email = make_account("client")
    open_jobs_tab(page, email)
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    _fill_job(dialog, "Bartender para festival")
    box = dialog.get_by_role("combobox", name="Localização")
    box.fill("Bonito")
    expect(_options(box, page)).to_have_count(8)
    box.press("Escape")
    expect(box).to_have_attribute("aria-expanded", "false")

    dialog.get_by_role("button", name="Publicar Vaga").click()

    expect(dialog.get_by_text(CITY_AMBIGUOUS)).to_be_visible()
    assert job_count(user_id(email)) == 0
    box.fill("")
    box.press_sequentially("bonito, m")
    expect(_options(box, page)).to_have_text(["Bonito, MS"])
    _options(box, page).first.click()
    expect(box).to_have_value("Bonito, MS")
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    expect(page.locator("#active-jobs-table")).to_contain_text("Bonito, MS")


def test_a_freelancer_registers_on_a_phone_tapping_the_city_and_the_profile_keeps_it(mobile_page: Page):
    page = mobile_page
    email = unique_email("cidade")
    page.goto("/register?type=freelancer")
    form = page.locator("#freelancer-form")
    fill_common(form, email)
    form.get_by_label("Profissão").fill("Garçom")
    form.get_by_label("Habilidades").fill("Atendimento, Vinhos")
    box = form.get_by_role("combobox", name="Localização")
    box.press_sequentially("qqqq")
    expect(form.get_by_text("Nenhuma cidade encontrada com esse nome.")).to_be_visible()
    box.fill("")
    box.press_sequentially("recif")
    _options(box, page).filter(has_text=re.compile(r"^Recife, PE$")).tap()
    expect(box).to_have_value("Recife, PE")

    form.get_by_role("button", name="Cadastrar como Freelancer").click()

    expect(page).to_have_url(re.compile(r"/login/?$"))
    with session_scope() as db:
        profile = db.exec(select(Profile).where(Profile.user_id == user_id(email))).one()
        db.get(User, profile.user_id).email_confirmed_at = utcnow()  # as the e-mail's link does
        db.commit()
        assert (profile.localizacao, profile.cidade_ibge) == ("Recife, PE", 2611606)

    login(page, email, PASSWORD)
    page.goto("/freelancer-dashboard?tab=profile")
    city = page.locator("#freelancer-profile-form").get_by_role("combobox", name="Cidade")
    expect(city).to_have_value("Recife, PE")
    city.fill("")
    city.press_sequentially("olind")
    _options(city, page).first.tap()
    page.locator("#freelancer-profile-form").get_by_role("button", name="Salvar Perfil").click()
    expect(toast(page, "Perfil atualizado com sucesso!")).to_be_visible()
    page.reload()
    expect(page.locator("#freelancer-profile-form").get_by_role("combobox", name="Cidade")).to_have_value("Olinda, PE")
