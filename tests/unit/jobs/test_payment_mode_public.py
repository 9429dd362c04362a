"""How a vaga is paid, as the public sees it: its page, its first paint, the list's badge and the 'Pagamento garantido' filter.

A vaga's `pagamento` is 'direto' or 'garantido' (alembic 0019). Its page, the apply form and the
server's first paint say 'Pagamento garantido pelo Turno' or 'Pagamento direto pela empresa — sem
garantia do Turno'; /jobs?garantido=1 lists only the guaranteed ones (services/jobs/jobs.py,
states/job_search.py, core/routes.py `jobs`, app/pages/jobs.py).
"""

from urllib.parse import parse_qsl, urlsplit

import pytest

from app.api import public_pages
from app.api.first_paint import job_article
from app.pages.jobs import JobsState
from core import routes
from core.catalog import (
    PAYMENT_DIRECT,
    PAYMENT_DIRECT_NOTE,
    PAYMENT_GUARANTEED,
    PAYMENT_GUARANTEED_NOTE,
)
from models import Job, JobStatus
from services.jobs import job_detail, jobs
from states.job_search import JobFilters
from tests.support.factories import make_company, make_job
from tests.support.state_harness import run, state_for

GUARANTEED_TEXT = "Pagamento garantido pelo Turno"
GUARANTEED_NOTE_TEXT = (
    "A empresa paga ao aceitar sua candidatura; o valor fica guardado no Turno e é enviado para você "
    "depois das horas aprovadas."
)
DIRECT_TEXT = "Pagamento direto pela empresa — sem garantia do Turno"


def _titles(page: jobs.JobPage) -> list[str]:
    return [item["title"] for item in page.items]


def _redirect_path(events: list) -> str:
    """The path of the one rx.redirect among `events`."""
    (spec,) = events
    return next(value._var_value for name, value in spec.args if str(name) == "path")


def _query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))


# --- the texts ------------------------------------------------------------------------------


def test_the_texts_are_the_products_own_words():
    assert PAYMENT_GUARANTEED == GUARANTEED_TEXT
    assert PAYMENT_GUARANTEED_NOTE == GUARANTEED_NOTE_TEXT
    assert PAYMENT_DIRECT == DIRECT_TEXT


# --- the job page ---------------------------------------------------------------------------


def test_a_guaranteed_vaga_says_so_on_its_page_with_its_note(db):
    company = make_company(db)
    guaranteed = make_job(db, company, "Garçom garantido", pagamento="garantido")
    direct = make_job(db, company, "Garçom direto")
    db.commit()

    safe = job_detail.get_public_job(db, guaranteed.id)
    plain = job_detail.get_public_job(db, direct.id)

    assert (safe["payment"], safe["payment_note"], safe["guaranteed"]) == (
        GUARANTEED_TEXT,
        GUARANTEED_NOTE_TEXT,
        True,
    )
    assert (plain["payment"], plain["payment_note"], plain["guaranteed"]) == (DIRECT_TEXT, PAYMENT_DIRECT_NOTE, False)


def test_a_vaga_switched_to_guaranteed_shows_it_at_once_not_the_cached_direct_text(db):
    company = make_company(db)
    job = make_job(db, company, "Bartender")
    db.commit()
    assert job_detail.get_public_job(db, job.id)["payment"] == DIRECT_TEXT  # now cached

    row = db.get(Job, job.id)
    row.pagamento = "garantido"
    db.add(row)
    db.commit()

    assert job_detail.get_public_job(db, job.id)["payment"] == GUARANTEED_TEXT
    assert [item["guaranteed"] for item in jobs.list_public_jobs(db).items] == [True]


def test_the_first_paint_of_a_guaranteed_vaga_says_guaranteed(db):
    company = make_company(db)
    job = make_job(db, company, "Copeiro", pagamento="garantido")
    db.commit()

    article = job_article(job_detail.get_public_job(db, job.id), "Turno")
    answer = public_pages.job_page_answer(f"/jobs/{job.id}", job.id)

    assert f"<dt>Pagamento</dt><dd>{GUARANTEED_TEXT}</dd>" in article
    assert GUARANTEED_NOTE_TEXT in article
    assert "sem garantia" not in article
    assert answer.status == 200 and f"<dd>{GUARANTEED_TEXT}</dd>" in answer.body


def test_the_first_paint_of_a_direct_vaga_stays_direct(db):
    company = make_company(db)
    job = make_job(db, company, "Copeiro")
    db.commit()

    article = job_article(job_detail.get_public_job(db, job.id), "Turno")

    assert f"<dt>Pagamento</dt><dd>{DIRECT_TEXT}</dd>" in article
    assert PAYMENT_DIRECT_NOTE in article
    assert GUARANTEED_TEXT not in article


# --- the list and its filter ------------------------------------------------------------------


def test_the_list_marks_guaranteed_rows_and_the_filter_keeps_only_them(db):
    company = make_company(db)
    make_job(db, company, "Garçom direto", hours_ago=3)
    make_job(db, company, "Garçom garantido", pagamento="garantido", hours_ago=2)
    make_job(db, company, "Copeira garantida", pagamento="garantido", categoria="hotel", hours_ago=1)
    make_job(db, company, "Garçom garantido encerrado", pagamento="garantido", status=JobStatus.CLOSED)
    db.commit()

    everything = jobs.list_public_jobs(db)
    only_guaranteed = jobs.list_public_jobs(db, guaranteed=True)

    assert {item["title"]: item["guaranteed"] for item in everything.items} == {
        "Garçom direto": False,
        "Garçom garantido": True,
        "Copeira garantida": True,
    }
    assert _titles(only_guaranteed) == ["Copeira garantida", "Garçom garantido"]
    assert only_guaranteed.total == 2
    assert everything.total == 3  # the unfiltered answer is cached apart from the filtered one


def test_the_guaranteed_filter_combines_with_the_others(db):
    company = make_company(db)
    make_job(db, company, "Garçom direto")
    make_job(db, company, "Garçom garantido", pagamento="garantido")
    make_job(db, company, "Copeira garantida", pagamento="garantido", categoria="hotel")
    make_job(db, company, "Garçom garantido em Recife", pagamento="garantido", localizacao="Recife")
    db.commit()

    assert _titles(jobs.list_public_jobs(db, search="garcom", guaranteed=True)) == [
        "Garçom garantido em Recife",
        "Garçom garantido",
    ]
    assert _titles(jobs.list_public_jobs(db, search="garcom", city="São Paulo", guaranteed=True)) == [
        "Garçom garantido"
    ]
    assert _titles(jobs.list_public_jobs(db, category="hotel", guaranteed=True)) == ["Copeira garantida"]
    assert jobs.list_public_jobs(db, company_id=company.id, guaranteed=True).total == 3


def test_no_guaranteed_vaga_gives_an_empty_filtered_list(db):
    make_job(db, make_company(db), "Garçom direto")
    db.commit()

    page = jobs.list_public_jobs(db, guaranteed=True)

    assert (page.items, page.total, page.pages) == ([], 0, 1)


def test_the_filters_of_a_query_run_the_guaranteed_search(db):
    company = make_company(db)
    make_job(db, company, "Garçom direto")
    make_job(db, company, "Garçom garantido", pagamento="garantido")
    db.commit()

    assert _titles(JobFilters.from_query({"garantido": "1"}).results(db)) == ["Garçom garantido"]
    assert len(JobFilters.from_query({}).results(db).items) == 2


# --- the URL ---------------------------------------------------------------------------------


def test_the_url_builder_writes_garantido_1_only_when_asked():
    assert routes.jobs() == "/jobs"
    assert routes.jobs(guaranteed=False) == "/jobs"
    assert routes.jobs(guaranteed=True) == "/jobs?garantido=1"
    assert routes.jobs(city="Curitiba", category="eventos", guaranteed=True, page=2) == (
        "/jobs?city=Curitiba&category=eventos&garantido=1&page=2"
    )


@pytest.mark.parametrize(
    "filters",
    [
        JobFilters(guaranteed=True),
        JobFilters(city="São Paulo", search="garçom", category="eventos", company_id=7, page=3, guaranteed=True),
        JobFilters(city="Recife", page=2),
    ],
)
def test_the_url_round_trips_through_the_query(filters):
    url = routes.jobs(
        city=filters.city,
        search=filters.search,
        category=filters.category,
        company=filters.company_id or None,
        page=filters.page,
        guaranteed=filters.guaranteed,
    )

    assert JobFilters.from_query(_query(url)) == filters


@pytest.mark.parametrize(("value", "on"), [("1", True), ("true", True), ("SIM", True), (" 1 ", True)])
def test_garantido_reads_as_on_for_yes_values(value, on):
    assert JobFilters.from_query({"garantido": value}).guaranteed is on


@pytest.mark.parametrize("value", ["", "0", "false", "nao", "2", "1" * 50])
def test_garantido_reads_as_off_for_anything_else(value):
    assert JobFilters.from_query({"garantido": value}).guaranteed is False
    assert JobFilters.from_query({}).guaranteed is False


def test_the_guaranteed_list_says_so_in_its_title():
    assert JobFilters(guaranteed=True).is_filtered
    assert JobFilters(guaranteed=True).subject == "Vagas temporárias com pagamento garantido"
    assert JobFilters(category="eventos", city="Curitiba", search="bar", guaranteed=True).subject == (
        "Vagas de Eventos com pagamento garantido em Curitiba para “bar”"
    )


# --- the /jobs page's handlers ------------------------------------------------------------------


def test_ticking_the_box_keeps_the_addresss_filters_even_before_the_list_loaded():
    """The state is still empty (no load yet): the URL comes from the address the browser is on."""
    state = state_for(JobsState, "", routes.JOBS, {"city": "Curitiba", "search": "garçom", "page": "3"})

    url = _redirect_path(run(state, JobsState.choose_guaranteed, True))

    assert _query(url) == {"city": "Curitiba", "search": "garçom", "garantido": "1"}  # back to page 1


def test_clearing_the_box_drops_only_garantido():
    state = state_for(JobsState, "", routes.JOBS, {"category": "eventos", "garantido": "1"})

    assert _query(_redirect_path(run(state, JobsState.choose_guaranteed, False))) == {"category": "eventos"}


def test_other_filters_keep_garantido_and_limpar_filtros_drops_it():
    state = state_for(JobsState, "", routes.JOBS, {"city": "Recife", "garantido": "1"})

    category_url = _redirect_path(run(state, JobsState.choose_category, "hotel"))
    search_url = _redirect_path(run(state, JobsState.submit_search, {"search": "bar"}))
    cleared = _redirect_path(run(state, JobsState.clear_filters))

    assert _query(category_url) == {"city": "Recife", "category": "hotel", "garantido": "1"}
    assert _query(search_url) == {"city": "Recife", "search": "bar", "garantido": "1"}
    assert _query(cleared) == {"city": "Recife"}


def test_loading_the_guaranteed_list_shows_only_guaranteed_rows_and_ticks_the_box(db):
    company = make_company(db)
    make_job(db, company, "Garçom direto")
    make_job(db, company, "Garçom garantido", pagamento="garantido")
    db.commit()
    state = state_for(JobsState, "", routes.JOBS, {"garantido": "1"})

    run(state, JobsState.load)

    assert state.guaranteed is True
    assert [item["title"] for item in state.items] == ["Garçom garantido"]
    assert state.total == 1
    assert state.page_title.startswith("Vagas temporárias com pagamento garantido | ")
