"""What a shift pays and what cancelling costs, in integer centavos (docs/product/shifts.md "Turnos").

Pay = (end - start - break) x hourly rate, rounded half-up to the centavo. Sending someone home
with 'Não precisamos mais' pays max(worked, min(4 h, scheduled)); the other reasons pay the minutes
worked. A company that cancels within 24 h of the start owes min(4 h, scheduled) x rate. A
freelancer who cancels gets faltas by how close to the start it is.
"""

import re
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from core import shift_rules as rules
from core.formatting import money

DISMISS_REASONS = {
    "nao_precisamos": "Não precisamos mais",
    "atraso": "Atraso > 15 min",
    "traje": "Traje inadequado",
    "conduta": "Conduta inadequada",
}
PAYS_MINIMUM = frozenset({"nao_precisamos"})
MAX_SENT_MINUTES = 16 * 60
BREAK_AFTER_MIN = 4 * 60  # (P) a stay up to 4 h had no break to take off
HOURS_FORMAT = "Informe as horas no formato 7:30 (horas:minutos)."
HOURS_MISSING = "Informe as horas trabalhadas."
TOTAL_TEXT = "{amount} pelo turno"  # the estimate shown before work (issue 42)
FEE_TEXT = "+ {amount} de taxa do Turno"  # a guaranteed payment's fee, shown to the company only
# '7', '7h', '7:30', '7h30', '7h30min'; 'min' only after the minutes ('5min' is not 5 hours).
_HOURS = re.compile(r"^\s*(\d{1,2})(?:\s*[:h]\s*(\d{1,2})(?:\s*min)?|\s*h)?\s*$", re.IGNORECASE)
_DECIMAL_HOURS = re.compile(r"^\s*(\d{1,2})[.,](\d{1,2})\s*$")


def minutes_between(start: datetime, end: datetime) -> int:
    """Whole minutes from `start` to `end` (0 when `end` is not after `start`)."""
    return max(int((end - start) / timedelta(minutes=1)), 0)


def pay(minutes: int, rate_centavos: int) -> int:
    """What `minutes` of work pay at `rate_centavos` per hour, half-up to the centavo."""
    return int((Decimal(minutes) * Decimal(rate_centavos) / 60).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def centavos(value: Decimal | float | int | None) -> int:
    """A money value in reais as integer centavos, half-up (None is 0)."""
    if value is None:
        return 0
    return int((Decimal(str(value)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def scheduled_minutes(start: datetime, end: datetime, break_min: int) -> int:
    """A shift's paid minutes as scheduled."""
    return max(minutes_between(start, end) - break_min, 0)


def recorded_minutes(
    start: datetime, end: datetime, break_min: int, arrived: datetime | None, left: datetime | None
) -> int:
    """The minutes the records show, to prefill 'Enviar horas'.

    Work counts from the later of the arrival and the start (arriving early is not paid) to the
    exit, or to the scheduled end when no exit was registered. The scheduled break comes off only
    from what a stay lasts past BREAK_AFTER_MIN (a short stay had no break), so more time never
    prefills fewer minutes.
    """
    begin = max(arrived, start) if arrived else start
    stay = minutes_between(begin, left or end)
    return stay - min(max(stay - BREAK_AFTER_MIN, 0), break_min)


def dismissal_minutes(reason: str, worked: int, scheduled: int) -> int:
    """The minutes a shift ended by 'Dispensar agora' pays."""
    if reason in PAYS_MINIMUM:
        return max(worked, min(int(rules.MIN_PAID / timedelta(minutes=1)), scheduled))
    return worked


def company_cancel_fee(start: datetime, scheduled: int, rate_centavos: int, now: datetime) -> int:
    """What the freelancer is owed when the company cancels at `now` (0 more than 24 h before)."""
    if start - now > rules.LATE_CANCEL_WINDOW:
        return 0
    return pay(min(int(rules.MIN_PAID / timedelta(minutes=1)), scheduled), rate_centavos)


def freelancer_cancel_faltas(start: datetime, hired_at: datetime, now: datetime) -> int:
    """Faltas for a freelancer who cancels at `now`: 0 within 15 min of hiring or > 48 h before."""
    if now - hired_at <= rules.FREE_CANCEL_AFTER_HIRE or start - now > rules.FALTA_FREE_BEFORE:
        return 0
    if start - now >= rules.FALTA_ONE_BEFORE:
        return 1
    return 2


def parse_hours(text: object) -> int:
    """Minutes from what a person typed: '7:30', '7h30', '7', '7,5' or '7.5'.

    Raises:
        ValueError: With HOURS_MISSING when nothing or no time was typed ('', '0:00'), with HOURS_FORMAT
            when it is not a duration from 1 minute to 16 hours.
    """
    value = str(text or "").strip()
    if not value:
        raise ValueError(HOURS_MISSING)
    minutes = None
    if match := _HOURS.match(value):
        extra = int(match.group(2) or 0)
        if extra < 60:
            minutes = int(match.group(1)) * 60 + extra
    elif match := _DECIMAL_HOURS.match(value):
        fraction = Decimal(f"0.{match.group(2)}")
        minutes = int(match.group(1)) * 60 + int((fraction * 60).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if minutes == 0:
        raise ValueError(HOURS_MISSING)
    if minutes is None or minutes > MAX_SENT_MINUTES:
        raise ValueError(HOURS_FORMAT)
    return minutes


def hours_text(minutes: int | None) -> str:
    """Minutes as '7h30' ('—' when unknown)."""
    if minutes is None:
        return "—"
    return f"{minutes // 60}h{minutes % 60:02d}"


def _rate_centavos(item: object) -> int | None:
    """The hourly rate of a hiring (`valor_hora_centavos`) or of a vaga (`valor_hora`, None: 'A combinar')."""
    if (rate := getattr(item, "valor_hora_centavos", None)) is not None:
        return rate
    value = getattr(item, "valor_hora", None)
    return centavos(value) if value is not None else None


def shift_total_centavos(item: object) -> int | None:
    """What a vaga's or a hiring's shift pays as scheduled: (end - start - break) x rate, in centavos.

    Args:
        item: A Job, a Hiring or a row with `inicio_em`, `fim_em`, `intervalo_min` and the rate
            (`valor_hora_centavos`, or `valor_hora` in reais).

    Returns:
        The centavos, or None when the rate (or a rate of 0) or either time is missing.
    """
    start, end, rate = getattr(item, "inicio_em", None), getattr(item, "fim_em", None), _rate_centavos(item)
    if start is None or end is None or not rate:  # no rate, or a hiring's 0 from 'A combinar'
        return None
    if end <= start:  # an end read as a time of day before the start is the next day's
        end += timedelta(days=1)
    return pay(scheduled_minutes(start, end, getattr(item, "intervalo_min", 0) or 0), rate)


def _reais(amount_centavos: int) -> str:
    return money(Decimal(amount_centavos) / 100)


def shift_total_text(item: object) -> str:
    """'R$ 165,00 pelo turno' for a vaga or a hiring ('' without a rate or times): see `shift_total_centavos`."""
    total = shift_total_centavos(item)
    return TOTAL_TEXT.format(amount=_reais(total)) if total is not None else ""


def fee_text(fee_centavos: int | None) -> str:
    """'+ R$ 19,80 de taxa do Turno' (the amount comes from services.pricing.fee; '' for None)."""
    return FEE_TEXT.format(amount=_reais(fee_centavos)) if fee_centavos is not None else ""
