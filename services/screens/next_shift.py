"""'Próximo turno': the one shift each overview puts on top (docs/product/shifts.md "Próximo turno").

The freelancer's card is their soonest shift that has not ended; its one large button is the step
that shift needs now ('Registrar saída', 'Registrar chegada', 'Confirmar presença'), or, before the
check-in opens, when it will. The company's card is its soonest vaga with a shift still to work; its
large button is 'Código de presença' (what the people arriving need from the company) and it names
who is coming. Read-only, filtered by the caller's own id; the actions go through services/shifts/shifts.py.
"""

from datetime import datetime
from typing import TypedDict

from sqlalchemy import and_, or_
from sqlmodel import Session, select

from core import shift_rules as rules
from core.formatting import local, money_cents
from models import Actor, Hiring, HiringState, PaymentMode
from services.jobs import pricing, shift_pay
from services.screens import shift_views
from services.screens.shift_views import ShiftCard
from services.shifts.hiring_actions import BUTTONS

# A shift still to work: hired and not started, or started and not checked out.
NOT_STARTED = (HiringState.SCHEDULED, HiringState.CONFIRMED, HiringState.UNCONFIRMED)
# The freelancer's large button: the first of these the card offers.
FREELANCER_STEPS = ("saida", "chegada", "confirmar")
CODE_ACTION = "codigo"
CODE_LABEL = "Código de presença"
CHECK_IN_OPENS = "A chegada pode ser registrada a partir das {time}."
CHECK_IN_OPENS_ON = "A chegada pode ser registrada a partir de {day} às {time}."
NAMES_SHOWN = 3
MAX_PEOPLE = 200  # a vaga's hirings read for its card (as many as 'Turnos' lists)


class NextShift(TypedDict):
    """The 'Próximo turno' card of an overview."""

    hiring_id: int
    job_id: int
    title: str
    people_label: str  # 'Empresa' for the freelancer, 'Profissional'/'Profissionais' for the company
    people: str
    when: str  # 'sáb., 28/11 · 10:57–16:57'
    soon: str  # 'Hoje', 'Amanhã' or '' (in São Paulo days)
    state_label: str
    tone: str
    address: str
    map_url: str
    pay: str  # 'R$ 165,00 pelo turno' (the company's: every hired professional's, with the fee)
    bring: str  # the vaga's 'Traje e o que levar' ('' when the company said nothing)
    action: str  # a services.shifts.hiring_actions.BUTTONS key, CODE_ACTION, or '' (nothing to do yet)
    action_label: str
    hint: str  # when the step opens, if it has not yet


def _still_to_work(now: datetime):
    return or_(
        and_(Hiring.state.in_(NOT_STARTED), Hiring.fim_em > now),
        Hiring.state == HiringState.IN_PROGRESS,
    )


def _soon(start: datetime, now: datetime) -> str:
    days = (local(start).date() - local(now).date()).days
    return {0: "Hoje", 1: "Amanhã"}.get(days, "")


def _names(cards: list[ShiftCard]) -> str:
    names = [card["other"] for card in cards]
    shown = ", ".join(names[:NAMES_SHOWN])
    return shown if len(names) <= NAMES_SHOWN else f"{shown} e mais {len(names) - NAMES_SHOWN}"


def _freelancer_step(card: ShiftCard, start: datetime, now: datetime) -> tuple[str, str, str]:
    """The large button's action and label, or when the check-in opens (the day named unless it is today)."""
    offered = {item["action"] for item in card["actions"]}
    step = next((action for action in FREELANCER_STEPS if action in offered), "")
    if step:
        return step, BUTTONS[step], ""
    opens = start - rules.CHECK_IN_FROM
    if local(opens).date() == local(now).date():
        return "", "", CHECK_IN_OPENS.format(time=f"{local(opens):%H:%M}")
    return "", "", CHECK_IN_OPENS_ON.format(day=shift_views.day_text(opens), time=f"{local(opens):%H:%M}")


def _company_pay(session: Session, cards: list[ShiftCard], hirings: list[Hiring]) -> str:
    """What the company pays for the shift as scheduled: every hired professional's, and a guaranteed one's fee."""
    if len(cards) == 1:
        return " ".join(part for part in (cards[0]["estimate"], cards[0]["estimate_fee"]) if part)
    totals = {h.id: shift_pay.shift_total_centavos(h) for h in hirings}
    if None in totals.values():  # a rate 'A combinar': no honest total
        return ""
    text = f"{money_cents(sum(totals.values()))} pelo turno ({len(cards)} profissionais)"
    guaranteed = [h for h in hirings if h.pagamento == PaymentMode.GUARANTEED]
    if not guaranteed:
        return text
    percent = pricing.fee_percent(session, hirings[0].company_id)
    fee = sum(pricing.fee(totals[h.id], percent) for h in guaranteed)
    return f"{text} {shift_pay.fee_text(fee)}"


def _build(card: ShiftCard, h: Hiring, now: datetime) -> NextShift:
    return NextShift(
        hiring_id=card["id"],
        job_id=card["job_id"],
        title=card["title"],
        people_label="Empresa",
        people=card["other"],
        when=f"{card['day']} · {card['time']}",
        soon=_soon(h.inicio_em, now),
        state_label=card["state_label"],
        tone=card["tone"],
        address=card["address"],
        map_url=card["map_url"],
        pay=card["estimate"],
        bring=card["bring"],
        action="",
        action_label="",
        hint="",
    )


def _soonest(mine, now: datetime):
    """The hirings still to work of the viewer (`mine`), soonest first."""
    return [mine, _still_to_work(now)]


def for_freelancer(session: Session, freelancer_id: int, now: datetime) -> tuple[list[NextShift], list[ShiftCard]]:
    """The freelancer's next shift ([] when none) and its card (what its step's dialog reads); one statement."""
    found = shift_views.brief_cards(
        session, _soonest(Hiring.freelancer_id == freelancer_id, now), Actor.FREELANCER, now, 1
    )
    if not found:
        return [], []
    card, h = found[0]
    shift = _build(card, h, now)
    shift["action"], shift["action_label"], shift["hint"] = _freelancer_step(card, h.inicio_em, now)
    return [shift], [card]


def for_company(session: Session, company_id: int, now: datetime) -> list[NextShift]:
    """The company's next vaga with shifts still to work, and who is coming ([] when none); one statement.

    A guaranteed shift adds one (the plan's fee).
    """
    where = _soonest(Hiring.company_id == company_id, now)
    soonest_job = select(Hiring.job_id).where(*where).order_by(Hiring.inicio_em, Hiring.id).limit(1)
    found = shift_views.brief_cards(
        session, [*where, Hiring.job_id == soonest_job.scalar_subquery()], Actor.COMPANY, now, MAX_PEOPLE
    )
    if not found:
        return []
    cards, hirings = [card for card, _h in found], [h for _card, h in found]
    shift = _build(cards[0], hirings[0], now)
    shift["people_label"] = "Profissional" if len(cards) == 1 else "Profissionais"
    shift["people"] = _names(cards)
    shift["pay"] = _company_pay(session, cards, hirings)
    shift["action"], shift["action_label"] = CODE_ACTION, CODE_LABEL
    return [shift]
