"""A real hiring for the shift-loop tests: a vaga, an application accepted through services.shifts.applications.

Times are explicit (a fake clock): every action and tick gets its `now`. The shift starts three days
after the real time of the acceptance (the hire time, `Hiring.created_at`, is real), on a whole minute.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from sqlmodel import Session, select

from core.types import utcnow
from models import Hiring, HiringEvent, Notification, User
from services.jobs import attendance_code
from services.shifts import application_answers, hiring_lifecycle, shifts
from services.shifts.shifts import Outcome
from tests.support.factories import make_application, make_company, make_freelancer, make_job, make_user

H = timedelta(hours=1)
MIN = timedelta(minutes=1)
SEC = timedelta(seconds=1)
STAFF_ROLE = "admin"


def shift_start(days: int = 3) -> datetime:
    """A start `days` from now, on a whole minute."""
    return (utcnow() + timedelta(days=days)).replace(second=0, microsecond=0)


@dataclass
class Shift:
    """A hiring made by an acceptance, its people and its times (I = start, F = end)."""

    hiring_id: int
    job_id: int
    application_id: int
    company: User
    freelancer: User
    start: datetime
    end: datetime
    secret: str

    def code(self, now: datetime) -> str:
        """The 'Código de presença' on the company's screen at `now`."""
        return attendance_code.code_at(self.secret, now)


def run(db: Session, user_id: int, role: str, hiring_id: object, action: str, now: datetime, **data) -> Outcome:
    """services.shifts.shifts.act as a request does it: commit what it did, roll back a refusal."""
    try:
        outcome = shifts.act(db, user_id, role, hiring_id, action, data, now)
    except BaseException:
        db.rollback()
        raise
    db.commit()
    return outcome


def by_company(db: Session, shift: Shift, action: str, now: datetime, **data) -> Outcome:
    return run(db, shift.company.id, "client", shift.hiring_id, action, now, **data)


def by_freelancer(db: Session, shift: Shift, action: str, now: datetime, **data) -> Outcome:
    return run(db, shift.freelancer.id, "freelancer", shift.hiring_id, action, now, **data)


def make_staff(db: Session) -> User:
    """Turno staff (the 'admin' role created from the command line)."""
    return make_user(db, f"staff{utcnow().timestamp()}@turno.com.br", STAFF_ROLE, nome="Equipe Turno")


def hire(
    db: Session,
    company: User | None = None,
    freelancer: User | None = None,
    *,
    start: datetime | None = None,
    hours: int = 8,
    break_min: int = 60,
    rate: Decimal | None = None,
    point: tuple[float, float] | None = None,
    title: str = "Garçom",
) -> Shift:
    """A vaga of `company`, `freelancer`'s application and its acceptance (services.shifts.application_answers.accept); commits."""
    company = company or make_company(db)
    freelancer = freelancer or make_freelancer(db)
    start = start or shift_start()
    secret = attendance_code.new_secret()
    fields = {"inicio_em": start, "fim_em": start + hours * H, "intervalo_min": break_min, "codigo_segredo": secret}
    if rate is not None:
        fields["valor_hora"] = rate
    if point is not None:
        fields["ponto_lat"], fields["ponto_lng"] = point
    job = make_job(db, company, title, **fields)
    application = make_application(db, job, freelancer)
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    hiring = db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()
    return Shift(hiring.id, job.id, application.id, company, freelancer, start, start + hours * H, secret)


def hiring(db: Session, hiring_id: int) -> Hiring:
    """The hiring as the database holds it now."""
    return hiring_lifecycle.reread(db, hiring_id)


def events(db: Session, hiring_id: int) -> list[tuple]:
    """(action, actor, actor_id, from, to) of each event, oldest first."""
    rows = db.exec(select(HiringEvent).where(HiringEvent.hiring_id == hiring_id).order_by(HiringEvent.id)).all()
    return [(e.action, e.actor, e.actor_id, e.from_state, e.to_state) for e in rows]


def event_rows(db: Session, hiring_id: int) -> list[HiringEvent]:
    return list(db.exec(select(HiringEvent).where(HiringEvent.hiring_id == hiring_id).order_by(HiringEvent.id)).all())


def notices(db: Session, user_id: int) -> list[str]:
    """The shift notifications of `user_id`, oldest first."""
    rows = db.exec(
        select(Notification.message)
        .where(Notification.user_id == user_id, Notification.type == "shift")
        .order_by(Notification.id)
    ).all()
    return list(rows)
