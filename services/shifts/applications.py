"""Applying: a freelancer applies to a vaga or withdraws, and what the job pages ask about it.

`apply` checks in one statement that the vaga is open to this freelancer and whether they already
applied, then inserts (the unique pair refuses a second application). A withdrawal deletes only a
pending application, by a conditional statement. The company's side is services/shifts/applicant_list.py
(the applications dialog) and services/shifts/application_answers.py (accepting and rejecting).
"""

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import bindparam, exists, insert
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete, select

from core import routes
from core.db import lock_for_write
from core.types import utcnow
from models import Application, ApplicationStatus, Job, NotificationType, Profile
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.hiring_forms import ApplicationForm
from services.common.validation import parse
from services.jobs import visibility
from services.reach.notifications import notify
from services.shifts import faltas

NOT_FOUND = "Candidatura não encontrada."
JOB_UNAVAILABLE = "Esta vaga não está mais disponível para candidaturas."
ALREADY_APPLIED = "Você já se candidatou a esta vaga."
ONLY_FREELANCERS = "Apenas freelancers podem se candidatar a vagas."
NOT_PENDING = "Esta candidatura já foi respondida."


def apply(session: Session, freelancer_id: int, role: str, job_id: object, data: dict) -> int:
    """Apply to an open job with an optional proposed hourly value and a message.

    Args:
        session: Open database session (the caller commits).
        freelancer_id: The acting user.
        role: The acting user's role (from the server-side session).
        job_id: The job.
        data: {'valor_proposto': optional amount, 'mensagem': optional text}.

    Returns:
        The new application's id.

    Raises:
        NotAllowed: Not a freelancer, or the job is not open.
        ServiceError: Already applied.
        ValidationFailed: Bad amount or message too long.
    """
    if role != "freelancer":
        raise NotAllowed(ONLY_FREELANCERS)
    form = parse(ApplicationForm, data)
    lock_for_write(session)  # SQLite: closing the job cannot slip between this check and the insert
    job = _open_job_for(session, require_id(job_id, JOB_UNAVAILABLE), freelancer_id)
    if job is None:
        raise NotAllowed(JOB_UNAVAILABLE)
    faltas.refuse_if_suspended(job.suspended_until)
    if job.applied:
        raise ServiceError(ALREADY_APPLIED)
    try:
        application_id = session.execute(
            _INSERT_APPLICATION,
            {
                "vaga_id": job.id,
                "freelancer_id": freelancer_id,
                "valor_proposto": form.valor_proposto,
                "mensagem": form.mensagem,
            },
        ).scalar_one()
    except IntegrityError:
        raise ServiceError(ALREADY_APPLIED) from None
    notify(
        session,
        job.cliente_id,
        NotificationType.NEW_APPLICATION,
        f'{job.applicant or "Um freelancer"} se candidatou à vaga "{job.titulo}".',
        routes.NoticeTarget.COMPANY_JOBS,
    )
    return application_id


class _JobToApply(NamedTuple):
    """What applying needs of the job and the applicant, read in one statement."""

    id: int
    cliente_id: int
    titulo: str
    applied: bool
    applicant: str | None
    suspended_until: datetime | None


# Applying runs these two statements, built once (SQLAlchemy reuses their compiled form and cache
# key; over Core tables they cost a tenth of the same ORM statements, see docs/performance.md).
_JOBS, _APPLICATIONS, _PROFILES = Job.__table__, Application.__table__, Profile.__table__
_OPEN_JOB_FOR = (
    sa_select(
        _JOBS.c.id,
        _JOBS.c.cliente_id,
        _JOBS.c.titulo,
        exists().where(
            _APPLICATIONS.c.vaga_id == _JOBS.c.id, _APPLICATIONS.c.freelancer_id == bindparam("freelancer_id")
        ),
        sa_select(_PROFILES.c.nome).where(_PROFILES.c.user_id == bindparam("freelancer_id")).scalar_subquery(),
        faltas.SUSPENDED_UNTIL,
    )
    .where(_JOBS.c.id == bindparam("job_id"), visibility.open_to(bindparam("freelancer_id")))
    .with_for_update(read=True, of=_JOBS)
)
_INSERT_APPLICATION = insert(_APPLICATIONS).returning(_APPLICATIONS.c.id)


def _open_job_for(session: Session, job_id: int, freelancer_id: int) -> _JobToApply | None:
    """The open job the freelancer may apply to, whether they already applied, their name and suspension (one query).

    'May apply': public, or team-first while they are in the company's team, and no block between
    them and the company (services/jobs/visibility.py); otherwise None, answered as JOB_UNAVAILABLE.

    On PostgreSQL the job row is share-locked (FOR SHARE OF jobs): closing the job waits for this
    application, so it rejects it too. On SQLite the caller's `lock_for_write` does that.
    """
    row = session.execute(_OPEN_JOB_FOR, {"job_id": job_id, "freelancer_id": freelancer_id, "now": utcnow()}).first()
    return _JobToApply(*row) if row is not None else None


_APPLIED_STATUS = sa_select(_APPLICATIONS.c.status).where(
    _APPLICATIONS.c.vaga_id == bindparam("job_id"), _APPLICATIONS.c.freelancer_id == bindparam("freelancer_id")
)


def has_applied(session: Session, freelancer_id: int, job_id: int) -> str:
    """The freelancer's application status for a job ('' when they have not applied).

    A prebuilt statement: the job page's apply box asks this on every visit of a freelancer.
    """
    status = session.execute(_APPLIED_STATUS, {"job_id": job_id, "freelancer_id": freelancer_id}).scalar()
    return status or ""


def applied_job_ids(session: Session, freelancer_id: int, job_ids: list[int]) -> list[int]:
    """Which of `job_ids` the freelancer has applied to, in one query (for a page of search results)."""
    if not job_ids:
        return []
    return list(
        session.exec(
            select(Application.vaga_id).where(
                Application.freelancer_id == freelancer_id, Application.vaga_id.in_(job_ids)
            )
        ).all()
    )


def withdraw(session: Session, freelancer_id: int, application_id: object) -> None:
    """Withdraw one's own pending application (deleted; answered ones stay).

    Raises:
        NotAllowed: Not the freelancer's application.
        ServiceError: It was already accepted or rejected.
    """
    mine = (Application.id == require_id(application_id, NOT_FOUND), Application.freelancer_id == freelancer_id)
    deleted = session.exec(
        delete(Application)
        .where(*mine, Application.status == ApplicationStatus.PENDING)
        .execution_options(synchronize_session="fetch")
    ).rowcount
    if deleted:
        return
    if session.exec(select(Application.id).where(*mine)).first() is None:
        raise NotAllowed(NOT_FOUND)
    raise ServiceError(NOT_PENDING)
