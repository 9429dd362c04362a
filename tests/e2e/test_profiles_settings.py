"""Profiles and settings in the browser: photos, the two profile forms, theme, password."""

import json
import re
from io import BytesIO
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from core.db import session_scope
from services.jobs import company_jobs
from services.shifts import applications
from tests.e2e.conftest import PASSWORD, login
from tests.support.chat_support import JOB_FORM, account, draft_keys, hire, open_chat, person, type_draft, user_id

PHOTO_URL = re.compile(r"/_upload/profile-photos/[0-9a-f]{32}\.webp$")
NEW_PASSWORD = "NovaSenha2026"


def toast(page: Page, text: str) -> Locator:
    return page.locator("[data-sonner-toast]").filter(has_text=text).first


def png(path: Path, color: str = "orange") -> Path:
    """A real 800×600 PNG on disk."""
    buffer = BytesIO()
    Image.new("RGB", (800, 600), color).save(buffer, "PNG")
    path.write_bytes(buffer.getvalue())
    return path


def choose_photo(page: Page, path: Path) -> None:
    page.locator("#profile-photo input[type=file]").set_input_files(str(path))


def publish(company: str, **fields) -> int:
    with session_scope() as db:
        return company_jobs.create_job(db, user_id(company), {**JOB_FORM, **fields})


def test_company_completes_its_profile_with_a_photo_and_visitors_see_it_on_the_job(
    page: Page, browser, base_url, tmp_path
):
    company = account("client", "Mariana Costa")
    job_id = publish(company, titulo="Recepcionista bilíngue")
    login(page, company)
    page.goto("/company-profile-setup")
    expect(page.get_by_role("heading", name="Complete seu Perfil")).to_be_visible()

    form = page.locator("#company-profile-form")
    form.get_by_label("Nome da empresa").fill("Hotel Atlântico")
    form.get_by_label("Biografia").fill("curta")
    form.get_by_label("Endereço").fill("Av. Atlântica, 1702, Copacabana")
    form.get_by_label("Telefone").fill("(21) 3456-7890")
    form.get_by_role("button", name="Salvar Informações").click()
    expect(form.get_by_text("A biografia deve ter pelo menos 10 caracteres")).to_be_visible()

    choose_photo(page, png(tmp_path / "fachada.png"))
    expect(toast(page, "Foto atualizada com sucesso!")).to_be_visible()
    preview = page.locator("#profile-photo-preview img")
    expect(preview).to_have_attribute("src", PHOTO_URL)

    form.get_by_label("Biografia").fill("Hotel à beira-mar em Copacabana, com 120 quartos e eventos o ano todo.")
    form.get_by_label("Instagram").fill("@hotelatlantico")
    form.get_by_role("button", name="Salvar Informações").click()
    expect(toast(page, "Perfil atualizado com sucesso!")).to_be_visible()
    expect(form.get_by_text("A biografia deve ter pelo menos 10 caracteres")).to_have_count(0)

    visitor = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, locale="pt-BR")
    try:
        public = visitor.new_page()
        public.goto(f"/jobs/{job_id}")
        expect(public.locator("#job-company")).to_have_text("Hotel Atlântico")
        card = public.locator("#job-company-card")
        expect(card).to_contain_text("Hotel à beira-mar em Copacabana")
        expect(card.get_by_role("link", name="Instagram")).to_have_attribute(
            "href", "https://instagram.com/hotelatlantico"
        )
        photo = card.locator("img#job-company-photo")
        expect(photo).to_have_attribute("src", PHOTO_URL)
        response = public.request.get(photo.get_attribute("src"))
        assert response.status == 200
        assert response.body()[:4] == b"RIFF"
        public.goto("/jobs")
        row = public.locator("#jobs-table").get_by_role("row").filter(has_text="Recepcionista bilíngue")
        expect(row).to_contain_text("Hotel Atlântico")
        expect(row.locator("img")).to_have_attribute("src", PHOTO_URL)
    finally:
        visitor.close()


def test_the_company_form_shows_each_error_once_inline_and_no_error_toast(page: Page):
    login(page, account("client", "Mariana Costa"))
    page.goto("/company-profile-setup")
    form = page.locator("#company-profile-form")
    form.get_by_label("Nome da empresa").fill("")
    form.get_by_label("Biografia").fill("curta")
    form.get_by_label("Endereço").fill("")
    form.get_by_label("Telefone").fill("12")
    form.get_by_role("button", name="Salvar Informações").click()

    errors = (
        "Nome da empresa deve ter pelo menos 2 caracteres",
        "A biografia deve ter pelo menos 10 caracteres",
        "Endereço é obrigatório",
        "Telefone inválido",
    )
    for text in errors:
        expect(page.get_by_text(text, exact=True)).to_have_count(1)  # once, beside its field
    expect(form.get_by_role("alert")).to_have_count(len(errors))
    expect(page.locator("[data-sonner-toast][data-type='error']")).to_have_count(0)


def test_a_renamed_text_file_is_refused_and_the_photo_stays(page: Page, tmp_path):
    company = account("client", "Paula Reis")
    login(page, company)
    page.goto("/client-dashboard?tab=profile")
    expect(page.get_by_role("heading", name="Meu Perfil")).to_be_visible()
    fake = tmp_path / "foto.png"
    fake.write_text("isto não é uma imagem")

    choose_photo(page, fake)

    expect(toast(page, "Tipo de arquivo inválido")).to_contain_text(
        "Por favor, selecione apenas arquivos JPEG, PNG ou WebP."
    )
    expect(page.locator("#profile-photo-preview img")).to_have_count(0)


def test_freelancer_edits_the_profile_and_the_company_sees_it_in_the_applications_dialog(browser: Browser, base_url):
    company = account("client", "Mariana Costa")
    freelancer = account("freelancer", "João Silva")
    job_id = publish(company, titulo="Garçom para casamento")
    with session_scope() as db:
        applications.apply(db, user_id(freelancer), "freelancer", job_id, {})

    context, page = person(browser, base_url, freelancer)
    try:
        page.goto("/freelancer-dashboard?tab=profile")
        form = page.locator("#freelancer-profile-form")
        expect(form.get_by_label("E-mail")).to_have_value(freelancer)
        expect(form.get_by_label("E-mail")).to_have_attribute("readonly", "")
        form.get_by_label("Nome").fill("J")
        form.get_by_label("Website (opcional)").fill("site sem protocolo")
        form.get_by_role("button", name="Salvar Perfil").click()
        expect(form.get_by_text("Nome deve ter pelo menos 2 caracteres")).to_be_visible()
        expect(form.get_by_text("URL inválida")).to_be_visible()

        form.get_by_label("Nome").fill("João Pedro Silva")
        form.get_by_label("Website (opcional)").fill("")
        form.get_by_label("Profissão").fill("Garçom de eventos")
        form.get_by_label("Habilidades").fill("Serviço à francesa, , Vinhos, Inglês")
        form.get_by_label("Experiência").fill("Três anos em bufês de casamento.")
        form.get_by_role("button", name="Salvar Perfil").click()
        expect(toast(page, "Perfil atualizado com sucesso!")).to_be_visible()
        page.reload()
        expect(page.locator("#freelancer-profile-form").get_by_label("Habilidades")).to_have_value(
            "Serviço à francesa, Vinhos, Inglês"
        )
    finally:
        context.close()

    context, page = person(browser, base_url, company)
    try:
        page.goto("/client-dashboard?tab=jobs")
        page.locator(f"#job-row-{job_id}").get_by_role("button", name="Ver candidaturas").click()
        dialog = page.get_by_role("dialog", name="Garçom para casamento")
        card = dialog.locator("[id^=application-]").first
        expect(card).to_contain_text("João Pedro Silva")
        expect(card).to_contain_text("Serviço à francesa")
        card.get_by_role("button", name="Ver perfil").click()
        profile = page.get_by_role("dialog", name="João Pedro Silva")
        expect(profile).to_contain_text("Garçom de eventos")
        profile.get_by_role("tab", name="Experiência").click()
        expect(profile.get_by_role("tabpanel")).to_contain_text("Três anos em bufês de casamento.")
    finally:
        context.close()


def test_theme_is_applied_to_the_whole_app_and_follows_the_account(browser: Browser, base_url):
    freelancer = account("freelancer", "Ana Souza")
    context, page = person(browser, base_url, freelancer)
    try:
        page.goto("/freelancer-dashboard?tab=settings")
        page.get_by_role("radio", name="Escuro").click()
        expect(toast(page, "Aparência atualizada!")).to_be_visible()
        expect(page.locator("html")).to_have_class(re.compile(r"\bdark\b"))
        page.reload()
        expect(page.locator("html")).to_have_class(re.compile(r"\bdark\b"))
        expect(page.get_by_role("radio", name="Escuro")).to_be_checked()
        page.goto("/jobs")
        expect(page.locator("html")).to_have_class(re.compile(r"\bdark\b"))
    finally:
        context.close()

    other_device, page = person(browser, base_url, freelancer)
    try:
        expect(page.locator("html")).to_have_class(re.compile(r"\bdark\b"))
        page.goto("/freelancer-dashboard?tab=settings")
        page.get_by_role("radio", name="Claro").click()
        expect(toast(page, "Aparência atualizada!")).to_be_visible()
        expect(page.locator("html")).to_have_class(re.compile(r"\blight\b"))
    finally:
        other_device.close()


def test_notification_switches_are_saved(page: Page):
    company = account("client", "Rita Lopes")
    login(page, company)
    page.goto("/client-dashboard?tab=settings")
    page.get_by_role("tab", name="Notificações").click()
    expect(page.get_by_role("switch", name="Alertas de novas vagas")).to_have_count(0)
    email_switch = page.get_by_role("switch", name="Notificações por email")
    expect(email_switch).to_be_checked()
    email_switch.click()
    page.get_by_role("button", name="Salvar preferências").click()
    expect(toast(page, "Preferências de notificação salvas!")).to_be_visible()

    page.reload()
    page.get_by_role("tab", name="Notificações").click()
    expect(page.get_by_role("switch", name="Notificações por email")).not_to_be_checked()
    expect(page.get_by_role("switch", name="Notificações push")).to_be_checked()


def test_password_change_checks_the_current_one_ends_other_sessions_and_the_new_one_logs_in(browser: Browser, base_url):
    freelancer = account("freelancer", "Lucas Prado")
    elsewhere, other_page = person(browser, base_url, freelancer)
    context, page = person(browser, base_url, freelancer)
    try:
        page.goto("/freelancer-dashboard?tab=settings")
        page.get_by_role("tab", name="Segurança").click()
        expect(page.locator("#active-sessions")).to_have_text("2")
        form = page.locator("#change-password-form")
        form.get_by_label("Senha atual").fill("SenhaErrada1")
        form.get_by_label("Nova senha", exact=True).fill(NEW_PASSWORD)
        form.get_by_label("Confirme a nova senha").fill(NEW_PASSWORD)
        form.get_by_role("button", name="Alterar senha").click()
        expect(form.get_by_text("Senha atual incorreta.")).to_be_visible()

        form.get_by_label("Senha atual").fill(PASSWORD)
        form.get_by_label("Confirme a nova senha").fill("OutraSenha2026")
        form.get_by_role("button", name="Alterar senha").click()
        expect(form.get_by_text("As senhas não coincidem.")).to_be_visible()

        form.get_by_label("Confirme a nova senha").fill(NEW_PASSWORD)
        form.get_by_role("button", name="Alterar senha").click()
        expect(toast(page, "Senha alterada!")).to_contain_text("A outra sessão aberta foi encerrada.")
        expect(page.locator("#active-sessions")).to_have_text("1")
        expect(page.locator("#change-password-form").get_by_label("Senha atual")).to_have_value("")

        other_page.goto("/freelancer-dashboard?tab=applications")
        other_page.wait_for_url("**/login**")
    finally:
        elsewhere.close()
        context.close()

    fresh = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, locale="pt-BR")
    try:
        page = fresh.new_page()
        page.goto("/login")
        page.locator("#login-form").get_by_label("Email").fill(freelancer)
        page.locator("#login-form").get_by_label("Senha").fill(PASSWORD)
        page.locator("#login-form").get_by_role("button", name="Entrar").click()
        expect(page.get_by_text("Email ou senha incorretos.")).to_be_visible()
        login(page, freelancer, NEW_PASSWORD)
        expect(page).to_have_url(re.compile(r"/freelancer-dashboard"))
    finally:
        fresh.close()


def test_freelancer_downloads_the_data_then_deletes_the_account_and_the_company_sees_usuario_removido(
    browser: Browser, base_url
):
    hired = hire("Bartender para formatura")
    context, page = person(browser, base_url, hired.freelancer)
    try:
        open_chat(page, "freelancer", hired.chat_id)
        type_draft(page, "Mensagem que nunca foi enviada")
        page.goto("/freelancer-dashboard?tab=settings")
        page.get_by_role("tab", name="Segurança").click()
        with page.expect_download() as download:
            page.locator("#export-data-link").click()
        dump = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert dump["conta"]["email"] == hired.freelancer
        assert dump["perfil"]["nome"] == "João Silva"
        assert [c["vaga"] for c in dump["conversas"]] == ["Bartender para formatura"]
        assert "password_hash" not in json.dumps(dump)

        page.locator("#delete-account-button").click()
        dialog = page.get_by_role("alertdialog")
        dialog.get_by_label("Confirme sua senha").fill("SenhaErrada1")
        dialog.get_by_role("button", name="Excluir minha conta").click()
        expect(dialog.get_by_text("Senha incorreta.")).to_be_visible()
        dialog.get_by_label("Confirme sua senha").fill(PASSWORD)
        dialog.get_by_role("button", name="Excluir minha conta").click()
        expect(page).to_have_url(f"{base_url}/")
        expect(toast(page, "Conta excluída")).to_be_visible()
        assert draft_keys(page) == []  # the tab forgets what the deleted account typed

        page.goto("/login")
        page.locator("#login-form").get_by_label("Email").fill(hired.freelancer)
        page.locator("#login-form").get_by_label("Senha").fill(PASSWORD)
        page.locator("#login-form").get_by_role("button", name="Entrar").click()
        expect(page.get_by_text("Email ou senha incorretos.")).to_be_visible()
    finally:
        context.close()

    context, page = person(browser, base_url, hired.company)
    try:
        page.goto(f"/client-dashboard/chats/{hired.chat_id}")
        expect(page.get_by_role("heading", level=1)).to_have_text("Usuário removido")
    finally:
        context.close()
