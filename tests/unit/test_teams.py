"""'Minha equipe' (services/teams.py and its handlers): who may be added, the plan's size, the tab.

Paid shifts are fixture rows (`Hiring(state='paga')`): the steps that lead there are tested in the
shift-loop tests. Both databases.
"""

import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.pages.client_dashboard import ClientDashboardState
from core.types import utcnow
from models import Hiring, Rating, TeamMember, User
from services import privacy, teams
from services.errors import NotAllowed, ServiceError
from tests.unit.factories import make_application, make_company, make_freelancer, make_job, make_subscription
from tests.unit.state_harness import cookie_for, run, state_for, toasts


def _shift(db: Session, company: User, freelancer: User, state: str = "paga", **fields) -> Hiring:
    """A hiring of `company` worked by `freelancer`, already in `state` (a fixture row)."""
    job = make_job(db, company, "Garçom")
    application = make_application(db, job, freelancer, status="accepted")
    db.flush()
    values = {
        "application_id": application.id,
        "job_id": job.id,
        "company_id": company.id,
        "freelancer_id": freelancer.id,
        "inicio_em": job.inicio_em,
        "fim_em": job.fim_em,
        "valor_hora_centavos": 3000,
    }
    hiring = Hiring(state=state, **{**values, **fields})
    db.add(hiring)
    db.commit()
    return hiring


def _members(db: Session, company: User) -> list[int]:
    return list(db.exec(select(TeamMember.freelancer_id).where(TeamMember.company_id == company.id)).all())


def test_a_freelancer_who_did_a_paid_shift_joins_once(db):
    company, freelancer = make_company(db), make_freelancer(db, nome="Rita Souza", profissao="Bartender")
    _shift(db, company, freelancer)
    teams.add(db, company.id, freelancer.id, utcnow())
    teams.add(db, company.id, freelancer.id, utcnow())  # again: harmless
    db.commit()
    assert _members(db, company) == [freelancer.id]
    view = teams.team(db, company.id)
    (member,) = view.members
    assert (member.name, member.profession, member.shifts) == ("Rita Souza", "Bartender", "1 turno com a sua empresa")
    assert view.size_text == "1 de 10 profissionais no plano Gratuito" and not view.full


@pytest.mark.parametrize("state", ["agendada", "aprovada", "cancelada_empresa", "nao_compareceu"])
def test_only_a_paid_shift_makes_someone_eligible(db, state):
    company, freelancer = make_company(db), make_freelancer(db)
    _shift(db, company, freelancer, state=state)
    with pytest.raises(NotAllowed) as refused:
        teams.add(db, company.id, freelancer.id, utcnow())
    db.rollback()
    assert refused.value.message == teams.NOT_ELIGIBLE
    assert _members(db, company) == []


def test_another_companys_freelancer_cannot_be_added(db):
    company, other, freelancer = make_company(db), make_company(db), make_freelancer(db)
    _shift(db, other, freelancer)
    with pytest.raises(NotAllowed):
        teams.add(db, company.id, freelancer.id, utcnow())
    db.rollback()
    with pytest.raises(NotAllowed):  # a freelancer cannot have a team
        teams.add(db, freelancer.id, freelancer.id, utcnow())
    db.rollback()
    assert db.exec(select(TeamMember)).all() == []


@pytest.mark.parametrize(("tier", "limit", "plan"), [(None, 10, "Gratuito"), ("premium", 100, "Premium")])
def test_the_plan_limits_the_team_and_says_so(db, tier, limit, plan):
    company = make_company(db)
    if tier:
        make_subscription(db, company, tier=tier)
    now = utcnow()
    db.add_all(
        TeamMember(company_id=company.id, freelancer_id=make_freelancer(db).id, added_at=now) for _ in range(limit)
    )
    one_more = make_freelancer(db)
    _shift(db, company, one_more)
    with pytest.raises(ServiceError) as refused:
        teams.add(db, company.id, one_more.id, now)
    db.rollback()
    assert refused.value.message == f"Sua equipe chegou ao limite de {limit} profissionais do plano {plan}."
    assert len(_members(db, company)) == limit
    view = teams.team(db, company.id)
    assert view.full and view.size_text == f"{limit} de {limit} profissionais no plano {plan}"


def test_enterprise_has_no_limit(db):
    company, freelancer = make_company(db), make_freelancer(db)
    make_subscription(db, company, tier="enterprise")
    db.add_all(
        TeamMember(company_id=company.id, freelancer_id=make_freelancer(db).id, added_at=utcnow()) for _ in range(100)
    )
    _shift(db, company, freelancer)
    teams.add(db, company.id, freelancer.id, utcnow())
    db.commit()
    assert teams.team(db, company.id).size_text == "101 profissionais"


def test_two_tabs_adding_at_the_limit_add_one(db):
    company = make_company(db)
    now = utcnow()
    db.add_all(TeamMember(company_id=company.id, freelancer_id=make_freelancer(db).id, added_at=now) for _ in range(9))
    last = [make_freelancer(db), make_freelancer(db)]
    for freelancer in last:
        _shift(db, company, freelancer)
    engine = db.get_bind()
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def add(freelancer_id: int) -> None:
        with Session(engine) as session:
            barrier.wait()
            try:
                teams.add(session, company.id, freelancer_id, now)
                session.commit()
                outcomes.append("added")
            except ServiceError:
                session.rollback()
                outcomes.append("full")

    threads = [threading.Thread(target=add, args=(f.id,)) for f in last]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["added", "full"]
    assert len(_members(db, company)) == 10


def test_the_tab_shows_the_stars_the_company_gave_and_removing_works(db):
    company, freelancer = make_company(db), make_freelancer(db)
    first = _shift(db, company, freelancer)
    second = _shift(db, company, freelancer, inicio_em=utcnow() - timedelta(days=9))
    for hiring, stars in ((first, 5), (second, 4)):
        db.add(Rating(application_id=hiring.application_id, rater_id=company.id, ratee_id=freelancer.id, stars=stars))
    db.commit()
    teams.add(db, company.id, freelancer.id, utcnow())
    db.commit()
    (member,) = teams.team(db, company.id).members
    assert (member.shifts, member.stars) == ("2 turnos com a sua empresa", "Sua avaliação média: 4,5")
    assert privacy.export_user_data(db, company.id)["equipe"][0]["turnos"] == "2 turnos com a sua empresa"
    teams.remove(db, company.id, freelancer.id)
    db.commit()
    assert _members(db, company) == []
    with pytest.raises(NotAllowed):
        teams.remove(db, company.id, freelancer.id)
    db.rollback()


# --- the handlers -------------------------------------------------------------------------------------


def _dashboard(db: Session, user: User | None, tab: str = "shifts") -> ClientDashboardState:
    return state_for(ClientDashboardState, cookie_for(db, user), "/client-dashboard", {"tab": tab})


def test_adicionar_a_equipe_on_a_paid_card_and_the_tab(db):
    company, freelancer = make_company(db), make_freelancer(db, nome="Caio Lima")
    hiring = _shift(db, company, freelancer, pago_em=utcnow())
    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)
    (card,) = state.shifts_history
    assert card["team"] == "add"
    events = run(state, ClientDashboardState.add_to_team, hiring.id)
    assert toasts(events) == ["success: Adicionado à equipe"]
    assert state.shifts_history[0]["team"] == "member"
    tab = _dashboard(db, company, "team")
    run(tab, ClientDashboardState.load)
    assert [m.name for m in tab.team_members] == ["Caio Lima"]
    assert toasts(run(tab, ClientDashboardState.remove_from_team, freelancer.id)) == ["success: Removido da equipe"]
    assert tab.team_members == []


def test_a_stranger_cannot_add_someone_elses_shift_or_remove_from_another_team(db):
    company, stranger, freelancer = make_company(db), make_company(db), make_freelancer(db)
    hiring = _shift(db, company, freelancer, pago_em=utcnow())
    db.add(TeamMember(company_id=company.id, freelancer_id=freelancer.id, added_at=utcnow()))
    db.commit()
    state = _dashboard(db, stranger)
    assert toasts(run(state, ClientDashboardState.add_to_team, hiring.id)) == [
        "error: Não foi possível atualizar sua equipe | Turno não encontrado."
    ]
    assert toasts(run(state, ClientDashboardState.remove_from_team, freelancer.id)) == [
        "error: Não foi possível atualizar sua equipe | Este profissional não está na sua equipe."
    ]
    freelancer_state = _dashboard(db, freelancer)
    run(freelancer_state, ClientDashboardState.add_to_team, hiring.id)
    assert _members(db, company) == [freelancer.id] and _members(db, stranger) == []
