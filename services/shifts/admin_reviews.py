"""Turno staff's back office (/admin): open disputes and review requests with their evidence, and decisions.

Three kinds of request wait for staff (docs/product/staff.md "Turno staff (/admin)"): a 'Disputa de horas'
(the freelancer contested the company's adjustment), a 'Contestação de ausência' (the freelancer
contested a 'Não compareceu'), both `review_requests.kind == 'disputa'` on a hiring `em_disputa`
and told apart by the contest in the hiring's events, and a 'Revisão de falta' (`kind ==
'revisao'`, one falta). Each is shown with the evidence both sides already see: the shift, the
attendance records (time, method and distance bucket; coordinates are never stored), the hours
sent and adjusted, the whole 'Linha do tempo' and the conversation of the two.

Every function checks that the caller is Turno staff (role 'admin', active) in the database, so a
handler that forgot to check would still be refused. A dispute is decided through
`services.shifts.shifts.act(..., 'decidir', ...)` (the state table and its notices to both sides); a falta
review through `services.shifts.faltas.decide_review`, and the freelancer is notified here.
"""

from datetime import datetime
from typing import NamedTuple, TypedDict

from sqlalchemy import func
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from core import geo, routes
from core import shift_rules as rules
from core.formatting import date_time, local
from models import (
    Chat,
    Falta,
    Hiring,
    HiringEvent,
    Job,
    Message,
    NotificationType,
    Profile,
    ReviewRequest,
    Role,
    User,
)
from services.common import paging
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.validation import visible_length
from services.jobs import shift_pay
from services.reach.notifications import notify
from services.shifts import faltas, hiring_lifecycle, hiring_rules, shifts
from services.shifts.hiring_actions import WHO, done_text, state_label

PAGE_SIZE = 10
RECENT_DECISIONS = 20
MESSAGES_SHOWN = 100
NOT_FOUND = "Pedido não encontrado."
DECIDED_ALREADY = "Este pedido já foi decidido."
REASON_SHORT = shifts.REASON_SHORT
PICK_DECISION = shifts.PICK_DECISION
DONE = "Decisão registrada"
REVIEWED_NOTICE = "A equipe Turno revisou sua falta: {decisao}. Motivo: {motivo}"

HOURS, ABSENCE, FALTA = "horas", "ausencia", "falta"
KIND_LABELS = {HOURS: "Disputa de horas", ABSENCE: "Contestação de ausência", FALTA: "Revisão de falta"}
# The decisions each kind offers (the form's radio values).
DECISIONS = {HOURS: ("aprovar",), ABSENCE: ("aprovar", "falta"), FALTA: ("remover", "manter")}
DECISION_LABELS = {
    "aprovar": "Horas aprovadas",
    "falta": "Ausência mantida",
    "falta_removida": "Falta removida",
    "falta_mantida": "Falta mantida",
}
_CONTESTS = {"contestar_falta": ABSENCE, "contestar_ajuste": HOURS}


class TimelineEntry(TypedDict):
    """One step of the 'Linha do tempo': when, who, what, the state change and the reason given."""

    at: str
    who: str
    what: str
    change: str
    reason: str


class AttendanceRecord(TypedDict):
    """A check-in or check-out as recorded: time, method and distance bucket (never coordinates)."""

    label: str
    time: str
    method: str
    distance: str


class EvidenceMessage(TypedDict):
    """A message of the two sides' conversation."""

    at: str
    who: str
    text: str


class OpenReview(TypedDict):
    """One request waiting for staff, with everything the decision rests on."""

    id: int
    kind: str
    kind_label: str
    job_title: str
    company: str
    freelancer: str
    shift: str
    state: str
    requested_at: str
    requested_by: str
    reason: str
    records: list[AttendanceRecord]
    scheduled_hours: str
    hours_sent: str
    hours_adjusted: str
    adjustment_reason: str
    default_hours: str
    falta: str
    offers_absence: bool
    timeline: list[TimelineEntry]
    messages: list[EvidenceMessage]


class DecidedReview(TypedDict):
    """A request staff decided, with the decision and its reason."""

    id: int
    kind_label: str
    job_title: str
    company: str
    freelancer: str
    decided_at: str
    decision: str
    reason: str


class _Row(NamedTuple):
    request: ReviewRequest
    hiring: Hiring
    title: str
    company: str
    freelancer: str
    falta: Falta | None


def require_staff(session: Session, user_id: int) -> None:
    """Raises NotAllowed unless `user_id` is an active Turno staff account (read from the database)."""
    role = session.exec(
        select(User.role).where(User.id == user_id, User.is_active, User.deleted_at.is_(None))  # type: ignore[union-attr]
    ).first()
    if role != Role.ADMIN:
        raise NotAllowed(NOT_FOUND, target="admin back office")


def _rows_query():
    company, freelancer = aliased(Profile), aliased(Profile)
    return (
        select(
            ReviewRequest,
            Hiring,
            Job.titulo,
            func.coalesce(func.nullif(company.empresa, ""), company.nome, ""),
            func.coalesce(freelancer.nome, ""),
            Falta,
        )
        .join(Hiring, Hiring.id == ReviewRequest.hiring_id)
        .join(Job, Job.id == Hiring.job_id)
        .outerjoin(company, company.user_id == Hiring.company_id)
        .outerjoin(freelancer, freelancer.user_id == Hiring.freelancer_id)
        .outerjoin(Falta, Falta.id == ReviewRequest.falta_id)
    )


def open_reviews(session: Session, staff_id: int, page: object = 1) -> paging.Page[OpenReview]:
    """One page of the requests no one has decided yet, oldest first, with their evidence.

    Four statements whatever the page holds: the count, the requests with their hiring, job, names
    and falta, every event of those hirings, and the latest MESSAGES_SHOWN messages of each chat.

    Args:
        session: Open database session.
        staff_id: The caller (must be Turno staff).
        page: The page asked for (any value; clamped).

    Raises:
        NotAllowed: The caller is not Turno staff.
    """
    require_staff(session, staff_id)
    is_open = ReviewRequest.decided_at.is_(None)  # type: ignore[union-attr]
    total = session.exec(select(func.count()).select_from(ReviewRequest).where(is_open)).one()
    number, pages = paging.clamp(page, total, PAGE_SIZE)
    rows = [
        _Row(*row)
        for row in session.exec(
            _rows_query()
            .where(is_open)
            .order_by(ReviewRequest.created_at, ReviewRequest.id)
            .offset(paging.offset(number, PAGE_SIZE))
            .limit(PAGE_SIZE)
        ).all()
    ]
    events = _events(session, {row.hiring.id for row in rows})
    messages = _messages(session, rows)
    items = [
        _open_item(row, events.get(row.hiring.id, []), messages.get(row.hiring.application_id, [])) for row in rows
    ]
    return paging.Page(items=items, total=total, page=number, pages=pages)


def recent_decisions(session: Session, staff_id: int, limit: int = RECENT_DECISIONS) -> list[DecidedReview]:
    """The latest decisions (newest first) with their reasons.

    Raises:
        NotAllowed: The caller is not Turno staff.
    """
    require_staff(session, staff_id)
    rows = [
        _Row(*row)
        for row in session.exec(
            _rows_query()
            .where(ReviewRequest.decided_at.is_not(None))  # type: ignore[union-attr]
            .order_by(ReviewRequest.decided_at.desc(), ReviewRequest.id.desc())  # type: ignore[union-attr]
            .limit(limit)
        ).all()
    ]
    contests = _contests(session, {row.hiring.id for row in rows if row.request.kind != "revisao"})
    return [
        DecidedReview(
            id=row.request.id,
            kind_label=KIND_LABELS[FALTA if row.request.kind == "revisao" else contests.get(row.hiring.id, HOURS)],
            job_title=row.title,
            company=row.company,
            freelancer=row.freelancer,
            decided_at=date_time(row.request.decided_at),
            decision=DECISION_LABELS.get(row.request.decisao, row.request.decisao),
            reason=row.request.decisao_motivo,
        )
        for row in rows
    ]


def _events(session: Session, hiring_ids: set[int]) -> dict[int, list[HiringEvent]]:
    """Every event of the hirings, in order, by hiring."""
    found: dict[int, list[HiringEvent]] = {}
    if not hiring_ids:
        return found
    for event in session.exec(
        select(HiringEvent)
        .where(HiringEvent.hiring_id.in_(hiring_ids))  # type: ignore[attr-defined]
        .order_by(HiringEvent.hiring_id, HiringEvent.at, HiringEvent.id)
    ).all():
        found.setdefault(event.hiring_id, []).append(event)
    return found


def _contests(session: Session, hiring_ids: set[int]) -> dict[int, str]:
    """What each disputed hiring's latest contest was about: HOURS or ABSENCE."""
    if not hiring_ids:
        return {}
    rows = session.exec(
        select(HiringEvent.hiring_id, HiringEvent.action)
        .where(HiringEvent.hiring_id.in_(hiring_ids), HiringEvent.action.in_(list(_CONTESTS)))  # type: ignore[attr-defined]
        .order_by(HiringEvent.at, HiringEvent.id)
    ).all()
    return {hiring_id: _CONTESTS[action] for hiring_id, action in rows}


def _kind(request: ReviewRequest, events: list[HiringEvent]) -> str:
    if request.kind == "revisao":
        return FALTA
    contests = [_CONTESTS[e.action] for e in events if e.action in _CONTESTS]
    return contests[-1] if contests else HOURS


def _messages(session: Session, rows: list[_Row]) -> dict[int, list[EvidenceMessage]]:
    """The latest MESSAGES_SHOWN messages of each hiring's chat, oldest first, by application id."""
    sides = {row.hiring.application_id: row for row in rows}
    if not sides:
        return {}
    ranked = (
        select(
            Chat.application_id,
            Message.id,
            Message.sender_id,
            Message.content,
            Message.created_at,
            func.row_number()
            .over(partition_by=Message.chat_id, order_by=(Message.created_at.desc(), Message.id.desc()))
            .label("position"),
        )
        .join(Chat, Chat.id == Message.chat_id)
        .where(Chat.application_id.in_(list(sides)))  # type: ignore[attr-defined]
        .subquery()
    )
    found: dict[int, list[EvidenceMessage]] = {}
    for application_id, _id, sender_id, content, created_at, _position in session.execute(
        select(ranked)
        .where(ranked.c.position <= MESSAGES_SHOWN)
        .order_by(ranked.c.application_id, ranked.c.created_at, ranked.c.id)
    ).all():
        row = sides[application_id]
        if sender_id == row.hiring.company_id:
            who = f"Empresa · {row.company}"
        elif sender_id == row.hiring.freelancer_id:
            who = f"Profissional · {row.freelancer}"
        else:
            who = "Usuário removido"
        found.setdefault(application_id, []).append(EvidenceMessage(at=date_time(created_at), who=who, text=content))
    return found


def _state(value: str) -> str:
    return state_label(value) if value else ""


def _timeline(events: list[HiringEvent]) -> list[TimelineEntry]:
    entries = []
    for event in events:
        if event.from_state and event.to_state and event.from_state != event.to_state:
            change = f"{_state(event.from_state)} → {_state(event.to_state)}"
        else:
            change = _state(event.to_state)
        entries.append(
            TimelineEntry(
                at=date_time(event.at),
                who=WHO.get(event.actor, event.actor),
                what=done_text(event.action, event.to_state) or event.action,
                change=change,
                reason=event.reason,
            )
        )
    return entries


def _record(label: str, at: datetime | None, method: str, distance: str) -> AttendanceRecord:
    if at is None:
        return AttendanceRecord(label=label, time="Não registrada", method="", distance="")
    return AttendanceRecord(
        label=label,
        time=date_time(at),
        method=shifts.METHODS.get(method, method or "—"),
        distance=geo.BUCKETS.get(distance, "—"),
    )


def _clock_text(minutes: int | None) -> str:
    """Minutes as the approval field takes them: '7:30' ('' when unknown)."""
    return f"{minutes // 60}:{minutes % 60:02d}" if minutes else ""


def default_minutes(hiring: Hiring, kind: str) -> int | None:
    """What 'Aprovar horas' approves when staff leaves the hours as they are.

    An hours dispute: the adjusted hours, else the hours sent. A contested absence: the hours the
    records show, else the scheduled hours (the freelancer says they worked the shift).
    """
    if kind == HOURS:
        return hiring.minutos_ajuste or hiring.minutos_enviados
    if kind == ABSENCE:
        return (
            hiring.minutos_ajuste
            or hiring.minutos_enviados
            or shifts.prefilled_minutes(hiring)
            or hiring_rules.scheduled_minutes(hiring)
        )
    return None


def _falta_text(falta: Falta | None) -> str:
    if falta is None:
        return ""
    plural = "falta" if falta.pontos == 1 else "faltas"
    status = "removida" if falta.removida_em is not None else "ativa"
    motivo = faltas.MOTIVOS.get(falta.motivo, falta.motivo)
    return f"{motivo} ({falta.pontos} {plural}), registrada em {date_time(falta.created_at)}: {status}"


def _shift_text(hiring: Hiring) -> str:
    start, end = local(hiring.inicio_em), local(hiring.fim_em)
    return f"{start:%d/%m/%Y}, {start:%H:%M}–{end:%H:%M}"


def _open_item(row: _Row, events: list[HiringEvent], messages: list[EvidenceMessage]) -> OpenReview:
    h, request = row.hiring, row.request
    kind = _kind(request, events)
    if request.requested_by == h.freelancer_id:
        requested_by = f"Profissional · {row.freelancer}"
    elif request.requested_by == h.company_id:
        requested_by = f"Empresa · {row.company}"
    else:
        requested_by = "—"
    return OpenReview(
        id=request.id,
        kind=kind,
        kind_label=KIND_LABELS[kind],
        job_title=row.title,
        company=row.company,
        freelancer=row.freelancer,
        shift=_shift_text(h),
        state=_state(h.state),
        requested_at=date_time(request.created_at),
        requested_by=requested_by,
        reason=request.motivo,
        records=[
            _record("Chegada", h.chegada_em, h.chegada_metodo, h.chegada_distancia),
            _record("Saída", h.saida_em, h.saida_metodo, h.saida_distancia),
        ],
        scheduled_hours=shift_pay.hours_text(hiring_rules.scheduled_minutes(h)),
        hours_sent=shift_pay.hours_text(h.minutos_enviados),
        hours_adjusted=shift_pay.hours_text(h.minutos_ajuste),
        adjustment_reason=h.ajuste_motivo,
        default_hours=_clock_text(default_minutes(h, kind)),
        falta=_falta_text(row.falta),
        offers_absence=kind == ABSENCE,
        timeline=_timeline(events),
        messages=messages,
    )


def _text(data: dict, key: str) -> str:
    """A form value as typed: text only (anything else a browser sends counts as blank), spaces folded."""
    value = data.get(key)
    return " ".join(value.split()) if isinstance(value, str) else ""


def _reason(data: dict) -> str:
    reason = _text(data, "reason")
    if visible_length(reason, rules.ADJUST_REASON_MIN) < rules.ADJUST_REASON_MIN:
        raise ServiceError(REASON_SHORT, {"reason": REASON_SHORT})
    return reason[:500]


def _say_what_is_missing(decided: bool, data: dict) -> None:
    """A decision not chosen: say so, and in the same message a missing reason (every blank at once)."""
    if decided:
        return
    try:
        _reason(data)
    except ServiceError:
        raise ServiceError(f"{PICK_DECISION} {REASON_SHORT}", {"reason": REASON_SHORT}) from None
    raise ServiceError(PICK_DECISION)


def decide(session: Session, staff_id: int, request_id: object, data: dict, now: datetime) -> str:
    """Record staff's decision on an open request, with its reason, and tell the people concerned.

    Args:
        session: Open session (the caller commits; a refusal leaves nothing written).
        staff_id: The caller (must be Turno staff).
        request_id: The request (any value; validated here).
        data: The form: 'decision' (one of DECISIONS of the request's kind), 'reason' (≥ 10
            characters) and, to approve hours, optional 'hours' ('7:30'; blank: `default_minutes`).
        now: The time of the decision.

    Returns:
        DONE, the toast's title.

    Raises:
        NotAllowed: Not staff, or no such request (the same answer).
        ServiceError: Decided already, a decision the kind does not offer, a short reason, bad
            hours, or the hiring moved meanwhile.
    """
    require_staff(session, staff_id)
    data = data if isinstance(data, dict) else {}
    request = session.exec(
        select(ReviewRequest)
        .where(ReviewRequest.id == require_id(request_id, NOT_FOUND))
        .execution_options(populate_existing=True)
    ).first()
    if request is None:
        raise NotAllowed(NOT_FOUND, target=f"review request {request_id}")
    if request.decided_at is not None:
        raise ServiceError(DECIDED_ALREADY)
    hiring = hiring_lifecycle.reread(session, request.hiring_id)
    kind = _kind(request, _events(session, {hiring.id}).get(hiring.id, []))
    decision = _text(data, "decision")
    _say_what_is_missing(decision in DECISIONS[kind], data)
    reason = _reason(data)
    if kind == FALTA:
        removed = decision == "remover"
        faltas.decide_review(session, request.id, staff_id, removed, reason, now)
        notify(
            session,
            hiring.freelancer_id,
            NotificationType.SHIFT,
            REVIEWED_NOTICE.format(decisao="falta removida" if removed else "falta mantida", motivo=reason),
            routes.NoticeTarget.FREELANCER_SHIFTS,
        )
        return DONE
    payload = {"decision": decision, "reason": reason}
    if decision == "aprovar":
        payload["hours"] = _text(data, "hours") or _clock_text(default_minutes(hiring, kind))
    outcome = shifts.act(session, staff_id, Role.ADMIN, hiring.id, "decidir", payload, now)
    return outcome.message
