"""A company managing its own jobs: publish, edit, archive, restore, duplicate, close and delete.

Every function takes the acting company's id (from the server-side session) and loads the job by
id AND owner, so another company's job and a missing one get the same answer.
"""

import re
from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import Session, col, delete, select, update

from core import shift_rules
from core.db import lock_for_write
from core.routes import NoticeTarget
from core.types import utcnow
from models import Application, ApplicationStatus, Job, JobStatus, NotificationType, PaymentMode, Role, User
from services.common.errors import NotAllowed, ServiceError, ValidationFailed, require_id
from services.common.job_forms import (
    SHIFT_LENGTH,
    SHIFT_START_MISSING,
    JobForm,
    check_shift_start,
    shift_derived,
    shift_length_ok,
)
from services.common.validation import parse
from services.jobs import attendance_code, hiring_positions, job_lifecycle, plans, pricing, team_first
from services.jobs.job_alerts import alert_new_job
from services.reach.notifications import notify

JOB_NOT_FOUND = "Vaga não encontrada."
ONLY_COMPANIES = "Apenas empresas podem publicar vagas."
FILLED_CANNOT_REOPEN = (
    "Todas as posições desta vaga já foram preenchidas, por isso ela não volta a receber candidaturas. "
    "Para contratar mais pessoas, use 'Duplicar'."
)
DATES_FIELD = "datas"
NO_DATES = "Escolha pelo menos uma data."
TOO_MANY_DATES = f"Escolha no máximo {shift_rules.MAX_COPIES} datas."
BAD_DATE = "Informe uma data válida."
REPEATED_DATES = "Escolha datas diferentes."
BRING_FIELD = "o_que_levar"  # 'Traje e o que levar'
PAYMENT_MODE_LOCKED = "A forma de pagamento não pode mudar depois que a vaga recebeu candidaturas."
# Columns a copy does not take from its original: its own identity, state, times and secret.
NOT_COPIED = {
    "id",
    "status",
    "vaga_status",
    "is_archived",
    "criado_em",
    "updated_at",
    "busca",
    "cidade_busca",
    "inicio_em",
    "fim_em",
    "data_necessaria",
    "duracao",
    "serie_id",
    "codigo_segredo",
}


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
        data: Raw form data of 'Publicar Nova Vaga' ('equipe_primeiro' ticked: services/jobs/team_first.py).

    Returns:
        The new job's id.

    Raises:
        NotAllowed: The acting user is not a company.
        ValidationFailed: The job-form messages of docs/product/validation.md §3.
        PlanLimitReached: The plan allows no more jobs now.
    """
    if session.exec(select(User.role).where(User.id == company_id)).first() != Role.CLIENT:
        raise NotAllowed(ONLY_COMPANIES)
    form = parse(JobForm, data)
    _check_payment_mode(form.pagamento)
    plans.ensure_can_publish(session, company_id)
    job = Job(cliente_id=company_id, codigo_segredo=attendance_code.new_secret(), **form.job_values())
    session.add(job)
    session.flush()
    if team_first.asked(data):  # the team hears now; the city's alerts go when the window opens
        opens = team_first.offer(session, job, utcnow())
        published = f'Sua vaga "{job.titulo}" foi oferecida primeiro à sua equipe, até {team_first.opens_text(opens)}.'
    else:
        alert_new_job(session, job.id, job.titulo, job.localizacao, company_id)
        published = f'Sua vaga "{job.titulo}" foi publicada.'
    notify(session, company_id, NotificationType.JOB_CREATED, published, NoticeTarget.JOB, job.id)
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
    if hiring_positions.holding(session, job.id) >= job.vagas_disponiveis:
        raise ServiceError(FILLED_CANNOT_REOPEN)
    plans.ensure_can_publish_active(session, company_id)
    job_lifecycle.restore(job)
    session.add(job)


def reopen_job(session: Session, company_id: int, job_id: object) -> None:
    """'Reabrir vaga': a filled or closed vaga whose position was freed returns to the public list.

    Offered while the shift has not started (services/jobs/hiring_positions.py); a closed vaga counts
    against the plan's active limit again, so the limit is checked for it.

    Raises:
        ServiceError: The start has passed, no position is free, or the plan's limit (PlanLimitReached).
    """
    job = owned_job(session, company_id, job_id, lock=True)
    refusal = hiring_positions.reopen_refusal(job, hiring_positions.holding(session, job.id), utcnow())
    if refusal is not None:
        raise ServiceError(refusal)
    if job.vaga_status == JobStatus.CLOSED:
        plans.ensure_can_publish_active(session, company_id)
    job_lifecycle.reopen(job)
    session.add(job)


def update_job(session: Session, company_id: int, job_id: object, data: dict) -> None:
    """Save the edited form of one of the company's jobs (the same rules as publishing).

    Only the job's own columns change (its state, series and secret stay): hirings already accepted
    keep the times they copied at acceptance. A form without 'Traje e o que levar' at all (a caller
    older than the field) keeps the vaga's; a blank one clears it.

    Raises:
        NotAllowed: The job is not one of the company's.
        ValidationFailed: The job-form messages.
    """
    job = owned_job(session, company_id, job_id, lock=True)
    form = parse(JobForm, data)
    if form.pagamento != job.pagamento:
        _check_payment_mode(form.pagamento)
        if session.exec(select(Application.id).where(Application.vaga_id == job.id)).first() is not None:
            raise ValidationFailed({"pagamento": PAYMENT_MODE_LOCKED})
    values = form.job_values()
    if not (isinstance(data, dict) and BRING_FIELD in data):
        values.pop(BRING_FIELD)
    for name, value in values.items():
        setattr(job, name, value)
    job.updated_at = utcnow()
    session.add(job)


def _check_payment_mode(mode: str) -> None:
    """'Pagamento garantido' only where Stripe is configured (services/money/)."""
    if mode == PaymentMode.GUARANTEED and not pricing.configured():
        raise ValidationFailed({"pagamento": pricing.NOT_CONFIGURED})


def _copy_dates(values: object) -> list[date]:
    """The distinct dates 'Duplicar' was given ('YYYY-MM-DD'), or ValidationFailed on the dates field."""
    texts = [value.strip() for value in values if isinstance(value, str)] if isinstance(values, list | tuple) else []
    texts = [text for text in texts if text]
    if not texts:
        raise ValidationFailed({DATES_FIELD: NO_DATES})
    if len(texts) > shift_rules.MAX_COPIES:
        raise ValidationFailed({DATES_FIELD: TOO_MANY_DATES})
    try:
        days = [date.fromisoformat(text) for text in texts]
    except ValueError:
        raise ValidationFailed({DATES_FIELD: BAD_DATE}) from None
    if len(set(days)) != len(days):
        raise ValidationFailed({DATES_FIELD: REPEATED_DATES})
    return days


def duplicate_job(
    session: Session, company_id: int, job_id: object, dates: object, now: datetime | None = None
) -> list[int]:
    """'Duplicar': copy a job to up to 8 new dates, the same local start and end times, all or none.

    Each copy is an independent open job without applications, with its own secret, in the
    original's series (`serie_id`: the original's series, or the original itself). Every date is
    checked against the shift rules and the plan must allow all the copies; one failure writes nothing.

    Args:
        session: Open database session (the caller commits).
        company_id: The acting company.
        job_id: The job to copy.
        dates: The new dates, 'YYYY-MM-DD' text.
        now: The instant the start rules are judged at (the clock when None).

    Returns:
        The copies' ids, in the order of the dates.

    Raises:
        NotAllowed: The job is not one of the company's.
        ValidationFailed: On the `datas` field: no date, more than 8, a bad or repeated date, a date
            whose shift would start too soon or too late.
        PlanLimitReached: The plan does not allow that many more jobs.
    """
    job = owned_job(session, company_id, job_id)
    now = now or utcnow()
    days = _copy_dates(dates)
    if job.inicio_em is None or job.fim_em is None:
        raise ValidationFailed({DATES_FIELD: SHIFT_START_MISSING})
    length = job.fim_em - job.inicio_em
    if not shift_length_ok(job.inicio_em, job.fim_em):
        raise ValidationFailed({DATES_FIELD: SHIFT_LENGTH})
    local_start = job.inicio_em.astimezone(shift_rules.LOCAL_TZ)
    starts = []
    for day in days:
        start = datetime.combine(day, local_start.timetz().replace(tzinfo=None), tzinfo=shift_rules.LOCAL_TZ)
        try:
            check_shift_start(start, now)
        except ValueError as exc:  # PydanticCustomError: its message, naming the date
            raise ValidationFailed({DATES_FIELD: f"{day:%d/%m/%Y}: {exc.message()}"}) from None
        starts.append(start.astimezone(UTC))
    plans.ensure_can_publish(session, company_id, count=len(starts))
    fields = job.model_dump(exclude=NOT_COPIED)
    copies = []
    for start in starts:
        copy = Job(
            **fields,
            inicio_em=start,
            fim_em=start + length,
            **shift_derived(start, start + length),
            serie_id=job.serie_id or job.id,
            codigo_segredo=attendance_code.new_secret(),
        )
        session.add(copy)
        copies.append(copy)
    session.flush()
    return [copy.id for copy in copies]


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


_LEGACY_HOURS = re.compile(r"(\d{1,2})\s*(?:h|hora)", re.IGNORECASE)


def ensure_shift(job: Job, now: datetime) -> None:
    """Give a job written without shift times (bulk loads, rows inserted by hand) the rule of alembic 0013.

    The form always sets them; this covers rows that bypassed it, so accepting never meets a vaga
    without a shift: 09:00 (São Paulo) on its `data_necessaria`, else the day after `now`, for the
    hours its free-text `duracao` names (2-12), else 8; a 60-minute break when `possui_intervalo`;
    the location as the address; a fresh attendance secret.
    """
    if job.inicio_em is not None and job.fim_em is not None:
        return
    day = job.data_necessaria or (now.astimezone(shift_rules.LOCAL_TZ).date() + timedelta(days=1))
    match = _LEGACY_HOURS.search(job.duracao or "")
    hours = min(max(int(match.group(1)), 2), 12) if match else shift_rules.LEGACY_HOURS
    start = datetime.combine(day, time(shift_rules.LEGACY_START_HOUR), tzinfo=shift_rules.LOCAL_TZ).astimezone(UTC)
    job.inicio_em, job.fim_em = start, start + timedelta(hours=hours)
    job.intervalo_min = 60 if job.possui_intervalo else 0
    job.endereco = job.endereco or (job.localizacao or "")[:200]
    job.codigo_segredo = job.codigo_segredo or attendance_code.new_secret()
