"""services/money/earnings.py: 'Meus ganhos' per shift, the year's totals and the MEI limit."""

from datetime import UTC, datetime, timedelta

import pytest

from core.shift_rules import MEI_ANNUAL_LIMIT_CENTAVOS
from models import Hiring, HiringState, PayoutAccount
from services.money import earnings
from tests.support.factories import make_application, make_cast, make_job

NOW = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)
S = HiringState


@pytest.fixture
def cast(db):
    return make_cast(db)


def _shift(db, cast, title: str, state: str, start: datetime, freelancer=None, **fields) -> Hiring:
    """A hiring already in `state` (a fixture row, as a migration would write it)."""
    worker = freelancer or cast.freelancer
    job = make_job(db, cast.company, title, inicio_em=start)
    application = make_application(db, job, worker, status="accepted")
    row = Hiring(
        application_id=application.id,
        job_id=job.id,
        company_id=cast.company.id,
        freelancer_id=worker.id,
        state=state,
        inicio_em=start,
        fim_em=start + timedelta(hours=5),
        valor_hora_centavos=2500,
        **fields,
    )
    db.add(row)
    db.flush()
    return row


def test_each_shift_says_where_its_money_is(db, cast):
    march = datetime(2026, 3, 10, 12, tzinfo=UTC)
    _shift(db, cast, "Garçom", S.PAID, march, valor_centavos=12500, pago_em=march + timedelta(days=2))
    _shift(db, cast, "Barista", S.APPROVED, NOW - timedelta(days=2), valor_centavos=10000)
    _shift(db, cast, "Recepção", S.HOURS_SENT, NOW - timedelta(days=1), minutos_enviados=240)
    _shift(db, cast, "Copeira", S.CANCELLED_BY_COMPANY, NOW + timedelta(hours=5), taxa_cancelamento_centavos=10000)
    _shift(db, cast, "Bartender", S.SCHEDULED, NOW + timedelta(days=3))  # no money yet
    _shift(db, cast, "Cumim", S.PAID, march, freelancer=cast.other, valor_centavos=99999)  # someone else's
    db.commit()

    view = earnings.for_freelancer(db, cast.freelancer.id, NOW)

    shown = {row["title"]: (row["amount"], row["status"]) for row in view["rows"]}
    assert shown == {
        "Copeira": ("R$ 100,00", "Taxa de cancelamento tardio: a empresa deve pagar"),
        "Recepção": ("R$ 100,00", "Aguardando aprovação"),
        "Barista": ("R$ 100,00", "Aguardando pagamento da empresa"),
        "Garçom": ("R$ 125,00", "Pago em 12/03"),
    }
    assert [row["title"] for row in view["rows"]] == ["Copeira", "Recepção", "Barista", "Garçom"]  # newest first
    assert (view["received"], view["to_receive"], view["waiting"]) == ("R$ 125,00", "R$ 200,00", "R$ 100,00")
    assert view["year"] == 2026 and view["is_mei"] is False


def test_a_shift_paid_last_year_does_not_count_this_year(db, cast):
    december = datetime(2025, 12, 20, 12, tzinfo=UTC)
    _shift(db, cast, "Réveillon", S.PAID, december, valor_centavos=50000, pago_em=december, updated_at=december)
    db.commit()
    view = earnings.for_freelancer(db, cast.freelancer.id, NOW)
    assert view["received"] == "R$ 0,00" and view["rows"] == []


def test_a_shift_paid_on_new_years_eve_in_brasilia_counts_in_that_year(db, cast):
    eve = datetime(2027, 1, 1, 2, 30, tzinfo=UTC)  # 31/12/2026 23:30 in Brasília
    _shift(db, cast, "Réveillon", S.PAID, eve - timedelta(hours=6), valor_centavos=50000, recebido_em=eve)
    db.commit()
    assert earnings.for_freelancer(db, cast.freelancer.id, NOW)["received"] == "R$ 500,00"
    assert earnings.for_freelancer(db, cast.freelancer.id, NOW + timedelta(days=40))["received"] == "R$ 0,00"


@pytest.mark.parametrize(("paid", "percent", "warning"), [(0, 0, False), (6_479_999, 79, False), (6_480_000, 80, True)])
def test_a_mei_sees_the_year_against_the_mei_limit(db, cast, paid, percent, warning):
    db.add(PayoutAccount(user_id=cast.freelancer.id, cpf="52998224725", regime="mei", mei_cnpj="11222333000181"))
    if paid:
        _shift(
            db, cast, "Garçom", S.PAID, NOW - timedelta(days=3), valor_centavos=paid, pago_em=NOW - timedelta(days=1)
        )
    db.commit()
    view = earnings.for_freelancer(db, cast.freelancer.id, NOW)
    assert view["is_mei"] and view["mei_percent"] == percent and view["mei_warning"] is warning
    assert view["mei_limit"] == "R$ 81.000,00" and MEI_ANNUAL_LIMIT_CENTAVOS == 8_100_000
    assert view["mei_text"].startswith(f"Você recebeu pelo Turno {view['received']} em 2026: {percent}% do limite")


def test_a_late_cancellation_fee_owed_last_year_still_shows_and_counts_once_paid(db, cast):
    december = datetime(2025, 12, 20, 12, tzinfo=UTC)
    fee = _shift(db, cast, "Réveillon", S.CANCELLED_BY_COMPANY, december, taxa_cancelamento_centavos=10000)
    fee.updated_at = december
    db.add(fee)
    db.commit()
    view = earnings.for_freelancer(db, cast.freelancer.id, NOW)
    assert [(r["title"], r["status"]) for r in view["rows"]] == [
        ("Réveillon", "Taxa de cancelamento tardio: a empresa deve pagar")
    ]
    assert view["to_receive"] == "R$ 100,00"

    fee.recebido_em = NOW - timedelta(days=1)
    db.add(fee)
    db.commit()
    view = earnings.for_freelancer(db, cast.freelancer.id, NOW)
    assert [r["status"] for r in view["rows"]] == [f"Taxa de cancelamento paga em {NOW - timedelta(days=1):%d/%m}"]
    assert (view["received"], view["to_receive"]) == ("R$ 100,00", "R$ 0,00")
