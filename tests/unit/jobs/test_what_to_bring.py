"""'Traje e o que levar' (`Job.o_que_levar`, alembic 0027): said on publishing, kept, copied and shown.

A company can dismiss a freelancer for 'Traje inadequado' (services/jobs/shift_pay.py DISMISS_REASONS), so
the vaga says beforehand what to wear and bring: the form validates it, an edit keeps or changes it,
'Duplicar' and 'Contratar novamente' copy it, and the job page, its first paint, the apply dialog,
both sides' shift cards and the data export carry it.
"""

from datetime import timedelta

import pytest
from sqlmodel import select

from app.api.first_paint import job_article
from app.pages.company_jobs.state import CompanyJobsState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.catalog import BRING_LABEL
from core.shift_rules import LOCAL_TZ
from core.types import utcnow
from models import Hiring, Invite, Job
from models.job import BRING_MAX
from scripts import seed as demo
from services.common.errors import ValidationFailed
from services.common.job_forms import BRING_TOO_LONG, JobForm
from services.common.validation import parse
from services.jobs import company_jobs, job_detail
from services.privacy import data_export
from services.screens import shift_views
from services.trust import invite_sending
from tests.support.factories import (
    make_cast,
    make_company,
    make_freelancer,
    make_hiring,
    make_job,
    snapshot,
)
from tests.support.shift_form import shift_day, shift_fields
from tests.support.state_harness import cookie_for, run, state_for, toasts

ATTIRE = "Camisa social branca, calça preta, sapato preto fechado"
FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    "valor_hora": "30,00",
    **shift_fields(days=3, hours=6),
    "o_que_levar": ATTIRE,
}


@pytest.fixture
def cast(db):
    return make_cast(db)


def _bring(db, job_id: int) -> str:
    """The stored 'Traje e o que levar' of a vaga, once what the session changed is committed."""
    db.commit()
    db.expire_all()
    return db.get(Job, job_id).o_que_levar


# --- the form ------------------------------------------------------------------------------------


def test_the_message_names_the_field_and_its_limit():
    assert BRING_TOO_LONG == "Traje e o que levar: no máximo 200 caracteres."
    assert BRING_MAX == Job.__table__.c.o_que_levar.type.length == 200


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("", ""),
        ("   ", ""),
        ("\u200b\u2060 ", ""),  # nothing a reader sees counts as said
        (f"  {ATTIRE}  ", ATTIRE),
        ("x" * 200, "x" * 200),
    ],
)
def test_blank_and_up_to_200_characters_are_accepted(typed, stored):
    assert parse(JobForm, {**FORM, "o_que_levar": typed}).o_que_levar == stored


def test_a_form_without_the_field_means_nothing_said():
    assert parse(JobForm, {k: v for k, v in FORM.items() if k != "o_que_levar"}).o_que_levar == ""


@pytest.mark.parametrize("typed", ["x" * 201, "ã" * 201, "e\u0301" * 101])
def test_more_than_200_characters_are_refused(typed):
    with pytest.raises(ValidationFailed) as caught:
        parse(JobForm, {**FORM, "o_que_levar": typed})
    assert caught.value.field_errors == {"o_que_levar": BRING_TOO_LONG}


def test_201_characters_publish_nothing_and_the_form_says_why(db, cast):
    db.commit()
    before = snapshot(db)
    state = state_for(CompanyJobsState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "jobs"})
    run(state, CompanyJobsState.open_publish)

    events = run(state, CompanyJobsState.publish, {**FORM, "o_que_levar": "x" * 201})

    assert toasts(events) == []
    assert state.form_errors["o_que_levar"] == BRING_TOO_LONG
    assert state.publish_open
    db.expire_all()
    assert snapshot(db) == before


def test_publishing_stores_it_and_blank_is_fine(db, cast):
    state = state_for(CompanyJobsState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "jobs"})
    run(state, CompanyJobsState.open_publish)
    assert toasts(run(state, CompanyJobsState.publish, dict(FORM))) == ["success: Vaga criada com sucesso!"]
    blank_id = company_jobs.create_job(db, cast.company.id, {**FORM, "o_que_levar": ""})
    db.commit()

    said = db.exec(select(Job).where(Job.cliente_id == cast.company.id, Job.id != blank_id)).one()
    assert said.o_que_levar == ATTIRE
    assert _bring(db, blank_id) == ""


# --- edit, 'Duplicar', 'Contratar novamente' -------------------------------------------------------


def test_editing_changes_clears_or_keeps_it(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, dict(FORM))
    edited = {k: v for k, v in FORM.items() if k != "o_que_levar"}

    company_jobs.update_job(db, cast.company.id, job_id, {**edited, "titulo": "Garçom (novo título)"})
    assert _bring(db, job_id) == ATTIRE  # a form without the field leaves it as it was

    company_jobs.update_job(db, cast.company.id, job_id, {**edited, "o_que_levar": "Avental preto"})
    assert _bring(db, job_id) == "Avental preto"

    company_jobs.update_job(db, cast.company.id, job_id, {**edited, "o_que_levar": ""})
    assert _bring(db, job_id) == ""


def test_an_edit_of_201_characters_changes_nothing(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, dict(FORM))
    db.commit()
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        company_jobs.update_job(db, cast.company.id, job_id, {**FORM, "o_que_levar": "x" * 201})

    assert caught.value.field_errors == {"o_que_levar": BRING_TOO_LONG}
    db.rollback()
    assert snapshot(db) == before


def test_duplicar_copies_it(db, cast, monkeypatch):
    monkeypatch.setattr(company_jobs.plans, "ensure_can_publish", lambda *args, **kwargs: None)
    original_id = company_jobs.create_job(db, cast.company.id, dict(FORM))

    copies = company_jobs.duplicate_job(db, cast.company.id, original_id, [shift_day(10).isoformat()])
    db.commit()

    assert [_bring(db, copy_id) for copy_id in copies] == [ATTIRE]


def test_contratar_novamente_copies_it_from_the_cards_vaga(db):
    company, freelancer = make_company(db, empresa="Bar do Zé"), make_freelancer(db, nome="Rita Souza")
    pressed = make_hiring(db, company, freelancer, utcnow() - timedelta(days=9), job={"o_que_levar": ATTIRE})
    make_hiring(db, company, freelancer, utcnow() - timedelta(days=6), job={"o_que_levar": "Avental preto"})
    db.commit()
    day = (utcnow().astimezone(LOCAL_TZ) + timedelta(days=5)).date().isoformat()
    form = {"data": day, "inicio": "18:00", "fim": "23:30", "valor_hora": "45,00", "mensagem": ""}

    invite_id = invite_sending.send(db, company.id, freelancer.id, form, False, hiring_id=pressed.id)
    db.commit()

    job = db.get(Job, db.get(Invite, invite_id).job_id)
    assert job.privada and job.o_que_levar == ATTIRE  # the pressed card's vaga, not the latest one


# --- where it is shown ---------------------------------------------------------------------------


def test_the_job_page_its_first_paint_and_the_apply_dialog_carry_it(db, cast):
    said = make_job(db, cast.company, "Garçom de gala", o_que_levar=ATTIRE)
    silent = make_job(db, cast.company, "Garçom sem traje")
    db.commit()

    detail = job_detail.get_public_job(db, said.id)
    assert detail["bring"] == ATTIRE
    assert job_detail.job_for_viewer(db, said.id, cast.freelancer.id)["bring"] == ATTIRE
    article = job_article(detail, "Turno")
    assert f"<dt>{BRING_LABEL}</dt><dd>{ATTIRE}</dd>" in article
    assert job_detail.get_public_job(db, silent.id)["bring"] == ""
    assert BRING_LABEL not in job_article(job_detail.get_public_job(db, silent.id), "Turno")

    tab = state_for(FreelancerDashboardState, cookie_for(db, cast.freelancer), "/freelancer-dashboard")
    run(tab, FreelancerDashboardState.open_apply_dialog, said.id)
    assert tab.apply_open and tab.apply_job_bring == ATTIRE
    run(tab, FreelancerDashboardState.open_apply_dialog, silent.id)
    assert tab.apply_job_bring == ""


def test_a_changed_vaga_shows_the_new_text_on_its_cached_page(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, dict(FORM))
    db.commit()
    assert job_detail.get_public_job(db, job_id)["bring"] == ATTIRE

    company_jobs.update_job(db, cast.company.id, job_id, {**FORM, "o_que_levar": "Avental preto"})
    db.commit()

    assert job_detail.get_public_job(db, job_id)["bring"] == "Avental preto"


def test_both_sides_shift_cards_carry_it_as_bring(db):
    company, freelancer = make_company(db), make_freelancer(db)
    start = (utcnow() + timedelta(days=2)).replace(second=0, microsecond=0)
    make_hiring(db, company, freelancer, start, state="agendada", job={"o_que_levar": ATTIRE})
    make_hiring(db, company, freelancer, start + timedelta(days=2), state="agendada")
    db.commit()

    mine, _done = shift_views.freelancer_shifts(db, freelancer.id, utcnow())
    theirs, _done = shift_views.company_shifts(db, company.id, utcnow())

    assert [card["bring"] for card in mine] == [ATTIRE, ""]
    assert [card["bring"] for card in theirs] == [ATTIRE, ""]
    assert set(mine[0]) == set(shift_views.ShiftCard.__annotations__)  # every key the TypedDict declares


def test_the_companys_export_holds_it(db, cast):
    job = make_job(db, cast.company, "Garçom de gala", o_que_levar=ATTIRE)
    db.commit()

    exported = data_export.export_user_data(db, cast.company.id)

    assert [(row["id"], row["o_que_levar"]) for row in exported["vagas"]] == [(job.id, ATTIRE)]


# --- the demo data -------------------------------------------------------------------------------


def test_the_seed_says_it_for_some_vagas_validly_and_twice_changes_nothing(db):
    demo.seed(db)
    db.commit()
    first = snapshot(db, Job, Hiring)

    demo.seed(db)
    db.commit()
    db.expire_all()

    assert snapshot(db, Job, Hiring) == first
    said = {job.titulo: job.o_que_levar for job in db.exec(select(Job)).all() if job.o_que_levar}
    assert said == demo.DEMO_BRING
    for text in said.values():
        assert parse(JobForm, {**FORM, "o_que_levar": text}).o_que_levar == text
