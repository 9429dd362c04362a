"""The 'Termômetro de vínculo': how close a company–freelancer pair is to an employment bond.

Repeated shifts with the same person, regularly, can make a CLT employment relationship
(pessoalidade, habitualidade, subordinação, onerosidade: CLT art. 3). Per pair, over the shifts
they agreed (the one being decided included) this counts (docs/product/trust.md "Termômetro de vínculo"):

- W: calendar weeks (São Paulo time, Monday to Sunday) with a shift, among the 8 weeks ending with
  the week of the shift being decided;
- S: the most shifts on one weekday in those 8 weeks;
- N: shifts in the 28 days ending at the shift being decided.

Yellow at W ≥ 5 or N ≥ 8; red at W ≥ 7, S ≥ 6 or N ≥ 12. It never blocks: yellow warns, red asks
the company to acknowledge. Pure functions of the start instants, no database.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.shift_rules import LOCAL_TZ

WEEKS = 8
DAYS = 28
YELLOW_WEEKS = 5
YELLOW_SHIFTS = 8
RED_WEEKS = 7
RED_SAME_WEEKDAY = 6
RED_SHIFTS = 12
YELLOW = "amarelo"
RED = "vermelho"


@dataclass(frozen=True)
class BondReading:
    """One pair's thermometer for one shift: the level ('' below yellow) and its three counts."""

    level: str
    weeks: int
    weekday_max: int
    shifts_28d: int

    @property
    def explanation(self) -> str:
        """The counts in words: 'Vocês trabalharam juntos em 5 das últimas 8 semanas, ...'."""
        return (
            f"Vocês trabalharam juntos em {self.weeks} das últimas {WEEKS} semanas, "
            f"{self.weekday_max} {_times(self.weekday_max)} no mesmo dia da semana e "
            f"{self.shifts_28d} {_times(self.shifts_28d)} em {DAYS} dias (contando este turno)."
        )


def _times(count: int) -> str:
    return "vez" if count == 1 else "vezes"


def _week(moment: datetime) -> tuple[int, int]:
    """The ISO (year, week) of an instant in São Paulo time."""
    year, week, _day = moment.astimezone(LOCAL_TZ).isocalendar()
    return year, week


def reading(starts: Iterable[datetime], at: datetime) -> BondReading:
    """The thermometer for a new shift starting `at`, given the pair's other agreed shifts' starts.

    Args:
        starts: Start instants of the pair's counted shifts (aware datetimes; the new one need not
            be among them: it is counted once either way). Shifts after `at` are ignored.
        at: The start of the shift being accepted, invited or rebooked.

    Returns:
        The level and the counts W, S and N.
    """
    local_at = at.astimezone(LOCAL_TZ)
    week_start = (local_at - timedelta(days=local_at.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    window_start = week_start - timedelta(weeks=WEEKS - 1)
    shifts = {moment for moment in starts if moment < at} | {at}
    in_weeks = [moment for moment in shifts if moment.astimezone(LOCAL_TZ) >= window_start]
    weeks = len({_week(moment) for moment in in_weeks})
    weekday_max = max(Counter(moment.astimezone(LOCAL_TZ).weekday() for moment in in_weeks).values())
    shifts_28d = sum(1 for moment in shifts if at - timedelta(days=DAYS) < moment <= at)
    return BondReading(level(weeks, weekday_max, shifts_28d), weeks, weekday_max, shifts_28d)


def level(weeks: int, weekday_max: int, shifts_28d: int) -> str:
    """'vermelho', 'amarelo' or '' for the counts W, S and N."""
    if weeks >= RED_WEEKS or weekday_max >= RED_SAME_WEEKDAY or shifts_28d >= RED_SHIFTS:
        return RED
    if weeks >= YELLOW_WEEKS or shifts_28d >= YELLOW_SHIFTS:
        return YELLOW
    return ""
