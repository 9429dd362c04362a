"""'Minhas Vagas' in the browser: publishing, search, job actions, applications and plan limits."""

import re

from playwright.sync_api import Locator, Page, expect
from sqlmodel import func, select

from core.db import session_scope
from core.shift_format import map_url, shift_text
from models import Application, Chat, Job, Profile, Role, Subscription, User
from services.common.job_forms import JobForm
from services.common.validation import parse
from services.jobs import company_jobs
from services.shifts import applications
from tests.e2e.conftest import login
from tests.support.shift_form import shift_day, shift_fields
from tests.support.shift_support import fill_shift

JOB = {
    "titulo": "Garçom para evento",
    "categoria": "eventos",
    "descricao": "Atendimento em evento corporativo de fim de ano.",
    "localizacao": "São Paulo, SP",
    "valor_hora": "30,00",
    **shift_fields(),
}
JOBS_TAB = "/client-dashboard?tab=jobs"


def user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def publish(company_id: int, **fields) -> int:
    with session_scope() as db:
        return company_jobs.create_job(db, company_id, {**JOB, **fields})


def apply(freelancer_email: str, job_id: int, **fields) -> int:
    with session_scope() as db:
        return applications.apply(db, user_id(freelancer_email), "freelancer", job_id, fields)


def job_count(company_id: int) -> int:
    with session_scope() as db:
        return db.exec(select(func.count()).select_from(Job).where(Job.cliente_id == company_id)).one()


def row(page: Page, job_id: int) -> Locator:
    return page.locator(f"#job-row-{job_id}")


def toast(page: Page, text: str) -> Locator:
    return page.locator("[data-sonner-toast]").filter(has_text=text).first


def open_jobs_tab(page: Page, email: str) -> None:
    login(page, email)
    page.goto(JOBS_TAB)
    expect(page.get_by_role("heading", name="Minhas Vagas")).to_be_visible()


def test_company_publishes_a_job_through_the_dialog_after_seeing_the_validation_messages(page: Page, make_account):
    email = make_account("client")
    login(page, email)
    page.get_by_role("button", name="Publicar Primeira Vaga").click()
    expect(page).to_have_url(re.compile(r"/client-dashboard\?tab=jobs$"))  # ?nova=1 is dropped once open
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    expect(dialog).to_be_visible()

    dialog.get_by_label("Título da vaga").fill("B")
    dialog.get_by_label("Descrição").fill("curta")
    dialog.get_by_label("Localização").fill("")  # it starts with the profile's city
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(dialog.get_by_text("Título deve ter pelo menos 2 caracteres.")).to_be_visible()
    expect(dialog.get_by_text("Por favor, selecione uma categoria.")).to_be_visible()
    expect(dialog.get_by_text("Descrição deve ter pelo menos 10 caracteres.")).to_be_visible()
    expect(dialog.get_by_text("Localização deve ter pelo menos 2 caracteres.")).to_be_visible()
    assert job_count(user_id(email)) == 0

    dialog.get_by_label("Título da vaga").fill("Bartender para festa de casamento")
    dialog.get_by_label("Categoria").select_option(label="Eventos")
    dialog.get_by_label("Descrição").fill("Preparo de drinks clássicos para 150 convidados.")
    dialog.get_by_label("Localização").fill("Recife, PE")
    dialog.get_by_label("Valor por hora (R$)").fill("45,50")
    fill_shift(dialog, days=4, hour=18, hours=8, break_min=60)
    dialog.get_by_label("Habilidades necessárias").fill("drinks, coquetelaria")
    dialog.get_by_label("Vale-transporte").check()
    dialog.get_by_label("Refeição no local").check()
    dialog.get_by_role("button", name="Publicar Vaga").click()

    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()
    table = page.locator("#active-jobs-table")
    expect(table.get_by_role("row", name=re.compile("Bartender para festa de casamento"))).to_contain_text("R$ 45,50")
    expect(table).to_contain_text("Eventos")
    expect(table).to_contain_text("Recife, PE")
    expect(table).to_contain_text("Aberta")

    page.goto("/jobs")
    expect(page.get_by_text("Bartender para festa de casamento").first).to_be_visible()


def test_a_published_shift_reads_on_the_job_page_and_a_one_hour_shift_is_refused(page: Page, make_account):
    email = make_account("client")
    open_jobs_tab(page, email)
    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    dialog.get_by_label("Título da vaga").fill("Garçom para jantar de gala")
    dialog.get_by_label("Categoria").select_option(label="Eventos")
    dialog.get_by_label("Descrição").fill("Serviço à francesa para 80 convidados.")
    dialog.get_by_label("Localização").fill("São Paulo, SP")

    fill_shift(dialog, days=4, hour=19, hours=1)
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(dialog.get_by_text("O turno deve durar entre 2 e 12 horas.")).to_be_visible()
    assert job_count(user_id(email)) == 0

    fields = fill_shift(dialog, days=4, hour=19, hours=8, break_min=60)
    dialog.get_by_role("button", name="Publicar Vaga").click()
    expect(toast(page, "Vaga criada com sucesso!")).to_be_visible()
    with session_scope() as db:
        job = db.exec(select(Job).where(Job.cliente_id == user_id(email))).one()
        text = shift_text(job.inicio_em, job.fim_em, job.intervalo_min)
    assert text.endswith("19:00–03:00 (8h, intervalo 60 min)")
    expect(page.locator("#active-jobs-table")).to_contain_text(text)

    page.goto(f"/jobs/{job.id}")
    expect(page.locator("#job-shift")).to_contain_text(text)
    expect(page.locator("#job-address")).to_contain_text(fields["endereco"])
    expect(page.locator("#job-map-link")).to_have_attribute("href", map_url(fields["endereco"]))


def test_duplicating_to_two_dates_lists_two_more_jobs(page: Page, make_account):
    email = make_account("client")
    company = user_id(email)
    with session_scope() as db:
        db.add(Subscription(user_id=company, tier="premium", status="active"))
    job_id = publish(company, titulo="Recepcionista de evento")
    open_jobs_tab(page, email)
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()

    row(page, job_id).get_by_role("button", name="Duplicar").click()
    dialog = page.get_by_role("dialog", name="Duplicar vaga")
    expect(dialog).to_contain_text("Recepcionista de evento")
    dialog.get_by_label("Nova data 1").fill(shift_day(8).isoformat())
    dialog.get_by_role("button", name="Adicionar data").click()
    dialog.get_by_label("Nova data 2").fill(shift_day(8).isoformat())
    dialog.get_by_role("button", name="Duplicar").click()
    expect(dialog.get_by_text("Escolha datas diferentes.")).to_be_visible()
    assert job_count(company) == 1

    dialog.get_by_label("Nova data 2").fill(shift_day(15).isoformat())
    dialog.get_by_role("button", name="Duplicar").click()
    expect(toast(page, "Vaga duplicada para 2 datas")).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("tab", name="Ativas (3)")).to_be_visible()
    table = page.locator("#active-jobs-table")
    expect(table.get_by_role("row", name=re.compile("Recepcionista de evento"))).to_have_count(3)
    with session_scope() as db:
        copies = db.exec(select(Job).where(Job.cliente_id == company, Job.id != job_id)).all()
    assert sorted(copy.data_necessaria for copy in copies) == [shift_day(8), shift_day(15)]
    assert {copy.serie_id for copy in copies} == {job_id}


def test_header_new_job_button_opens_the_dialog(page: Page, make_account):
    email = make_account("client")
    publish(user_id(email))
    open_jobs_tab(page, email)
    page.locator("#new-job-button").click()
    expect(page.get_by_role("dialog", name="Publicar Nova Vaga")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/client-dashboard\?tab=jobs$"))
    page.reload()
    expect(page.get_by_role("heading", name="Minhas Vagas")).to_be_visible()
    expect(page.get_by_role("dialog", name="Publicar Nova Vaga")).to_have_count(0)


def test_search_filters_the_jobs_on_title_or_location_ignoring_accents(page: Page, make_account):
    email = make_account("client")
    company = user_id(email)
    publish(company, titulo="Recepcionista bilíngue", categoria="hotel", localizacao="Florianópolis, SC")
    publish(company, titulo="Cozinheiro de massas", categoria="restaurante", localizacao="Curitiba, PR")
    open_jobs_tab(page, email)
    expect(page.get_by_role("tab", name="Ativas (2)")).to_be_visible()

    search = page.get_by_label("Buscar vagas")
    search.fill("florianopolis")
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()
    table = page.locator("#active-jobs-table")
    expect(table).to_contain_text("Recepcionista bilíngue")
    expect(table).not_to_contain_text("Cozinheiro de massas")

    search.fill("COZINHEIRO")
    expect(table).to_contain_text("Cozinheiro de massas")
    expect(table).not_to_contain_text("Recepcionista bilíngue")

    search.fill("encanador")
    expect(page.get_by_role("tab", name="Ativas (0)")).to_be_visible()
    expect(page.get_by_text("Nenhuma vaga encontrada")).to_be_visible()
    search.fill("")
    expect(page.get_by_role("tab", name="Ativas (2)")).to_be_visible()


def test_archive_restore_duplicate_close_and_delete(page: Page, make_account):
    email = make_account("client")
    job_id = publish(user_id(email), titulo="Copeiro para coquetel")
    open_jobs_tab(page, email)
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()

    row(page, job_id).get_by_role("button", name="Arquivar").click()
    expect(toast(page, "Vaga arquivada")).to_be_visible()
    expect(page.get_by_role("tab", name="Ativas (0)")).to_be_visible()
    page.get_by_role("tab", name="Arquivadas (1)").click()
    expect(row(page, job_id)).to_contain_text("Arquivada")

    row(page, job_id).get_by_role("button", name="Restaurar").click()
    expect(toast(page, "Vaga restaurada")).to_be_visible()
    expect(page.get_by_role("tab", name="Arquivadas (0)")).to_be_visible()
    page.get_by_role("tab", name="Ativas (1)").click()

    row(page, job_id).get_by_role("button", name="Duplicar").click()
    duplicate = page.get_by_role("dialog", name="Duplicar vaga")
    duplicate.get_by_label("Nova data 1").fill(shift_day(9).isoformat())
    duplicate.get_by_role("button", name="Duplicar").click()
    expect(toast(page, "Vaga duplicada para 1 data")).to_be_visible()
    expect(page.get_by_role("tab", name="Ativas (2)")).to_be_visible()

    row(page, job_id).get_by_role("button", name="Ver candidaturas").click()
    applications_dialog = page.get_by_role("dialog", name="Copeiro para coquetel")
    expect(applications_dialog.get_by_text("Nenhuma candidatura para esta vaga")).to_be_visible()
    page.keyboard.press("Escape")
    expect(applications_dialog).to_be_hidden()

    row(page, job_id).get_by_role("button", name="Encerrar vaga").click()
    confirm = page.get_by_role("alertdialog", name="Encerrar vaga?")
    expect(confirm).to_contain_text("Copeiro para coquetel")
    confirm.get_by_role("button", name="Encerrar vaga").click()
    expect(toast(page, "Vaga encerrada")).to_be_visible()
    # 'Ativas' holds what the plan's limit counts: the closed vaga moves to 'Encerradas'.
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()
    page.get_by_role("tab", name="Encerradas (1)").click()
    expect(row(page, job_id)).to_contain_text("Fechada")
    expect(row(page, job_id).get_by_role("button", name="Encerrar vaga")).to_have_count(0)

    row(page, job_id).get_by_role("button", name="Excluir").click()
    confirm = page.get_by_role("alertdialog", name="Excluir vaga?")
    confirm.get_by_role("button", name="Cancelar").click()
    expect(confirm).to_be_hidden()
    expect(row(page, job_id)).to_be_visible()
    row(page, job_id).get_by_role("button", name="Excluir").click()
    page.get_by_role("alertdialog", name="Excluir vaga?").get_by_role("button", name="Excluir").click()
    expect(toast(page, "Vaga excluída")).to_be_visible()
    expect(row(page, job_id)).to_have_count(0)
    expect(page.get_by_role("tab", name="Encerradas (0)")).to_be_visible()
    expect(page.get_by_role("tab", name="Ativas (1)")).to_be_visible()


def test_company_accepts_and_rejects_applications_and_views_a_profile(page: Page, make_account):
    email = make_account("client")
    job_id = publish(user_id(email), titulo="Garçom para jantar de gala")
    first = make_account("freelancer", name="Bruno Lima")
    second = make_account("freelancer", name="Carla Dias")
    first_application = apply(first, job_id, valor_proposto="40,00", mensagem="Trabalho com eventos há 5 anos.")
    apply(second, job_id)
    open_jobs_tab(page, email)
    expect(row(page, job_id).get_by_role("cell", name="2", exact=True)).to_be_visible()

    row(page, job_id).get_by_role("button", name="Ver candidaturas").click()
    dialog = page.get_by_role("dialog", name="Garçom para jantar de gala")
    bruno = dialog.locator(f"#application-{first_application}")
    carla = dialog.locator("[id^=application-]").filter(has_text="Carla Dias")
    expect(bruno).to_contain_text("R$ 40,00/hora")
    expect(bruno).to_contain_text("Trabalho com eventos há 5 anos.")
    expect(bruno).to_contain_text("Pendente")
    expect(carla).to_contain_text("Sem contra-proposta")

    bruno.get_by_role("button", name="Aceitar").click()
    expect(toast(page, "Candidatura aceita")).to_be_visible()
    expect(bruno).to_contain_text("Aceita")
    with session_scope() as db:
        chat_id = db.exec(select(Chat.id).where(Chat.application_id == first_application)).one()
    expect(bruno.get_by_role("link", name="Abrir chat")).to_have_attribute("href", f"/client-dashboard/chats/{chat_id}")
    expect(bruno.get_by_role("button", name="Aceitar")).to_have_count(0)

    carla.get_by_role("button", name="Recusar").click()
    expect(toast(page, "Candidatura recusada")).to_be_visible()
    expect(carla).to_contain_text("Recusada")
    expect(carla.get_by_role("button", name="Recusar")).to_have_count(0)

    bruno.get_by_role("button", name="Ver perfil").click()
    profile = page.get_by_role("dialog", name="Bruno Lima")
    expect(profile).to_contain_text("Garçom")
    expect(profile).to_contain_text("Sem avaliações ainda")
    expect(profile.get_by_role("tabpanel")).to_contain_text("Atendimento")
    profile.get_by_role("tab", name="Experiência").click()
    expect(profile.get_by_role("tabpanel")).to_contain_text("Nenhuma experiência informada.")


def test_an_accepted_applicant_keeps_its_place_among_many_and_more_brings_the_rest(page: Page, make_account):
    """More pending applicants than a page: the accepted card stays where it was, now 'Aceita' with
    its chat, and 'Carregar mais' brings the two that were left out, none skipped."""
    email = make_account("client")
    job_id = publish(user_id(email), titulo="Buffet de formatura", vagas_disponiveis="3")
    with session_scope() as db:  # 22 applicants straight into the tables: 22 sign-ups would be slow
        people = [
            User(email=f"candidato{n:02d}.{job_id}@teste.com.br", password_hash="x", role=Role.FREELANCER)
            for n in range(22)
        ]
        db.add_all(people)
        db.flush()
        db.add_all(
            Profile(user_id=person.id, tipo_usuario=Role.FREELANCER, nome=f"Candidato {n:02d}")
            for n, person in enumerate(people)
        )
        db.add_all(Application(vaga_id=job_id, freelancer_id=person.id) for person in people)
    open_jobs_tab(page, email)

    row(page, job_id).get_by_role("button", name="Ver candidaturas").click()
    dialog = page.get_by_role("dialog", name="Buffet de formatura")
    cards = dialog.locator("[id^=application-]")
    expect(cards).to_have_count(20)
    third = cards.nth(2)
    name = third.locator("text=/Candidato \\d+/").first.inner_text()
    third.get_by_role("button", name="Aceitar").click()

    expect(toast(page, "Candidatura aceita")).to_be_visible()
    expect(cards.nth(2)).to_contain_text(name)
    expect(cards.nth(2).get_by_text("Aceita", exact=True)).to_be_visible()
    expect(cards.nth(2).get_by_role("link", name="Abrir chat")).to_be_visible()
    expect(cards.nth(2).get_by_role("button", name="Aceitar")).to_have_count(0)
    expect(cards).to_have_count(20)

    dialog.locator("#more-applicants").click()
    expect(cards).to_have_count(22)
    expect(dialog.locator("#more-applicants")).to_have_count(0)
    expect(dialog.get_by_text("Aceita", exact=True)).to_have_count(1)


def test_a_long_list_counts_every_job_and_loads_more_in_place(page: Page, make_account):
    email = make_account("client")
    company = user_id(email)
    values = parse(JobForm, JOB).job_values()  # the stored columns, shift times included
    fields = {key: value for key, value in values.items() if key not in ("titulo", "valor_hora")}
    with session_scope() as db:  # straight into the table: the free plan would refuse this many
        db.add_all(Job(cliente_id=company, titulo=f"Vaga {n:02d}", **fields) for n in range(23))
    open_jobs_tab(page, email)

    expect(page.get_by_role("tab", name="Ativas (23)")).to_be_visible()
    table = page.locator("#active-jobs-table tbody tr")
    expect(table).to_have_count(20)
    page.locator("#more-active-jobs-table").click()
    expect(table).to_have_count(23)
    expect(page.locator("#more-active-jobs-table")).to_have_count(0)


def test_free_company_at_its_limit_sees_the_plan_message_with_a_pricing_link(page: Page, make_account):
    email = make_account("client")
    company = user_id(email)
    publish(company, titulo="Primeira vaga")
    publish(company, titulo="Segunda vaga")
    open_jobs_tab(page, email)

    page.locator("#publish-job").click()
    dialog = page.get_by_role("dialog", name="Publicar Nova Vaga")
    dialog.get_by_label("Título da vaga").fill("Terceira vaga")
    dialog.get_by_label("Categoria").select_option(label="Hotelaria")
    dialog.get_by_label("Descrição").fill("Camareira para alta temporada de verão.")
    dialog.get_by_label("Localização").fill("Natal, RN")
    fill_shift(dialog)
    dialog.get_by_role("button", name="Publicar Vaga").click()

    limit = dialog.locator("#publish-plan-limit")
    expect(limit).to_contain_text("Seu plano Gratuito permite até 2 vagas ativas.")
    expect(limit.get_by_role("link", name="Ver planos")).to_have_attribute("href", "/pricing")
    assert job_count(company) == 2
    limit.get_by_role("link", name="Ver planos").click()
    expect(page).to_have_url(re.compile(r"/pricing$"))


def test_mobile_cards_have_the_same_actions(mobile_page: Page, make_account):
    email = make_account("client")
    job_id = publish(user_id(email), titulo="Auxiliar de cozinha")
    open_jobs_tab(mobile_page, email)
    card = mobile_page.locator(f"#job-card-{job_id}")
    expect(card).to_contain_text("Auxiliar de cozinha")
    expect(mobile_page.locator("#active-jobs-table")).to_be_hidden()
    for label in ("Ver candidaturas", "Arquivar", "Duplicar", "Encerrar vaga", "Excluir"):
        expect(card.get_by_role("button", name=label)).to_be_visible()
    card.get_by_role("button", name="Arquivar").click()
    expect(toast(mobile_page, "Vaga arquivada")).to_be_visible()
    expect(mobile_page.get_by_role("tab", name="Arquivadas (1)")).to_be_visible()
