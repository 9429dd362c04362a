"""Browsing jobs as a visitor: /jobs (pages, filters in the URL, empty state), categories and job detail.

The app under test is shared by every browser test, so each test gives its jobs a unique token in
the title (or a unique company) and filters by it; the counts it asserts are then its own.
"""

import re
import uuid
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from playwright.sync_api import Page, expect

from core.db import session_scope
from core.formatting import LOCAL_TZ, long_date
from core.shift_format import shift_text
from core.types import utcnow
from models import Application, Job, Rating
from services.accounts import accounts
from services.jobs import company_jobs
from tests.e2e.conftest import PASSWORD, goto_ready, wait_hydrated

PAGE_SIZE = 10


def _token() -> str:
    return "zq" + uuid.uuid4().hex[:8]


def _company(name: str) -> int:
    """A confirmed company named `name` on the free plan (jobs are then added directly)."""
    email = f"browse-{uuid.uuid4().hex[:10]}@teste.com.br"
    data = {
        "name": "Pessoa Teste",
        "email": email,
        "password": "Senha1234",
        "confirmPassword": "Senha1234",
        "location": "São Paulo, SP",
        "company": name,
        "industry": "hotel",
    }
    with session_scope() as db:
        user = accounts.register_company(db, data)
        user.email_confirmed_at = utcnow()
        db.add(user)
        db.flush()
        return user.id


def _add_jobs(company_id: int, titles: list[str], **fields) -> list[int]:
    """Open jobs of the company, straight into the database (the plan limit is not what is tested here)."""
    values = {
        "categoria": "eventos",
        "descricao": "Atendimento em evento de teste.",
        "localizacao": "São Paulo",
        "valor_hora": Decimal("25.00"),
        **fields,
    }
    with session_scope() as db:
        jobs = [Job(cliente_id=company_id, titulo=title, **values) for title in titles]
        db.add_all(jobs)
        db.flush()
        return [job.id for job in jobs]


def _rows(page: Page):
    return page.locator("#jobs-table tbody tr")


def test_jobs_come_in_pages_of_ten_and_the_page_lives_in_the_url(page: Page):
    token = _token()
    _add_jobs(_company("Buffet Paginado"), [f"Garçom {token} {n:02d}" for n in range(25)])

    page.goto(f"/jobs?search=garcom+{token}")
    expect(page.get_by_text("25 vagas encontradas")).to_be_visible()
    expect(_rows(page)).to_have_count(PAGE_SIZE)
    pager = page.get_by_role("navigation", name="Paginação")
    expect(pager.get_by_role("link", name=re.compile(r"^Página \d+$"))).to_have_count(3)
    expect(pager.get_by_role("link", name="Página 1")).to_have_attribute("aria-current", "page")
    expect(pager.get_by_role("button", name="Anterior")).to_be_disabled()
    expect(_rows(page).first).to_contain_text(f"Garçom {token} 24")  # newest first

    pager.get_by_role("link", name="Página 3").click()
    expect(page).to_have_url(re.compile(r"/jobs\?search=garcom\+" + token + r"&page=3$"))
    expect(_rows(page)).to_have_count(5)
    expect(pager.get_by_role("button", name="Próxima")).to_be_disabled()

    page.reload()
    expect(_rows(page)).to_have_count(5)
    expect(pager.get_by_role("link", name="Página 3")).to_have_attribute("aria-current", "page")

    page.locator("#jobs-category").select_option("eventos")
    expect(page).to_have_url(re.compile(r"category=eventos"))
    expect(page).not_to_have_url(re.compile(r"page="))
    expect(_rows(page)).to_have_count(PAGE_SIZE)


def test_one_page_of_results_has_no_pager_and_search_ignores_accents_and_case(page: Page):
    token = _token()
    _add_jobs(_company("Hotel Sem Acento"), [f"Recepção Noturna {token}", f"Cozinheiro {token}"])

    page.goto(f"/jobs?search=RECEPCAO+NOTURNA+{token.upper()}")
    expect(page.get_by_text("1 vaga encontrada")).to_be_visible()
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text(f"Recepção Noturna {token}")
    expect(page.get_by_role("navigation", name="Paginação")).to_have_count(0)
    expect(page.locator("#filtros-ativos")).to_contain_text(f"Busca: “RECEPCAO NOTURNA {token.upper()}”")


def test_rows_show_company_pay_and_long_date_and_hide_confidential_companies(page: Page):
    token = _token()
    company = _company(f"Pousada {token}")
    _add_jobs(company, [f"Camareira {token}"], valor_hora=Decimal("25.00"))
    _add_jobs(company, [f"Copeiro {token}"], valor_hora=None, anuncio_anonimo=True)

    page.goto(f"/jobs?search={token}")
    expect(_rows(page)).to_have_count(2)
    maid = _rows(page).filter(has_text=f"Camareira {token}")
    expect(maid).to_contain_text(f"Pousada {token}")
    expect(maid).to_contain_text("R$ 25,00/hora")
    expect(maid).to_contain_text(long_date(utcnow()))
    hidden = _rows(page).filter(has_text=f"Copeiro {token}")
    expect(hidden).to_contain_text("Empresa Confidencial")
    expect(hidden).to_contain_text("A combinar")
    expect(hidden).not_to_contain_text(f"Pousada {token}")


def test_city_filter_matches_the_location_ignoring_case(page: Page):
    token = _token()
    company = _company("Restaurante das Cidades")
    _add_jobs(company, [f"Sommelier {token}"], localizacao="Recife")
    _add_jobs(company, [f"Sommelier {token} SP"], localizacao="São Paulo")

    page.goto(f"/jobs?city=RECIFE&search={token}")
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text("Recife")


def test_no_results_show_the_empty_state_and_clear_filters(page: Page):
    page.goto(f"/jobs?search={_token()}&category=design")
    expect(page.get_by_role("heading", name="Nenhuma vaga encontrada")).to_be_visible()
    expect(page.get_by_text("Atualmente não há vagas disponíveis que correspondam aos seus filtros.")).to_be_visible()
    page.get_by_role("button", name="Limpar filtros").click()
    expect(page).to_have_url(re.compile(r"/jobs$"))
    expect(page.locator("#jobs-search")).to_have_value("")


def test_archived_and_closed_jobs_stay_out_of_the_list_and_their_pages_offer_similar_open_jobs(page: Page):
    token = _token()
    company = _company("Hotel Arquivador")
    open_id, archived_id, closed_id = _add_jobs(
        company, [f"Porteiro {token} aberta", f"Porteiro {token} arquivada", f"Porteiro {token} fechada"]
    )
    with session_scope() as db:
        company_jobs.archive_job(db, company, archived_id)
        company_jobs.close_job(db, company, closed_id)

    page.goto(f"/jobs?search={token}")
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text(f"Porteiro {token} aberta")
    for job_id in (archived_id, closed_id):
        page.goto(f"/jobs/{job_id}")
        expect(page.get_by_role("heading", name="Esta vaga não está mais disponível")).to_be_visible()
        similar = page.locator("#similar-jobs")
        expect(similar.get_by_role("heading", name="Vagas parecidas abertas agora")).to_be_visible()
        expect(similar.get_by_role("link").first).to_contain_text(f"Porteiro {token} aberta")  # newest alike
        expect(similar.get_by_role("link").filter(has_text=f"Porteiro {token} arquivada")).to_have_count(0)
    similar.get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(rf"/jobs/{open_id}$"))
    expect(page.get_by_role("heading", name=f"Porteiro {token} aberta")).to_be_visible()
    page.goto("/jobs/987654321")
    expect(page.get_by_role("heading", name="Vaga não encontrada")).to_be_visible()


def test_job_detail_shows_every_field_and_invites_visitors_to_sign_in(page: Page, make_account):
    token = _token()
    needed = date.today() + timedelta(days=12)
    [job_id] = _add_jobs(
        _company(f"Eventos {token}"),
        [f"Bartender {token}"],
        categoria="eventos",
        descricao="Preparar drinks clássicos e autorais para 200 convidados.",
        localizacao="Curitiba",
        valor_hora=Decimal("42.50"),
        duracao="6 horas",
        data_necessaria=needed,
        inicio_em=(start := datetime.combine(needed, time(18), tzinfo=LOCAL_TZ).astimezone(UTC)),
        fim_em=start + timedelta(hours=8),
        intervalo_min=60,
        endereco="Rua XV de Novembro, 700 - Centro, Curitiba",
        habilidades_necessarias=["Coquetelaria", "Atendimento"],
        vale_transporte=True,
        refeicao_local=False,
        possui_intervalo=True,
        vagas_disponiveis=3,
    )

    page.goto(f"/jobs?search={token}")
    page.get_by_role("link", name=f"Ver detalhes da vaga Bartender {token}").click()
    expect(page).to_have_url(re.compile(rf"/jobs/{job_id}$"))
    expect(page.get_by_role("heading", name=f"Bartender {token}", level=1)).to_be_visible()
    expect(page.locator("#job-company")).to_have_text(f"Eventos {token}")
    shift = shift_text(start, start + timedelta(hours=8), 60)  # e.g. 'ter., 08/12 · 18:00–02:00 (8h, intervalo 60 min)'
    for text in ("Curitiba", "R$ 42,50/hora", shift, "Coquetelaria", "Atendimento"):
        expect(page.get_by_role("main").get_by_text(text, exact=True).first).to_be_visible()
    expect(page.locator("#job-description")).to_have_text("Preparar drinks clássicos e autorais para 200 convidados.")
    expect(page.locator("#job-address")).to_contain_text("Rua XV de Novembro, 700 - Centro, Curitiba")
    expect(page.get_by_text("Vale-transporte: Sim")).to_be_visible()
    expect(page.get_by_text("Refeição no local: Não")).to_be_visible()
    expect(page.get_by_text("Intervalo: Sim")).to_be_visible()
    page.get_by_role("link", name="Entre para se candidatar").click()
    expect(page).to_have_url(re.compile(rf"/login\?next=%2Fjobs%2F{job_id}$"))
    form = page.locator("#login-form")  # signing in comes back to the job, ready to apply
    form.get_by_label("Email").fill(make_account("freelancer"))
    form.get_by_label("Senha").fill(PASSWORD)
    form.get_by_role("button", name="Entrar").click()
    expect(page).to_have_url(re.compile(rf"/jobs/{job_id}/?$"))
    expect(page.get_by_role("heading", name=f"Bartender {token}")).to_be_visible()


def test_category_page_lists_companies_with_open_jobs_and_english_slugs_redirect(page: Page):
    token = _token()
    _add_jobs(_company(f"Banda {token}"), [f"Baterista {token}", f"Vocalista {token}"], categoria="musica")
    _add_jobs(_company(f"Estúdio {token}"), [f"Guitarrista {token}"], categoria="musica")
    _add_jobs(_company(f"Hotel {token}"), [f"Concierge {token}"], categoria="hotel")

    page.goto("/categories/musica")
    expect(page.get_by_role("heading", name="Empresas - Música")).to_be_visible()
    band = page.locator(".rt-Card").filter(has=page.get_by_role("heading", name=f"Banda {token}"))
    expect(band).to_contain_text("2 vagas disponíveis")
    studio = page.locator(".rt-Card").filter(has=page.get_by_role("heading", name=f"Estúdio {token}"))
    expect(studio).to_contain_text("1 vaga disponível")
    expect(page.get_by_role("heading", name=f"Hotel {token}")).to_have_count(0)
    expect(page.locator("#total-empresas")).to_contain_text("empresa(s) que oferecem vagas nesta categoria.")

    band.get_by_role("link", name=f"Ver vagas de Banda {token}").click()
    expect(page).to_have_url(re.compile(r"/jobs\?category=musica&empresa=\d+$"))
    expect(_rows(page)).to_have_count(2)

    page.goto("/categories/events")
    expect(page).to_have_url(re.compile(r"/categories/eventos$"))
    expect(page.get_by_role("heading", name="Empresas - Eventos")).to_be_visible()


def test_unknown_category_says_so(page: Page):
    page.goto("/categories/nao-existe")
    expect(page.get_by_role("heading", name="Categoria não encontrada")).to_be_visible()
    expect(page.get_by_role("heading", name="Nenhuma empresa encontrada nesta categoria.")).to_be_visible()


def _rate_company(company_id: int, *stars: int) -> None:
    """Freelancers hired on a closed vaga of the company rate it `stars`."""
    [closed_id] = _add_jobs(company_id, [f"Encerrada {_token()}"], status="closed", vaga_status="closed")
    with session_scope() as db:
        for n, given in enumerate(stars):
            freelancer = accounts.register_freelancer(
                db,
                {
                    "name": f"Avaliadora {n}",
                    "email": f"avalia-{uuid.uuid4().hex[:10]}@teste.com.br",
                    "password": "Senha1234",
                    "confirmPassword": "Senha1234",
                    "profession": "Garçom",
                    "skills": "Atendimento, Bandeja",
                    "location": "São Paulo, SP",
                },
            )
            application = Application(vaga_id=closed_id, freelancer_id=freelancer.id, status="accepted")
            db.add(application)
            db.flush()
            db.add(Rating(application_id=application.id, rater_id=freelancer.id, ratee_id=company_id, stars=given))


def test_a_companys_rating_shows_on_its_vagas_but_never_on_an_anonymous_one(page: Page):
    token = _token()
    company = _company(f"Hotel Avaliado {token}")
    _rate_company(company, 5, 4)
    shown_id, closing_id = _add_jobs(company, [f"Recepcionista {token}", f"Camareira {token}"])
    _add_jobs(company, [f"Anônima {token}"], anuncio_anonimo=True)

    page.goto(f"/jobs?search={token}")
    expect(_rows(page)).to_have_count(3)
    expect(_rows(page).filter(has_text=f"Recepcionista {token}")).to_contain_text("4,5 (2 avaliações)")
    expect(_rows(page).filter(has_text=f"Anônima {token}")).not_to_contain_text("avaliaç")
    page.goto(f"/jobs/{shown_id}")
    expect(page.locator("#job-company-card")).to_contain_text("4,5 (2 avaliações)")
    with session_scope() as db:
        company_jobs.close_job(db, company, closing_id)
    page.goto(f"/jobs/{closing_id}")  # closed: its similar open vagas carry the rating too
    similar = page.locator("#similar-jobs").get_by_role("link").filter(has_text=f"Recepcionista {token}")
    expect(similar).to_contain_text("4,5 (2 avaliações)")


def test_the_home_search_finds_vagas_by_city_or_address_and_the_header_shows_the_chosen_city(page: Page):
    token = _token()
    company = _company(f"Pousada {token}")
    _add_jobs(company, [f"Camareira {token}"], localizacao="Curitiba, PR", endereco=f"Rua {token}, 10")

    goto_ready(page, "/")
    hero = page.locator("#hero-search")
    hero.fill(f"Rua {token}")
    hero.press("Enter")
    expect(page).to_have_url(re.compile(rf"/jobs/?\?search=Rua\+{token}"))
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text(f"Camareira {token}")

    goto_ready(page, "/")
    hero.fill("Curitiba")
    hero.press("Enter")
    expect(page.get_by_role("link", name=f"Ver detalhes da vaga Camareira {token}")).to_be_visible()

    picker = page.locator("#desktop-city")
    picker.select_option("Curitiba")
    expect(page).to_have_url(re.compile(r"/jobs/?\?city=Curitiba$"))
    expect(picker).to_have_value("Curitiba")  # the header keeps showing the chosen city
    page.goto("/jobs")
    expect(page.locator("#desktop-city")).to_have_value("")


def test_a_vaga_published_as_sao_paulo_sp_is_listed_under_the_city_sao_paulo(page: Page):
    token = _token()
    _add_jobs(_company(f"Bistrô {token}"), [f"Sommelier {token}"], localizacao="São Paulo, SP")

    page.goto(f"/jobs?city=S%C3%A3o+Paulo&search={token}")

    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text(f"Sommelier {token}")


def test_a_searched_list_shows_its_search_before_the_page_connects(page: Page):
    page.route_web_socket(re.compile(r"/_event"), lambda ws: None)  # the websocket never answers
    searched_title = "Vagas temporárias para “garçom de gala” | Turno"

    answer = page.goto("/jobs?search=gar%C3%A7om+de+gala")

    assert f'<title data-seo data-address="/jobs?search=gar%C3%A7om+de+gala">{searched_title}</title>' in answer.text()
    wait_hydrated(page, "#jobs-search")  # React has rendered the page over the server's HTML
    expect(page.locator("#jobs-search")).to_have_value("garçom de gala")
    expect(page).to_have_title(searched_title)


def test_a_category_list_shows_its_category_chosen_before_the_page_connects(page: Page):
    page.route_web_socket(re.compile(r"/_event"), lambda ws: None)  # the websocket never answers

    answer = page.goto("/jobs?category=events&city=Recife")  # the English alias

    assert '<option value="eventos" selected="">Eventos</option>' in answer.text()
    wait_hydrated(page, "#jobs-category")
    expect(page.locator("#jobs-category")).to_have_value("eventos")
    expect(page).to_have_title("Vagas de Eventos em Recife | Turno")


def test_a_filtered_list_keeps_its_title_when_connected_and_when_the_filter_changes(page: Page):
    goto_ready(page, "/jobs?city=Curitiba&search=gar%C3%A7om")
    expect(page).to_have_title("Vagas temporárias em Curitiba para “garçom” | Turno")

    page.locator("#jobs-category").select_option("eventos")

    expect(page).to_have_url(re.compile(r"category=eventos"))
    expect(page).to_have_title("Vagas de Eventos em Curitiba para “garçom” | Turno")
    page.get_by_role("link", name="Remover filtro de busca").click()
    expect(page).to_have_title("Vagas de Eventos em Curitiba | Turno")
    page.get_by_role("link", name="Remover filtro de cidade").click()
    expect(page).to_have_title("Vagas de Eventos | Turno")
