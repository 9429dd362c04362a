"""services/shifts/applications.py, applicant_list.py and application_answers.py: apply, withdraw, the company's applicant list, accept, reject, profiles."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlmodel import select

from core.formatting import long_date
from core.types import utcnow
from models import Application, Chat, Job, JobStatus, Message, Notification, Profile
from services.common.errors import NotAllowed, ServiceError, ValidationFailed
from services.jobs import jobs
from services.jobs.company_jobs import JOB_NOT_FOUND
from services.shifts import applicant_list, application_answers, applications, bond
from services.shifts.applicant_list import PROFILE_NOT_FOUND
from services.shifts.application_answers import POSITIONS_FILLED
from services.shifts.applications import ALREADY_APPLIED, JOB_UNAVAILABLE, NOT_FOUND, NOT_PENDING, ONLY_FREELANCERS
from tests.support.factories import (
    make_application,
    make_cast,
    make_chat,
    make_freelancer,
    make_job,
    make_rating,
    snapshot,
    unusable_ids,
)

WELCOME = 'Olá! Sua candidatura para a vaga "Garçom" foi aceita. Vamos combinar os detalhes por aqui.'


@pytest.fixture
def cast(db):
    return make_cast(db)


def _notifications(db, user, kind=None):
    query = select(Notification).where(Notification.user_id == user.id)
    if kind:
        query = query.where(Notification.type == kind)
    return db.exec(query.order_by(Notification.id)).all()


def _count(db, table) -> int:
    return len(db.exec(select(table)).all())


def _refused(db, call, error=ServiceError, message=None):
    """`call` raises `error` (with `message` when given) and no table changes."""
    before = snapshot(db)
    with pytest.raises(error) as caught:
        call()
    if message is not None:
        assert caught.value.message == message
    assert snapshot(db) == before
    return caught.value


# --- apply ---------------------------------------------------------------------------------


def test_freelancer_applies_with_a_proposal_and_a_message(db, cast):
    job = make_job(db, cast.company, "Garçom")

    application_id = applications.apply(
        db, cast.freelancer.id, "freelancer", job.id, {"valor_proposto": "35,50", "mensagem": "  Tenho experiência. "}
    )

    application = db.get(Application, application_id)
    assert (application.vaga_id, application.freelancer_id, application.status) == (
        job.id,
        cast.freelancer.id,
        "pending",
    )
    assert application.valor_proposto == Decimal("35.50")
    assert application.mensagem == "Tenho experiência."
    assert applications.has_applied(db, cast.freelancer.id, job.id) == "pending"
    assert applications.has_applied(db, cast.other.id, job.id) == ""


def test_apply_notifies_the_company_with_the_freelancers_name(db, cast):
    job = make_job(db, cast.company, "Garçom")

    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})

    [notice] = _notifications(db, cast.company)
    assert notice.type == "new_application"
    assert notice.message == 'João Silva se candidatou à vaga "Garçom".'
    assert notice.link == "/client-dashboard?tab=jobs"
    assert _notifications(db, cast.freelancer) == []


def test_apply_without_a_name_says_a_freelancer(db, cast):
    nameless = make_freelancer(db, nome="")
    job = make_job(db, cast.company, "Garçom")

    applications.apply(db, nameless.id, "freelancer", job.id, {})

    assert _notifications(db, cast.company)[0].message == 'Um freelancer se candidatou à vaga "Garçom".'


def test_apply_without_proposal_stores_none(db, cast):
    job = make_job(db, cast.company)

    application_id = applications.apply(db, cast.freelancer.id, "freelancer", job.id, {"valor_proposto": ""})

    assert db.get(Application, application_id).valor_proposto is None


@pytest.mark.parametrize("role", ["client", "", "admin", None, "Freelancer"])
def test_only_freelancers_can_apply(db, cast, role):
    job = make_job(db, cast.company)

    _refused(db, lambda: applications.apply(db, cast.rival.id, role, job.id, {}), NotAllowed, ONLY_FREELANCERS)


def test_applying_twice_is_refused(db, cast):
    job = make_job(db, cast.company)
    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})

    _refused(db, lambda: applications.apply(db, cast.freelancer.id, "freelancer", job.id, {}), message=ALREADY_APPLIED)


def test_applying_again_after_an_answer_is_refused(db, cast):
    job = make_job(db, cast.company)
    make_application(db, job, cast.freelancer, status="rejected")

    _refused(db, lambda: applications.apply(db, cast.freelancer.id, "freelancer", job.id, {}), message=ALREADY_APPLIED)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"valor_proposto": "abc"}, "valor_proposto", "Informe um valor por hora válido."),
        ({"valor_proposto": "-1"}, "valor_proposto", "Informe um valor por hora válido."),
        ({"mensagem": "m" * 2001}, "mensagem", "A mensagem deve ter no máximo 2000 caracteres."),
    ],
)
def test_apply_validates_the_form(db, cast, data, field, message):
    job = make_job(db, cast.company)

    error = _refused(
        db, lambda: applications.apply(db, cast.freelancer.id, "freelancer", job.id, data), ValidationFailed
    )
    assert error.field_errors == {field: message}


@pytest.mark.parametrize(
    "fields",
    [
        {"status": JobStatus.CLOSED},
        {"status": JobStatus.IN_PROGRESS},
        {"status": JobStatus.ARCHIVED, "is_archived": True},
        {"is_archived": True},
    ],
)
def test_only_open_jobs_take_applications(db, cast, fields):
    job = make_job(db, cast.company, **fields)

    _refused(
        db, lambda: applications.apply(db, cast.freelancer.id, "freelancer", job.id, {}), NotAllowed, JOB_UNAVAILABLE
    )


def test_apply_to_a_missing_or_malformed_job_id_is_refused_alike(db, cast):
    job = make_job(db, cast.company)
    before = snapshot(db)

    for job_id in unusable_ids(job.id):
        with pytest.raises(NotAllowed) as caught:
            applications.apply(db, cast.freelancer.id, "freelancer", job_id, {})
        assert caught.value.message == JOB_UNAVAILABLE, job_id
    assert snapshot(db) == before


def test_apply_ignores_extra_keys(db, cast):
    job = make_job(db, cast.company)

    application_id = applications.apply(
        db, cast.freelancer.id, "freelancer", job.id, {"status": "accepted", "freelancer_id": cast.other.id}
    )

    application = db.get(Application, application_id)
    assert (application.status, application.freelancer_id) == ("pending", cast.freelancer.id)


# --- withdraw ------------------------------------------------------------------------------


def test_freelancer_withdraws_a_pending_application(db, cast):
    job = make_job(db, cast.company)
    mine = make_application(db, job, cast.freelancer)
    theirs = make_application(db, job, cast.other)

    applications.withdraw(db, cast.freelancer.id, mine.id)
    db.flush()

    assert db.exec(select(Application.id)).all() == [theirs.id]
    assert applications.has_applied(db, cast.freelancer.id, job.id) == ""


@pytest.mark.parametrize("status", ["accepted", "rejected"])
def test_an_answered_application_cannot_be_withdrawn(db, cast, status):
    application = make_application(db, make_job(db, cast.company), cast.freelancer, status=status)

    _refused(db, lambda: applications.withdraw(db, cast.freelancer.id, application.id), message=NOT_PENDING)


# --- list_for_job --------------------------------------------------------------------------


def test_list_for_job_shows_applicant_cards(db, cast):
    job = make_job(db, cast.company, "Garçom")
    accepted = make_application(
        db, job, cast.other, status="accepted", valor_proposto=Decimal("1234.5"), mensagem="Posso ir."
    )
    chat = make_chat(db, accepted, cast.company, cast.other)
    pending = make_application(db, job, cast.freelancer, mensagem="Tenho experiência.")
    make_application(db, make_job(db, cast.rival), cast.freelancer)

    title, cards, more, _cursor = applicant_list.list_for_job(db, cast.company.id, job.id)

    assert (title, more) == ("Garçom", False)
    assert [card["id"] for card in cards] == [pending.id, accepted.id]
    first, second = cards
    assert first == {
        "id": pending.id,
        "freelancer_id": cast.freelancer.id,
        "name": "João Silva",
        "profession": "Garçom",
        "photo": "",
        "skills": ["Bandeja", "Inglês", "Vinhos"],
        "more_skills": "+2 mais",
        "proposal": "Sem contra-proposta",
        "message": "Tenho experiência.",
        "status": "pending",
        "chat_id": 0,
        "date": long_date(pending.created_at),
        "has_profile": True,
        "guaranteed": False,
        "accept_label": "Aceitar",
        "bond": bond.NO_NOTICE,  # no shifts together yet (tests/unit/shifts/test_bond.py)
    }
    assert (second["proposal"], second["status"], second["chat_id"]) == ("R$ 1.234,50/hora", "accepted", chat.id)
    assert (second["skills"], second["more_skills"]) == ([], "")


@pytest.mark.parametrize(
    ("skills", "shown", "more"),
    [([], [], ""), (["A", "B", "C"], ["A", "B", "C"], ""), (["A", "B", "C", "D"], ["A", "B", "C"], "+1 mais")],
)
def test_at_most_three_skills_then_more(db, cast, skills, shown, more):
    freelancer = make_freelancer(db, habilidades=skills)
    job = make_job(db, cast.company)
    make_application(db, job, freelancer)

    [card] = applicant_list.list_for_job(db, cast.company.id, job.id)[1]

    assert (card["skills"], card["more_skills"]) == (shown, more)


def test_missing_profile_shows_perfil_nao_encontrado(db, cast):
    job = make_job(db, cast.company)
    make_application(db, job, cast.freelancer)
    db.delete(db.get(Profile, cast.freelancer.id))
    db.flush()

    [card] = applicant_list.list_for_job(db, cast.company.id, job.id)[1]

    assert card["name"] == "Perfil não encontrado"
    assert card["has_profile"] is False
    assert (card["skills"], card["more_skills"], card["profession"]) == ([], "", "")


def test_applicant_cards_hold_no_email_phone_or_address(db, cast):
    """The dialog never shows them, so the cards sent to the company's browser do not carry them."""
    profile = db.get(Profile, cast.freelancer.id)
    profile.telefone, profile.endereco = "(11) 98888-7777", "Rua das Flores, 10"
    db.add(profile)
    job = make_job(db, cast.company)
    make_application(db, job, cast.freelancer)
    db.flush()

    [card] = applicant_list.list_for_job(db, cast.company.id, job.id)[1]
    sent = json.dumps(card, default=str)

    assert "email" not in card
    for private in (cast.freelancer.email, "98888-7777", "Rua das Flores"):
        assert private not in sent


def test_list_for_job_without_applications_is_empty(db, cast):
    job = make_job(db, cast.company, "Vazia")

    assert applicant_list.list_for_job(db, cast.company.id, job.id) == ("Vazia", [], False, None)


def test_list_for_job_reads_a_slice_and_says_whether_more_follow(db, cast):
    job = make_job(db, cast.company, "Muitos")
    people = [make_freelancer(db, nome=f"Pessoa {n}") for n in range(applicant_list.APPLICANTS_PAGE_SIZE + 3)]
    for n, person in enumerate(people):
        make_application(db, job, person, created_at=utcnow() - timedelta(minutes=n))

    first = applicant_list.list_for_job(db, cast.company.id, job.id)
    rest = applicant_list.list_for_job(db, cast.company.id, job.id, after=first.cursor)

    assert len(first.cards) == applicant_list.APPLICANTS_PAGE_SIZE
    assert first.has_more is True
    assert [card["name"] for card in rest.cards] == [f"Pessoa {n}" for n in range(20, 23)]
    assert rest.has_more is False
    assert [card["name"] for card in first.cards][:2] == ["Pessoa 0", "Pessoa 1"]


def _crowd(db, cast, count: int):
    """A job with `count` pending applications, the newest first in the dialog's order."""
    job = make_job(db, cast.company, "Muitos", vagas_disponiveis=count)
    people = [make_freelancer(db, nome=f"Pessoa {n:02d}") for n in range(count)]
    return job, [
        make_application(db, job, person, created_at=utcnow() - timedelta(minutes=n)) for n, person in enumerate(people)
    ]


def test_answering_shown_cards_never_makes_the_next_page_skip_one(db, cast):
    """'Carregar mais' after accepting and rejecting cards of the first page still shows every card once."""
    job, crowd = _crowd(db, cast, applicant_list.APPLICANTS_PAGE_SIZE + 5)
    first = applicant_list.list_for_job(db, cast.company.id, job.id)
    application_answers.accept(db, cast.company.id, crowd[3].id)
    application_answers.reject(db, cast.company.id, crowd[7].id)
    applications.withdraw(db, crowd[10].freelancer_id, crowd[10].id)

    rest = applicant_list.list_for_job(db, cast.company.id, job.id, after=first.cursor)

    seen = [card["id"] for card in first.cards] + [card["id"] for card in rest.cards]
    assert set(seen) == {application.id for application in crowd}
    assert [card["name"] for card in rest.cards][:5] == [f"Pessoa {n:02d}" for n in range(20, 25)]
    assert rest.has_more is False


def test_the_next_page_starts_after_an_answered_last_card(db, cast):
    """The cursor remembers the last card as listed (pending), not as it is after being answered."""
    job, crowd = _crowd(db, cast, applicant_list.APPLICANTS_PAGE_SIZE + 2)
    first = applicant_list.list_for_job(db, cast.company.id, job.id)
    application_answers.accept(db, cast.company.id, crowd[applicant_list.APPLICANTS_PAGE_SIZE - 1].id)

    rest = applicant_list.list_for_job(db, cast.company.id, job.id, after=first.cursor)

    assert [card["name"] for card in rest.cards] == ["Pessoa 20", "Pessoa 21", "Pessoa 19"]
    assert rest.cards[-1]["status"] == "accepted"


def test_reread_cards_keeps_the_shown_cards_in_place_with_their_new_status(db, cast):
    """With more pending cards than a page, an accepted card stays where it was instead of leaving the page."""
    job, crowd = _crowd(db, cast, applicant_list.APPLICANTS_PAGE_SIZE + 5)
    shown = [card["id"] for card in applicant_list.list_for_job(db, cast.company.id, job.id).cards]
    chat_id = application_answers.accept(db, cast.company.id, crowd[4].id)
    applications.withdraw(db, crowd[6].freelancer_id, crowd[6].id)

    cards = applicant_list.reread_cards(db, cast.company.id, job.id, shown)

    assert [card["id"] for card in cards] == [card_id for card_id in shown if card_id != crowd[6].id]
    assert (cards[4]["status"], cards[4]["chat_id"]) == ("accepted", chat_id)
    assert applicant_list.reread_cards(db, cast.company.id, job.id, []) == []


def test_reread_cards_of_someone_elses_job_is_refused(db, cast):
    job, crowd = _crowd(db, cast, 2)

    with pytest.raises(NotAllowed):
        applicant_list.reread_cards(db, cast.rival.id, job.id, [application.id for application in crowd])


def test_proposal_text():
    assert applicant_list.proposal_text(None) == "Sem contra-proposta"
    assert applicant_list.proposal_text(Decimal("25.5")) == "R$ 25,50/hora"


# --- accept --------------------------------------------------------------------------------


def test_accept_opens_one_chat_with_one_welcome_message(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)

    chat_id = application_answers.accept(db, cast.company.id, application.id)
    db.flush()

    chat = db.get(Chat, chat_id)
    assert (chat.client_id, chat.freelancer_id, chat.application_id) == (
        cast.company.id,
        cast.freelancer.id,
        application.id,
    )
    [message] = db.exec(select(Message)).all()
    assert (message.chat_id, message.sender_id, message.content) == (chat_id, cast.company.id, WELCOME)
    assert db.get(Application, application.id).status == "accepted"
    [notice] = _notifications(db, cast.freelancer)
    assert notice.type == "application_accepted"
    assert notice.message == 'Sua candidatura para a vaga "Garçom" foi aceita!'
    assert notice.link == f"/freelancer-dashboard/chats/{chat_id}"


def test_accepting_again_returns_the_same_chat_and_adds_nothing(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)
    chat_id = application_answers.accept(db, cast.company.id, application.id)
    db.commit()
    before = snapshot(db)

    assert application_answers.accept(db, cast.company.id, application.id) == chat_id
    assert application_answers.accept(db, cast.company.id, application.id) == chat_id
    assert snapshot(db) == before


def test_accept_reuses_an_existing_chat_without_a_second_welcome(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)
    chat = make_chat(db, application, cast.company, cast.freelancer)

    assert application_answers.accept(db, cast.company.id, application.id) == chat.id
    assert _count(db, Chat) == 1
    assert _count(db, Message) == 0


def test_one_position_fills_and_the_job_leaves_the_public_list(db, cast):
    job = make_job(db, cast.company, "Garçom")
    make_job(db, cast.rival, "Outra")
    first = make_application(db, job, cast.freelancer)
    second = make_application(db, job, cast.other)

    application_answers.accept(db, cast.company.id, first.id)
    db.flush()

    assert (job.status, job.vaga_status) == ("in_progress", "in_progress")
    assert [item["title"] for item in jobs.list_public_jobs(db).items] == ["Outra"]
    _refused(db, lambda: application_answers.accept(db, cast.company.id, second.id), message=POSITIONS_FILLED)
    assert db.get(Application, second.id).status == "pending"
    assert _count(db, Chat) == 1


def test_two_positions_stay_open_after_the_first_acceptance(db, cast):
    job = make_job(db, cast.company, "Garçom", vagas_disponiveis=2)
    first = make_application(db, job, cast.freelancer)
    second = make_application(db, job, cast.other)
    third = make_application(db, job, make_freelancer(db, nome="Bia"))

    application_answers.accept(db, cast.company.id, first.id)
    db.flush()
    assert job.status == "open"
    assert [item["title"] for item in jobs.list_public_jobs(db).items] == ["Garçom"]

    application_answers.accept(db, cast.company.id, second.id)
    db.flush()
    assert job.status == "in_progress"
    assert jobs.list_public_jobs(db).items == []
    _refused(db, lambda: application_answers.accept(db, cast.company.id, third.id), message=POSITIONS_FILLED)
    assert _count(db, Chat) == 2


def test_a_rejected_application_cannot_be_accepted(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer, status="rejected")

    _refused(db, lambda: application_answers.accept(db, cast.company.id, application.id), message=NOT_PENDING)


@pytest.mark.parametrize(
    "fields",
    [
        {"status": JobStatus.CLOSED, "vaga_status": JobStatus.CLOSED},
        {"status": JobStatus.ARCHIVED, "is_archived": True},
    ],
)
def test_applications_of_closed_or_archived_jobs_cannot_be_accepted(db, cast, fields):
    application = make_application(db, make_job(db, cast.company, **fields), cast.freelancer)

    _refused(db, lambda: application_answers.accept(db, cast.company.id, application.id), message=NOT_PENDING)


# --- reject --------------------------------------------------------------------------------


def test_reject_sets_rejected_and_tells_the_freelancer(db, cast):
    job = make_job(db, cast.company, "Garçom")
    application = make_application(db, job, cast.freelancer)

    application_answers.reject(db, cast.company.id, application.id)
    db.flush()

    assert db.get(Application, application.id).status == "rejected"
    [notice] = _notifications(db, cast.freelancer)
    assert notice.type == "application_rejected"
    assert notice.message == 'Sua candidatura para a vaga "Garçom" não foi selecionada desta vez.'
    assert notice.link == "/freelancer-dashboard?tab=applications"
    assert _count(db, Chat) == 0


def test_rejecting_twice_notifies_once(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer)
    application_answers.reject(db, cast.company.id, application.id)
    db.commit()
    before = snapshot(db)

    application_answers.reject(db, cast.company.id, application.id)

    assert snapshot(db) == before


def test_an_accepted_application_cannot_be_rejected(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer)
    application_answers.accept(db, cast.company.id, application.id)
    db.commit()

    _refused(db, lambda: application_answers.reject(db, cast.company.id, application.id), message=NOT_PENDING)


# --- freelancer_profile --------------------------------------------------------------------


def test_company_sees_the_profile_of_a_freelancer_who_applied(db, cast):
    profile = db.get(Profile, cast.freelancer.id)
    profile.localizacao = "Rio de Janeiro"
    profile.biografia = "Garçom há 10 anos."
    profile.experiencia_descricao = "Hotéis e eventos."
    profile.website = "https://joao.example"
    db.add(profile)
    make_application(db, make_job(db, cast.company), cast.freelancer, status="rejected")

    view = applicant_list.freelancer_profile(db, cast.company.id, cast.freelancer.id)

    assert view == {
        "id": cast.freelancer.id,
        "name": "João Silva",
        "profession": "Garçom",
        "location": "Rio de Janeiro",
        "photo": "",
        "bio": "Garçom há 10 anos.",
        "skills": ["Bandeja", "Inglês", "Vinhos", "Drinks", "Caixa"],
        "experience": "Hotéis e eventos.",
        "website": "https://joao.example",
        "rating": "Sem avaliações ainda",
    }


def test_freelancer_profile_shows_the_rating_summary(db, cast):
    application = make_application(db, make_job(db, cast.company), cast.freelancer, status="accepted")
    make_rating(db, application, cast.company, cast.freelancer, 5)

    assert applicant_list.freelancer_profile(db, cast.company.id, cast.freelancer.id)["rating"] == "5,0 (1 avaliação)"


def test_freelancer_profile_without_a_profile_row_is_not_found(db, cast):
    make_application(db, make_job(db, cast.company), cast.freelancer)
    db.delete(db.get(Profile, cast.freelancer.id))
    db.flush()

    _refused(
        db,
        lambda: applicant_list.freelancer_profile(db, cast.company.id, cast.freelancer.id),
        NotAllowed,
        PROFILE_NOT_FOUND,
    )


# --- strangers -----------------------------------------------------------------------------


@pytest.fixture
def target(db, cast):
    """A pending application of João to the company's job (plus an accepted one of Ana with a chat)."""
    job = make_job(db, cast.company, "Garçom", vagas_disponiveis=2)
    pending = make_application(db, job, cast.freelancer)
    accepted = make_application(db, job, cast.other, status="accepted")
    make_chat(db, accepted, cast.company, cast.other)
    make_application(db, make_job(db, cast.rival, "Da rival"), cast.other)
    db.commit()
    return {"job": job.id, "application": pending.id, "freelancer": cast.freelancer.id}


# action: (function, who may act, what id it takes, the one refusal message)
ACTIONS = {
    "accept": (application_answers.accept, "company", "application", NOT_FOUND),
    "reject": (application_answers.reject, "company", "application", NOT_FOUND),
    "list_for_job": (applicant_list.list_for_job, "company", "job", JOB_NOT_FOUND),
    "freelancer_profile": (applicant_list.freelancer_profile, "company", "freelancer", PROFILE_NOT_FOUND),
    "withdraw": (applications.withdraw, "freelancer", "application", NOT_FOUND),
}


def _strangers(cast, allowed: str) -> list:
    everyone = {"company": cast.company, "rival": cast.rival, "freelancer": cast.freelancer, "other": cast.other}
    return [(name, user.id) for name, user in everyone.items() if name != allowed]


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_strangers_get_the_same_refusal_and_nothing_changes(db, cast, target, action):
    function, allowed, kind, message = ACTIONS[action]
    real_id = target[kind]
    owner_id = getattr(cast, allowed).id
    calls = [(name, actor, real_id) for name, actor in _strangers(cast, allowed)]
    calls += [(f"{allowed} with id {value!r}", owner_id, value) for value in unusable_ids(real_id)]
    before = snapshot(db)

    for who, actor, object_id in calls:
        with pytest.raises(NotAllowed) as caught:
            function(db, actor, object_id)
        assert caught.value.message == message, who
        assert snapshot(db) == before, who


def test_a_freelancer_the_company_never_heard_from_is_not_found(db, cast, target):
    stranger = make_freelancer(db, nome="Desconhecido")

    _refused(
        db, lambda: applicant_list.freelancer_profile(db, cast.company.id, stranger.id), NotAllowed, PROFILE_NOT_FOUND
    )
    _refused(
        db,
        lambda: applicant_list.freelancer_profile(db, cast.rival.id, cast.freelancer.id),
        NotAllowed,
        PROFILE_NOT_FOUND,
    )


def test_the_rightful_caller_passes_where_strangers_are_refused(db, cast, target):
    assert applicant_list.list_for_job(db, cast.company.id, target["job"])[0] == "Garçom"
    assert applicant_list.freelancer_profile(db, cast.company.id, target["freelancer"])["name"] == "João Silva"
    assert applicant_list.freelancer_profile(db, cast.rival.id, cast.other.id)["name"] == "Ana Souza"
    applications.withdraw(db, cast.freelancer.id, target["application"])
    assert db.get(Job, target["job"]) is not None
