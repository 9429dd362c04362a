"""The trust features' timed steps, run by every timer tick (services/timer/clock.py `tick`).

Each step takes the tick's instant and a session factory, does what is due at that instant in
its own short transactions, and returns how many rows it moved. A step is idempotent: two timer
processes, or a tick repeated after a crash, leave the same rows.

- team_first.open_due: team-first vagas whose window ended open to everyone (docs/product/trust.md
  "Oferecer primeiro à minha equipe").
- invites.expire_due: 'Contratar novamente' invites past their time expire and their private vagas
  close (docs/product/trust.md "Contratar novamente").
- punctuality.refresh_due: the 'Selo Empresa Pontual' of companies whose hirings changed, or whose
  figures are a day old (docs/product/trust.md "Selo Empresa Pontual").
"""

from collections.abc import Callable
from datetime import datetime

from services.jobs import team_first
from services.trust import invites, punctuality

Step = Callable[[datetime, Callable], int]
STEPS: tuple[Step, ...] = (team_first.open_due, invites.expire_due, punctuality.refresh_due)


def run(now: datetime, scope: Callable) -> int:
    """Run every step for `now`; returns the rows they moved together."""
    return sum(step(now, scope) for step in STEPS)
