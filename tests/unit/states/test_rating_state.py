"""Ratings through the dashboards: the service helpers behind the rows and the RatingMixin handlers."""

import pytest
from sqlmodel import select

from app.pages.client_dashboard import ClientDashboardState
from models import JobStatus, Notification, Rating
from services.common.errors import NotAllowed, ServiceError
from services.screens import company_dashboard, freelancer_dashboard
from services.shifts import ratings
from tests.support.factories import make_application, make_cast, make_job, snapshot, unusable_ids
from tests.support.state_harness import cookie_for, run, state_for, toasts

NOT_CLOSED = "A avaliação fica disponível quando as horas forem aprovadas ou a vaga for encerrada."


@pytest.fixture
def cast(db):
    return make_cast(db)


@pytest.fixture
def hired(db, cast):
    """João's accepted application on a closed job of the company."""
    job = make_job(db, cast.company, "Garçom para casamento", status=JobStatus.CLOSED, vaga_status=JobStatus.CLOSED)
    application = make_application(db, job, cast.freelancer, status="accepted")
    db.commit()
    return application


def _hirings_state(db, user):
    state = state_for(ClientDashboardState, cookie_for(db, user), "/client-dashboard", {"tab": "hirings"})
    state.tab = "hirings"
    return state


# --- service helpers -----------------------------------------------------------------------


def test_target_names_the_other_side_and_the_job(db, cast, hired):
    assert ratings.target(db, cast.company.id, hired.id) == {
        "application_id": hired.id,
        "name": "João Silva",
        "job_title": "Garçom para casamento",
    }
    assert ratings.target(db, cast.freelancer.id, hired.id)["name"] == "Hotel Atlântico"


@pytest.mark.parametrize("who", ["rival", "other"])
def test_target_refuses_strangers_like_a_missing_application(db, cast, hired, who):
    with pytest.raises(NotAllowed) as stranger:
        ratings.target(db, getattr(cast, who).id, hired.id)
    for bad in unusable_ids(hired.id):
        with pytest.raises(NotAllowed) as missing:
            ratings.target(db, cast.company.id, bad)
        assert missing.value.message == stranger.value.message == ratings.CANNOT_RATE


def test_target_waits_for_the_job_to_close(db, cast):
    job = make_job(db, cast.company, status=JobStatus.IN_PROGRESS, vaga_status=JobStatus.IN_PROGRESS)
    application = make_application(db, job, cast.freelancer, status="accepted")
    with pytest.raises(ServiceError) as caught:
        ratings.target(db, cast.company.id, application.id)
    assert caught.value.message == NOT_CLOSED


def test_rows_offer_rating_until_it_is_given(db, cast, hired):
    [hiring] = company_dashboard.company_hirings(db, cast.company.id).items
    assert (hiring["can_rate"], hiring["my_stars"]) == (True, 0)
    [mine] = freelancer_dashboard.freelancer_applications(db, cast.freelancer.id).items
    assert (mine["can_rate"], mine["my_stars"]) == (True, 0)

    ratings.rate(db, cast.company.id, hired.id, {"stars": 4})

    [hiring] = company_dashboard.company_hirings(db, cast.company.id).items
    assert (hiring["can_rate"], hiring["my_stars"]) == (False, 4)
    [mine] = freelancer_dashboard.freelancer_applications(db, cast.freelancer.id).items
    assert (mine["can_rate"], mine["my_stars"]) == (True, 0)
    assert ratings.given(db, cast.company.id, [hired.id]) == {hired.id: 4}
    assert ratings.given(db, cast.rival.id, [hired.id]) == {}


def test_rows_of_open_jobs_do_not_offer_rating(db, cast):
    job = make_job(db, cast.company, status=JobStatus.IN_PROGRESS, vaga_status=JobStatus.IN_PROGRESS)
    make_application(db, job, cast.freelancer, status="accepted")
    [hiring] = company_dashboard.company_hirings(db, cast.company.id).items
    assert hiring["can_rate"] is False


def test_rating_notifies_the_rated_side(db, cast, hired):
    ratings.rate(db, cast.freelancer.id, hired.id, {"stars": 1})
    notice = db.exec(select(Notification).where(Notification.user_id == cast.company.id)).one()
    assert notice.message == "Você recebeu uma avaliação de 1 estrela."
    assert notice.link == "/client-dashboard?tab=hirings"


# --- RatingMixin handlers (company dashboard) ------------------------------------------------


def test_company_rates_through_the_dialog_and_the_row_updates(db, cast, hired):
    state = _hirings_state(db, cast.company)
    assert run(state, ClientDashboardState.open_rating, hired.id) == []
    assert (state.rating_open, state.rating_name, state.rating_job) == (True, "João Silva", "Garçom para casamento")

    run(state, ClientDashboardState.pick_stars, 5)
    events = run(state, ClientDashboardState.submit_rating, {"comment": "  Pontual e atencioso.  "})

    assert toasts(events) == [
        "success: Avaliação enviada! | Obrigado por avaliar João Silva. Gostou do trabalho? Depois do pagamento, "
        "adicione à sua equipe pelo card do turno em 'Turnos'."
    ]
    assert state.rating_open is False
    assert [(h["can_rate"], h["my_stars"]) for h in state.hirings] == [(False, 5)]
    rating = db.exec(select(Rating)).one()
    assert (rating.rater_id, rating.ratee_id, rating.stars, rating.comment) == (
        cast.company.id,
        cast.freelancer.id,
        5,
        "Pontual e atencioso.",
    )
    assert ratings.summary(db, cast.freelancer.id).text == "5,0 (1 avaliação)"


def test_submitting_without_stars_shows_the_message_and_stores_nothing(db, cast, hired):
    state = _hirings_state(db, cast.company)
    run(state, ClientDashboardState.open_rating, hired.id)
    before = snapshot(db)
    assert run(state, ClientDashboardState.submit_rating, {"comment": "sem nota"}) == []
    assert state.rating_error == "Escolha de 1 a 5 estrelas."
    assert state.rating_open is True
    assert snapshot(db) == before


@pytest.mark.parametrize("stars", [0, 6, -1, "5", True, None, 2.5])
def test_pick_stars_ignores_anything_but_one_to_five(db, cast, hired, stars):
    state = _hirings_state(db, cast.company)
    run(state, ClientDashboardState.pick_stars, stars)
    assert state.rating_stars == 0


def test_a_stranger_company_cannot_open_or_submit_a_rating(db, cast, hired):
    state = _hirings_state(db, cast.rival)
    before = snapshot(db)
    events = run(state, ClientDashboardState.open_rating, hired.id)
    assert toasts(events) == [f"error: Erro | {ratings.CANNOT_RATE}"]
    assert state.rating_open is False

    # A forged submit with the id planted in state still goes through the service's check.
    state.rating_open, state.rating_application_id, state.rating_stars = True, hired.id, 5
    events = run(state, ClientDashboardState.submit_rating, {"comment": "forjada"})
    assert state.rating_error == ratings.CANNOT_RATE
    assert snapshot(db) == before


def test_a_visitor_cannot_rate(db, cast, hired):
    state = state_for(ClientDashboardState, "", "/client-dashboard")
    before = snapshot(db)
    assert toasts(run(state, ClientDashboardState.open_rating, hired.id)) == [f"error: Erro | {ratings.CANNOT_RATE}"]
    state.rating_open, state.rating_application_id, state.rating_stars = True, hired.id, 5
    assert toasts(run(state, ClientDashboardState.submit_rating, {})) == [f"error: Erro | {ratings.CANNOT_RATE}"]
    assert snapshot(db) == before


def test_rating_twice_is_refused_with_a_message(db, cast, hired):
    state = _hirings_state(db, cast.company)
    run(state, ClientDashboardState.open_rating, hired.id)
    run(state, ClientDashboardState.pick_stars, 3)
    run(state, ClientDashboardState.submit_rating, {})
    events = run(state, ClientDashboardState.open_rating, hired.id)
    assert toasts(events) == [f"error: Erro | {ratings.ALREADY_RATED}"]
    assert len(db.exec(select(Rating)).all()) == 1


# --- RatingMixin handlers (freelancer dashboard) ---------------------------------------------


def test_freelancer_rates_the_company_from_minhas_candidaturas(db, cast, hired):
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState

    cookie = cookie_for(db, cast.freelancer)
    state = state_for(FreelancerDashboardState, cookie, "/freelancer-dashboard", {"tab": "applications"})
    run(state, FreelancerDashboardState.load)
    assert [(row["can_rate"], row["my_stars"]) for row in state.applications] == [(True, 0)]

    run(state, FreelancerDashboardState.open_rating, hired.id)
    assert state.rating_name == "Hotel Atlântico"
    run(state, FreelancerDashboardState.pick_stars, 4)
    events = run(state, FreelancerDashboardState.submit_rating, {"comment": "Equipe organizada."})

    assert toasts(events) == ["success: Avaliação enviada! | Obrigado por avaliar Hotel Atlântico."]
    assert [(row["can_rate"], row["my_stars"]) for row in state.applications] == [(False, 4)]
    assert ratings.summary(db, cast.company.id).text == "4,0 (1 avaliação)"


def test_another_freelancer_cannot_rate_an_application_that_is_not_theirs(db, cast, hired):
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState

    state = state_for(FreelancerDashboardState, cookie_for(db, cast.other), "/freelancer-dashboard")
    before = snapshot(db)
    assert toasts(run(state, FreelancerDashboardState.open_rating, hired.id)) == [
        f"error: Erro | {ratings.CANNOT_RATE}"
    ]
    assert snapshot(db) == before
