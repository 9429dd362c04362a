"""'Selo Empresa Pontual': the rule at every edge (core/punctuality.py) and on real hirings
(services/trust/punctuality.py, both databases): the figures, the badge, the timer's refresh and what the
list and the job page show without an extra query."""

from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from core.punctuality import HiringFacts, score
from core.types import utcnow
from models import HiringEvent, Profile, User
from services.jobs import category_companies, job_detail, job_list_cache, jobs, list_version
from services.trust import punctuality
from tests.support.factories import make_company, make_freelancer, make_hiring, make_job
from tests.support.sql_log import sent_statements
from tests.unit.trust.test_trust_visibility import _scope

GOOD = HiringFacts(answer_hours=6, happened=True)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("facts", "badge", "missing"),
    [
        ([GOOD] * 4, False, "Faltam 1 turno nos últimos 90 dias."),
        ([GOOD] * 5, True, None),
        ([HiringFacts(late_cancel=True)] + [GOOD] * 19, True, None),  # C = 5%
        ([HiringFacts(late_cancel=True)] + [GOOD] * 18, False, "Cancelamentos tardios até 5% (hoje: 5%)."),
        ([HiringFacts(answer_hours=24, happened=True)] * 5, True, None),  # A = 24 h
        ([HiringFacts(answer_hours=24.01, happened=True)] * 5, False,
         "Aprove as horas em até 24 h (mediana atual: 24,1 h)."),
        ([HiringFacts(answer_hours=48, happened=True)] * 3 + [GOOD] * 2, False,
         "Aprove as horas em até 24 h (mediana atual: 48 h)."),
        ([HiringFacts(happened=True)] * 5, False, "Aprove as horas de pelo menos um turno."),
        ([HiringFacts(answer_hours=6, adjusted=True, reversed=True, happened=True)]
         + [HiringFacts(answer_hours=6, adjusted=True, happened=True)] * 9, True, None),  # R = 10%
        ([HiringFacts(answer_hours=6, adjusted=True, reversed=True, happened=True)]
         + [HiringFacts(answer_hours=6, adjusted=True, happened=True)] * 8,
         False, "Ajustes de horas revertidos até 10% (hoje: 11%)."),
        ([HiringFacts()] * 20 + [GOOD], False, "Faltam 4 turnos nos últimos 90 dias."),  # cancelled: not shifts
        ([HiringFacts(late_cancel=True)] + [HiringFacts()] * 30 + [GOOD] * 5, False,
         "Cancelamentos tardios até 5% (hoje: 17%)."),  # early cancellations do not dilute a late one
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
    now = utcnow() + punctuality.IN_FLIGHT  # the writes above have settled
    assert punctuality.refresh_due(now, scope) >= 1
    db.expire_all()
    assert not db.get(Profile, company.id).selo_pontual
    assert punctuality.panel(db, company.id)["missing"] == ["Faltam 1 turno nos últimos 90 dias."]
    assert punctuality.refresh_due(now, scope) == 0  # nothing changed: nothing to do
    _hirings(db, company, 1)
    assert punctuality.refresh_due(now, scope) == 1
    db.expire_all()
    profile = db.get(Profile, company.id)
    assert profile.selo_pontual and "5 turnos em 90 dias" in profile.selo_resumo
    (item,) = [i for i in jobs.list_public_jobs(db).items if i["id"] == public.id]
    assert item["punctual"] is True
    assert item["punctual_summary"] == profile.selo_resumo  # the row's figures, from the list's own statement
    detail = job_detail.get_public_job(db, public.id)
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
    assert job_detail.get_public_job(db, hidden.id)["punctual"] is False
    assert [
        (i["punctual"], i["punctual_summary"]) for i in jobs.list_public_jobs(db).items if i["id"] == hidden.id
    ] == [(False, "")]


def test_the_job_page_reads_the_badge_in_its_one_statement(db):
    company = make_company(db)
    job = make_job(db, company, "Copeiro")
    db.commit()
    with sent_statements(db.get_bind()) as statements:
        job_detail.get_public_job(db, job.id)
    assert len([s for s in statements if "FROM jobs" in s]) == 1
    assert not db.exec(select(Profile.selo_pontual).where(Profile.user_id == company.id)).one()


def test_the_list_and_the_category_page_read_the_figures_in_the_statements_they_already_run(db):
    """The figures come with the badge's column: the list (docs/performance.md) and the category page add no query."""
    company = make_company(db)
    make_job(db, company, "Copeiro", categoria="eventos")
    _hirings(db, company, 5)
    punctuality.refresh(db, company.id, utcnow())
    db.commit()
    job_list_cache.clear()
    with sent_statements(db.get_bind()) as listed:
        jobs.list_public_jobs(db)
    with sent_statements(db.get_bind()) as grouped:
        category_companies.companies_in_category(db, "eventos")
    for statements in (listed, grouped):
        (shown,) = [s for s in statements if "profiles" in s]  # one statement reads the company's columns
        assert "selo_pontual" in shown and "selo_resumo" in shown


def _event(db: Session, hiring, action: str, at) -> None:
    db.add(HiringEvent(hiring_id=hiring.id, actor="empresa", action=action, at=at))


def test_the_figures_come_from_the_shift_loop_records(db):
    company, freelancer = make_company(db), make_freelancer(db)
    now = utcnow()
    start = now - timedelta(days=10)
    sent = {"horas_enviadas_em": start + 7 * H, "minutos_enviados": 360}
    for n in range(3):  # approved 5 h after the hours were sent
        _event(db, make_hiring(db, company, freelancer, start + n * H, **sent), "aprovar", start + 12 * H)
    automatic = make_hiring(db, company, freelancer, start, state="aprovada", **sent)
    _event(db, automatic, "aprovacao_automatica", start + 55 * H)  # counts 48 h, whenever the timer ran
    adjusted = {**sent, "ajuste_em": start + 9 * H, "minutos_ajuste": 300}  # answered in 2 h
    reversed_ = make_hiring(db, company, freelancer, start, minutos_aprovados=360, **adjusted)
    _event(db, reversed_, "contestar_ajuste", start + 20 * H)  # staff kept the freelancer's 6 h
    upheld = make_hiring(db, company, freelancer, start, minutos_aprovados=300, **adjusted)
    _event(db, upheld, "contestar_ajuste", start + 20 * H)  # staff kept the company's 5 h
    make_hiring(db, company, freelancer, start, state="ajuste_proposto", **adjusted)  # not contested
    make_hiring(db, company, freelancer, start, state="em_disputa", **adjusted)
    make_hiring(db, company, freelancer, start, state="cancelada_empresa", taxa_cancelamento_centavos=16000)
    make_hiring(db, company, freelancer, start, state="cancelada_empresa")  # more than 24 h before: no fee
    make_hiring(db, company, freelancer, start, state="aguardando_pagamento")  # never a shift
    make_hiring(db, company, freelancer, start, state="expirada")  # never a shift
    make_hiring(db, company, freelancer, now + H, state="confirmada")  # not started yet
    db.commit()

    result = punctuality.refresh(db, company.id, now)
    assert result.hirings == 6  # the shifts that happened: hours approved or paid
    assert result.late_cancel == pytest.approx(1 / 7)  # 1 late cancellation over 6 shifts and itself
    assert result.approval_hours == 3.5  # the median of 2, 2, 2, 2, 5, 5, 5 and 48
    assert result.reversed == pytest.approx(0.25)  # 1 of the 4 adjustments
    assert result.disputes == 1
    assert result.missing == [
        "Cancelamentos tardios até 5% (hoje: 14%).",
        "Ajustes de horas revertidos até 10% (hoje: 25%).",
        "Nenhuma disputa aberta.",
    ]


@pytest.mark.parametrize(("minutes", "counted"), [(-1, True), (1, False)])
def test_the_90_day_edge(db, minutes, counted):
    company, freelancer = make_company(db), make_freelancer(db)
    now = utcnow()
    make_hiring(db, company, freelancer, now - timedelta(days=90, minutes=minutes))
    db.commit()
    assert punctuality.refresh(db, company.id, now).hirings == (1 if counted else 0)


def _token(db: Session) -> str | None:
    with Session(db.get_bind()) as other:
        return list_version.current(other)


def test_the_list_token_moves_only_when_the_shown_figures_change(db):
    company = make_company(db)
    _hirings(db, company, 5)
    now = utcnow()
    before = _token(db)
    punctuality.refresh(db, company.id, now)
    db.commit()
    earned = _token(db)
    assert earned != before  # the badge appeared
    punctuality.refresh(db, company.id, now + H)
    db.commit()
    assert _token(db) == earned  # recomputed, the same figures: cached pages stay
    assert db.get(Profile, company.id).selo_em is not None
    _hirings(db, company, 1)
    after_sixth = _token(db)
    punctuality.refresh(db, company.id, now + 2 * H)
    db.commit()
    assert _token(db) != after_sixth  # '6 turnos em 90 dias'


def test_a_tick_takes_the_oldest_scores_first_at_most_a_batch(db):
    companies = [make_company(db) for _ in range(3)]
    make_company(db)  # no hirings: nothing to compute (its panel says what is missing)
    for company in companies:
        _hirings(db, company, 1)
    now = utcnow() + punctuality.IN_FLIGHT  # the writes above have settled
    assert len(punctuality.due(db, now, limit=2)) == 2  # never computed: all due, a batch at a time
    for company in companies:
        punctuality.refresh(db, company.id, now)
    db.commit()
    assert punctuality.due(db, now + H) == []
    db.execute(update(Profile).where(Profile.user_id == companies[1].id).values(selo_em=now - timedelta(days=2)))
    db.commit()
    assert punctuality.due(db, now + H) == [companies[1].id]  # a day old: the window slid
    _hirings(db, companies[2], 1)
    assert punctuality.due(db, now + H) == [companies[1].id, companies[2].id]  # and one whose hirings changed
    punctuality.refresh(db, companies[2].id, utcnow() + punctuality.IN_FLIGHT)
    db.commit()
    later = now + punctuality.REFRESH_EVERY + H  # all a day old: the oldest computation first
    assert punctuality.due(db, later) == [companies[1].id, companies[0].id, companies[2].id]


def test_a_change_committed_just_after_the_timer_read_is_seen_on_the_next_tick(db):
    company, freelancer = make_company(db), make_freelancer(db)
    now = utcnow()
    make_hiring(db, company, freelancer, now - timedelta(days=2), updated_at=now - timedelta(seconds=2))
    db.commit()
    punctuality.refresh(db, company.id, now - timedelta(seconds=1))  # read before the hiring's commit
    db.commit()
    assert punctuality.due(db, now) == [company.id]


def test_the_category_page_shows_the_badge(db):
    company = make_company(db)
    make_job(db, company, "Garçom", categoria="eventos")
    _hirings(db, company, 5)
    punctuality.refresh(db, company.id, utcnow())
    db.commit()
    (card,) = [c for c in category_companies.companies_in_category(db, "eventos").items if c["id"] == company.id]
    assert card["punctual"] is True
    assert card["punctual_summary"] == db.get(Profile, company.id).selo_resumo
    assert "5 turnos em 90 dias" in card["punctual_summary"]


def test_the_company_panel_says_what_is_missing_before_the_first_computation(db):
    company = make_company(db)
    db.commit()
    assert punctuality.panel(db, company.id) == {
        "badge": False,
        "summary": "Ainda sem turnos nos últimos 90 dias.",
        "missing": ["Faltam 5 turnos nos últimos 90 dias."],
    }


def _cancelled(db: Session, company: User, count: int, fee: int = 0) -> None:
    """Shifts of the company it cancelled itself (`fee` > 0: late, it owed the freelancer)."""
    freelancer = make_freelancer(db)
    start = utcnow() - timedelta(days=3)
    for n in range(count):
        make_hiring(db, company, freelancer, start - n * H, state="cancelada_empresa", taxa_cancelamento_centavos=fee)
    db.commit()


def test_shifts_the_company_cancelled_itself_never_earn_the_badge(db):
    """Issue 41, point 7: nine shifts cancelled by the company and one worked do not make five."""
    company = make_company(db)
    _hirings(db, company, 1)  # one shift worked, its hours approved 4 h after they were sent
    _cancelled(db, company, 9)  # more than 24 h before: free, and no evidence of anything
    result = punctuality.refresh(db, company.id, utcnow())
    db.commit()
    assert (result.badge, result.hirings) == (False, 1)
    assert "Faltam 4 turnos nos últimos 90 dias." in result.missing
    assert not db.get(Profile, company.id).selo_pontual


def test_a_company_that_cancels_everything_has_no_badge(db):
    company = make_company(db)
    _cancelled(db, company, 6)
    _cancelled(db, company, 2, fee=16000)
    result = punctuality.refresh(db, company.id, utcnow())
    assert (result.badge, result.hirings, result.late_cancel) == (False, 0, 1.0)


def test_early_cancellations_do_not_dilute_the_late_ones(db):
    company = make_company(db)
    _hirings(db, company, 5)
    _cancelled(db, company, 1, fee=16000)
    _cancelled(db, company, 30)  # cancelled more than 24 h ahead: neither for nor against
    result = punctuality.refresh(db, company.id, utcnow())
    assert result.late_cancel == pytest.approx(1 / 6)
    assert not result.badge and "Cancelamentos tardios até 5% (hoje: 17%)." in result.missing


def test_hours_left_unanswered_past_48_hours_count_as_waited(db):
    """Hours above the schedule wait for the company (never the timer): its silence still counts."""
    company, freelancer = make_company(db), make_freelancer(db)
    _hirings(db, company, 5)  # approved 4 h after sending
    now = utcnow()
    for n in range(5):
        sent = now - timedelta(hours=100 + n)
        make_hiring(db, company, freelancer, sent - 8 * H, state="horas_enviadas", horas_enviadas_em=sent)
    make_hiring(db, company, freelancer, now - 20 * H, state="horas_enviadas", horas_enviadas_em=now - 10 * H)
    db.commit()
    result = punctuality.refresh(db, company.id, now)
    assert result.approval_hours == pytest.approx((4 + 100) / 2)  # five 4 h answers, five of 100-104 h waited
    assert not result.badge
