"""Public job browsing: list filters, paging, company names, category companies and the detail."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from itertools import count

from sqlmodel import Session

from core.types import utcnow
from models import Job, JobStatus, Profile, Role, User
from services.jobs import category_companies, job_detail, jobs

_sequence = count(1)


def company(db: Session, empresa: str = "Hotel Atlântico", nome: str = "Mariana", profile: bool = True) -> User:
    user = User(email=f"empresa{next(_sequence)}@teste.com.br", password_hash="x", role=Role.CLIENT)
    db.add(user)
    db.flush()
    if profile:
        db.add(Profile(user_id=user.id, tipo_usuario=Role.CLIENT, nome=nome, empresa=empresa))
    db.flush()
    return user


def job(db: Session, owner: User, **fields) -> Job:
    """Insert a job; each call is one hour newer than the previous one."""
    values = {
        "titulo": "Garçom para evento",
        "categoria": "eventos",
        "descricao": "Atendimento em evento corporativo.",
        "localizacao": "São Paulo",
        "valor_hora": Decimal("35.00"),
        "criado_em": utcnow() - timedelta(days=30) + timedelta(hours=next(_sequence)),
    }
    values.update(fields)
    row = Job(cliente_id=owner.id, **values)
    db.add(row)
    db.flush()
    return row


def titles(page: jobs.JobPage) -> list[str]:
    return [item["title"] for item in page.items]


def test_only_open_non_archived_jobs_are_listed(db):
    owner = company(db)
    job(db, owner, titulo="Aberta")
    job(db, owner, titulo="Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    job(db, owner, titulo="Aberta mas arquivada", is_archived=True)
    job(db, owner, titulo="Fechada", status=JobStatus.CLOSED)
    job(db, owner, titulo="Em andamento", status=JobStatus.IN_PROGRESS)

    page = jobs.list_public_jobs(db)

    assert titles(page) == ["Aberta"]
    assert (page.total, page.page, page.pages) == (1, 1, 1)


def test_list_item_fields_are_formatted(db):
    owner = company(db)
    start = datetime(2026, 11, 28, 21, 0, tzinfo=UTC)  # sábado 18:00 in São Paulo
    created = job(
        db,
        owner,
        titulo="Chef",
        categoria="gastronomia",
        valor_hora=Decimal("60"),
        inicio_em=start,
        fim_em=start + timedelta(hours=8),
        intervalo_min=60,
    )
    job(db, owner, titulo="Auxiliar", categoria="restaurante", valor_hora=None)

    items = jobs.list_public_jobs(db).items

    assert items[0]["title"] == "Auxiliar"
    assert items[0]["pay"] == "A combinar"
    assert items[1] == {
        "id": created.id,
        "title": "Chef",
        "category": "gastronomia",
        "category_label": "Gastronomia",
        "company": "Hotel Atlântico",
        "company_photo": "",
        "location": "São Paulo",
        "pay": "R$ 60,00/hora",
        "total": "R$ 420,00 pelo turno",  # 8 h - 60 min at R$ 60,00 (issue 42: pay before work)
        "shift": "sáb., 28/11 · 18:00–02:00 (8h, intervalo 60 min)",
        "posted": jobs.long_date(created.criado_em),
        "company_rating": "",  # not rated yet (tests/unit/jobs/test_company_rating_on_jobs.py)
        "guaranteed": False,
        "punctual": False,  # no 'Selo Empresa Pontual' yet (tests/unit/trust/test_punctuality.py)
        "punctual_summary": "",  # its figures, shown with the badge only
    }
    assert items[0]["shift"] == ""  # a row without shift times (none are left after alembic 0013)
    assert " de " in items[1]["posted"]


def test_search_ignores_accents_and_case(db):
    owner = company(db)
    job(db, owner, titulo="Barista de Café", categoria="gastronomia")
    job(db, owner, titulo="garçom de salão", categoria="restaurante")
    job(db, owner, titulo="Recepcionista", categoria="hotel")

    assert titles(jobs.list_public_jobs(db, search="cafe")) == ["Barista de Café"]
    assert titles(jobs.list_public_jobs(db, search="GARÇOM")) == ["garçom de salão"]
    assert titles(jobs.list_public_jobs(db, search="  SALAO ")) == ["garçom de salão"]
    assert jobs.list_public_jobs(db, search="pedreiro").total == 0


def test_search_matches_category_label_and_slug(db):
    owner = company(db)
    job(db, owner, titulo="Violonista", categoria="musica")
    job(db, owner, titulo="Recepcionista", categoria="hotel")

    assert titles(jobs.list_public_jobs(db, search="Música")) == ["Violonista"]
    assert titles(jobs.list_public_jobs(db, search="musica")) == ["Violonista"]
    assert titles(jobs.list_public_jobs(db, search="hotelaria")) == ["Recepcionista"]


def test_search_does_not_span_title_and_category_or_treat_wildcards_specially(db):
    owner = company(db)
    job(db, owner, titulo="Chef italiano", categoria="gastronomia")
    job(db, owner, titulo="Desconto 100% garantido", categoria="outros")

    assert jobs.list_public_jobs(db, search="italiano gastronomia").total == 0
    assert jobs.list_public_jobs(db, search="italiano | gastronomia").total == 0
    assert titles(jobs.list_public_jobs(db, search="100%")) == ["Desconto 100% garantido"]
    assert jobs.list_public_jobs(db, search="%").total == 1
    assert jobs.list_public_jobs(db, search="_").total == 0


def test_search_follows_a_title_update(db):
    owner = company(db)
    row = job(db, owner, titulo="Cozinheiro")
    row.titulo = "Confeiteiro"
    db.add(row)
    db.flush()

    assert jobs.list_public_jobs(db, search="cozinheiro").total == 0
    assert titles(jobs.list_public_jobs(db, search="confeiteiro")) == ["Confeiteiro"]


def test_search_forgets_a_deleted_job_and_finds_short_terms(db):
    owner = company(db)
    gone = job(db, owner, titulo="Garçom temporário")
    job(db, owner, titulo="DJ para casamento", categoria="musica")
    db.delete(gone)
    db.flush()

    assert jobs.list_public_jobs(db, search="garcom").total == 0
    assert titles(jobs.list_public_jobs(db, search="dj")) == ["DJ para casamento"]
    assert titles(jobs.list_public_jobs(db, search="casamento")) == ["DJ para casamento"]


def test_city_filter_is_the_exact_city_ignoring_case_accents_and_the_state(db):
    owner = company(db)
    job(db, owner, titulo="SP", localizacao="São Paulo")
    job(db, owner, titulo="SP estado", localizacao="São Paulo, SP")  # the form's own placeholder
    job(db, owner, titulo="Brasília", localizacao="BRASÍLIA")

    assert titles(jobs.list_public_jobs(db, city="são paulo")) == ["SP estado", "SP"]
    assert titles(jobs.list_public_jobs(db, city="SÃO PAULO, SP")) == ["SP estado", "SP"]
    assert titles(jobs.list_public_jobs(db, city="Brasília")) == ["Brasília"]
    assert jobs.list_public_jobs(db, city="Paulo").total == 0


def test_category_filter_is_exact_and_accepts_english_aliases(db):
    owner = company(db)
    job(db, owner, titulo="Garçom", categoria="eventos")
    job(db, owner, titulo="Cozinheiro", categoria="gastronomia")
    job(db, owner, titulo="Copeiro", categoria="restaurante")

    assert titles(jobs.list_public_jobs(db, category="eventos")) == ["Garçom"]
    assert titles(jobs.list_public_jobs(db, category="events")) == ["Garçom"]
    assert titles(jobs.list_public_jobs(db, category="gastronomy")) == ["Cozinheiro"]
    assert titles(jobs.list_public_jobs(db, category="restaurant")) == ["Copeiro"]
    assert jobs.list_public_jobs(db, category="evento").total == 0
    assert jobs.list_public_jobs(db, category="desconhecida").total == 0


def test_filters_combine(db):
    owner = company(db)
    job(db, owner, titulo="Garçom", categoria="eventos", localizacao="Recife")
    job(db, owner, titulo="Garçom", categoria="eventos", localizacao="Curitiba")
    job(db, owner, titulo="Garçom", categoria="restaurante", localizacao="Recife")

    page = jobs.list_public_jobs(db, search="garcom", city="recife", category="eventos")

    assert page.total == 1
    assert page.items[0]["location"] == "Recife"


def test_paging_ten_per_page_newest_first_and_clamped(db):
    owner = company(db)
    for number in range(11):
        job(db, owner, titulo=f"Vaga {number}")

    first = jobs.list_public_jobs(db)
    second = jobs.list_public_jobs(db, page=2)

    assert (first.total, first.pages, first.page) == (11, 2, 1)
    assert titles(first) == [f"Vaga {number}" for number in range(10, 0, -1)]
    assert titles(second) == ["Vaga 0"]
    assert second.page == 2
    assert jobs.list_public_jobs(db, page=99).page == 2
    assert titles(jobs.list_public_jobs(db, page=99)) == ["Vaga 0"]
    assert jobs.list_public_jobs(db, page=-3).page == 1


def test_empty_result_has_one_page(db):
    page = jobs.list_public_jobs(db, page=5)

    assert (page.items, page.total, page.page, page.pages) == ([], 0, 1, 1)


def test_anonymous_job_hides_the_company(db):
    owner = company(db, empresa="Bar do Zé")
    job(db, owner, titulo="Sigilosa", anuncio_anonimo=True)

    assert jobs.list_public_jobs(db).items[0]["company"] == "Empresa Confidencial"


def test_company_name_falls_back_to_person_name_then_unknown(db):
    job(db, company(db, empresa="", nome="Carlos Lima"), titulo="Sem empresa")
    job(db, company(db, profile=False), titulo="Sem perfil")

    names = {item["title"]: item["company"] for item in jobs.list_public_jobs(db).items}

    assert names == {"Sem empresa": "Carlos Lima", "Sem perfil": "Empresa não informada"}


def test_company_filter_excludes_anonymous_jobs(db):
    owner = company(db)
    other = company(db, empresa="Outra")
    job(db, owner, titulo="Pública")
    job(db, owner, titulo="Anônima", anuncio_anonimo=True)
    job(db, other, titulo="De outra empresa")

    assert titles(jobs.list_public_jobs(db, company_id=owner.id)) == ["Pública"]
    assert category_companies.company_display_name(db, owner.id) == "Hotel Atlântico"
    assert category_companies.company_display_name(db, 999_999) is None


def test_companies_in_category_counts_public_jobs(db):
    hotel = company(db, empresa="Hotel Atlântico")
    buffet = company(db, empresa="Buffet Estrela")
    hidden = company(db, empresa="Só Anônimas")
    job(db, hotel, categoria="eventos")
    job(db, buffet, categoria="eventos")
    job(db, buffet, categoria="eventos")
    job(db, buffet, categoria="eventos", status=JobStatus.CLOSED)
    job(db, buffet, categoria="eventos", is_archived=True, status=JobStatus.ARCHIVED)
    job(db, buffet, categoria="hotel")
    job(db, hotel, categoria="eventos", anuncio_anonimo=True)
    job(db, hidden, categoria="eventos", anuncio_anonimo=True)

    expected = [
        {
            "id": buffet.id,
            "name": "Buffet Estrela",
            "photo": "",
            "open_jobs": 2,
            "punctual": False,
            "punctual_summary": "",
        },
        {
            "id": hotel.id,
            "name": "Hotel Atlântico",
            "photo": "",
            "open_jobs": 1,
            "punctual": False,
            "punctual_summary": "",
        },
    ]
    assert category_companies.companies_in_category(db, "eventos").items == expected
    assert category_companies.companies_in_category(db, "events").items == expected
    assert category_companies.companies_in_category(db, "musica").items == []
    assert category_companies.companies_in_category(db, "nada").items == []


def test_companies_in_category_names_a_company_without_profile(db):
    owner = company(db, profile=False)
    job(db, owner, categoria="design")

    assert category_companies.companies_in_category(db, "design").items == [
        {
            "id": owner.id,
            "name": "Empresa não informada",
            "photo": "",
            "open_jobs": 1,
            "punctual": False,
            "punctual_summary": "",
        }
    ]


def test_public_job_detail_has_every_field(db):
    owner = company(db)
    row = job(
        db,
        owner,
        titulo="Chef",
        categoria="gastronomy",
        descricao="Cozinha <b>italiana</b>.",
        duracao="8 horas",
        data_necessaria=date(2026, 12, 5),
        inicio_em=datetime(2026, 12, 5, 21, 0, tzinfo=UTC),
        fim_em=datetime(2026, 12, 6, 5, 0, tzinfo=UTC),
        intervalo_min=30,
        endereco="Rua Augusta, 100 - Consolação",
        habilidades_necessarias=["Massas", " ", "Pontualidade"],
        vale_transporte=True,
        refeicao_local=False,
        possui_intervalo=True,
        vagas_disponiveis=2,
    )

    detail = job_detail.get_public_job(db, row.id)

    assert detail == {
        "id": row.id,
        "title": "Chef",
        "category": "gastronomia",
        "category_label": "Gastronomia",
        "company": "Hotel Atlântico",
        "anonymous": False,
        "company_id": row.cliente_id,
        "company_photo": "",
        "company_bio": "",
        "company_site": "",
        "company_links": [],
        "location": "São Paulo",
        "pay": "R$ 35,00/hora",
        "total": "R$ 262,50 pelo turno",  # an overnight 8 h - 30 min at R$ 35,00
        "when": "sáb., 05/12 · 18:00–02:00",  # restated by the apply form
        "date_needed": "5 de dezembro de 2026",
        "duration": "8 horas",
        "shift": "sáb., 05/12 · 18:00–02:00 (8h, intervalo 30 min)",
        "address": "Rua Augusta, 100 - Consolação",
        "map_url": "https://www.google.com/maps/search/?api=1&query=Rua%20Augusta%2C%20100%20-%20Consola%C3%A7%C3%A3o",
        "bring": "",
        "description": "Cozinha <b>italiana</b>.",
        "skills": ["Massas", "Pontualidade"],
        "transport_voucher": True,
        "meal_on_site": False,
        "has_break": True,
        "positions": 2,
        "posted": jobs.long_date(row.criado_em),
        "company_rating": "",
        "payment": "Pagamento direto pela empresa — sem garantia do Turno",
        "payment_note": "O Turno registra as horas e o valor; a empresa paga você diretamente, como combinado no chat.",
        "guaranteed": False,
        "punctual": False,
        "punctual_summary": "",
        "posted_at": job_detail._iso_utc(row.criado_em),
        "starts_at": "2026-12-05T21:00:00+00:00",
        "day_needed": "2026-12-05",
        "hourly_rate": 35.0,
    }
    assert datetime.fromisoformat(detail["posted_at"]).tzinfo == UTC


def _profiled_company(db):
    owner = company(db, empresa="Bar do Zé")
    profile = db.get(Profile, owner.id)
    profile.foto_url = "/_upload/profile-photos/" + "a" * 32 + ".webp"
    profile.biografia = "Bar de esquina com música ao vivo."
    profile.website = "https://bardoze.com.br"
    profile.redes_sociais = {"instagram": "@bardoze", "facebook": "javascript:alert(1)", "linkedin": ""}
    db.add(profile)
    db.flush()
    return owner


def test_public_job_detail_shows_the_company_profile(db):
    owner = _profiled_company(db)
    row = job(db, owner)

    detail = job_detail.get_public_job(db, row.id)

    assert detail["company"] == "Bar do Zé"
    assert detail["company_id"] == owner.id
    assert detail["company_photo"].endswith(".webp")
    assert detail["company_bio"] == "Bar de esquina com música ao vivo."
    assert detail["company_site"] == "https://bardoze.com.br"
    assert detail["company_links"] == [
        {"network": "instagram", "label": "Instagram", "url": "https://instagram.com/bardoze"}
    ]
    assert jobs.list_public_jobs(db).items[0]["company_photo"] == detail["company_photo"]


def test_public_job_detail_hides_anonymous_company(db):
    row = job(db, _profiled_company(db), anuncio_anonimo=True, data_necessaria=None)

    detail = job_detail.get_public_job(db, row.id)

    assert detail["company"] == "Empresa Confidencial"
    assert detail["anonymous"] is True
    assert "Bar do Zé" not in str(detail)
    assert "bardoze" not in str(detail)
    assert detail["company_id"] == 0
    assert detail["company_photo"] == detail["company_bio"] == ""
    assert jobs.list_public_jobs(db).items[0]["company_photo"] == ""
    assert detail["date_needed"] == ""


def test_public_job_detail_is_none_for_missing_or_non_public_jobs(db):
    owner = company(db)
    closed = job(db, owner, status=JobStatus.CLOSED)
    archived = job(db, owner, is_archived=True)
    busy = job(db, owner, status=JobStatus.IN_PROGRESS)

    assert job_detail.get_public_job(db, closed.id) is None
    assert job_detail.get_public_job(db, archived.id) is None
    assert job_detail.get_public_job(db, busy.id) is None
    assert job_detail.get_public_job(db, 999_999) is None


def test_search_term_folding():
    assert jobs.search_term("  Garçom   DE  Café ") == "garcom de cafe"
    assert jobs.search_term("a|b") == "a b"
    assert len(jobs.search_term("x" * 500)) == jobs.SEARCH_MAX_LENGTH


def test_job_list_urls_keep_filters_and_leave_out_page_one():
    from core import routes

    assert routes.jobs() == "/jobs"
    assert routes.jobs(city="São Paulo", page=1) == "/jobs?city=S%C3%A3o+Paulo"
    assert routes.jobs(search="garçom", category="eventos", company=7, page=3) == (
        "/jobs?search=gar%C3%A7om&category=eventos&empresa=7&page=3"
    )
    assert routes.job_detail(12) == "/jobs/12"
    assert routes.last_segment("/categories/m%C3%BAsica/") == "música"
