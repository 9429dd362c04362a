"""'Selo Empresa Pontual': the rule at every edge (core/punctuality.py) and on real hirings
(services/punctuality.py, both databases): the figures, the badge, the timer's refresh and what the
list and the job page show without an extra query."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from core.punctuality import HiringFacts, score
from core.types import utcnow
from models import HiringEvent, Profile, User
from services import jobs, punctuality
from tests.unit.factories import make_company, make_freelancer, make_hiring, make_job
from tests.unit.sql_log import sent_statements
from tests.unit.test_trust_visibility import _scope

GOOD = HiringFacts(answer_hours=6)


@pytest.mark.parametrize(
    ("facts", "badge", "missing"),
    [
        ([GOOD] * 4, False, "Faltam 1 turno nos últimos 90 dias."),
        ([GOOD] * 5, True, None),
        ([HiringFacts(late_cancel=True)] + [GOOD] * 19, True, None),  # C = 5%
        ([HiringFacts(late_cancel=True)] + [GOOD] * 18, False, "Cancelamentos tardios até 5% (hoje: 5%)."),
        ([HiringFacts(answer_hours=24)] * 5, True, None),  # A = 24 h
        ([HiringFacts(answer_hours=24.5)] * 5, False, "Aprove as horas em até 24 h (mediana atual: 24 h)."),
        ([HiringFacts(answer_hours=48)] * 3 + [GOOD] * 2, False, "Aprove as horas em até 24 h (mediana atual: 48 h)."),
        ([HiringFacts()] * 5, False, "Aprove as horas de pelo menos um turno."),
        ([HiringFacts(answer_hours=6, adjusted=True, reversed=True)] + [HiringFacts(answer_hours=6, adjusted=True)] * 9,
         True, None),  # R = 10%
        ([HiringFacts(answer_hours=6, adjusted=True, reversed=True)] + [HiringFacts(answer_hours=6, adjusted=True)] * 8,
         False, "Ajustes de horas revertidos até 10% (hoje: 11%)."),
        ([HiringFacts(answer_hours=6, disputed=True)] + [GOOD] * 9, False, "Nenhuma disputa aberta."),
    ],
)  # fmt: skip
def test_the_badge_at_each_threshold(facts, badge, missing):
    result = score(facts)
    assert result.badge is badge
    if missing:
        assert missing in result.missing
    else:
        assert result.missing == []


def test_the_summary_line():
    result = score([GOOD] * 12)
    assert result.summary == (
        "0% de cancelamentos tardios · horas aprovadas em 6 h (mediana) · sem disputas abertas · 12 turnos em 90 dias"
    )


def _hirings(db: Session, company: User, count: int, days_ago: int = 5, answer_hours: int = 4, state: str = "paga"):
    freelancer = make_freelancer(db)
    now = utcnow()
    for n in range(count):
        start = now - timedelta(days=days_ago, hours=n)
        hiring = make_hiring(db, company, freelancer, start, state=state, horas_enviadas_em=start + timedelta(hours=7))
        db.add(
            HiringEvent(
                hiring_id=hiring.id,
                actor="empresa",
                action="aprovar",
                at=start + timedelta(hours=7 + answer_hours),
            )
        )
    db.commit()


def test_the_timer_gives_the_badge_after_the_fifth_well_run_shift_and_the_list_shows_it(db):
    company = make_company(db, empresa="Bar Pontual")
    public = make_job(db, company, "Bartender para sábado")
    _hirings(db, company, 4)
    scope = _scope(db)
    assert punctuality.refresh_due(utcnow(), scope) >= 1
    db.expire_all()
    assert not db.get(Profile, company.id).selo_pontual
    assert punctuality.panel(db, company.id)["missing"] == ["Faltam 1 turno nos últimos 90 dias."]
    assert punctuality.refresh_due(utcnow(), scope) == 0  # nothing changed: nothing to do
    _hirings(db, company, 1)
    assert punctuality.refresh_due(utcnow(), scope) == 1
    db.expire_all()
    profile = db.get(Profile, company.id)
    assert profile.selo_pontual and "5 turnos em 90 dias" in profile.selo_resumo
    (item,) = [i for i in jobs.list_public_jobs(db).items if i["id"] == public.id]
    assert item["punctual"] is True
    detail = jobs.get_public_job(db, public.id)
    assert detail["punctual"] and detail["punctual_summary"] == profile.selo_resumo
    assert punctuality.panel(db, company.id)["badge"] is True


def test_slow_approvals_and_old_shifts_do_not_earn_it(db):
    slow, old = make_company(db), make_company(db)
    _hirings(db, slow, 5, answer_hours=30)
    _hirings(db, old, 5, days_ago=91)
    now = utcnow()
    assert punctuality.refresh(db, slow.id, now).approval_hours == 30
    assert punctuality.refresh(db, old.id, now).hirings == 0
    db.commit()
    assert not db.get(Profile, slow.id).selo_pontual and not db.get(Profile, old.id).selo_pontual


def test_an_anonymous_vaga_shows_no_badge(db):
    company = make_company(db)
    hidden = make_job(db, company, "Recepcionista", anuncio_anonimo=True)
    _hirings(db, company, 5)
    punctuality.refresh(db, company.id, utcnow())
    db.commit()
    assert jobs.get_public_job(db, hidden.id)["punctual"] is False
    assert [i["punctual"] for i in jobs.list_public_jobs(db).items if i["id"] == hidden.id] == [False]


def test_the_job_page_reads_the_badge_in_its_one_statement(db):
    company = make_company(db)
    job = make_job(db, company, "Copeiro")
    db.commit()
    with sent_statements(db.get_bind()) as statements:
        jobs.get_public_job(db, job.id)
    assert len([s for s in statements if "FROM jobs" in s]) == 1
    assert not db.exec(select(Profile.selo_pontual).where(Profile.user_id == company.id)).one()
