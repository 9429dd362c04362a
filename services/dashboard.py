"""What the company and freelancer dashboards show, read from the database for the acting user.

Every function takes the acting user's id (resolved by the caller from the server-side session)
and filters by it, so a user only ever sees their own jobs, applications and hirings.
"""

from decimal import Decimal
from typing import TypedDict

from babel.numbers import format_decimal
from sqlalchemy import or_
from sqlmodel import Session, col, func, select

from core.catalog import CATEGORIES
from core.formatting import hourly_pay, long_date
from core.text import fold
from models import Application, ApplicationStatus, Chat, Job, JobStatus, Profile, Rating
from services import ratings
from services.profiles import get_own_profile

RECENT_JOBS = 3
SKILLS_SHOWN = 3
CONFIDENTIAL_COMPANY = "Empresa Confidencial"
UNKNOWN_COMPANY = "Empresa não informada"
DEFAULT_FREELANCER_NAME = "Freelancer"
NO_RATING = "—"
JOB_STATUS_LABELS = {
    JobStatus.OPEN: "Aberta",
    JobStatus.IN_PROGRESS: "Em andamento",
    JobStatus.CLOSED: "Fechada",
    JobStatus.ARCHIVED: "Arquivada",
}
APPLICATION_STATUS_LABELS = {
    ApplicationStatus.PENDING: "Pendente",
    ApplicationStatus.ACCEPTED: "Aceita",
    ApplicationStatus.REJECTED: "Recusada",
}
PROFILE_CHECKLIST = (
    ("foto_url", "Foto de perfil"),
    ("telefone", "Telefone"),
    ("biografia", "Biografia"),
    ("habilidades", "Habilidades"),
    ("experiencia", "Experiência"),
)


class JobRow(TypedDict):
    """A company's job in its dashboard."""

    id: int
    title: str
    category: str
    pay: str
    location: str
    created: str
    status: str
    status_label: str
    applications: int


class HiringRow(TypedDict):
    """An application to one of the company's jobs that is accepted or still pending."""

    id: int
    job_id: int
    job_title: str
    freelancer_name: str
    confirmed: bool
    date: str
    chat_id: int
    can_rate: bool
    my_stars: int


class CompanyOverview(TypedDict):
    """Counters, recent jobs and active hirings of a company."""

    total_jobs: int
    total_applications: int
    active_hirings: int
    recent_jobs: list[JobRow]
    hirings: list[HiringRow]


class FreelancerRow(TypedDict):
    """A freelancer who applied to one of the company's jobs."""

    id: int
    name: str
    profession: str
    location: str
    skills: list[str]
    more_skills: str
    applications: int
    hired: bool


class ApplicationRow(TypedDict):
    """One of the freelancer's applications."""

    id: int
    job_id: int
    job_title: str
    company: str
    date: str
    status: str
    status_label: str
    chat_id: int
    can_rate: bool
    my_stars: int


class ChecklistItem(TypedDict):
    """One step of the complete-your-profile checklist."""

    label: str
    done: bool


class FreelancerOverview(TypedDict):
    """Counters and profile checklist of a freelancer."""

    active_applications: int
    completed_jobs: int
    rating: str
    rating_count: int
    checklist: list[ChecklistItem]
    checklist_done: int
    checklist_percent: int


def _applications_per_job():
    return (
        select(Application.vaga_id.label("vaga_id"), func.count(Application.id).label("total"))
        .group_by(Application.vaga_id)
        .subquery()
    )


def _job_row(job: Job, applications: int | None) -> JobRow:
    return JobRow(
        id=job.id,
        title=job.titulo,
        category=CATEGORIES.get(job.categoria, job.categoria),
        pay=hourly_pay(job.valor_hora),
        location=job.localizacao,
        created=long_date(job.criado_em),
        status=job.status,
        status_label=JOB_STATUS_LABELS.get(job.status, job.status),
        applications=int(applications or 0),
    )


def company_jobs(
    session: Session,
    user_id: int,
    limit: int | None = None,
    *,
    search: str = "",
    archived: bool | None = None,
) -> list[JobRow]:
    """The company's own jobs, newest first, each with its number of applications.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).
        limit: At most this many jobs (all when None).
        search: Case- and accent-insensitive text matched against title, category or location.
        archived: True for the Archived tab (status archived), False for Active, None for all.

    Returns:
        Plain job rows with labels and formatted values.
    """
    counts = _applications_per_job()
    query = (
        select(Job, counts.c.total)
        .join(counts, counts.c.vaga_id == Job.id, isouter=True)
        .where(Job.cliente_id == user_id)
        .order_by(Job.criado_em.desc(), Job.id.desc())
    )
    term = fold(search)[:100]
    if term:
        query = query.where(
            or_(col(Job.busca).contains(term, autoescape=True), col(Job.cidade_busca).contains(term, autoescape=True))
        )
    if archived is True:
        query = query.where(Job.status == JobStatus.ARCHIVED)
    elif archived is False:
        query = query.where(Job.status != JobStatus.ARCHIVED)
    if limit is not None:
        query = query.limit(limit)
    return [_job_row(job, total) for job, total in session.exec(query).all()]


def _chat_ids(session: Session, application_ids: list[int]) -> dict[int, int]:
    if not application_ids:
        return {}
    rows = session.exec(select(Chat.application_id, Chat.id).where(Chat.application_id.in_(application_ids))).all()
    return dict(rows)


def company_hirings(session: Session, user_id: int, accepted_only: bool = False) -> list[HiringRow]:
    """Applications to the company's jobs that are accepted (Confirmado) or pending (Pendente).

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).
        accepted_only: Only the accepted ones (the overview's active hirings).

    Returns:
        Newest first, with the freelancer's name and the chat id (0 when there is none).
    """
    statuses = (
        [ApplicationStatus.ACCEPTED] if accepted_only else [ApplicationStatus.ACCEPTED, ApplicationStatus.PENDING]
    )
    rows = session.exec(
        select(Application, Job.titulo, Job.status, Job.vaga_status, Profile.nome)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == Application.freelancer_id, isouter=True)
        .where(Job.cliente_id == user_id, Application.status.in_(statuses))
        .order_by(Application.updated_at.desc(), Application.id.desc())
    ).all()
    ids = [row[0].id for row in rows]
    chats = _chat_ids(session, ids)
    stars = ratings.given(session, user_id, ids)
    return [
        HiringRow(
            id=application.id,
            job_id=application.vaga_id,
            job_title=title,
            freelancer_name=name or DEFAULT_FREELANCER_NAME,
            confirmed=application.status == ApplicationStatus.ACCEPTED,
            date=long_date(application.updated_at),
            chat_id=chats.get(application.id, 0),
            **_rating_fields(application, ratings.is_finished(status, vaga_status), stars),
        )
        for application, title, status, vaga_status, name in rows
    ]


def _rating_fields(application: Application, job_finished: bool, stars: dict[int, int]) -> dict:
    """can_rate (accepted, job closed, not rated yet) and my_stars (0 when not rated) of one row."""
    given = stars.get(application.id, 0)
    accepted = application.status == ApplicationStatus.ACCEPTED
    return {"can_rate": accepted and job_finished and not given, "my_stars": given}


def company_overview(session: Session, user_id: int) -> CompanyOverview:
    """The company's counters, its 3 most recent jobs and its active (accepted) hirings.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).

    Returns:
        total_jobs published, total_applications received, active_hirings, recent_jobs, hirings.
    """
    total_jobs = session.exec(select(func.count()).select_from(Job).where(Job.cliente_id == user_id)).one()
    per_status = dict(
        session.exec(
            select(Application.status, func.count(Application.id))
            .join(Job, Job.id == Application.vaga_id)
            .where(Job.cliente_id == user_id)
            .group_by(Application.status)
        ).all()
    )
    hirings = company_hirings(session, user_id, accepted_only=True)
    return CompanyOverview(
        total_jobs=int(total_jobs or 0),
        total_applications=int(sum(per_status.values())),
        active_hirings=int(per_status.get(ApplicationStatus.ACCEPTED, 0)),
        recent_jobs=company_jobs(session, user_id, limit=RECENT_JOBS),
        hirings=hirings,
    )


def company_freelancers(session: Session, user_id: int) -> list[FreelancerRow]:
    """Freelancers who applied to the company's jobs, most recent applicant first.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).

    Returns:
        One row per freelancer with their applications count and whether one was accepted.
    """
    rows = session.exec(
        select(Application.freelancer_id, Application.status, Profile)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == Application.freelancer_id, isouter=True)
        .where(Job.cliente_id == user_id)
        .order_by(Application.created_at.desc(), Application.id.desc())
    ).all()
    freelancers: dict[int, FreelancerRow] = {}
    for freelancer_id, status, profile in rows:
        row = freelancers.get(freelancer_id)
        if row is None:
            skills = [str(s) for s in (profile.habilidades if profile else []) or []]
            row = FreelancerRow(
                id=freelancer_id,
                name=(profile.nome if profile else "") or DEFAULT_FREELANCER_NAME,
                profession=profile.profissao if profile else "",
                location=profile.localizacao if profile else "",
                skills=skills[:SKILLS_SHOWN],
                more_skills=f"+{len(skills) - SKILLS_SHOWN} mais" if len(skills) > SKILLS_SHOWN else "",
                applications=0,
                hired=False,
            )
            freelancers[freelancer_id] = row
        row["applications"] += 1
        row["hired"] = row["hired"] or status == ApplicationStatus.ACCEPTED
    return list(freelancers.values())


def _company_name(job: Job, profile: Profile | None) -> str:
    if job.anuncio_anonimo:
        return CONFIDENTIAL_COMPANY
    if profile is None:
        return UNKNOWN_COMPANY
    return profile.empresa or profile.nome or UNKNOWN_COMPANY


def freelancer_applications(session: Session, user_id: int) -> list[ApplicationRow]:
    """The freelancer's own applications, newest first.

    Args:
        session: Open database session.
        user_id: The acting freelancer (from the server-side session).

    Returns:
        Job title, company (or 'Empresa Confidencial'), status label and the chat id when accepted.
    """
    rows = session.exec(
        select(Application, Job, Profile)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == Job.cliente_id, isouter=True)
        .where(Application.freelancer_id == user_id)
        .order_by(Application.created_at.desc(), Application.id.desc())
    ).all()
    ids = [application.id for application, _, _ in rows]
    chats = _chat_ids(session, ids)
    stars = ratings.given(session, user_id, ids)
    return [
        ApplicationRow(
            id=application.id,
            job_id=job.id,
            job_title=job.titulo,
            company=_company_name(job, profile),
            date=long_date(application.created_at),
            status=application.status,
            status_label=APPLICATION_STATUS_LABELS.get(application.status, application.status),
            chat_id=chats.get(application.id, 0) if application.status == ApplicationStatus.ACCEPTED else 0,
            **_rating_fields(application, ratings.is_finished(job.status, job.vaga_status), stars),
        )
        for application, job, profile in rows
    ]


def _rating(session: Session, user_id: int) -> tuple[str, int]:
    average, count = session.exec(
        select(func.avg(Rating.stars), func.count(Rating.id)).where(Rating.ratee_id == user_id)
    ).one()
    if not count:
        return NO_RATING, 0
    return format_decimal(round(Decimal(str(average)), 1), format="0.0", locale="pt_BR"), int(count)


def freelancer_overview(session: Session, user_id: int) -> FreelancerOverview:
    """The freelancer's real counters and complete-your-profile checklist.

    Active applications are pending plus accepted; completed jobs are accepted applications on
    closed jobs; the rating is the average of the stars received ('—' when none).

    Args:
        session: Open database session.
        user_id: The acting freelancer (from the server-side session).

    Returns:
        Counters, rating and the checklist built from the profile fields.
    """
    active = session.exec(
        select(func.count())
        .select_from(Application)
        .where(
            Application.freelancer_id == user_id,
            Application.status.in_([ApplicationStatus.PENDING, ApplicationStatus.ACCEPTED]),
        )
    ).one()
    completed = session.exec(
        select(func.count())
        .select_from(Application)
        .join(Job, Job.id == Application.vaga_id)
        .where(
            Application.freelancer_id == user_id,
            Application.status == ApplicationStatus.ACCEPTED,
            Job.status == JobStatus.CLOSED,
        )
    ).one()
    rating, rating_count = _rating(session, user_id)
    profile = get_own_profile(session, user_id)
    checklist = [ChecklistItem(label=label, done=bool(profile[field])) for field, label in PROFILE_CHECKLIST]
    done = sum(item["done"] for item in checklist)
    return FreelancerOverview(
        active_applications=int(active or 0),
        completed_jobs=int(completed or 0),
        rating=rating,
        rating_count=rating_count,
        checklist=checklist,
        checklist_done=done,
        checklist_percent=round(100 * done / len(checklist)),
    )
