"""Team-first vagas and blocks: who sees and may apply to what, through every path (both databases).

'Oferecer primeiro à minha equipe' (services/jobs/team_first.py) and 'Bloquear profissional' / 'Não
quero trabalhar com esta empresa' (services/trust/blocks.py); the rule itself is services/jobs/visibility.py.
Every path a vaga reaches a person by is checked: the cached list and search, the category's
companies, the company filter, the job page (app and first paint), the sitemap, the apply handler,
the team-first list and the new-vaga alerts.
"""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.api.public_pages import job_page_answer
from app.pages.client_dashboard import ClientDashboardState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from app.pages.job_detail.state import JobDetailState
from core.types import utcnow
from models import Application, Block, Invite, Job, Notification, NotificationType, OutboxEmail, TeamMember, User
from services.common.errors import NotAllowed, ServiceError
from services.jobs import category_companies, company_jobs, job_detail, jobs, sitemap, team_first, visibility
from services.privacy import data_export
from services.shifts import applications
from services.timer import trust_steps
from services.trust import blocks
from tests.security.policies import JOB_FORM
from tests.support.factories import (
    make_application,
    make_company,
    make_freelancer,
    make_hiring,
    make_job,
    make_subscription,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts

H = timedelta(hours=1)


def _scope(db: Session):
    """A session factory on the test's engine, committing like core.db.session_scope."""
    from contextlib import contextmanager

    @contextmanager
    def scope():
        with Session(db.get_bind()) as session:
            yield session
            session.commit()

    return scope


def _member(db: Session, company: User, freelancer: User) -> None:
    db.add(TeamMember(company_id=company.id, freelancer_id=freelancer.id, added_at=utcnow()))
    db.commit()


def _publish(db: Session, company: User, title: str = "Garçom para evento", **fields) -> Job:
    """Publish through the service (the form's fields), committed."""
    data = {**JOB_FORM, "titulo": title, "localizacao": "Curitiba, PR", **fields}
    job_id = company_jobs.create_job(db, company.id, data)
    db.commit()
    return db.get(Job, job_id)


def _listed(db: Session, hidden: visibility.Hidden = visibility.NOTHING_HIDDEN, **filters) -> list[int]:
    return [item["id"] for item in jobs.list_public_jobs(db, hidden=hidden, **filters).items]


def _alerted(db: Session, job: Job) -> set[int]:
    return set(
        db.exec(
            select(Notification.user_id).where(
                Notification.type == NotificationType.JOB_ALERT, Notification.target_id == job.id
            )
        ).all()
    )


@pytest.mark.parametrize(
    ("hours_left", "window_hours"),
    [(100, 12), (48, 12), (40, 10), (8, 2), (2, 0.5), (0, 0), (-3, 0)],
)
def test_the_window_is_the_smaller_of_12_hours_and_a_quarter_of_the_time_left(hours_left, window_hours):
    now = utcnow()
    assert team_first.window(now, now + hours_left * H) == window_hours * H


def test_a_team_first_vaga_is_seen_by_the_team_alone_until_the_timer_opens_it(db, heard):
    company = make_company(db, empresa="Bar do Zé")
    member, outsider = make_freelancer(db, nome="Rita"), make_freelancer(db, nome="Caio")
    _member(db, company, member)
    heard.clear()
    job = _publish(db, company, equipe_primeiro="on")
    assert job.equipe_ate is not None and job.equipe_ate - utcnow() <= 12 * H

    # The team hears at once, in the app, live and by e-mail; nobody else is alerted yet.
    assert _alerted(db, job) == {member.id}
    (notice,) = db.exec(select(Notification).where(Notification.user_id == member.id)).all()
    assert notice.message.startswith('Vaga para a sua equipe: "Garçom para evento". Só a equipe vê até ')
    pinged = {ping.user_id for batch in heard for ping in batch}  # the publication's committed pings
    assert member.id in pinged and outsider.id not in pinged
    (email,) = db.exec(select(OutboxEmail).where(OutboxEmail.to_email == member.email)).all()
    assert email.subject == f"Turno: {notice.message}"
    assert notice.message in email.body and f"http://turno.test/jobs/{job.id}" in email.body
    assert db.exec(select(OutboxEmail).where(OutboxEmail.to_email == outsider.email)).all() == []

    # Outsiders: no list, search, category, company filter, sitemap, page (404 like a missing vaga) or apply.
    assert job.id not in _listed(db) + _listed(db, search="garçom") + _listed(db, company_id=company.id)
    assert all(c["id"] != company.id for c in category_companies.companies_in_category(db, "eventos").items)
    assert job.id not in [job_id for job_id, _at in sitemap.open_jobs(db, 1)]
    assert (
        job_detail.job_for_viewer(db, job.id, None) is None
        and job_detail.job_for_viewer(db, job.id, outsider.id) is None
    )
    assert not job_detail.job_exists(db, job.id)
    assert job_page_answer(f"/jobs/{job.id}", job.id, outsider.id).status == 404
    with pytest.raises(NotAllowed) as refused:
        applications.apply(db, outsider.id, "freelancer", job.id, {})
    db.rollback()
    assert refused.value.message == applications.JOB_UNAVAILABLE
    assert jobs.team_first_items(db, outsider.id) == []

    # The member (and the company itself) see it, and the member applies.
    assert job_detail.job_for_viewer(db, job.id, member.id)["title"] == "Garçom para evento"
    assert job_detail.job_for_viewer(db, job.id, company.id) is not None
    assert job_page_answer(f"/jobs/{job.id}", job.id, member.id).status == 200
    assert [item["id"] for item in jobs.team_first_items(db, member.id)] == [job.id]
    applications.apply(db, member.id, "freelancer", job.id, {})
    db.commit()

    # The timer opens it when the window ends (not before), once.
    scope = _scope(db)
    assert team_first.open_due(job.equipe_ate - timedelta(seconds=1), scope) == 0
    assert trust_steps.run(job.equipe_ate, scope) >= 1
    assert team_first.open_due(job.equipe_ate, scope) == 0
    db.expire_all()
    assert db.get(Job, job.id).equipe_ate is None
    assert job.id in _listed(db) and job_detail.job_for_viewer(db, job.id, outsider.id) is not None
    assert jobs.team_first_items(db, member.id) == []
    applications.apply(db, outsider.id, "freelancer", job.id, {})
    db.commit()


def test_team_first_needs_a_team_and_time_and_writes_nothing_otherwise(db):
    company, member = make_company(db), make_freelancer(db)
    db.commit()
    with pytest.raises(ServiceError) as refused:
        _publish(db, company, equipe_primeiro="on")
    db.rollback()
    assert refused.value.message == team_first.NO_TEAM
    assert db.exec(select(Job).where(Job.cliente_id == company.id)).all() == []
    _member(db, company, member)
    # The form refuses shifts under 2 h away (MIN_LEAD), so every published vaga gets at least 30
    # minutes; the service still refuses a shorter window on its own.
    close = make_job(db, company, inicio_em=utcnow() + 90 * timedelta(minutes=1))
    with pytest.raises(ServiceError) as refused:
        team_first.offer(db, close, utcnow())
    db.rollback()
    assert refused.value.message == team_first.TOO_LATE
    plain = _publish(db, company)  # unticked: public at once
    assert plain.equipe_ate is None and plain.id in _listed(db)


def _applied_freelancer(db: Session, company: User, title: str = "Bartender") -> tuple[User, Job, Application]:
    freelancer = make_freelancer(db, nome="Paulo Reis")
    job = make_job(db, company, title)
    application = make_application(db, job, freelancer)
    db.commit()
    return freelancer, job, application


def test_a_blocked_freelancer_sees_no_vaga_of_the_company_anywhere_and_cannot_apply(db):
    company, other = make_company(db, empresa="Hotel Sol"), make_company(db, empresa="Hotel Lua")
    freelancer, job, application = _applied_freelancer(db, company)
    anonymous = make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    others = make_job(db, other, "Cozinheiro")
    _member(db, company, freelancer)
    db.commit()

    blocks.block_freelancer(db, company.id, freelancer.id)
    db.commit()
    db.refresh(application)
    assert application.status == "rejected"
    assert db.exec(select(TeamMember).where(TeamMember.company_id == company.id)).all() == []

    hidden = visibility.hidden_for(db, freelancer.id)
    assert hidden == visibility.Hidden(companies=frozenset({company.id}))
    assert set(_listed(db, hidden)) == {others.id}  # the anonymous one too: the company chose this block
    assert set(_listed(db)) == {job.id, anonymous.id, others.id}  # everyone else still sees them
    assert [c["id"] for c in category_companies.companies_in_category(db, "eventos", hidden=hidden).items] == [other.id]
    for vaga in (job, anonymous):
        assert job_detail.job_for_viewer(db, vaga.id, freelancer.id) is None
        assert job_page_answer(f"/jobs/{vaga.id}", vaga.id, freelancer.id).status != 200
        with pytest.raises(NotAllowed):
            applications.apply(db, freelancer.id, "freelancer", vaga.id, {})
        db.rollback()
    assert job_detail.job_for_viewer(db, others.id, freelancer.id) is not None
    # The blocked vaga's page reads as unavailable, and its similar vagas leave the company out.
    page = state_for(JobDetailState, cookie_for(db, freelancer), f"/jobs/{job.id}")
    run(page, JobDetailState.load)
    assert (page.found, page.gone, [item["id"] for item in page.similar]) == (False, True, [others.id])
    assert {item["id"] for item in job_detail.similar_to_unavailable(db, job.id)} == {anonymous.id, others.id}

    # Unblocking gives everything back (except the refused application).
    assert [person.name for person in blocks.blocked_by(db, company.id)] == ["Paulo Reis"]
    blocks.unblock_freelancer(db, company.id, freelancer.id)
    db.commit()
    assert visibility.hidden_for(db, freelancer.id) == visibility.NOTHING_HIDDEN
    assert job_detail.job_for_viewer(db, anonymous.id, freelancer.id) is not None


def test_a_company_blocks_only_people_who_applied_to_it(db):
    company, stranger_company = make_company(db), make_company(db)
    freelancer, _job, _application = _applied_freelancer(db, company)
    unknown = make_freelancer(db)
    for who, whom in ((company, unknown), (stranger_company, freelancer), (freelancer, freelancer)):
        with pytest.raises(NotAllowed):
            blocks.block_freelancer(db, who.id, whom.id)
        db.rollback()
    assert db.exec(select(Block)).all() == []
    with pytest.raises(NotAllowed) as refused:
        blocks.unblock_freelancer(db, company.id, freelancer.id)
    db.rollback()
    assert refused.value.message == blocks.NOT_BLOCKED


def test_a_freelancer_who_does_not_want_a_company_withdraws_and_stops_seeing_it(db):
    company = make_company(db, empresa="Buffet Alegria")
    freelancer, job, application = _applied_freelancer(db, company)
    application_id = application.id
    private = make_job(db, company, "Garçom (convite)", privada=True)
    db.add(
        Invite(
            job_id=private.id,
            company_id=company.id,
            freelancer_id=freelancer.id,
            expires_at=utcnow() + 24 * H,
        )
    )
    db.commit()
    blocks.avoid_company_of_job(db, freelancer.id, job.id)
    db.commit()
    db.expire_all()
    assert db.exec(select(Application).where(Application.id == application_id)).first() is None  # withdrawn
    invite = db.exec(select(Invite).where(Invite.job_id == private.id)).one()
    assert invite.status == "cancelado"
    db.refresh(private)
    assert private.vaga_status == "closed"
    assert job_detail.job_for_viewer(db, job.id, freelancer.id) is None
    assert [row.name for row in blocks.blocked_by(db, freelancer.id)] == ["Buffet Alegria"]
    assert data_export.export_user_data(db, freelancer.id)["bloqueios"][0]["nome"] == "Buffet Alegria"
    # A company's own block stays when the freelancer undoes theirs, and the other way round.
    blocks.allow_company(db, freelancer.id, company.id)
    db.commit()
    assert job_detail.job_for_viewer(db, job.id, freelancer.id) is not None
    for refused_call in (
        lambda: blocks.avoid_company_of_job(db, freelancer.id, 987654),  # no such vaga
        lambda: blocks.avoid_company_of_job(db, company.id, job.id),  # not a freelancer
        lambda: blocks.allow_company(db, freelancer.id, company.id),  # nothing to undo
    ):
        with pytest.raises(NotAllowed):
            refused_call()
        db.rollback()


def test_the_new_vaga_alert_skips_blocked_freelancers(db):
    company, freelancer = make_company(db), make_freelancer(db, localizacao="Curitiba, PR")
    make_subscription(db, company, tier="premium")  # three vagas: above the free plan's two
    freelancer.email_confirmed_at = utcnow()
    make_application(db, make_job(db, company), freelancer)
    db.commit()
    first = _publish(db, company, "Primeira")
    assert freelancer.id in _alerted(db, first)
    blocks.block_freelancer(db, company.id, freelancer.id)
    db.commit()
    second = _publish(db, company, "Segunda")
    assert freelancer.id not in _alerted(db, second)


def test_the_companies_a_freelancer_works_with_most(db):
    freelancer = make_freelancer(db)
    often, once, avoided = make_company(db, empresa="Bar A"), make_company(db, empresa="Bar B"), make_company(db)
    for company, count in ((often, 3), (once, 1), (avoided, 4)):
        for n in range(count):
            shift = make_hiring(db, company, freelancer, utcnow() - timedelta(days=n + 1))
    db.commit()
    blocks.avoid_company_of_hiring(db, freelancer.id, shift.id)  # the last shift: with `avoided`
    db.commit()
    lists = blocks.freelancer_companies(db, freelancer.id)
    assert [c.id for c in lists.avoided] == [avoided.id]
    assert [(c.name, c.shifts) for c in lists.worked_with] == [
        ("Bar A", "3 turnos pagos"),
        ("Bar B", "1 turno pago"),
    ]


# --- the handlers -------------------------------------------------------------------------------------


def test_the_block_handlers_and_the_tab(db):
    company = make_company(db)
    freelancer, _job, _application = _applied_freelancer(db, company)
    tab = state_for(ClientDashboardState, cookie_for(db, company), "/client-dashboard", {"tab": "team"})
    run(tab, ClientDashboardState.load)
    assert toasts(run(tab, ClientDashboardState.block_freelancer, freelancer.id)) == [f"success: {blocks.BLOCKED}"]
    assert [person.id for person in tab.blocked_people] == [freelancer.id]
    assert toasts(run(tab, ClientDashboardState.unblock_freelancer, freelancer.id)) == [f"success: {blocks.UNBLOCKED}"]
    assert tab.blocked_people == []


def test_the_overview_lists_the_companies_the_freelancer_works_with_most(db):
    """'Empresas com quem você mais trabalha' on the overview: by paid shifts, most first, theirs only."""
    freelancer, other = make_freelancer(db), make_freelancer(db)
    often, sometimes, once = (make_company(db, empresa=name) for name in ("Bar A", "Bar B", "Bar C"))
    theirs = make_company(db, empresa="Bar do Outro")
    now = utcnow()
    for company, count in ((once, 1), (often, 3), (sometimes, 2)):
        for n in range(count):
            make_hiring(db, company, freelancer, now - timedelta(days=n + 1))
    make_hiring(db, once, freelancer, now + timedelta(days=2), state="agendada")  # not paid yet: not counted
    for company, count in ((sometimes, 4), (theirs, 6)):  # the other freelancer's shifts
        for n in range(count):
            make_hiring(db, company, other, now - timedelta(days=n + 1))
    db.commit()

    home = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "overview"})
    run(home, FreelancerDashboardState.load)
    assert [(c.id, c.name, c.shifts) for c in home.worked_with] == [
        (often.id, "Bar A", "3 turnos pagos"),
        (sometimes.id, "Bar B", "2 turnos pagos"),
        (once.id, "Bar C", "1 turno pago"),
    ]
    theirs_home = state_for(
        FreelancerDashboardState, cookie_for(db, other), "/freelancer-dashboard", {"tab": "overview"}
    )
    run(theirs_home, FreelancerDashboardState.load)
    assert [(c.name, c.shifts) for c in theirs_home.worked_with] == [
        ("Bar do Outro", "6 turnos pagos"),
        ("Bar B", "4 turnos pagos"),
    ]
    for user in (None, often):  # a visitor and a company get no list
        stranger = state_for(
            FreelancerDashboardState, cookie_for(db, user), "/freelancer-dashboard", {"tab": "overview"}
        )
        run(stranger, FreelancerDashboardState.load)
        assert stranger.worked_with == []
    assert home.worked_with[0].id == often.id
    often_shift = home.worked_with[0].hiring_id
    assert toasts(run(home, FreelancerDashboardState.avoid_worked_company, often_shift)) == [
        f"success: {blocks.AVOIDED}"
    ]
    assert [c.name for c in home.worked_with] == ["Bar B", "Bar C"]
    assert [c.id for c in home.avoided_companies] == [often.id]


def test_strangers_cannot_block_or_unblock_for_a_company_or_avoid_for_a_freelancer(db):
    company, stranger = make_company(db), make_company(db)
    freelancer, _job, _application = _applied_freelancer(db, company)
    shift = make_hiring(db, company, freelancer, utcnow() - 48 * H)
    blocks.block_freelancer(db, company.id, freelancer.id)
    db.commit()
    as_stranger = state_for(ClientDashboardState, cookie_for(db, stranger), "/client-dashboard", {"tab": "team"})
    assert toasts(run(as_stranger, ClientDashboardState.unblock_freelancer, freelancer.id)) == [
        f"error: Não foi possível atualizar o bloqueio | {blocks.NOT_BLOCKED}"
    ]
    assert toasts(run(as_stranger, ClientDashboardState.block_freelancer, freelancer.id)) == [
        f"error: Não foi possível atualizar o bloqueio | {blocks.CANNOT_BLOCK}"
    ]
    as_freelancer = state_for(ClientDashboardState, cookie_for(db, freelancer), "/client-dashboard", {"tab": "team"})
    run(as_freelancer, ClientDashboardState.unblock_freelancer, freelancer.id)
    visitor = state_for(FreelancerDashboardState, cookie_for(db, None), "/freelancer-dashboard", {})
    run(visitor, FreelancerDashboardState.avoid_worked_company, shift.id)
    as_company = state_for(FreelancerDashboardState, cookie_for(db, stranger), "/freelancer-dashboard", {})
    run(as_company, FreelancerDashboardState.avoid_worked_company, shift.id)
    rows = db.exec(select(Block.blocker_id, Block.blocked_id)).all()
    assert [tuple(row) for row in rows] == [(company.id, freelancer.id)]
