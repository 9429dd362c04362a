"""Valid shift fields of the job form ('Publicar Nova Vaga'), for every test that publishes a job.

The form takes 'datetime-local' text in São Paulo time (services/common/job_forms.py JobForm); these
helpers build it relative to now, so a shift is always inside the allowed window.
"""

from datetime import date, datetime, timedelta

from core.shift_rules import LOCAL_TZ

ADDRESS = "Av. Paulista, 1578 - Bela Vista, São Paulo"


def local_input(value: datetime) -> str:
    """A datetime as an `<input type=datetime-local>` sends it, in São Paulo time ('2026-12-05T18:00')."""
    return value.astimezone(LOCAL_TZ).strftime("%Y-%m-%dT%H:%M")


def shift_day(days: int = 3) -> date:
    """The local date `days` days from today."""
    return datetime.now(LOCAL_TZ).date() + timedelta(days=days)


def shift_fields(days: int = 3, hour: int = 18, hours: float = 8, break_min: int = 60, **overrides) -> dict:
    """The shift part of a valid job form: `days` days from today at `hour`:00 local, lasting `hours`.

    Args:
        days: Days from today (local) of the start.
        hour: Local hour of the start.
        hours: Length of the shift (it may cross midnight).
        break_min: The unpaid break.
        **overrides: Fields to replace.

    Returns:
        The form fields inicio_em, fim_em, intervalo_min and endereco.
    """
    start = datetime.combine(shift_day(days), datetime.min.time(), tzinfo=LOCAL_TZ).replace(hour=hour)
    return {
        "inicio_em": local_input(start),
        "fim_em": local_input(start + timedelta(hours=hours)),
        "intervalo_min": str(break_min),
        "endereco": ADDRESS,
        **overrides,
    }
