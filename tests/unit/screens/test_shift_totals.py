"""'R$ 165,00 pelo turno' before work (issue 42, point 9): the estimate and where each screen carries it.

The estimate is services.jobs.shift_pay.shift_total_text: (end - start - break) x rate, half-up to the
centavo; a guaranteed vaga's fee (services.pricing.fee at the plan's percent) is shown to
the company only.
"""

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace

from app.api.first_paint import job_article
from core.types import utcnow
from services.jobs import job_detail, jobs, pricing, shift_pay
from services.screens import company_dashboard, shift_views
from tests.support.factories import make_company, make_freelancer, make_hiring, make_job

START = datetime(2026, 12, 12, 21, 0, tzinfo=UTC)  # sáb., 12/12 18:00 in São Paulo


def _vaga(minutes: int, break_min: int = 0, rate: str | None = "30.00", start: datetime = START) -> SimpleNamespace:
    value = Decimal(rate) if rate is not None else None
    end = start + timedelta(minutes=minutes)
    return SimpleNamespace(inicio_em=start, fim_em=end, intervalo_min=break_min, valor_hora=value)


def test_the_total_is_the_paid_hours_times_the_rate():
    assert shift_pay.shift_total_text(_vaga(5 * 60 + 30, 30, "33.00")) == "R$ 165,00 pelo turno"
    assert shift_pay.shift_total_centavos(_vaga(8 * 60, 60, "30.00")) == 21000


def test_odd_minutes_round_half_up_to_the_centavo():
    # 337 min x R$ 22,50 = 12637,5 centavos
    assert shift_pay.shift_total_text(_vaga(337, 0, "22.50")) == "R$ 126,38 pelo turno"


def test_a_vaga_without_a_rate_shows_no_total():
    assert shift_pay.shift_total_text(_vaga(8 * 60, 60, None)) == ""
    assert shift_pay.shift_total_centavos(_vaga(8 * 60, 60, None)) is None
    hiring = SimpleNamespace(inicio_em=START, fim_em=START + timedelta(hours=4), intervalo_min=0, valor_hora_centavos=0)
    assert shift_pay.shift_total_text(hiring) == ""


def test_a_vaga_without_times_shows_no_total():
    assert shift_pay.shift_total_text(SimpleNamespace(inicio_em=None, fim_em=None, valor_hora=Decimal("30"))) == ""


def test_an_overnight_shift_counts_the_hours_past_midnight():
    overnight = _vaga(6 * 60, 0, "25.00", start=datetime(2026, 12, 13, 1, 0, tzinfo=UTC))  # 22:00–04:00
    assert shift_pay.shift_total_text(overnight) == "R$ 150,00 pelo turno"
    same_day_end = SimpleNamespace(
        inicio_em=overnight.inicio_em,
        fim_em=overnight.fim_em - timedelta(days=1),
        intervalo_min=0,
        valor_hora_centavos=2500,
    )
    assert shift_pay.shift_total_text(same_day_end) == "R$ 150,00 pelo turno"


def test_a_hiring_uses_its_own_rate_in_centavos():
    hiring = SimpleNamespace(
        inicio_em=START, fim_em=START + timedelta(hours=6), intervalo_min=30, valor_hora_centavos=3000
    )
    assert shift_pay.shift_total_text(hiring) == "R$ 165,00 pelo turno"


def test_the_fee_line_uses_the_turno_fee():
    vaga = _vaga(5 * 60 + 30, 30, "33.00")
    assert pricing.estimate_fee_text(vaga, 12) == "+ R$ 19,80 de taxa do Turno"
    assert pricing.estimate_fee_text(vaga, 12) == shift_pay.fee_text(pricing.fee(16500, 12))
    assert pricing.estimate_fee_text(_vaga(60, 0, None), 12) == ""


def _public_vaga(db, **fields):
    company = make_company(db)
    start = (utcnow() + timedelta(days=3)).replace(second=0, microsecond=0)
    job = make_job(
        db,
        company,
        "Garçom total",
        inicio_em=start,
        fim_em=start + timedelta(hours=6),
        intervalo_min=30,
        **{"valor_hora": Decimal("30.00"), **fields},
    )
    db.commit()
    return company, job


def test_the_public_list_and_the_job_page_carry_the_total(db):
    _company, job = _public_vaga(db)
    items = [item for item in jobs.list_public_jobs(db).items if item["id"] == job.id]
    assert items[0]["total"] == "R$ 165,00 pelo turno"
    detail = job_detail.get_public_job(db, job.id)
    assert detail["total"] == "R$ 165,00 pelo turno"
    assert detail["when"] and detail["when"] in detail["shift"]
    viewer = job_detail.job_for_viewer(db, job.id, make_freelancer(db).id)
    assert (viewer["total"], viewer["when"]) == (detail["total"], detail["when"])
    assert "R$ 165,00 pelo turno" in job_article(detail, "Turno")


def test_a_vaga_a_combinar_has_no_total_on_the_list_or_page(db):
    _company, job = _public_vaga(db, valor_hora=None)
    items = [item for item in jobs.list_public_jobs(db).items if item["id"] == job.id]
    assert items[0]["total"] == ""
    detail = job_detail.get_public_job(db, job.id)
    assert detail["total"] == ""
    assert "Total estimado" not in job_article(detail, "Turno")


def test_the_company_sees_its_guaranteed_vaga_total_and_fee(db):
    company, job = _public_vaga(db, pagamento="garantido")
    direct = make_job(db, company, "Direto", valor_hora=Decimal("30.00"))
    db.commit()
    rows = {row["id"]: row for row in company_dashboard.company_jobs(db, company.id)}
    assert rows[job.id]["total"] == "R$ 165,00 pelo turno"
    assert rows[job.id]["fee"] == "+ R$ 19,80 de taxa do Turno"
    assert rows[direct.id]["fee"] == ""


def _shift(db, mode: str):
    company, freelancer = make_company(db), make_freelancer(db)
    start = (utcnow() + timedelta(days=2)).replace(second=0, microsecond=0)
    make_hiring(
        db,
        company,
        freelancer,
        start,
        state="agendada",
        hours=6,
        intervalo_min=30,
        valor_hora_centavos=3000,
        pagamento=mode,
    )
    db.commit()
    return company, freelancer


def test_the_shift_cards_carry_the_estimate_and_only_the_company_the_fee(db):
    company, freelancer = _shift(db, "garantido")
    mine, _done = shift_views.freelancer_shifts(db, freelancer.id, utcnow())
    assert (mine[0]["estimate"], mine[0]["estimate_fee"]) == ("R$ 165,00 pelo turno", "")
    theirs, _done = shift_views.company_shifts(db, company.id, utcnow())
    assert (theirs[0]["estimate"], theirs[0]["estimate_fee"]) == ("R$ 165,00 pelo turno", "+ R$ 19,80 de taxa do Turno")


def test_a_direct_shift_card_has_no_fee(db):
    company, _freelancer = _shift(db, "direto")
    theirs, _done = shift_views.company_shifts(db, company.id, utcnow())
    assert (theirs[0]["estimate"], theirs[0]["estimate_fee"]) == ("R$ 165,00 pelo turno", "")
