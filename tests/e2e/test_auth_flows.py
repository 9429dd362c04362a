"""Registration, confirmation, login, guards, logout and password reset in the browser."""

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Role, User
from tests.e2e.conftest import PASSWORD, login, unique_email, wait_hydrated
from tests.support.polling import wait_until


def open_mail_link(page: Page, email: str, subject_part: str) -> None:
    """Open the newest link e-mailed to `email` from the dev mailbox."""
    page.goto("/dev/mailbox")
    item = page.locator(".mail-item").filter(has_text=email).filter(has_text=subject_part).first
    expect(item).to_be_visible()
    href = item.locator("a.mail-link").first.get_attribute("href")
    page.goto(href)


def fill_common(form, email: str, name: str = "Ana Souza") -> None:
    form.get_by_label("Nome completo").fill(name)
    form.get_by_label("Email").fill(email)
    form.get_by_label("Senha", exact=True).fill(PASSWORD)
    form.get_by_label("Confirmar senha").fill(PASSWORD)


def test_company_registration_shows_spec_messages_on_bad_input(page: Page):
    page.goto("/register")
    form = page.locator("#company-form")
    form.get_by_label("Nome completo").fill("A")
    form.get_by_label("Email").fill("nao-e-email")
    form.get_by_label("Senha", exact=True).fill("curta")
    form.get_by_label("Confirmar senha").fill("outra")
    form.get_by_role("button", name="Cadastrar Empresa").click()
    expect(form.get_by_text("Nome deve ter pelo menos 2 caracteres")).to_be_visible()
    expect(form.get_by_text("Email inválido")).to_be_visible()
    expect(form.get_by_text("Senha deve ter pelo menos 8 caracteres")).to_be_visible()
    expect(form.get_by_text("Nome da empresa deve ter pelo menos 2 caracteres")).to_be_visible()
    expect(form.get_by_text("Indústria deve ser selecionada")).to_be_visible()
    expect(form.get_by_text("Localização é obrigatória")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/register"))


def test_password_mismatch_is_shown_on_confirmation(page: Page):
    page.goto("/register?type=freelancer")
    form = page.locator("#freelancer-form")
    fill_common(form, unique_email("mismatch"))
    form.get_by_label("Confirmar senha").fill("Outra1234")
    form.get_by_role("button", name="Cadastrar como Freelancer").click()
    expect(form.get_by_text("As senhas não conferem")).to_be_visible()


def test_company_registers_confirms_and_lands_on_company_dashboard(page: Page):
    email = unique_email("empresa")
    page.goto("/register?type=client")
    form = page.locator("#company-form")
    fill_common(form, email)
    form.get_by_label("Nome da empresa").fill("Bistrô Central")
    form.get_by_label("Setor").select_option("gastronomy")
    form.get_by_label("Localização").fill("Recife, PE")
    form.get_by_role("button", name="Cadastrar Empresa").click()
    expect(page.get_by_text("Conta empresarial criada com sucesso!")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login/?$"))

    page.locator("#login-form").get_by_label("Email").fill(email)
    page.locator("#login-form").get_by_label("Senha").fill(PASSWORD)
    page.locator("#login-form").get_by_role("button", name="Entrar").click()
    expect(page.get_by_text("Por favor, confirme seu email antes de fazer login.")).to_be_visible()

    open_mail_link(page, email, "Confirme seu email")
    expect(page.get_by_text("Email confirmado! Agora você já pode entrar.")).to_be_visible()
    login(page, email)
    expect(page).to_have_url(re.compile(r"/client-dashboard"))
    expect(page.get_by_text("Login realizado com sucesso!")).to_be_visible()


def test_freelancer_registers_and_lands_on_freelancer_dashboard(page: Page):
    email = unique_email("freela")
    page.goto("/register?type=freelancer")
    expect(page.get_by_role("tab", name="Freelancer")).to_have_attribute("aria-selected", "true")
    form = page.locator("#freelancer-form")
    fill_common(form, email, name="Bruno Lima")
    form.get_by_label("Profissão").fill("Bartender")
    form.get_by_label("Habilidades").fill("Coquetelaria, Atendimento")
    form.get_by_label("Localização").fill("Salvador, BA")
    form.get_by_role("button", name="Cadastrar como Freelancer").click()
    expect(page.get_by_text("Conta de freelancer criada com sucesso!")).to_be_visible()
    open_mail_link(page, email, "Confirme seu email")
    expect(page.get_by_text("Email confirmado! Agora você já pode entrar.")).to_be_visible()
    login(page, email)
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard"))


def test_register_type_freelancer_paints_the_freelancer_form_before_the_page_connects(page: Page):
    page.route_web_socket(re.compile(r"/_event"), lambda ws: None)  # the websocket never answers
    problems = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))

    page.goto("/register?type=freelancer")

    expect(page.get_by_role("tab", name="Freelancer")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#freelancer-form").get_by_label("Profissão")).to_be_visible()
    expect(page.locator("#company-form")).to_have_count(0)
    page.goto("/register")  # and the plain address still opens on Empresa
    expect(page.get_by_role("tab", name="Empresa")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#company-form").get_by_label("Nome da empresa")).to_be_visible()
    assert [text for text in problems if "websocket" not in text.lower()] == []  # no hydration mismatch


def test_what_a_quick_person_types_into_the_freelancer_form_registers_a_freelancer(page: Page):
    email = unique_email("rapida")
    page.goto("/register?type=freelancer")
    form = page.locator("#freelancer-form")  # filled at once: no waiting for the page to connect
    fill_common(form, email, name="Rita Souza")
    form.get_by_label("Profissão").fill("Recepcionista")
    form.get_by_label("Habilidades").fill("Atendimento, Inglês")
    form.get_by_label("Localização").fill("Natal, RN")
    form.get_by_role("button", name="Cadastrar como Freelancer").click()
    expect(page.get_by_text("Conta de freelancer criada com sucesso!")).to_be_visible()

    def role_of_the_account() -> str | None:
        with session_scope() as db:
            return db.exec(select(User.role).where(User.email == email)).first()

    assert wait_until(role_of_the_account, 15, 0.1, "the account was not created") == Role.FREELANCER


def test_registering_a_known_email_looks_like_success_and_mails_the_owner(page: Page, make_account):
    email = make_account("client")
    page.goto("/register")
    form = page.locator("#company-form")
    fill_common(form, email.upper())
    form.get_by_label("Nome da empresa").fill("Outra Empresa")
    form.get_by_label("Setor").select_option("hotel")
    form.get_by_label("Localização").fill("Manaus, AM")
    form.get_by_role("button", name="Cadastrar Empresa").click()
    expect(page.get_by_text("Conta empresarial criada com sucesso!")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login/?$"))
    page.goto("/dev/mailbox")
    notice = page.locator(".mail-item").filter(has_text=email).filter(has_text="Tentativa de cadastro")
    expect(notice).to_contain_text("Alguém tentou criar uma conta com este e-mail")


def test_wrong_password_and_unknown_email_get_the_same_message(page: Page, make_account):
    email = make_account("freelancer")
    for address in (email, unique_email("ninguem")):
        page.goto("/login")
        form = page.locator("#login-form")
        form.get_by_label("Email").fill(address)
        form.get_by_label("Senha").fill("Errada123")
        form.get_by_role("button", name="Entrar").click()
        expect(page.get_by_text("Email ou senha incorretos.")).to_be_visible()
        expect(page).to_have_url(re.compile(r"/login/?$"))


def test_login_form_validates_on_the_server(page: Page):
    page.goto("/login")
    form = page.locator("#login-form")
    form.get_by_label("Email").fill("invalido")
    form.get_by_role("button", name="Entrar").click()
    expect(form.get_by_text("Email inválido")).to_be_visible()
    expect(form.get_by_text("Senha é obrigatória")).to_be_visible()


def submit_login(page: Page, email: str, password: str) -> None:
    """Fill and send the login form without waiting for where it leads."""
    page.goto("/login")
    fill_login(page, email, password)


def fill_login(page: Page, email: str, password: str) -> None:
    """Fill and send the login form of the page already open (its URL may carry `next`)."""
    form = page.locator("#login-form")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Senha").fill(password)
    form.get_by_role("button", name="Entrar").click()


def fail_five_times(page: Page, email: str) -> None:
    for _ in range(5):
        submit_login(page, email, "Errada123")
        expect(page.get_by_text("Email ou senha incorretos.")).to_be_visible()


def test_throttling_after_five_failures(page: Page, make_account):
    email = make_account("client")
    fail_five_times(page, email)
    submit_login(page, email, PASSWORD)
    expect(page.get_by_text("Muitas tentativas de login. Aguarde 15 minutos e tente novamente.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login/?$"))


def test_a_browser_that_signed_in_before_is_not_locked_out_by_a_strangers_guesses(
    page: Page, browser, base_url, make_account
):
    email = make_account("client")
    login(page, email)
    page.get_by_role("button", name="Sair").first.click()
    expect(page.get_by_text("Logout realizado")).to_be_visible()
    stranger = browser.new_context(base_url=base_url, locale="pt-BR")
    try:
        guessing = stranger.new_page()
        fail_five_times(guessing, email)
        submit_login(guessing, email, PASSWORD)  # control: a browser new to the account is locked out
        expect(
            guessing.get_by_text("Muitas tentativas de login. Aguarde 15 minutos e tente novamente.")
        ).to_be_visible()
    finally:
        stranger.close()

    submit_login(page, email, PASSWORD)
    expect(page).to_have_url(re.compile(r"/client-dashboard"))
    expect(page.get_by_role("button", name="Sair").first).to_be_visible()


def test_guards_send_visitors_to_login_and_other_role_home(page: Page, make_account):
    page.goto("/client-dashboard")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Fclient-dashboard$"))
    page.goto("/company-profile-setup")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Fcompany-profile-setup$"))
    login(page, make_account("freelancer"))
    page.goto("/client-dashboard")
    expect(page.get_by_text("Acesso Restrito")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard"))


def test_logout_ends_the_server_session(page: Page, make_account):
    login(page, make_account("client"))
    cookie = next(c for c in page.context.cookies() if c["name"] == "turno_session")
    assert cookie["httpOnly"]
    page.get_by_role("button", name="Sair").first.click()
    expect(page).to_have_url(re.compile(r"localhost:\d+/?$"))
    expect(page.get_by_text("Logout realizado")).to_be_visible()
    # The old token no longer opens anything, even if a copy of the cookie survived.
    page.context.add_cookies([{**cookie}])
    page.goto("/client-dashboard")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Fclient-dashboard$"))


def test_password_reset_with_single_use_link(page: Page, make_account):
    email = make_account("freelancer")
    page.goto("/forgot-password")
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Enviar link de recuperação").click()
    expect(page.get_by_text("Email enviado com sucesso!")).to_be_visible()
    expect(page.get_by_role("button", name="Tentar novamente")).to_be_visible()

    open_mail_link(page, email, "Redefinição de senha")
    link = page.url
    page.get_by_label("Nova senha", exact=True).fill("Nova12345")
    page.get_by_label("Confirmar nova senha").fill("Nova12345")
    page.get_by_role("button", name="Redefinir senha").click()
    expect(page).to_have_url(re.compile(r"/login/?$"))
    login(page, email, "Nova12345")
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard"))

    page.goto(link)
    expect(page.get_by_text("Este link é inválido ou expirou. Solicite um novo.")).to_be_visible()


def test_unknown_email_gets_the_same_recovery_answer(page: Page):
    page.goto("/forgot-password")
    page.get_by_label("Email").fill(unique_email("ninguem"))
    page.get_by_role("button", name="Enviar link de recuperação").click()
    expect(page.get_by_text("Email enviado com sucesso!")).to_be_visible()


def test_the_password_can_be_shown_and_hidden_again(page: Page):
    page.goto("/login")
    wait_hydrated(page, "#login-password-toggle")  # the button is in the first HTML: click once React has it
    field = page.locator("#login-password")
    field.fill("Segredo123")
    expect(field).to_have_attribute("type", "password")

    page.get_by_role("button", name="Mostrar senha").click()
    expect(field).to_have_attribute("type", "text")
    expect(field).to_have_value("Segredo123")
    hide = page.get_by_role("button", name="Ocultar senha")
    expect(hide).to_have_attribute("aria-pressed", "true")

    hide.click()
    expect(field).to_have_attribute("type", "password")
    expect(page.get_by_role("button", name="Mostrar senha")).to_have_attribute("aria-pressed", "false")
    expect(field).to_have_value("Segredo123")


def test_each_password_field_of_the_sign_up_form_has_its_own_toggle(page: Page):
    page.goto("/register?type=freelancer")
    wait_hydrated(page, "#freelancer-confirm-toggle")  # the form is in the first HTML: click once React has it
    form = page.locator("#freelancer-form")
    password, confirm = form.get_by_label("Senha", exact=True), form.get_by_label("Confirmar senha")
    expect(form.get_by_role("button", name="Mostrar senha")).to_have_count(2)

    form.get_by_role("button", name="Mostrar senha").last.click()

    expect(confirm).to_have_attribute("type", "text")
    expect(password).to_have_attribute("type", "password")
    expect(form.get_by_role("button", name="Ocultar senha")).to_have_count(1)


def test_a_shown_password_stays_shown_when_the_form_answers(page: Page):
    """React writes an input's type back on every re-render: the choice must be React's own state."""
    page.goto("/register?type=freelancer")
    wait_hydrated(page, "#freelancer-confirm-toggle")
    form = page.locator("#freelancer-form")
    confirm = form.get_by_label("Confirmar senha")
    confirm.fill("Segredo123")
    form.get_by_role("button", name="Mostrar senha").last.click()
    expect(confirm).to_have_attribute("type", "text")

    form.get_by_role("button", name="Cadastrar como Freelancer").click()  # empty fields: the server answers with errors

    expect(form.get_by_role("alert").first).to_be_visible()
    expect(confirm).to_have_attribute("type", "text")
    expect(form.get_by_role("button", name="Ocultar senha")).to_have_attribute("aria-pressed", "true")
    expect(form.get_by_label("Senha", exact=True)).to_have_attribute("type", "password")


def test_signing_in_comes_back_to_the_page_asked_for(page: Page, make_account):
    email = make_account("freelancer")
    page.goto("/freelancer-dashboard?tab=shifts")
    expect(page).to_have_url(re.compile(r"/login\?next=%2Ffreelancer-dashboard%3Ftab%3Dshifts$"))

    fill_login(page, email, PASSWORD)

    expect(page).to_have_url(re.compile(r"/freelancer-dashboard/?\?tab=shifts$"))
    expect(page.get_by_role("heading", name="Meus Turnos")).to_be_visible()


def test_a_next_that_leaves_the_site_or_the_role_lands_on_the_dashboard(page: Page, make_account):
    email = make_account("client")
    for hostile in ("https%3A%2F%2Fevil.example%2F", "%2F%2Fevil.example", "%2Ffreelancer-dashboard"):
        page.context.clear_cookies()
        page.goto(f"/login?next={hostile}")
        fill_login(page, email, PASSWORD)
        expect(page).to_have_url(re.compile(r"localhost:\d+/client-dashboard/?$"))
