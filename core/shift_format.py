"""A vaga's shift as people read it, in America/Sao_Paulo (docs/product/shifts.md "Turnos").

`shift_text` gives 'sáb., 28/11 · 18:00–02:00 (8h, intervalo 60 min)'; `duration_text` the derived
`duracao` column ('8 horas', '7h30'); `map_url` the Google Maps search link of the work address.
"""

from datetime import datetime, timedelta
from urllib.parse import quote

from babel.dates import format_date

from core.shift_rules import LOCAL_TZ

MAPS_SEARCH = "https://www.google.com/maps/search/?api=1&query="


def _hours_minutes(length: timedelta) -> tuple[int, int]:
    minutes = max(0, int(length.total_seconds() // 60))
    return divmod(minutes, 60)


def short_duration(length: timedelta) -> str:
    """A length as '8h', '7h30' or '45 min'."""
    hours, minutes = _hours_minutes(length)
    if not hours:
        return f"{minutes} min"
    return f"{hours}h{minutes:02d}" if minutes else f"{hours}h"


def duration_text(length: timedelta) -> str:
    """The derived `duracao` column: '8 horas', '1 hora', '7h30'."""
    hours, minutes = _hours_minutes(length)
    if minutes:
        return short_duration(length)
    return f"{hours} hora" if hours == 1 else f"{hours} horas"


def shift_text(start: datetime | None, end: datetime | None, break_min: int = 0) -> str:
    """One line for a shift: 'sáb., 28/11 · 18:00–02:00 (8h, intervalo 60 min)'.

    Args:
        start: The shift's start (aware; shown in São Paulo time).
        end: The shift's end (aware); a later day is implied by the times.
        break_min: The unpaid break in minutes ('sem intervalo' when 0).

    Returns:
        The text, or '' when either time is missing.
    """
    if start is None or end is None:
        return ""
    pause = f"intervalo {break_min} min" if break_min else "sem intervalo"
    return f"{shift_when(start, end)} ({short_duration(end - start)}, {pause})"


def shift_when(start: datetime | None, end: datetime | None) -> str:
    """The day and times of a shift: 'sáb., 28/11 · 18:00–02:00' ('' when either time is missing)."""
    if start is None or end is None:
        return ""
    local_start, local_end = start.astimezone(LOCAL_TZ), end.astimezone(LOCAL_TZ)
    day = format_date(local_start.date(), "EEE, dd/MM", locale="pt_BR")
    return f"{day} · {local_start:%H:%M}–{local_end:%H:%M}"


def map_url(address: str, lat: float | None = None, lng: float | None = None) -> str:
    """The Google Maps search link of the marked point, else of the address ('' when neither)."""
    query = f"{lat:.6f},{lng:.6f}" if lat is not None and lng is not None else (address or "").strip()
    return MAPS_SEARCH + quote(query, safe="") if query else ""
