"""What a vaga with 'Pagamento garantido pelo Turno' costs, and what a company needs before hiring with it.

The quote ('Aceitar e pagar R$ X'), Turno's fee by plan, and the checks before a guaranteed
acceptance (Stripe configured, the company's CNPJ, no open dispute). Moving the money itself is
services/money/ (docs/product/money.md "Pagamento garantido").
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from sqlmodel import Session, select

from core import shift_rules as rules
from core.settings import get_settings
from models import Job, Profile, ProtectedPayment, Role, User
from services.common import documents
from services.common.errors import NotAllowed, ServiceError
from services.jobs import plans, shift_pay

NOT_CONFIGURED = (
    "O pagamento garantido pelo Turno não está disponível neste ambiente: o Stripe não está configurado. "
    "As vagas usam o pagamento direto pela empresa."
)


CNPJ_FIRST = "Informe o CNPJ da empresa em 'Pagamentos' antes do primeiro pagamento garantido."


CNPJ_INVALID = documents.CNPJ_INVALID


DISPUTE_BLOCKS = (
    "Há uma contestação de pagamento em aberto na sua empresa. Novas contratações com pagamento garantido "
    "ficam bloqueadas até que ela seja resolvida."
)


COMPANIES_ONLY = "Somente a empresa da vaga pode pagar este turno."


@dataclass(frozen=True)
class Quote:
    """What the company pays for a hiring: the hours' part, Turno's fee and the total (centavos)."""

    freelancer_centavos: int
    fee_percent: int
    fee_centavos: int

    @property
    def total_centavos(self) -> int:
        """The amount charged."""
        return self.freelancer_centavos + self.fee_centavos


def configured() -> bool:
    """Whether 'Pagamento garantido pelo Turno' can be chosen here: a Stripe key and a webhook secret to hear back."""
    settings = get_settings()
    return bool(
        settings.stripe_secret_key and (settings.stripe_connect_webhook_secret or settings.stripe_webhook_secret)
    )


def fee_percent(session: Session, company_id: int) -> int:
    """Turno's fee for the company's plan (docs/product/money.md "Pagamento garantido")."""
    return rules.PROTECTED_FEE_PERCENT.get(plans.current_plan(session, company_id).slug, 12)


def fee(amount_centavos: int, percent: int) -> int:
    """Turno's fee on an amount, half-up to the centavo."""
    return int((Decimal(amount_centavos) * percent / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def estimate_fee_text(item: object, percent: int) -> str:
    """'+ R$ 19,80 de taxa do Turno': the fee on a vaga's or hiring's scheduled total, for the company only.

    Args:
        item: A Job, a Hiring or a row (services.jobs.shift_pay.shift_total_centavos reads it).
        percent: The company's plan fee (`fee_percent`), read once per list.

    Returns:
        The line, or '' when the shift has no total ('A combinar').
    """
    total = shift_pay.shift_total_centavos(item)
    return shift_pay.fee_text(fee(total, percent)) if total is not None else ""


def quote(session: Session, company_id: int, minutes: int, rate_centavos: int) -> Quote:
    """The 'Aceitar e pagar R$ X' amount for `minutes` at `rate_centavos` per hour."""
    part = shift_pay.pay(minutes, rate_centavos)
    percent = fee_percent(session, company_id)
    return Quote(part, percent, fee(part, percent))


def job_quote(session: Session, job: Job, rate_centavos: int | None = None) -> Quote:
    """The quote for one position of a vaga at its rate (or a proposed one)."""
    minutes = shift_pay.scheduled_minutes(job.inicio_em, job.fim_em, job.intervalo_min) if job.inicio_em else 0
    rate = rate_centavos if rate_centavos is not None else shift_pay.centavos(job.valor_hora)
    return quote(session, job.cliente_id, minutes, rate)


def company_cnpj(session: Session, company_id: int) -> str:
    """The company's CNPJ as stored ('' when not given)."""
    profile = session.get(Profile, company_id)
    return profile.cnpj if profile else ""


def save_cnpj(session: Session, company_id: int, text: object) -> str:
    """Validate and store the company's CNPJ (numeric or the alphanumeric format of July 2026).

    Returns:
        The CNPJ formatted for display.

    Raises:
        ServiceError: CNPJ_INVALID; nothing is written.
        NotAllowed: The caller is not an active company.
    """
    _company(session, company_id)
    bare = documents.valid_cnpj(text)
    if bare is None:
        raise ServiceError(CNPJ_INVALID)
    profile = session.get(Profile, company_id)
    if profile is None:
        profile = Profile(user_id=company_id, tipo_usuario=Role.CLIENT)
    profile.cnpj = bare
    session.add(profile)
    return documents.formatted_cnpj(bare)


def _company(session: Session, company_id: int) -> User:
    user = session.get(User, company_id)
    if user is None or user.role != Role.CLIENT or not user.is_active or user.deleted_at is not None:
        raise NotAllowed(COMPANIES_ONLY)
    return user


def has_open_dispute(session: Session, company_id: int) -> bool:
    """Whether one of the company's charges has a dispute not yet closed."""
    return (
        session.exec(
            select(ProtectedPayment.id).where(
                ProtectedPayment.company_id == company_id, ProtectedPayment.disputed_at.is_not(None)
            )
        ).first()
        is not None
    )


def check_can_accept(session: Session, company_id: int) -> None:
    """Refuse a protected acceptance when payments are off, the CNPJ is missing or a dispute is open.

    Raises:
        ServiceError: With the message the company sees.
    """
    if not configured():
        raise ServiceError(NOT_CONFIGURED)
    if not company_cnpj(session, company_id):
        raise ServiceError(CNPJ_FIRST)
    if has_open_dispute(session, company_id):
        raise ServiceError(DISPUTE_BLOCKS)
