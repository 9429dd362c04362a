"""services/jobs/company_jobs.py: a company publishes, archives, restores, duplicates, closes and deletes its jobs."""

from datetime import timedelta
from decimal import Decimal

import pytest
from sqlmodel import select

from core.types import utcnow
from models import Application, Chat, Job, JobStatus, Message, Notification, Rating
from services.common.errors import NotAllowed, ServiceError, ValidationFailed
from services.jobs import company_jobs, jobs
from services.jobs.company_jobs import JOB_NOT_FOUND, ONLY_COMPANIES
from tests.support.factories import (
    MISSING_ID,
    make_application,
    make_cast,
    make_chat,
    make_job,
    make_message,
    make_rating,
    snapshot,
    unusable_ids,
)
from tests.support.shift_form import ADDRESS, shift_day, shift_fields

NEW_PER_COPY = {"inicio_em", "fim_em", "data_necessaria", "duracao", "serie_id", "codigo_segredo"}
FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    **shift_fields(),
}


@pytest.fixture
def cast(db):
    return make_cast(db)


def _notifications(db, user):
    return db.exec(select(Notification).where(Notification.user_id == user.id).order_by(Notification.id)).all()


def _public_titles(db):
    return [item["title"] for item in jobs.list_public_jobs(db).items]


# --- create_job ----------------------------------------------------------------------------


def test_create_job_saves_the_form_with_spec_defaults(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, dict(FORM))

    job = db.get(Job, job_id)
    assert job.cliente_id == cast.company.id
    assert (job.titulo, job.categoria, job.descricao, job.localizacao) == tuple(FORM.values())[:4]
    assert (job.endereco, job.intervalo_min, job.duracao, job.data_necessaria) == (ADDRESS, 60, "8 horas", shift_day(3))
    assert job.fim_em - job.inicio_em == timedelta(hours=8)
    assert len(job.codigo_segredo) == 40
    assert job.serie_id is None
    assert (job.status, job.vaga_status, job.vagas_disponiveis, job.is_archived) == ("open", "open", 1, False)
    assert job.valor_hora is None
    assert job.habilidades_necessarias == []
    # 'Possui intervalo' follows the break minutes (issue 42): the form's 60 minutes make it True.
    assert (job.vale_transporte, job.refeicao_local, job.possui_intervalo, job.anuncio_anonimo) == (
        False,
        False,
        True,
        False,
    )
    assert abs(job.criado_em - utcnow()) < timedelta(minutes=1)
    assert _public_titles(db) == ["Garçom para casamento"]


def test_create_job_saves_every_optional_field(db, cast):
    job_id = company_jobs.create_job(
        db,
        cast.company.id,
        {
            **FORM,
            "valor_hora": "1.234,56",
            "duracao": "8 horas",
            "data_necessaria": "2026-12-20",
            "habilidades_necessarias": "Bandeja, , Inglês ,",
            "vale_transporte": "on",
            "refeicao_local": "on",
            "possui_intervalo": "on",
            "anuncio_anonimo": "on",
            "vagas_disponiveis": "3",
        },
    )
    db.commit()
    db.expire_all()

    job = db.get(Job, job_id)
    assert job.valor_hora == Decimal("1234.56")
    assert job.duracao == "8 horas"  # derived from the shift, the typed text is ignored
    assert job.data_necessaria == shift_day(3)
    assert job.habilidades_necessarias == ["Bandeja", "Inglês"]
    assert (job.vale_transporte, job.refeicao_local, job.possui_intervalo, job.anuncio_anonimo) == (
        True,
        True,
        True,
        True,
    )
    assert job.vagas_disponiveis == 3
    assert jobs.list_public_jobs(db).items[0]["company"] == "Empresa Confidencial"


@pytest.mark.parametrize(
    ("value", "stored"),
    [("25", Decimal("25.00")), ("25,50", Decimal("25.50")), ("1.234,56", Decimal("1234.56")), (25.5, Decimal("25.50"))],
)
def test_create_job_hourly_value(db, cast, value, stored):
    job_id = company_jobs.create_job(db, cast.company.id, {**FORM, "valor_hora": value})
    db.commit()
    db.expire_all()

    assert db.get(Job, job_id).valor_hora == stored


def test_create_job_notifies_the_company(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, dict(FORM))

    [notice] = _notifications(db, cast.company)
    assert notice.type == "job_created"
    assert notice.message == 'Sua vaga "Garçom para casamento" foi publicada.'
    assert notice.link == f"/jobs/{job_id}"
    assert notice.read is False
    assert _notifications(db, cast.rival) == []


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        (
            {},
            {
                "titulo": "Título deve ter pelo menos 2 caracteres.",
                "categoria": "Por favor, selecione uma categoria.",
                "descricao": "Descrição deve ter pelo menos 10 caracteres.",
                "localizacao": "Localização deve ter pelo menos 2 caracteres.",
            },
        ),
        ({**FORM, "titulo": "G"}, {"titulo": "Título deve ter pelo menos 2 caracteres."}),
        ({**FORM, "categoria": ""}, {"categoria": "Por favor, selecione uma categoria."}),
        ({**FORM, "descricao": "Curta"}, {"descricao": "Descrição deve ter pelo menos 10 caracteres."}),
        ({**FORM, "localizacao": " S "}, {"localizacao": "Localização deve ter pelo menos 2 caracteres."}),
        ({**FORM, "valor_hora": "abc"}, {"valor_hora": "Informe um valor por hora válido."}),
        ({**FORM, "valor_hora": "-1"}, {"valor_hora": "Informe um valor por hora válido."}),
        ("not a form", {"titulo": "Título deve ter pelo menos 2 caracteres."}),
    ],
)
def test_create_job_refuses_a_bad_form_and_creates_nothing(db, cast, data, errors):
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        company_jobs.create_job(db, cast.company.id, data)

    assert errors.items() <= caught.value.field_errors.items()
    assert snapshot(db) == before


@pytest.mark.parametrize("who", ["freelancer", "missing user"])
def test_only_companies_publish(db, cast, who):
    user_id = cast.freelancer.id if who == "freelancer" else MISSING_ID
    before = snapshot(db)

    with pytest.raises(NotAllowed) as caught:
        company_jobs.create_job(db, user_id, dict(FORM))

    assert caught.value.message == ONLY_COMPANIES
    assert snapshot(db) == before


def test_create_job_ignores_mass_assignment(db, cast):
    job_id = company_jobs.create_job(
        db,
        cast.company.id,
        {
            **FORM,
            "id": 4242,
            "cliente_id": cast.rival.id,
            "status": "closed",
            "vaga_status": "closed",
            "is_archived": True,
            "criado_em": "2020-01-01T00:00:00",
            "busca": "x",
        },
    )

    job = db.get(Job, job_id)
    assert job_id != 4242
    assert job.cliente_id == cast.company.id
    assert (job.status, job.vaga_status, job.is_archived) == ("open", "open", False)
    assert job.criado_em.year == utcnow().year
    assert job.busca.startswith("garcom para casamento")


# --- archive / restore ---------------------------------------------------------------------


def test_archive_hides_the_job_and_restore_brings_it_back(db, cast):
    job = make_job(db, cast.company, "Recepcionista")
    assert _public_titles(db) == ["Recepcionista"]

    company_jobs.archive_job(db, cast.company.id, job.id)
    db.flush()

    assert (job.status, job.is_archived) == ("archived", True)
    assert _public_titles(db) == []

    company_jobs.restore_job(db, cast.company.id, job.id)
    db.flush()

    assert (job.status, job.vaga_status, job.is_archived) == ("open", "open", False)
    assert _public_titles(db) == ["Recepcionista"]


def test_a_closed_job_whose_positions_are_filled_is_not_restored_to_the_public_list(db, cast):
    job = make_job(db, cast.company, "Recepcionista", vagas_disponiveis=1)
    make_application(db, job, cast.freelancer, status="accepted")
    company_jobs.close_job(db, cast.company.id, job.id)
    company_jobs.archive_job(db, cast.company.id, job.id)
    db.flush()
    before = snapshot(db)

    with pytest.raises(ServiceError) as refused:
        company_jobs.restore_job(db, cast.company.id, job.id)

    assert refused.value.message == company_jobs.FILLED_CANNOT_REOPEN
    assert snapshot(db) == before
    assert _public_titles(db) == []


def test_an_archived_job_with_a_position_left_is_restored(db, cast):
    job = make_job(db, cast.company, "Recepcionista", vagas_disponiveis=2)
    make_application(db, job, cast.freelancer, status="accepted")
    company_jobs.archive_job(db, cast.company.id, job.id)

    company_jobs.restore_job(db, cast.company.id, job.id)
    db.flush()

    assert _public_titles(db) == ["Recepcionista"]


def test_restore_of_a_job_that_is_not_archived_changes_nothing(db, cast):
    job = make_job(db, cast.company, status=JobStatus.CLOSED, vaga_status=JobStatus.CLOSED)
    before = snapshot(db)

    company_jobs.restore_job(db, cast.company.id, job.id)

    assert snapshot(db) == before


# --- duplicate -----------------------------------------------------------------------------


def test_duplicate_copies_the_fields_as_a_new_open_job_created_now(db, cast):
    original = make_job(
        db,
        cast.company,
        "Bartender",
        hours_ago=24 * 20,
        categoria="gastronomia",
        valor_hora=Decimal("45.50"),
        habilidades_necessarias=["Drinks", "Inglês"],
        vale_transporte=True,
        refeicao_local=True,
        possui_intervalo=True,
        anuncio_anonimo=True,
        vagas_disponiveis=4,
        status=JobStatus.ARCHIVED,
        vaga_status=JobStatus.ARCHIVED,
        is_archived=True,
        codigo_segredo="a" * 40,
    )
    make_application(db, original, cast.freelancer)

    [copy_id] = company_jobs.duplicate_job(db, cast.company.id, original.id, [shift_day(9).isoformat()])
    db.commit()
    db.expire_all()

    copy = db.get(Job, copy_id)
    assert copy_id != original.id
    kept = {"id", "status", "vaga_status", "is_archived", "criado_em", "updated_at", *NEW_PER_COPY}
    assert copy.model_dump(exclude=kept) == db.get(Job, original.id).model_dump(exclude=kept)
    assert (copy.status, copy.vaga_status, copy.is_archived) == ("open", "open", False)
    assert copy.serie_id == original.id
    assert copy.codigo_segredo not in {"", "a" * 40}
    assert abs(copy.criado_em - utcnow()) < timedelta(minutes=1)
    assert db.exec(select(Application).where(Application.vaga_id == copy_id)).all() == []
    assert db.get(Job, original.id).status == "archived"


# --- close ---------------------------------------------------------------------------------


def test_close_rejects_pending_and_notifies_pending_and_accepted_applicants(db, cast):
    job = make_job(db, cast.company, "Garçom", vagas_disponiveis=3)
    third = make_application(db, make_job(db, cast.rival, "Outra"), cast.other)
    accepted = make_application(db, job, cast.freelancer, status="accepted")
    pending = make_application(db, job, cast.other)
    rejected_freelancer = make_cast(db).freelancer
    rejected = make_application(db, job, rejected_freelancer, status="rejected")

    company_jobs.close_job(db, cast.company.id, job.id)
    db.flush()
    db.expire_all()

    assert (db.get(Job, job.id).status, db.get(Job, job.id).vaga_status) == ("closed", "closed")
    assert db.get(Application, accepted.id).status == "accepted"
    assert db.get(Application, pending.id).status == "rejected"
    assert db.get(Application, rejected.id).status == "rejected"
    assert db.get(Application, third.id).status == "pending"
    for applicant in (cast.freelancer, cast.other):
        [notice] = _notifications(db, applicant)
        assert (notice.type, notice.message) == ("job_closed", 'A vaga "Garçom" foi encerrada.')
        assert notice.link == "/freelancer-dashboard?tab=applications"
    assert _notifications(db, rejected_freelancer) == []
    assert _public_titles(db) == ["Outra"]


def test_closing_twice_notifies_once(db, cast):
    job = make_job(db, cast.company)
    make_application(db, job, cast.freelancer)

    company_jobs.close_job(db, cast.company.id, job.id)
    company_jobs.close_job(db, cast.company.id, job.id)

    assert len(_notifications(db, cast.freelancer)) == 1


# --- delete --------------------------------------------------------------------------------


def test_delete_removes_the_job_with_its_applications_chats_messages_and_ratings(db, cast):
    job = make_job(db, cast.company, "Apagar", status=JobStatus.CLOSED)
    accepted = make_application(db, job, cast.freelancer, status="accepted")
    make_application(db, job, cast.other)
    chat = make_chat(db, accepted, cast.company, cast.freelancer)
    make_message(db, chat, cast.company, "Olá")
    make_rating(db, accepted, cast.company, cast.freelancer, 5)
    kept_job = make_job(db, cast.company, "Manter")
    kept_application = make_application(db, kept_job, cast.freelancer, status="accepted")
    kept_chat = make_chat(db, kept_application, cast.company, cast.freelancer)
    make_message(db, kept_chat, cast.freelancer, "Tudo certo")
    make_rating(db, kept_application, cast.freelancer, cast.company, 4)
    rival_job = make_job(db, cast.rival, "Rival")
    make_application(db, rival_job, cast.other)
    db.commit()
    others_before = [row.model_dump() for row in db.exec(select(Job).where(Job.id != job.id).order_by(Job.id))]

    company_jobs.delete_job(db, cast.company.id, job.id)
    db.commit()
    db.expire_all()

    assert db.get(Job, job.id) is None
    assert [row.model_dump() for row in db.exec(select(Job).order_by(Job.id))] == others_before
    assert sorted(db.exec(select(Application.vaga_id)).all()) == sorted([kept_job.id, rival_job.id])
    assert db.exec(select(Chat.id)).all() == [kept_chat.id]
    assert [m.content for m in db.exec(select(Message)).all()] == ["Tudo certo"]
    assert [r.stars for r in db.exec(select(Rating)).all()] == [4]


# --- strangers -----------------------------------------------------------------------------


ACTIONS = {
    "owned_job": company_jobs.owned_job,
    "archive_job": company_jobs.archive_job,
    "restore_job": company_jobs.restore_job,
    "duplicate_job": lambda db, actor, job_id: company_jobs.duplicate_job(
        db, actor, job_id, [shift_day(5).isoformat(), shift_day(6).isoformat()]
    ),
    "update_job": lambda db, actor, job_id: company_jobs.update_job(db, actor, job_id, {**FORM, "titulo": "Mudada"}),
    "close_job": company_jobs.close_job,
    "delete_job": company_jobs.delete_job,
}


@pytest.fixture
def target(db, cast):
    """A job of the company with applications, a chat and ratings; an archived one for restore."""
    job = make_job(db, cast.company, "Alvo", vagas_disponiveis=2)
    accepted = make_application(db, job, cast.freelancer, status="accepted")
    make_application(db, job, cast.other)
    make_message(db, make_chat(db, accepted, cast.company, cast.freelancer), cast.company, "Olá")
    archived = make_job(db, cast.company, "Arquivada", status=JobStatus.ARCHIVED, is_archived=True)
    make_job(db, cast.rival, "Da rival")
    db.commit()
    return {"job": job, "archived": archived}


def _stranger_calls(cast, real_id):
    calls = [("rival company", cast.rival.id, real_id), ("freelancer", cast.freelancer.id, real_id)]
    calls += [(f"owner with id {value!r}", cast.company.id, value) for value in unusable_ids(real_id)]
    return calls


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_strangers_get_the_same_refusal_and_nothing_changes(db, cast, target, action):
    real_id = target["archived" if action == "restore_job" else "job"].id
    before = snapshot(db)

    for who, actor, job_id in _stranger_calls(cast, real_id):
        with pytest.raises(NotAllowed) as caught:
            ACTIONS[action](db, actor, job_id)
        assert caught.value.message == JOB_NOT_FOUND, who
        assert snapshot(db) == before, who


def test_the_owner_passes_where_strangers_are_refused(db, cast, target):
    assert company_jobs.owned_job(db, cast.company.id, target["job"].id).titulo == "Alvo"
