"""services/shifts/ratings.py: both sides of an accepted application rate each other once after the job closes."""

from decimal import Decimal

import pytest
from sqlmodel import select

from models import JobStatus, Rating
from services.common.errors import NotAllowed, ServiceError, ValidationFailed
from services.jobs import company_jobs
from services.shifts import ratings
from services.shifts.ratings import ALREADY_RATED, CANNOT_RATE, RatingSummary
from tests.support.factories import (
    make_application,
    make_cast,
    make_company,
    make_freelancer,
    make_job,
    make_rating,
    snapshot,
    unusable_ids,
)

NOT_CLOSED = "A avaliação fica disponível quando as horas forem aprovadas ou a vaga for encerrada."


@pytest.fixture
def cast(db):
    return make_cast(db)


@pytest.fixture
def done(db, cast):
    """A closed job of the company: João was hired (accepted), Ana was turned down."""
    job = make_job(db, cast.company, "Garçom", status=JobStatus.CLOSED, vaga_status=JobStatus.CLOSED)
    hired = make_application(db, job, cast.freelancer, status="accepted")
    turned_down = make_application(db, job, cast.other, status="rejected")
    db.commit()
    return {"job": job, "hired": hired, "turned_down": turned_down}


def _ratings(db):
    return [(r.rater_id, r.ratee_id, r.stars, r.comment) for r in db.exec(select(Rating).order_by(Rating.id))]


def _refused(db, call, error, message):
    before = snapshot(db)
    with pytest.raises(error) as caught:
        call()
    assert caught.value.message == message
    assert snapshot(db) == before


# --- rate ----------------------------------------------------------------------------------


def test_both_sides_rate_each_other_once(db, cast, done):
    hired = done["hired"]
    assert ratings.can_rate(db, cast.company.id, hired.id) is True
    assert ratings.can_rate(db, cast.freelancer.id, hired.id) is True

    ratings.rate(db, cast.company.id, hired.id, {"stars": "5", "comment": "  Excelente!  "})
    ratings.rate(db, cast.freelancer.id, hired.id, {"stars": 4})

    assert _ratings(db) == [
        (cast.company.id, cast.freelancer.id, 5, "Excelente!"),
        (cast.freelancer.id, cast.company.id, 4, ""),
    ]
    assert ratings.can_rate(db, cast.company.id, hired.id) is False
    assert ratings.can_rate(db, cast.freelancer.id, hired.id) is False


@pytest.mark.parametrize("side", ["company", "freelancer"])
def test_rating_twice_is_refused(db, cast, done, side):
    user = getattr(cast, side)
    ratings.rate(db, user.id, done["hired"].id, {"stars": "3"})

    _refused(db, lambda: ratings.rate(db, user.id, done["hired"].id, {"stars": "5"}), ServiceError, ALREADY_RATED)


@pytest.mark.parametrize("status", [JobStatus.OPEN, JobStatus.IN_PROGRESS, JobStatus.ARCHIVED])
def test_rating_waits_for_the_job_to_close(db, cast, status):
    job = make_job(db, cast.company, status=status)
    hired = make_application(db, job, cast.freelancer, status="accepted")

    assert ratings.can_rate(db, cast.company.id, hired.id) is False
    _refused(db, lambda: ratings.rate(db, cast.company.id, hired.id, {"stars": "5"}), ServiceError, NOT_CLOSED)
    _refused(db, lambda: ratings.rate(db, cast.freelancer.id, hired.id, {"stars": "5"}), ServiceError, NOT_CLOSED)


def test_rating_opens_when_the_company_closes_the_job(db, cast):
    job = make_job(db, cast.company)
    hired = make_application(db, job, cast.freelancer, status="accepted")

    company_jobs.close_job(db, cast.company.id, job.id)
    ratings.rate(db, cast.freelancer.id, hired.id, {"stars": "5"})

    assert _ratings(db) == [(cast.freelancer.id, cast.company.id, 5, "")]


def test_archiving_a_closed_job_keeps_rating_open(db, cast):
    job = make_job(db, cast.company)
    hired = make_application(db, job, cast.freelancer, status="accepted")
    company_jobs.close_job(db, cast.company.id, job.id)
    company_jobs.archive_job(db, cast.company.id, job.id)

    assert ratings.can_rate(db, cast.freelancer.id, hired.id) is True
    ratings.rate(db, cast.freelancer.id, hired.id, {"stars": "4"})

    assert _ratings(db) == [(cast.freelancer.id, cast.company.id, 4, "")]


def test_a_restored_job_is_open_again_and_waits_for_closing(db, cast):
    job = make_job(db, cast.company, vagas_disponiveis=2)  # one position left: it can be restored
    hired = make_application(db, job, cast.freelancer, status="accepted")
    company_jobs.close_job(db, cast.company.id, job.id)
    company_jobs.archive_job(db, cast.company.id, job.id)
    company_jobs.restore_job(db, cast.company.id, job.id)

    _refused(db, lambda: ratings.rate(db, cast.company.id, hired.id, {"stars": "5"}), ServiceError, NOT_CLOSED)


@pytest.mark.parametrize("stars", ["0", "6", "", None, "abc", "4.5", -1, True])
def test_stars_must_be_one_to_five(db, cast, done, stars):
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        ratings.rate(db, cast.company.id, done["hired"].id, {"stars": stars})

    assert caught.value.field_errors == {"stars": "Escolha de 1 a 5 estrelas."}
    assert snapshot(db) == before


def test_strangers_and_bad_ids_get_the_same_refusal_and_nothing_changes(db, cast, done):
    hired, turned_down = done["hired"].id, done["turned_down"].id
    outsider = make_company(db, nome="Outra empresa")
    calls = [
        ("rival company", cast.rival.id, hired),
        ("another freelancer", cast.other.id, hired),
        ("outsider", outsider.id, hired),
        ("turned-down freelancer on own application", cast.other.id, turned_down),
        ("company on a rejected application", cast.company.id, turned_down),
    ]
    calls += [(f"company with id {value!r}", cast.company.id, value) for value in unusable_ids(hired)]
    calls += [(f"freelancer with id {value!r}", cast.freelancer.id, value) for value in unusable_ids(hired)]
    before = snapshot(db)

    for who, actor, application_id in calls:
        with pytest.raises(NotAllowed) as caught:
            ratings.rate(db, actor, application_id, {"stars": "5"})
        assert caught.value.message == CANNOT_RATE, who
        assert ratings.can_rate(db, actor, application_id) is False, who
        assert snapshot(db) == before, who


def test_a_pending_application_cannot_be_rated(db, cast):
    job = make_job(db, cast.company, status=JobStatus.CLOSED)
    pending = make_application(db, job, cast.freelancer)

    _refused(db, lambda: ratings.rate(db, cast.company.id, pending.id, {"stars": "5"}), NotAllowed, CANNOT_RATE)


# --- summaries -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("average", "count", "text"),
    [
        (Decimal("4.8"), 12, "4,8 (12 avaliações)"),
        (Decimal("5.0"), 1, "5,0 (1 avaliação)"),
        (None, 0, "Sem avaliações ainda"),
        (Decimal("3"), 2, "3,0 (2 avaliações)"),
    ],
)
def test_summary_text(average, count, text):
    assert RatingSummary(average, count).text == text


def _rated(db, freelancer, stars: list[int]) -> None:
    """`freelancer` received these stars, each from a different hiring company."""
    for value in stars:
        company = make_company(db)
        application = make_application(db, make_job(db, company), freelancer, status="accepted")
        make_rating(db, application, company, freelancer, value)


def test_summary_averages_with_one_decimal(db, cast):
    _rated(db, cast.freelancer, [5] * 10 + [4] * 2)
    _rated(db, cast.other, [5])

    assert ratings.summary(db, cast.freelancer.id) == RatingSummary(Decimal("4.8"), 12)
    assert ratings.summary(db, cast.freelancer.id).text == "4,8 (12 avaliações)"
    assert ratings.summary(db, cast.other.id).text == "5,0 (1 avaliação)"
    assert ratings.summary(db, cast.company.id).text == "Sem avaliações ainda"


def test_summary_counts_ratings_received_not_given(db, cast, done):
    ratings.rate(db, cast.freelancer.id, done["hired"].id, {"stars": "2"})

    assert ratings.summary(db, cast.freelancer.id).count == 0
    assert ratings.summary(db, cast.company.id).text == "2,0 (1 avaliação)"


def test_summaries_are_grouped_per_user(db, cast):
    _rated(db, cast.freelancer, [5, 4, 4])
    _rated(db, cast.other, [1])
    nobody = make_freelancer(db, nome="Sem avaliações")

    found = ratings.summaries(db, [cast.freelancer.id, cast.other.id, nobody.id])

    assert {user: summary.text for user, summary in found.items()} == {
        cast.freelancer.id: "4,3 (3 avaliações)",
        cast.other.id: "1,0 (1 avaliação)",
        nobody.id: "Sem avaliações ainda",
    }
    assert found[cast.freelancer.id] == ratings.summary(db, cast.freelancer.id)


def test_summaries_of_nobody_is_empty(db):
    assert ratings.summaries(db, []) == {}
