"""The company's answer to an application: accepting it (and hiring) or rejecting it.

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

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select, update

from core import routes
from core.types import utcnow
from models import Actor, Application, ApplicationStatus, Chat, Hiring, HiringState, Job, NotificationType, PaymentMode
from services.common.errors import NotAllowed, ServiceError, require_id
from services.jobs import company_jobs, hiring_positions, job_lifecycle, pricing, shift_pay
from services.jobs.company_jobs import owned_job
from services.reach import chat_sending
from services.reach.notifications import notify
from services.shifts import bond, hiring_lifecycle, overlaps
from services.shifts.applications import NOT_FOUND, NOT_PENDING

POSITIONS_FILLED = "Todas as posições desta vaga já foram preenchidas."


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
    if job.pagamento == PaymentMode.GUARANTEED:
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
    if job.pagamento == PaymentMode.GUARANTEED:
        return chat_id  # the freelancer hears of it when the payment arrives (services/money/)
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
        "pagamento": job.pagamento,
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
