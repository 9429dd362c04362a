"""'Contratar novamente': the dialog's starting values (`draft`) and sending the invite (`send`).

Sending copies one shift's vaga (the shift card pressed, else the pair's latest paid shift) into a
private vaga (`jobs.privada`: no one else ever sees it, services/jobs/visibility.py) for the new
date, validated exactly like 'Publicar Nova Vaga' (services/common/job_forms.py JobForm), and
writes the invite, which expires at min(sent + 24 h, start − 12 h).
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import select
from sqlmodel import Session

from core import routes
from core.formatting import hourly_pay, local
from core.types import utcnow
from models import Hiring, HiringState, Invite, Job, NotificationType, PaymentMode, Profile, Role, TeamMember, User
from services.common.errors import NotAllowed, ServiceError, ValidationFailed, require_id
from services.common.job_forms import JobForm
from services.common.validation import parse
from services.jobs import attendance_code, plans, pricing, visibility
from services.reach.notifications import notify
from services.shifts import bond, overlaps
from services.trust import teams
from services.trust.invite_views import company_shown_name, expiry_text, invite_shift

EXPIRY_MAX = timedelta(hours=24)
MIN_NOTICE = timedelta(hours=12)
MESSAGE_MAX = 500
FREE_WEEKS = 8  # how many weeks ahead the prefilled date looks for a day the freelancer is free
NOT_ELIGIBLE = "Convide para uma nova data quem já fez um turno pago com a sua empresa."
BLOCKED = "Não é possível convidar este profissional."
TOO_SOON = "Convites precisam de pelo menos 12 horas de antecedência."
NO_SHIFT = "Turno não encontrado."
NO_TEMPLATE = "Não encontramos a vaga anterior para copiar. Publique uma nova vaga."
MESSAGE_TOO_LONG = f"A mensagem pode ter no máximo {MESSAGE_MAX} caracteres."
SENT = "Convite enviado."
# The dialog's fields, and the JobForm fields whose messages they show.
FIELDS = ("data", "inicio", "fim", "valor_hora", "mensagem")
FORM_FIELDS = {"inicio_em": "inicio", "fim_em": "fim", "valor_hora": "valor_hora"}


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
    if form.pagamento == PaymentMode.GUARANTEED:
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
    who = company_shown_name(session, company_id)
    notify(
        session,
        freelancer_id,
        NotificationType.OTHER,
        f'{who} convidou você para "{job.titulo}" em {invite_shift(job)}. Responda até {expiry_text(invite.expires_at)}.',
        routes.NoticeTarget.FREELANCER_HOME,
    )
    return invite.id
