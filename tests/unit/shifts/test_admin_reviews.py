"""Turno staff's back office: the open requests with their evidence, each decision path, and refusals.

Hirings are built through the real services (accept, then `shifts.act` with explicit times), so the
timeline, records, faltas and review requests are the ones the product writes.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from sqlmodel import select

from app.pages.admin import AdminState
from core import routes
from core import shift_rules as rules
from core.types import utcnow
from models import Chat, Falta, Hiring, HiringEvent, HiringState, Notification, ReviewRequest, Role, User
from services.accounts import accounts
from services.common.errors import NotAllowed, ServiceError
from services.shifts import admin_reviews, application_answers, faltas, shifts
from states.auth import AuthState
from tests.support.factories import (
    Cast,
    make_application,
    make_cast,
    make_job,
    make_message,
    snapshot,
    unusable_ids,
)
from tests.support.sql_log import sent_statements
from tests.support.state_harness import cookie_for, run, state_for, toasts

POINT = (-23.5614, -46.6559)
READING_LAT = -23.56145
ABSENCE_REASON = "Eu estava lá, registrei a chegada com a supervisora."
HOURS_REASON = "Fiquei até o fim do evento, a supervisora viu."
ADJUST_REASON = "Saiu duas horas antes do fim do evento."
REVIEW_REASON = "O ônibus quebrou e avisei a empresa pelo chat."
DECISION = "Os registros e as mensagens confirmam a versão do profissional."
TABLES = (Hiring, HiringEvent, ReviewRequest, Falta, Notification)


@dataclass(frozen=True)
class World:
    """The cast, a staff member and three open requests: an absence contest, an hours dispute, a falta review."""

    cast: Cast
    staff: User
    absence: ReviewRequest
    hours: ReviewRequest
    review: ReviewRequest
    start: datetime


def _hire(db, company: User, freelancer: User, title: str, start: datetime, **job_fields) -> Hiring:
    job = make_job(db, company, title, inicio_em=start, **job_fields)
    application = make_application(db, job, freelancer)
    application_answers.accept(db, company.id, application.id)
    return db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()


def _act(db, user: User, hiring: Hiring, action: str, now: datetime, **data) -> None:
    outcome = shifts.act(db, user.id, user.role, hiring.id, action, data, now)
    assert outcome.ok, outcome


def _request(db, hiring: Hiring) -> ReviewRequest:
    return db.exec(select(ReviewRequest).where(ReviewRequest.hiring_id == hiring.id)).one()


@pytest.fixture
def world(db) -> World:
    cast = make_cast(db)
    staff, _ = accounts.create_admin(db, "staff@turno.com.br", "Equipe2026")
    # Tomorrow 18:00 in São Paulo: every step below comes after the acceptance (which happens now).
    start = (utcnow() + timedelta(days=1)).replace(hour=21, minute=0, second=0, microsecond=0)

    absent = _hire(db, cast.company, cast.freelancer, "Garçom para casamento", start)
    chat = db.exec(select(Chat).where(Chat.application_id == absent.application_id)).one()
    make_message(db, chat, cast.company, "Você vem hoje?", minutes_ago=-20)
    make_message(db, chat, cast.freelancer, "Estou na portaria, ninguém atende.", minutes_ago=-30)
    _act(db, cast.company, absent, "nao_compareceu", start + timedelta(hours=1))
    _act(db, cast.freelancer, absent, "contestar_falta", start + timedelta(hours=2), reason=ABSENCE_REASON)

    worked = _hire(db, cast.company, cast.other, "Bartender para festa", start, ponto_lat=POINT[0], ponto_lng=POINT[1])
    reading = {"method": "local", "lat": READING_LAT, "lng": POINT[1], "accuracy": 10}
    _act(db, cast.other, worked, "chegada", start - timedelta(minutes=10), **reading)
    _act(db, cast.other, worked, "saida", start + timedelta(hours=8), method="manual")
    _act(db, cast.other, worked, "enviar_horas", start + timedelta(hours=8, minutes=5), hours="8:00")
    _act(db, cast.company, worked, "ajustar", start + timedelta(hours=9), hours="6:00", reason=ADJUST_REASON)
    _act(db, cast.other, worked, "contestar_ajuste", start + timedelta(hours=10), reason=HOURS_REASON)

    later = start + timedelta(hours=9)  # after the first shift: one place at a time (services/shifts/overlaps.py)
    missed = _hire(db, cast.rival, cast.freelancer, "Recepcionista de hotel", later)
    _act(db, cast.rival, missed, "nao_compareceu", later + timedelta(hours=3))
    falta = db.exec(select(Falta).where(Falta.hiring_id == missed.id)).one()
    faltas.request_review(db, cast.freelancer.id, falta.id, REVIEW_REASON, later + timedelta(hours=11))
    db.commit()
    return World(cast, staff, _request(db, absent), _request(db, worked), _request(db, missed), start)


def _hiring(db, request: ReviewRequest) -> Hiring:
    db.expire_all()
    return db.get(Hiring, request.hiring_id)


def _notices(db, user: User) -> list[str]:
    db.expire_all()
    return [n.message for n in db.exec(select(Notification).where(Notification.user_id == user.id)).all()]


# --- the list ----------------------------------------------------------------------------------------


def test_the_open_requests_come_oldest_first_with_their_evidence(db, world):
    page = admin_reviews.open_reviews(db, world.staff.id)

    assert (page.total, page.page, page.pages) == (3, 1, 1)
    absence, hours, review = page.items
    assert [i["id"] for i in page.items] == [world.absence.id, world.hours.id, world.review.id]
    assert [i["kind_label"] for i in page.items] == ["Contestação de ausência", "Disputa de horas", "Revisão de falta"]
    assert (absence["job_title"], absence["company"], absence["freelancer"]) == (
        "Garçom para casamento",
        "Hotel Atlântico",
        "João Silva",
    )
    assert absence["shift"].endswith(", 18:00–02:00")
    assert (absence["reason"], absence["requested_by"]) == (ABSENCE_REASON, "Profissional · João Silva")
    assert absence["state"] == "Em disputa" and absence["offers_absence"]
    assert absence["default_hours"] == "7:00"  # scheduled: 8 h minus the 60-minute break
    assert [(r["label"], r["time"]) for r in absence["records"]] == [
        ("Chegada", "Não registrada"),
        ("Saída", "Não registrada"),
    ]
    assert [(e["who"], e["what"], e["change"], e["reason"]) for e in absence["timeline"]] == [
        ("Empresa", "Candidatura aceita: turno agendado", "Agendado", ""),
        ("Empresa", "Não compareceu", "Agendado → Não compareceu", ""),
        ("Profissional", "Ausência contestada", "Não compareceu → Em disputa", ABSENCE_REASON),
    ]
    assert [(m["who"], m["text"]) for m in absence["messages"]][1:] == [
        ("Empresa · Hotel Atlântico", "Você vem hoje?"),
        ("Profissional · João Silva", "Estou na portaria, ninguém atende."),
    ]

    assert (hours["freelancer"], hours["reason"], hours["offers_absence"]) == ("Ana Souza", HOURS_REASON, False)
    assert [(r["label"], r["method"], r["distance"]) for r in hours["records"]] == [
        ("Chegada", "localização", "até 150 m"),
        ("Saída", "registro manual", "sem leitura"),
    ]
    assert (hours["hours_sent"], hours["hours_adjusted"], hours["adjustment_reason"]) == ("8h00", "6h00", ADJUST_REASON)
    assert hours["default_hours"] == "6:00"
    assert [e["what"] for e in hours["timeline"]][-2:] == ["Ajuste de horas proposto", "Ajuste contestado"]
    assert [m["text"] for m in hours["messages"]] == [
        'Olá! Sua candidatura para a vaga "Bartender para festa" foi aceita. Vamos combinar os detalhes por aqui.'
    ]

    assert (review["kind"], review["company"], review["default_hours"]) == ("falta", "Outro Hotel", "")
    assert review["falta"].startswith(f"Não compareceu ({rules.FALTAS_FOR_NO_SHOW} faltas), registrada em ") and review[
        "falta"
    ].endswith("ativa")
    assert "lat" not in json.dumps(page.items) and str(READING_LAT) not in json.dumps(page.items)


def test_the_kinds_are_labelled_from_the_contest_in_the_timeline(db, world):
    labels = {i["id"]: i["kind_label"] for i in admin_reviews.open_reviews(db, world.staff.id).items}

    assert labels == {
        world.absence.id: "Contestação de ausência",
        world.hours.id: "Disputa de horas",
        world.review.id: "Revisão de falta",
    }


def test_the_list_costs_the_same_statements_whatever_it_holds(db, world):
    with sent_statements(db.get_bind()) as sent:
        admin_reviews.open_reviews(db, world.staff.id)
        admin_reviews.recent_decisions(db, world.staff.id)

    assert len(sent) <= 7, sent  # staff check + count + rows + events + messages; staff check + rows + contests


def test_the_list_is_paged(db, world, monkeypatch):
    monkeypatch.setattr(admin_reviews, "PAGE_SIZE", 2)

    first = admin_reviews.open_reviews(db, world.staff.id, 1)
    second = admin_reviews.open_reviews(db, world.staff.id, 2)

    assert (first.pages, [i["id"] for i in first.items]) == (2, [world.absence.id, world.hours.id])
    assert [i["id"] for i in second.items] == [world.review.id]


# --- decisions ---------------------------------------------------------------------------------------


def test_approving_a_disputed_adjustment_pays_the_adjusted_hours_and_tells_both_sides(db, world):
    done = admin_reviews.decide(
        db, world.staff.id, world.hours.id, {"decision": "aprovar", "hours": "", "reason": DECISION}, utcnow()
    )
    db.commit()

    hiring = _hiring(db, world.hours)
    assert done == "Decisão registrada"
    assert (hiring.state, hiring.minutos_aprovados, hiring.valor_centavos) == (HiringState.APPROVED, 360, 18000)
    request = db.get(ReviewRequest, world.hours.id)
    assert (request.decisao, request.decisao_motivo, request.decided_by) == ("aprovar", DECISION, world.staff.id)
    text = f'A equipe Turno decidiu a disputa do turno "Bartender para festa": horas aprovadas. Motivo: {DECISION}'
    assert text in _notices(db, world.cast.other) and text in _notices(db, world.cast.company)
    assert [i["id"] for i in admin_reviews.open_reviews(db, world.staff.id).items] == [
        world.absence.id,
        world.review.id,
    ]
    [decided] = admin_reviews.recent_decisions(db, world.staff.id)
    assert (decided["kind_label"], decided["decision"], decided["reason"]) == (
        "Disputa de horas",
        "Horas aprovadas",
        DECISION,
    )


def test_staff_may_approve_other_hours_than_the_ones_proposed(db, world):
    admin_reviews.decide(
        db, world.staff.id, world.hours.id, {"decision": "aprovar", "hours": "7:30", "reason": DECISION}, utcnow()
    )
    db.commit()

    assert _hiring(db, world.hours).minutos_aprovados == 450


def test_an_hours_dispute_cannot_end_as_an_absence(db, world):
    before = snapshot(db, *TABLES)

    with pytest.raises(ServiceError) as caught:
        admin_reviews.decide(db, world.staff.id, world.hours.id, {"decision": "falta", "reason": DECISION}, utcnow())
    db.rollback()

    assert caught.value.message == "Escolha a decisão."
    assert snapshot(db, *TABLES) == before


def test_keeping_a_contested_absence_keeps_the_falta(db, world):
    admin_reviews.decide(db, world.staff.id, world.absence.id, {"decision": "falta", "reason": DECISION}, utcnow())
    db.commit()

    hiring = _hiring(db, world.absence)
    assert hiring.state == HiringState.NO_SHOW
    falta = db.exec(select(Falta).where(Falta.hiring_id == hiring.id)).one()
    assert falta.removida_em is None
    text = f'A equipe Turno decidiu a disputa do turno "Garçom para casamento": ausência mantida. Motivo: {DECISION}'
    assert text in _notices(db, world.cast.freelancer)
    assert admin_reviews.recent_decisions(db, world.staff.id)[0]["decision"] == "Ausência mantida"


def test_approving_a_contested_absence_pays_the_scheduled_hours_and_lifts_the_falta(db, world):
    admin_reviews.decide(db, world.staff.id, world.absence.id, {"decision": "aprovar", "reason": DECISION}, utcnow())
    db.commit()

    hiring = _hiring(db, world.absence)
    assert (hiring.state, hiring.minutos_aprovados) == (HiringState.APPROVED, 420)
    falta = db.exec(select(Falta).where(Falta.hiring_id == hiring.id)).one()
    assert falta.removida_em is not None and falta.removida_motivo == DECISION
    events = db.exec(select(HiringEvent).where(HiringEvent.hiring_id == hiring.id).order_by(HiringEvent.id)).all()
    assert (events[-1].actor, events[-1].action, events[-1].reason) == ("turno", "decidir_aprovar", DECISION)


@pytest.mark.parametrize(
    ("decision", "word", "removed"), [("remover", "falta removida", True), ("manter", "falta mantida", False)]
)
def test_a_falta_review_removes_or_keeps_it_and_tells_the_freelancer(db, world, decision, word, removed):
    company_notices = _notices(db, world.cast.rival)

    admin_reviews.decide(db, world.staff.id, world.review.id, {"decision": decision, "reason": DECISION}, utcnow())
    db.commit()

    falta = db.get(Falta, world.review.falta_id)
    assert (falta.removida_em is not None) is removed
    request = db.get(ReviewRequest, world.review.id)
    assert request.decisao == ("falta_removida" if removed else "falta_mantida")
    notice = db.exec(
        select(Notification).where(Notification.user_id == world.cast.freelancer.id).order_by(Notification.id.desc())
    ).first()
    assert notice.message == f"A equipe Turno revisou sua falta: {word}. Motivo: {DECISION}"
    assert (notice.type, notice.target) == ("shift", routes.NoticeTarget.FREELANCER_SHIFTS)
    assert _notices(db, world.cast.rival) == company_notices
    assert _hiring(db, world.review).state == HiringState.NO_SHOW
    [decided] = admin_reviews.recent_decisions(db, world.staff.id)
    assert (decided["kind_label"], decided["decision"]) == ("Revisão de falta", word.capitalize())


@pytest.mark.parametrize("request_name", ["absence", "hours", "review"])
@pytest.mark.parametrize("reason", ["", "curto", "   muito    ", None, 12345, ["Motivo longo o bastante"]])
def test_a_short_reason_is_refused_and_nothing_changes(db, world, request_name, reason):
    request = getattr(world, request_name)
    decision = "remover" if request_name == "review" else "aprovar"
    before = snapshot(db, *TABLES)

    with pytest.raises(ServiceError) as caught:
        admin_reviews.decide(db, world.staff.id, request.id, {"decision": decision, "reason": reason}, utcnow())
    db.rollback()

    assert caught.value.message == "Explique o motivo com pelo menos 10 caracteres."
    assert snapshot(db, *TABLES) == before


@pytest.mark.parametrize("decision", ["", "aprovar_tudo", None, "remover"])
def test_a_decision_the_kind_does_not_offer_is_refused(db, world, decision):
    before = snapshot(db, *TABLES)

    with pytest.raises(ServiceError, match="Escolha a decisão"):
        admin_reviews.decide(db, world.staff.id, world.absence.id, {"decision": decision, "reason": DECISION}, utcnow())
    db.rollback()

    assert snapshot(db, *TABLES) == before


@pytest.mark.parametrize("request_name", ["hours", "review"])
def test_a_request_is_decided_once(db, world, request_name):
    request = getattr(world, request_name)
    decision = "remover" if request_name == "review" else "aprovar"
    form = {"decision": decision, "reason": DECISION}
    admin_reviews.decide(db, world.staff.id, request.id, form, utcnow())
    db.commit()
    before = snapshot(db, *TABLES)

    with pytest.raises(ServiceError, match="Este pedido já foi decidido"):
        admin_reviews.decide(db, world.staff.id, request.id, form, utcnow())
    db.rollback()

    assert snapshot(db, *TABLES) == before


@pytest.mark.parametrize("bad_id", unusable_ids(1))
def test_a_missing_or_malformed_request_id_is_not_found(db, world, bad_id):
    with pytest.raises(NotAllowed, match="Pedido não encontrado"):
        admin_reviews.decide(db, world.staff.id, bad_id, {"decision": "aprovar", "reason": DECISION}, utcnow())


@pytest.mark.parametrize("who", ["company", "freelancer", "other"])
def test_the_services_refuse_anyone_but_staff(db, world, who):
    caller = getattr(world.cast, who)
    before = snapshot(db, *TABLES)

    for call in (
        lambda: admin_reviews.open_reviews(db, caller.id),
        lambda: admin_reviews.recent_decisions(db, caller.id),
        lambda: admin_reviews.decide(
            db, caller.id, world.absence.id, {"decision": "aprovar", "reason": DECISION}, utcnow()
        ),
    ):
        with pytest.raises(NotAllowed):
            call()
    db.rollback()

    assert snapshot(db, *TABLES) == before


def test_a_deactivated_staff_account_is_refused(db, world):
    world.staff.is_active = False
    db.add(world.staff)
    db.commit()

    with pytest.raises(NotAllowed):
        admin_reviews.open_reviews(db, world.staff.id)


# --- the page's state --------------------------------------------------------------------------------


def _admin_state(db, user: User | None, page: int | None = None) -> AdminState:
    return state_for(AdminState, cookie_for(db, user), "/admin", {"page": str(page)} if page else None)


def test_staff_loads_the_open_requests_and_the_recent_decisions(db, world):
    state = _admin_state(db, world.staff)

    run(state, AdminState.load)

    assert state.loaded and state.total == 3
    assert [i["id"] for i in state.reviews] == [world.absence.id, world.hours.id, world.review.id]
    assert state.decided == [] and state.pager_items == []


def test_deciding_from_the_page_removes_the_item_and_shows_the_toast(db, world):
    state = _admin_state(db, world.staff)
    run(state, AdminState.load)

    events = run(
        state,
        AdminState.decide,
        {"request_id": str(world.hours.id), "decision": "aprovar", "hours": "6:00", "reason": DECISION},
    )

    assert toasts(events) == ["success: Decisão registrada"]
    assert [i["id"] for i in state.reviews] == [world.absence.id, world.review.id] and state.total == 2
    assert [(d["id"], d["reason"]) for d in state.decided] == [(world.hours.id, DECISION)]
    assert (state.error_id, state.error_text) == (0, "")
    assert _hiring(db, world.hours).state == HiringState.APPROVED


def test_a_short_reason_shows_under_its_form_and_changes_nothing(db, world):
    state = _admin_state(db, world.staff)
    run(state, AdminState.load)
    before = snapshot(db, *TABLES)

    events = run(state, AdminState.decide, {"request_id": str(world.review.id), "decision": "manter", "reason": "não"})

    assert toasts(events) == []
    assert (state.error_id, state.error_text) == (world.review.id, "Explique o motivo com pelo menos 10 caracteres.")
    assert state.total == 3
    assert snapshot(db, *TABLES) == before


@pytest.mark.parametrize("who", ["company", "freelancer", "visitor"])
def test_a_company_a_freelancer_and_a_visitor_are_refused_by_the_handlers(db, world, who):
    caller = None if who == "visitor" else getattr(world.cast, who)
    state = _admin_state(db, caller)
    before = snapshot(db, *TABLES)

    load_events = run(state, AdminState.load)
    decide_events = run(
        state,
        AdminState.decide,
        {"request_id": str(world.absence.id), "decision": "aprovar", "hours": "8:00", "reason": DECISION},
    )

    assert (load_events, decide_events) == ([], [])
    assert (state.loaded, state.reviews, state.decided, state.total) == (False, [], [], 0)
    assert snapshot(db, *TABLES) == before


@pytest.mark.parametrize(("who", "home"), [("company", "/client-dashboard"), ("freelancer", "/freelancer-dashboard")])
def test_the_back_office_guard_sends_the_other_roles_home(db, world, who, home):
    events = run(state_for(AuthState, cookie_for(db, getattr(world.cast, who)), "/admin"), AuthState.guard_admin)

    assert toasts(events) == ["error: Acesso Restrito | Esta área é exclusiva para a equipe Turno."]
    assert any(home in str(event) for event in events)


def test_the_back_office_guard_sends_visitors_to_login_and_lets_staff_in(db, world):
    visitor = run(state_for(AuthState, "", "/admin"), AuthState.guard_admin)
    staff = run(state_for(AuthState, cookie_for(db, world.staff), "/admin"), AuthState.guard_admin)

    assert any("/login" in str(event) for event in visitor)
    assert world.staff.role == Role.ADMIN
    assert not any("/login" in str(event) or "dashboard" in str(event) for event in staff)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, "Escolha a decisão. Explique o motivo com pelo menos 10 caracteres."),
        ({"reason": DECISION}, "Escolha a decisão."),
        ({"decision": "aprovar"}, "Explique o motivo com pelo menos 10 caracteres."),
    ],
)
def test_registrar_decisao_with_blanks_says_what_is_missing_under_its_form(db, world, form, message):
    """Issue 42: 'Registrar decisão' with nothing chosen said nothing; every blank is named at once."""
    state = _admin_state(db, world.staff)
    run(state, AdminState.load)
    before = snapshot(db, *TABLES)

    events = run(state, AdminState.decide, {"request_id": str(world.hours.id), **form})

    assert toasts(events) == []
    assert (state.error_id, state.error_text) == (world.hours.id, message)
    assert snapshot(db, *TABLES) == before
