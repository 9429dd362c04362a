"""The job search matches title, category, city and address (issue 24 #5; alembic 0015 for old rows)."""

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from alembic import command
from models.job import search_text
from services.jobs import jobs
from states.job_search import JobFilters
from tests.support.factories import make_company, make_job


def test_the_search_text_holds_each_part_folded_after_its_separator():
    assert search_text("Garçom", "events", "São Paulo, SP", "Av. Paulista, 1578") == (
        "garcom | eventos eventos | sao paulo, sp | av. paulista, 1578"
    )
    assert search_text("Garçom", "eventos", "", "") == "garcom | eventos eventos"  # the 0002 form


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Curitiba", {"Garçom de salão"}),
        ("curitíba", {"Garçom de salão"}),  # accents and case do not matter
        ("Paulista", {"Bartender"}),  # the address
        ("garçom", {"Garçom de salão"}),
        ("eventos", {"Garçom de salão", "Bartender"}),  # the category
        ("salao curitiba", set()),  # a term never spans two parts
    ],
)
def test_the_list_search_matches_title_category_city_or_address(db, typed, found):
    company = make_company(db)
    make_job(db, company, "Garçom de salão", localizacao="Curitiba, PR", endereco="Rua XV de Novembro, 700")
    make_job(db, company, "Bartender", localizacao="São Paulo", endereco="Av. Paulista, 1578")
    db.commit()

    assert {item["title"] for item in jobs.list_public_jobs(db, search=typed).items} == found


def _old_job(engine, location: str, address: str, busca: str, city: str) -> None:
    """Job 10 of company 1, written with plain SQL as an older revision left it."""
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO users (id, email, password_hash, role, is_active, created_at) "
                "VALUES (1, 'c@teste.com.br', 'x', 'client', true, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO jobs (id, cliente_id, titulo, categoria, descricao, localizacao, endereco, duracao, "
                "habilidades_necessarias, vale_transporte, refeicao_local, possui_intervalo, anuncio_anonimo, "
                "status, vaga_status, vagas_disponiveis, is_archived, criado_em, updated_at, busca, cidade_busca, "
                "intervalo_min, codigo_segredo) VALUES (10, 1, 'Garçom', 'eventos', 'Descrição', :location, "
                ":address, '', '[]', false, false, false, false, 'open', 'open', 1, false, CURRENT_TIMESTAMP, "
                "CURRENT_TIMESTAMP, :busca, :city, 0, '')"
            ),
            {"location": location, "address": address, "busca": busca, "city": city},
        )


def _busca(engine) -> str:
    with engine.connect() as conn:
        return conn.execute(text("SELECT busca FROM jobs WHERE id = 10")).scalar_one()


def test_alembic_0015_rewrites_old_rows_with_city_and_address_and_back(empty_database_url, make_alembic_config):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0014")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        _old_job(engine, "Curitiba", "Rua XV", "garcom | eventos eventos", "curitiba")
        command.upgrade(cfg, "0015")
        assert _busca(engine) == "garcom | eventos eventos | curitiba | rua xv"
        if engine.dialect.name == "sqlite":  # the FTS index followed the rewrite
            with engine.connect() as conn:
                hits = conn.execute(text("SELECT rowid FROM jobs_busca_fts WHERE jobs_busca_fts MATCH '\"curitiba\"'"))
                assert hits.scalars().all() == [10]
        command.downgrade(cfg, "0014")
        assert _busca(engine) == "garcom | eventos eventos"
    finally:
        engine.dispose()


@pytest.mark.parametrize("asked", ["São Paulo", "sao paulo", "São Paulo, SP"])
def test_a_vaga_in_sao_paulo_sp_is_listed_under_sao_paulo(db, asked):
    company = make_company(db)
    make_job(db, company, "Garçom", localizacao="São Paulo, SP")
    make_job(db, company, "Copeiro", localizacao="São Paulo - SP")
    make_job(db, company, "Barista", localizacao="São Paulo")
    make_job(db, company, "Recepcionista", localizacao="São Paulo de Olivença, AM")
    db.commit()

    listed = {item["title"] for item in jobs.list_public_jobs(db, city=asked).items}

    assert listed == {"Garçom", "Copeiro", "Barista"}


def test_alembic_0016_keeps_only_the_city_part_and_back(empty_database_url, make_alembic_config):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0015")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        _old_job(engine, "São Paulo, SP", "", "garcom", "sao paulo, sp")
        city = "SELECT cidade_busca FROM jobs WHERE id = 10"
        command.upgrade(cfg, "0016")
        with engine.connect() as conn:
            assert conn.execute(text(city)).scalar_one() == "sao paulo"
        command.downgrade(cfg, "0015")
        with engine.connect() as conn:
            assert conn.execute(text(city)).scalar_one() == "sao paulo, sp"
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ({"city": "Curitiba"}, "Vagas temporárias em Curitiba"),
        ({"category": "events", "city": "Recife"}, "Vagas de Eventos em Recife"),
        ({"search": "garçom", "category": "eventos"}, "Vagas de Eventos para “garçom”"),
        ({"search": "  bar  ", "city": "Natal", "page": "3"}, "Vagas temporárias em Natal para “bar”"),
    ],
)
def test_a_filtered_list_says_what_it_lists_in_one_phrase_for_its_head_and_its_tab(query, subject):
    filters = JobFilters.from_query(query)

    assert filters.is_filtered
    assert filters.subject == subject


@pytest.mark.parametrize("query", [{}, {"page": "2"}, {"empresa": "7"}, {"category": "nope"}])
def test_a_list_without_a_city_category_or_search_is_the_plain_list(query):
    assert not JobFilters.from_query(query).is_filtered
