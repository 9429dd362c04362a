"""A freelancer applies from the job page and from the dashboard search, follows and withdraws applications."""

import re
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Application, User
from services.jobs import company_jobs
from services.shifts import application_answers
from tests.e2e.conftest import login
from tests.support.shift_form import shift_fields

DASHBOARD = "/freelancer-dashboard"


def user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def publish(company_email: str, title: str, **fields) -> int:
    """A new open job of the company, created through the same service the company dashboard uses."""
    job = {
        "titulo": title,
        "categoria": "eventos",
        "descricao": "Atendimento em evento corporativo de fim de ano.",
        "localizacao": "São Paulo, SP",
        **shift_fields(),
        **fields,
    }
    with session_scope() as db:
        return company_jobs.create_job(db, user_id(company_email), job)


def application_id(freelancer_email: str, job_id: int) -> int:
    with session_scope() as db:
        return db.exec(
            select(Application.id).where(
                Application.freelancer_id == user_id(freelancer_email), Application.vaga_id == job_id
            )
        ).one()


def token() -> str:
    """A word no other job has, so searches find only this test's jobs."""
    return "x" + uuid.uuid4().hex[:8]


def apply_on_detail_page(page: Page, job_id: int, amount: str, message: str) -> None:
    page.goto(f"/jobs/{job_id}")
    box = page.locator("#apply-box")
    expect(box).to_contain_text("Pagamento direto pela empresa — sem garantia do Turno.")  # said before applying
    box.get_by_label("Valor proposto por hora (opcional)").fill(amount)
    box.get_by_label("Mensagem para a empresa (opcional)").fill(message)
    box.get_by_role("button", name="Enviar candidatura").click()
    expect(page.get_by_text("Candidatura enviada!")).to_be_visible()


def test_apply_on_the_job_page_and_see_the_status_after_reload(page: Page, make_account):
    company, freelancer = make_account("client"), make_account("freelancer")
    job_id = publish(company, f"Garçom para casamento {token()}")
    login(page, freelancer)

    apply_on_detail_page(page, job_id, "30,00", "Tenho experiência com casamentos.")

    box = page.locator("#apply-box")
    expect(box.get_by_text("Você já se candidatou a esta vaga.")).to_be_visible()
    page.reload()
    expect(box.get_by_text("Você já se candidatou a esta vaga.")).to_be_visible()
    expect(box.get_by_text("Pendente")).to_be_visible()
    expect(box.get_by_role("button", name="Enviar candidatura")).to_have_count(0)
    box.get_by_role("link", name="Minhas Candidaturas").click()
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard\?tab=applications$"))
    with session_scope() as db:
        stored = db.get(Application, application_id(freelancer, job_id))
        assert str(stored.valor_proposto) == "30.00"


def test_invalid_amount_is_explained_under_the_field(page: Page, make_account):
    company, freelancer = make_account("client"), make_account("freelancer")
    job_id = publish(company, f"Recepcionista de hotel {token()}")
    login(page, freelancer)
    page.goto(f"/jobs/{job_id}")

    box = page.locator("#apply-box")
    box.get_by_label("Valor proposto por hora (opcional)").fill("trinta reais")
    box.get_by_role("button", name="Enviar candidatura").click()

    expect(box.get_by_text("Informe um valor por hora válido.")).to_be_visible()
    expect(box.get_by_role("button", name="Enviar candidatura")).to_be_enabled()


def test_search_apply_in_dialog_and_withdraw_in_the_dashboard(page: Page, make_account):
    company, freelancer = make_account("client"), make_account("freelancer")
    word = token()
    on_page = publish(company, f"Bartender para festa {word}")
    in_dialog = publish(company, f"Confeiteira São João {word}", categoria="gastronomia")
    login(page, freelancer)
    apply_on_detail_page(page, on_page, "45", "Trabalho com drinks autorais.")

    page.goto(f"{DASHBOARD}?tab=jobs")
    expect(page.get_by_role("heading", name="Buscar Vagas")).to_be_visible()
    page.get_by_label("Pesquisar vagas").fill(f"sao joao {word}")
    page.get_by_role("button", name="Buscar").click()
    expect(page).to_have_url(re.compile(r"tab=jobs&search=sao\+joao"))
    results = page.locator(".job-result")
    expect(results).to_have_count(1)
    card = results.filter(has_text=f"Confeiteira São João {word}")
    expect(card.get_by_role("link", name=re.compile("Ver detalhes"))).to_have_attribute("href", f"/jobs/{in_dialog}")

    card.get_by_role("button", name=re.compile("Candidatar-se")).click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text(f"Confeiteira São João {word}")).to_be_visible()
    dialog.get_by_label("Mensagem para a empresa (opcional)").fill("Faço doces finos há 8 anos.")
    dialog.get_by_role("button", name="Enviar candidatura").click()

    expect(page.get_by_text("Candidatura enviada!")).to_be_visible()
    expect(dialog).to_have_count(0)
    expect(card.get_by_text("Candidatura enviada")).to_be_visible()
    expect(card.get_by_role("button", name=re.compile("Candidatar-se"))).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard\?tab=jobs"))

    page.get_by_label("Pesquisar vagas").fill(f"festa {word}")
    page.get_by_role("button", name="Buscar").click()
    expect(results.filter(has_text="Bartender para festa").get_by_text("Candidatura enviada")).to_be_visible()

    page.get_by_label("Pesquisar vagas").fill(f"astronauta {word}")
    page.get_by_role("button", name="Buscar").click()
    expect(page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()
    page.get_by_role("button", name="Limpar filtros").click()
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard\?tab=jobs$"))
    expect(results.first).to_be_visible()

    page.goto(f"{DASHBOARD}?tab=applications")
    expect(page.get_by_text("2 candidaturas")).to_be_visible()
    cards = page.locator(".application-card")
    expect(cards).to_have_count(2)
    expect(cards.filter(has_text="Pendente")).to_have_count(2)
    bartender = cards.filter(has_text=f"Bartender para festa {word}")
    bartender.get_by_role("button", name="Retirar candidatura").click()
    confirm = page.get_by_role("alertdialog")
    expect(confirm.get_by_text("Retirar candidatura?")).to_be_visible()
    confirm.get_by_role("button", name="Retirar").click()

    expect(page.get_by_text("Candidatura retirada")).to_be_visible()
    expect(page.get_by_text("1 candidatura", exact=True)).to_be_visible()
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text(f"Confeiteira São João {word}")
    page.goto(DASHBOARD)
    expect(page.locator("#stat-active-applications")).to_contain_text("1")


def test_cancelling_the_confirmation_keeps_the_application(page: Page, make_account):
    company, freelancer = make_account("client"), make_account("freelancer")
    job_id = publish(company, f"Copeiro {token()}")
    login(page, freelancer)
    apply_on_detail_page(page, job_id, "", "")

    page.goto(f"{DASHBOARD}?tab=applications")
    page.get_by_role("button", name="Retirar candidatura").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Cancelar").click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    expect(page.locator(".application-card")).to_have_count(1)
    assert application_id(freelancer, job_id)


def test_a_company_is_told_only_freelancers_apply(page: Page, make_account):
    company = make_account("client")
    job_id = publish(company, f"Garçom {token()}")
    login(page, make_account("client"))

    page.goto(f"/jobs/{job_id}")

    box = page.locator("#apply-box")
    expect(box.get_by_text("Apenas freelancers podem se candidatar a vagas.")).to_be_visible()
    expect(box.get_by_role("button", name="Enviar candidatura")).to_have_count(0)


def test_a_visitor_is_invited_to_sign_in(page: Page, make_account):
    job_id = publish(make_account("client"), f"Garçom {token()}")
    page.goto(f"/jobs/{job_id}")
    expect(page.locator("#apply-box").get_by_role("link", name="Entre para se candidatar")).to_be_visible()


def test_accepted_application_shows_aceita_and_the_chat(page: Page, make_account):
    company, freelancer = make_account("client"), make_account("freelancer")
    job_id = publish(company, f"Auxiliar de cozinha {token()}")
    login(page, freelancer)
    apply_on_detail_page(page, job_id, "25,50", "Disponível no fim de semana.")
    with session_scope() as db:
        chat_id = application_answers.accept(db, user_id(company), application_id(freelancer, job_id))

    page.goto(f"{DASHBOARD}?tab=applications")

    card = page.locator(".application-card")
    expect(card.get_by_text("Aceita")).to_be_visible()
    expect(card.get_by_role("button", name="Retirar candidatura")).to_have_count(0)
    card.get_by_role("link", name="Abrir chat").click()
    expect(page).to_have_url(re.compile(rf"/freelancer-dashboard/chats/{chat_id}$"))
