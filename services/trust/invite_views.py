"""The invites as people see them: the freelancer's open ones, the company's sent ones, the export.

Also the texts an invite's notices share with these lists: the company's shown name, the shift
in one line and the expiry.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select
from sqlmodel import Session

from core.catalog import PAYMENT_DIRECT, PAYMENT_GUARANTEED
from core.formatting import hourly_pay, local
from core.shift_format import shift_text
from core.types import utcnow
from models import Invite, InviteStatus, Job, PaymentMode, Profile
from services.jobs.jobs import company_name

SENT_SHOWN = 20
STATUS_LABELS = {
    InviteStatus.PENDING: "Aguardando resposta",
    InviteStatus.ACCEPTED: "Aceito",
    InviteStatus.DECLINED: "Recusado",
    InviteStatus.EXPIRED: "Expirado",
    InviteStatus.CANCELLED: "Cancelado",
}


@dataclass(frozen=True)
class InviteView:
    """One invite as either side sees it."""

    id: int
    company: str
    freelancer: str
    title: str
    shift: str
    place: str
    pay: str
    payment: str
    message: str
    expires: str  # '29/11 às 14:00'
    status: str
    status_label: str


def company_shown_name(session: Session, company_id: int) -> str:
    """The company's name as an invite's notices show it (its company name, else its person's)."""
    row = session.execute(select(Profile.empresa, Profile.nome).where(Profile.user_id == company_id)).first()
    return company_name(False, *((row.empresa, row.nome) if row is not None else (None, None)))


def invite_shift(job: Job) -> str:
    """The invited shift in one line: 'sáb., 28/11 · 18:00–02:00 (8h, intervalo 60 min)' (core/shift_format.py)."""
    return shift_text(job.inicio_em, job.fim_em, job.intervalo_min)


def expiry_text(moment: datetime) -> str:
    """When an invite expires, as shown: '29/11 às 14:00' (São Paulo time)."""
    return local(moment).strftime("%d/%m às %H:%M")


def _views(session: Session, *where, limit: int | None = None) -> list[InviteView]:
    company_profile = Profile.__table__.alias("company_profile")
    freelancer_profile = Profile.__table__.alias("freelancer_profile")
    statement = (
        select(
            Invite,
            Job,
            company_profile.c.empresa,
            company_profile.c.nome,
            freelancer_profile.c.nome.label("freelancer_name"),
        )
        .join(Job, Job.id == Invite.job_id)
        .join(company_profile, company_profile.c.user_id == Invite.company_id, isouter=True)
        .join(freelancer_profile, freelancer_profile.c.user_id == Invite.freelancer_id, isouter=True)
        .where(*where)
        .order_by(Invite.created_at.desc(), Invite.id.desc())
    )
    if limit:
        statement = statement.limit(limit)
    return [
        InviteView(
            id=invite.id,
            company=company_name(False, empresa, nome),
            freelancer=freelancer_name or "Profissional",
            title=job.titulo,
            shift=invite_shift(job),
            place=job.endereco or job.localizacao,
            pay=hourly_pay(job.valor_hora),
            payment=PAYMENT_GUARANTEED if job.pagamento == PaymentMode.GUARANTEED else PAYMENT_DIRECT,
            message=invite.mensagem,
            expires=expiry_text(invite.expires_at),
            status=invite.status,
            status_label=STATUS_LABELS.get(invite.status, invite.status),
        )
        for invite, job, empresa, nome, freelancer_name in session.execute(statement).all()
    ]


def pending_for(session: Session, freelancer_id: int, now: datetime | None = None) -> list[InviteView]:
    """The freelancer's invites still open to an answer, newest first."""
    now = now or utcnow()
    return _views(
        session, Invite.freelancer_id == freelancer_id, Invite.status == InviteStatus.PENDING, Invite.expires_at > now
    )


def sent_by(session: Session, company_id: int) -> list[InviteView]:
    """The company's last SENT_SHOWN invites, newest first, whatever their status."""
    return _views(session, Invite.company_id == company_id, limit=SENT_SHOWN)


def export(session: Session, user_id: int) -> list[dict]:
    """'Baixar meus dados': the invites this account sent or received."""
    return [
        {
            "empresa": view.company,
            "profissional": view.freelancer,
            "vaga": view.title,
            "turno": view.shift,
            "mensagem": view.message,
            "expira": view.expires,
            "situacao": view.status_label,
        }
        for view in _views(session, or_(Invite.company_id == user_id, Invite.freelancer_id == user_id))
    ]
