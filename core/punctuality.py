"""'Selo Empresa Pontual': the rule, over a company's hirings of the last 90 days (no database).

From 5 shifts that happened (hours approved: the freelancer came) among the hirings whose shift
started in the last 90 days (docs/product/trust.md "Selo Empresa Pontual"); shifts the company cancelled
are never evidence for it:
- C: the company's late cancellations (those that owed the fee) over the shifts that happened plus
  those late cancellations;
- A: the median hours from the freelancer's hours sent to the company's answer (approval or an
  adjustment); an automatic approval counts 48 h;
- R: the share of the company's hour adjustments that ended reversed (contested, and the hours
  approved were the freelancer's);
- D: disputes open now.
The badge when C ≤ 5 %, A ≤ 24 h, R ≤ 10 % and D = 0. Otherwise the company sees what it lacks.
"""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

WINDOW_DAYS = 90
MIN_HIRINGS = 5
MAX_LATE_CANCEL = 0.05
MAX_APPROVAL_HOURS = 24.0
AUTO_APPROVAL_HOURS = 48.0
MAX_REVERSED = 0.10


@dataclass(frozen=True)
class HiringFacts:
    """What the rule needs of one hiring."""

    happened: bool = False  # the shift took place: hours approved (or paid), the freelancer came
    late_cancel: bool = False
    answer_hours: float | None = None  # hours sent → the company's answer (48 for an automatic approval)
    adjusted: bool = False
    reversed: bool = False
    disputed: bool = False


@dataclass(frozen=True)
class Punctuality:
    """The figures, the badge and, without it, what is missing (Portuguese lines)."""

    hirings: int
    late_cancel: float
    approval_hours: float | None
    reversed: float
    disputes: int
    badge: bool
    missing: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """'0% de cancelamentos tardios · horas aprovadas em 6 h (mediana) · sem disputas abertas · 12 turnos em 90 dias'."""
        hours = (
            "sem horas aprovadas ainda"
            if self.approval_hours is None
            else f"horas aprovadas em {_hours(self.approval_hours)} (mediana)"
        )
        disputes = "sem disputas abertas" if not self.disputes else f"{self.disputes} disputa(s) aberta(s)"
        return (
            f"{_percent(self.late_cancel)} de cancelamentos tardios · {hours} · {disputes} · "
            f"{self.hirings} {'turno' if self.hirings == 1 else 'turnos'} em {WINDOW_DAYS} dias"
        )


def _percent(share: float) -> str:
    return f"{round(share * 100):d}%"


def _hours(value: float) -> str:
    """'6 h', '24,5 h' (never rounded down to the limit), 'menos de 1 h'."""
    if value < 1:
        return "menos de 1 h"
    tenths = math.ceil(value * 10 - 1e-9) / 10
    return f"{tenths:.0f} h" if tenths.is_integer() else f"{tenths:.1f} h".replace(".", ",")


def score(facts: Sequence[HiringFacts]) -> Punctuality:
    """The company's figures and badge over its hirings of the last 90 days.

    Only shifts that happened count toward the 5 and the figures' 'turnos'; the company's late
    cancellations count against it (C), and one that cancels everything never reaches the 5.
    """
    count = sum(1 for fact in facts if fact.happened)
    late_cancels = sum(1 for fact in facts if fact.late_cancel)
    late = late_cancels / (count + late_cancels) if count + late_cancels else 0.0
    answers = [fact.answer_hours for fact in facts if fact.answer_hours is not None]
    approval = statistics.median(answers) if answers else None
    adjusted = [fact for fact in facts if fact.adjusted]
    reversed_share = sum(1 for fact in adjusted if fact.reversed) / len(adjusted) if adjusted else 0.0
    disputes = sum(1 for fact in facts if fact.disputed)
    missing = []
    if count < MIN_HIRINGS:
        left = MIN_HIRINGS - count
        missing.append(f"Faltam {left} {'turno' if left == 1 else 'turnos'} nos últimos {WINDOW_DAYS} dias.")
    if late > MAX_LATE_CANCEL:
        missing.append(f"Cancelamentos tardios até 5% (hoje: {_percent(late)}).")
    if approval is None:
        missing.append("Aprove as horas de pelo menos um turno.")
    elif approval > MAX_APPROVAL_HOURS:
        missing.append(f"Aprove as horas em até 24 h (mediana atual: {_hours(approval)}).")
    if reversed_share > MAX_REVERSED:
        missing.append(f"Ajustes de horas revertidos até 10% (hoje: {_percent(reversed_share)}).")
    if disputes:
        missing.append("Nenhuma disputa aberta.")
    return Punctuality(count, late, approval, reversed_share, disputes, not missing, missing)
