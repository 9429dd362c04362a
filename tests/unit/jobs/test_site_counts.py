"""The home's figures: real counts, shown only from their thresholds (issue 42 point 12)."""

from datetime import timedelta

import pytest

from core.types import utcnow
from services.jobs import site_counts
from tests.support.factories import make_company, make_freelancer, make_job


@pytest.fixture(autouse=True)
def small_thresholds(monkeypatch):
    monkeypatch.setattr(site_counts, "MIN_OPEN_JOBS", 2)
    monkeypatch.setattr(site_counts, "MIN_FREELANCERS", 3)
    site_counts.clear()
    yield
    site_counts.clear()


def test_below_the_thresholds_the_home_shows_no_figure(db):
    make_job(db, make_company(db))
    make_freelancer(db)
    db.commit()

    assert site_counts.home_figures(db) == []


def test_figures_worth_showing_are_the_real_counts(db):
    company = make_company(db)
    for n in range(3):
        make_job(db, company, f"Garçom {n}")
    make_job(db, company, "Encerrada", status="closed")
    for _ in range(3):
        make_freelancer(db)
    deleted = make_freelancer(db)
    deleted.deleted_at = utcnow()
    db.commit()

    assert site_counts.home_figures(db) == [
        {"number": "3", "label": "vagas abertas agora"},
        {"number": "3", "label": "freelancers cadastrados"},
    ]


def test_the_freelancer_count_is_kept_for_ten_minutes(db):
    for _ in range(3):
        make_freelancer(db)
    db.commit()
    start = utcnow()
    assert site_counts.home_figures(db, lambda: start)[-1]["number"] == "3"

    make_freelancer(db)
    db.commit()

    assert site_counts.home_figures(db, lambda: start + timedelta(minutes=9))[-1]["number"] == "3"
    assert site_counts.home_figures(db, lambda: start + timedelta(minutes=11))[-1]["number"] == "4"


def test_the_home_page_has_no_invented_figures():
    from app.pages.home import hero

    rendered = str(hero())
    assert "5.000+" not in rendered and "2.000+" not in rendered
