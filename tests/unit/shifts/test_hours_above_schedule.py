"""Hours the timer never approves (issue 41, point 5): above the schedule, or above the records by more
than the tolerance (core/shift_rules.py HOURS_RECORDS_TOLERANCE, 15 min) when both were recorded.

The attack: a freelancer who checked out the same minute they arrived sent 16:00 on a 7-hour shift;
48 hours of the company's silence approved them, Turno transferred what was paid and asked the company
for a complement. Now those hours wait for a person (the company, or Turno staff in a dispute); each
side's card says why, and no money moves until the company answers. A fake clock drives the timer.
"""

from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import select

from models import Hiring, HiringEvent
from services.money import payments
from services.screens import shift_views
from services.shifts import hiring_rules
from services.timer.clock import tick
from tests.support.factories import make_cast
from tests.support.shift_helpers import MIN, H, by_company, by_freelancer, hire, hiring, notices
from tests.unit.money.test_protected_payments import _accept, _checkout, _ledger, _pay, _settle

COMPANY_NOTE = "Horas acima do agendado: aprove ou ajuste"
FREELANCER_NOTE = "Horas acima do agendado: aguardando aprovação da empresa"
RECORDS_COMPANY_NOTE = "Horas acima dos registros de chegada e saída: aprove ou ajuste"


@pytest.fixture
def cast(db):
    return make_cast(db)


def _worked(db, s, hours: str, left_after: timedelta | None, arrived_after: timedelta = timedelta(0)):
    """Arrive `arrived_after` the start, leave `left_after` it (None: no exit recorded), send `hours`.

    Returns:
        When the hours were sent.
    """
    by_freelancer(db, s, "chegada", s.start + arrived_after, method="manual")
    if left_after is None:
        tick(s.end + 4 * H)  # the timer ends it at F + 4 h ('saída não registrada')
        sent = s.end + 5 * H
    else:
        by_freelancer(db, s, "saida", s.start + left_after, method="manual")
        sent = s.start + left_after + H
    by_freelancer(db, s, "enviar_horas", sent, hours=hours)
    return sent


def _actions(db, hiring_id: int) -> list[str]:
    return list(db.exec(select(HiringEvent.action).where(HiringEvent.hiring_id == hiring_id)).all())


def test_the_timer_never_approves_16_hours_sent_after_leaving_the_minute_one_arrived(db, cast):
    s = hire(db, cast.company, cast.freelancer)  # 8 h with a 1 h break: 7 h scheduled
    sent = _worked(db, s, "16:00", left_after=timedelta(0))
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_enviados, h.due_at) == ("horas_enviadas", 960, None)

    for later in (48 * H, 49 * H, timedelta(days=30)):
        tick(sent + later)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("horas_enviadas", None, None)
    assert "aprovacao_automatica" not in _actions(db, s.hiring_id)
    assert notices(db, cast.company.id)[-1] == (
        'As horas do turno "Garçom" estão acima do agendado e aguardam sua aprovação: aprove ou ajuste.'
    )
    assert not any("automática" in text or "automaticamente" in text for text in notices(db, cast.company.id))


@pytest.mark.parametrize(
    ("hours", "left_after", "arrived_after", "waits"),
    [
        ("7:00", timedelta(hours=8), timedelta(0), ""),  # as scheduled and as recorded
        ("7:01", timedelta(hours=9), timedelta(0), "agendado"),  # the records show 8 h: still above the schedule
        ("0:15", timedelta(0), timedelta(0), ""),  # records say 0 min: the 15-minute tolerance
        ("0:16", timedelta(0), timedelta(0), "registros"),
        ("5:30", timedelta(0), timedelta(0), "registros"),  # within the schedule, nothing recorded
        ("5:15", timedelta(hours=6), timedelta(0), ""),  # 6 h stay - 1 h break = 5 h recorded, + 15 min
        ("5:16", timedelta(hours=6), timedelta(0), "registros"),
        ("7:00", None, timedelta(hours=3), ""),  # no exit recorded: only the schedule bounds the hours
        ("7:01", None, timedelta(hours=3), "agendado"),
    ],
)
def test_which_hours_wait_for_a_person(db, cast, hours, left_after, arrived_after, waits):
    s = hire(db, cast.company, cast.freelancer)
    sent = _worked(db, s, hours, left_after, arrived_after)
    h = hiring(db, s.hiring_id)
    assert hiring_rules.hours_need_company(h) == waits

    tick(sent + 48 * H)
    h = hiring(db, s.hiring_id)
    assert h.state == ("horas_enviadas" if waits else "aprovada")
    assert ("aprovacao_automatica" in _actions(db, s.hiring_id)) is not bool(waits)


def test_a_row_due_before_the_rule_is_left_for_the_company(db, cast):
    """A hiring whose automatic approval was scheduled before this rule is not approved: its deadline goes."""
    s = hire(db, cast.company, cast.freelancer)
    sent = _worked(db, s, "16:00", left_after=timedelta(0))
    db.execute(update(Hiring).where(Hiring.id == s.hiring_id).values(due_at=sent + 48 * H))
    db.commit()

    assert tick(sent + 48 * H).moved == 0
    h = hiring(db, s.hiring_id)
    assert (h.state, h.due_at) == ("horas_enviadas", None)


def test_each_card_says_why_the_hours_wait_and_the_company_can_still_adjust_after_48_hours(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    sent = _worked(db, s, "16:00", left_after=timedelta(0))
    now = sent + 60 * H

    (company_card,) = shift_views.company_shifts(db, cast.company.id, now)[0]
    (freelancer_card,) = shift_views.freelancer_shifts(db, cast.freelancer.id, now)[0]
    assert company_card["hours_note"] == COMPANY_NOTE
    assert freelancer_card["hours_note"] == FREELANCER_NOTE
    assert [a["label"] for a in company_card["actions"]] == ["Aprovar horas", "Ajustar horas"]

    by_company(db, s, "ajustar", now, hours="7:00", reason="Saída registrada no mesmo minuto da chegada.")
    by_freelancer(db, s, "aceitar_ajuste", now + H)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 420, 21000)
    (company_card,) = shift_views.company_shifts(db, cast.company.id, now + H)[0]
    assert company_card["hours_note"] == ""


def test_hours_above_the_records_say_so_on_the_company_card(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    _worked(db, s, "5:30", left_after=timedelta(0))
    (card,) = shift_views.company_shifts(db, cast.company.id, s.end + 2 * H)[0]
    assert card["hours_note"] == RECORDS_COMPANY_NOTE


def test_no_money_moves_for_unapproved_hours_and_the_company_s_approval_pays_as_before(db, fake):
    shift = _accept(db, fake)  # R$ 30/h, 7 h scheduled: R$ 210,00 + 12 % paid at acceptance
    payment = _pay(db, fake, shift)
    sent = _worked(db, shift, "16:00", left_after=timedelta(0))

    for later in (48 * H, 49 * H, timedelta(days=10)):
        tick(sent + later)
    h = hiring(db, shift.hiring_id)
    assert (h.state, h.repasse_em, h.valor_centavos) == ("horas_enviadas", None, None)
    assert not fake.transfers and not fake.refunds
    assert payments.top_up_due(db, h) is None
    with pytest.raises(payments.PaymentError):
        _checkout(db, shift)  # no 'Pagar complemento' before the company approved
    (card,) = shift_views.company_shifts(db, shift.company.id, sent + 49 * H)[0]
    assert (card["pay_label"], card["hours_note"]) == ("", COMPANY_NOTE)
    totals = _ledger(db, shift.hiring_id)
    assert (totals["repasse"], totals["estorno"], totals["taxa"]) == (0, 0, 0)

    by_company(db, shift, "aprovar", sent + 50 * H)  # the company itself approves the 16 h
    assert _settle(db, shift) == "complemento"
    (transfer,) = fake.transfers.values()
    assert (transfer["amount"], transfer["source_transaction"]) == (21000, payment.charge_id)
    due = payments.top_up_due(db, hiring(db, shift.hiring_id))
    assert (due.freelancer_centavos, due.fee_centavos) == (48000 - 21000, 3240)


def test_hours_within_the_schedule_are_still_approved_and_paid_by_the_timer(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    sent = _worked(db, shift, "7:00", left_after=8 * H)
    tick(sent + 48 * H)
    assert hiring(db, shift.hiring_id).state == "paga"
    (transfer,) = fake.transfers.values()
    assert transfer["amount"] == 21000


def test_the_tolerance_is_a_quarter_hour(db):
    from core import shift_rules

    assert shift_rules.HOURS_RECORDS_TOLERANCE == 15 * MIN
