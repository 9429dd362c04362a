"""CompanyJobsState ('Minhas Vagas'): its public handlers, called as a browser would with a session cookie.

Every handler resolves the company from the cookie; another company's job or application, a
freelancer, a visitor and a bad id all get the answer of a missing id, and nothing changes.
"""

import json
from decimal import Decimal

import pytest
from sqlmodel import select

from app.pages.client_dashboard import ClientDashboardState
from app.pages.company_jobs.publish_state import POINT_FAILED
from app.pages.company_jobs.state import CompanyJobsState
from models import Application, Chat, Job
from services.jobs import company_jobs
from tests.support.factories import (
    MISSING_ID,
    make_application,
    make_cast,
    make_job,
    make_rating,
    snapshot,
    unusable_ids,
)
from tests.support.shift_form import shift_day, shift_fields
from tests.support.state_harness import cookie_for, run, state_for, toasts

FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    "valor_hora": "25,00",
    **shift_fields(days=3, hours=6),
    "habilidades_necessarias": "bandeja, inglês, , vinhos",
    "vagas_disponiveis": "2",
    "vale_transporte": "on",
    "refeicao_local": "on",
    "anuncio_anonimo": "on",
}
SPEC_MESSAGES = {
    "titulo": "Título deve ter pelo menos 2 caracteres.",
    "categoria": "Por favor, selecione uma categoria.",
    "descricao": "Descrição deve ter pelo menos 10 caracteres.",
    "localizacao": "Localização deve ter pelo menos 2 caracteres.",
}
JOB_ACTIONS = ["archive", "restore", "ask_duplicate", "close_job", "delete_job"]
CALLERS = ["rival", "freelancer", "visitor"]


@pytest.fixture
def cast(db):
    return make_cast(db)


def _state(db, user, query: dict | None = None) -> CompanyJobsState:
    """The state of a browser of `user` on the jobs tab."""
    return state_for(CompanyJobsState, cookie_for(db, user), "/client-dashboard", query or {"tab": "jobs"})


def _caller(cast, who: str):
    return None if who == "visitor" else getattr(cast, who)


def _jobs(db, company) -> list[Job]:
    db.expire_all()
    return db.exec(select(Job).where(Job.cliente_id == company.id).order_by(Job.id)).all()


def _publish(db, user, form: dict) -> tuple[CompanyJobsState, list[str]]:
    state = _state(db, user)
    run(state, CompanyJobsState.open_publish)
    return state, toasts(run(state, CompanyJobsState.publish, form))


# --- publish ---------------------------------------------------------------------------------


def test_publish_saves_every_field_closes_the_dialog_and_reloads_the_list(db, cast):
    db.commit()
    state, shown = _publish(db, cast.company, dict(FORM))

    assert shown == ["success: Vaga criada com sucesso!"]
    [job] = _jobs(db, cast.company)
    assert (job.titulo, job.categoria, job.localizacao, job.duracao) == (
        "Garçom para casamento",
        "eventos",
        "São Paulo, SP",
        "6 horas",
    )
    assert job.valor_hora == Decimal("25.00")
    assert job.data_necessaria == shift_day(3)
    assert job.habilidades_necessarias == ["bandeja", "inglês", "vinhos"]
    assert job.vagas_disponiveis == 2
    assert (job.vale_transporte, job.refeicao_local, job.possui_intervalo, job.anuncio_anonimo) == (
        True,
        True,
        True,  # the 60-minute break decides 'Possui intervalo'
        True,
    )
    assert (job.status, job.is_archived) == ("open", False)
    assert state.publish_open is False
    assert state.publishing is False
    assert [row["title"] for row in state.active_jobs] == ["Garçom para casamento"]


def test_publish_with_bad_fields_shows_specs_messages_under_each_field_and_saves_nothing(db, cast):
    db.commit()
    state, shown = _publish(db, cast.company, {"titulo": "G", "categoria": "", "descricao": "curta", "localizacao": ""})

    assert shown == []
    assert {field: state.form_errors[field] for field in SPEC_MESSAGES} == SPEC_MESSAGES
    assert state.publish_open is True
    assert state.publishing is False
    assert _jobs(db, cast.company) == []


def test_a_second_submission_while_one_runs_is_ignored(db, cast):
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.open_publish)
    state.publishing = True

    assert run(state, CompanyJobsState.publish, dict(FORM)) == []
    assert _jobs(db, cast.company) == []


def test_a_submission_queued_behind_a_successful_one_is_ignored(db, cast):
    db.commit()
    state, _ = _publish(db, cast.company, dict(FORM))

    assert run(state, CompanyJobsState.publish, dict(FORM)) == []
    assert len(_jobs(db, cast.company)) == 1


def test_publish_at_the_free_plan_limit_shows_the_plan_message_and_creates_nothing(db, cast):
    make_job(db, cast.company, "Primeira")
    make_job(db, cast.company, "Segunda")
    db.commit()
    state, shown = _publish(db, cast.company, dict(FORM))

    assert shown == []
    assert state.publish_error.startswith("Seu plano Gratuito permite até 2 vagas ativas.")
    assert state.publish_open is True
    assert [job.titulo for job in _jobs(db, cast.company)] == ["Primeira", "Segunda"]


def test_publish_without_a_session_asks_to_sign_in(db, cast):
    db.commit()
    _, shown = _publish(db, None, dict(FORM))

    assert shown == ["error: Erro de autenticação | Você precisa estar logado para criar uma vaga."]
    assert db.exec(select(Job)).all() == []


def test_a_freelancer_cannot_publish(db, cast):
    db.commit()
    _, shown = _publish(db, cast.freelancer, dict(FORM))

    assert shown == ["error: Erro ao criar vaga | Apenas empresas podem publicar vagas."]
    assert db.exec(select(Job)).all() == []


def test_an_unexpected_failure_is_a_generic_toast(db, cast, monkeypatch):
    db.commit()

    def explode(*_args):
        raise RuntimeError("connection reset")

    monkeypatch.setattr(company_jobs, "create_job", explode)
    state, shown = _publish(db, cast.company, dict(FORM))

    assert shown == ["error: Erro ao criar vaga | Não foi possível criar a vaga. Tente novamente."]
    assert state.publishing is False


def test_nova_1_opens_the_publish_dialog_on_load(db, cast):
    db.commit()
    state = _state(db, cast.company, {"tab": "jobs", "nova": "1"})
    run(state, CompanyJobsState.load)
    assert state.publish_open is True

    plain = _state(db, cast.company)
    run(plain, CompanyJobsState.load)
    assert plain.publish_open is False


def test_the_dashboard_jobs_tab_triggers_the_jobs_load(db, cast):
    db.commit()
    cookie = cookie_for(db, cast.company)
    state = state_for(ClientDashboardState, cookie, "/client-dashboard", {"tab": "jobs"})
    events = run(state, ClientDashboardState.load)
    assert [event.fn for event in events] == [CompanyJobsState.load.fn]


# --- list, counts, search --------------------------------------------------------------------


def test_load_splits_active_and_archived_and_search_ignores_case_and_accents(db, cast):
    make_job(db, cast.company, "Garçom", localizacao="Curitiba", endereco="Rua XV de Novembro, 700", hours_ago=3)
    make_job(db, cast.company, "Recepcionista", categoria="hotel", localizacao="São Paulo", hours_ago=2)
    make_job(db, cast.company, "Cozinheiro", status="archived", is_archived=True, hours_ago=1)
    make_job(db, cast.rival, "Garçom do rival")
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.load)
    assert [row["title"] for row in state.active_jobs] == ["Recepcionista", "Garçom"]
    assert [row["title"] for row in state.archived_jobs] == ["Cozinheiro"]

    run(state, CompanyJobsState.set_search, "GARCOM")
    assert [row["title"] for row in state.active_jobs] == ["Garçom"]
    assert state.archived_jobs == []
    run(state, CompanyJobsState.set_search, "sao paulo")
    assert [row["title"] for row in state.active_jobs] == ["Recepcionista"]
    run(state, CompanyJobsState.set_search, "hotelaria")
    assert [row["title"] for row in state.active_jobs] == ["Recepcionista"]
    run(state, CompanyJobsState.set_search, "")
    assert len(state.active_jobs) == 2


@pytest.mark.parametrize("who", ["freelancer", "visitor"])
def test_load_and_search_give_no_data_to_non_companies(db, cast, who):
    make_job(db, cast.company, "Garçom")
    db.commit()
    state = _state(db, _caller(cast, who))
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.set_search, "Garçom")
    assert (state.active_jobs, state.archived_jobs, state.loaded) == ([], [], False)


# --- job actions -----------------------------------------------------------------------------


def _act(db, user, action: str, job_id) -> list[str]:
    return toasts(run(_state(db, user), getattr(CompanyJobsState, action), job_id))


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize("action", JOB_ACTIONS)
def test_job_actions_on_someone_elses_job_answer_like_a_missing_one(db, cast, action, who):
    job = make_job(db, cast.company, status="archived" if action == "restore" else "open")
    make_application(db, job, cast.freelancer)
    db.commit()
    before = snapshot(db)
    missing = _act(db, cast.company, action, MISSING_ID)

    assert _act(db, _caller(cast, who), action, job.id) == missing
    assert missing[0].startswith("error: ") and missing[0].endswith("| Vaga não encontrada.")
    db.expire_all()
    assert snapshot(db) == before


@pytest.mark.parametrize("action", JOB_ACTIONS)
def test_job_actions_refuse_ids_that_are_not_positive_ints(db, cast, action):
    job = make_job(db, cast.company)
    db.commit()
    before = snapshot(db)
    missing = _act(db, cast.company, action, MISSING_ID)

    for bad in unusable_ids(job.id):
        assert _act(db, cast.company, action, bad) == missing
    db.expire_all()
    assert snapshot(db) == before


def test_archive_then_restore_moves_the_job_between_the_tabs(db, cast):
    job = make_job(db, cast.company)
    db.commit()
    state = _state(db, cast.company)

    assert toasts(run(state, CompanyJobsState.archive, job.id)) == ["success: Vaga arquivada"]
    assert (len(state.active_jobs), len(state.archived_jobs)) == (0, 1)
    assert (_jobs(db, cast.company)[0].status, _jobs(db, cast.company)[0].is_archived) == ("archived", True)

    assert toasts(run(state, CompanyJobsState.restore, job.id)) == ["success: Vaga restaurada"]
    assert (len(state.active_jobs), len(state.archived_jobs)) == (1, 0)
    assert _jobs(db, cast.company)[0].status == "open"


def test_restore_beyond_the_plan_shows_the_plan_message(db, cast):
    archived = make_job(db, cast.company, status="archived", is_archived=True)
    make_job(db, cast.company)
    make_job(db, cast.company)
    db.commit()
    state = _state(db, cast.company)

    [shown] = toasts(run(state, CompanyJobsState.restore, archived.id))
    assert shown.startswith("error: Erro | Seu plano Gratuito permite até 2 vagas ativas.")
    assert state.plan_message.startswith("Seu plano Gratuito")
    db.expire_all()
    assert db.get(Job, archived.id).status == "archived"


def test_restoring_a_filled_job_explains_why_and_keeps_it_archived(db, cast):
    job = make_job(db, cast.company, status="archived", is_archived=True, vagas_disponiveis=1)
    make_application(db, job, cast.freelancer, status="accepted")
    db.commit()
    state = _state(db, cast.company)

    assert toasts(run(state, CompanyJobsState.restore, job.id)) == [
        "error: Erro | Todas as posições desta vaga já foram preenchidas, por isso ela não volta a receber "
        "candidaturas. Para contratar mais pessoas, use 'Duplicar'."
    ]
    db.expire_all()
    assert db.get(Job, job.id).status == "archived"


def _ask_duplicate(db, user, job_id) -> tuple[CompanyJobsState, list[str]]:
    state = _state(db, user)
    run(state, CompanyJobsState.load)
    return state, toasts(run(state, CompanyJobsState.ask_duplicate, job_id))


def test_duplicate_opens_the_dialog_then_adds_an_open_copy_per_date(db, cast):
    job = make_job(db, cast.company, "Bartender")
    db.commit()
    state, shown = _ask_duplicate(db, cast.company, job.id)
    assert shown == []
    assert (state.duplicate_open, state.duplicate_title, state.duplicate_slots) == (True, "Bartender", [0])

    run(state, CompanyJobsState.add_duplicate_date)
    assert state.duplicate_slots == [0, 1]
    form = {"data_0": shift_day(6).isoformat(), "data_1": ""}
    assert toasts(run(state, CompanyJobsState.duplicate, form)) == ["success: Vaga duplicada para 1 data"]
    assert state.duplicate_open is False
    assert [row["title"] for row in state.active_jobs] == ["Bartender", "Bartender"]
    copy = _jobs(db, cast.company)[-1]
    assert (copy.serie_id, copy.data_necessaria) == (job.id, shift_day(6))


def test_duplicate_beyond_the_plan_shows_why_in_the_dialog_and_adds_nothing(db, cast):
    job = make_job(db, cast.company, "Bartender")
    db.commit()
    state, _ = _ask_duplicate(db, cast.company, job.id)

    form = {"data_0": shift_day(6).isoformat(), "data_1": shift_day(7).isoformat()}
    assert toasts(run(state, CompanyJobsState.duplicate, form)) == []
    assert state.duplicate_error.startswith("Seu plano Gratuito permite até 2 vagas ativas.")
    assert state.duplicate_open is True
    assert len(_jobs(db, cast.company)) == 1


def test_duplicate_with_repeated_dates_shows_the_message(db, cast):
    job = make_job(db, cast.company, "Bartender")
    db.commit()
    state, _ = _ask_duplicate(db, cast.company, job.id)

    day = shift_day(6).isoformat()
    assert toasts(run(state, CompanyJobsState.duplicate, {"data_0": day, "data_1": day})) == []
    assert state.duplicate_error == "Escolha datas diferentes."
    assert len(_jobs(db, cast.company)) == 1


def test_duplicate_without_the_dialog_does_nothing(db, cast):
    job = make_job(db, cast.company, "Bartender")
    db.commit()
    state = _state(db, cast.company)
    state.duplicate_job_id = job.id  # as a crafted setvar could; the dialog was never opened

    assert run(state, CompanyJobsState.duplicate, {"data_0": shift_day(6).isoformat()}) == []
    assert len(_jobs(db, cast.company)) == 1


def test_a_one_hour_shift_shows_the_length_message_under_the_end(db, cast):
    db.commit()
    state, shown = _publish(db, cast.company, {**FORM, **shift_fields(hours=1)})

    assert shown == []
    assert state.form_errors["fim_em"] == "O turno deve durar entre 2 e 12 horas."
    assert _jobs(db, cast.company) == []


def test_the_marked_point_is_kept_and_published(db, cast):
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.open_publish)

    assert run(state, CompanyJobsState.point_marked, {"lat": -23.5614141, "lng": -46.6558819}) == []
    assert (state.point_lat, state.point_lng) == ("-23.561414", "-46.655882")
    run(state, CompanyJobsState.clear_point)
    assert (state.point_lat, state.point_lng) == ("", "")


@pytest.mark.parametrize("reading", [{"error": "1"}, {"lat": 91, "lng": 0}, {"lat": "x", "lng": 1}, "nada", None])
def test_a_failed_location_reading_says_so_and_keeps_no_point(db, cast, reading):
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.open_publish)

    shown = toasts(run(state, CompanyJobsState.point_marked, reading))

    assert shown == [f"error: Erro | {POINT_FAILED}"]
    assert (state.point_lat, state.point_lng) == ("", "")


def test_close_asks_first_then_closes_and_rejects_pending_applications(db, cast):
    job = make_job(db, cast.company, "Bartender")
    application = make_application(db, job, cast.freelancer)
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.load)

    assert run(state, CompanyJobsState.ask_close, job.id) == []
    assert (state.confirm_kind, state.confirm_job_id, state.confirm_title) == ("close", job.id, "Bartender")
    assert toasts(run(state, CompanyJobsState.close_job, job.id)) == ["success: Vaga encerrada"]
    assert state.confirm_kind == ""
    db.expire_all()
    assert db.get(Job, job.id).status == "closed"
    assert db.get(Application, application.id).status == "rejected"
    assert state.active_jobs == []  # 'Ativas' holds what the plan limit counts: a closed vaga is not there
    assert state.closed_jobs[0]["status_label"] == "Fechada"
    assert (state.active_total, state.closed_total, state.archived_total) == (0, 1, 0)


def test_delete_asks_first_then_deletes_the_applications_and_the_job(db, cast):
    job = make_job(db, cast.company, "Bartender")
    make_application(db, job, cast.freelancer)
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.load)

    run(state, CompanyJobsState.ask_delete, job.id)
    assert state.confirm_kind == "delete"
    assert toasts(run(state, CompanyJobsState.delete_job, job.id)) == ["success: Vaga excluída"]
    db.expire_all()
    assert db.exec(select(Job)).all() == []
    assert db.exec(select(Application)).all() == []
    assert state.active_jobs == []


def test_asking_to_delete_another_companys_job_is_refused(db, cast):
    job = make_job(db, cast.rival)
    db.commit()
    state = _state(db, cast.company)
    run(state, CompanyJobsState.load)

    assert toasts(run(state, CompanyJobsState.ask_delete, job.id)) == [
        "error: Erro ao excluir vaga | Vaga não encontrada."
    ]
    assert state.confirm_kind == ""


def test_a_failed_delete_says_so(db, cast, monkeypatch):
    job = make_job(db, cast.company)
    db.commit()

    def explode(*_args):
        raise RuntimeError("boom")

    monkeypatch.setattr(company_jobs, "delete_job", explode)
    assert _act(db, cast.company, "delete_job", job.id) == [
        "error: Erro ao excluir vaga | Não foi possível excluir a vaga. Por favor, tente novamente."
    ]


# --- applications ----------------------------------------------------------------------------


@pytest.fixture
def hiring(db, cast):
    """A job of the company with one pending application from each freelancer."""
    job = make_job(db, cast.company, "Garçom para casamento")
    first = make_application(db, job, cast.freelancer, valor_proposto=Decimal("30.00"), mensagem="Tenho experiência.")
    second = make_application(db, job, cast.other)
    db.commit()
    return job, first, second


def _open(db, user, job_id) -> tuple[CompanyJobsState, list[str]]:
    state = _state(db, user)
    return state, toasts(run(state, CompanyJobsState.open_applications, job_id))


def test_the_owner_sees_the_applications_of_a_job(db, cast, hiring):
    job, first, _ = hiring
    state, shown = _open(db, cast.company, job.id)

    assert shown == []
    assert state.applications_open is True
    assert state.applications_loading is False
    assert state.applications_title == "Garçom para casamento"
    joao = next(card for card in state.applicants if card["id"] == first.id)
    assert (joao["name"], joao["skills"], joao["more_skills"], joao["proposal"]) == (
        "João Silva",
        ["Bandeja", "Inglês", "Vinhos"],
        "+2 mais",
        "R$ 30,00/hora",
    )
    ana = next(card for card in state.applicants if card["id"] != first.id)
    assert ana["proposal"] == "Sem contra-proposta"


def test_the_applications_dialog_sends_no_applicant_email(db, cast, hiring):
    """The leak scan of the browser tests found every applicant's e-mail in this var; the dialog shows none."""
    job, _, _ = hiring
    state, _ = _open(db, cast.company, job.id)

    sent = json.dumps(state.applicants, default=str)

    assert len(state.applicants) == 2
    assert cast.freelancer.email not in sent
    assert cast.other.email not in sent


@pytest.mark.parametrize("who", CALLERS)
def test_listing_someone_elses_applications_answers_like_a_missing_job(db, cast, hiring, who):
    job, _, _ = hiring
    missing_state, missing = _open(db, cast.company, MISSING_ID)
    state, shown = _open(db, _caller(cast, who), job.id)

    if who == "rival":
        assert shown == missing == ["error: Erro ao carregar candidaturas | Vaga não encontrada."]
        assert state.applications_error == missing_state.applications_error == "Vaga não encontrada."
    else:
        assert shown == missing
    assert state.applicants == []
    assert state.applications_title == ""


def test_an_unexpected_failure_while_listing_shows_the_error_state(db, cast, hiring, monkeypatch):
    job, _, _ = hiring

    def explode(*_args):
        raise RuntimeError("boom")

    monkeypatch.setattr("services.shifts.applicant_list.list_for_job", explode)
    state, shown = _open(db, cast.company, job.id)
    assert shown == ["error: Erro ao carregar candidaturas | Ocorreu um erro inesperado ao carregar as candidaturas."]
    assert state.applications_error == "Ocorreu um erro inesperado ao carregar as candidaturas."
    assert state.applications_loading is False


def test_accept_and_reject_refresh_the_dialog_and_the_counts(db, cast, hiring):
    job, first, second = hiring
    state, _ = _open(db, cast.company, job.id)

    assert toasts(run(state, CompanyJobsState.accept_application, first.id)) == ["success: Candidatura aceita"]
    accepted = next(card for card in state.applicants if card["id"] == first.id)
    assert accepted["status"] == "accepted"
    db.expire_all()
    chat = db.exec(select(Chat).where(Chat.application_id == first.id)).one()
    assert accepted["chat_id"] == chat.id
    assert state.active_jobs[0]["applications"] == 2

    assert toasts(run(state, CompanyJobsState.reject_application, second.id)) == ["success: Candidatura recusada"]
    assert next(card for card in state.applicants if card["id"] == second.id)["status"] == "rejected"


def test_accept_beyond_the_positions_shows_the_services_message(db, cast, hiring):
    job, first, second = hiring
    state, _ = _open(db, cast.company, job.id)
    run(state, CompanyJobsState.accept_application, first.id)

    assert toasts(run(state, CompanyJobsState.accept_application, second.id)) == [
        "error: Erro | Todas as posições desta vaga já foram preenchidas."
    ]


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize("action", ["accept_application", "reject_application"])
def test_answering_someone_elses_application_answers_like_a_missing_one(db, cast, hiring, action, who):
    _, first, _ = hiring
    before = snapshot(db)
    missing = _act(db, cast.company, action, MISSING_ID)

    assert missing == ["error: Erro | Candidatura não encontrada."]
    assert _act(db, _caller(cast, who), action, first.id) == missing
    for bad in unusable_ids(first.id):
        assert _act(db, cast.company, action, bad) == missing
    db.expire_all()
    assert snapshot(db) == before


def test_the_owner_sees_the_freelancer_profile_with_the_real_rating(db, cast, hiring):
    old_job = make_job(db, cast.company, "Antiga", status="closed")
    old = make_application(db, old_job, cast.freelancer, status="accepted")
    make_rating(db, old, cast.company, cast.freelancer, 5)
    db.commit()
    state = _state(db, cast.company)

    assert run(state, CompanyJobsState.view_profile, cast.freelancer.id) == []
    assert state.profile_open is True
    assert (state.profile["name"], state.profile["rating"]) == ("João Silva", "5,0 (1 avaliação)")
    assert state.profile["skills"] == ["Bandeja", "Inglês", "Vinhos", "Drinks", "Caixa"]


@pytest.mark.parametrize("who", CALLERS)
def test_someone_elses_applicant_profile_answers_like_a_missing_one(db, cast, hiring, who):
    missing = _act(db, cast.company, "view_profile", MISSING_ID)
    state = _state(db, _caller(cast, who))

    assert missing == ["error: Erro | Perfil não encontrado"]
    assert toasts(run(state, CompanyJobsState.view_profile, cast.freelancer.id)) == missing
    assert state.profile_open is False
    assert state.profile["name"] == ""
