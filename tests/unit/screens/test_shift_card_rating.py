"""Issue 42 point 14: the shift card asks each side to rate once the shift reads 'Concluída', once.

The card carries the hiring's application (the rating is tied to it, as the 'Avaliar' of
'Contratações' and 'Minhas Candidaturas' is), whether its viewer may rate now (services/shifts/ratings.py
decides, with services/jobs/application_status.py's `rating_open`) and the stars they gave.
"""

import pytest
from sqlmodel import Session

from app.pages.client_dashboard import ClientDashboardState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.types import utcnow
from models import User
from services.screens import shift_views
from services.shifts import ratings
from tests.support.factories import make_cast
from tests.support.shift_helpers import H, Shift, by_company, by_freelancer, hire
from tests.support.state_harness import cookie_for, run, state_for, toasts


@pytest.fixture
def cast(db):
    return make_cast(db)


def _worked(db: Session, s: Shift) -> None:
    """Arrival, exit and 7 hours sent: the hours wait for the company."""
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")


def _paid(db: Session, s: Shift) -> None:
    """Worked, approved, marked paid by the company and confirmed by the freelancer (a direct payment)."""
    _worked(db, s)
    by_company(db, s, "aprovar", s.end + 2 * H)
    by_company(db, s, "marcar_pago", s.end + 3 * H)
    by_freelancer(db, s, "confirmar_recebimento", s.end + 4 * H)


def _cards(db: Session, s: Shift) -> tuple[dict, dict]:
    """The hiring's card as the company and as the freelancer see it."""
    now = utcnow()
    theirs = [c for lists in shift_views.company_shifts(db, s.company.id, now) for c in lists]
    mine = [c for lists in shift_views.freelancer_shifts(db, s.freelancer.id, now) for c in lists]
    (company_card,) = [c for c in theirs if c["id"] == s.hiring_id]
    (freelancer_card,) = [c for c in mine if c["id"] == s.hiring_id]
    return company_card, freelancer_card


def _rating(card: dict) -> tuple:
    return card["application_id"], card["can_rate"], card["my_stars"]


def test_a_paid_shifts_card_asks_both_sides_to_rate_and_then_shows_the_stars_given(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    _paid(db, s)

    company_card, freelancer_card = _cards(db, s)
    assert company_card["state"] == "paga"  # on a vaga still open: the paid shift opens the rating
    assert _rating(company_card) == _rating(freelancer_card) == (s.application_id, True, 0)

    ratings.rate(db, cast.company.id, company_card["application_id"], {"stars": 4, "comment": ""})
    db.commit()
    company_card, freelancer_card = _cards(db, s)
    assert _rating(company_card) == (s.application_id, False, 4)
    assert _rating(freelancer_card) == (s.application_id, True, 0)  # the other side's rating is its own

    ratings.rate(db, cast.freelancer.id, s.application_id, {"stars": 5, "comment": "Equipe gentil."})
    db.commit()
    assert [_rating(card) for card in _cards(db, s)] == [(s.application_id, False, 4), (s.application_id, False, 5)]


def test_a_shift_still_moving_or_cancelled_offers_no_rating(db, cast):
    moving = hire(db, cast.company, cast.freelancer, title="Copeiro")
    _worked(db, moving)  # hours sent, not approved yet
    cancelled = hire(db, cast.company, cast.other, title="Bartender")
    assert by_freelancer(db, cancelled, "cancelar", utcnow()).ok

    for s in (moving, cancelled):
        assert [_rating(card)[1:] for card in _cards(db, s)] == [(False, 0), (False, 0)]


def test_an_approved_shift_can_be_rated_as_the_rating_rules_say(db, cast):
    """'Concluída' (services/jobs/application_status.py) opens ratings: approved hours already read so."""
    s = hire(db, cast.company, cast.freelancer)
    _worked(db, s)
    by_company(db, s, "aprovar", s.end + 2 * H)
    assert [_rating(card)[1] for card in _cards(db, s)] == [True, True]
    assert ratings.can_rate(db, cast.company.id, s.application_id) is True


@pytest.mark.parametrize("side", ["company", "freelancer"])
def test_rating_from_the_card_reloads_the_tab_with_the_stars_and_refuses_a_second(db, cast, side):
    s = hire(db, cast.company, cast.freelancer)
    _paid(db, s)
    user: User = cast.company if side == "company" else cast.freelancer
    kind, path = (
        (ClientDashboardState, "/client-dashboard")
        if side == "company"
        else (FreelancerDashboardState, "/freelancer-dashboard")
    )
    state = state_for(kind, cookie_for(db, user), path, {"tab": "shifts"})
    run(state, kind.load)
    (card,) = [c for c in state.shifts_upcoming + state.shifts_history if c["id"] == s.hiring_id]

    run(state, kind.open_rating, card["application_id"])
    assert state.rating_open and state.rating_application_id == s.application_id
    run(state, kind.pick_stars, 3)
    events = run(state, kind.submit_rating, {"comment": ""})

    assert toasts(events)[0].startswith("success: Avaliação enviada! | Obrigado por avaliar ")
    (card,) = [c for c in state.shifts_upcoming + state.shifts_history if c["id"] == s.hiring_id]
    assert (card["can_rate"], card["my_stars"]) == (False, 3)
    events = run(state, kind.open_rating, card["application_id"])
    assert toasts(events) == [f"error: Erro | {ratings.ALREADY_RATED}"] and not state.rating_open
