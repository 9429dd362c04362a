"""Page guards (docs/product/site.md §1): visitors to /login, the other role to its own dashboard."""

import pytest

from services.accounts.accounts import GuardDecision, dashboard_for, guard


@pytest.mark.parametrize("required", ["client", "freelancer", None])
def test_visitor_goes_to_login(required):
    assert guard(None, required) == GuardDecision(redirect_to="/login")


@pytest.mark.parametrize(
    ("caller", "required"), [("client", "client"), ("freelancer", "freelancer"), ("client", None), ("freelancer", None)]
)
def test_right_role_stays(caller, required):
    assert guard(caller, required) == GuardDecision()


def test_freelancer_on_company_area_is_restricted_and_sent_home():
    assert guard("freelancer", "client") == GuardDecision("/freelancer-dashboard", "empresas")


def test_company_on_freelancer_area_is_restricted_and_sent_home():
    assert guard("client", "freelancer") == GuardDecision("/client-dashboard", "freelancers")


@pytest.mark.parametrize("required", ["client", "freelancer"])
def test_staff_on_a_dashboard_is_restricted_and_sent_to_the_back_office(required):
    assert guard("admin", required) == GuardDecision("/admin", "empresas" if required == "client" else "freelancers")


@pytest.mark.parametrize(("caller", "home"), [("client", "/client-dashboard"), ("freelancer", "/freelancer-dashboard")])
def test_companies_and_freelancers_on_the_back_office_are_restricted(caller, home):
    assert guard(caller, "admin") == GuardDecision(home, "a equipe Turno")
    assert guard(None, "admin") == GuardDecision(redirect_to="/login")


@pytest.mark.parametrize(
    ("role", "route"),
    [
        ("client", "/client-dashboard"),
        ("freelancer", "/freelancer-dashboard"),
        ("", "/freelancer-dashboard"),
        ("staff", "/freelancer-dashboard"),
        ("admin", "/admin"),
    ],
)
def test_dashboard_for_defaults_to_freelancer(role, route):
    assert dashboard_for(role) == route


@pytest.mark.parametrize(
    ("here", "login"),
    [
        ("/freelancer-dashboard", "/login?next=%2Ffreelancer-dashboard"),
        ("/client-dashboard/chats/7", "/login?next=%2Fclient-dashboard%2Fchats%2F7"),
        ("/freelancer-dashboard?tab=shifts", "/login?next=%2Ffreelancer-dashboard%3Ftab%3Dshifts"),
        ("//evil.example", "/login"),
    ],
)
def test_a_visitor_is_sent_to_login_with_the_page_to_come_back_to(here, login):
    assert guard(None, "freelancer", here) == GuardDecision(redirect_to=login)
