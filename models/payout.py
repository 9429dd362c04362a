"""A freelancer's payout setup: CPF, fiscal data for NFS-e and the Stripe connected account."""

from datetime import datetime

from sqlalchemy import Index, text
from sqlmodel import Field, SQLModel

from models.base import created_at_field


class FiscalRegime:
    """How a freelancer invoices: as a MEI (with its CNPJ) or as an autônomo (with the CPF)."""

    MEI = "mei"
    AUTONOMO = "autonomo"


class CpfStatus:
    """Whose a saved CPF is, as far as Stripe's identity verification has told us."""

    PENDING = "pendente"  # saved; Stripe has not verified the account's individual yet (a claim)
    VERIFIED = "verificado"  # Stripe verified this account's individual: the CPF is this account's
    RELEASED = "liberado"  # Stripe verified the CPF's owner on another account: this claim fell
    CONFLICT = "conflito"  # Stripe verified this account, but the CPF was already verified elsewhere


VERIFIED_CPF = text(f"cpf_status = '{CpfStatus.VERIFIED}'")


class PayoutAccount(SQLModel, table=True):
    """Where a freelancer's protected payments go (docs/product/money.md "Meus Ganhos").

    One row per freelancer, written by services.money.payouts only. Several accounts may *claim* a CPF
    (saving one never says whether another account has it), but only one may hold it *verified*:
    a partial unique index on the verified CPFs (`uq_payout_accounts_verified_cpf`). The Stripe
    fields mirror the connected account as last read from Stripe or its `account.updated` webhook.
    """

    __tablename__ = "payout_accounts"
    __table_args__ = (
        Index(
            "uq_payout_accounts_verified_cpf",
            "cpf",
            unique=True,
            sqlite_where=VERIFIED_CPF,
            postgresql_where=VERIFIED_CPF,
        ),
    )

    user_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    cpf: str = Field(max_length=11, index=True)
    cpf_status: str = Field(default=CpfStatus.PENDING, max_length=16)
    regime: str = Field(default=FiscalRegime.AUTONOMO, max_length=16)
    mei_cnpj: str = Field(default="", max_length=14)
    municipio_ibge: int | None = None  # where the service is invoiced from (NFS-e); the profile's city by default
    stripe_account_id: str = Field(default="", max_length=64, index=True)
    details_submitted: bool = False
    payouts_enabled: bool = False
    requirements_due: int = 0  # how many items Stripe still asks for (requirements.currently_due)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
