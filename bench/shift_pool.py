"""Real shifts for the benchmarks' freelancers: vagas, applications accepted and presence confirmed.

Each shift is made the way the product makes it: a vaga of a seeded company with its times and a
'Código de presença' secret, the freelancer's application, `services.shifts.application_answers.accept` (which
creates the hiring, its chat and its notices) and the freelancer's 'Confirmar presença'
(`services.shifts.shifts.act`). What differs from the product is only the start time: the publish form
asks for a start at least two hours ahead, and a benchmark needs shifts whose check-in window is
open now (or whose reminders it can make due at once). A freelancer holds one shift at a time
(services/shifts/overlaps.py), so a freelancer's several shifts follow each other, STAGGER apart and
STAGGER long: all of their check-in windows (start - 60 min until the end) are open together.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from bench.harness import use_database

SHIFT_HOURS = 6
STAGGER = timedelta(minutes=3)  # a freelancer's next shift starts when the last one ends


@dataclass(frozen=True)
class OpenShift:
    """One confirmed shift of a freelancer: its hiring and the secret its company's code screen uses."""

    hiring_id: int
    secret: str

    def code(self, at: datetime) -> str:
        """The code the company's screen shows at `at` (what the freelancer types)."""
        from services.jobs import attendance_code

        return attendance_code.code_at(self.secret, at)


def confirmed_shifts(
    database_url: str, freelancer_ids: list[int], per_freelancer: int, start: datetime
) -> dict[int, list[OpenShift]]:
    """Give each freelancer `per_freelancer` confirmed shifts starting at `start`; one commit per freelancer.

    Args:
        database_url: The benchmark's (migrated, seeded) database.
        freelancer_ids: Who works the shifts.
        per_freelancer: Shifts each.
        start: The shifts' start (`start - 60 min` opens check-in; see core/shift_rules.py).

    Returns:
        Per freelancer id, its shifts in creation order.
    """
    use_database(database_url)
    from sqlmodel import select

    from core.db import session_scope
    from models import Role, User

    with session_scope() as db:
        companies = list(db.exec(select(User.id).where(User.role == Role.CLIENT).order_by(User.id)).all())
    made: dict[int, list[OpenShift]] = {}
    for index, freelancer_id in enumerate(freelancer_ids):
        with session_scope() as db:
            made[freelancer_id] = [
                _shift(
                    db,
                    companies[(index * per_freelancer + k) % len(companies)],
                    freelancer_id,
                    *_times(start, k, per_freelancer),
                )
                for k in range(per_freelancer)
            ]
    return made


def _times(start: datetime, k: int, per_freelancer: int) -> tuple[datetime, datetime]:
    """Start and end of a freelancer's k-th shift: SHIFT_HOURS long when alone, else STAGGER slots in a row."""
    if per_freelancer == 1:
        return start, start + timedelta(hours=SHIFT_HOURS)
    return start + k * STAGGER, start + (k + 1) * STAGGER


def _shift(db, company_id: int, freelancer_id: int, start: datetime, end: datetime) -> OpenShift:
    from sqlmodel import select

    from core.types import utcnow
    from models import Application, Hiring, Job
    from services.jobs import attendance_code
    from services.shifts import application_answers, shifts

    secret = attendance_code.new_secret()
    job = Job(
        cliente_id=company_id,
        titulo="Garçom para evento",
        categoria="eventos",
        descricao="Atendimento às mesas em evento corporativo.",
        localizacao="São Paulo",
        valor_hora=Decimal("30.00"),
        inicio_em=start,
        fim_em=end,
        intervalo_min=30,
        endereco="Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
        codigo_segredo=secret,
        vagas_disponiveis=1,
    )
    db.add(job)
    db.flush()
    application = Application(vaga_id=job.id, freelancer_id=freelancer_id, status="pending")
    db.add(application)
    db.flush()
    application_answers.accept(db, company_id, application.id)
    hiring_id = db.exec(select(Hiring.id).where(Hiring.application_id == application.id)).one()
    shifts.act(db, freelancer_id, "freelancer", hiring_id, "confirmar", {}, utcnow())
    return OpenShift(hiring_id, secret)


def count_check_ins(database_url: str) -> int:
    """How many hirings have an arrival recorded (to check that check-ins really wrote it)."""
    use_database(database_url)
    from sqlalchemy import func
    from sqlmodel import select

    from core.db import session_scope
    from models import Hiring

    with session_scope() as db:
        return db.exec(select(func.count()).select_from(Hiring).where(Hiring.chegada_em.is_not(None))).one()
