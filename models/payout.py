"""A freelancer's payout setup: CPF, fiscal data for NFS-e and the Stripe connected account."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from models.base import created_at_field


class FiscalRegime:
    """How a freelancer invoices: as a MEI (with its CNPJ) or as an autônomo (with the CPF)."""

    MEI = "mei"
    AUTONOMO = "autonomo"


class PayoutAccount(SQLModel, table=True):
    """Where a freelancer's protected payments go (docs/product.md "Recebimentos").

    One row per freelancer, written by services.payouts only. `cpf` is unique (a deleted account's
    row is deleted with it, so 'unique among active accounts' is plain uniqueness). The Stripe
    fields mirror the connected account as last read from Stripe or its `account.updated` webhook.
    """

    __tablename__ = "payout_accounts"

    user_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    cpf: str = Field(max_length=11, unique=True)
    regime: str = Field(default=FiscalRegime.AUTONOMO, max_length=16)
    mei_cnpj: str = Field(default="", max_length=14)
    municipio_ibge: int | None = None  # where the service is invoiced from (NFS-e); the profile's city by default
    stripe_account_id: str = Field(default="", max_length=64, index=True)
    details_submitted: bool = False
    payouts_enabled: bool = False
    requirements_due: int = 0  # how many items Stripe still asks for (requirements.currently_due)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
