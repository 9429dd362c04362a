"""core/catalog.py plans: the data /pricing and the dashboard show (docs/product/money.md §9)."""

from decimal import Decimal

import pytest

from components.plans import plan_price
from core import shift_rules
from core.catalog import PLANS, plan_by_slug, team_feature


def test_three_plans_in_order_with_spec_prices() -> None:
    assert [(plan.slug, plan.name, plan.price) for plan in PLANS] == [
        ("free", "Gratuito", Decimal("0")),
        ("premium", "Premium", Decimal("59.90")),
        ("enterprise", "Enterprise", Decimal("119.00")),
    ]


def test_prices_are_shown_in_brazilian_format() -> None:
    assert [plan_price(plan) for plan in PLANS] == [
        ("R$ 0", "para sempre"),
        ("R$ 59,90", "/mês"),
        ("R$ 119,00", "/mês"),
    ]


def test_only_premium_is_marked_most_popular() -> None:
    assert [plan.slug for plan in PLANS if plan.highlighted] == ["premium"]


def test_job_limits_match_product_rules() -> None:
    limits = {plan.slug: (plan.active_job_limit, plan.monthly_job_limit) for plan in PLANS}
    assert limits == {"free": (2, None), "premium": (None, 15), "enterprise": (None, 30)}


def test_each_plan_says_how_large_its_team_may_be() -> None:
    """Second on each card of /pricing and of the dashboard's 'Planos', after the plan's vagas."""
    assert [plan.features[:2] for plan in PLANS] == [
        ("Até 2 vagas ativas", "Minha equipe: até 10 profissionais"),
        ("Até 15 vagas publicadas por mês", "Minha equipe: até 100 profissionais"),
        ("Até 30 vagas publicadas por mês", "Minha equipe: sem limite de profissionais"),
    ]


@pytest.mark.parametrize(
    ("limit", "line"), [(1, "Minha equipe: até 1 profissional"), (25, "Minha equipe: até 25 profissionais")]
)
def test_the_team_line_follows_the_limit_the_service_enforces(monkeypatch, limit: int, line: str) -> None:
    monkeypatch.setitem(shift_rules.TEAM_SIZE, "free", limit)
    assert team_feature("free") == line


def test_plan_by_slug_finds_known_plans_only() -> None:
    assert plan_by_slug("premium") is PLANS[1]
    assert plan_by_slug("gold") is None
    assert plan_by_slug("") is None
