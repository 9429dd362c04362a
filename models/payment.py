"""'Pagamento garantido pelo Turno': what a company paid for a hiring and where the money went.

services/money/ is the only writer (docs/product/money.md "Pagamento garantido"). A
`ProtectedPayment` is one Stripe Checkout for a hiring (the payment at acceptance, or a
'complemento' when approved hours exceed it). A `MoneyMovement` is one line of the ledger: a
charge received, a transfer to the freelancer, a refund to the company, or Turno's fee kept; its
`key` is the idempotency key the Stripe call used, unique, so a retried step is written once.
"""

from datetime import datetime

from sqlmodel import Field, Index, SQLModel

from models.base import created_at_field, optional_datetime_field


class PaymentKind:
    """Why a company pays: at acceptance, or to top up approved hours beyond what it paid."""

    ACCEPTANCE = "aceite"
    TOP_UP = "complemento"


class PaymentStatus:
    """Where a Checkout is: open, paid, waiting for a Pix to clear, expired or failed."""

    OPEN = "aberto"
    PROCESSING = "processando"
    PAID = "pago"
    EXPIRED = "expirado"
    FAILED = "falhou"


class MovementKind:
    """A ledger line: money in from the company, out to the freelancer or back, or Turno's fee."""

    CHARGE = "cobranca"
    TRANSFER = "repasse"
    REFUND = "estorno"
    FEE = "taxa"


class ProtectedPayment(SQLModel, table=True):
    """One Stripe Checkout a company opened for a hiring, and its outcome."""

    __tablename__ = "protected_payments"
    __table_args__ = (
        Index("ix_protected_payments_hiring", "hiring_id"),
        Index("ix_protected_payments_company", "company_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    hiring_id: int = Field(foreign_key="hirings.id", ondelete="CASCADE")
    company_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    kind: str = Field(default=PaymentKind.ACCEPTANCE, max_length=16)
    status: str = Field(default=PaymentStatus.OPEN, max_length=16)
    freelancer_centavos: int = 0  # the hours' part (hours x rate), owed to the freelancer
    fee_centavos: int = 0  # Turno's fee on that part, by the company's plan
    fee_percent: int = 0
    checkout_session_id: str = Field(default="", max_length=255, index=True)
    checkout_url: str = Field(default="", max_length=1000)
    expires_at: datetime | None = optional_datetime_field()
    payment_intent_id: str = Field(default="", max_length=255)
    charge_id: str = Field(default="", max_length=255, index=True)
    receipt_url: str = Field(default="", max_length=1000)
    paid_at: datetime | None = optional_datetime_field()
    dispute_id: str = Field(default="", max_length=255)
    disputed_at: datetime | None = optional_datetime_field()  # an open dispute blocks new acceptances
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()

    @property
    def amount_centavos(self) -> int:
        """What the company is charged: the hours' part plus Turno's fee."""
        return self.freelancer_centavos + self.fee_centavos


class MoneyMovement(SQLModel, table=True):
    """One ledger line of a hiring's protected payment (integer centavos, always positive)."""

    __tablename__ = "money_movements"
    __table_args__ = (Index("ix_money_movements_hiring", "hiring_id"),)

    id: int | None = Field(default=None, primary_key=True)
    hiring_id: int = Field(foreign_key="hirings.id", ondelete="CASCADE")
    payment_id: int = Field(foreign_key="protected_payments.id", ondelete="CASCADE")
    kind: str = Field(max_length=16)
    amount_centavos: int
    stripe_id: str = Field(default="", max_length=255)
    key: str = Field(max_length=120, unique=True)  # the idempotency key of the Stripe call
    reversed_at: datetime | None = optional_datetime_field()  # transfer.reversed
    created_at: datetime = created_at_field()
