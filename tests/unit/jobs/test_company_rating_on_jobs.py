"""A company's rating shows on its vagas: the list, the job page and the first paint (issue 24 #9)."""

from app.api.first_paint import job_article
from services.jobs import job_detail, job_list_cache, jobs
from tests.support.factories import make_application, make_company, make_freelancer, make_job, make_rating


def _rated_company(db, *stars: int, **profile):
    """A company with a closed vaga whose freelancers rated it `stars`."""
    company = make_company(db, **profile)
    done = make_job(db, company, "Encerrada", status="closed")
    for n, given in enumerate(stars):
        freelancer = make_freelancer(db, nome=f"Freela {n}")
        application = make_application(db, done, freelancer, status="accepted")
        make_rating(db, application, freelancer, company, given)
    return company


def _listed(db) -> dict[str, str]:
    return {item["title"]: item["company_rating"] for item in jobs.list_public_jobs(db).items}


def test_the_list_shows_each_companys_rating_but_never_on_an_anonymous_vaga(db):
    rated = _rated_company(db, 5, 4, empresa="Hotel Sol")
    unrated = make_company(db, empresa="Bar Novo")
    make_job(db, rated, "Garçom")
    make_job(db, rated, "Copeiro anônimo", anuncio_anonimo=True)
    make_job(db, unrated, "Bartender")
    db.commit()

    assert _listed(db) == {"Garçom": "4,5 (2 avaliações)", "Copeiro anônimo": "", "Bartender": ""}


def test_a_new_rating_shows_at_once_though_the_list_is_cached(db):
    company = _rated_company(db, 3)
    make_job(db, company, "Garçom")
    db.commit()
    job_list_cache.clear()
    assert _listed(db)["Garçom"] == "3,0 (1 avaliação)"  # now cached

    freelancer = make_freelancer(db, nome="Outra")
    application = make_application(
        db, make_job(db, company, "Outra encerrada", status="closed"), freelancer, "accepted"
    )
    make_rating(db, application, freelancer, company, 5)
    db.commit()

    assert _listed(db)["Garçom"] == "4,0 (2 avaliações)"


def test_the_job_page_and_its_first_paint_show_the_rating_unless_anonymous(db):
    company = _rated_company(db, 5, empresa="Hotel Sol")
    shown = make_job(db, company, "Garçom")
    hidden = make_job(db, company, "Anônima", anuncio_anonimo=True)
    db.commit()

    detail = job_detail.get_public_job(db, shown.id)
    assert detail["company_rating"] == "5,0 (1 avaliação)"
    assert "Eventos · Hotel Sol · ★ 5,0 (1 avaliação)" in job_article(detail, "Turno")
    assert job_detail.get_public_job(db, hidden.id)["company_rating"] == ""
