"""services/screens/public_profiles.py: a freelancer's profile for the companies they applied to, and for themself."""

import json
import re
from datetime import timedelta

import pytest

from core.formatting import safe_website, short_date
from core.types import utcnow
from models import Application, Job, Profile, Rating
from services.common.errors import NotAllowed
from services.privacy import data_export
from services.screens import public_profiles
from services.screens.public_profiles import PROFILE_NOT_FOUND, REVIEWS_PAGE_SIZE
from tests.support.factories import (
    MISSING_ID,
    make_application,
    make_cast,
    make_company,
    make_freelancer,
    make_job,
    make_rating,
    unusable_ids,
)
from tests.support.sql_log import sent_statements

PRIVATE = {"email", "telefone", "endereco", "phone", "address"}


def _profile(db, user) -> Profile:
    return db.get(Profile, user.id)


@pytest.fixture
def cast(db):
    """make_cast's people; João's profile is complete, with a phone and an address nobody else may see."""
    cast = make_cast(db)
    profile = _profile(db, cast.freelancer)
    profile.localizacao = "Recife, PE"
    profile.biografia = "Garçom há dez anos."
    profile.experiencia_descricao = "Hotel Atlântico, 2019-2024."
    profile.website = "https://joaosilva.com.br"
    profile.telefone = "(81) 99999-0000"
    profile.endereco = "Rua das Flores, 10"
    db.add(profile)
    db.flush()
    return cast


@pytest.fixture
def applied(db, cast):
    """João applied to the company's 'Garçom' (pending) and 'Bartender' (rejected); Ana applied to the rival."""
    garcom = make_job(db, cast.company, "Garçom", hours_ago=5)
    bartender = make_job(db, cast.company, "Bartender", hours_ago=4)
    rival_job = make_job(db, cast.rival, "Cozinheiro")
    first = make_application(db, garcom, cast.freelancer)
    second = make_application(db, bartender, cast.freelancer, status="rejected")
    second.created_at = first.created_at + timedelta(minutes=1)
    make_application(db, rival_job, cast.other)
    db.commit()
    return {"garcom": garcom, "bartender": bartender, "first": first, "second": second}


def _rate(db, company, freelancer, title, stars, comment="", days_ago=0) -> Rating:
    job = make_job(db, company, title, status="closed", vaga_status="closed")
    application = make_application(db, job, freelancer, status="accepted")
    rating = make_rating(db, application, company, freelancer, stars)
    rating.comment = comment
    rating.created_at = utcnow() - timedelta(days=days_ago)
    db.flush()
    return rating


def test_a_company_that_received_an_application_sees_the_public_profile(db, cast, applied):
    result = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)

    assert result["id"] == cast.freelancer.id
    assert result["name"] == "João Silva"
    assert result["initials"] == "JS"
    assert result["profession"] == "Garçom"
    assert result["location"] == "Recife, PE"
    assert result["skills"] == ["Bandeja", "Inglês", "Vinhos", "Drinks", "Caixa"]
    assert result["bio"] == "Garçom há dez anos."
    assert result["experience"] == "Hotel Atlântico, 2019-2024."
    assert result["website"] == "https://joaosilva.com.br"
    assert result["rating"] == "Sem avaliações ainda"
    assert result["rating_count"] == 0
    assert result["reviews"] == []
    assert (result["page"], result["pages"]) == (1, 1)
    assert result["is_self"] is False


def test_the_company_sees_its_own_jobs_the_freelancer_applied_to_with_their_status(db, cast, applied):
    rows = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)["applications"]

    assert [(r["job_title"], r["status"], r["status_label"]) for r in rows] == [
        ("Bartender", "rejected", "Recusada"),
        ("Garçom", "pending", "Pendente"),
    ]
    assert rows[0]["application_id"] == applied["second"].id
    assert rows[0]["job_id"] == applied["bartender"].id
    assert rows[0]["chat_id"] == 0


def test_a_hire_on_a_finished_vaga_reads_concluida_for_the_company_too(db, cast, applied):
    _rate(db, cast.company, cast.freelancer, "Encerrada", 5)
    db.commit()

    rows = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)["applications"]

    assert ("Encerrada", "accepted", "Concluída") in [(r["job_title"], r["status"], r["status_label"]) for r in rows]


def test_any_application_status_is_enough(db, cast):
    job = make_job(db, cast.rival, "Recepcionista")
    make_application(db, job, cast.freelancer, status="rejected")
    db.commit()

    result = public_profiles.freelancer_profile(db, cast.rival.id, cast.freelancer.id)

    assert result["name"] == "João Silva"
    assert [r["job_title"] for r in result["applications"]] == ["Recepcionista"]


def test_rating_and_reviews_latest_first_with_company_job_and_date(db, cast, applied):
    old = _rate(db, cast.company, cast.freelancer, "Evento de gala", 4, "Pontual e atencioso.", days_ago=3)
    new = _rate(db, cast.rival, cast.freelancer, "Casamento", 5, days_ago=1)
    db.commit()

    result = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)

    assert result["rating"] == "4,5 (2 avaliações)"
    assert result["rating_average"] == 4.5
    assert result["rating_count"] == 2
    assert [r["id"] for r in result["reviews"]] == [new.id, old.id]
    latest, earlier = result["reviews"]
    assert (latest["stars"], latest["company"], latest["job_title"], latest["comment"]) == (
        5,
        "Outro Hotel",
        "Casamento",
        "",
    )
    assert (earlier["stars"], earlier["company"], earlier["job_title"], earlier["comment"]) == (
        4,
        "Hotel Atlântico",
        "Evento de gala",
        "Pontual e atencioso.",
    )
    assert earlier["date"] == short_date(old.created_at)
    assert re.fullmatch(r"\d{2}/\d{2}/\d{4}", earlier["date"])


def test_reviews_are_paginated_ten_per_page_and_the_page_is_clamped(db, cast, applied):
    made = [_rate(db, cast.company, cast.freelancer, f"Vaga {n}", 1 + n % 5, days_ago=n) for n in range(12)]
    db.commit()
    newest_first = [r.id for r in made]

    first = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id, page=1)
    second = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id, page=2)
    beyond = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id, page=99)
    below = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id, page=0)

    assert REVIEWS_PAGE_SIZE == 10
    assert [r["id"] for r in first["reviews"]] == newest_first[:10]
    assert [r["id"] for r in second["reviews"]] == newest_first[10:]
    assert (first["page"], first["pages"], second["page"]) == (1, 2, 2)
    assert (beyond["page"], [r["id"] for r in beyond["reviews"]]) == (2, newest_first[10:])
    assert below["page"] == 1
    assert first["rating_count"] == 12


def test_a_review_by_a_deleted_company_reads_usuario_removido(db, cast, applied):
    _rate(db, cast.rival, cast.freelancer, "Casamento", 5)
    cast.rival.deleted_at = utcnow()
    db.add(cast.rival)
    db.commit()

    review = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)["reviews"][0]

    assert review["company"] == "Usuário removido"
    assert review["job_title"] == "Casamento"


def test_a_review_for_a_job_posted_anonymously_never_names_the_company(db, cast, applied):
    rating = _rate(db, cast.rival, cast.freelancer, "Evento sigiloso", 5, comment="Excelente!")
    db.get(Job, db.get(Application, rating.application_id).vaga_id).anuncio_anonimo = True
    db.commit()

    shown = public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)
    exported = data_export.export_user_data(db, cast.freelancer.id)["avaliacoes"]

    assert shown["reviews"][0]["company"] == "Empresa Confidencial"
    assert exported["recebidas"][0]["avaliador"] == "Empresa Confidencial"
    rival_name = db.get(Profile, cast.rival.id).empresa or db.get(Profile, cast.rival.id).nome
    assert rival_name not in json.dumps([shown, exported], default=str)


def test_the_freelancer_previews_their_own_profile(db, cast, applied):
    result = public_profiles.freelancer_profile(db, cast.freelancer.id, cast.freelancer.id)

    assert result["is_self"] is True
    assert result["name"] == "João Silva"
    assert result["applications"] == []


def test_a_freelancer_who_applied_nowhere_still_previews_their_own_profile(db, cast):
    db.commit()
    assert public_profiles.freelancer_profile(db, cast.other.id, cast.other.id)["name"] == "Ana Souza"


@pytest.mark.parametrize(
    "who",
    ["rival company", "other freelancer", "visitor", "missing id", "company id", "own company id", "deleted"],
)
def test_everyone_else_gets_the_same_not_found(db, cast, applied, who):
    viewer, target = cast.company.id, cast.freelancer.id
    if who == "rival company":
        viewer = cast.rival.id
    elif who == "other freelancer":
        viewer = cast.other.id
    elif who == "visitor":
        viewer = None
    elif who == "missing id":
        target = MISSING_ID
    elif who == "company id":
        target = cast.rival.id
    elif who == "own company id":
        target = viewer
    elif who == "deleted":
        cast.freelancer.deleted_at = utcnow()
        db.add(cast.freelancer)
        db.commit()

    with pytest.raises(NotAllowed) as caught:
        public_profiles.freelancer_profile(db, viewer, target)

    assert caught.value.message == PROFILE_NOT_FOUND == "Perfil não encontrado"


def test_a_company_is_refused_for_a_freelancer_who_applied_only_to_another_company(db, cast, applied):
    with pytest.raises(NotAllowed):
        public_profiles.freelancer_profile(db, cast.company.id, cast.other.id)
    assert public_profiles.freelancer_profile(db, cast.rival.id, cast.other.id)["name"] == "Ana Souza"


@pytest.mark.parametrize("bad", ["abc", "1 OR 1=1", "", *unusable_ids(1)])
def test_malformed_ids_are_refused_like_missing_ones(db, cast, applied, bad):
    with pytest.raises(NotAllowed) as caught:
        public_profiles.freelancer_profile(db, cast.company.id, bad)
    assert caught.value.message == PROFILE_NOT_FOUND


@pytest.mark.parametrize("bad_viewer", ["1", 0, -1, True, 1.0])
def test_a_malformed_viewer_is_refused(db, cast, applied, bad_viewer):
    with pytest.raises(NotAllowed):
        public_profiles.freelancer_profile(db, bad_viewer, cast.freelancer.id)


def test_no_private_contact_data_in_the_result(db, cast, applied):
    _rate(db, cast.company, cast.freelancer, "Evento", 5, "Ótimo")
    db.commit()

    for viewer in (cast.company.id, cast.freelancer.id):
        result = public_profiles.freelancer_profile(db, viewer, cast.freelancer.id)
        text = repr(result)
        assert not PRIVATE & set(result)
        assert cast.freelancer.email not in text
        assert cast.company.email not in text
        assert "99999-0000" not in text
        assert "Rua das Flores" not in text


@pytest.mark.parametrize("reviews", [0, 1, 12])
def test_the_number_of_queries_does_not_grow_with_the_reviews(db, cast, applied, reviews):
    for n in range(reviews):
        company = make_company(db, nome=f"Empresa {n}", empresa=f"Empresa {n}")
        _rate(db, company, cast.freelancer, f"Vaga {n}", 5, days_ago=n)
    db.commit()
    viewer, target = cast.company.id, cast.freelancer.id
    db.expire_all()

    with sent_statements(db.get_bind()) as statements:
        public_profiles.freelancer_profile(db, viewer, target, page=1)

    assert len(statements) <= 4


def test_a_refusal_takes_one_query(db, cast, applied):
    viewer, target = cast.rival.id, cast.freelancer.id
    db.expire_all()
    with sent_statements(db.get_bind()) as statements, pytest.raises(NotAllowed):
        public_profiles.freelancer_profile(db, viewer, target)
    assert len(statements) == 1


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://joaosilva.com.br", "https://joaosilva.com.br"),
        ("http://exemplo.com/portfolio?x=1", "http://exemplo.com/portfolio?x=1"),
        ("  https://exemplo.com  ", "https://exemplo.com"),
        ("javascript:alert(1)", ""),
        ("JavaScript://exemplo.com/%0aalert(1)", ""),
        ("data:text/html,oi", ""),
        ("//exemplo.com", ""),
        ("exemplo.com", ""),
        ("https://", ""),
        ("https://exem plo.com", ""),
        ("http://[::1", ""),
        ("", ""),
    ],
)
def test_only_http_and_https_websites_are_linked(url, shown):
    assert safe_website(url) == shown


def test_an_unsafe_website_is_not_sent(db, cast, applied):
    _profile(db, cast.freelancer).website = "javascript:alert(document.cookie)"
    db.commit()
    assert public_profiles.freelancer_profile(db, cast.company.id, cast.freelancer.id)["website"] == ""


def test_a_freelancer_without_a_name_or_skills_gets_defaults(db, cast):
    blank = make_freelancer(db, nome="", habilidades=["", "  "])
    make_application(db, make_job(db, cast.company, "Copa"), blank)
    db.commit()

    result = public_profiles.freelancer_profile(db, cast.company.id, blank.id)

    assert (result["name"], result["initials"], result["skills"]) == ("Freelancer", "F", [])
