"""What a shift pays and what cancelling costs (services/jobs/shift_pay.py), in integer centavos.

The examples of docs/product/shifts.md "Turnos" §4 as tables. No database is involved: these are the pure
rules services/shifts/shifts.py and services/shifts/shift_timer.py apply.
"""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from models import Hiring
from services.jobs import shift_pay
from services.jobs.shift_pay import HOURS_FORMAT
from services.shifts.shifts import approved_values, prefilled_minutes

H = timedelta(hours=1)
MIN = timedelta(minutes=1)
SEC = timedelta(seconds=1)
START = datetime(2031, 5, 12, 13, 0, tzinfo=UTC)


# --- pay ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "rate", "centavos"),
    [
        (450, 2555, 19163),  # 7h30 at R$ 25,55 = R$ 191,625 -> R$ 191,63 (half-up)
        (480, 3000, 24000),
        (420, 3000, 21000),
        (1, 1, 0),  # 1/60 of a centavo
        (29, 1, 0),  # 0.483...
        (30, 1, 1),  # exactly half a centavo rounds up
        (90, 1, 2),  # 1.5 -> 2 (half-up, not half-even)
        (150, 1, 3),  # 2.5 -> 3 (half-up, not half-even)
        (1, 2555, 43),  # 42.58...
        (0, 2555, 0),
        (16 * 60, 999_999, 15_999_984),
    ],
)
def test_pay_is_minutes_times_the_hourly_rate_rounded_half_up(minutes, rate, centavos):
    assert shift_pay.pay(minutes, rate) == centavos
    assert isinstance(shift_pay.pay(minutes, rate), int)


@pytest.mark.parametrize(
    ("start", "end", "break_min", "minutes"),
    [
        (START, START + 8 * H + 30 * MIN, 60, 450),  # 8h30 with a 1 h break: 7h30
        (START, START + 8 * H, 60, 420),
        (START, START + 3 * H, 0, 180),
        (START, START + 2 * H, 120, 0),
        (START, START + H, 120, 0),  # never negative
        (START, START - H, 0, 0),
        (START, START + 59 * SEC, 0, 0),  # whole minutes
    ],
)
def test_scheduled_minutes_are_end_minus_start_minus_break(start, end, break_min, minutes):
    assert shift_pay.scheduled_minutes(start, end, break_min) == minutes


def test_a_shift_of_7h30_at_r_25_55_pays_r_191_63():
    minutes = shift_pay.scheduled_minutes(START, START + 8 * H + 30 * MIN, 60)

    assert shift_pay.pay(minutes, shift_pay.centavos(Decimal("25.55"))) == 19163


@pytest.mark.parametrize(
    ("value", "centavos"),
    [(Decimal("25.55"), 2555), (Decimal("30"), 3000), (25.555, 2556), (0.1 + 0.2, 30), (None, 0), (7, 700)],
)
def test_reais_become_integer_centavos_half_up(value, centavos):
    assert shift_pay.centavos(value) == centavos


@pytest.mark.parametrize(
    ("arrived", "left", "minutes"),
    [
        (START - 20 * MIN, START + 8 * H, 420),  # arriving early is not paid
        (START + 10 * MIN, START + 8 * H, 410),
        (START, START + 7 * H, 360),  # left an hour early
        (START, None, 420),  # no exit recorded: the scheduled end
        (None, None, 420),
        (START, START + 9 * H, 480),  # stayed an hour longer
    ],
)
def test_the_records_prefill_the_hours(arrived, left, minutes):
    assert shift_pay.recorded_minutes(START, START + 8 * H, 60, arrived, left) == minutes


# --- 'Dispensar agora' -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "worked", "scheduled", "paid"),
    [
        ("nao_precisamos", 60, 420, 240),  # after 1 h of an 8 h shift (1 h break): 4 h
        ("nao_precisamos", 300, 420, 300),  # after 5 h: the 5 h worked
        ("nao_precisamos", 60, 180, 180),  # a 3-hour shift dismissed after 1 h: the 3 h
        ("nao_precisamos", 0, 420, 240),
        ("nao_precisamos", 240, 420, 240),
        ("atraso", 95, 420, 95),  # 'Atraso > 15 min': the minutes worked
        ("traje", 30, 420, 30),
        ("conduta", 0, 420, 0),
    ],
)
def test_a_dismissal_pays_the_minimum_only_when_the_company_no_longer_needs_the_person(reason, worked, scheduled, paid):
    assert shift_pay.dismissal_minutes(reason, worked, scheduled) == paid


def test_the_dismissal_reasons_are_the_four_of_the_product():
    assert shift_pay.DISMISS_REASONS == {
        "nao_precisamos": "Não precisamos mais",
        "atraso": "Atraso > 15 min",
        "traje": "Traje inadequado",
        "conduta": "Conduta inadequada",
    }


# --- cancellations -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before_start", "scheduled", "fee"),
    [
        (24 * H + SEC, 420, 0),  # more than 24 h before: free
        (30 * H, 420, 0),
        (24 * H, 420, 12000),  # at I - 24 h: min(4 h, scheduled) x R$ 30,00
        (2 * H, 420, 12000),
        (SEC, 420, 12000),
        (24 * H, 180, 9000),  # a 3-hour shift: the 3 h
        (24 * H, 0, 0),
    ],
)
def test_a_company_that_cancels_within_24_hours_owes_up_to_four_hours(before_start, scheduled, fee):
    assert shift_pay.company_cancel_fee(START, scheduled, 3000, START - before_start) == fee


@pytest.mark.parametrize(
    ("hired_before_start", "cancelled_before_start", "faltas"),
    [
        (H + 15 * MIN, H, 0),  # 15 min after being hired, even 1 h before the start: free
        (H + 15 * MIN + SEC, H, 2),  # a second later: < 12 h before, 2 faltas
        (timedelta(days=10), 48 * H + SEC, 0),  # more than 48 h before: free
        (timedelta(days=10), 48 * H, 1),  # 48-12 h: 1
        (timedelta(days=10), 30 * H, 1),
        (timedelta(days=10), 12 * H, 1),
        (timedelta(days=10), 12 * H - SEC, 2),  # less than 12 h: 2
        (timedelta(days=10), H, 2),
        (timedelta(days=10), SEC, 2),
        (30 * H, 30 * H - 10 * MIN, 0),  # within 15 min of the hire, 30 h before
        (30 * H, 30 * H - 16 * MIN, 1),
    ],
)
def test_a_freelancer_who_cancels_gets_faltas_by_how_close_to_the_start(
    hired_before_start, cancelled_before_start, faltas
):
    hired_at, now = START - hired_before_start, START - cancelled_before_start

    assert shift_pay.freelancer_cancel_faltas(START, hired_at, now) == faltas


# --- hours typed by people ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("7:30", 450),
        ("7h30", 450),
        ("7H30", 450),
        ("7h30min", 450),
        (" 7 : 30 ", 450),
        ("7", 420),
        ("7h", 420),
        ("7,5", 450),
        ("7.5", 450),
        ("7,25", 435),
        ("0:01", 1),
        ("16", 960),
        ("16:00", 960),
        ("07:05", 425),
    ],
)
def test_hours_are_read_in_the_ways_people_type_them(text, minutes):
    assert shift_pay.parse_hours(text) == minutes


@pytest.mark.parametrize(
    "text",
    ["abc", "7:75", "7h60", "17", "16:01", "-7", "7:30:00", "5min", "45 min", "7,5h"],
)
def test_anything_else_is_refused_with_the_format_hint(text):
    with pytest.raises(ValueError) as caught:
        shift_pay.parse_hours(text)
    assert str(caught.value) == HOURS_FORMAT == "Informe as horas no formato 7:30 (horas:minutos)."


@pytest.mark.parametrize("text", ["", " ", None, [], "0", "0:00", "00:00", "0h", "0h00", "0,0"])
def test_no_time_at_all_asks_for_the_hours_worked(text):
    """Issue 42: a record prefilled '0:00' (arrival and exit in the same minute) and sent as is."""
    with pytest.raises(ValueError) as caught:
        shift_pay.parse_hours(text)
    assert str(caught.value) == shift_pay.HOURS_MISSING == "Informe as horas trabalhadas."


@pytest.mark.parametrize(("minutes", "text"), [(450, "7h30"), (420, "7h00"), (5, "0h05"), (None, "—")])
def test_hours_are_shown_as_7h30(minutes, text):
    assert shift_pay.hours_text(minutes) == text


# --- approvals and adjustments -----------------------------------------------------------------


def shift(**fields) -> Hiring:
    values = {"inicio_em": START, "fim_em": START + 8 * H, "intervalo_min": 60, "valor_hora_centavos": 2555}
    return Hiring(**{**values, **fields})


def test_an_adjustment_from_8h_to_7h30_approves_the_adjusted_amount():
    h = shift(minutos_enviados=shift_pay.parse_hours("8:00"), minutos_ajuste=shift_pay.parse_hours("7h30"))

    assert approved_values(h, h.minutos_enviados) == {"minutos_aprovados": 480, "valor_centavos": 20440}
    assert approved_values(h, h.minutos_ajuste) == {"minutos_aprovados": 450, "valor_centavos": 19163}


def test_enviar_horas_starts_from_the_records_or_from_what_a_dismissal_pays():
    assert prefilled_minutes(shift(chegada_em=START + 10 * MIN)) == 410
    dismissed = shift(chegada_em=START, saida_em=START + H, dispensa_motivo="nao_precisamos", minutos_enviados=240)
    assert prefilled_minutes(dismissed) == 240


@pytest.mark.parametrize(
    ("stay_min", "break_min", "prefilled"),
    [
        (60, 60, 60),  # a one-hour stay had no break
        (240, 60, 240),  # up to 4 h nothing comes off
        (270, 60, 240),  # past 4 h, the break comes off only as far as the stay goes past 4 h
        (300, 60, 240),
        (480, 60, 420),  # a whole shift: the whole break
        (480, 0, 480),
    ],
)
def test_prefilled_minutes_never_drop_when_the_stay_grows(stay_min, break_min, prefilled):
    start = datetime(2031, 5, 12, 12, 0, tzinfo=UTC)
    left = start + timedelta(minutes=stay_min)

    assert shift_pay.recorded_minutes(start, start + timedelta(hours=8), break_min, start, left) == prefilled
