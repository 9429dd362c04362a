"""A freelancer's public profile, shown only to the companies that received an application from them.

Who may see it: a company (role client) with at least one application from this freelancer on one
of its jobs (any status), and the freelancer themself (a preview). Everyone else, and a missing,
deleted or non-freelancer id, gets the same refusal, so the page never tells a stranger whether a
profile exists. The freelancer is loaded and the relationship checked in one query
(docs/architecture.md, "Who may see whom"), together with the rating; one page of reviews and the
first slice of the viewing company's own jobs the freelancer applied to follow in two more,
whatever the number of rows.

Private contact data (e-mail, phone, address) is never read into the result: the two sides talk in
the chat.
"""

import math
from decimal import Decimal
from typing import NamedTuple, TypedDict

from sqlmodel import Session, func, or_, select

from core.display_names import CONFIDENTIAL_COMPANY
from core.formatting import initials, safe_website, short_date
from core.ids import valid_id
from models import Application, Chat, Job, Profile, Rating, Role, User
from services.common import paging
from services.common.errors import NotAllowed
from services.common.paging import Slice
from services.screens.freelancer_dashboard import application_status_label
from services.shifts import ratings
from services.trust import reliability

PROFILE_NOT_FOUND = "Perfil não encontrado"
REVIEWS_PAGE_SIZE = 10
APPLICATIONS_PAGE_SIZE = 10
REMOVED_USER = "Usuário removido"
DEFAULT_FREELANCER_NAME = "Freelancer"
DEFAULT_COMPANY_NAME = "Empresa"


class PublicReview(TypedDict):
    """One rating the freelancer received, as shown on their profile."""

    id: int
    stars: int
    comment: str
    company: str
    job_title: str
    date: str


class AppliedJob(TypedDict):
    """One of the viewing company's jobs this freelancer applied to."""

    application_id: int
    job_id: int
    job_title: str
    status: str
    status_label: str
    date: str
    chat_id: int


class FreelancerPublicProfile(TypedDict):
    """What a permitted viewer sees of a freelancer: no e-mail, phone or address.

    `rating_average` is the average rounded to one decimal (0.0 without ratings) for the stars;
    `rating` is the same as text with the count, e.g. '4,5 (2 avaliações)'. `reviews` is the page
    `page` of `pages` (latest first); `applications` is the first APPLICATIONS_PAGE_SIZE of them
    (`applications_more` when more follow), empty for the freelancer's own preview.
    """

    id: int
    name: str
    initials: str
    photo: str
    profession: str
    location: str
    skills: list[str]
    bio: str
    experience: str
    website: str
    rating: str
    reliability: str
    rating_average: float
    rating_count: int
    reviews: list[PublicReview]
    page: int
    pages: int
    applications: list[AppliedJob]
    applications_more: bool
    is_self: bool


class _PublicFields(NamedTuple):
    nome: str
    foto_url: str
    profissao: str
    localizacao: str
    habilidades: list[str]
    biografia: str
    experiencia_descricao: str
    website: str
    rating_average: Decimal | float | None
    rating_count: int


def _load_permitted(session: Session, viewer_id: int, freelancer_id: int) -> _PublicFields | None:
    """The freelancer's public fields and rating when the viewer may see them, in one query (None otherwise).

    Only the public columns are read: the e-mail, phone and address never leave the database.
    """
    received = Rating.ratee_id == freelancer_id
    applied_to_viewer = (
        select(Application.id)
        .join(Job, Job.id == Application.vaga_id)
        .where(Application.freelancer_id == freelancer_id, Job.cliente_id == viewer_id)
        .exists()
    )
    row = session.exec(
        select(
            Profile.nome,
            Profile.foto_url,
            Profile.profissao,
            Profile.localizacao,
            Profile.habilidades,
            Profile.biografia,
            Profile.experiencia_descricao,
            Profile.website,
            select(func.avg(Rating.stars)).where(received).scalar_subquery(),
            select(func.count(Rating.id)).where(received).scalar_subquery(),
        )
        .join(User, User.id == Profile.user_id)
        .where(
            User.id == freelancer_id,
            User.role == Role.FREELANCER,
            User.deleted_at.is_(None),
            or_(User.id == viewer_id, applied_to_viewer),
        )
    ).first()
    return _PublicFields(*row) if row is not None else None


def _company_name(empresa: str | None, nome: str | None, deleted: bool) -> str:
    if deleted or (empresa is None and nome is None):
        return REMOVED_USER
    return empresa or nome or DEFAULT_COMPANY_NAME


def _reviews(session: Session, freelancer_id: int, page: int) -> list[PublicReview]:
    """One page of the ratings the freelancer received, latest first, with the rater and the job (one query).

    A rating for a job posted anonymously names no company: 'Empresa Confidencial'.
    """
    rows = session.exec(
        select(Rating, Job.titulo, Job.anuncio_anonimo, Profile.empresa, Profile.nome, User.deleted_at)
        .join(Application, Application.id == Rating.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .join(User, User.id == Rating.rater_id, isouter=True)
        .join(Profile, Profile.user_id == Rating.rater_id, isouter=True)
        .where(Rating.ratee_id == freelancer_id)
        .order_by(Rating.created_at.desc(), Rating.id.desc())
        .offset((page - 1) * REVIEWS_PAGE_SIZE)
        .limit(REVIEWS_PAGE_SIZE)
    ).all()
    return [
        PublicReview(
            id=rating.id,
            stars=rating.stars,
            comment=rating.comment,
            company=CONFIDENTIAL_COMPANY if anonymous else _company_name(empresa, nome, deleted_at is not None),
            job_title=title,
            date=short_date(rating.created_at),
        )
        for rating, title, anonymous, empresa, nome, deleted_at in rows
    ]


def _applications(session: Session, company_id: int, freelancer_id: int, offset: int = 0) -> Slice[AppliedJob]:
    """A slice of the company's jobs this freelancer applied to, latest application first (one query)."""
    rows = session.exec(
        select(Application, Job.titulo, Job.vaga_status, Chat.id)
        .join(Job, Job.id == Application.vaga_id)
        .join(Chat, Chat.application_id == Application.id, isouter=True)
        .where(Application.freelancer_id == freelancer_id, Job.cliente_id == company_id)
        .order_by(Application.created_at.desc(), Application.id.desc())
        .offset(max(0, offset))
        .limit(APPLICATIONS_PAGE_SIZE + 1)
    ).all()
    applied = [
        AppliedJob(
            application_id=application.id,
            job_id=application.vaga_id,
            job_title=title,
            status=application.status,
            status_label=application_status_label(application.status, vaga_status),
            date=short_date(application.created_at),
            chat_id=chat_id or 0,
        )
        for application, title, vaga_status, chat_id in rows
    ]
    return paging.split(applied, APPLICATIONS_PAGE_SIZE)


def _checked_ids(viewer_id: object, freelancer_id: object) -> tuple[int, int]:
    checked_id = valid_id(freelancer_id)
    viewer = valid_id(viewer_id)
    if checked_id is None or viewer is None:
        raise NotAllowed(PROFILE_NOT_FOUND)
    return viewer, checked_id


def more_applications(session: Session, viewer_id: int | None, freelancer_id: object, offset: int) -> Slice[AppliedJob]:
    """'Carregar mais' of the profile's applications: the next slice, for a viewer who may see the profile.

    Raises:
        NotAllowed: 'Perfil não encontrado', exactly as `freelancer_profile` refuses.
    """
    viewer, checked_id = _checked_ids(viewer_id, freelancer_id)
    if _load_permitted(session, viewer, checked_id) is None:
        raise NotAllowed(PROFILE_NOT_FOUND)
    if viewer == checked_id:
        return Slice()
    return _applications(session, viewer, checked_id, offset)


def freelancer_profile(
    session: Session, viewer_id: int | None, freelancer_id: object, page: int = 1
) -> FreelancerPublicProfile:
    """A freelancer's public profile, for a company that received an application from them or for themself.

    Args:
        session: Open database session.
        viewer_id: The acting user (from the server-side session); None for a visitor.
        freelancer_id: The profile asked for (from the URL; validated here).
        page: The page of reviews wanted; clamped to the pages that exist.

    Returns:
        The profile, its rating, one page of reviews and, for a company, its jobs the freelancer
        applied to. Never the e-mail, phone or address.

    Raises:
        NotAllowed: 'Perfil não encontrado' for a visitor, a viewer without such an application, and
            a missing, deleted, non-freelancer or malformed id alike.
    """
    viewer, checked_id = _checked_ids(viewer_id, freelancer_id)
    profile = _load_permitted(session, viewer, checked_id)
    if profile is None:
        raise NotAllowed(PROFILE_NOT_FOUND)
    is_self = viewer == checked_id
    summary = ratings.RatingSummary.of(profile.rating_average, profile.rating_count)
    applied = Slice() if is_self else _applications(session, viewer, checked_id)
    pages = max(1, math.ceil(summary.count / REVIEWS_PAGE_SIZE))
    page = min(max(1, page if isinstance(page, int) and not isinstance(page, bool) else 1), pages)
    name = profile.nome or DEFAULT_FREELANCER_NAME
    return FreelancerPublicProfile(
        id=checked_id,
        name=name,
        initials=initials(name),
        photo=profile.foto_url,
        profession=profile.profissao,
        location=profile.localizacao,
        skills=[str(skill) for skill in profile.habilidades or [] if str(skill).strip()],
        bio=profile.biografia,
        experience=profile.experiencia_descricao,
        website=safe_website(profile.website),
        rating=summary.text,
        reliability=reliability.summary(session, checked_id),
        rating_average=float(summary.average or 0),
        rating_count=summary.count,
        reviews=_reviews(session, checked_id, page) if summary.count else [],
        page=page,
        pages=pages,
        applications=applied.items,
        applications_more=applied.has_more,
        is_self=is_self,
    )
