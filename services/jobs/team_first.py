"""'Oferecer primeiro à minha equipe': a new vaga seen by the company's team alone for a while.

The window is min(12 h, (I − now)/4), I the shift's start (docs/product/trust.md "Minha equipe").
`jobs.equipe_ate` holds the vaga back from everyone else (services/jobs/job_lifecycle.py `public`;
members see it through services/jobs/visibility.py); the members are told at once, in the app and by
e-mail as their alert settings say. The timer clears `equipe_ate` when the window ends (`open_due`),
which moves the job list's token, so every cached list, the sitemap and the search show the vaga
from that tick on, and the city's freelancers get the usual new-vaga alert then.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlmodel import Session

from core.formatting import local
from core.routes import NoticeTarget
from models import Job, NotificationType, TeamMember
from services.common.errors import ServiceError
from services.jobs.job_alerts import alert_new_job
from services.reach.notifications import notify

WINDOW_MAX = timedelta(hours=12)
WINDOW_SHARE = 4  # the window is at most a quarter of the time left before the shift
WINDOW_MIN = timedelta(minutes=30)  # shorter than this is no head start: publish to everyone
FIELD = "equipe_primeiro"  # the publish form's checkbox
NO_TEAM = "Sua equipe ainda não tem profissionais: publique para todos."
TOO_LATE = "O turno começa em menos de 2 horas: não há tempo para oferecer primeiro à equipe."
PUBLISHED = "Vaga oferecida primeiro à sua equipe."
OPEN_BATCH = 100  # vagas opened per tick (each sends its city's alerts)


def window(now: datetime, starts_at: datetime) -> timedelta:
    """How long the team sees the vaga alone: min(12 h, (I − now)/4), never negative."""
    return max(timedelta(0), min(WINDOW_MAX, (starts_at - now) / WINDOW_SHARE))


def asked(data: dict) -> bool:
    """Whether the publish form ticked 'Oferecer primeiro à minha equipe'."""
    return str(data.get(FIELD, "")).strip().lower() in {"on", "true", "1", "sim"}


def members(session: Session, company_id: int) -> list[int]:
    """The company's team members' ids."""
    return list(session.execute(select(TeamMember.freelancer_id).where(TeamMember.company_id == company_id)).scalars())


def offer(session: Session, job: Job, now: datetime) -> datetime:
    """Hold a just-published vaga for the company's team and tell each member (the caller commits).

    Returns:
        When the vaga opens to everyone.

    Raises:
        ServiceError: The team is empty (NO_TEAM), or the shift starts too soon for a window (TOO_LATE);
            the caller rolls the publication back.
    """
    team = members(session, job.cliente_id)
    if not team:
        raise ServiceError(NO_TEAM)
    held_for = window(now, job.inicio_em) if job.inicio_em else timedelta(0)
    if held_for < WINDOW_MIN:
        raise ServiceError(TOO_LATE)
    job.equipe_ate = now + held_for
    session.add(job)
    message = f'Vaga para a sua equipe: "{job.titulo}". Só a equipe vê até {opens_text(job.equipe_ate)}.'
    for freelancer_id in team:
        notify(session, freelancer_id, NotificationType.JOB_ALERT, message, NoticeTarget.JOB, job.id)
    return job.equipe_ate


def opens_text(moment: datetime) -> str:
    """'28/11 às 18:30' (São Paulo time): when a team-first vaga opens to everyone."""
    return local(moment).strftime("%d/%m às %H:%M")


def open_due(now: datetime, scope: Callable) -> int:
    """Open to everyone the team-first vagas whose window ended at or before `now`, and send their city alerts.

    One transaction per vaga, claimed by a conditional update, so two timers open each vaga once.

    Returns:
        How many vagas opened.
    """
    with scope() as db:
        due = (
            db.execute(
                select(Job.id)
                .where(Job.equipe_ate.is_not(None), Job.equipe_ate <= now)
                .order_by(Job.id)
                .limit(OPEN_BATCH)
            )
            .scalars()
            .all()
        )
    opened = 0
    for job_id in due:
        with scope() as db:
            claimed = db.execute(
                update(Job)
                .where(Job.id == job_id, Job.equipe_ate.is_not(None), Job.equipe_ate <= now)
                .values(equipe_ate=None)
                .execution_options(synchronize_session=False)
            ).rowcount
            if not claimed:
                continue
            job = db.get(Job, job_id)
            alert_new_job(db, job.id, job.titulo, job.localizacao, job.cliente_id)
            opened += 1
    return opened
