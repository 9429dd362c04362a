"""Ratings after a job: each side of an accepted application rates the other once, once the job is closed."""

from decimal import Decimal
from typing import TypedDict

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from core.ratings import RatingSummary
from core.routes import NoticeTarget
from models import Application, ApplicationStatus, Hiring, Job, NotificationType, Profile, Rating, Role
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.hiring_forms import RatingForm
from services.common.validation import parse
from services.jobs import application_status
from services.reach.notifications import notify

CANNOT_RATE = "Não é possível avaliar este trabalho."
ALREADY_RATED = "Você já avaliou este trabalho."
NOT_YET = "A avaliação fica disponível quando as horas forem aprovadas ou a vaga for encerrada."
RATEE_TARGETS = {True: NoticeTarget.COMPANY_HIRINGS, False: NoticeTarget.FREELANCER_HOME}
DEFAULT_NAMES = {Role.CLIENT: "Empresa", Role.FREELANCER: "Freelancer"}


class RatingTarget(TypedDict):
    """Who the acting user is about to rate, and for which job."""

    application_id: int
    name: str
    job_title: str


def summary(session: Session, user_id: int) -> RatingSummary:
    """The rating average (one decimal) and count a user received."""
    average, count = session.exec(
        select(func.avg(Rating.stars), func.count(Rating.id)).where(Rating.ratee_id == user_id)
    ).one()
    return RatingSummary.of(average, count)


def summaries(session: Session, user_ids: list[int]) -> dict[int, RatingSummary]:
    """Rating summaries for several users in one grouped query."""
    if not user_ids:
        return {}
    rows = session.exec(
        select(Rating.ratee_id, func.avg(Rating.stars), func.count(Rating.id))
        .where(Rating.ratee_id.in_(user_ids))
        .group_by(Rating.ratee_id)
    ).all()
    found = {ratee: RatingSummary(round(Decimal(str(avg)), 1), int(count)) for ratee, avg, count in rows}
    return {uid: found.get(uid, RatingSummary(None, 0)) for uid in user_ids}


def can_rate(session: Session, user_id: int, application_id: int) -> bool:
    """Whether the user may still rate the other side of this application."""
    try:
        _rateable(session, user_id, application_id)
    except ServiceError:
        return False
    return True


def given(session: Session, user_id: int, application_ids: list[int]) -> dict[int, int]:
    """The stars the user already gave, by application, among `application_ids` (one query)."""
    if not application_ids:
        return {}
    rows = session.exec(
        select(Rating.application_id, Rating.stars).where(
            Rating.rater_id == user_id, Rating.application_id.in_(application_ids)
        )
    ).all()
    return dict(rows)


def target(session: Session, user_id: int, application_id: object) -> RatingTarget:
    """Whom the user would rate for this application, checking that they may rate it now.

    Raises:
        NotAllowed: Not a participant of an accepted application (same answer as a missing id).
        ServiceError: The job is not closed yet, or the user already rated it.
    """
    application, ratee = _rateable(session, user_id, application_id)
    job_title = session.exec(select(Job.titulo).where(Job.id == application.vaga_id)).one()
    profile = session.get(Profile, ratee)
    if profile is None:
        name = "Usuário removido"
    elif profile.tipo_usuario == Role.CLIENT:
        name = profile.empresa or profile.nome or DEFAULT_NAMES[Role.CLIENT]
    else:
        name = profile.nome or DEFAULT_NAMES[Role.FREELANCER]
    return RatingTarget(application_id=application.id, name=name, job_title=job_title)


def _rateable(session: Session, user_id: int, application_id: object) -> tuple[Application, int]:
    application_id = require_id(application_id, CANNOT_RATE)
    row = session.exec(
        select(Application, Job)
        .join(Job, Job.id == Application.vaga_id)
        .where(Application.id == application_id, Application.status == ApplicationStatus.ACCEPTED)
    ).first()
    if row is None:
        raise NotAllowed(CANNOT_RATE)
    application, job = row
    if user_id == job.cliente_id:
        ratee = application.freelancer_id
    elif user_id == application.freelancer_id:
        ratee = job.cliente_id
    else:
        raise NotAllowed(CANNOT_RATE)
    shift = session.exec(select(Hiring.state).where(Hiring.application_id == application.id)).first()
    if not application_status.rating_open(shift, job.vaga_status):  # never a cancelled or missed shift
        raise ServiceError(NOT_YET)
    already = session.exec(
        select(Rating.id).where(Rating.application_id == application.id, Rating.rater_id == user_id)
    ).first()
    if already is not None:
        raise ServiceError(ALREADY_RATED)
    return application, ratee


def rate(session: Session, user_id: int, application_id: object, data: dict) -> None:
    """Rate the other side of an accepted application on a closed job, once, and notify them.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (the company owning the job or the hired freelancer).
        application_id: The accepted application.
        data: {'stars': 1..5, 'comment': optional text}.

    Raises:
        ValidationFailed: Stars outside 1-5.
        NotAllowed: Not a participant, or not an accepted application.
        ServiceError: Job not closed yet, or already rated.
    """
    form = parse(RatingForm, data)
    application, ratee = _rateable(session, user_id, application_id)
    session.add(
        Rating(application_id=application.id, rater_id=user_id, ratee_id=ratee, stars=form.stars, comment=form.comment)
    )
    try:
        session.flush()
    except IntegrityError:
        raise ServiceError(ALREADY_RATED) from None
    stars = "estrela" if form.stars == 1 else "estrelas"
    notify(
        session,
        ratee,
        NotificationType.OTHER,
        f"Você recebeu uma avaliação de {form.stars} {stars}.",
        RATEE_TARGETS[_is_company(session, ratee)],
    )


def _is_company(session: Session, user_id: int) -> bool:
    return session.exec(select(Profile.tipo_usuario).where(Profile.user_id == user_id)).first() == Role.CLIENT
