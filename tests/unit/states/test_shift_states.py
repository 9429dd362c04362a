"""The shift handlers of both dashboards and the code screen, called as a browser would with a session cookie.

Each handler resolves the caller from the cookie; a stranger (another company or freelancer), the
other side for the other side's action, a visitor and a bad id change nothing.
"""

from datetime import timedelta

import pytest
from sqlmodel import delete

from app.pages.attendance_code import AttendanceCodeState
from app.pages.client_dashboard import ClientDashboardState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.types import utcnow
from models import Hiring, HiringEvent, Notification
from services.jobs import attendance_code
from services.shifts import application_answers
from tests.support.factories import make_application, make_cast, make_job, snapshot, unusable_ids
from tests.support.state_harness import cookie_for, run, state_for, toasts


@pytest.fixture
def hired(db):
    """A company, a rival, the freelancer hired for a shift starting in 30 hours, and another freelancer."""
    cast = make_cast(db)
    job = make_job(db, cast.company, "Garçom de casamento", inicio_em=utcnow() + timedelta(hours=30))
    job.codigo_segredo = attendance_code.new_secret()
    db.add(job)
    application = make_application(db, job, cast.freelancer)
    application_answers.accept(db, cast.company.id, application.id)
    db.commit()
    hiring = db.exec(Hiring.__table__.select()).first()
    return cast, job, hiring.id


def _freelancer(db, user, query=None):
    return state_for(
        FreelancerDashboardState, cookie_for(db, user), "/freelancer-dashboard", query or {"tab": "shifts"}
    )


def _company(db, user):
    return state_for(ClientDashboardState, cookie_for(db, user), "/client-dashboard", {"tab": "shifts"})


def _tables(db):
    return snapshot(db, Hiring, HiringEvent, Notification)


def test_the_freelancer_confirms_from_the_card_and_the_company_is_told(db, hired):
    cast, _job, hiring_id = hired
    state = _freelancer(db, cast.freelancer)
    run(state, FreelancerDashboardState.load)
    [card] = state.shifts_upcoming
    assert card["title"] == "Garçom de casamento"
    assert [a["action"] for a in card["actions"]] == ["confirmar", "cancelar"]

    events = run(state, FreelancerDashboardState.open_shift_action, hiring_id, "confirmar")

    assert toasts(events) == ["success: Presença confirmada"]
    db.expire_all()
    assert db.get(Hiring, hiring_id).state == "confirmada"
    assert state.shifts_upcoming[0]["state_label"] == "Presença confirmada"
    notice = db.exec(Notification.__table__.select().where(Notification.user_id == cast.company.id)).all()
    assert any("confirmou presença" in row.message for row in notice)


@pytest.mark.parametrize("caller", ["rival", "other", "visitor"])
def test_strangers_cannot_act_on_a_shift(db, hired, caller):
    cast, _job, hiring_id = hired
    before = _tables(db)
    if caller == "rival":
        state = _company(db, cast.rival)
        handler = ClientDashboardState.open_shift_action
        action = "cancelar"
    else:
        state = _freelancer(db, cast.other if caller == "other" else None)
        handler = FreelancerDashboardState.open_shift_action
        action = "confirmar"

    events = run(state, handler, hiring_id, action)
    if caller == "rival":  # 'Cancelar turno' opens its dialog first; confirming it reaches the server
        assert state.shift_dialog_open
        run(state, ClientDashboardState.submit_shift_action, {})

    assert _tables(db) == before
    if caller == "rival":
        assert state.shift_error == "Turno não encontrado."
    elif caller == "other":
        assert toasts(events) == ["error: Não foi possível concluir | Turno não encontrado."]


def test_the_company_cannot_run_the_freelancers_action(db, hired):
    cast, _job, hiring_id = hired
    before = _tables(db)
    state = _company(db, cast.company)

    events = run(state, ClientDashboardState.open_shift_action, hiring_id, "confirmar")

    assert _tables(db) == before
    assert toasts(events) == ["error: Não foi possível concluir | Esta ação não está disponível para este turno agora."]


@pytest.mark.parametrize("bad", unusable_ids(1))
def test_bad_ids_change_nothing(db, hired, bad):
    cast, _job, _hiring_id = hired
    before = _tables(db)
    state = _freelancer(db, cast.freelancer)

    run(state, FreelancerDashboardState.open_shift_action, bad, "confirmar")
    state.shift_hiring = bad if isinstance(bad, int) else 0
    state.shift_action = "cancelar"
    run(state, FreelancerDashboardState.submit_shift_action, {})

    assert _tables(db) == before


def test_a_company_cancel_states_the_consequence_before_confirming(db, hired):
    cast, _job, hiring_id = hired
    state = _company(db, cast.company)
    run(state, ClientDashboardState.load)

    run(state, ClientDashboardState.open_shift_action, hiring_id, "cancelar")

    assert state.shift_dialog_open
    assert state.shift_text.startswith("Cancelamento sem custo")
    events = run(state, ClientDashboardState.submit_shift_action, {})
    assert toasts(events) == ["success: Turno cancelado"]
    db.expire_all()
    assert db.get(Hiring, hiring_id).state == "cancelada_empresa"


def test_a_wrong_code_stays_in_the_dialog_and_is_recorded(db, hired):
    cast, job, hiring_id = hired
    hiring = db.get(Hiring, hiring_id)
    hiring.inicio_em = utcnow() + timedelta(minutes=30)
    hiring.fim_em = hiring.inicio_em + timedelta(hours=6)
    db.add(hiring)
    db.commit()
    state = _freelancer(db, cast.freelancer)
    run(state, FreelancerDashboardState.load)
    run(state, FreelancerDashboardState.open_shift_action, hiring_id, "chegada")

    run(state, FreelancerDashboardState.submit_shift_action, {"method": "codigo", "code": "000000"})

    assert state.shift_dialog_open
    assert state.shift_error == "Código incorreto. Confira o código na tela da empresa."
    db.expire_all()
    assert db.get(Hiring, hiring_id).state == "agendada"
    right = attendance_code.code_at(job.codigo_segredo, utcnow())
    events = run(state, FreelancerDashboardState.submit_shift_action, {"method": "codigo", "code": right})
    assert toasts(events) == ["success: Chegada registrada"]
    assert not state.shift_dialog_open


def test_a_scanned_qr_opens_the_check_in_with_the_code(db, hired):
    cast, job, hiring_id = hired
    hiring = db.get(Hiring, hiring_id)
    hiring.inicio_em = utcnow() + timedelta(minutes=30)
    db.add(hiring)
    db.commit()
    state = _freelancer(db, cast.freelancer, {"tab": "shifts", "vaga": str(job.id), "codigo": "123456"})

    run(state, FreelancerDashboardState.load)

    assert state.shift_dialog_open and state.shift_action == "chegada"
    assert state.shift_code == "123456"


def test_the_code_screen_is_the_owners_only(db, hired):
    cast, job, _hiring_id = hired
    path = f"/client-dashboard/presenca/{job.id}"
    mine = state_for(AttendanceCodeState, cookie_for(db, cast.company), path)
    run(mine, AttendanceCodeState.load)
    assert mine.error == "" and len(mine.code) == 6 and mine.qr.startswith("data:image/svg+xml;base64,")
    assert len(mine.shifts_upcoming) == 1

    for user in (cast.rival, cast.freelancer, None):
        other = state_for(AttendanceCodeState, cookie_for(db, user), path)
        run(other, AttendanceCodeState.load)
        assert other.code == "" and other.shifts_upcoming == []


@pytest.mark.parametrize("action", [["confirmar"], {"a": 1}, None, 7, "apagar"])
def test_a_hostile_action_name_is_refused_in_portuguese(db, hired, action):
    cast, _job, hiring_id = hired
    before = _tables(db)
    state = _freelancer(db, cast.freelancer)

    events = run(state, FreelancerDashboardState.open_shift_action, hiring_id, action)

    assert toasts(events) == ["error: Não foi possível concluir | Turno não encontrado."]
    assert _tables(db) == before


def test_the_code_screen_keeps_nothing_once_the_session_ends(db, hired):
    from models import AuthSession

    cast, job, _hiring_id = hired
    state = state_for(AttendanceCodeState, cookie_for(db, cast.company), f"/client-dashboard/presenca/{job.id}")
    run(state, AttendanceCodeState.load)
    assert len(state.code) == 6 and len(state.shifts_upcoming) == 1

    db.exec(delete(AuthSession).where(AuthSession.user_id == cast.company.id))  # signed out elsewhere
    db.commit()
    run(state, AttendanceCodeState.refresh, 1)

    assert (state.code, state.qr, state.title, state.shifts_upcoming) == ("", "", "", [])
    assert state.error == "Turno não encontrado."
