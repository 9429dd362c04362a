"""A closed vaga's page offers similar open ones (services/jobs/job_detail.py `similar_to_unavailable`)."""

from datetime import timedelta

from core.types import utcnow
from models import JobStatus
from services.jobs import job_detail
from tests.support.factories import make_company, make_job


def _job(db, company, title, *, category="eventos", city="Curitiba", status=JobStatus.OPEN, hours_ago=0):
    job = make_job(db, company, title, categoria=category, localizacao=city, status=status, hours_ago=hours_ago)
    job.criado_em = utcnow() - timedelta(hours=hours_ago)
    db.add(job)
    db.commit()
    return job.id


def test_a_job_that_never_existed_has_no_similar_list(db):
    assert job_detail.similar_to_unavailable(db, 987_654) is None


def test_same_category_in_the_same_city_first_then_anywhere_newest_first_at_most_four(db):
    company = make_company(db)
    closed = _job(db, company, "Bartender encerrada", status=JobStatus.CLOSED)
    same_city_old = _job(db, company, "Bartender Curitiba antiga", hours_ago=5)
    same_city_new = _job(db, company, "Bartender Curitiba nova", hours_ago=1)
    elsewhere_new = _job(db, company, "Bartender Recife", city="Recife", hours_ago=2)
    elsewhere_old = _job(db, company, "Bartender Salvador", city="Salvador", hours_ago=6)
    _job(db, company, "Bartender Natal", city="Natal", hours_ago=7)  # the fifth: beyond the four
    _job(db, company, "Camareira Curitiba", category="hotel", hours_ago=1)  # another category
    _job(db, company, "Bartender arquivada", status=JobStatus.ARCHIVED)  # not public

    similar = job_detail.similar_to_unavailable(db, closed)

    assert [item["id"] for item in similar] == [same_city_new, same_city_old, elsewhere_new, elsewhere_old]
    assert similar[0]["title"] == "Bartender Curitiba nova"


def test_an_archived_job_with_nothing_like_it_open_gets_an_empty_list(db):
    company = make_company(db)
    archived = _job(db, company, "Sommelier arquivada", category="gastronomia", status=JobStatus.ARCHIVED)

    assert job_detail.similar_to_unavailable(db, archived) == []


def test_an_open_job_is_never_listed_as_similar_to_itself(db):
    company = make_company(db)
    job_id = _job(db, company, "Garçom")

    assert job_id not in [item["id"] for item in job_detail.similar_to_unavailable(db, job_id)]
