"""What both dashboards share (states/dashboard_tabs.py) and the job search both job lists share (states/job_search.py)."""

import pytest

from app.layout import CLIENT_TABS, FREELANCER_TABS
from app.pages.client_dashboard import ClientDashboardState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from app.pages.jobs import JobsState
from core import routes
from states.job_search import JobFilters, chosen_category, typed_search
from tests.support.factories import make_application, make_chat, make_company, make_freelancer, make_job, make_message
from tests.support.state_harness import cookie_for, run, state_for, toasts

DASHBOARDS = [
    (ClientDashboardState, "client", "/client-dashboard"),
    (FreelancerDashboardState, "freelancer", "/freelancer-dashboard"),
]


@pytest.mark.parametrize(("menu", "role"), [(CLIENT_TABS, "client"), (FREELANCER_TABS, "freelancer")])
def test_the_menus_offer_exactly_the_tabs_the_states_accept(menu, role):
    assert tuple(item.key for item in menu) == routes.DASHBOARD_TABS[role]
    assert routes.tab_keys(role) == frozenset(routes.DASHBOARD_TABS[role])


@pytest.fixture
def people(db):
    company, freelancer = make_company(db), make_freelancer(db)
    application = make_application(db, make_job(db, company, "Bartender"), freelancer, status="accepted")
    chat = make_chat(db, application, company, freelancer)
    make_message(db, chat, company, "Olá!")
    db.commit()
    return {"client": company, "freelancer": freelancer}


@pytest.mark.parametrize(("state_cls", "role", "path"), DASHBOARDS)
def test_each_dashboard_lists_its_callers_conversations_under_mensagens(db, people, state_cls, role, path):
    state = state_for(state_cls, cookie_for(db, people[role]), path, {"tab": "messages"})

    run(state, state_cls.load)

    assert (state.tab, state.loaded_tab, state.chats_total) == ("messages", "messages", 1)
    assert [chat["job_title"] for chat in state.chats] == ["Bartender"]
    assert state.pager_items == []


@pytest.mark.parametrize(("state_cls", "role", "path"), DASHBOARDS)
@pytest.mark.parametrize("asked", ["nope", "", "plans-x", "../admin"])
def test_an_unknown_tab_shows_the_overview(db, people, state_cls, role, path, asked):
    state = state_for(state_cls, cookie_for(db, people[role]), path, {"tab": asked})

    run(state, state_cls.load)

    assert (state.tab, state.loaded_tab) == ("overview", "overview")


@pytest.mark.parametrize(("state_cls", "role", "path"), DASHBOARDS)
def test_the_other_role_and_a_visitor_load_nothing(db, people, state_cls, role, path):
    other = people["freelancer" if role == "client" else "client"]
    for cookie in (cookie_for(db, other), ""):
        state = state_for(state_cls, cookie, path, {"tab": "messages"})

        run(state, state_cls.load)

        assert (state.loaded_tab, state.chats, state.chats_total) == ("", [], 0)


def test_the_freelancer_plans_tab_does_not_exist(db, people):
    state = state_for(FreelancerDashboardState, cookie_for(db, people["freelancer"]), "/", {"tab": "plans"})

    events = run(state, FreelancerDashboardState.load)

    assert state.tab == "overview"
    assert toasts(events) == []


# --- the job search -------------------------------------------------------------------------


def test_filters_read_from_a_query_are_clipped_and_canonical():
    filters = JobFilters.from_query(
        {"search": "g" * 500, "city": "c" * 500, "category": "events", "empresa": "12", "page": "3"}
    )

    assert (len(filters.search), len(filters.city)) == (100, 120)
    assert (filters.category, filters.company_id, filters.page) == ("eventos", 12, 3)


@pytest.mark.parametrize(
    "query",
    [{}, {"category": "armas", "empresa": "-4", "page": "0"}, {"empresa": "x", "page": "2.5"}, {"page": "9" * 40}],
)
def test_filters_that_make_no_sense_read_as_none(query):
    filters = JobFilters.from_query(query)

    assert (filters.category, filters.company_id) == ("", 0)
    assert filters.page >= 1


@pytest.mark.parametrize(
    ("form", "typed"), [({"search": "  Garçom "}, "Garçom"), ({}, ""), (None, ""), ("x", ""), ({"search": 7}, "")]
)
def test_the_search_bar_sends_text_or_nothing(form, typed):
    assert typed_search(form).strip() == typed


@pytest.mark.parametrize(("value", "slug"), [("eventos", "eventos"), ("", ""), ("events", ""), (None, ""), (["x"], "")])
def test_only_a_category_of_ours_can_be_chosen(value, slug):
    assert chosen_category(value) == slug


def test_both_job_lists_show_the_same_jobs_for_the_same_filters(db):
    company = make_company(db)
    freelancer = make_freelancer(db)
    for n in range(12):
        make_job(db, company, f"Garçom {n}", localizacao="Recife" if n % 2 else "Natal")
    db.commit()
    query = {"search": "garcom", "city": "recife", "page": "1"}
    public = state_for(JobsState, "", "/jobs", query)
    dashboard = state_for(
        FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "jobs", **query}
    )

    run(public, JobsState.load)
    run(dashboard, FreelancerDashboardState.load)

    assert public.total == dashboard.job_total == 6
    assert [job["id"] for job in public.items] == [job["id"] for job in dashboard.job_results]
    assert (public.search, public.city) == (dashboard.job_search, dashboard.job_city) == ("garcom", "recife")
