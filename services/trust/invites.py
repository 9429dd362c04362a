"""'Contratar novamente': a private invite to one freelancer for a new date (docs/product.md).

The only writer of `invites`. Sending copies one shift's vaga (the shift card pressed, else the
pair's latest paid shift) into a private vaga (`jobs.privada`: no one else ever sees it,
services/jobs/visibility.py) for the new date, validated exactly like 'Publicar Nova Vaga'
(services/common/job_forms.py JobForm), and writes the invite, which expires at min(sent + 24 h,
start − 12 h). 'Aceitar convite' hires through the same accept as any application (services/shifts/application_answers.py), so the chat, the shift, 'Pagamento garantido' and the
notices behave as always; 'Recusar', 'Cancelar convite' and expiry close the private vaga. Every
answer is a conditional update of the invite's status under the vaga's lock: it moves once.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import or_, select, update
from sqlmodel import Session

from core import routes
from core.catalog import PAYMENT_DIRECT, PAYMENT_GUARANTEED
from core.formatting import hourly_pay, local
from core.shift_format import shift_text
from core.types import utcnow
from models import (
    Application,
    Hiring,
    HiringState,
    Invite,
    InviteStatus,
    Job,
    NotificationType,
    Profile,
    Role,
    TeamMember,
    User,
)
from services.common.errors import NotAllowed, ServiceError, ValidationFailed, require_id
from services.common.job_forms import JobForm
from services.common.validation import parse
from services.jobs import attendance_code, job_lifecycle, plans, pricing, visibility
from services.jobs.company_jobs import owned_job
from services.jobs.jobs import company_name
from services.reach.notifications import notify
from services.shifts import application_answers, bond, faltas, overlaps
from services.trust import teams

EXPIRY_MAX = timedelta(hours=24)
MIN_NOTICE = timedelta(hours=12)
MESSAGE_MAX = 500
FREE_WEEKS = 8  # how many weeks ahead the prefilled date looks for a day the freelancer is free
SENT_SHOWN = 20
NOT_ELIGIBLE = "Convide para uma nova data quem já fez um turno pago com a sua empresa."
BLOCKED = "Não é possível convidar este profissional."
TOO_SOON = "Convites precisam de pelo menos 12 horas de antecedência."
NOT_FOUND = "Convite não encontrado."
GONE = "Este convite não está mais disponível."
NO_SHIFT = "Turno não encontrado."
NO_TEMPLATE = "Não encontramos a vaga anterior para copiar. Publique uma nova vaga."
MESSAGE_TOO_LONG = f"A mensagem pode ter no máximo {MESSAGE_MAX} caracteres."
SENT = "Convite enviado."
ACCEPTED = "Convite aceito! O turno está em 'Meus Turnos'."
DECLINED = "Convite recusado."
CANCELLED = "Convite cancelado."
# The dialog's fields, and the JobForm fields whose messages they show.
FIELDS = ("data", "inicio", "fim", "valor_hora", "mensagem")
FORM_FIELDS = {"inicio_em": "inicio", "fim_em": "fim", "valor_hora": "valor_hora"}
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


@dataclass(frozen=True)
class InviteDraft:
    """What the dialog starts with: the freelancer's name and the last shift's times and rate."""

    freelancer_id: int
    name: str
    data: str  # 'YYYY-MM-DD', a week after the last shift (or a week from now)
    inicio: str  # 'HH:MM'
    fim: str
    valor_hora: str
    title: str = ""  # the copied vaga's title
    copied: str = ""  # 'Copiado de: Garçom · 10:57–16:57 · R$ 30,00/hora', shown in the dialog
    hiring_id: int = 0  # the copied shift


def _active(session: Session, user_id: int, role: str) -> None:
    user = session.get(User, user_id)
    if user is None or user.role != role or not user.is_active or user.deleted_at is not None:
        raise NotAllowed(NOT_ELIGIBLE)


COPIED = frozenset({HiringState.PAID, HiringState.APPROVED})  # the shifts 'Minha equipe' copies: they happened


def _latest_completed(session: Session, company_id: int, freelancer_id: int) -> Hiring | None:
    """The pair's latest paid (or hours-approved) shift: what 'Minha equipe' copies, never a cancelled one."""
    return (
        session.execute(
            select(Hiring)
            .where(
                Hiring.company_id == company_id,
                Hiring.freelancer_id == freelancer_id,
                Hiring.state.in_(COPIED),
            )
            .order_by(Hiring.inicio_em.desc(), Hiring.id.desc())
            .limit(1)
        )
        .scalars()
        .first()
    )


def card_hiring(session: Session, company_id: int, hiring_id: object) -> Hiring:
    """The company's own hiring pressed on a shift card (by id AND company: another's reads as missing).

    Raises:
        NotAllowed: NO_SHIFT, for a missing id and for another company's hiring alike.
    """
    hiring = session.execute(
        select(Hiring).where(Hiring.id == require_id(hiring_id, NO_SHIFT), Hiring.company_id == company_id)
    ).scalar()
    if hiring is None:
        raise NotAllowed(NO_SHIFT, target=f"hiring {hiring_id!r}")
    return hiring


def _source(session: Session, company_id: int, freelancer_id: int, hiring_id: int | None) -> tuple[Hiring, Job]:
    """The shift an invite copies and its vaga: the card's hiring when given, else the latest completed one.

    Raises:
        NotAllowed: NO_SHIFT (the card's hiring is not the company's, or not with this freelancer),
            or NOT_ELIGIBLE (no completed shift to copy).
    """
    if hiring_id is not None:
        hiring = card_hiring(session, company_id, hiring_id)
        if hiring.freelancer_id != freelancer_id:
            raise NotAllowed(NO_SHIFT, target=f"hiring {hiring_id!r}")
    else:
        hiring = _latest_completed(session, company_id, freelancer_id)
    job = session.get(Job, hiring.job_id) if hiring is not None else None
    if hiring is None or job is None:
        raise NotAllowed(NOT_ELIGIBLE)
    return hiring, job


def _eligible(
    session: Session, company_id: int, freelancer_id: int, hiring_id: int | None = None
) -> tuple[Hiring, Job]:
    """The shift to copy and its vaga, once the company may invite this freelancer.

    Raises:
        NotAllowed: Not a company, no paid shift together and not in the team (NOT_ELIGIBLE), a
            block between them (BLOCKED), or a card's hiring that is not the company's (NO_SHIFT).
    """
    _active(session, company_id, Role.CLIENT)
    _active(session, freelancer_id, Role.FREELANCER)
    member = session.execute(
        select(TeamMember.freelancer_id).where(
            TeamMember.company_id == company_id, TeamMember.freelancer_id == freelancer_id
        )
    ).first()
    if member is None and not teams.worked_together(session, company_id, freelancer_id):
        raise NotAllowed(NOT_ELIGIBLE)
    if session.execute(select(visibility.blocked_between(company_id, freelancer_id))).scalar():
        raise NotAllowed(BLOCKED)
    return _source(session, company_id, freelancer_id, hiring_id)


def _rate(hiring: Hiring, template: Job) -> Decimal | None:
    """The copied shift's hourly rate: the one agreed on it, else its vaga's (None if neither)."""
    return Decimal(hiring.valor_hora_centavos) / 100 if hiring.valor_hora_centavos else template.valor_hora


def _free_week(session: Session, freelancer_id: int, day: date, start: datetime, end: datetime) -> date:
    """The first of the next FREE_WEEKS same weekdays from `day` on which the freelancer holds no overlapping shift.

    `day` itself when every one of them is taken (sending then says which shift is in the way).
    """
    for weeks in range(FREE_WEEKS):
        candidate = day + timedelta(weeks=weeks)
        first = datetime.combine(candidate, start.timetz())
        last = first + (end - start)
        if overlaps.held_shift(session, freelancer_id, first, last) is None:
            return candidate
    return day


def draft(
    session: Session,
    company_id: int,
    freelancer_id: int,
    now: datetime | None = None,
    hiring_id: int | None = None,
) -> InviteDraft:
    """The dialog's starting values for inviting this freelancer again.

    Args:
        session: Open database session.
        company_id: The acting company.
        freelancer_id: Whom to invite.
        now: The clock (utcnow when None).
        hiring_id: The shift card pressed (its vaga, rate and times are copied); None from 'Minha
            equipe': the pair's latest paid shift. The date is the copied shift's weekday, a week
            later at least (12 hours away), skipping weeks the freelancer already holds that time.

    Raises:
        NotAllowed: As `_eligible`.
    """
    now = now or utcnow()
    hiring, template = _eligible(session, company_id, freelancer_id, hiring_id)
    name = session.execute(select(Profile.nome).where(Profile.user_id == freelancer_id)).scalar() or "Profissional"
    start, end = local(hiring.inicio_em), local(hiring.fim_em)
    day = start.date() + timedelta(weeks=1)
    while day <= local(now + MIN_NOTICE).date():
        day += timedelta(weeks=1)
    day = _free_week(session, freelancer_id, day, start, end)
    rate = _rate(hiring, template)
    times = f"{start:%H:%M}–{end:%H:%M}"
    return InviteDraft(
        freelancer_id=freelancer_id,
        name=name,
        data=day.isoformat(),
        inicio=start.strftime("%H:%M"),
        fim=end.strftime("%H:%M"),
        valor_hora=f"{rate:.2f}".replace(".", ",") if rate is not None else "",
        title=template.titulo,
        copied=f"Copiado de: {template.titulo} · {times} · {hourly_pay(rate)}",
        hiring_id=hiring.id,
    )


def _text(data: dict, name: str) -> str:
    value = data.get(name)
    return value.strip() if isinstance(value, str) else ""


def shift_inputs(data: dict) -> tuple[str, str]:
    """The shift's 'datetime-local' start and end from the dialog's date and times (an end before the start is the next day)."""
    day, start, end = _text(data, "data"), _text(data, "inicio"), _text(data, "fim")
    if not (day and start and end):
        return f"{day}T{start}" if day and start else "", ""
    end_day = day
    if end <= start:
        try:
            end_day = (datetime.fromisoformat(day) + timedelta(days=1)).date().isoformat()
        except ValueError:
            return "", ""
    return f"{day}T{start}", f"{end_day}T{end}"


def _form(template: Job, data: dict, now: datetime) -> JobForm:
    """The private vaga's form: the template's fields with the dialog's date, times and rate, checked as publishing is.

    Raises:
        ValidationFailed: On the dialog's fields ('data', 'inicio', 'fim', 'valor_hora'), or NO_TEMPLATE
            when the old vaga itself no longer passes the form's rules.
    """
    start, end = shift_inputs(data)
    values = {
        "titulo": template.titulo,
        "categoria": template.categoria,
        "descricao": template.descricao,
        "localizacao": template.localizacao,
        "valor_hora": _text(data, "valor_hora") or (str(template.valor_hora) if template.valor_hora else ""),
        "inicio_em": start,
        "fim_em": end,
        "intervalo_min": str(template.intervalo_min or 0),
        "endereco": template.endereco,
        "ponto_lat": template.ponto_lat,
        "ponto_lng": template.ponto_lng,
        "habilidades_necessarias": ", ".join(template.habilidades_necessarias or []),
        "vale_transporte": template.vale_transporte,
        "refeicao_local": template.refeicao_local,
        "possui_intervalo": template.possui_intervalo,
        "vagas_disponiveis": "1",
        "pagamento": template.pagamento,
        "o_que_levar": template.o_que_levar,
    }
    try:
        return parse(JobForm, values, now)
    except ValidationFailed as exc:
        shown = {FORM_FIELDS[name]: message for name, message in exc.field_errors.items() if name in FORM_FIELDS}
        if not shown:
            raise ServiceError(NO_TEMPLATE) from None
        if "inicio" in shown and not _text(data, "data"):
            shown["data"] = shown.pop("inicio")
        raise ValidationFailed(shown) from None


def send(
    session: Session,
    company_id: int,
    freelancer_id: int,
    data: dict,
    bond_ack: bool,
    now: datetime | None = None,
    hiring_id: int | None = None,
) -> int:
    """'Enviar convite': a private vaga for the new date and the invite to it (the caller commits).

    The vaga copies the shift `draft` copied: the card's hiring (`hiring_id`), else the pair's latest
    paid shift.

    Returns:
        The invite's id.

    Raises:
        NotAllowed: As `_eligible`.
        ValidationFailed: A bad date, time, rate (the publish form's messages) or a message over 500 characters.
        ServiceError: TOO_SOON, the freelancer holds a shift at an overlapping time
            (overlaps.ShiftOverlap), the 'Termômetro de vínculo' is red and `bond_ack` is not ticked
            (bond.ACK_REQUIRED), or the plan allows no more vagas (plans.PlanLimitReached).
    """
    now = now or utcnow()
    _hiring, template = _eligible(session, company_id, freelancer_id, hiring_id)
    message = _text(data, "mensagem")
    if len(message) > MESSAGE_MAX:
        raise ValidationFailed({"mensagem": MESSAGE_TOO_LONG})
    form = _form(template, data, now)
    if form.inicio_em - MIN_NOTICE <= now:
        raise ServiceError(TOO_SOON)
    overlaps.refuse_overlap(session, freelancer_id, form.inicio_em, form.fim_em)  # checked again on acceptance
    if form.pagamento == pricing.GUARANTEED:
        pricing.check_can_accept(session, company_id)
    bond.require_acknowledgement(session, company_id, freelancer_id, form.inicio_em, bond_ack)
    plans.ensure_can_publish(session, company_id)
    job = Job(cliente_id=company_id, codigo_segredo=attendance_code.new_secret(), privada=True, **form.job_values())
    session.add(job)
    session.flush()
    invite = Invite(
        job_id=job.id,
        company_id=company_id,
        freelancer_id=freelancer_id,
        mensagem=message,
        created_at=now,
        expires_at=min(now + EXPIRY_MAX, form.inicio_em - MIN_NOTICE),
    )
    session.add(invite)
    session.flush()
    who = company_name(False, *_names(session, company_id))
    notify(
        session,
        freelancer_id,
        NotificationType.OTHER,
        f'{who} convidou você para "{job.titulo}" em {_when(job)}. Responda até {_expiry(invite.expires_at)}.',
        routes.NoticeTarget.FREELANCER_HOME,
    )
    return invite.id


def _names(session: Session, user_id: int) -> tuple[str | None, str | None]:
    row = session.execute(select(Profile.empresa, Profile.nome).where(Profile.user_id == user_id)).first()
    return (row.empresa, row.nome) if row is not None else (None, None)


def _when(job: Job) -> str:
    return shift_text(job.inicio_em, job.fim_em, job.intervalo_min)


def _expiry(moment: datetime) -> str:
    return local(moment).strftime("%d/%m às %H:%M")


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
    pay = " Pague pelo card do turno em 'Turnos' para confirmar." if job.pagamento == pricing.GUARANTEED else ""
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
    who = company_name(False, *_names(session, company_id))
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
            shift=_when(job),
            place=job.endereco or job.localizacao,
            pay=hourly_pay(job.valor_hora),
            payment=PAYMENT_GUARANTEED if job.pagamento == pricing.GUARANTEED else PAYMENT_DIRECT,
            message=invite.mensagem,
            expires=_expiry(invite.expires_at),
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
