"""The whole hiring loop in three browsers: a company publishes, two freelancers apply, one is hired and
the other turned down, the job is closed and both sides of the hire rate each other.

Each person has their own browser context (their own session cookie); nothing here is done through the
services except reading ids back, so every step is what a user clicks and sees.
"""

import re
import uuid

from playwright.sync_api import Browser, Locator, Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Application, Job, User
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import fill_shift


def _job_id(title: str) -> int:
    with session_scope() as db:
        return db.exec(select(Job.id).where(Job.titulo == title)).one()


def _application_id(job_id: int, email: str) -> int:
    with session_scope() as db:
        return db.exec(
            select(Application.id)
            .join(User, User.id == Application.freelancer_id)
            .where(Application.vaga_id == job_id, User.email == email)
        ).one()


def _publish(page: Page, title: str) -> int:
    page.goto("/client-dashboard")
    page.get_by_role("button", name="Publicar Primeira Vaga").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    dialog.get_by_label("Título da vaga").fill(title)
    dialog.get_by_label("Categoria").select_option(label="Música")
    dialog.get_by_label("Descrição").fill("Voz e violão para cerimônia e coquetel, repertório de MPB.")
    dialog.get_by_label("Localização").fill("Salvador")
    dialog.get_by_label("Valor por hora (R$)").fill("80")
    fill_shift(dialog)
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()
    return _job_id(title)


def _apply(page: Page, job_id: int, amount: str, message: str) -> None:
    page.goto(f"/jobs/{job_id}")
    box = page.locator("#apply-box")
    box.get_by_label("Valor proposto por hora (opcional)").fill(amount)
    box.get_by_label("Mensagem para a empresa (opcional)").fill(message)
    box.get_by_role("button", name="Enviar candidatura").click()
    expect(toast(page, "Candidatura enviada!")).to_be_visible()
    expect(box.get_by_text("Você já se candidatou a esta vaga.")).to_be_visible()


def _my_application(page: Page, title: str) -> Locator:
    page.goto("/freelancer-dashboard?tab=applications")
    return page.locator(".application-card").filter(has_text=title)


def _rate(page: Page, card: Locator, stars: int, comment: str) -> None:
    card.get_by_role("button", name="Avaliar").click()
    dialog = page.get_by_role("dialog", name=re.compile("^Avaliar "))
    dialog.get_by_role("button", name=f"{stars} estrelas" if stars > 1 else "1 estrela").click()
    dialog.get_by_label("Comentário (opcional)").fill(comment)
    dialog.get_by_role("button", name="Enviar avaliação").click()
    expect(toast(page, "Avaliação enviada!")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(card.get_by_text("Sua avaliação:")).to_be_visible()


def test_publish_apply_hire_reject_close_and_rate(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Cantora para casamento {token}"
    company_email = make_account("client")
    hired_email = make_account("freelancer", name=f"Lia Música {token}")
    other_email = make_account("freelancer", name=f"Rui Violão {token}")
    company_ctx, company = signed_in(browser, base_url, company_email)
    hired_ctx, hired = signed_in(browser, base_url, hired_email)
    other_ctx, other = signed_in(browser, base_url, other_email)
    try:
        # The company publishes; the job is public, in its category and found by an accent-free search.
        job_id = _publish(company, title)
        hired.goto(f"/jobs?search=cantora+para+casamento+{token}")
        expect(hired.locator("#jobs-table tbody tr")).to_have_count(1)
        hired.goto("/categories/musica")
        expect(hired.get_by_role("heading", name="Empresas - Música")).to_be_visible()
        expect(hired.get_by_role("heading", name="Empresa Teste").first).to_be_visible()

        # Two freelancers apply with their proposals; applying again is not offered.
        _apply(hired, job_id, "95,00", "Canto em casamentos há 6 anos, com repertório próprio.")
        hired.reload()
        expect(hired.locator("#apply-box").get_by_role("button", name="Enviar candidatura")).to_have_count(0)
        expect(hired.locator("#apply-box").get_by_text("Pendente")).to_be_visible()
        _apply(other, job_id, "", "Disponível na data.")

        # The company sees two applications, hires Lia and turns Rui down.
        company.goto("/client-dashboard?tab=jobs")
        row = company.locator(f"#job-row-{job_id}")
        expect(row.get_by_role("cell", name="2", exact=True)).to_be_visible()
        row.get_by_role("button", name="Ver candidaturas").click()
        dialog = company.get_by_role("dialog", name=title)
        lia = dialog.locator(f"#application-{_application_id(job_id, hired_email)}")
        rui = dialog.locator(f"#application-{_application_id(job_id, other_email)}")
        expect(lia).to_contain_text("R$ 95,00/hora")
        expect(rui).to_contain_text("Sem contra-proposta")
        lia.get_by_role("button", name="Aceitar").click()
        expect(toast(company, "Candidatura aceita")).to_be_visible()
        expect(lia.get_by_role("link", name="Abrir chat")).to_be_visible()
        rui.get_by_role("button", name="Recusar").click()
        expect(toast(company, "Candidatura recusada")).to_be_visible()
        expect(rui).to_contain_text("Recusada")
        company.keyboard.press("Escape")

        # With its one position filled the job is in progress and leaves the public list.
        expect(row).to_contain_text("Em andamento")
        hired.goto(f"/jobs?search={token}")
        expect(hired.get_by_role("heading", name="Nenhuma vaga encontrada")).to_be_visible()

        # Each freelancer sees the answer; Lia's chat opens with the welcome message.
        card = _my_application(hired, title)
        expect(card).to_contain_text("Aceita")
        card.get_by_role("link", name="Abrir chat").click()
        expect(hired).to_have_url(re.compile(r"/freelancer-dashboard/chats/\d+$"))
        expect(
            hired.get_by_text(f'Olá! Sua candidatura para a vaga "{title}" foi aceita.', exact=False)
        ).to_be_visible()
        expect(_my_application(other, title)).to_contain_text("Recusada")

        # Rating waits for the job to close; then both sides rate once.
        expect(_my_application(hired, title).get_by_role("button", name="Avaliar")).to_have_count(0)
        company.goto("/client-dashboard?tab=jobs")
        company.locator(f"#job-row-{job_id}").get_by_role("button", name="Encerrar vaga").click()
        company.get_by_role("alertdialog", name="Encerrar vaga?").get_by_role("button", name="Encerrar vaga").click()
        expect(toast(company, "Vaga encerrada")).to_be_visible()
        company.get_by_role("tab", name=re.compile(r"^Encerradas \(\d+\)$")).click()
        expect(company.locator(f"#job-row-{job_id}")).to_contain_text("Fechada")

        company.goto("/client-dashboard?tab=hirings")
        hiring = company.locator(".rt-Card").filter(has_text=title).filter(has_text=f"Lia Música {token}")
        _rate(company, hiring, 5, "Voz linda e muito pontual.")
        expect(hiring.get_by_role("button", name="Avaliar")).to_have_count(0)

        expect(_my_application(hired, title)).to_contain_text("Concluída")  # the vaga is finished, not 'Aceita'
        _rate(hired, _my_application(hired, title), 4, "Equipe atenciosa.")

        # The new average shows on Lia's profile, for the company and for herself.
        company.goto("/client-dashboard?tab=jobs")
        company.get_by_role("tab", name=re.compile(r"^Encerradas \(\d+\)$")).click()
        company.locator(f"#job-row-{job_id}").get_by_role("button", name="Ver candidaturas").click()
        company.get_by_role("dialog", name=title).locator(
            f"#application-{_application_id(job_id, hired_email)}"
        ).get_by_role("button", name="Ver perfil").click()
        expect(company.get_by_role("dialog", name=f"Lia Música {token}")).to_contain_text("5,0 (1 avaliação)")
        hired.goto("/freelancer-dashboard")
        expect(hired.get_by_text("5,0", exact=True)).to_be_visible()
    finally:
        for context in (company_ctx, hired_ctx, other_ctx):
            context.close()
