"""What the shift screens show: cards for 'Meus Turnos' and the company's 'Turnos', each with its timeline.

Read-only; every list is filtered by the caller's id from the server-side session. Actions offered on
a card are exactly the ones services/shifts/hiring_lifecycle.py would accept from that side at that moment,
so a button is never shown for a step the server would refuse (the server checks again anyway).
"""

from datetime import datetime, timedelta
from typing import TypedDict

from babel.dates import format_date
from sqlalchemy import and_
from sqlmodel import Session, select

from core import shift_rules as rules
from core.formatting import local, money_cents
from core.shift_format import map_url
from models import Actor, Chat, Hiring, HiringEvent, HiringState, Job, PaymentMode, Profile
from services.jobs import application_status, pricing, shift_pay
from services.screens.shift_card_lines import (
    ApprovalLine,
    PaymentView,
    approval_lines,
    cancel_money,
    payment_view,
    record_text,
)
from services.shifts import hiring_lifecycle, hiring_rules, ratings, shifts
from services.shifts.hiring_actions import BUTTONS, WHO, done_text, state_label, state_tone
from services.shifts.shifts import (
    cancel_consequence,
    prefilled_minutes,
)
from services.trust import teams

HISTORY_SIZE = 20
LOCATION_NOTE = "A localização é informada pelo aparelho do profissional e vale menos que o código de presença."
# Hours the timer never approves (services/shifts/hiring_lifecycle.py `hours_need_company`), as each side reads it.
HOURS_ABOVE = {"agendado": "Horas acima do agendado", "registros": "Horas acima dos registros de chegada e saída"}
HOURS_TO_COMPANY = "{what}: aprove ou ajuste"
HOURS_TO_FREELANCER = "{what}: aguardando aprovação da empresa"
HOURS_ABOVE_RECORDS = "As horas enviadas ({sent}) são maiores que o registrado ({records})."
HOURS_BELOW_RECORDS = "As horas enviadas ({sent}) são menores que o registrado ({records})."
DECIDED_HOURS = "Decisão da equipe Turno: {hours} aprovadas. Motivo: {reason}"
DECIDED_ABSENCE = "Decisão da equipe Turno: ausência mantida. Motivo: {reason}"
DECISION_ACTIONS = ("decidir_aprovar", "decidir_falta")
# The proposed adjustment is shown while it is the question (proposed, or disputed); once decided, the
# approved hours and, after a dispute, staff's decision say what holds.
ADJUSTMENT_SHOWN = frozenset({HiringState.ADJUSTMENT, HiringState.DISPUTED})


class ShiftEvent(TypedDict):
    """One line of the 'Linha do tempo'."""

    at: str
    who: str
    text: str
    reason: str


class ShiftAction(TypedDict):
    """A button on a card: the action key and its label."""

    action: str
    label: str


class ShiftCard(TypedDict):
    """One hiring as one side sees it."""

    id: int
    job_id: int
    title: str
    other: str
    day: str
    time: str
    address: str
    map_url: str
    bring: str  # the vaga's 'Traje e o que levar' (`Job.o_que_levar`; '' when it says nothing)
    state: str
    state_label: str
    tone: str
    actions: list[ShiftAction]
    arrival: str
    departure: str
    manual: bool
    location_note: str  # the company's reminder that a location record is the device's word ('' otherwise)
    hours: str
    adjustment: str
    hours_note: str  # hours only a person approves: what the company does, or why the freelancer waits
    amount: str
    fee: str
    estimate: str  # 'R$ 165,00 pelo turno' as scheduled (services.jobs.shift_pay.shift_total_text)
    estimate_fee: str  # the company's guaranteed shift: '+ R$ 19,80 de taxa do Turno' ('' otherwise)
    prefill: str
    cancel_text: str
    cancel_money: str  # a guaranteed payment's cancel dialog: what goes back to the company, what is kept
    subject: str  # the shift as its dialogs name it: 'Garçom · sáb., 28/11 · 10:57–16:57'
    decision: str  # Turno staff's decision on a dispute and its reason ('' when none)
    approval: list[ApprovalLine]  # the 'Aprovar horas' dialog: hours, amount, money, records ([] otherwise)
    approval_flag: str  # hours sent that differ from the records, in plain words ('' otherwise)
    chat_id: int
    has_point: bool
    timeline: list[ShiftEvent]
    guaranteed: bool
    payment_status: str
    pay_label: str
    team: str  # the company's paid shift: 'add' ('Adicionar à equipe'), 'member' or ''
    rebook: int  # the company's paid shift: the freelancer's id for 'Contratar novamente', else 0
    application_id: int  # what a rating is tied to (services/shifts/ratings.py)
    can_rate: bool  # 'Avaliar profissional' / 'Avaliar empresa': the viewer may rate this shift now
    my_stars: int  # the stars the viewer gave this shift (0: not rated)


def day_text(value: datetime) -> str:
    """'sáb., 28/11' in São Paulo time."""
    return format_date(local(value).date(), "EEE, dd/MM", locale="pt_BR")


def time_text(start: datetime, end: datetime) -> str:
    """'18:00–02:00' in São Paulo time."""
    return f"{local(start):%H:%M}–{local(end):%H:%M}"


def _event(event: HiringEvent) -> ShiftEvent:
    text = done_text(event.action, event.to_state) or state_label(event.to_state) if event.to_state else event.action
    return ShiftEvent(at=f"{local(event.at):%d/%m %H:%M}", who=WHO.get(event.actor, ""), text=text, reason=event.reason)


def _timelines(session: Session, ids: list[int]) -> tuple[dict[int, list[ShiftEvent]], dict[int, HiringEvent]]:
    """Each hiring's timeline, and staff's last decision on it (one query)."""
    if not ids:
        return {}, {}
    events = session.exec(
        select(HiringEvent).where(HiringEvent.hiring_id.in_(ids)).order_by(HiringEvent.at, HiringEvent.id)
    ).all()
    found: dict[int, list[ShiftEvent]] = {hiring_id: [] for hiring_id in ids}
    decisions: dict[int, HiringEvent] = {}
    for event in events:
        found[event.hiring_id].append(_event(event))
        if event.action in DECISION_ACTIONS:
            decisions[event.hiring_id] = event
    return found, decisions


def decision_text(h: Hiring, event: HiringEvent | None) -> str:
    """Staff's decision as the card shows it: the decided hours (or the absence kept) and the reason."""
    if event is None:
        return ""
    if event.action == "decidir_falta":
        return DECIDED_ABSENCE.format(reason=event.reason)
    return DECIDED_HOURS.format(hours=shift_pay.hours_text(h.minutos_aprovados), reason=event.reason)


def _card(
    h: Hiring,
    job: Job,
    other: str,
    chat_id: int | None,
    actor: str,
    now: datetime,
    timeline: list[ShiftEvent],
    payment: PaymentView,
) -> ShiftCard:
    allowed = [a for a in hiring_rules.allowed_actions(h, actor, now) if a in BUTTONS and not _done_already(h, a)]
    allowed.sort(key=lambda action: action.startswith("cancelar"))  # the step forward first, cancelling last
    actions = [ShiftAction(action=action, label=BUTTONS[action]) for action in allowed]
    hours = h.minutos_aprovados if h.minutos_aprovados is not None else h.minutos_enviados
    return ShiftCard(
        id=h.id,
        job_id=h.job_id,
        title=job.titulo,
        other=other,
        day=day_text(h.inicio_em),
        time=time_text(h.inicio_em, h.fim_em),
        address=job.endereco or job.localizacao,
        map_url=map_url(job.endereco or job.localizacao, job.ponto_lat, job.ponto_lng),
        bring=job.o_que_levar or "",
        state=h.state,
        state_label=shifts.state_label(h, actor),
        tone=state_tone(h.state),
        actions=actions,
        arrival=record_text(h.chegada_em, h.chegada_metodo, h.chegada_distancia),
        departure=record_text(h.saida_em, h.saida_metodo, h.saida_distancia),
        manual="manual" in (h.chegada_metodo, h.saida_metodo),
        location_note=LOCATION_NOTE if actor == Actor.COMPANY and "local" in (h.chegada_metodo, h.saida_metodo) else "",
        hours=shift_pay.hours_text(hours) if hours is not None else "",
        adjustment=f"{shift_pay.hours_text(h.minutos_ajuste)}: {h.ajuste_motivo}"
        if h.minutos_ajuste is not None and h.state in ADJUSTMENT_SHOWN
        else "",
        hours_note=hours_note(h, actor),
        amount=money_cents(h.valor_centavos) if h.valor_centavos is not None else "",
        fee=money_cents(h.taxa_cancelamento_centavos) if h.taxa_cancelamento_centavos else "",
        estimate=shift_pay.shift_total_text(h),
        estimate_fee="",
        prefill=shift_pay.hours_text(prefilled_minutes(h)).replace("h", ":"),
        cancel_text=cancel_consequence(h, actor, now) if "cancelar" in [a["action"] for a in actions] else "",
        cancel_money="",
        subject=f"{job.titulo} · {day_text(h.inicio_em)} · {time_text(h.inicio_em, h.fim_em)}",
        decision="",
        approval=[],
        approval_flag="",
        chat_id=chat_id or 0,
        has_point=job.ponto_lat is not None,
        timeline=timeline,
        guaranteed=h.pagamento == PaymentMode.GUARANTEED,
        payment_status=payment.status,
        pay_label=payment.pay_label,
        team="",
        rebook=0,
        application_id=h.application_id,
        can_rate=False,
        my_stars=0,
    )


def hours_note(h: Hiring, actor: str) -> str:
    """What a card says about hours sent that no timer approves ('' for any other hiring).

    The company reads 'Horas acima do agendado: aprove ou ajuste'; the freelancer, why they wait
    ('Horas acima do agendado: aguardando aprovação da empresa').
    """
    if h.state != HiringState.HOURS_SENT or not (why := hiring_rules.hours_need_company(h)):
        return ""
    template = HOURS_TO_COMPANY if actor == Actor.COMPANY else HOURS_TO_FREELANCER
    return template.format(what=HOURS_ABOVE[why])


def _done_already(h: Hiring, action: str) -> bool:
    """Each side's record of a payment (a shift's, or a late cancellation's fee) is offered only until given."""
    return (action == "marcar_pago" and h.pago_em is not None) or (
        action == "confirmar_recebimento" and h.recebido_em is not None
    )


def _rows(session: Session, where, other_id, limit: int):
    return session.exec(
        select(Hiring, Job, Profile.nome, Profile.empresa, Chat.id)
        .join(Job, Job.id == Hiring.job_id)
        .join(Profile, Profile.user_id == other_id, isouter=True)
        .join(Chat, Chat.application_id == Hiring.application_id, isouter=True)
        .where(*where)
        .order_by(Hiring.inicio_em, Hiring.id)
        .limit(limit)
    ).all()


def _cards(session: Session, rows, actor: str, now: datetime) -> list[ShiftCard]:
    timelines, decisions = _timelines(session, [row[0].id for row in rows])
    team = _team_marks(session, [row[0] for row in rows]) if actor == Actor.COMPANY else {}
    percent = _fee_percent(session, [row[0] for row in rows], actor)
    cards = []
    for h, job, name, empresa, chat_id in rows:
        other = _other_name(actor, name, empresa)
        card = _card(h, job, other, chat_id, actor, now, timelines[h.id], payment_view(session, h, actor))
        card["team"] = team.get(h.id, "")
        card["rebook"] = h.freelancer_id if h.id in team else 0
        card["decision"] = decision_text(h, decisions.get(h.id))
        if percent is not None and h.pagamento == PaymentMode.GUARANTEED:
            card["estimate_fee"] = pricing.estimate_fee_text(h, percent)
        _dialog_fields(session, card, h, actor, now)
        cards.append(card)
    _mark_ratings(session, cards, rows, actor)
    return cards


def _other_name(actor: str, name: str | None, empresa: str | None) -> str:
    """The other side's name on a card: the company's (or its person's) for the freelancer, the professional's."""
    return (empresa or name or "Empresa") if actor == Actor.FREELANCER else (name or "Profissional")


def _fee_percent(session: Session, hirings: list[Hiring], actor: str) -> int | None:
    """The company's plan fee, read once for its list when a guaranteed shift is in it (None otherwise)."""
    if actor != Actor.COMPANY or not any(h.pagamento == PaymentMode.GUARANTEED for h in hirings):
        return None
    return pricing.fee_percent(session, hirings[0].company_id)


def _mark_ratings(session: Session, cards: list[ShiftCard], rows, actor: str) -> None:
    """Fill each card's `can_rate` and `my_stars` for its viewer (one query, none without a finished shift).

    Ratings open as services/shifts/ratings.py opens them (`application_status.rating_open`: the shift reads
    'Concluída'), once per side.
    """
    finished = {
        h.id: h.company_id if actor == Actor.COMPANY else h.freelancer_id
        for h, job, *_rest in rows
        if h.application_id is not None and application_status.rating_open(h.state, job.vaga_status)
    }
    if not finished:
        return
    viewer = next(iter(finished.values()))  # every card of a list is its viewer's
    given = ratings.given(session, viewer, [card["application_id"] for card in cards if card["id"] in finished])
    for card in cards:
        if card["id"] in finished:
            card["my_stars"] = given.get(card["application_id"], 0)
            card["can_rate"] = not card["my_stars"]


def _dialog_fields(session: Session, card: ShiftCard, h: Hiring, actor: str, now: datetime) -> None:
    """What the 'Aprovar horas' and 'Cancelar turno' dialogs show beyond the card (money needs queries)."""
    offered = {item["action"] for item in card["actions"]}
    if "aprovar" in offered:
        card["approval"], card["approval_flag"] = approval_lines(session, h), records_flag(h)
    if "cancelar" in offered and h.pagamento == PaymentMode.GUARANTEED:
        card["cancel_money"] = cancel_money(session, h, actor, now)


def records_flag(h: Hiring) -> str:
    """Hours sent that differ from what the records pay by more than HOURS_RECORDS_TOLERANCE, in words."""
    records = hiring_rules.recorded_minutes(h)
    if records is None or h.minutos_enviados is None:
        return ""
    tolerance = int(rules.HOURS_RECORDS_TOLERANCE / timedelta(minutes=1))
    if abs(h.minutos_enviados - records) <= tolerance:
        return ""
    template = HOURS_ABOVE_RECORDS if h.minutos_enviados > records else HOURS_BELOW_RECORDS
    return template.format(sent=shift_pay.hours_text(h.minutos_enviados), records=shift_pay.hours_text(records))


def _team_marks(session: Session, hirings: list[Hiring]) -> dict[int, str]:
    """For the company's paid shifts: 'add' ('Adicionar à equipe') or 'member' (one query, none without paid shifts)."""
    paid = [h for h in hirings if h.state == HiringState.PAID]
    if not paid:
        return {}
    members = teams.member_ids(session, paid[0].company_id, sorted({h.freelancer_id for h in paid}))
    return {h.id: "member" if h.freelancer_id in members else "add" for h in paid}


def _still_open(confirmation):
    """Hirings a side still has to act on: not finished, or money whose payment that side has not recorded.

    Only a direct payment is recorded by the sides; Turno moves a guaranteed one, so once finished
    it goes to the history.

    Args:
        confirmation: That side's record of the payment (`Hiring.pago_em` for the company,
            `Hiring.recebido_em` for the freelancer).
    """
    unconfirmed = and_(confirmation.is_(None), Hiring.pagamento != PaymentMode.GUARANTEED)
    return (
        ~Hiring.state.in_(hiring_lifecycle.TERMINAL)
        | and_(Hiring.state == HiringState.PAID, unconfirmed)
        | and_(Hiring.state == HiringState.CANCELLED_BY_COMPANY, Hiring.taxa_cancelamento_centavos > 0, unconfirmed)
    )


def freelancer_shifts(session: Session, freelancer_id: int, now: datetime) -> tuple[list[ShiftCard], list[ShiftCard]]:
    """The freelancer's 'Próximos turnos' (every hiring still moving, soonest first) and the last finished ones."""
    mine = Hiring.freelancer_id == freelancer_id
    live = _still_open(Hiring.recebido_em)
    upcoming = _rows(session, [mine, live], Hiring.company_id, 200)
    done = session.exec(
        select(Hiring.id).where(mine, ~live).order_by(Hiring.inicio_em.desc()).limit(HISTORY_SIZE)
    ).all()
    history = _rows(session, [Hiring.id.in_(done)], Hiring.company_id, HISTORY_SIZE) if done else []
    return _cards(session, upcoming, Actor.FREELANCER, now), list(
        reversed(_cards(session, history, Actor.FREELANCER, now))
    )


def company_shifts(session: Session, company_id: int, now: datetime) -> tuple[list[ShiftCard], list[ShiftCard]]:
    """The company's hirings still moving (soonest first) and the last finished ones."""
    mine = Hiring.company_id == company_id
    live = _still_open(Hiring.pago_em)
    upcoming = _rows(session, [mine, live], Hiring.freelancer_id, 200)
    done = session.exec(
        select(Hiring.id).where(mine, ~live).order_by(Hiring.inicio_em.desc()).limit(HISTORY_SIZE)
    ).all()
    history = _rows(session, [Hiring.id.in_(done)], Hiring.freelancer_id, HISTORY_SIZE) if done else []
    return _cards(session, upcoming, Actor.COMPANY, now), list(reversed(_cards(session, history, Actor.COMPANY, now)))


def brief_cards(session: Session, where: list, actor: str, now: datetime, limit: int) -> list[tuple[ShiftCard, Hiring]]:
    """The cards of the hirings matching `where` without their timeline, ratings, team marks or dialog money.

    What 'Próximo turno' (services/screens/next_shift.py) shows, and what the dialog of its one step reads:
    one statement, and one more for a company's plan fee when a guaranteed shift is among them.

    Args:
        session: An open session.
        where: Filters on Hiring/Job; they must include the viewer's own id (the caller's side).
        actor: Actor.COMPANY or Actor.FREELANCER: whose view, and whose name is the other side's.
        now: The instant the actions are judged at.
        limit: At most this many cards.

    Returns:
        (card, hiring) pairs, soonest first.
    """
    rows = _rows(session, where, Hiring.company_id if actor == Actor.FREELANCER else Hiring.freelancer_id, limit)
    percent = _fee_percent(session, [row[0] for row in rows], actor)
    found = []
    for h, job, name, empresa, chat_id in rows:
        card = _card(
            h, job, _other_name(actor, name, empresa), chat_id, actor, now, [], payment_view(session, h, actor)
        )
        if percent is not None and h.pagamento == PaymentMode.GUARANTEED:
            card["estimate_fee"] = pricing.estimate_fee_text(h, percent)
        found.append((card, h))
    return found


def job_shifts(session: Session, company_id: int, job_id: int, now: datetime) -> list[ShiftCard]:
    """The company's hirings of one vaga that are still moving (for the code screen)."""
    mine = (Hiring.company_id == company_id, Hiring.job_id == job_id, ~Hiring.state.in_(hiring_lifecycle.TERMINAL))
    return _cards(session, _rows(session, mine, Hiring.freelancer_id, 200), Actor.COMPANY, now)
