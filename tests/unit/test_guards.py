"""Page guards (docs/product.md §1): visitors to /login, the other role to its own dashboard."""

import pytest

from services.accounts import GuardDecision, dashboard_for, guard


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


@pytest.mark.parametrize(
    ("role", "route"),
    [
        ("client", "/client-dashboard"),
        ("freelancer", "/freelancer-dashboard"),
        ("", "/freelancer-dashboard"),
        ("admin", "/freelancer-dashboard"),
    ],
)
def test_dashboard_for_defaults_to_freelancer(role, route):
    assert dashboard_for(role) == route
