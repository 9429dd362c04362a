"""The company's dashboard and 'Minhas Vagas': its jobs by tab, hirings, applicant freelancers and overview.

Read for the acting company only, a bounded page at a time (services/screens/dashboard.py).
"""

from typing import NamedTuple, TypedDict

from sqlalchemy import and_, case, or_
from sqlmodel import Session, col, func, select

from core.catalog import CATEGORIES
from core.formatting import hourly_pay, long_date
from core.shift_format import shift_text
from core.text import fold
from core.types import utcnow
from models import Application, ApplicationStatus, Chat, Hiring, Job, PaymentMode, Profile, Rating
from services.common import paging
from services.common.paging import Page
from services.jobs import application_status, hiring_positions, job_lifecycle, pricing, shift_pay
from services.screens.dashboard import PAGE_SIZE, cut_page, rating_fields, rating_open

RELOAD_MAX = 5 * PAGE_SIZE
RECENT_JOBS = 3
OVERVIEW_HIRINGS = 5
SKILLS_SHOWN = 3
DEFAULT_FREELANCER_NAME = "Freelancer"


class JobRow(TypedDict):
    """A company's job in its dashboard."""

    id: int
    title: str
    category: str
    pay: str
    total: str  # 'R$ 165,00 pelo turno' ('' for 'A combinar')
    fee: str  # a guaranteed vaga: '+ R$ 19,80 de taxa do Turno' (the company sees its own fee)
    location: str
    shift: str
    created: str
    status: str
    status_label: str
    applications: int
    can_reopen: bool


class HiringRow(TypedDict):
    """An application to one of the company's jobs that is accepted or still pending."""

    id: int
    job_id: int
    job_title: str
    freelancer_name: str
    confirmed: bool
    status_label: str
    tone: str
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


def _applications_of_job():
    """How many applications the job of the enclosing query has (read from the applications index)."""
    return select(func.count(Application.id)).where(Application.vaga_id == Job.id).correlate(Job).scalar_subquery()


def _job_row(
    job: Job, applications: int | None, reopenable: frozenset | set = frozenset(), percent: int | None = None
) -> JobRow:
    guaranteed = percent is not None and job.pagamento == PaymentMode.GUARANTEED
    return JobRow(
        id=job.id,
        title=job.titulo,
        category=CATEGORIES.get(job.categoria, job.categoria),
        pay=hourly_pay(job.valor_hora),
        total=shift_pay.shift_total_text(job),
        fee=pricing.estimate_fee_text(job, percent) if guaranteed else "",
        location=job.localizacao,
        shift=shift_text(job.inicio_em, job.fim_em, job.intervalo_min),
        created=long_date(job.criado_em),
        status=job.status,
        status_label=job_lifecycle.STAGE_ROWS[job.status].label
        if job.status in job_lifecycle.STAGE_ROWS
        else job.status,
        applications=int(applications or 0),
        can_reopen=job.id in reopenable,
    )


def _company_job_filter(user_id: int, search: str) -> list:
    conditions = [Job.cliente_id == user_id]
    term = fold(search)[:100]
    if term:
        conditions.append(
            or_(col(Job.busca).contains(term, autoescape=True), col(Job.cidade_busca).contains(term, autoescape=True))
        )
    return conditions


JOB_TABS = ("active", "closed", "archived")  # 'Ativas', 'Encerradas', 'Arquivadas' of 'Minhas Vagas'
_JOB_TAB_FILTERS = {
    "active": job_lifecycle.active_for_plan,
    "closed": job_lifecycle.closed_not_archived,
    "archived": job_lifecycle.archived,
}


def company_jobs(
    session: Session,
    user_id: int,
    limit: int = PAGE_SIZE,
    *,
    offset: int = 0,
    search: str = "",
    tab: str | None = None,
) -> list[JobRow]:
    """A slice of the company's own jobs, newest first, each with its number of applications.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).
        limit: At most this many jobs (capped at RELOAD_MAX).
        offset: How many jobs of the list to skip (the ones already shown).
        search: Case- and accent-insensitive text matched against title, category or location.
        tab: One of JOB_TABS ('active': open or in progress; 'closed': closed, not archived;
            'archived'), or None for every job.

    Returns:
        Plain job rows with labels and formatted values.
    """
    cut = select(Job.id).where(*_company_job_filter(user_id, search))
    if tab is not None:
        cut = cut.where(_JOB_TAB_FILTERS[tab]())
    order = (Job.criado_em.desc(), Job.id.desc())
    page = cut_page(cut.order_by(*order), max(1, min(limit, RELOAD_MAX)), offset)
    query = select(Job, _applications_of_job()).join(page, page.c.id == Job.id).order_by(*order)
    rows = session.exec(query).all()
    reopenable = hiring_positions.reopenable_ids(session, [job for job, _ in rows], utcnow())
    guaranteed = any(job.pagamento == PaymentMode.GUARANTEED for job, _ in rows)
    percent = pricing.fee_percent(session, user_id) if guaranteed else None  # read once, only if used
    return [_job_row(job, total, reopenable, percent) for job, total in rows]


class JobTotals(NamedTuple):
    """How many of the company's jobs each 'Minhas Vagas' tab holds."""

    active: int
    closed: int
    archived: int


def company_job_totals(session: Session, user_id: int, search: str = "") -> JobTotals:
    """How many of the company's jobs (matching `search`) each tab holds, in one statement.

    'Ativas' counts exactly what the Gratuito plan's limit counts (services/jobs/job_lifecycle.py
    `active_for_plan`), so the tab and the limit message never disagree.
    """

    def count(condition) -> object:
        return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

    row = session.exec(
        select(*(count(_JOB_TAB_FILTERS[tab]()) for tab in JOB_TABS))
        .select_from(Job)
        .where(*_company_job_filter(user_id, search))
    ).one()
    return JobTotals(*(int(value or 0) for value in row))


def _hirings_query(user_id: int, statuses: list[str], limit: int, offset: int = 0):
    """A page of the company's applications in `statuses`, latest change first.

    Each row has the job, the freelancer's name, the chat and the stars the company gave.
    """
    order = (Application.updated_at.desc(), Application.id.desc())
    page = cut_page(
        select(Application.id)
        .join(Job, Job.id == Application.vaga_id)
        .where(Job.cliente_id == user_id, Application.status.in_(statuses))
        .order_by(*order),
        limit,
        offset,
    )
    return (
        select(Application, Job.titulo, Job.status, Job.vaga_status, Profile.nome, Chat.id, Rating.stars, Hiring.state)
        .join(page, page.c.id == Application.id)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == Application.freelancer_id, isouter=True)
        .join(Chat, Chat.application_id == Application.id, isouter=True)
        .join(Rating, and_(Rating.application_id == Application.id, Rating.rater_id == user_id), isouter=True)
        .join(Hiring, Hiring.application_id == Application.id, isouter=True)
        .order_by(*order)
    )


def _hiring_row(application: Application, title, vaga_status, name, chat_id, stars, shift) -> HiringRow:
    shown = application_status.view(application.status, shift, vaga_status)
    return HiringRow(
        id=application.id,
        job_id=application.vaga_id,
        job_title=title,
        freelancer_name=name or DEFAULT_FREELANCER_NAME,
        confirmed=application.status == ApplicationStatus.ACCEPTED,
        status_label=shown.company_label,
        tone=shown.tone,
        date=long_date(application.updated_at),
        chat_id=chat_id or 0,
        **rating_fields(application, rating_open(vaga_status, shift), stars),
    )


def _hiring_rows(session: Session, query) -> list[HiringRow]:
    return [
        _hiring_row(application, title, vaga_status, name, chat_id, stars, shift)
        for application, title, _status, vaga_status, name, chat_id, stars, shift in session.exec(query).all()
    ]


def company_hirings(session: Session, user_id: int, page: object = 1) -> Page[HiringRow]:
    """One page of the applications to the company's jobs that are accepted (Confirmado) or pending (Pendente).

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).
        page: The 1-based page wanted; clamped to the pages that exist.

    Returns:
        Newest first, with the freelancer's name and the chat id (0 when there is none).
    """
    statuses = [ApplicationStatus.ACCEPTED, ApplicationStatus.PENDING]
    total = session.exec(
        select(func.count(Application.id))
        .join(Job, Job.id == Application.vaga_id)
        .where(Job.cliente_id == user_id, Application.status.in_(statuses))
    ).one()
    page, pages = paging.clamp(page, total, PAGE_SIZE)
    if not total:
        return Page()
    query = _hirings_query(user_id, statuses, PAGE_SIZE, paging.offset(page, PAGE_SIZE))
    return Page(items=_hiring_rows(session, query), total=int(total), page=page, pages=pages)


def company_overview(session: Session, user_id: int) -> CompanyOverview:
    """The company's counters, its 3 most recent jobs and its latest active (accepted) hirings.

    Three statements: the counters together, the recent jobs, the hirings.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).

    Returns:
        total_jobs published, total_applications received, active_hirings, recent_jobs, hirings
        (the OVERVIEW_HIRINGS latest; the Contratações tab lists them all).
    """

    def applications(*conditions):
        return (
            select(func.count(Application.id))
            .join(Job, Job.id == Application.vaga_id)
            .join(Hiring, Hiring.application_id == Application.id, isouter=True)
            .where(Job.cliente_id == user_id, *conditions)
            .scalar_subquery()
        )

    total_jobs, total_applications, accepted = session.exec(
        select(
            select(func.count(Job.id)).where(Job.cliente_id == user_id).scalar_subquery(),
            applications(),
            applications(application_status.active_condition(include_pending=False)),
        )
    ).one()
    hirings = _hiring_rows(session, _hirings_query(user_id, [ApplicationStatus.ACCEPTED], OVERVIEW_HIRINGS))
    return CompanyOverview(
        total_jobs=int(total_jobs or 0),
        total_applications=int(total_applications or 0),
        active_hirings=int(accepted or 0),
        recent_jobs=company_jobs(session, user_id, limit=RECENT_JOBS) if total_jobs else [],
        hirings=hirings,
    )


def _freelancer_row(freelancer_id: int, applications: int, hired: int, profile: Profile | None) -> FreelancerRow:
    skills = [str(s) for s in (profile.habilidades if profile else []) or []]
    return FreelancerRow(
        id=freelancer_id,
        name=(profile.nome if profile else "") or DEFAULT_FREELANCER_NAME,
        profession=profile.profissao if profile else "",
        location=profile.localizacao if profile else "",
        skills=skills[:SKILLS_SHOWN],
        more_skills=f"+{len(skills) - SKILLS_SHOWN} mais" if len(skills) > SKILLS_SHOWN else "",
        applications=int(applications),
        hired=bool(hired),
    )


def company_freelancers(session: Session, user_id: int, page: object = 1) -> Page[FreelancerRow]:
    """One page of the freelancers who applied to the company's jobs, most recent applicant first.

    The applications are grouped per freelancer in the database; only the page's profiles are read.

    Args:
        session: Open database session.
        user_id: The acting company (from the server-side session).
        page: The 1-based page wanted; clamped to the pages that exist.

    Returns:
        One row per freelancer with their applications count and whether one was accepted.
    """
    total = session.exec(
        select(func.count(func.distinct(Application.freelancer_id)))
        .join(Job, Job.id == Application.vaga_id)
        .where(Job.cliente_id == user_id)
    ).one()
    page, pages = paging.clamp(page, total, PAGE_SIZE)
    if not total:
        return Page()
    per_freelancer = (
        select(
            Application.freelancer_id.label("freelancer_id"),
            func.count(Application.id).label("applications"),
            func.max(case((Application.status == ApplicationStatus.ACCEPTED, 1), else_=0)).label("hired"),
            func.max(Application.created_at).label("last_at"),
            func.max(Application.id).label("last_id"),
        )
        .join(Job, Job.id == Application.vaga_id)
        .where(Job.cliente_id == user_id)
        .group_by(Application.freelancer_id)
        .subquery()
    )
    rows = session.exec(
        select(per_freelancer.c.freelancer_id, per_freelancer.c.applications, per_freelancer.c.hired, Profile)
        .join(Profile, Profile.user_id == per_freelancer.c.freelancer_id, isouter=True)
        .order_by(per_freelancer.c.last_at.desc(), per_freelancer.c.last_id.desc())
        .offset(paging.offset(page, PAGE_SIZE))
        .limit(PAGE_SIZE)
    ).all()
    return Page(items=[_freelancer_row(*row) for row in rows], total=int(total), page=page, pages=pages)
