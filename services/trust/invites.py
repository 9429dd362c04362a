"""'Contratar novamente': answering and ending a private invite to one freelancer (docs/product/README.md).

The only writer of `invites` besides sending (services/trust/invite_sending.py). 'Aceitar convite'
hires through the same accept as any application (services/shifts/application_answers.py), so the
chat, the shift, 'Pagamento garantido' and the notices behave as always; 'Recusar', 'Cancelar
convite', a block (`end_between`) and expiry (`expire_due`, the timer's step) close the private
vaga. Every answer is a conditional update of the invite's status under the vaga's lock: it moves
once. The lists of invites are services/trust/invite_views.py.
"""

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select, update
from sqlmodel import Session

from core import routes
from core.types import utcnow
from models import Application, Invite, InviteStatus, Job, NotificationType, PaymentMode, Profile
from services.common.errors import NotAllowed, ServiceError
from services.jobs import job_lifecycle
from services.jobs.company_jobs import owned_job
from services.reach.notifications import notify
from services.shifts import application_answers, faltas, overlaps
from services.trust.invite_views import company_shown_name

NOT_FOUND = "Convite não encontrado."
GONE = "Este convite não está mais disponível."
ACCEPTED = "Convite aceito! O turno está em 'Meus Turnos'."
DECLINED = "Convite recusado."
CANCELLED = "Convite cancelado."


def _claim(session: Session, invite: Invite, status: str, now: datetime) -> bool:
    """Move a pending, unexpired invite to `status` once (False: answered, cancelled or expired meanwhile)."""
    alive = [Invite.id == invite.id, Invite.status == InviteStatus.PENDING]
    if status != InviteStatus.EXPIRED:
        alive.append(Invite.expires_at > now)
    return bool(
        session.execute(
            update(Invite)
            .where(*alive)
            .values(status=status, answered_at=now)
            .execution_options(synchronize_session=False)
        ).rowcount
    )


def _own(session: Session, invite_id: object, column, user_id: int) -> Invite:
    invite = session.get(Invite, invite_id) if isinstance(invite_id, int) and not isinstance(invite_id, bool) else None
    if invite is None or getattr(invite, column) != user_id:
        raise NotAllowed(NOT_FOUND)
    return invite


def accept(session: Session, freelancer_id: int, invite_id: object, now: datetime | None = None) -> int:
    """'Aceitar convite': hire the freelancer for the private vaga, through the usual accept.

    Returns:
        The chat id of the hiring.

    Raises:
        NotAllowed: Not the freelancer's invite (NOT_FOUND).
        ServiceError: Answered, cancelled or expired (GONE), a running suspension (faltas.SUSPENDED:
            the invite stays open), a shift the freelancer holds at an overlapping time ('Você já tem
            um turno das 10:57 às 16:57 em 07/12.': the invite stays open), or the accept's own refusals.
    """
    now = now or utcnow()
    invite = _own(session, invite_id, "freelancer_id", freelancer_id)
    faltas.refuse_if_suspended(faltas.suspended_until(session, freelancer_id, now))  # as applying does
    job = owned_job(session, invite.company_id, invite.job_id, lock=True)  # one answer at a time
    if not _claim(session, invite, InviteStatus.ACCEPTED, now):
        raise ServiceError(GONE)
    application_id = session.execute(
        select(Application.id).where(Application.vaga_id == job.id, Application.freelancer_id == freelancer_id)
    ).scalar()
    if application_id is None:
        application = Application(vaga_id=job.id, freelancer_id=freelancer_id, mensagem=invite.mensagem[:500])
        session.add(application)
        session.flush()
        application_id = application.id
    # No bond_ack: the company read the thermometer (and ticked a red one) when it sent the invite.
    try:
        chat_id = application_answers.accept(session, invite.company_id, application_id)
    except overlaps.ShiftOverlap as exc:  # the caller rolls back: the invite stays open
        raise exc.for_freelancer() from None
    name = session.execute(select(Profile.nome).where(Profile.user_id == freelancer_id)).scalar() or "O profissional"
    pay = " Pague pelo card do turno em 'Turnos' para confirmar." if job.pagamento == PaymentMode.GUARANTEED else ""
    notify(
        session,
        invite.company_id,
        NotificationType.OTHER,
        f'{name} aceitou seu convite para "{job.titulo}".{pay}',
        routes.NoticeTarget.COMPANY_SHIFTS,
    )
    return chat_id


def _close(session: Session, job_id: int) -> None:
    job = session.get(Job, job_id)
    if job is not None and job_lifecycle.close(job):
        session.add(job)


def decline(session: Session, freelancer_id: int, invite_id: object, now: datetime | None = None) -> None:
    """'Recusar': the invite ends, its private vaga closes and the company is told.

    Raises:
        NotAllowed: Not the freelancer's invite. ServiceError: already answered or expired (GONE).
    """
    now = now or utcnow()
    invite = _own(session, invite_id, "freelancer_id", freelancer_id)
    owned_job(session, invite.company_id, invite.job_id, lock=True)
    if not _claim(session, invite, InviteStatus.DECLINED, now):
        raise ServiceError(GONE)
    _close(session, invite.job_id)
    name = session.execute(select(Profile.nome).where(Profile.user_id == freelancer_id)).scalar() or "O profissional"
    notify(
        session,
        invite.company_id,
        NotificationType.OTHER,
        f"{name} recusou seu convite.",
        routes.NoticeTarget.COMPANY_TEAM,
    )


def cancel(session: Session, company_id: int, invite_id: object, now: datetime | None = None) -> None:
    """'Cancelar convite': the invite ends, its private vaga closes and the freelancer is told.

    Raises:
        NotAllowed: Not the company's invite. ServiceError: already answered or expired (GONE).
    """
    now = now or utcnow()
    invite = _own(session, invite_id, "company_id", company_id)
    owned_job(session, company_id, invite.job_id, lock=True)
    if not _claim(session, invite, InviteStatus.CANCELLED, now):
        raise ServiceError(GONE)
    _close(session, invite.job_id)
    who = company_shown_name(session, company_id)
    notify(
        session,
        invite.freelancer_id,
        NotificationType.OTHER,
        f"{who} cancelou o convite.",
        routes.NoticeTarget.FREELANCER_HOME,
    )


def end_between(session: Session, company_id: int, freelancer_id: int, now: datetime) -> int:
    """A block ends what is pending between the two: their pending invites are cancelled and their vagas close.

    Silent on purpose (services/trust/blocks.py: a block is never announced). Returns how many ended.
    """
    pending = (
        session.execute(
            select(Invite).where(
                Invite.company_id == company_id,
                Invite.freelancer_id == freelancer_id,
                Invite.status == InviteStatus.PENDING,
            )
        )
        .scalars()
        .all()
    )
    ended = 0
    for invite in pending:
        if _claim(session, invite, InviteStatus.CANCELLED, now):
            _close(session, invite.job_id)
            ended += 1
    return ended


def expire_due(now: datetime, scope: Callable) -> int:
    """The timer's step: pending invites past their time expire, their vagas close, the company is told."""
    with scope() as db:
        due = (
            db.execute(
                select(Invite.id).where(Invite.status == InviteStatus.PENDING, Invite.expires_at <= now).limit(200)
            )
            .scalars()
            .all()
        )
    expired = 0
    for invite_id in due:
        with scope() as db:
            invite = db.get(Invite, invite_id)
            if invite is None or not _claim(db, invite, InviteStatus.EXPIRED, now):
                continue
            _close(db, invite.job_id)
            notify(
                db,
                invite.company_id,
                NotificationType.OTHER,
                "Um convite expirou sem resposta.",
                routes.NoticeTarget.COMPANY_TEAM,
            )
            expired += 1
    return expired
