"""Team-first vagas and blocks in the browser.

- A company publishes a vaga with 'Oferecer primeiro à minha equipe': its team member sees it under
  'Primeiro para a sua equipe' and applies, while a freelancer outside the team sees nothing (the
  list, the vaga's own address); when the timer opens the window, everyone sees it.
- A company blocks a freelancer from 'Minha equipe': the freelancer sees no vaga of that company.
- Both run at desktop size and, everyone on a phone 375 px wide, again (issue 27).
- A freelancer says 'Não quero trabalhar com esta empresa' on a vaga's page (at phone size): its
  vagas go, and the dashboard lists the company with 'Voltar a ver vagas'.
- An anonymous vaga offers 'Não quero ver esta vaga' instead (issue 41): that vaga alone goes, the
  company's named vaga stays and can still be avoided by name; the dashboard lists the vaga by title.
"""

import uuid
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Job, TeamMember, User
from services.jobs import team_first
from tests.e2e.conftest import signed_in, toast
from tests.support.chat_support import person
from tests.support.shift_support import bar_job, fill_shift, paid_shift

PHONE = {"width": 375, "height": 812}
# Everyone in the test at desktop size, or everyone on a phone 375 px wide (chat_support.person's `mobile`).
SCREENS = pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])


def _fits(page: Page) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def _shot(page: Page, name: str, mobile: bool) -> None:
    """A screenshot of the screen as the person sees it, named for the screen size."""
    page.screenshot(path=f"/tmp/shots/{name}_{'phone' if mobile else 'desktop'}.png", animations="disabled")


def _in_team(company_email: str, freelancer_email: str) -> None:
    """'Adicionar à equipe' done (its own browser test is tests/e2e/test_team.py)."""
    with session_scope() as db:
        company = db.exec(select(User.id).where(User.email == company_email)).one()
        member = db.exec(select(User.id).where(User.email == freelancer_email)).one()
        db.add(TeamMember(company_id=company, freelancer_id=member, added_at=utcnow()))


def _open_window_now(title: str) -> None:
    """What the timer does when the vaga's window ends, run for that instant (the test's clock)."""
    with session_scope() as db:
        job = db.exec(select(Job).where(Job.titulo == title)).one()
        opens = job.equipe_ate
    assert opens is not None
    assert team_first.open_due(opens, session_scope) == 1


@SCREENS
def test_a_team_first_vaga_reaches_the_team_first_then_everyone(
    browser: Browser, base_url: str, make_account, mobile: bool
):
    token, tag = uuid.uuid4().hex[:6], uuid.uuid4().hex[:6]  # `tag` names the new vaga alone
    title = f"Bartender da equipe {tag}"
    company_email = make_account("client")
    member_email = make_account("freelancer", name=f"Rita Equipe {token}")
    outsider_email = make_account("freelancer", name=f"Caio Fora {token}")
    paid_shift(company_email, member_email, f"Turno antigo {token}")
    _in_team(company_email, member_email)

    company_context, company_page = person(browser, base_url, company_email, mobile)
    member_context, member_page = person(browser, base_url, member_email, mobile)
    outsider_context, outsider_page = person(browser, base_url, outsider_email, mobile)
    try:
        company_page.goto("/client-dashboard?tab=jobs")
        company_page.locator("#publish-job").click()
        dialog = company_page.get_by_role("dialog", name="Publicar Nova Vaga")
        dialog.get_by_label("Título da vaga").fill(title)
        dialog.get_by_label("Categoria").select_option(label="Eventos")
        dialog.get_by_label("Descrição").fill("Bar de um casamento para 120 convidados.")
        dialog.get_by_label("Localização").fill("São Paulo, SP")
        fill_shift(dialog)
        expect(dialog.locator("#job-equipe-primeiro-field")).to_contain_text(
            "Sua equipe (1 profissional) vê a vaga sozinha"
        )
        dialog.get_by_text("Oferecer primeiro à minha equipe").click()
        dialog.locator("#job-equipe-primeiro-field").scroll_into_view_if_needed()
        _shot(company_page, "team_first_publish", mobile)
        dialog.get_by_role("button", name="Publicar Vaga").click()
        expect(toast(company_page, "Vaga oferecida primeiro à sua equipe.")).to_be_visible()
        with session_scope() as db:
            job_id = db.exec(select(Job.id).where(Job.titulo == title)).one()

        # The member: the list's team section, a notice, the page, and applying.
        member_page.goto("/jobs")
        team_section = member_page.locator("#team-first-jobs")
        expect(team_section.get_by_text(title)).to_be_visible()
        _shot(member_page, "team_first_member_list", mobile)
        _fits(member_page)
        member_page.goto(f"/jobs/{job_id}")
        expect(member_page.get_by_role("heading", name=title)).to_be_visible()
        member_page.get_by_role("button", name="Enviar candidatura").click()
        expect(toast(member_page, "Candidatura enviada")).to_be_visible()

        # The outsider: nothing on the list, and the address answers like a missing vaga.
        outsider_page.goto(f"/jobs?search={tag}")
        expect(outsider_page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()
        expect(outsider_page.locator("#team-first-jobs")).to_have_count(0)
        _shot(outsider_page, "team_first_outsider_list", mobile)
        response = outsider_page.goto(f"/jobs/{job_id}")
        assert response is not None and response.status == 404
        expect(outsider_page.get_by_text("Vaga não encontrada").first).to_be_visible()

        # The window ends: everyone sees it, and the member's team section empties.
        _open_window_now(title)
        outsider_page.goto(f"/jobs?search={tag}")
        expect(outsider_page.locator("#jobs-table").get_by_text(title)).to_be_visible()
        _fits(outsider_page)
        member_page.goto("/jobs")
        expect(member_page.locator("#jobs-table")).to_be_visible()
        expect(member_page.locator("#team-first-jobs")).to_have_count(0)
    finally:
        for context in (company_context, member_context, outsider_context):
            context.close()


@SCREENS
def test_a_blocked_freelancer_sees_no_vaga_of_that_company(browser: Browser, base_url: str, make_account, mobile: bool):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Paulo Bloqueio {token}")
    paid_shift(company_email, freelancer_email, f"Turno pago {token}")
    title = f"Copeiro {token}"
    job_id = bar_job(company_email, title, timedelta(days=3))
    _in_team(company_email, freelancer_email)
    company_context, company_page = person(browser, base_url, company_email, mobile)
    freelancer_context, freelancer_page = person(browser, base_url, freelancer_email, mobile)
    try:
        freelancer_page.goto(f"/jobs?search={token}")
        expect(freelancer_page.locator("#jobs-table").get_by_text(title)).to_be_visible()

        company_page.goto("/client-dashboard?tab=team")
        member = company_page.locator(".team-member").filter(has_text=f"Paulo Bloqueio {token}")
        member.get_by_role("button", name="Bloquear profissional").click()
        confirm = company_page.get_by_role("alertdialog")
        expect(confirm).to_contain_text(f"Bloquear Paulo Bloqueio {token}?")
        _shot(company_page, "block_confirm", mobile)
        confirm.get_by_role("button", name="Bloquear").click()
        expect(toast(company_page, "Profissional bloqueado.")).to_be_visible()
        blocked = company_page.locator(".blocked-person")
        expect(blocked).to_contain_text(f"Paulo Bloqueio {token}")
        expect(company_page.get_by_text("Sua equipe ainda está vazia")).to_be_visible()
        blocked.evaluate("(row) => row.scrollIntoView({block: 'center'})")  # above a phone's tab bar and toast
        _shot(company_page, "block_company_team", mobile)
        _fits(company_page)

        freelancer_page.goto(f"/jobs?search={token}")
        expect(freelancer_page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()
        _shot(freelancer_page, "block_freelancer_list", mobile)
        _fits(freelancer_page)
        response = freelancer_page.goto(f"/jobs/{job_id}")
        assert response is not None and response.status != 200
        expect(freelancer_page.get_by_role("heading", name=title)).to_have_count(0)

        blocked.get_by_role("button", name="Desbloquear").click()
        expect(toast(company_page, "Profissional desbloqueado.")).to_be_visible()
        freelancer_page.goto(f"/jobs?search={token}")
        expect(freelancer_page.locator("#jobs-table").get_by_text(title)).to_be_visible()
    finally:
        company_context.close()
        freelancer_context.close()


def test_a_freelancer_stops_seeing_a_company_from_its_vaga_on_a_phone(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer")
    title = f"Recepcionista {token}"
    job_id = bar_job(company_email, title, timedelta(days=2))
    context, page = signed_in(browser, base_url, freelancer_email, viewport=PHONE)
    try:
        page.goto(f"/jobs/{job_id}")
        expect(page.get_by_role("heading", name=title)).to_be_visible()
        page.get_by_role("button", name="Não quero trabalhar com esta empresa").click()
        confirm = page.get_by_role("alertdialog")
        expect(confirm).to_contain_text("Deixar de ver Empresa Teste?")
        confirm.get_by_role("button", name="Não quero mais").click()
        expect(toast(page, "Pronto. Você não verá mais as vagas desta empresa.")).to_be_visible()
        expect(page).to_have_url(f"{base_url}/jobs")
        page.goto(f"/jobs?search={token}")
        expect(page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        page.goto("/freelancer-dashboard")
        avoided = page.locator(".avoided-company").filter(has_text="Empresa Teste")
        expect(avoided).to_have_count(1)
        avoided.get_by_role("button", name="Voltar a ver vagas").click()
        expect(toast(page, "Você voltará a ver as vagas desta empresa.")).to_be_visible()
        page.goto(f"/jobs?search={token}")
        expect(page.locator("#jobs-table").get_by_text(title)).to_be_visible()
    finally:
        context.close()


def test_a_freelancer_hides_an_anonymous_vaga_alone_and_still_avoids_a_named_one(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer")
    secret_title, named_title = f"Recepcionista sigilosa {token}", f"Garçom nomeado {token}"
    secret_id = bar_job(company_email, secret_title, timedelta(days=2), anuncio_anonimo=True)
    named_id = bar_job(company_email, named_title, timedelta(days=2))
    context, page = signed_in(browser, base_url, freelancer_email)
    try:
        # The anonymous vaga names no company, so it offers to hide itself, not to avoid a company.
        page.goto(f"/jobs/{secret_id}")
        expect(page.get_by_role("heading", name=secret_title)).to_be_visible()
        expect(page.locator("#job-company")).to_have_text("Empresa Confidencial")
        expect(page.get_by_role("button", name="Não quero trabalhar com esta empresa")).to_have_count(0)
        page.get_by_role("button", name="Não quero ver esta vaga").click()
        confirm = page.get_by_role("alertdialog")
        expect(confirm).to_contain_text("Deixar de ver esta vaga?")
        expect(confirm).to_contain_text("As outras vagas continuam aparecendo.")
        confirm.get_by_role("button", name="Não quero ver", exact=True).click()
        expect(toast(page, "Pronto. Esta vaga não aparece mais para você.")).to_be_visible()
        expect(page).to_have_url(f"{base_url}/jobs")
        page.goto(f"/jobs?search={token}")
        table = page.locator("#jobs-table")
        expect(table.get_by_text(named_title)).to_be_visible()  # the company's other vaga stays
        expect(table.get_by_text(secret_title)).to_have_count(0)

        # The named vaga still avoids its company by name.
        page.goto(f"/jobs/{named_id}")
        page.get_by_role("button", name="Não quero trabalhar com esta empresa").click()
        confirm = page.get_by_role("alertdialog")
        expect(confirm).to_contain_text("Deixar de ver Empresa Teste?")
        confirm.get_by_role("button", name="Não quero mais").click()
        expect(toast(page, "Pronto. Você não verá mais as vagas desta empresa.")).to_be_visible()
        page.goto(f"/jobs?search={token}")
        expect(page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()

        # The dashboard lists the hidden vaga by its title (never its company) and brings it back;
        # the company's own block leaves its anonymous vagas alone, so it shows again.
        page.goto("/freelancer-dashboard")
        hidden = page.locator(".hidden-job").filter(has_text=secret_title)
        expect(hidden).to_have_count(1)
        expect(hidden).not_to_contain_text("Empresa Teste")
        expect(page.locator(".avoided-company").filter(has_text="Empresa Teste")).to_have_count(1)
        hidden.get_by_role("button", name="Voltar a ver esta vaga").click()
        expect(toast(page, "Você voltará a ver esta vaga.")).to_be_visible()
        expect(page.locator(".hidden-job")).to_have_count(0)
        page.goto(f"/jobs?search={token}")
        expect(page.locator("#jobs-table").get_by_text(secret_title)).to_be_visible()
        expect(page.locator("#jobs-table").get_by_text(named_title)).to_have_count(0)
    finally:
        context.close()
