"""The company's applications dialog: a vaga's applicants page by page, their cards, and an applicant's profile.

Cards come pending first, then newest, a slice at a time after a cursor (never an offset: answering
a card in place must not shift the rest). A guaranteed vaga's accept button states what accepting
charges, and a pending applicant's card carries the 'Termômetro de vínculo' (services/shifts/bond.py).
"""

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple, TypedDict

from sqlalchemy import and_, or_
from sqlmodel import Session, select

from core.formatting import hourly_pay, long_date, money
from models import Application, ApplicationStatus, Chat, Job, PaymentMode, Profile
from services.common.errors import NotAllowed, require_id
from services.jobs import pricing, shift_pay
from services.jobs.company_jobs import owned_job
from services.shifts import bond, ratings
from services.shifts.bond import BondNotice

PROFILE_NOT_FOUND = "Perfil não encontrado"
ACCEPT = "Aceitar"
SKILLS_SHOWN = 3
APPLICANTS_PAGE_SIZE = 20


class ApplicantCard(TypedDict):
    """One applicant as the company sees it in the applications dialog."""

    id: int
    freelancer_id: int
    name: str
    profession: str
    photo: str
    skills: list[str]
    more_skills: str
    proposal: str
    message: str
    status: str
    chat_id: int
    date: str
    has_profile: bool
    guaranteed: bool
    accept_label: str
    bond: BondNotice  # the 'Termômetro de vínculo' of a pending applicant (services/shifts/bond.py)


class FreelancerProfileView(TypedDict):
    """A freelancer's profile as shown to a company that received an application from them."""

    id: int
    name: str
    profession: str
    location: str
    photo: str
    bio: str
    skills: list[str]
    experience: str
    website: str
    rating: str


class ApplicantsCursor(NamedTuple):
    """Where a slice of applicants ended, as it was listed: the next slice starts after it.

    The order is pending first, then newest. Answering an application only moves it later in that
    order, and withdrawing removes it, so a slice that starts after the last card listed never skips
    a card the company has not seen (an offset would: one card answered in place shifts the rest).
    """

    pending: bool
    created_at: datetime
    id: int


class ApplicantsPage(NamedTuple):
    """A slice of a job's applicants: the job title, the cards, whether more follow and where it ended."""

    title: str
    cards: list[ApplicantCard]
    has_more: bool
    cursor: ApplicantsCursor | None = None


_PENDING = Application.status == ApplicationStatus.PENDING


def _applicant_rows(session: Session, limit: int, *where) -> list:
    """Up to `limit` (application, profile, chat id) rows matching `where`, pending first, then newest."""
    return session.exec(
        select(Application, Profile, Chat.id)
        .join(Profile, Profile.user_id == Application.freelancer_id, isouter=True)
        .join(Chat, Chat.application_id == Application.id, isouter=True)
        .where(*where)
        .order_by(_PENDING.desc(), Application.created_at.desc(), Application.id.desc())
        .limit(limit)
    ).all()


def _after(cursor: ApplicantsCursor):
    """The applications that come after `cursor` in the dialog's order."""
    older = or_(
        Application.created_at < cursor.created_at,
        and_(Application.created_at == cursor.created_at, Application.id < cursor.id),
    )
    if cursor.pending:
        return or_(~_PENDING, and_(_PENDING, older))
    return and_(~_PENDING, older)


def list_for_job(
    session: Session, company_id: int, job_id: object, after: ApplicantsCursor | None = None
) -> ApplicantsPage:
    """A page of the applications of one of the company's jobs, with each applicant's profile.

    Args:
        session: Open database session.
        company_id: The acting company (from the server-side session).
        job_id: The job (any value; validated here).
        after: Where the cards already shown ended ('Carregar mais'); the first page when None.

    Returns:
        The job title, up to APPLICANTS_PAGE_SIZE applicant cards (pending first, then newest),
        whether more follow and the cursor of the last card.

    Raises:
        NotAllowed: Not the company's job.
    """
    job = owned_job(session, company_id, job_id)
    where = [Application.vaga_id == job.id]
    if after is not None:
        where.append(_after(after))
    rows = _applicant_rows(session, APPLICANTS_PAGE_SIZE + 1, *where)
    shown = rows[:APPLICANTS_PAGE_SIZE]
    cursor = None
    if shown:
        last = shown[-1][0]
        cursor = ApplicantsCursor(last.status == ApplicationStatus.PENDING, last.created_at, last.id)
    label = accept_labels(session, job)
    bonds = _bonds(session, job, [application for application, _profile, _chat in shown])
    cards = [_card(application, profile, chat_id, label, bonds) for application, profile, chat_id in shown]
    return ApplicantsPage(job.titulo, cards, len(rows) > APPLICANTS_PAGE_SIZE, cursor)


def reread_cards(session: Session, company_id: int, job_id: object, ids: list[int]) -> list[ApplicantCard]:
    """The cards `ids` of one of the company's jobs as they are now, in the order given.

    After an answer the dialog shows the same cards in the same places with their new status (an
    accepted card keeps its place and gains its chat, instead of moving below every pending one and
    out of the page). Withdrawn applications drop out.

    Raises:
        NotAllowed: Not the company's job.
    """
    job = owned_job(session, company_id, job_id)
    wanted = [card_id for card_id in ids if isinstance(card_id, int)]
    if not wanted:
        return []
    rows = _applicant_rows(session, len(wanted), Application.vaga_id == job.id, Application.id.in_(wanted))
    label = accept_labels(session, job)
    bonds = _bonds(session, job, [application for application, _profile, _chat in rows])
    found = {
        application.id: _card(application, profile, chat_id, label, bonds) for application, profile, chat_id in rows
    }
    return [found[card_id] for card_id in wanted if card_id in found]


def accept_labels(session: Session, job: Job) -> Callable[[Application], str] | None:
    """The label of the accept button of a guaranteed vaga's cards, 'Aceitar e pagar R$ X' (None for a direct one).

    X is what `pricing.job_quote` charges at the applicant's rate (the proposal, else
    the vaga's): the hours' part plus the plan's fee. The plan is read once for all the cards.
    """
    if job.pagamento != PaymentMode.GUARANTEED:
        return None
    percent = pricing.fee_percent(session, job.cliente_id)
    minutes = shift_pay.scheduled_minutes(job.inicio_em, job.fim_em, job.intervalo_min) if job.inicio_em else 0

    def label(application: Application) -> str:
        rate = application.valor_proposto if application.valor_proposto is not None else job.valor_hora
        part = shift_pay.pay(minutes, shift_pay.centavos(rate))
        total = part + pricing.fee(part, percent)
        return f"Aceitar e pagar {money(Decimal(total) / 100)}"

    return label


def _bonds(session: Session, job: Job, shown: list[Application]) -> dict[int, BondNotice]:
    """The thermometer of each pending applicant for this vaga's shift (one statement; none without a start)."""
    pending = [application.freelancer_id for application in shown if application.status == ApplicationStatus.PENDING]
    if not pending or job.inicio_em is None:
        return {}
    found = bond.readings(session, job.cliente_id, dict.fromkeys(pending, job.inicio_em))
    return {freelancer: bond.notice(reading) for freelancer, reading in found.items()}


def _card(
    application: Application,
    profile: Profile | None,
    chat_id: int | None,
    pay_label: Callable[[Application], str] | None = None,
    bonds: dict[int, BondNotice] | None = None,
) -> ApplicantCard:
    skills = list(profile.habilidades) if profile else []
    extra = len(skills) - SKILLS_SHOWN
    return ApplicantCard(
        id=application.id,
        freelancer_id=application.freelancer_id,
        name=(profile.nome if profile and profile.nome else PROFILE_NOT_FOUND),
        profession=profile.profissao if profile else "",
        photo=profile.foto_url if profile else "",
        skills=skills[:SKILLS_SHOWN],
        more_skills=f"+{extra} mais" if extra > 0 else "",
        proposal=f"{money(application.valor_proposto)}/hora"
        if application.valor_proposto is not None
        else "Sem contra-proposta",
        message=application.mensagem,
        status=application.status,
        chat_id=chat_id or 0,
        date=long_date(application.created_at),
        has_profile=profile is not None,
        guaranteed=pay_label is not None,
        accept_label=pay_label(application) if pay_label is not None else ACCEPT,
        bond=(bonds or {}).get(application.freelancer_id, bond.NO_NOTICE),
    )


def freelancer_profile(session: Session, company_id: int, freelancer_id: object) -> FreelancerProfileView:
    """A freelancer's profile for a company that received an application from them.

    Raises:
        NotAllowed: With 'Perfil não encontrado' when the company has no application from them.
    """
    freelancer_id = require_id(freelancer_id, PROFILE_NOT_FOUND)
    applied = session.exec(
        select(Application.id)
        .join(Job, Job.id == Application.vaga_id)
        .where(Application.freelancer_id == freelancer_id, Job.cliente_id == company_id)
    ).first()
    profile = session.get(Profile, freelancer_id) if applied is not None else None
    if profile is None:
        raise NotAllowed(PROFILE_NOT_FOUND)
    return FreelancerProfileView(
        id=freelancer_id,
        name=profile.nome or "Freelancer",
        profession=profile.profissao,
        location=profile.localizacao,
        photo=profile.foto_url,
        bio=profile.biografia,
        skills=list(profile.habilidades),
        experience=profile.experiencia_descricao,
        website=profile.website,
        rating=ratings.summary(session, freelancer_id).text,
    )


def proposal_text(value: Decimal | None) -> str:
    """A proposed hourly value for display ('Sem contra-proposta' when absent)."""
    return hourly_pay(value) if value is not None else "Sem contra-proposta"
