"""A company managing its own jobs: publish, archive, restore, duplicate, close and delete.

Every function takes the acting company's id (from the server-side session) and loads the job by
id AND owner, so another company's job and a missing one get the same answer.
"""

from sqlmodel import Session, col, delete, func, select, update

from core.db import lock_for_write
from core.routes import NoticeTarget
from core.types import utcnow
from models import Application, ApplicationStatus, Job, NotificationType, Role, User
from services import job_lifecycle, plans
from services.errors import NotAllowed, ServiceError, require_id
from services.notifications import alert_new_job, notify
from services.validation import JobForm, parse

JOB_NOT_FOUND = "Vaga não encontrada."
ONLY_COMPANIES = "Apenas empresas podem publicar vagas."
FILLED_CANNOT_REOPEN = (
    "Todas as posições desta vaga já foram preenchidas, por isso ela não volta a receber candidaturas. "
    "Para contratar mais pessoas, use 'Duplicar'."
)


def owned_job(session: Session, company_id: int, job_id: object, *, lock: bool = False) -> Job:
    """Load a job of this company (optionally locking its row), or refuse.

    A locked job is read afresh from the database, even when the session already holds it, so the
    caller decides on the row as it is once the lock is theirs. SQLite has no row locks: there the
    transaction takes the database's write lock instead (core.db.lock_for_write).

    Raises:
        NotAllowed: When the id is not one of the company's jobs.
    """
    query = select(Job).where(Job.id == require_id(job_id, JOB_NOT_FOUND), Job.cliente_id == company_id)
    if lock:
        lock_for_write(session)
        query = query.with_for_update().execution_options(populate_existing=True)
    job = session.exec(query).first()
    if job is None:
        raise NotAllowed(JOB_NOT_FOUND)
    return job


def create_job(session: Session, company_id: int, data: dict) -> int:
    """Publish a new open job after validation and the plan check.

    Args:
        session: Open database session (the caller commits).
        company_id: The acting company.
        data: Raw form data of 'Publicar Nova Vaga'.

    Returns:
        The new job's id.

    Raises:
        NotAllowed: The acting user is not a company.
        ValidationFailed: The job-form messages of docs/product.md §3.
        PlanLimitReached: The plan allows no more jobs now.
    """
    if session.exec(select(User.role).where(User.id == company_id)).first() != Role.CLIENT:
        raise NotAllowed(ONLY_COMPANIES)
    form = parse(JobForm, data)
    plans.ensure_can_publish(session, company_id)
    job = Job(cliente_id=company_id, **form.model_dump())
    session.add(job)
    session.flush()
    notify(
        session,
        company_id,
        NotificationType.JOB_CREATED,
        f'Sua vaga "{job.titulo}" foi publicada.',
        NoticeTarget.JOB,
        job.id,
    )
    alert_new_job(session, job.id, job.titulo, job.localizacao, company_id)
    return job.id


def archive_job(session: Session, company_id: int, job_id: object) -> None:
    """Archive a job: it leaves the public list and the Active tab."""
    job = owned_job(session, company_id, job_id)
    job_lifecycle.archive(job)
    session.add(job)


def restore_job(session: Session, company_id: int, job_id: object) -> None:
    """Restore an archived job as open (counts against the plan like a new open job).

    A job whose positions are all filled is not restored: it would return to the public list and
    take applications no one can accept.

    Raises:
        ServiceError: FILLED_CANNOT_REOPEN, or the plan's limit.
    """
    job = owned_job(session, company_id, job_id)
    if not job.is_archived:
        return
    hired = session.exec(
        select(func.count())
        .select_from(Application)
        .where(Application.vaga_id == job.id, Application.status == ApplicationStatus.ACCEPTED)
    ).one()
    if hired >= job.vagas_disponiveis:
        raise ServiceError(FILLED_CANNOT_REOPEN)
    plans.ensure_can_publish_active(session, company_id)
    job_lifecycle.restore(job)
    session.add(job)


def duplicate_job(session: Session, company_id: int, job_id: object) -> int:
    """Create a new open job with the same fields, no applications, created now.

    Returns:
        The copy's id.
    """
    job = owned_job(session, company_id, job_id)
    plans.ensure_can_publish(session, company_id)
    fields = job.model_dump(
        exclude={"id", "status", "vaga_status", "is_archived", "criado_em", "updated_at", "busca", "cidade_busca"}
    )
    copy = Job(**fields)
    session.add(copy)
    session.flush()
    return copy.id


def close_job(session: Session, company_id: int, job_id: object) -> None:
    """'Encerrar vaga': status closed, pending applications rejected, applicants notified."""
    job = owned_job(session, company_id, job_id, lock=True)
    if not job_lifecycle.close(job):
        return
    session.add(job)
    applicants = session.exec(
        select(Application.freelancer_id).where(
            Application.vaga_id == job.id,
            col(Application.status).in_((ApplicationStatus.PENDING, ApplicationStatus.ACCEPTED)),
        )
    ).all()
    session.exec(
        update(Application)
        .where(Application.vaga_id == job.id, Application.status == ApplicationStatus.PENDING)
        .values(status=ApplicationStatus.REJECTED, updated_at=utcnow())
    )
    for freelancer_id in applicants:
        notify(
            session,
            freelancer_id,
            NotificationType.JOB_CLOSED,
            f'A vaga "{job.titulo}" foi encerrada.',
            NoticeTarget.FREELANCER_APPLICATIONS,
        )


def delete_job(session: Session, company_id: int, job_id: object) -> None:
    """Delete a job permanently: its applications first, then the job (chats and ratings go with them)."""
    job = owned_job(session, company_id, job_id)
    session.exec(delete(Application).where(Application.vaga_id == job.id))
    session.delete(job)
