"""FreelancerProfileState (/freelancers/[id]): its load handler, called as a browser would with a session cookie.

A stranger gets 'Perfil não encontrado' and nothing of the profile stays in the state that is
sent to the browser, also when the same tab showed a permitted profile before.
"""

import asyncio

import pytest
from reflex.istate.data import RouterData

from app.pages.chats.state import ChatRoomState
from app.pages.freelancer_profile.state import EMPTY_PROFILE, FreelancerProfileState, star_kinds
from core import routes
from core.presence import SITE, chat_place, get_presence
from tests.support.factories import make_application, make_cast, make_chat, make_job, make_rating
from tests.support.state_harness import cookie_for, run, state_for, toasts


@pytest.fixture
def cast(db):
    cast = make_cast(db)
    job = make_job(db, cast.company, "Garçom")
    make_application(db, job, cast.freelancer)
    for n in range(11):
        closed = make_job(db, cast.company, f"Evento {n}", status="closed", vaga_status="closed")
        make_rating(
            db, make_application(db, closed, cast.freelancer, status="accepted"), cast.company, cast.freelancer, 4
        )
    db.commit()
    return cast


def _open(db, viewer, freelancer_id, query=None, token=""):
    state = state_for(
        FreelancerProfileState, cookie_for(db, viewer), f"/freelancers/{freelancer_id}", query=query, token=token
    )
    events = run(state, FreelancerProfileState.load)
    return state, events


def _navigate(state, path: str) -> None:
    """The same tab follows a link to another profile (client-side navigation keeps the state)."""
    root = state._get_root_state()
    data = {**root.router_data, "pathname": path, "asPath": path, "query": {}}
    root.router_data = data
    root.router = RouterData.from_router_data(data)


def _sent(state) -> str:
    """Everything of the page's state that would reach the browser."""
    return repr(state.dict())


def test_the_company_that_received_the_application_sees_the_profile(db, cast):
    state, events = _open(db, cast.company, cast.freelancer.id)

    assert toasts(events) == []
    assert state.status == "found"
    assert state.profile["name"] == "João Silva"
    assert "João Silva" in _sent(state)
    assert state.profile["rating"] == "4,0 (11 avaliações)"
    assert state.stars == ["full", "full", "full", "full", "empty"]
    assert len(state.profile["reviews"]) == 10
    assert [item["label"] for item in state.pager_items] == ["1", "2"]
    assert state.pager_items[1]["href"] == f"/freelancers/{cast.freelancer.id}?page=2"
    assert state.prev_href == ""
    assert state.next_href == f"/freelancers/{cast.freelancer.id}?page=2"
    assert len(state.profile["applications"]) == 10
    assert state.profile["applications_more"] is True


def test_carregar_mais_appends_the_rest_of_the_applications(db, cast):
    state, _ = _open(db, cast.company, cast.freelancer.id)

    assert toasts(run(state, FreelancerProfileState.more_applications)) == []

    rows = state.profile["applications"]
    assert len({row["application_id"] for row in rows}) == len(rows) == 12
    assert rows[-1]["job_title"] == "Garçom"
    assert state.profile["applications_more"] is False
    assert state.loading_more_applications is False


def test_carregar_mais_refuses_a_viewer_who_may_not_see_the_profile(db, cast):
    state, _ = _open(db, cast.company, cast.freelancer.id)
    intruder = state_for(FreelancerProfileState, cookie_for(db, cast.rival), f"/freelancers/{cast.freelancer.id}")
    intruder.status, intruder.profile = "found", state.profile  # what no browser can set

    run(intruder, FreelancerProfileState.more_applications)

    assert intruder.status == "missing"
    assert intruder.profile == EMPTY_PROFILE


def test_the_page_of_reviews_comes_from_the_url(db, cast):
    state, _ = _open(db, cast.company, cast.freelancer.id, query={"page": "2"})

    assert state.profile["page"] == 2
    assert len(state.profile["reviews"]) == 1
    assert state.prev_href == f"/freelancers/{cast.freelancer.id}"
    assert state.next_href == ""


def test_the_freelancer_previews_their_own_page(db, cast):
    state, _ = _open(db, cast.freelancer, cast.freelancer.id)

    assert state.status == "found"
    assert state.profile["is_self"] is True
    assert state.profile["applications"] == []


@pytest.mark.parametrize("who", ["rival", "other", "visitor"])
def test_a_stranger_is_refused_and_the_state_holds_nothing_of_the_profile(db, cast, who):
    viewer = {"rival": cast.rival, "other": cast.other, "visitor": None}[who]

    state, events = _open(db, viewer, cast.freelancer.id)

    assert toasts(events) == []
    assert state.status == "missing"
    assert state.profile == EMPTY_PROFILE
    assert (state.stars, state.pager_items, state.prev_href, state.next_href) == ([], [], "", "")
    assert "João" not in _sent(state)
    assert "Garçom" not in _sent(state)


@pytest.mark.parametrize("segment", ["abc", "0", "-1", "1.0", "99999999999", "987654"])
def test_a_bad_or_missing_id_reads_like_a_refusal(db, cast, segment):
    state, _ = _open(db, cast.company, segment)

    assert state.status == "missing"
    assert state.profile == EMPTY_PROFILE


def test_a_client_id_is_not_a_freelancer_profile(db, cast):
    state, _ = _open(db, cast.company, cast.company.id)

    assert state.status == "missing"
    assert state.profile == EMPTY_PROFILE


def test_following_a_link_to_a_refused_profile_drops_the_one_shown_before(db, cast):
    state, _ = _open(db, cast.company, cast.freelancer.id)
    assert state.status == "found"

    _navigate(state, f"/freelancers/{cast.other.id}")
    run(state, FreelancerProfileState.load)

    assert state.status == "missing"
    assert state.profile == EMPTY_PROFILE
    assert "João" not in _sent(state)


@pytest.mark.parametrize(
    ("average", "kinds"),
    [
        (0.0, ["empty"] * 5),
        (4.5, ["full"] * 4 + ["half"]),
        (4.2, ["full"] * 4 + ["empty"]),
        (4.8, ["full"] * 5),
        (1.3, ["full", "half", "empty", "empty", "empty"]),
        (5.0, ["full"] * 5),
    ],
)
def test_stars_of_an_average_to_the_nearest_half(average, kinds):
    assert star_kinds(average) == kinds


def test_a_tab_coming_from_a_conversation_no_longer_counts_as_reading_it(db, cast):
    get_presence.cache_clear()
    presence = get_presence()
    asyncio.run(presence.enter(cast.company.id, "tab-1", chat_place(7)))
    try:
        _open(db, cast.company, cast.freelancer.id, token="tab-1")
        assert asyncio.run(presence.tabs(cast.company.id)) == {"tab-1": SITE}
    finally:
        get_presence.cache_clear()


def test_route_and_builder():
    assert routes.FREELANCER_PROFILE == "/freelancers/[id]"
    assert routes.freelancer_profile(12) == "/freelancers/12"
    assert routes.freelancer_profile(12, 1) == "/freelancers/12"
    assert routes.freelancer_profile(12, 3) == "/freelancers/12?page=3"


def test_the_company_side_of_a_conversation_links_to_the_freelancer_profile(db, cast):
    job = make_job(db, cast.company, "Bartender")
    chat = make_chat(db, make_application(db, job, cast.freelancer, status="accepted"), cast.company, cast.freelancer)
    db.commit()
    get_presence.cache_clear()
    try:
        company = state_for(ChatRoomState, cookie_for(db, cast.company), f"/client-dashboard/chats/{chat.id}")
        run(company, ChatRoomState.load_client)
        freelancer = state_for(ChatRoomState, cookie_for(db, cast.freelancer), f"/freelancer-dashboard/chats/{chat.id}")
        run(freelancer, ChatRoomState.load_freelancer)
        stranger = state_for(ChatRoomState, cookie_for(db, cast.rival), f"/client-dashboard/chats/{chat.id}")
        run(stranger, ChatRoomState.load_client)
    finally:
        get_presence.cache_clear()

    assert company.profile_href == f"/freelancers/{cast.freelancer.id}"
    assert freelancer.status == "found"
    assert freelancer.profile_href == ""
    assert (stranger.status, stranger.profile_href) == ("missing", "")
