"""The freelancer's dashboard: their applications with what each one's status reads, and the overview.

Read for the acting freelancer only, a bounded page at a time (services/screens/dashboard.py).
The overview's counters follow services/jobs/application_status.py, and its checklist the profile.
"""

from decimal import Decimal
from typing import TypedDict

from babel.numbers import format_decimal
from sqlalchemy import and_
from sqlmodel import Session, func, select

from core.display_names import CONFIDENTIAL_COMPANY
from core.formatting import long_date
from models import Application, ApplicationStatus, Chat, Hiring, Job, Profile, Rating
from services.accounts.profiles import get_own_profile
from services.common import paging
from services.common.paging import Page
from services.jobs import application_status
from services.screens.dashboard import PAGE_SIZE, cut_page, rating_fields, rating_open

RECENT_APPLICATIONS = 3
UNKNOWN_COMPANY = "Empresa não informada"
NO_RATING = "—"
APPLICATION_STATUS_LABELS = {  # the application's own status, before anything else is known (the apply box)
    ApplicationStatus.PENDING: "Pendente",
    ApplicationStatus.ACCEPTED: "Aceita",
    ApplicationStatus.REJECTED: "Recusada",
}


def application_status_label(status: str, vaga_status: str | None, hiring_state: str | None = None) -> str:
    """What the freelancer reads for an application (services/jobs/application_status.py `view`).

    Args:
        status: The application's status (pending, accepted, rejected).
        vaga_status: The vaga's stage (services/jobs/job_lifecycle.py).
        hiring_state: Its hiring's state, None when it has none.
    """
    return application_status.view(status, hiring_state, vaga_status).label


PROFILE_CHECKLIST = (
    ("foto_url", "Foto de perfil"),
    ("telefone", "Telefone"),
    ("biografia", "Biografia"),
    ("habilidades", "Habilidades"),
    ("experiencia", "Experiência"),
)


class ApplicationRow(TypedDict):
    """One of the freelancer's applications."""

    id: int
    job_id: int
    job_title: str
    company: str
    date: str
    status: str
    status_label: str
    tone: str
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


def _company_name(anonymous: bool, empresa: str | None, nome: str | None) -> str:
    if anonymous:
        return CONFIDENTIAL_COMPANY
    if empresa is None and nome is None:
        return UNKNOWN_COMPANY
    return empresa or nome or UNKNOWN_COMPANY


def _applications_query(user_id: int, limit: int, offset: int = 0):
    """A page of the freelancer's applications, newest first, with the job, its company, the chat and the stars given."""
    order = (Application.created_at.desc(), Application.id.desc())
    page = cut_page(select(Application.id).where(Application.freelancer_id == user_id).order_by(*order), limit, offset)
    return (
        select(
            Application,
            Job.titulo,
            Job.status,
            Job.vaga_status,
            Job.anuncio_anonimo,
            Profile.empresa,
            Profile.nome,
            Chat.id,
            Rating.stars,
            Hiring.state,
        )
        .join(page, page.c.id == Application.id)
        .join(Job, Job.id == Application.vaga_id)
        .join(Profile, Profile.user_id == Job.cliente_id, isouter=True)
        .join(Chat, Chat.application_id == Application.id, isouter=True)
        .join(Rating, and_(Rating.application_id == Application.id, Rating.rater_id == user_id), isouter=True)
        .join(Hiring, Hiring.application_id == Application.id, isouter=True)
        .order_by(*order)
    )


def _application_rows(session: Session, query) -> list[ApplicationRow]:
    rows = session.exec(query).all()
    return [
        ApplicationRow(
            id=application.id,
            job_id=application.vaga_id,
            job_title=title,
            company=_company_name(anonymous, empresa, nome),
            date=long_date(application.created_at),
            status=application.status,
            status_label=application_status.view(application.status, shift, vaga_status).label,
            tone=application_status.view(application.status, shift, vaga_status).tone,
            chat_id=(chat_id or 0) if application.status == ApplicationStatus.ACCEPTED else 0,
            **rating_fields(application, rating_open(vaga_status, shift), stars),
        )
        for application, title, status, vaga_status, anonymous, empresa, nome, chat_id, stars, shift in rows
    ]


def freelancer_applications(session: Session, user_id: int, page: object = 1) -> Page[ApplicationRow]:
    """One page of the freelancer's own applications, newest first.

    Args:
        session: Open database session.
        user_id: The acting freelancer (from the server-side session).
        page: The 1-based page wanted; clamped to the pages that exist.

    Returns:
        Job title, company (or 'Empresa Confidencial'), status label and the chat id when accepted.
    """
    total = session.exec(select(func.count(Application.id)).where(Application.freelancer_id == user_id)).one()
    page, pages = paging.clamp(page, total, PAGE_SIZE)
    if not total:
        return Page()
    query = _applications_query(user_id, PAGE_SIZE, paging.offset(page, PAGE_SIZE))
    return Page(items=_application_rows(session, query), total=int(total), page=page, pages=pages)


def recent_applications(session: Session, user_id: int) -> list[ApplicationRow]:
    """The freelancer's RECENT_APPLICATIONS latest applications (the overview's list)."""
    return _application_rows(session, _applications_query(user_id, RECENT_APPLICATIONS))


def _rating_text(average, count: int) -> tuple[str, int]:
    if not count:
        return NO_RATING, 0
    return format_decimal(round(Decimal(str(average)), 1), format="0.0", locale="pt_BR"), int(count)


def freelancer_overview(session: Session, user_id: int) -> FreelancerOverview:
    """The freelancer's real counters and complete-your-profile checklist.

    'Candidaturas ativas' and 'Trabalhos concluídos' count what services/jobs/application_status.py `view`
    says (from the hiring where one exists); the rating is the average of the stars received ('—' when
    none). Two statements: the counters together, then the profile.

    Args:
        session: Open database session.
        user_id: The acting freelancer (from the server-side session).

    Returns:
        Counters, rating and the checklist built from the profile fields.
    """

    def mine(condition):  # services/jobs/application_status.py: one application is never active and completed
        return (
            select(func.count(Application.id))
            .join(Job, Job.id == Application.vaga_id)
            .join(Hiring, Hiring.application_id == Application.id, isouter=True)
            .where(Application.freelancer_id == user_id, condition)
            .scalar_subquery()
        )

    active = mine(application_status.active_condition())
    completed = mine(application_status.completed_condition())
    received = Rating.ratee_id == user_id
    active, completed, average, count = session.exec(
        select(
            active,
            completed,
            select(func.avg(Rating.stars)).where(received).scalar_subquery(),
            select(func.count(Rating.id)).where(received).scalar_subquery(),
        )
    ).one()
    rating, rating_count = _rating_text(average, int(count or 0))
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
