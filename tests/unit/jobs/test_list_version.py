"""The job list's token (services/jobs/list_version.py) and the cache keyed on it (services/jobs/job_list_cache.py).

The cache is only as right as the token: every write the list shows must move it, in the same
commit, whoever writes; nothing else should (or the cache would be useless). Each case runs on
SQLite and, when configured, PostgreSQL.
"""

from collections.abc import Iterator
from decimal import Decimal

import pytest
from sqlalchemy import insert, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

import core.db
from core.token_cache import TokenCache
from core.types import utcnow
from models import Job, Profile
from services.jobs import job_list_cache, list_version
from services.jobs.bulk_load import jobs_loading
from services.jobs.job_detail import get_public_job
from services.jobs.jobs import list_public_jobs
from tests.support.factories import make_application, make_company, make_freelancer, make_job, make_rating
from tests.support.sql_log import sent_statements


def _token(engine: Engine) -> str | None:
    """The token as a new session sees it (what other processes see)."""
    with Session(engine) as other:
        return list_version.current(other)


def _job_row(company_id: int) -> dict:
    """A job row for a Core bulk insert (no ORM events: every required column given)."""
    return {
        "cliente_id": company_id,
        "titulo": "Lote",
        "categoria": "eventos",
        "descricao": "d",
        "localizacao": "Recife",
        "valor_hora": Decimal("30"),
        "criado_em": utcnow(),
        "updated_at": utcnow(),
        "habilidades_necessarias": [],
    }


def _trigger_catalog(db: Session) -> list[str]:
    """The definitions of the token's (and on SQLite the search index's) triggers as the database holds them."""
    if db.get_bind().dialect.name == "sqlite":
        query = "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    else:
        query = (
            "SELECT pg_get_triggerdef(oid) || ' ' || pg_get_functiondef(tgfoid) FROM pg_trigger "
            "WHERE tgname LIKE 'job_list_version%' AND NOT tgisinternal ORDER BY tgname"
        )
    return list(db.exec(text(query)).scalars())  # type: ignore[call-overload]


def test_every_committed_job_write_moves_the_token_and_a_rollback_does_not(db, engine):
    company = make_company(db)
    db.commit()
    tokens = [_token(engine)]
    job = make_job(db, company)
    db.commit()
    tokens.append(_token(engine))
    job.status = "closed"
    db.add(job)
    db.commit()
    tokens.append(_token(engine))
    db.delete(job)
    db.commit()
    tokens.append(_token(engine))
    assert None not in tokens and len(set(tokens)) == 4, tokens

    make_job(db, company)
    db.rollback()
    assert _token(engine) == tokens[-1]


def test_only_what_the_job_pages_show_of_a_profile_moves_the_token(db, engine):
    company = make_company(db)
    freelancer = make_freelancer(db)
    job = make_job(db, company)
    db.commit()
    profile = db.get(Profile, company.id)

    before = _token(engine)
    profile.telefone = "(11) 98888-7777"
    db.add(make_application(db, job, freelancer))
    db.commit()
    assert _token(engine) == before, "a phone number or an application is not on the list"

    shown = (
        ("empresa", "Bar do Porto"),
        ("nome", "Rita Lee"),
        ("foto_url", "/uploads/x.webp"),
        ("biografia", "Bar de praia desde 1990."),  # the job page (/jobs/{id}) shows these three
        ("website", "https://bardoporto.com.br"),
        ("redes_sociais", {"instagram": "bardoporto"}),
    )
    for column, value in shown:
        setattr(profile, column, value)
        db.add(profile)
        db.commit()
        after = _token(engine)
        assert after != before, f"{column} is shown on a job's pages"
        before = after


def test_a_job_page_is_answered_from_the_cache_until_its_company_changes_its_bio(db, engine):
    company = make_company(
        db, empresa="Bar do Porto", biografia="Desde 1990.", redes_sociais={"instagram": "bardoporto"}
    )
    job = make_job(db, company, title="Bartender", habilidades_necessarias=["Coquetelaria"])
    db.commit()
    first = get_public_job(db, job.id)
    with sent_statements(engine) as sent:
        second = get_public_job(db, job.id)
    assert second == first and first["company_bio"] == "Desde 1990."
    assert first["skills"] == ["Coquetelaria"] and len(first["company_links"]) == 1
    assert len(sent) == 1 and "job_list_version" in sent[0], sent

    second["skills"].append("alterado")
    second["company_links"].clear()
    assert get_public_job(db, job.id) == first, "callers get copies"

    profile = db.get(Profile, company.id)
    profile.biografia = "Bar de praia desde 1990."
    db.add(profile)
    db.commit()
    assert get_public_job(db, job.id)["company_bio"] == "Bar de praia desde 1990."

    job.status = "closed"
    db.add(job)
    db.commit()
    assert get_public_job(db, job.id) is None, "a closed job is no longer public"


def test_a_second_identical_list_is_answered_from_the_cache(db, engine):
    company = make_company(db)
    for n in range(25):
        make_job(db, company, title=f"Garçom {n}", hours_ago=n)
    db.commit()
    first = list_public_jobs(db, search="garcom", page=2)
    with sent_statements(engine) as sent:
        second = list_public_jobs(db, search="garcom", page=2)
    assert second == first and first.total == 25 and first.page == 2
    assert len(sent) == 1 and "job_list_version" in sent[0], sent


def test_a_write_by_another_process_is_seen_on_the_next_list(db, engine):
    company = make_company(db, empresa="Hotel Atlântico")
    make_job(db, company, title="Garçom antigo", hours_ago=2)
    db.commit()
    assert list_public_jobs(db).total == 1

    other = core.db.make_engine(engine.url.render_as_string(hide_password=False))
    try:
        with Session(other) as elsewhere:
            elsewhere.add(
                Job(
                    cliente_id=company.id,
                    titulo="Bartender novo",
                    categoria="eventos",
                    descricao="d",
                    localizacao="Recife",
                    valor_hora=Decimal("40"),
                    criado_em=utcnow(),
                )
            )
            profile = elsewhere.get(Profile, company.id)
            profile.empresa = "Hotel Renomeado"
            elsewhere.add(profile)
            elsewhere.commit()
    finally:
        other.dispose()
    db.commit()  # end this session's read transaction, as each new request does

    page = list_public_jobs(db)
    assert page.total == 2
    assert [item["title"] for item in page.items] == ["Bartender novo", "Garçom antigo"]
    assert {item["company"] for item in page.items} == {"Hotel Renomeado"}


def test_a_transaction_sees_its_own_uncommitted_jobs(db):
    company = make_company(db)
    make_job(db, company, title="Primeira")
    db.commit()
    assert list_public_jobs(db).total == 1
    make_job(db, company, title="Segunda")  # flushed, not committed
    assert [item["title"] for item in list_public_jobs(db).items] == ["Segunda", "Primeira"]
    db.rollback()
    assert list_public_jobs(db).total == 1


def test_each_filter_and_page_is_its_own_entry(db):
    company = make_company(db)
    make_job(db, company, title="Garçom Recife", localizacao="Recife")
    make_job(db, company, title="Cozinheiro Natal", localizacao="Natal", categoria="gastronomia")
    db.commit()
    assert [item["title"] for item in list_public_jobs(db, city="Recife").items] == ["Garçom Recife"]
    assert [item["title"] for item in list_public_jobs(db, city="natal").items] == ["Cozinheiro Natal"]
    assert list_public_jobs(db, category="gastronomia").total == 1
    assert list_public_jobs(db, search="garcom", city="Natal").total == 0
    assert list_public_jobs(db, company_id=company.id).total == 2


def test_a_caller_changing_its_page_does_not_change_the_cache(db):
    company = make_company(db)
    make_job(db, company, title="Garçom")
    db.commit()
    page = list_public_jobs(db)
    page.items[0]["title"] = "alterado"
    page.items.clear()
    assert [item["title"] for item in list_public_jobs(db).items] == ["Garçom"]


def test_a_bulk_load_with_the_triggers_suspended_moves_the_token_once_and_puts_them_back(db, engine):
    company = make_company(db)
    db.commit()
    catalog = _trigger_catalog(db)
    before = _token(engine)
    with engine.begin() as conn, list_version.triggers_suspended(conn):
        conn.execute(insert(Job), [_job_row(company.id)] * 50)
    assert _token(engine) != before
    db.commit()
    assert _trigger_catalog(db) == catalog and len(catalog) >= 2
    assert list_public_jobs(db).total == 50


def test_the_triggers_in_the_migration_are_the_ones_bulk_loads_put_back(db, engine):
    catalog = _trigger_catalog(db)
    with engine.begin() as conn:
        for statement in list_version.drop_ddl(conn.dialect.name) + list_version.trigger_ddl(conn.dialect.name):
            conn.exec_driver_sql(statement)
    db.commit()
    assert _trigger_catalog(db) == catalog


def test_the_token_cache_keeps_the_newest_entries_and_skips_without_a_token():
    cache = TokenCache(entries=2)
    calls = []

    def compute(value):
        calls.append(value)
        return value

    assert cache.get_or_compute("a", "t1", lambda: compute(1)) == 1
    assert cache.get_or_compute("a", "t1", lambda: compute(2)) == 1
    assert cache.get_or_compute("a", "t2", lambda: compute(3)) == 3, "a new token invalidates"
    cache.get_or_compute("b", "t2", lambda: compute(4))
    cache.get_or_compute("c", "t2", lambda: compute(5))
    assert len(cache) == 2
    assert cache.get_or_compute("a", "t2", lambda: compute(6)) == 6, "the oldest entry went first"
    assert cache.get_or_compute("z", None, lambda: compute(7)) == 7
    assert cache.get_or_compute("z", None, lambda: compute(8)) == 8, "no token, no caching"
    assert calls == [1, 3, 4, 5, 6, 7, 8]
    assert (cache.hits, cache.misses) == (1, 5)


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    """Each test starts with empty list caches (they are process-wide)."""
    job_list_cache.clear()
    yield


def test_a_failed_bulk_load_leaves_the_triggers_and_the_token_as_they_were(db, engine):
    catalog = _trigger_catalog(db)
    before = _token(engine)
    db.commit()
    with pytest.raises(RuntimeError), engine.begin() as conn, list_version.triggers_suspended(conn):
        raise RuntimeError("load failed")
    assert _trigger_catalog(db) == catalog
    assert _token(engine) == before


def test_a_bulk_job_load_is_searchable_and_leaves_every_trigger_as_the_migrations_made_it(db, engine):
    company = make_company(db)
    make_job(db, company, title="Garçom de antes")
    db.commit()
    catalog = _trigger_catalog(db)
    rows = [
        {**_job_row(company.id), "titulo": f"Bartender {n}", "busca": f"bartender {n} | eventos eventos"}
        for n in range(30)
    ]
    with engine.begin() as conn, jobs_loading(conn):
        conn.execute(insert(Job), rows)
    db.commit()
    assert _trigger_catalog(db) == catalog
    assert list_public_jobs(db, search="bartender").total == 30
    assert list_public_jobs(db, search="garcom").total == 1
    make_job(db, company, title="Garçom depois")
    db.commit()
    assert list_public_jobs(db, search="garcom").total == 2, "the search triggers work again"


def test_a_rating_written_or_removed_moves_the_token(db, engine):
    company, freelancer = make_company(db), make_freelancer(db)
    application = make_application(db, make_job(db, company, status="closed"), freelancer, status="accepted")
    db.commit()
    before = list_version.current(db)

    rating = make_rating(db, application, freelancer, company, 4)
    db.commit()
    after_insert = list_version.current(db)
    db.delete(rating)
    db.commit()

    assert len({before, after_insert, list_version.current(db)}) == 3
