"""Words a person reads first (issue 42 point 13): the job list's empty state and pay column, the
header's city picker, 'Possui intervalo' and the publish form's starting city and address."""

from datetime import UTC, datetime, timedelta

import pytest

from app.pages.jobs import JobsState, job_table, results
from components.job_filters import NO_OPEN_JOBS_TEXT
from components.shell import navbar
from models import Role
from services.accounts import profiles
from services.common.job_forms import JobForm
from services.common.validation import parse
from tests.support.factories import make_company, make_user
from tests.support.shift_form import ADDRESS, local_input
from tests.support.state_harness import state_for

NOW = datetime(2026, 11, 1, 15, 0, tzinfo=UTC)
START = NOW + timedelta(days=3)
FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    "endereco": ADDRESS,
    "inicio_em": local_input(START),
    "fim_em": local_input(START + timedelta(hours=8)),
}


@pytest.mark.parametrize(
    ("query", "filtered"),
    [({}, False), ({"search": "garçom"}, True), ({"city": "Recife"}, True), ({"garantido": "1"}, True)],
)
def test_the_job_list_knows_whether_a_filter_narrows_it(query, filtered):
    state = state_for(JobsState, path="/jobs", query=query)
    state._read_query()

    assert state.filtered is filtered


def test_the_unfiltered_empty_list_says_no_vagas_are_open_and_the_pay_column_is_the_hourly_value():
    rendered = str(results())

    assert NO_OPEN_JOBS_TEXT in rendered and "Limpar filtros" in rendered  # the second only when filtered
    assert "Valor por hora" in str(job_table()) and "Salário" not in str(job_table())


def test_the_dashboards_job_search_without_filters_does_not_mention_filters():
    from app.pages.freelancer_dashboard.job_search import jobs_tab

    rendered = str(jobs_tab())

    assert NO_OPEN_JOBS_TEXT in rendered  # the unfiltered empty list
    assert "Limpar filtros" in rendered  # only when a search, category or city narrows it
    for field in ("job_search", "job_category", "job_city"):
        assert field in rendered


def test_the_header_city_picker_is_labelled_sua_cidade():
    rendered = str(navbar())

    assert "Sua cidade" in rendered and '"Selecione"' not in rendered


@pytest.mark.parametrize(("minutes", "has_break"), [("0", False), ("", False), ("30", True)])
def test_possui_intervalo_is_what_the_break_minutes_say(minutes, has_break):
    sent = {**FORM, "intervalo_min": minutes, "possui_intervalo": "on" if not has_break else ""}

    assert parse(JobForm, sent, now=NOW).job_values()["possui_intervalo"] is has_break


def test_a_new_vaga_starts_from_the_company_profiles_city_and_address(db):
    company = make_company(db, localizacao="Recife, PE", endereco="Av. Boa Viagem, 100")
    freelancer = make_user(db, "f@x.com", Role.FREELANCER, localizacao="Natal, RN", endereco="Rua A, 1")

    assert profiles.publish_defaults(db, company.id) == ("Recife, PE", "Av. Boa Viagem, 100")
    assert profiles.publish_defaults(db, freelancer.id) == ("", "")
    assert profiles.publish_defaults(db, 987654) == ("", "")
