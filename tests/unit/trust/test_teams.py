"""'Minha equipe' (services/trust/teams.py and its handlers): who may be added, the plan's size, the tab.

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
from services.common.errors import NotAllowed, ServiceError
from services.privacy import data_export
from services.trust import reliability, teams
from tests.support.factories import (
    make_application,
    make_company,
    make_freelancer,
    make_hiring,
    make_job,
    make_subscription,
)
from tests.support.sql_log import sent_statements
from tests.support.state_harness import cookie_for, run, state_for, toasts


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
    assert teams.team(db, company.id).size_text == "101 profissionais no plano Enterprise, sem limite"


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
    assert data_export.export_user_data(db, company.id)["equipe"][0]["turnos"] == "2 turnos com a sua empresa"
    teams.remove(db, company.id, freelancer.id)
    db.commit()
    assert _members(db, company) == []
    with pytest.raises(NotAllowed):
        teams.remove(db, company.id, freelancer.id)
    db.rollback()


def _team_of(db: Session, company: User, size: int, elsewhere: User) -> list[User]:
    """`size` members of the company's team, each with a different attendance record (committed).

    Member n did n % 3 + 2 paid shifts, arriving late to one when n is odd; every third one also
    missed a shift; the first also did 22 older shifts for `elsewhere` (reliability counts every
    company's shifts, the last 20 only; the two oldest are no-shows); the company rated the even ones.
    """
    now = utcnow()
    people = []
    for n in range(size):
        person = make_freelancer(db, nome=f"Membro {n}")
        for k in range(n % 3 + 2):
            start = now - timedelta(days=2 * k + 1, hours=n)
            late = timedelta(minutes=20) if n % 2 and k == 0 else timedelta(0)
            hiring = make_hiring(db, company, person, start, chegada_em=start + late)
            if n % 2 == 0 and k == 0:
                db.add(Rating(application_id=hiring.application_id, rater_id=company.id, ratee_id=person.id, stars=4))
        if n % 3 == 0:
            make_hiring(db, company, person, now - timedelta(days=30, hours=n), state="nao_compareceu")
        if n == 0:
            for k in range(22):  # the two oldest are no-shows, outside the last 20
                start = now - timedelta(days=60 + k)
                if k >= 20:
                    make_hiring(db, elsewhere, person, start, state="nao_compareceu")
                else:
                    make_hiring(db, elsewhere, person, start, chegada_em=start)
        db.add(TeamMember(company_id=company.id, freelancer_id=person.id, added_at=now - timedelta(minutes=n)))
        people.append(person)
    db.commit()
    return people


def test_the_tab_reads_the_same_number_of_statements_for_2_and_20_members(db):
    """Reliability is read for the whole team at once: 20 members cost what 2 do (audit: 7 vs 25 before)."""
    small, large, elsewhere = make_company(db), make_company(db), make_company(db)
    make_subscription(db, large, tier="premium")  # 20 members: above the free plan's 10
    _team_of(db, small, 2, elsewhere)
    people = _team_of(db, large, 20, elsewhere)
    counts, views = {}, {}
    for company in (small, large):
        db.commit()
        with sent_statements(db.get_bind()) as statements:
            views[company.id] = teams.team(db, company.id)
        counts[company.id] = statements
    print(f"team tab: {len(counts[small.id])} statements for 2 members, {len(counts[large.id])} for 20")
    assert len(counts[small.id]) == len(counts[large.id]) <= 5, counts
    view = views[large.id]
    assert len(view.members) == 20 and view.size_text == "20 de 100 profissionais no plano Premium"
    # The batched read says what the profile's one-person read says, member by member.
    by_id = {member.id: member for member in view.members}
    assert {person.id: by_id[person.id].reliability for person in people} == {
        person.id: reliability.summary(db, person.id) for person in people
    }
    first, second = by_id[people[0].id], by_id[people[1].id]
    assert first.reliability == "Comparecimento 95% · Pontualidade 100% · 20 turnos"  # 88% over all 25
    assert (first.shifts, first.stars) == ("2 turnos com a sua empresa", "Sua avaliação média: 4,0")
    assert second.reliability == "Comparecimento 100% · Pontualidade 67% · 3 turnos"
    assert by_id[people[3].id].reliability == "Comparecimento 67% · Pontualidade 50% · 3 turnos"
    assert by_id[people[2].id].reliability == "Comparecimento 100% · Pontualidade 100% · 4 turnos"


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
