"""Applications: a freelancer applies, withdraws; the job's company lists, accepts or rejects.

`accept` is the one place an application is accepted: it checks the caller owns the job, locks the
job row, reads the application again under that lock, enforces the number of positions, flips the
status with a conditional update (so two clicks or two tabs accept once), refuses a freelancer who
holds a shift at an overlapping time (services/shifts/overlaps.py), finds or creates the chat
with its welcome message, moves a full job to in_progress and notifies the freelancer, all in the
caller's single transaction.

Every status change is a conditional statement on the row as it is in the database (`... WHERE
status = 'pending'`), never a write-back of a row read earlier: a request that read an application
before another request answered it must not overwrite that answer (a rejected hire with an open
chat, or a withdrawn acceptance).
"""

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple, TypedDict

from sqlalchemy import and_, bindparam, exists, insert, or_
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete, select, update

from core import routes
from core.db import lock_for_write
from core.formatting import hourly_pay, long_date, money
from core.types import utcnow
from models import (
    Actor,
    Application,
    ApplicationStatus,
    Chat,
    Hiring,
    HiringState,
    Job,
    NotificationType,
    Profile,
)
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.hiring_forms import ApplicationForm
from services.common.validation import parse
from services.jobs import company_jobs, hiring_positions, job_lifecycle, pricing, shift_pay, visibility
from services.jobs.company_jobs import owned_job
from services.reach import chat_sending
from services.reach.notifications import notify
from services.shifts import bond, faltas, hiring_lifecycle, overlaps, ratings
from services.shifts.bond import BondNotice

NOT_FOUND = "Candidatura não encontrada."
JOB_UNAVAILABLE = "Esta vaga não está mais disponível para candidaturas."
ALREADY_APPLIED = "Você já se candidatou a esta vaga."
ONLY_FREELANCERS = "Apenas freelancers podem se candidatar a vagas."
POSITIONS_FILLED = "Todas as posições desta vaga já foram preenchidas."
NOT_PENDING = "Esta candidatura já foi respondida."
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
    if job.pagamento != pricing.GUARANTEED:
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


def hiring_to_pay(session: Session, company_id: int, application_id: int) -> int | None:
    """The hiring of one of the company's accepted applications while it waits for the company's payment.

    Returns:
        The hiring's id, or None (a direct vaga, already paid, expired, or not the company's).
    """
    return session.exec(
        select(Hiring.id).where(
            Hiring.application_id == application_id,
            Hiring.company_id == company_id,
            Hiring.state == HiringState.AWAITING_PAYMENT,
        )
    ).first()


def _owned_application(session: Session, company_id: int, application_id: object) -> tuple[Application, Job]:
    row = session.exec(
        select(Application, Job)
        .join(Job, Job.id == Application.vaga_id)
        .where(Application.id == require_id(application_id, NOT_FOUND), Job.cliente_id == company_id)
    ).first()
    if row is None:
        raise NotAllowed(NOT_FOUND)
    return row


def accept(session: Session, company_id: int, application_id: object, bond_ack: bool | None = None) -> int:
    """Accept a pending application of one of the company's jobs and open its chat.

    Accepting an already accepted application is harmless and returns the same chat. A person
    accepting (every handler) passes `bond_ack`, the 'Estou ciente e assumo a responsabilidade' box:
    a red 'Termômetro de vínculo' is refused without it (services/shifts/bond.py, one statement). None is
    for code that replays acceptances (fixtures, benchmarks), which no one decides.

    Returns:
        The chat id.

    Raises:
        NotAllowed: Not the company's application (or it was just withdrawn).
        ServiceError: Rejected already, the job is no longer open, every position is filled, the
            thermometer is red and `bond_ack` is False (bond.ACK_REQUIRED), or the freelancer holds a
            shift at an overlapping time (overlaps.ShiftOverlap).
    """
    application, job = _owned_application(session, company_id, application_id)
    job = owned_job(session, company_id, job.id, lock=True)
    application = _current(session, application.id)
    if application.status == ApplicationStatus.ACCEPTED:
        return _chat_for(session, application, job)
    if application.status != ApplicationStatus.PENDING or not job_lifecycle.accepts_hiring(job):
        raise ServiceError(NOT_PENDING)
    if job.pagamento == pricing.GUARANTEED:
        pricing.check_can_accept(session, company_id)
    if bond_ack is not None:
        bond.require_acknowledgement(session, company_id, application.freelancer_id, job.inicio_em, bond_ack)
    if _accepted_count(session, job.id) >= job.vagas_disponiveis:
        raise ServiceError(POSITIONS_FILLED)
    changed = session.exec(
        update(Application)
        .where(Application.id == application.id, Application.status == ApplicationStatus.PENDING)
        .values(status=ApplicationStatus.ACCEPTED, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    application = _current(session, application.id)
    if not changed:  # answered meanwhile by a request the job lock did not hold back (SQLite)
        if application.status != ApplicationStatus.ACCEPTED:
            raise ServiceError(NOT_PENDING)
        return _chat_for(session, application, job)
    accepted = _accepted_count(session, job.id)
    if accepted > job.vagas_disponiveis:  # filled meanwhile where rows cannot be locked; the caller rolls back
        raise ServiceError(POSITIONS_FILLED)
    chat_id = _chat_for(session, application, job)
    _hire(session, application, job)
    if accepted >= job.vagas_disponiveis:
        job_lifecycle.fill(job)
        session.add(job)
    if job.pagamento == pricing.GUARANTEED:
        return chat_id  # the freelancer hears of it when the payment arrives (services/money/protected_payments.py)
    notify(
        session,
        application.freelancer_id,
        NotificationType.APPLICATION_ACCEPTED,
        f'Sua candidatura para a vaga "{job.titulo}" foi aceita!',
        routes.NoticeTarget.FREELANCER_CHAT,
        chat_id,
    )
    return chat_id


def _hire(session: Session, application: Application, job: Job) -> None:
    """The shift of an application just accepted: times from the vaga, rate from the proposal (or the vaga).

    A freelancer who holds a shift at an overlapping time is refused (services/shifts/overlaps.py): their
    shifts are held first, so two accepts of overlapping vagas decide one at a time. The caller's
    transaction rolls back with the refusal, the acceptance above it included.

    Raises:
        overlaps.ShiftOverlap: Naming the held shift's time.
    """
    company_jobs.ensure_shift(job, utcnow())
    session.add(job)
    overlaps.hold_freelancer(session, application.freelancer_id)
    overlaps.refuse_overlap(session, application.freelancer_id, job.inicio_em, job.fim_em, application.id)
    rate = application.valor_proposto if application.valor_proposto is not None else job.valor_hora
    values = {
        "inicio_em": job.inicio_em,
        "fim_em": job.fim_em,
        "intervalo_min": job.intervalo_min,
        "valor_hora_centavos": shift_pay.centavos(rate),
        "payment_mode": job.pagamento,
    }
    earlier = session.exec(select(Hiring).where(Hiring.application_id == application.id)).first()
    if earlier is not None:  # an unpaid acceptance that expired: the same hiring waits for payment again
        hiring_lifecycle.move(
            session, earlier, "aceitar_novamente", Actor.COMPANY, utcnow(), actor_id=job.cliente_id, values=values
        )
        return
    who = {
        "application_id": application.id,
        "job_id": job.id,
        "company_id": job.cliente_id,
        "freelancer_id": application.freelancer_id,
    }
    hiring_lifecycle.create(session, {**who, **values}, utcnow(), job.cliente_id)


def _current(session: Session, application_id: int) -> Application:
    """The application as it is in the database now (not as this session first read it).

    Raises:
        NotAllowed: It no longer exists (withdrawn meanwhile).
    """
    application = session.exec(
        select(Application).where(Application.id == application_id).execution_options(populate_existing=True)
    ).first()
    if application is None:
        raise NotAllowed(NOT_FOUND)
    return application


def _accepted_count(session: Session, job_id: int) -> int:
    """Positions taken: a cancelled or missed shift frees its own (services/jobs/hiring_positions.py)."""
    return hiring_positions.holding(session, job_id)


def _chat_for(session: Session, application: Application, job: Job) -> int:
    """Find or create the application's chat; a new chat gets the welcome message once.

    Two transactions that both find no chat both try to insert one: the unique application_id of
    chats refuses the second, which then returns the first's chat.
    """
    existing = _existing_chat(session, application.id)
    if existing is not None:
        return existing
    chat = Chat(client_id=job.cliente_id, freelancer_id=application.freelancer_id, application_id=application.id)
    try:
        with session.begin_nested():
            session.add(chat)
            session.flush()
    except IntegrityError:
        return _existing_chat(session, application.id)
    chat_sending.post(
        session,
        chat,
        job.cliente_id,
        f'Olá! Sua candidatura para a vaga "{job.titulo}" foi aceita. Vamos combinar os detalhes por aqui.',
    )
    return chat.id


def _existing_chat(session: Session, application_id: int) -> int | None:
    """The id of the application's chat, or None when it has none yet."""
    return session.exec(select(Chat.id).where(Chat.application_id == application_id)).first()


def reject(session: Session, company_id: int, application_id: object) -> None:
    """Reject a pending application of one of the company's jobs and tell the freelancer.

    Raises:
        NotAllowed: Not the company's application.
        ServiceError: It was already answered.
    """
    application, job = _owned_application(session, company_id, application_id)
    changed = session.exec(
        update(Application)
        .where(Application.id == application.id, Application.status == ApplicationStatus.PENDING)
        .values(status=ApplicationStatus.REJECTED, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    application = _current(session, application.id)
    if not changed:
        if application.status == ApplicationStatus.REJECTED:
            return
        raise ServiceError(NOT_PENDING)
    notify(
        session,
        application.freelancer_id,
        NotificationType.APPLICATION_REJECTED,
        f'Sua candidatura para a vaga "{job.titulo}" não foi selecionada desta vez.',
        routes.NoticeTarget.FREELANCER_APPLICATIONS,
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
