"""The dashboards' frame in the browser: the bell and its badge, the Notificações tab, the mobile top bar,
profile sheet and bottom bar, and the overview of a company with no jobs.
"""

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Notification, NotificationType, Profile, User
from tests.e2e.conftest import login
from tests.support.chat_support import person
from tests.support.shift_support import fill_shift


def _user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def _notify(user_id: int, count: int, kind: str = NotificationType.OTHER) -> None:
    with session_scope() as db:
        for n in range(count):
            db.add(Notification(user_id=user_id, type=kind, message=f"Aviso número {n + 1}"))


def _unread(user_id: int) -> int:
    with session_scope() as db:
        rows = db.exec(select(Notification).where(Notification.user_id == user_id, Notification.read.is_(False)))
        return len(rows.all())


def test_bell_caps_at_nine_and_marking_one_read_updates_list_and_badge(page: Page, make_account):
    email = make_account("client")
    company = _user_id(email)
    _notify(company, 10)
    login(page, email)

    bell = page.locator("#bell-desktop")
    expect(bell).to_have_text("9+")
    expect(bell).to_have_attribute("aria-label", "Notificações: 10 não lidas")
    bell.click()
    expect(page).to_have_url(re.compile(r"/client-dashboard\?tab=notifications$"))
    expect(page.locator("#notifications-count")).to_have_text("10 notificações")
    expect(page.locator(".notification.unread")).to_have_count(10)

    first = page.locator(".notification.unread").first
    first.get_by_role("button", name="Marcar como lida").click()
    expect(page.get_by_text("Notificação marcada como lida")).to_be_visible()
    expect(page.locator(".notification.unread")).to_have_count(9)
    expect(bell).to_have_text("9")
    expect(bell).to_have_attribute("aria-label", "Notificações: 9 não lidas")
    assert _unread(company) == 9

    page.reload()
    expect(page.locator(".notification.unread")).to_have_count(9)
    expect(page.locator("#notifications-count")).to_have_text("10 notificações")


def test_older_notifications_come_with_carregar_mais(page: Page, make_account):
    email = make_account("freelancer")
    _notify(_user_id(email), 25)
    login(page, email)
    page.goto("/freelancer-dashboard?tab=notifications")

    expect(page.locator("#notifications-count")).to_have_text("25 notificações")
    expect(page.locator(".notification")).to_have_count(20)
    page.get_by_role("button", name="Carregar mais").click()
    expect(page.locator(".notification")).to_have_count(25)
    expect(page.get_by_role("button", name="Carregar mais")).to_have_count(0)


def test_without_notifications_the_tab_says_so_and_the_bell_has_no_badge(page: Page, make_account):
    login(page, make_account("freelancer"))
    page.goto("/freelancer-dashboard?tab=notifications")
    expect(page.get_by_role("heading", name="Sem notificações")).to_be_visible()
    expect(page.locator("#notifications-count")).to_have_text("0 notificações")
    expect(page.locator("#bell-desktop")).to_have_text("")
    expect(page.locator("#bell-desktop")).to_have_attribute("aria-label", "Notificações")


def test_company_without_jobs_is_welcomed_with_publicar_primeira_vaga(page: Page, make_account):
    login(page, make_account("client", name="Carla Nova"))
    expect(page.get_by_role("heading", name="Bem-vindo(a), Carla Nova!")).to_be_visible()
    expect(page.get_by_role("link", name="Publicar Primeira Vaga")).to_be_visible()


def test_mobile_frame_has_top_bar_profile_sheet_and_bottom_bar(browser, base_url, make_account):
    email = make_account("client", name="Beatriz Móvel")
    _notify(_user_id(email), 3)
    context = browser.new_context(
        base_url=base_url, viewport={"width": 375, "height": 812}, locale="pt-BR", is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        login(page, email)
        bottom = page.get_by_role("navigation", name="Navegação principal")
        for label in ("Início", "Vagas", "Turnos", "Mensagens"):
            expect(bottom.get_by_role("link", name=label, exact=True)).to_be_visible()
        alerts = bottom.get_by_role("link", name="Alertas: 3 não lidas")
        expect(alerts).to_have_text(re.compile(r"3\s*Alertas"))
        expect(page.locator("#bell-mobile")).to_have_text("3")
        expect(page.locator("#bell-desktop")).to_be_hidden()

        page.get_by_role("button", name="Abrir perfil").click()
        sheet = page.get_by_role("dialog", name="Beatriz Móvel")
        expect(sheet).to_be_visible()
        expect(sheet.get_by_text(email)).to_be_visible()
        expect(sheet.get_by_text("Endereço não informado")).to_be_visible()
        expect(sheet.get_by_role("button", name="Sair")).to_be_visible()
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()

        alerts.click()
        expect(page).to_have_url(re.compile(r"tab=notifications$"))
        expect(alerts).to_have_attribute("aria-current", "page")
        expect(page.locator(".notification.unread")).to_have_count(3)
    finally:
        context.close()


def test_a_freelancer_of_the_city_sees_a_new_job_alert_arrive_while_on_the_overview(browser, base_url, make_account):
    freelancer_email = make_account("freelancer")
    with session_scope() as db:
        profile = db.get(Profile, _user_id(freelancer_email))
        profile.localizacao = "Olinda, PE"
        db.add(profile)
    freelancer_context, freelancer = person(browser, base_url, freelancer_email)
    company_context, company = person(browser, base_url, make_account("client"))
    try:
        freelancer.goto("/freelancer-dashboard")
        expect(freelancer.get_by_text("Candidaturas Ativas").first).to_be_visible()
        bell = freelancer.locator("#bell-desktop")
        expect(bell).to_have_attribute("aria-label", "Notificações")

        company.get_by_role("button", name="Publicar Primeira Vaga").click()
        dialog = company.get_by_role("dialog", name="Publicar Nova Vaga")
        dialog.get_by_label("Título da vaga").fill("Garçom para o Carnaval de Olinda")
        dialog.get_by_label("Categoria").select_option(label="Eventos")
        dialog.get_by_label("Descrição").fill("Atendimento no camarote durante os quatro dias de festa.")
        dialog.get_by_label("Localização").fill("Olinda, PE")
        fill_shift(dialog)
        dialog.get_by_role("button", name="Publicar Vaga").click()
        expect(company.get_by_text("Vaga criada com sucesso!")).to_be_visible()

        expect(bell).to_have_text("1")
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")
        expect(freelancer.get_by_text('Nova vaga na sua cidade: "Garçom para o Carnaval de Olinda".')).to_be_visible()
        expect(freelancer).to_have_url(re.compile(r"/freelancer-dashboard/?$"))
        expect(freelancer.get_by_text("Candidaturas Ativas").first).to_be_visible()
    finally:
        company_context.close()
        freelancer_context.close()
