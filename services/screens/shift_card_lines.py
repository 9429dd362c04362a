"""The lines a shift card reads: its payment, the approval dialog's hours and records, what a cancellation costs."""

from datetime import datetime
from typing import NamedTuple, TypedDict

from sqlmodel import Session

from core import geo
from core import shift_rules as rules
from core.catalog import PAYMENT_GUARANTEED
from core.formatting import local, money_cents
from models import Actor, Hiring, HiringState, PaymentMode
from services.jobs import shift_pay
from services.money import payments, receipts
from services.shifts import hiring_rules
from services.shifts.shifts import (
    METHODS,
    approved_values,
)

GUARANTEED_LINE = PAYMENT_GUARANTEED


NO_PAYOUT_ACCOUNT_LINE = "Pagamento pendente: configure seu recebimento em Meus Ganhos"


class ApprovalLine(TypedDict):
    """One line of the 'Aprovar horas' dialog: what it is and its value."""

    label: str
    value: str


class PaymentView(NamedTuple):
    """What a card says about a guaranteed payment: where the money is, and the 'Pagar' button's label."""

    status: str = ""
    pay_label: str = ""


def payment_view(session: Session, h: Hiring, actor: str) -> PaymentView:
    """The guaranteed payment's line on a card, for the company or the freelancer (empty for a direct one)."""
    if h.pagamento != PaymentMode.GUARANTEED:
        return PaymentView()
    if actor == Actor.COMPANY:
        return _company_payment(session, h)
    return PaymentView(_freelancer_payment(h))


def _company_payment(session: Session, h: Hiring) -> PaymentView:
    if h.state == HiringState.AWAITING_PAYMENT:
        until = local(h.updated_at + rules.PAYMENT_WINDOW)
        return PaymentView(f"Aguardando pagamento (até {until:%H:%M})", _pay_label(session, h, "Pagar"))
    if h.state == HiringState.APPROVED:
        if h.repasse_erro == payments.TOP_UP_WAITING:
            return PaymentView("Horas aprovadas acima do valor pago", _pay_label(session, h, "Pagar complemento"))
        if h.repasse_erro:
            return PaymentView(f"Pagamento pendente: {h.repasse_erro}")
        return PaymentView("Pagamento a caminho")
    return PaymentView(_paid_on(h))


def _freelancer_payment(h: Hiring) -> str:
    if h.state == HiringState.AWAITING_PAYMENT:
        return "Aguardando pagamento da empresa"
    if h.state == HiringState.APPROVED:
        if h.repasse_erro == payments.NO_PAYOUT_ACCOUNT:
            return NO_PAYOUT_ACCOUNT_LINE
        return "Pagamento a caminho"
    return _paid_on(h)


def _paid_on(h: Hiring) -> str:
    if h.state != HiringState.PAID:
        return ""
    return f"Pago em {local(h.pago_em or h.updated_at):%d/%m}"


def _pay_label(session: Session, h: Hiring, verb: str) -> str:
    """'Pagar R$ X' / 'Pagar complemento R$ X' for what the company owes now ('' when nothing)."""
    due = payments.amount_due(session, h)
    return f"{verb} {money_cents(due.total_centavos)}" if due is not None else ""


def approval_lines(session: Session, h: Hiring) -> list[ApprovalLine]:
    """What the 'Aprovar horas' dialog shows before the company confirms.

    The hours sent, what they pay (services.shifts.approved_values, as the approval writes it), a
    guaranteed payment's transfer and refund (receipts.settlement_preview, as `settle` moves
    them) and the attendance records.
    """
    minutes = h.minutos_enviados or 0
    amount = approved_values(h, minutes)["valor_centavos"]
    lines = [
        ApprovalLine(label="Horas enviadas", value=shift_pay.hours_text(minutes)),
        ApprovalLine(
            label="Valor",
            value=f"{money_cents(amount)} ({shift_pay.hours_text(minutes)} × {money_cents(h.valor_hora_centavos)})",
        ),
    ]
    if h.pagamento == PaymentMode.GUARANTEED:
        money = receipts.settlement_preview(session, h, HiringState.APPROVED, amount)
        lines.append(ApprovalLine(label="Repasse ao profissional", value=money_cents(money.transfer)))
        lines.append(ApprovalLine(label="Reembolso à empresa", value=money_cents(money.refund)))
        if money.top_up:
            lines.append(ApprovalLine(label="Complemento a pagar", value=money_cents(money.top_up)))
    lines.append(ApprovalLine(label="Chegada", value=record_text(h.chegada_em, h.chegada_metodo, "") or NO_RECORD))
    lines.append(ApprovalLine(label="Saída", value=record_text(h.saida_em, h.saida_metodo, "") or NO_RECORD))
    return lines


def cancel_money(session: Session, h: Hiring, actor: str, now: datetime) -> str:
    """A guaranteed payment's cancel dialog: what the company gets back and what is kept, if cancelled now."""
    if actor == Actor.COMPANY:
        fee = shift_pay.company_cancel_fee(h.inicio_em, hiring_rules.scheduled_minutes(h), h.valor_hora_centavos, now)
        money = receipts.settlement_preview(session, h, HiringState.CANCELLED_BY_COMPANY, fee)
    else:
        money = receipts.settlement_preview(session, h, HiringState.CANCELLED_BY_FREELANCER, 0)
    if not money.charged:
        return ""
    back = f"Pagamento garantido: {money_cents(money.refund)} voltam para a empresa"
    if not money.transfer:
        return f"{back} (o valor pago inteiro)."
    return (
        f"{back}; ficam {money_cents(money.transfer + money.fee)}: {money_cents(money.transfer)} para o profissional"
        f" e {money_cents(money.fee)} de taxa do Turno."
    )


# A location reading is what the freelancer's device said (a script can say anything within the
# rules of core/geo.py): the cards name it so, and the company is told it counts for less than the code.
DEVICE_LOCATION = "localização informada pelo aparelho"


CARD_METHODS = {**METHODS, "local": DEVICE_LOCATION}


NO_RECORD = "sem registro"


def record_text(at: datetime | None, method: str, distance: str) -> str:
    """An attendance record as a card shows it: '28/11 10:57 · código · até 100 m' ('' when none)."""
    if at is None:
        return ""
    parts = [f"{local(at):%d/%m %H:%M}", CARD_METHODS.get(method, method)]
    if distance and distance != "sem_leitura":
        parts.append(geo.bucket_label(distance))
    return " · ".join(part for part in parts if part)
