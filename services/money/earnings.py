"""'Meus ganhos': what each of a freelancer's shifts pays, where the money is, and the year's totals.

Read-only and filtered by the caller's id. A shift appears once it has worked hours (ended, hours
sent, adjusted, disputed, approved, paid) or a late-cancellation fee. Totals are for one calendar
year in Brasília time: received (paid shifts and fees, by the day they were paid), to receive
(approved, or a fee owed, not yet paid) and waiting for approval (an estimate from the hours sent). For a MEI the received total
is compared with the MEI's yearly limit (core/shift_rules.py).
"""

from datetime import datetime
from typing import TypedDict

from sqlmodel import Session, or_, select

from core.catalog import PAYMENT_GUARANTEED
from core.formatting import local, money_cents
from core.shift_rules import LOCAL_TZ, MEI_ANNUAL_LIMIT_CENTAVOS, MEI_WARNING_PERCENT
from models import FiscalRegime, Hiring, HiringState, Job, PaymentMode, PayoutAccount, Profile
from services.jobs.shift_pay import pay
from services.money.payments import NO_PAYOUT_ACCOUNT, TOP_UP_WAITING
from services.shifts.shifts import prefilled_minutes

S = HiringState
WAITING = frozenset({S.ENDED, S.HOURS_SENT, S.ADJUSTMENT, S.DISPUTED})
WITH_MONEY = WAITING | {S.APPROVED, S.PAID}
MAX_ROWS = 200
DIRECT, GUARANTEED = "Pagamento direto", PAYMENT_GUARANTEED


class EarningRow(TypedDict):
    """One shift in 'Meus ganhos'.

    Attributes:
        id: The hiring's id.
        title: The vaga's title.
        company: The company's name.
        day: The shift's day ('dd/MM/yyyy').
        amount: 'R$ 1.234,56' (an estimate while waiting for approval).
        status: 'Aguardando aprovação', 'Aguardando pagamento da empresa', 'Pagamento a caminho',
            'Pago em dd/MM', or for a late cancellation's fee 'Taxa de cancelamento tardio: a empresa
            deve pagar' / 'Taxa de cancelamento paga em dd/MM'.
        tone: The status badge's colour.
        mode: 'Pagamento direto' or 'Pagamento garantido pelo Turno'.
    """

    id: int
    title: str
    company: str
    day: str
    amount: str
    status: str
    tone: str
    mode: str


class Earnings(TypedDict):
    """The 'Meus ganhos' tab for one year."""

    year: int
    rows: list[EarningRow]
    received: str
    to_receive: str
    waiting: str
    is_mei: bool
    mei_limit: str
    mei_percent: int
    mei_text: str
    mei_warning: bool


def _paid_at(h: Hiring) -> datetime | None:
    moments = [moment for moment in (h.recebido_em, h.pago_em) if moment is not None]
    return min(moments) if moments else None


def _status(h: Hiring) -> tuple[str, str]:
    if h.state == S.PAID:
        paid = _paid_at(h) or h.updated_at
        return f"Pago em {local(paid):%d/%m}", "green"
    if h.state == S.APPROVED:
        if h.pagamento == PaymentMode.GUARANTEED:
            return _guaranteed_status(h)
        return "Aguardando pagamento da empresa", "amber"
    if h.state in WAITING:
        return "Aguardando aprovação", "amber"
    paid = _paid_at(h)
    if paid is not None:
        return f"Taxa de cancelamento paga em {local(paid):%d/%m}", "green"
    return "Taxa de cancelamento tardio: a empresa deve pagar", "amber"


def _guaranteed_status(h: Hiring) -> tuple[str, str]:
    """Where an approved shift's protected payment is (services/money/)."""
    if h.repasse_erro == NO_PAYOUT_ACCOUNT:
        return "Pagamento pendente: configure seu recebimento", "amber"
    if h.repasse_erro == TOP_UP_WAITING:
        return "Aguardando complemento da empresa", "amber"
    if h.repasse_erro:
        return "Pagamento pendente: nova tentativa em breve", "amber"
    return "Pagamento a caminho", "blue"


def _waiting_minutes(h: Hiring) -> int:
    """The minutes a shift waiting for approval will likely pay: the adjustment, the hours sent, the records."""
    for minutes in (h.minutos_ajuste, h.minutos_enviados):
        if minutes is not None:
            return minutes
    return prefilled_minutes(h)


def _amount(h: Hiring) -> int:
    if h.state in WAITING:
        return pay(_waiting_minutes(h), h.valor_hora_centavos)
    if h.state in (S.APPROVED, S.PAID):
        return h.valor_centavos or 0
    return h.taxa_cancelamento_centavos


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=LOCAL_TZ), datetime(year + 1, 1, 1, tzinfo=LOCAL_TZ)


def _in_year(h: Hiring, start: datetime, end: datetime) -> bool:
    """Whether money already paid counts in the year [start, end): by the day it was paid."""
    moment = _paid_at(h) or h.updated_at
    return start <= moment < end


def for_freelancer(session: Session, freelancer_id: int, now: datetime) -> Earnings:
    """The freelancer's shifts with money and the totals of the current year (Brasília time)."""
    year = local(now).year
    start, end = _year_bounds(year)
    rows = session.exec(
        select(Hiring, Job.titulo, Profile.empresa, Profile.nome)
        .join(Job, Job.id == Hiring.job_id)
        .join(Profile, Profile.user_id == Hiring.company_id, isouter=True)
        .where(
            Hiring.freelancer_id == freelancer_id,
            or_(
                Hiring.state.in_(WITH_MONEY),
                (Hiring.state == S.CANCELLED_BY_COMPANY) & (Hiring.taxa_cancelamento_centavos > 0),
            ),
            or_(
                Hiring.state.in_(WAITING | {S.APPROVED}),
                (Hiring.state == S.CANCELLED_BY_COMPANY) & Hiring.pago_em.is_(None) & Hiring.recebido_em.is_(None),
                Hiring.inicio_em >= start,
                Hiring.updated_at >= start,
                Hiring.pago_em >= start,
                Hiring.recebido_em >= start,
            ),
        )
        .order_by(Hiring.inicio_em.desc(), Hiring.id.desc())
        .limit(MAX_ROWS)
    ).all()
    totals = {"received": 0, "to_receive": 0, "waiting": 0}
    shown: list[EarningRow] = []
    for h, title, empresa, nome in rows:
        amount = _amount(h)
        settled = h.state == S.PAID or (h.state == S.CANCELLED_BY_COMPANY and _paid_at(h) is not None)
        if settled and _in_year(h, start, end):
            totals["received"] += amount
        elif h.state == S.APPROVED or (h.state == S.CANCELLED_BY_COMPANY and not settled):
            totals["to_receive"] += amount
        elif h.state in WAITING:
            totals["waiting"] += amount
        status, tone = _status(h)
        shown.append(
            EarningRow(
                id=h.id,
                title=title,
                company=empresa or nome or "Empresa",
                day=f"{local(h.inicio_em):%d/%m/%Y}",
                amount=money_cents(amount),
                status=status,
                tone=tone,
                mode=GUARANTEED if h.pagamento == PaymentMode.GUARANTEED else DIRECT,
            )
        )
    return _with_mei(session, freelancer_id, year, shown, totals)


def _with_mei(session: Session, freelancer_id: int, year: int, rows: list[EarningRow], totals: dict) -> Earnings:
    payout = session.get(PayoutAccount, freelancer_id)
    is_mei = bool(payout and payout.regime == FiscalRegime.MEI)
    percent = min(100, totals["received"] * 100 // MEI_ANNUAL_LIMIT_CENTAVOS)
    remaining = max(0, MEI_ANNUAL_LIMIT_CENTAVOS - totals["received"])
    return Earnings(
        year=year,
        rows=rows,
        received=money_cents(totals["received"]),
        to_receive=money_cents(totals["to_receive"]),
        waiting=money_cents(totals["waiting"]),
        is_mei=is_mei,
        mei_limit=money_cents(MEI_ANNUAL_LIMIT_CENTAVOS),
        mei_percent=percent,
        mei_text=(
            f"Você recebeu pelo Turno {money_cents(totals['received'])} em {year}: {percent}% do limite anual do "
            f"MEI ({money_cents(MEI_ANNUAL_LIMIT_CENTAVOS)}). Ainda cabem {money_cents(remaining)} este ano."
        ),
        mei_warning=is_mei and percent >= MEI_WARNING_PERCENT,
    )
