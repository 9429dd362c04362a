"""A rating summary as every screen shows it: the average to one decimal and how many ratings."""

from dataclasses import dataclass
from decimal import Decimal

from babel.numbers import format_decimal

NO_RATINGS = "Sem avaliações ainda"  # a new person, not a zero score (issue 42 point 13)


@dataclass(frozen=True)
class RatingSummary:
    """Average stars and how many ratings a user received."""

    average: Decimal | None
    count: int

    @classmethod
    def of(cls, average: object, count: object) -> "RatingSummary":
        """The summary of an average and a count read from the database (average rounded to one decimal)."""
        if not count:
            return cls(average=None, count=0)
        return cls(average=round(Decimal(str(average)), 1), count=int(count))

    @property
    def text(self) -> str:
        """'4,8 (12 avaliações)', '5,0 (1 avaliação)', or NO_RATINGS ('Sem avaliações ainda') before the first."""
        if not self.count:
            return NO_RATINGS
        average = format_decimal(self.average or Decimal("0"), format="0.0", locale="pt_BR")
        noun = "avaliação" if self.count == 1 else "avaliações"
        return f"{average} ({self.count} {noun})"
