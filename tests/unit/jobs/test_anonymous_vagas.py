"""Issue 41, point 3: an anonymous ('Confidencial') vaga never leads to its company (both databases).

Before, 'Não quero trabalhar com esta empresa' took any company id ('Empresa não encontrada' for the
rest) and hid the company's anonymous vagas too, so avoiding half of the companies at a time found
who published a 'Confidencial' vaga in log2(n) steps. Now a freelancer avoids a company only
through what already shows its name to them (a named vaga, a shift of theirs), their own block
leaves the company's anonymous vagas alone, and an anonymous vaga is hidden by itself with 'Não
quero ver esta vaga' (services/trust/blocks.py, services/jobs/visibility.py, docs/product/trust.md "Bloqueios").
"""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

import models
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from app.pages.job_detail.state import JobDetailState
from core.types import utcnow
from models import Application, Block, Job, User
from services.common.errors import NotAllowed
from services.jobs import job_detail, visibility
from services.privacy import data_export
from services.shifts import applications
from services.trust import blocks
from tests.support.factories import (
    make_application,
    make_company,
    make_freelancer,
    make_hiring,
    make_job,
    make_subscription,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts
from tests.unit.trust.test_trust_visibility import _alerted, _listed, _publish

H = timedelta(hours=1)
ERROR = "error: Não foi possível atualizar o bloqueio | "


def _refused() -> str:
    """The one answer to every id that cannot be used (a company's, a freelancer's, an anonymous vaga's, none)."""
    return ERROR + blocks.UNAVAILABLE


def _sees(db: Session, freelancer: User, job: Job) -> bool:
    """Whether the freelancer meets the vaga: in the list (their own filters) and on its page."""
    db.expire_all()
    listed = job.id in _listed(db, visibility.viewer_facts(db, freelancer.id).hidden)
    page = job_detail.job_for_viewer(db, job.id, freelancer.id) is not None
    assert listed == page, "the list and the page must agree"
    return listed


def _on_page(db: Session, freelancer: User, job_id: int) -> JobDetailState:
    return state_for(JobDetailState, cookie_for(db, freelancer), f"/jobs/{job_id}")


def test_a_raw_call_with_a_company_id_avoids_nothing(db):
    """Every 'avoid' handler a freelancer's dashboard answers, called with a bare company id, writes nothing."""
    company, other = make_company(db, empresa="Hotel Sol"), make_company(db, empresa="Hotel Lua")
    make_job(db, company, "Garçom")
    make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    freelancer, someone_else = make_freelancer(db), make_freelancer(db)
    their_shift = make_hiring(db, company, someone_else, utcnow() - 48 * H)  # another freelancer's shift
    db.commit()
    home = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {})
    avoiders = [name for name in FreelancerDashboardState.event_handlers if "avoid" in name]
    assert avoiders
    answers = set()
    for name in avoiders:
        handler = FreelancerDashboardState.event_handlers[name]
        for bare in (company.id, other.id, someone_else.id, their_shift.id, 987654):  # none theirs to use
            answers.add(tuple(toasts(run(home, handler, bare))))
    assert db.exec(select(Block)).all() == []
    assert answers == {(_refused(),)}  # one answer, whatever the id is: ids say nothing


def test_an_anonymous_vaga_cannot_be_used_to_avoid_its_company(db):
    company = make_company(db, empresa="Hotel Sol")
    anonymous = make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    closed = make_job(db, company, "Copeiro", status="closed")
    freelancer = make_freelancer(db)
    db.commit()
    answers = {
        tuple(toasts(run(_on_page(db, freelancer, job_id), JobDetailState.avoid_company)))
        for job_id in (anonymous.id, closed.id, 987654)
    }
    assert answers == {(_refused(),)}
    for job_id in (anonymous.id, closed.id, 987654):
        with pytest.raises(NotAllowed) as refused:
            blocks.avoid_company_of_job(db, freelancer.id, job_id)
        db.rollback()
        assert refused.value.message == blocks.UNAVAILABLE
    assert db.exec(select(Block)).all() == []
    assert _sees(db, freelancer, anonymous)


def test_a_named_vaga_avoids_its_company_but_not_its_anonymous_vagas(db):
    company = make_company(db, empresa="Hotel Sol")
    named, other_named = make_job(db, company, "Garçom"), make_job(db, company, "Copeiro")
    anonymous = make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    freelancer = make_freelancer(db)
    to_named, to_anonymous = make_application(db, named, freelancer), make_application(db, anonymous, freelancer)
    db.commit()
    to_named_id, to_anonymous_id = to_named.id, to_anonymous.id

    page = _on_page(db, freelancer, named.id)
    assert toasts(run(page, JobDetailState.avoid_company)) == [f"success: {blocks.AVOIDED}"]
    db.expire_all()
    assert [(row.blocker_id, row.blocked_id) for row in db.exec(select(Block)).all()] == [(freelancer.id, company.id)]
    assert not _sees(db, freelancer, named) and not _sees(db, freelancer, other_named)
    # The anonymous vaga stays in every way: listed, its page, and the application to it.
    assert _sees(db, freelancer, anonymous)
    assert db.get(Application, to_named_id) is None  # withdrawn
    assert db.get(Application, to_anonymous_id).status == "pending"
    assert applications.applied_job_ids(db, freelancer.id, [anonymous.id]) == [anonymous.id]


def test_blocking_halves_of_the_companies_no_longer_finds_who_published_an_anonymous_vaga(db):
    """The attack of issue 41: avoid half of the companies, look for the 'Confidencial' vaga, repeat."""
    companies = [make_company(db, empresa=f"Empresa {n}") for n in range(8)]
    named = {company.id: make_job(db, company, f"Garçom {n}") for n, company in enumerate(companies)}
    secret = companies[5]
    anonymous = make_job(db, secret, "Recepcionista", anuncio_anonimo=True)
    attacker = make_freelancer(db)
    db.commit()

    candidates, seen_in_every_probe = [c.id for c in companies], []
    while len(candidates) > 1:
        half = candidates[: len(candidates) // 2]
        for company_id in half:  # 'Não quero trabalhar com esta empresa' on each one's named vaga
            run(_on_page(db, attacker, named[company_id].id), JobDetailState.avoid_company)
        db.expire_all()
        assert {row.blocked_id for row in db.exec(select(Block)).all()} == set(half)  # the blocks were made
        seen = _sees(db, attacker, anonymous)
        seen_in_every_probe.append(seen)
        for company_id in half:
            blocks.allow_company(db, attacker.id, company_id)
        db.commit()
        candidates = candidates[len(half) :] if seen else half

    # Before the fix the anonymous vaga vanished exactly when its company was avoided: 3 probes found
    # 'Empresa 5'. Now it is there whatever is avoided, so the probes answer nothing.
    assert seen_in_every_probe == [True, True, True]
    assert candidates != [secret.id]


def test_not_wanting_an_anonymous_vaga_hides_that_vaga_alone(db):
    company = make_company(db, empresa="Hotel Sol")
    anonymous = make_job(db, company, "Recepcionista noturno", anuncio_anonimo=True)
    another_anonymous = make_job(db, company, "Camareira", anuncio_anonimo=True)
    named = make_job(db, company, "Garçom")
    freelancer, other = make_freelancer(db), make_freelancer(db)
    pending = make_application(db, anonymous, freelancer)
    db.commit()
    pending_id = pending.id

    page = _on_page(db, freelancer, anonymous.id)
    events = run(page, JobDetailState.hide_job)
    assert toasts(events) == [f"success: {blocks.JOB_HIDDEN}"]
    assert toasts(run(page, JobDetailState.hide_job)) == [f"success: {blocks.JOB_HIDDEN}"]  # twice: no change
    assert not _sees(db, freelancer, anonymous)
    assert _sees(db, freelancer, another_anonymous) and _sees(db, freelancer, named)  # not the company
    assert _sees(db, other, anonymous)  # nobody else's list changes
    assert db.exec(select(Block)).all() == []
    assert db.get(Application, pending_id) is None  # their pending application to it is withdrawn
    with pytest.raises(NotAllowed):
        applications.apply(db, freelancer.id, "freelancer", anonymous.id, {})
    db.rollback()

    # The overview lists it by title, never by company, and 'Voltar a ver esta vaga' brings it back.
    home = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "overview"})
    run(home, FreelancerDashboardState.load)
    assert [(job.id, job.title) for job in home.hidden_jobs] == [(anonymous.id, "Recepcionista noturno")]
    assert "Hotel Sol" not in repr(home.hidden_jobs) and home.avoided_companies == []
    assert data_export.export_user_data(db, freelancer.id)["vagas_ocultas"][0]["vaga"] == "Recepcionista noturno"
    assert toasts(run(home, FreelancerDashboardState.show_job, anonymous.id)) == [f"success: {blocks.JOB_SHOWN}"]
    assert home.hidden_jobs == []
    assert _sees(db, freelancer, anonymous)


def test_a_stranger_cannot_show_or_hide_for_another_freelancer(db):
    company = make_company(db)
    anonymous = make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    held = make_job(db, company, "Garçom da equipe", equipe_ate=utcnow() + 6 * H)  # team-first: not theirs to see
    freelancer, stranger = make_freelancer(db), make_freelancer(db)
    db.commit()
    blocks.hide_job(db, freelancer.id, anonymous.id)
    db.commit()
    for caller in (stranger, company, None):
        tab = state_for(FreelancerDashboardState, cookie_for(db, caller), "/freelancer-dashboard", {})
        assert toasts(run(tab, FreelancerDashboardState.show_job, anonymous.id)) == [_refused()]
    assert not _sees(db, freelancer, anonymous) and _sees(db, stranger, anonymous)
    # A vaga not shown to the caller (held for a team, missing) cannot be hidden, with the same answer:
    # its title never reaches their list.
    answers = {
        tuple(toasts(run(_on_page(db, stranger, job_id), JobDetailState.hide_job))) for job_id in (held.id, 987654)
    }
    assert answers == {(_refused(),)}
    with pytest.raises(NotAllowed):
        blocks.hide_job(db, company.id, anonymous.id)  # companies do not hide vagas
    db.rollback()
    rows = db.exec(select(models.HiddenJob.freelancer_id, models.HiddenJob.job_id)).all()
    assert [tuple(row) for row in rows] == [(freelancer.id, anonymous.id)]


def test_a_freelancers_own_block_still_sends_the_alerts_of_anonymous_vagas(db):
    """What hides a vaga hides its alert, and no more: the avoided company's anonymous vagas still alert."""
    company, freelancer = make_company(db), make_freelancer(db, localizacao="Curitiba, PR")
    make_subscription(db, company, tier="premium")
    freelancer.email_confirmed_at = utcnow()
    first = make_job(db, company, "Garçom")
    db.commit()
    blocks.avoid_company_of_job(db, freelancer.id, first.id)
    db.commit()
    assert freelancer.id not in _alerted(db, _publish(db, company, "Nomeada"))
    assert freelancer.id in _alerted(db, _publish(db, company, "Anônima", anuncio_anonimo="on"))
