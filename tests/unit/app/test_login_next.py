"""Login returns to where the person was going (routes.safe_next): same-site paths of their own role only."""

import pytest

from core import routes
from services.accounts import accounts
from states.auth import AuthState
from tests.support.factories import make_company, make_freelancer
from tests.support.state_harness import cookie_for, run, state_for

FREELANCER_PATHS = [
    "/freelancer-dashboard",
    "/freelancer-dashboard?tab=shifts",
    "/freelancer-dashboard/chats/12",
    "/jobs/42",
    "/jobs?city=Recife&page=2",
]
HOSTILE = [
    None,
    "",
    42,
    ["/jobs/1"],
    "jobs/1",
    "https://evil.example/freelancer-dashboard",
    "//evil.example/freelancer-dashboard",
    "/\\evil.example",
    "/\t/evil.example",
    "/freelancer-dashboard\n/x",
    "javascript:alert(1)",
    "/" + "a" * routes.NEXT_MAX_LENGTH,
]


@pytest.mark.parametrize("path", FREELANCER_PATHS)
def test_a_freelancers_own_pages_and_the_job_pages_are_accepted(path):
    assert routes.safe_next(path, "freelancer") == path
    assert routes.safe_next(path) == path


@pytest.mark.parametrize("path", HOSTILE)
def test_anything_but_a_path_of_this_site_is_refused(path):
    assert routes.safe_next(path) is None
    assert routes.safe_next(path, "freelancer") is None


@pytest.mark.parametrize(
    ("role", "path"),
    [
        ("client", "/freelancer-dashboard?tab=shifts"),
        ("client", "/jobs/42"),
        ("freelancer", "/client-dashboard/jobs"),
        ("freelancer", "/admin"),
        ("client", "/admin"),
        ("admin", "/client-dashboard"),
        ("freelancer", "/freelancer-dashboardx"),
        ("freelancer", "/login?next=%2Fjobs%2F1"),
    ],
)
def test_a_role_is_never_sent_into_another_roles_area(role, path):
    assert routes.safe_next(path, role) is None


# Issue 41: '/freelancer-dashboard/%2e%2e/%2e%2e//evil.com' passed the area check; the whole family.
STEPPED_AROUND = [
    "/freelancer-dashboard/%2e%2e/%2e%2e//evil.com",
    "/freelancer-dashboard/%2E%2E/%2E%2E//evil.com",
    "/freelancer-dashboard/%2e%2e/%2e%2e/%2fevil.com",
    "/freelancer-dashboard/%252e%252e/%252e%252e//evil.com",
    "/freelancer-dashboard/%25252e%25252e/%25252e%25252e//evil.com",
    "/freelancer-dashboard/..%2f..%2f%2fevil.com",
    "/freelancer-dashboard%2f..%2f..%2f%2fevil.com",
    "/freelancer-dashboard/%2e%2e%5c%2e%2e%5cevil.com",
    "/freelancer-dashboard/..%5c..%5cevil.com",
    "/freelancer-dashboard/%5c%5cevil.com",
    "/freelancer-dashboard/../..//evil.com",
    "/freelancer-dashboard//evil.com",
    "/freelancer-dashboard/%2f%2fevil.com",
    "/freelancer-dashboard/%09/evil.com",
    "/freelancer-dashboard/%0a/evil.com",
    "/freelancer-dashboard/%0d%0a/evil.com",
    "/freelancer-dashboard/%00",
    "/freelancer-dashboard/\uff0e\uff0e/\uff0e\uff0e//evil.com",  # fullwidth full stops
    "/freelancer-dashboard/%EF%BC%8E%EF%BC%8E/%EF%BC%8E%EF%BC%8E/evil.com",  # the same, encoded
    "/freelancer-dashboard/%EF%BC%8Fevil.com",  # fullwidth solidus
    "/freelancer-dashboard/%E2%80%8B/x",  # zero-width space
    "/freelancer-dashboard/../../../etc",
]


@pytest.mark.parametrize("path", STEPPED_AROUND)
def test_encoded_dots_separators_and_controls_never_step_around_the_area_check(path):
    assert routes.safe_next(path, "freelancer") is None
    assert routes.safe_next(path) is None


@pytest.mark.parametrize(
    ("role", "path"),
    [
        ("freelancer", "/freelancer-dashboard/%2e%2e/client-dashboard"),
        ("freelancer", "/jobs/%2E%2E/admin"),
        ("freelancer", "/jobs/%252e%252e/client-dashboard?tab=jobs"),
        ("client", "/client-dashboard/../freelancer-dashboard"),
        ("client", "/freelancers/%2e%2e/%2e%2e/admin"),
        ("client", "/client-dashboard/\uff0e\uff0e/admin"),
    ],
)
def test_dot_segments_are_resolved_before_the_area_is_checked(role, path):
    assert routes.safe_next(path, role) is None


@pytest.mark.parametrize(
    ("path", "lands"),
    [
        ("/freelancer-dashboard/chats/../chats/12", "/freelancer-dashboard/chats/12"),
        ("/jobs/./42", "/jobs/42"),
        ("/freelancer-dashboard/%2e/chats?tab=x", "/freelancer-dashboard/chats?tab=x"),
        ("/freelancer-dashboard/", "/freelancer-dashboard/"),
    ],
)
def test_a_path_of_the_own_area_lands_normalised(path, lands):
    assert routes.safe_next(path, "freelancer") == lands


def test_the_login_link_of_a_job_page_comes_back_to_it():
    assert routes.login_back_to_job_prefix() + "42" == routes.login_with_next("/jobs/42") == "/login?next=%2Fjobs%2F42"


def _login(db, user, next_path):
    return accounts.login(db, {"email": user.email, "password": "x", "next": next_path}, "198.51.100.7")


@pytest.fixture
def known_password(monkeypatch):
    monkeypatch.setattr(accounts, "verify_password", lambda password, hashed: True)


@pytest.mark.usefixtures("known_password")
@pytest.mark.parametrize(
    ("next_path", "lands"),
    [
        ("/freelancer-dashboard/chats/3", "/freelancer-dashboard/chats/3"),
        ("/jobs/9", "/jobs/9"),
        ("https://evil.example", "/freelancer-dashboard"),
        ("/client-dashboard", "/freelancer-dashboard"),
        (None, "/freelancer-dashboard"),
    ],
)
def test_login_sends_a_freelancer_back_to_their_page_or_home(db, next_path, lands):
    assert _login(db, make_freelancer(db), next_path).redirect_to == lands


@pytest.mark.usefixtures("known_password")
def test_login_sends_a_company_back_to_its_chat_but_never_to_a_freelancer_page(db):
    company = make_company(db)

    assert _login(db, company, "/client-dashboard/chats/5").redirect_to == "/client-dashboard/chats/5"
    assert _login(db, company, "/freelancer-dashboard").redirect_to == "/client-dashboard"


def test_a_signed_in_person_opening_login_with_next_goes_there(db):
    freelancer = make_freelancer(db)
    state = state_for(AuthState, cookie_for(db, freelancer), "/login", {"next": "/freelancer-dashboard?tab=shifts"})

    events = run(state, AuthState.redirect_if_signed_in)

    assert any("/freelancer-dashboard?tab=shifts" in str(event) for event in events)


def test_a_visitor_on_a_dashboard_tab_is_sent_to_login_remembering_it(db):
    state = state_for(AuthState, "", "/freelancer-dashboard", {"tab": "shifts"})

    events = run(state, AuthState.guard_freelancer)

    assert any("/login?next=%2Ffreelancer-dashboard%3Ftab%3Dshifts" in str(event) for event in events)


def test_the_static_builds_trailing_slash_is_not_remembered(db):
    events = run(state_for(AuthState, "", "/client-dashboard/"), AuthState.guard_client)

    redirects = [str(event) for event in events if "/login" in str(event)]
    assert redirects and all("next=%2Fclient-dashboard" in r and "%2Fclient-dashboard%2F" not in r for r in redirects)
