import pytest

from models import Rating, Role, Subscription
from services.jobs import plans
from services.screens import company_dashboard, freelancer_dashboard
from tests.support.factories import make_application, make_chat, make_job, make_user


@pytest.fixture
def people(db):
    company = make_user(db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa", empresa="Hotel Atlântico")
    rival = make_user(db, "rival@x.com", Role.CLIENT, nome="Rival", empresa="Outro Hotel")
    freelancer = make_user(
        db, "free@x.com", Role.FREELANCER, nome="João Silva", profissao="Garçom", habilidades=["A", "B", "C", "D", "E"]
    )
    other = make_user(db, "other@x.com", Role.FREELANCER, nome="Ana Souza")
    return company, rival, freelancer, other


def test_company_overview_is_empty_for_a_new_company(db, people):
    company, *_ = people

    overview = company_dashboard.company_overview(db, company.id)

    assert overview == {
        "total_jobs": 0,
        "total_applications": 0,
        "active_hirings": 0,
        "recent_jobs": [],
        "hirings": [],
    }


def test_company_overview_counts_only_own_jobs(db, people):
    company, rival, freelancer, other = people
    jobs = [make_job(db, company, f"Vaga {n}", hours_ago=n) for n in range(4)]
    make_application(db, jobs[0], freelancer, status="accepted")
    make_application(db, jobs[0], other, status="pending")
    make_application(db, jobs[1], other, status="rejected")
    rival_job = make_job(db, rival, "Vaga rival")
    make_application(db, rival_job, freelancer, status="accepted")

    overview = company_dashboard.company_overview(db, company.id)

    assert overview["total_jobs"] == 4
    assert overview["total_applications"] == 3
    assert overview["active_hirings"] == 1
    assert [j["title"] for j in overview["recent_jobs"]] == ["Vaga 0", "Vaga 1", "Vaga 2"]
    assert [(h["job_title"], h["freelancer_name"]) for h in overview["hirings"]] == [("Vaga 0", "João Silva")]


def test_company_jobs_rows_have_labels_counts_and_formats(db, people):
    company, rival, freelancer, other = people
    job = make_job(db, company, "Chef", categoria="gastronomia", status="in_progress")
    make_job(db, company, "Sem valor", hours_ago=2, valor_hora=None, status="archived", is_archived=True)
    make_job(db, rival, "Não é minha")
    make_application(db, job, freelancer)
    make_application(db, job, other)

    rows = company_dashboard.company_jobs(db, company.id)

    assert [r["title"] for r in rows] == ["Chef", "Sem valor"]
    chef, archived = rows
    assert chef["category"] == "Gastronomia"
    assert chef["pay"] == "R$ 30,00/hora"
    assert chef["status_label"] == "Em andamento"
    assert chef["applications"] == 2
    assert " de " in chef["created"]
    assert archived["pay"] == "A combinar"
    assert archived["status_label"] == "Arquivada"
    assert archived["applications"] == 0


def test_company_hirings_lists_accepted_as_confirmed_and_pending(db, people):
    company, rival, freelancer, other = people
    job = make_job(db, company, "Bartender")
    accepted = make_application(db, job, freelancer, status="accepted")
    make_application(db, job, other, status="pending")
    make_application(db, make_job(db, company, "Outra"), other, status="rejected")
    chat = make_chat(db, accepted, company, freelancer)

    rows = {r["freelancer_name"]: r for r in company_dashboard.company_hirings(db, company.id).items}

    assert set(rows) == {"João Silva", "Ana Souza"}
    assert rows["João Silva"]["confirmed"] is True
    assert rows["João Silva"]["chat_id"] == chat.id
    assert rows["Ana Souza"]["confirmed"] is False
    assert rows["Ana Souza"]["chat_id"] == 0
    assert company_dashboard.company_hirings(db, rival.id).items == []


def test_company_freelancers_groups_applicants(db, people):
    company, rival, freelancer, other = people
    first, second = make_job(db, company, "A"), make_job(db, company, "B")
    make_application(db, first, freelancer, status="accepted")
    make_application(db, second, freelancer)
    make_application(db, second, other)
    make_application(db, make_job(db, rival, "C"), other)

    rows = {r["name"]: r for r in company_dashboard.company_freelancers(db, company.id).items}

    assert rows["João Silva"]["applications"] == 2
    assert rows["João Silva"]["hired"] is True
    assert rows["João Silva"]["skills"] == ["A", "B", "C"]
    assert rows["João Silva"]["more_skills"] == "+2 mais"
    assert rows["Ana Souza"]["applications"] == 1
    assert rows["Ana Souza"]["hired"] is False
    assert rows["Ana Souza"]["more_skills"] == ""


@pytest.mark.parametrize(("status", "expected"), [("active", "premium"), ("trialing", "premium"), ("canceled", "free")])
def test_current_plan_follows_subscription_status(db, people, status, expected):
    company, *_ = people
    db.add(Subscription(user_id=company.id, tier="premium", status=status))
    db.flush()

    assert plans.current_plan(db, company.id).slug == expected


def test_freelancer_applications_lists_own_with_labels_and_chat(db, people):
    company, rival, freelancer, other = people
    accepted = make_application(db, make_job(db, company, "Bartender"), freelancer, status="accepted")
    make_application(db, make_job(db, rival, "Secreta", anuncio_anonimo=True), freelancer, status="rejected")
    make_application(db, make_job(db, company, "Outra"), other)
    chat = make_chat(db, accepted, company, freelancer)

    rows = {r["job_title"]: r for r in freelancer_dashboard.freelancer_applications(db, freelancer.id).items}

    assert set(rows) == {"Bartender", "Secreta"}
    assert rows["Bartender"]["status_label"] == "Aceita"
    assert rows["Bartender"]["company"] == "Hotel Atlântico"
    assert rows["Bartender"]["chat_id"] == chat.id
    assert rows["Secreta"]["status_label"] == "Recusada"
    assert rows["Secreta"]["company"] == "Empresa Confidencial"
    assert rows["Secreta"]["chat_id"] == 0


def test_an_application_to_a_finished_vaga_reads_concluida_archived_or_not(db, people):
    company, _, freelancer, _ = people
    make_application(db, make_job(db, company, "Encerrada", status="closed"), freelancer, status="accepted")
    archived = make_job(db, company, "Encerrada e arquivada", status="archived", vaga_status="closed")
    make_application(db, archived, freelancer, status="accepted")
    make_application(db, make_job(db, company, "Em andamento", status="in_progress"), freelancer, status="accepted")
    make_application(db, make_job(db, company, "Recusada", status="closed"), freelancer, status="rejected")

    rows = {
        r["job_title"]: r["status_label"] for r in freelancer_dashboard.freelancer_applications(db, freelancer.id).items
    }

    assert rows == {
        "Encerrada": "Concluída",
        "Encerrada e arquivada": "Concluída",
        "Em andamento": "Aceita",
        "Recusada": "Recusada",
    }


def test_freelancer_overview_of_a_new_freelancer(db, people):
    *_, other = people

    overview = freelancer_dashboard.freelancer_overview(db, other.id)

    assert overview["active_applications"] == 0
    assert overview["completed_jobs"] == 0
    assert overview["rating"] == "—"
    assert overview["rating_count"] == 0
    assert overview["checklist_done"] == 0
    assert overview["checklist_percent"] == 0
    assert [i["label"] for i in overview["checklist"]] == [
        "Foto de perfil",
        "Telefone",
        "Biografia",
        "Habilidades",
        "Experiência",
    ]


def test_freelancer_overview_counts_are_real(db, people):
    company, rival, freelancer, other = people
    make_application(db, make_job(db, company, "Pendente"), freelancer, status="pending")
    make_application(db, make_job(db, company, "Aceita"), freelancer, status="accepted")
    make_application(db, make_job(db, company, "Recusada"), freelancer, status="rejected")
    done = make_application(db, make_job(db, rival, "Concluída", status="closed"), freelancer, status="accepted")
    make_application(db, make_job(db, company, "De outro"), other, status="accepted")
    db.add(Rating(application_id=done.id, rater_id=rival.id, ratee_id=freelancer.id, stars=5))
    db.add(Rating(application_id=done.id, rater_id=company.id, ratee_id=freelancer.id, stars=4))
    db.add(Rating(application_id=done.id, rater_id=freelancer.id, ratee_id=rival.id, stars=1))
    db.flush()

    overview = freelancer_dashboard.freelancer_overview(db, freelancer.id)

    assert overview["active_applications"] == 2  # pending + accepted on an open job; the finished one is completed
    assert overview["completed_jobs"] == 1
    assert overview["rating"] == "4,5"
    assert overview["rating_count"] == 2
    assert [i["done"] for i in overview["checklist"]] == [False, False, False, True, False]
    assert overview["checklist_percent"] == 20
