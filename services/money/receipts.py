"""What the screens show of a guaranteed payment: the ledger's totals, the settlement preview, the company's receipts."""

import logging
from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import func
from sqlmodel import Session, select

from core.formatting import money_cents, short_date
from models import (
    Hiring,
    Job,
    MoneyMovement,
    MovementKind,
    PaymentKind,
    Profile,
    ProtectedPayment,
)
from services.jobs.pricing import Quote, fee, fee_percent
from services.money.payments import KIND_LABELS, LABELS, latest_payment, paid_payments
from services.money.settlement import plan_steps

log = logging.getLogger(__name__)


def ledger_totals(session: Session, hiring_id: int) -> dict[str, int]:
    """The hiring's ledger summed by kind (centavos)."""
    rows = session.exec(
        select(MoneyMovement.kind, func.sum(MoneyMovement.amount_centavos))
        .where(MoneyMovement.hiring_id == hiring_id)
        .group_by(MoneyMovement.kind)
    ).all()
    totals = dict.fromkeys((MovementKind.CHARGE, MovementKind.TRANSFER, MovementKind.REFUND, MovementKind.FEE), 0)
    totals.update({kind: int(total or 0) for kind, total in rows})
    return totals


@dataclass(frozen=True)
class Settlement:
    """What `settle` would move if the hiring ended now as asked (centavos): shown before confirming."""

    charged: int  # what the company paid for the hiring so far
    transfer: int  # to the freelancer
    refund: int  # back to the company
    fee: int  # Turno's fee kept on what is transferred
    top_up: int  # what the company would still pay (the hours' part plus its fee); 0 when covered


def settlement_preview(session: Session, h: Hiring, state: str, owed_centavos: int) -> Settlement:
    """The settlement of `h` if it moved to `state` owing the freelancer `owed_centavos`, by `plan_steps`.

    The approval dialog (state 'aprovada', the hours' pay) and the cancel dialogs (a late cancellation's
    fee, or nothing) read it; nothing is written, and `settle` recomputes from the row when it runs.
    """
    payments = paid_payments(session, h.id)
    probe = SimpleNamespace(state=state, valor_centavos=owed_centavos, taxa_cancelamento_centavos=owed_centavos)
    steps, missing = plan_steps(probe, payments, latest_payment(session, h.id, PaymentKind.ACCEPTANCE))  # type: ignore[arg-type]
    kinds = (MovementKind.TRANSFER, MovementKind.REFUND, MovementKind.FEE)
    total = {kind: sum(step.amount for step in steps if step.kind == kind) for kind in kinds}
    top_up = 0
    if missing > 0:
        percent = fee_percent(session, h.company_id)
        top_up = Quote(missing, percent, fee(missing, percent)).total_centavos
    return Settlement(
        charged=sum(p.amount_centavos for p in payments),
        transfer=total[MovementKind.TRANSFER],
        refund=total[MovementKind.REFUND],
        fee=total[MovementKind.FEE],
        top_up=top_up,
    )


@dataclass(frozen=True)
class Receipt:
    """One protected payment in the company's 'Pagamentos' list."""

    id: int
    date: str  # dd/MM/yyyy of the payment (or of the Checkout while unpaid)
    job_title: str
    freelancer: str
    kind: str  # 'Contratação' or 'Complemento de horas'
    amount: str  # what was charged
    refunded: str  # what came back ('' when nothing)
    status: str
    receipt_url: str  # Stripe's receipt ('' until paid)


def receipts(session: Session, company_id: int, limit: int = 100) -> list[Receipt]:
    """The company's protected payments, newest first, with what was refunded of each."""
    rows = session.exec(
        select(ProtectedPayment, Job.titulo, Profile.nome)
        .join(Hiring, Hiring.id == ProtectedPayment.hiring_id)
        .join(Job, Job.id == Hiring.job_id)
        .join(Profile, Profile.user_id == Hiring.freelancer_id, isouter=True)
        .where(ProtectedPayment.company_id == company_id, ProtectedPayment.checkout_session_id != "")
        .order_by(ProtectedPayment.created_at.desc(), ProtectedPayment.id.desc())
        .limit(limit)
    ).all()
    ids = [p.id for p, _t, _n in rows]
    refunded = dict(
        session.exec(
            select(MoneyMovement.payment_id, func.sum(MoneyMovement.amount_centavos))
            .where(MoneyMovement.payment_id.in_(ids), MoneyMovement.kind == MovementKind.REFUND)
            .group_by(MoneyMovement.payment_id)
        ).all()
    )
    return [
        Receipt(
            id=p.id,
            date=short_date(p.paid_at or p.created_at),
            job_title=title,
            freelancer=name or "Freelancer",
            kind=KIND_LABELS.get(p.kind, p.kind),
            amount=money_cents(p.amount_centavos),
            refunded=money_cents(int(refunded[p.id])) if refunded.get(p.id) else "",
            status=LABELS.get(p.status, p.status),
            receipt_url=p.receipt_url,
        )
        for p, title, name in rows
    ]
