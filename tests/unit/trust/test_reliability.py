"""Comparecimento and pontualidade over the last 20 shifts, and the freelancer's own faltas and reviews."""

from datetime import timedelta

from sqlmodel import select

from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.types import utcnow
from models import Falta, Hiring, ReviewRequest
from services.shifts import faltas
from services.trust import reliability
from tests.support.factories import make_application, make_cast, make_job, snapshot
from tests.support.state_harness import cookie_for, run, state_for, toasts


def _shift(db, cast, n: int, arrived_after: timedelta | None, state: str = "paga") -> Hiring:
    job = make_job(db, cast.company, f"Turno {n}")
    application = make_application(db, job, cast.freelancer, status="accepted")
    start = utcnow() - timedelta(days=30 - n)
    hiring = Hiring(
        application_id=application.id,
        job_id=job.id,
        company_id=cast.company.id,
        freelancer_id=cast.freelancer.id,
        state=state,
        inicio_em=start,
        fim_em=start + timedelta(hours=6),
        chegada_em=start + arrived_after if arrived_after is not None else None,
    )
    db.add(hiring)
    db.flush()
    return hiring


def test_nothing_is_shown_below_three_shifts(db):
    cast = make_cast(db)
    _shift(db, cast, 1, timedelta(0))
    _shift(db, cast, 2, None, "nao_compareceu")

    assert reliability.summary(db, cast.freelancer.id) == ""


def test_attendance_and_punctuality_with_the_five_minute_grace(db):
    cast = make_cast(db)
    _shift(db, cast, 1, timedelta(minutes=-10))  # early
    _shift(db, cast, 2, timedelta(minutes=5))  # on the grace's edge: punctual
    _shift(db, cast, 3, timedelta(minutes=5, seconds=1))  # late
    _shift(db, cast, 4, None, "nao_compareceu")
    _shift(db, cast, 5, None, "cancelada_freelancer")  # not counted: it never should have happened

    assert reliability.summary(db, cast.freelancer.id) == "Comparecimento 75% · Pontualidade 67% · 4 turnos"


def test_only_the_last_twenty_shifts_count(db):
    cast = make_cast(db)
    for n in range(5):
        _shift(db, cast, n, None, "nao_compareceu")  # the oldest five: no-shows
    for n in range(5, 25):
        _shift(db, cast, n, timedelta(0))

    assert reliability.summary(db, cast.freelancer.id) == "Comparecimento 100% · Pontualidade 100% · 20 turnos"


def test_the_freelancer_asks_a_human_review_of_a_falta_once(db):
    cast = make_cast(db)
    hiring = _shift(db, cast, 1, None, "nao_compareceu")
    falta = faltas.add(db, cast.freelancer.id, hiring.id, 3, "nao_compareceu", utcnow())
    db.commit()
    state = state_for(
        FreelancerDashboardState, cookie_for(db, cast.freelancer), "/freelancer-dashboard", {"tab": "shifts"}
    )
    run(state, FreelancerDashboardState.load)
    assert [row["can_review"] for row in state.my_faltas] == [True]
    assert state.suspended_until != ""

    run(state, FreelancerDashboardState.open_review, falta.id)
    run(state, FreelancerDashboardState.submit_shift_action, {"reason": "curto"})
    assert state.shift_error == "Explique o motivo com pelo menos 10 caracteres."
    events = run(
        state, FreelancerDashboardState.submit_shift_action, {"reason": "Avisei no chat que o ônibus quebrou."}
    )

    assert toasts(events) == ["success: Pedido de revisão enviado"]
    [request] = db.exec(select(ReviewRequest)).all()
    assert (request.kind, request.falta_id, request.requested_by) == ("revisao", falta.id, cast.freelancer.id)
    assert [row["reviewed"] for row in state.my_faltas] == [True]


def test_another_freelancer_cannot_ask_a_review_of_someone_elses_falta(db):
    cast = make_cast(db)
    hiring = _shift(db, cast, 1, None, "nao_compareceu")
    falta = faltas.add(db, cast.freelancer.id, hiring.id, 3, "nao_compareceu", utcnow())
    db.commit()
    before = snapshot(db, Falta, ReviewRequest)
    state = state_for(FreelancerDashboardState, cookie_for(db, cast.other), "/freelancer-dashboard", {"tab": "shifts"})

    run(state, FreelancerDashboardState.open_review, falta.id)
    run(state, FreelancerDashboardState.submit_shift_action, {"reason": "Não fui eu, foi outra pessoa."})

    assert state.shift_error == "Falta não encontrada."
    assert snapshot(db, Falta, ReviewRequest) == before


def test_a_falta_is_counted_in_faltas_not_points(db):
    cast = make_cast(db)
    faltas.add(db, cast.freelancer.id, _shift(db, cast, 1, None, "nao_compareceu").id, 3, "nao_compareceu", utcnow())
    faltas.add(
        db, cast.freelancer.id, _shift(db, cast, 2, None, "cancelada_freelancer").id, 1, "cancelamento", utcnow()
    )

    rows = faltas.for_freelancer(db, cast.freelancer.id, utcnow())

    assert sorted(row["counted"] for row in rows) == ["1 falta", "3 faltas"]
