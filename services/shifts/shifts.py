"""What each side does with a hiring after 'Candidatura aceita' (docs/product/shifts.md "Turnos").

`act` is the one entry point of the screens: it finds the hiring the caller may touch (the company
that hired, the freelancer hired, or Turno staff for decisions), reads and checks the action's
input, computes what the step records (times, minutes, amounts, faltas) and moves the hiring through
services/shifts/hiring_lifecycle.py, which refuses anything its state table does not allow. The other side
is notified (live and by e-mail) in the same transaction.
"""

from datetime import datetime
from typing import NamedTuple

from sqlmodel import Session, select

from core import geo, routes
from core import shift_rules as rules
from core.formatting import local, money_cents
from models import Actor, Hiring, HiringState, Job, NotificationType, PaymentMode, Profile, ReviewRequest
from services.common.errors import NotAllowed, ServiceError, require_id
from services.common.validation import visible_length
from services.jobs import attendance_code, shift_pay
from services.reach.notifications import notify
from services.shifts import faltas, hiring_actions, hiring_lifecycle, hiring_rules
from services.shifts.hiring_actions import CATALOG
from services.shifts.hiring_actions import HiringAction as A
from services.shifts.hiring_lifecycle import HiringMoveRefused

NOT_FOUND = "Turno não encontrado."
WRONG_CODE = "Código incorreto. Confira o código na tela da empresa."
TOO_MANY_CODES = "Muitas tentativas com código incorreto. Aguarde 10 minutos ou use 'Não consigo registrar'."
TOO_FAR = "Sua localização está a {distancia} do local do turno. Use o código da empresa ou 'Não consigo registrar'."
NO_POINT = "Este turno não tem um local marcado no mapa. Use o código da empresa ou 'Não consigo registrar'."
BAD_READING = "Não recebemos uma leitura de localização válida. Tente de novo ou use o código."
TOO_IMPRECISE = "Sua localização veio imprecisa demais (mais de 5 km). Tente de novo ao ar livre ou use o código."
REASON_SHORT = "Explique o motivo com pelo menos 10 caracteres."
PICK_DISMISS_REASON = "Escolha o motivo da dispensa."
PICK_DECISION = "Escolha a decisão."
ARRIVAL_RECORDED = "Este turno tem registro de chegada: decida as horas, não a ausência."
ALREADY_DECIDED = "A equipe Turno já decidiu a contestação deste turno."
CHECK_OUT_EARLY = "O turno ainda não começou: a saída pode ser registrada a partir do início ({inicio})."
HOURS_EARLY = "O turno ainda não começou: as horas podem ser enviadas a partir do início ({inicio})."
METHODS = {"codigo": "código", "local": "localização", "manual": "registro manual", "empresa": "pela empresa"}
STAFF_ROLE = "admin"

# A direct payment the company marked paid, before the freelancer confirmed receiving it: the
# freelancer reads what happened, not 'Pago' (issue 42 point 13).
MARKED_PAID_BY_COMPANY = "Marcado como pago pela empresa"


def state_label(h: Hiring, actor: str) -> str:
    """The hiring's state as `actor` reads it on its card ('Pago', or MARKED_PAID_BY_COMPANY for the freelancer)."""
    unconfirmed = h.pagamento != PaymentMode.GUARANTEED and h.recebido_em is None
    if h.state == HiringState.PAID and actor == Actor.FREELANCER and unconfirmed:
        return MARKED_PAID_BY_COMPANY
    return hiring_actions.state_label(h.state)


class Outcome(NamedTuple):
    """What the screen shows after an action: a success title, or a refusal that was recorded."""

    ok: bool
    message: str


class _Party(NamedTuple):
    hiring: Hiring
    actor: str
    job_title: str
    company_name: str
    freelancer_name: str


def _party(session: Session, user_id: int, role: str, hiring_id: object) -> _Party:
    """The hiring and the caller's side of it; strangers get the same answer as a missing hiring."""
    hiring = session.get(Hiring, require_id(hiring_id, NOT_FOUND), populate_existing=True)
    if hiring is None:
        raise NotAllowed(NOT_FOUND, target=f"hiring {hiring_id}")
    if role == STAFF_ROLE:
        actor = Actor.STAFF
    elif role == "client" and hiring.company_id == user_id:
        actor = Actor.COMPANY
    elif role == "freelancer" and hiring.freelancer_id == user_id:
        actor = Actor.FREELANCER
    else:
        raise NotAllowed(NOT_FOUND, target=f"hiring {hiring.id}")
    title = session.exec(select(Job.titulo).where(Job.id == hiring.job_id)).first() or ""
    names = dict(
        session.exec(
            select(Profile.user_id, Profile.nome).where(Profile.user_id.in_([hiring.company_id, hiring.freelancer_id]))
        ).all()
    )
    return _Party(
        hiring,
        actor,
        title,
        names.get(hiring.company_id) or "A empresa",
        names.get(hiring.freelancer_id) or "O profissional",
    )


def when(hiring: Hiring) -> str:
    """The shift's start as people read it: '28/11 às 18:00'."""
    start = local(hiring.inicio_em)
    return f"{start:%d/%m} às {start:%H:%M}"


def act(
    session: Session, user_id: int, role: str, hiring_id: object, action: str, data: dict, now: datetime
) -> Outcome:
    """Run `action` on a hiring for the calling user.

    Args:
        session: Open session (the caller commits; a refusal raised here leaves nothing written).
        user_id: The caller (from the server-side session).
        role: The caller's role ('client', 'freelancer' or 'admin').
        hiring_id: The hiring (any value; validated here).
        action: One of `_HANDLERS`' keys (services/shifts/hiring_actions.py has its texts).
        data: The action's input (method, code, reading, hours, reason, decision).
        now: The time of the action.

    Returns:
        Outcome(True, title) when the hiring moved; Outcome(False, message) for a wrong attendance
        code, which is recorded (5 in 10 minutes lock the code out) and must be committed.

    Raises:
        NotAllowed: Not the caller's hiring.
        ServiceError: The state table refuses the action now, or its input is invalid.
    """
    party = _party(session, user_id, role, hiring_id)
    handler = _HANDLERS.get(action)
    if handler is None or (action == "decidir") != (party.actor == Actor.STAFF):
        raise ServiceError(hiring_rules.NOT_NOW)
    try:
        result = handler(session, party, user_id, data or {}, now)
    except HiringMoveRefused as exc:
        raise ServiceError(exc.message) from None
    if isinstance(result, Outcome):
        return result
    _notify(session, party, action, result, data or {})
    return Outcome(True, CATALOG[action].success)


def _move(session, party: _Party, action: str, user_id: int, now: datetime, reason: str = "", **values) -> Hiring:
    moved = hiring_lifecycle.move(
        session, party.hiring, action, party.actor, now, actor_id=user_id, reason=reason, values=values
    )
    return moved.hiring


def _confirm(session, party, user_id, data, now):
    return _move(session, party, A.CONFIRM, user_id, now, confirmed_at=now)


def _cancel(session, party, user_id, data, now):
    h = party.hiring
    if party.actor == Actor.COMPANY:
        minutes = hiring_rules.scheduled_minutes(h)
        fee = shift_pay.company_cancel_fee(h.inicio_em, minutes, h.valor_hora_centavos, now)
        reason = f"Cancelado pela empresa. Valor devido ao profissional: {money_cents(fee)}." if fee else ""
        return _move(session, party, A.CANCEL, user_id, now, reason, taxa_cancelamento_centavos=fee, terminou_em=now)
    points = shift_pay.freelancer_cancel_faltas(h.inicio_em, h.created_at, now)
    moved = _move(
        session, party, "cancelar", user_id, now, cancel_consequence(h, Actor.FREELANCER, now), terminou_em=now
    )
    if points:
        faltas.add(session, h.freelancer_id, h.id, points, "cancelamento", now)
    return moved


def cancel_consequence(h: Hiring, actor: str, now: datetime) -> str:
    """What cancelling now costs, stated before the person confirms."""
    if actor == Actor.COMPANY:
        fee = shift_pay.company_cancel_fee(h.inicio_em, hiring_rules.scheduled_minutes(h), h.valor_hora_centavos, now)
        if not fee:
            return "Cancelamento sem custo: faltam mais de 24 horas para o início."
        return f"Faltam menos de 24 horas: você deverá {money_cents(fee)} ao profissional (até 4 horas do turno)."
    points = shift_pay.freelancer_cancel_faltas(h.inicio_em, h.created_at, now)
    if not points:
        return "Cancelamento sem falta: faltam mais de 48 horas ou você foi contratado há menos de 15 minutos."
    plural = "falta" if points == 1 else "faltas"
    return f"Este cancelamento conta {points} {plural}. Com 3 faltas ativas, você fica 14 dias sem novas candidaturas."


def _give_up(session, party, user_id, data, now):
    """'Desistir' before paying a guaranteed hiring: it expires and the application returns to pending."""
    return _move(session, party, A.GIVE_UP, user_id, now, "A empresa desistiu antes de pagar.")  # money/expiry.py


def _cancel_free(session, party, user_id, data, now):
    moved = _move(
        session, party, "cancelar_sem_custo", user_id, now, "Presença não confirmada a tempo.", terminou_em=now
    )
    faltas.add(session, party.hiring.freelancer_id, party.hiring.id, 1, "nao_confirmou", now)
    return moved


def _reading(party: _Party, session: Session, data: dict, now: datetime, user_id: int) -> dict | Outcome:
    """The attendance record of a check-in or check-out: method, time and distance bucket.

    Raw coordinates are compared and forgotten here; only the bucket is kept.
    """
    method = str(data.get("method") or "")
    if party.actor == Actor.COMPANY:
        return {"method": "empresa", "distance": "sem_leitura"}
    if method == "manual":
        return {"method": "manual", "distance": "sem_leitura"}
    if method == "codigo":
        if faltas.wrong_codes(session, party.hiring.id, now) >= rules.WRONG_CODES:
            return Outcome(False, TOO_MANY_CODES)
        secret = session.exec(select(Job.codigo_segredo).where(Job.id == party.hiring.job_id)).first() or ""
        if not secret or not attendance_code.verify(secret, str(data.get("code") or ""), now):
            hiring_lifecycle.record(session, party.hiring.id, A.WRONG_CODE, party.actor, now, user_id)
            return Outcome(False, WRONG_CODE)
        return {"method": "codigo", "distance": "sem_leitura"}
    if method == "local":
        point = session.exec(select(Job.ponto_lat, Job.ponto_lng).where(Job.id == party.hiring.job_id)).first()
        if point is None or point[0] is None:
            raise ServiceError(NO_POINT)
        lat, lng, accuracy = data.get("lat"), data.get("lng"), data.get("accuracy")
        if not geo.valid_point(lat, lng) or not geo.valid_accuracy(accuracy):  # only a script sends these
            raise ServiceError(BAD_READING)
        if not geo.precise_enough(accuracy):
            raise ServiceError(TOO_IMPRECISE)
        distance = geo.distance_m(point[0], point[1], float(lat), float(lng))
        if not geo.passes(distance, float(accuracy)):
            raise ServiceError(TOO_FAR.format(distancia=geo.bucket_label(geo.bucket(distance))))
        return {"method": "local", "distance": geo.bucket(distance)}
    raise ServiceError(hiring_rules.NOT_NOW)


def _attendance(action: str, column: str, ends: bool):
    """'Registrar chegada' / 'Registrar saída': the record's time, method and distance bucket."""

    def register(session, party, user_id, data, now):
        if ends:
            _refuse_before_start(party, action, now, CHECK_OUT_EARLY)
        record = _reading(party, session, data, now, user_id)
        if isinstance(record, Outcome):
            return record
        reason = "Registro manual (sem código nem localização)." if record["method"] == "manual" else ""
        values = {f"{column}_em": now, f"{column}_metodo": record["method"], f"{column}_distancia": record["distance"]}
        if ends:
            values["terminou_em"] = now
        return _move(session, party, action, user_id, now, reason, **values)

    return register


def _dismiss(session, party, user_id, data, now):
    reason = str(data.get("reason") or "")
    if reason not in shift_pay.DISMISS_REASONS:
        raise ServiceError(PICK_DISMISS_REASON)
    h = party.hiring
    worked = shift_pay.minutes_between(max(h.chegada_em or h.inicio_em, h.inicio_em), now)
    minutes = shift_pay.dismissal_minutes(reason, worked, hiring_rules.scheduled_minutes(h))
    return _move(
        session,
        party,
        "dispensar",
        user_id,
        now,
        f"Dispensado: {shift_pay.DISMISS_REASONS[reason]}.",
        dispensa_motivo=reason,
        saida_em=now,
        saida_metodo="empresa",
        saida_distancia="sem_leitura",
        terminou_em=now,
        minutos_enviados=minutes,
    )


def prefilled_minutes(h: Hiring) -> int:
    """The minutes 'Enviar horas' starts with: what a dismissal pays, else what the records show."""
    if h.dispensa_motivo and h.minutos_enviados is not None:
        return h.minutos_enviados
    return shift_pay.recorded_minutes(h.inicio_em, h.fim_em, h.intervalo_min, h.chegada_em, h.saida_em)


def _minutes(data: dict) -> int:
    try:
        return shift_pay.parse_hours(data.get("hours"))
    except ValueError as exc:
        raise ServiceError(str(exc)) from None


def _refuse_before_start(party: _Party, action: str, now: datetime, message: str) -> None:
    """Leaving, or sending hours, before the shift began: nothing was worked yet (issue 42).

    Only a step the state table would take from this side now is refused so (anything else gets the
    table's own answer).
    """
    h = party.hiring
    if now < h.inicio_em and hiring_rules.rule_for(action, h.state, party.actor) is not None:
        raise ServiceError(message.format(inicio=when(h)))


def _send_hours(session, party, user_id, data, now):
    _refuse_before_start(party, "enviar_horas", now, HOURS_EARLY)
    minutes = _minutes(data)
    return _move(
        session,
        party,
        "enviar_horas",
        user_id,
        now,
        f"Horas enviadas: {shift_pay.hours_text(minutes)}.",
        minutos_enviados=minutes,
        horas_enviadas_em=now,
    )


def approved_values(h: Hiring, minutes: int) -> dict:
    """The columns an approval writes: the minutes and what they pay."""
    return {"minutos_aprovados": minutes, "valor_centavos": shift_pay.pay(minutes, h.valor_hora_centavos)}


def _approve(session, party, user_id, data, now):
    return _move(
        session, party, "aprovar", user_id, now, **approved_values(party.hiring, party.hiring.minutos_enviados or 0)
    )


def _reason(data: dict) -> str:
    reason = " ".join(str(data.get("reason") or "").split())
    if visible_length(reason, rules.ADJUST_REASON_MIN) < rules.ADJUST_REASON_MIN:
        raise ServiceError(REASON_SHORT)
    return reason[:500]


def _adjust(session, party, user_id, data, now):
    minutes, reason = _minutes(data), _reason(data)
    return _move(
        session, party, "ajustar", user_id, now, reason, minutos_ajuste=minutes, ajuste_motivo=reason, ajuste_em=now
    )


def _accept_adjustment(session, party, user_id, data, now):
    h = party.hiring
    return _move(session, party, A.ACCEPT_ADJUSTMENT, user_id, now, **approved_values(h, h.minutos_ajuste or 0))


def _contest(action: str):
    def contest(session, party, user_id, data, now):
        reason = _reason(data)
        decided = select(ReviewRequest.id).where(
            ReviewRequest.hiring_id == party.hiring.id,
            ReviewRequest.kind == "disputa",
            ReviewRequest.decided_at.is_not(None),  # type: ignore[union-attr]
        )
        if session.exec(decided).first() is not None:  # staff's decision is final: no second dispute
            raise ServiceError(ALREADY_DECIDED)
        moved = _move(session, party, action, user_id, now, reason)
        faltas.open_review(session, moved, user_id, "disputa", reason, now)
        return moved

    return contest


def _no_show(session, party, user_id, data, now):
    moved = _move(session, party, A.NO_SHOW, user_id, now, terminou_em=now)
    faltas.add(session, moved.freelancer_id, moved.id, rules.FALTAS_FOR_NO_SHOW, "nao_compareceu", now)
    return moved


def _paid(action: str, column: str):
    def mark(session, party, user_id, data, now):
        if getattr(party.hiring, column) is not None:
            raise ServiceError(hiring_rules.NOT_NOW)
        moved = _move(session, party, action, user_id, now, **{column: now})
        faltas.forgive_after_paid_streak(session, moved.freelancer_id, now)
        return moved

    return mark


def _decide(session, party, user_id, data, now):
    outcome, reason = str(data.get("decision") or ""), _reason(data)
    h = party.hiring
    if outcome == "aprovar":
        minutes = _minutes(data) if data.get("hours") else _disputed_minutes(h)
        moved = _move(session, party, A.DECIDE_APPROVE, user_id, now, reason, **approved_values(h, minutes))
        faltas.lift_for_hiring(session, h.id, reason, now)
    elif outcome == "falta":
        if h.chegada_em is not None:  # a dispute about hours: the freelancer came
            raise ServiceError(ARRIVAL_RECORDED)
        moved = _move(session, party, A.DECIDE_ABSENCE, user_id, now, reason)
    else:
        raise ServiceError(PICK_DECISION)
    faltas.close_reviews(session, h.id, user_id, outcome, reason, now)
    return moved


def _disputed_minutes(h: Hiring) -> int:
    """What approving a dispute pays without hours typed: the adjustment, the hours sent, else the schedule."""
    for minutes in (h.minutos_ajuste, h.minutos_enviados):
        if minutes is not None:
            return minutes
    return hiring_rules.scheduled_minutes(h)


_HANDLERS = {
    A.CONFIRM: _confirm,
    A.CANCEL: _cancel,
    A.CANCEL_FREE: _cancel_free,
    A.CHECK_IN: _attendance(A.CHECK_IN, "chegada", ends=False),
    A.CHECK_OUT: _attendance(A.CHECK_OUT, "saida", ends=True),
    A.DISMISS: _dismiss,
    A.SEND_HOURS: _send_hours,
    A.APPROVE: _approve,
    A.ADJUST: _adjust,
    A.ACCEPT_ADJUSTMENT: _accept_adjustment,
    A.CONTEST_ADJUSTMENT: _contest(A.CONTEST_ADJUSTMENT),
    A.NO_SHOW: _no_show,
    A.CONTEST_ABSENCE: _contest(A.CONTEST_ABSENCE),
    A.MARK_PAID: _paid(A.MARK_PAID, "pago_em"),
    A.CONFIRM_RECEIPT: _paid(A.CONFIRM_RECEIPT, "recebido_em"),
    A.DECIDE: _decide,
    A.GIVE_UP: _give_up,
}


DECISIONS = {"aprovar": "horas aprovadas", "falta": "ausência mantida"}  # staff's decision, in the notices


def _notify(session: Session, party: _Party, action: str, h: Hiring, data: dict) -> None:
    words = {
        "titulo": party.job_title,
        "quando": when(h),
        "freelancer": party.freelancer_name,
        "horas": shift_pay.hours_text(
            h.minutos_ajuste if action == "ajustar" else (h.minutos_aprovados or h.minutos_enviados)
        ),
        "valor": money_cents(h.valor_centavos if h.valor_centavos is not None else h.taxa_cancelamento_centavos),
        "motivo": shift_pay.DISMISS_REASONS.get(h.dispensa_motivo, "")
        if action == "dispensar"
        else str(data.get("reason") or ""),
        "decisao": DECISIONS.get(str(data.get("decision") or ""), ""),
        "taxa": f" Você receberá {money_cents(h.taxa_cancelamento_centavos)} pelo cancelamento tardio."
        if h.taxa_cancelamento_centavos
        else "",
    }
    row = CATALOG[action]
    if party.actor != Actor.COMPANY and row.to_company:
        notify(
            session,
            h.company_id,
            NotificationType.SHIFT,
            row.to_company.format(**words),
            routes.NoticeTarget.COMPANY_SHIFTS,
        )
    if party.actor != Actor.FREELANCER and row.to_freelancer:
        notify(
            session,
            h.freelancer_id,
            NotificationType.SHIFT,
            row.to_freelancer.format(**words),
            routes.NoticeTarget.FREELANCER_SHIFTS,
        )
