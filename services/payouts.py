"""Where a freelancer receives protected payments: CPF, fiscal data and a Stripe connected account.

'Pagamento garantido pelo Turno' (docs/product.md "Recebimentos") pays the freelancer through a
Stripe connected account in Brazil, opened by the freelancer on Stripe's hosted onboarding. Before
that the freelancer gives a CPF (valid, unique, shown masked) and says how they invoice: MEI (with
its CNPJ) or autônomo, and from which municipality (the profile's city), which the NFS-e will need.

Identity always comes from the caller's session (`user_id`); Stripe's answers and its verified
`account.updated` webhook are the only source of the account's state. Every call that creates
something at Stripe carries an idempotency key derived from the freelancer and the step, so a
retry after a timeout cannot open a second account.
"""

import logging
from dataclasses import dataclass
from typing import Any

import stripe
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core import routes
from core.cities import by_code
from core.settings import get_settings
from core.types import utcnow
from models import FiscalRegime, PayoutAccount, Profile, Role, User
from services import documents, stripe_api
from services.errors import ServiceError

log = logging.getLogger(__name__)

SETUP_ERROR = "Não foi possível abrir o cadastro de recebimento"
SETUP_FAILED = "O Stripe não respondeu. Tente novamente em alguns instantes."
SAVE_ERROR = "Não foi possível salvar seus dados fiscais"
NOT_CONFIGURED = (
    "O pagamento garantido pelo Turno ainda não está disponível neste ambiente. Por enquanto, as vagas usam "
    "Pagamento direto: a empresa paga você diretamente e o Turno registra as horas e o valor."
)
FREELANCERS_ONLY = "O recebimento pelo Turno é para freelancers."
CPF_REQUIRED = "Informe seu CPF."
CPF_TAKEN = "Este CPF já está cadastrado em outra conta."
CPF_LOCKED = "O CPF não pode ser alterado depois de aberta a conta de recebimento. Fale com o suporte."
CPF_FIRST = "Salve seu CPF e seus dados fiscais antes de configurar o recebimento."
REGIME_INVALID = "Escolha MEI ou autônomo."
MEI_CNPJ_REQUIRED = "Informe o CNPJ do seu MEI."
REGIME_LABELS = {FiscalRegime.AUTONOMO: "Autônomo (com CPF)", FiscalRegime.MEI: "MEI (com CNPJ)"}
FISCAL_FIELDS = ("cpf", "regime", "mei_cnpj")

STATUS_NONE = "sem_cadastro"
STATUS_FISCAL = "dados_fiscais"
STATUS_INCOMPLETE = "incompleto"
STATUS_REVIEW = "em_analise"
STATUS_READY = "ativo"
STATUS_LABELS = {
    STATUS_NONE: "Não configurado",
    STATUS_FISCAL: "Falta o cadastro no Stripe",
    STATUS_INCOMPLETE: "Cadastro incompleto no Stripe",
    STATUS_REVIEW: "Em análise pelo Stripe",
    STATUS_READY: "Pronto para receber",
}
ACTION_LABELS = {
    STATUS_NONE: "Configurar recebimento",
    STATUS_FISCAL: "Configurar recebimento",
    STATUS_INCOMPLETE: "Continuar cadastro no Stripe",
    STATUS_REVIEW: "Ver cadastro no Stripe",
    STATUS_READY: "Atualizar dados no Stripe",
}


class PayoutError(ServiceError):
    """A payout setup action that failed, with its toast title."""

    def __init__(self, title: str, message: str, field_errors: dict[str, str] | None = None):
        super().__init__(message, field_errors)
        self.title = title


@dataclass(frozen=True)
class PayoutSetup:
    """What 'Configurar recebimento' shows a freelancer.

    Attributes:
        configured: Stripe is configured on this server (otherwise only direct payment exists).
        status: One of the STATUS_* keys.
        status_label: Its Portuguese label.
        action_label: The button that opens Stripe's onboarding ('' when it cannot be offered yet).
        cpf_masked: '***.456.789-**' once saved ('' before).
        cpf_locked: The CPF can no longer change (a connected account exists).
        regime: 'mei' or 'autonomo'.
        mei_cnpj: The MEI's CNPJ, formatted ('' for an autônomo).
        municipio: 'Curitiba, PR' from the profile's city ('' when the profile has none from the list).
        requirements_due: How many items Stripe still asks for.
    """

    configured: bool
    status: str
    status_label: str
    action_label: str
    cpf_masked: str
    cpf_locked: bool
    regime: str
    mei_cnpj: str
    municipio: str
    requirements_due: int


def configured() -> bool:
    """Whether protected payments can run here: a Stripe key and a webhook secret to hear back."""
    settings = get_settings()
    return bool(
        settings.stripe_secret_key and (settings.stripe_connect_webhook_secret or settings.stripe_webhook_secret)
    )


def _freelancer(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None or user.role != Role.FREELANCER or not user.is_active or user.deleted_at is not None:
        raise PayoutError(SETUP_ERROR, FREELANCERS_ONLY)
    return user


def account_of(session: Session, user_id: int) -> PayoutAccount | None:
    """The freelancer's payout row, or None before the first save."""
    return session.get(PayoutAccount, user_id)


def status_of(row: PayoutAccount | None) -> str:
    """Where the freelancer is in the setup (STATUS_*)."""
    if row is None:
        return STATUS_NONE
    if not row.stripe_account_id:
        return STATUS_FISCAL
    if row.payouts_enabled:
        return STATUS_READY
    return STATUS_REVIEW if row.details_submitted else STATUS_INCOMPLETE


def setup_for(session: Session, user_id: int) -> PayoutSetup:
    """What the freelancer's 'Recebimento' card shows."""
    row = account_of(session, user_id)
    profile = session.get(Profile, user_id)
    status = status_of(row)
    city = by_code(row.municipio_ibge if row and row.municipio_ibge else profile.cidade_ibge if profile else None)
    on = configured()
    return PayoutSetup(
        configured=on,
        status=status,
        status_label=STATUS_LABELS[status],
        action_label=ACTION_LABELS[status] if on and row is not None else "",
        cpf_masked=documents.masked_cpf(row.cpf) if row else "",
        cpf_locked=bool(row and row.stripe_account_id),
        regime=row.regime if row else FiscalRegime.AUTONOMO,
        mei_cnpj=documents.formatted_cnpj(row.mei_cnpj) if row else "",
        municipio=city.label if city else "",
        requirements_due=row.requirements_due if row else 0,
    )


def _check_fiscal(form: dict, row: PayoutAccount | None) -> tuple[dict[str, str], dict[str, Any]]:
    """Field errors and the cleaned values of the 'Dados fiscais' form."""
    errors: dict[str, str] = {}
    typed_cpf = str(form.get("cpf") or "").strip()
    cpf = documents.valid_cpf(typed_cpf) if typed_cpf else (row.cpf if row else None)
    if not typed_cpf and row is None:
        errors["cpf"] = CPF_REQUIRED
    elif cpf is None:
        errors["cpf"] = documents.CPF_INVALID
    elif row is not None and row.stripe_account_id and cpf != row.cpf:
        errors["cpf"] = CPF_LOCKED
    regime = str(form.get("regime") or "")
    if regime not in REGIME_LABELS:
        errors["regime"] = REGIME_INVALID
    mei_cnpj = ""
    if regime == FiscalRegime.MEI:
        typed = str(form.get("mei_cnpj") or "").strip()
        mei_cnpj = documents.valid_cnpj(typed) or ""
        if not typed:
            errors["mei_cnpj"] = MEI_CNPJ_REQUIRED
        elif not mei_cnpj:
            errors["mei_cnpj"] = documents.CNPJ_INVALID
    return errors, {"cpf": cpf, "regime": regime, "mei_cnpj": mei_cnpj}


def save_fiscal_data(session: Session, user_id: int, form: dict) -> PayoutAccount:
    """Save the freelancer's CPF, regime and MEI CNPJ ('Dados fiscais').

    A blank CPF keeps the saved one (the form shows it masked, never the digits). The municipality
    is the profile's city from the IBGE list.

    Raises:
        PayoutError: Not a freelancer, or field errors ('CPF inválido. Confira os números.', a CPF
            another account uses, an invalid MEI CNPJ...). Nothing is written then.
    """
    _freelancer(session, user_id)
    row = account_of(session, user_id)
    errors, clean = _check_fiscal(form, row)
    if not errors:
        taken = session.exec(
            select(PayoutAccount.user_id).where(PayoutAccount.cpf == clean["cpf"], PayoutAccount.user_id != user_id)
        ).first()
        if taken is not None:
            errors["cpf"] = CPF_TAKEN
    if errors:
        raise PayoutError(SAVE_ERROR, next(iter(errors.values())), errors)
    profile = session.get(Profile, user_id)
    row = row or PayoutAccount(user_id=user_id, cpf=clean["cpf"])
    row.cpf, row.regime, row.mei_cnpj = clean["cpf"], clean["regime"], clean["mei_cnpj"]
    row.municipio_ibge = profile.cidade_ibge if profile else None
    row.updated_at = utcnow()
    session.add(row)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError as exc:  # another account saved the same CPF a moment ago
        raise PayoutError(SAVE_ERROR, CPF_TAKEN, {"cpf": CPF_TAKEN}) from exc
    return row


def _return_urls(base_url: str) -> tuple[str, str]:
    tab = base_url.rstrip("/") + routes.dashboard_tab(Role.FREELANCER, "earnings")
    return f"{tab}&stripe=retorno", f"{tab}&stripe=renovar"


def _create_account(user: User) -> str:
    """Open the freelancer's connected account (Brazil; Stripe collects and verifies the rest)."""
    params: dict[str, Any] = {
        "country": "BR",
        "email": user.email,
        "business_type": "individual",
        "controller": {
            "fees": {"payer": "application"},
            "losses": {"payments": "application"},
            "requirement_collection": "stripe",
            "stripe_dashboard": {"type": "express"},
        },
        "capabilities": {"transfers": {"requested": True}},
        "metadata": {"user_id": str(user.id)},
    }
    account = stripe_api.client().v1.accounts.create(params, {"idempotency_key": f"turno-connect-account-{user.id}"})
    return account.id


def start_onboarding(session: Session, user_id: int, base_url: str) -> str:
    """The Stripe onboarding URL for the freelancer, opening their connected account the first time.

    Args:
        session: Open database session (the caller commits: the account id is kept even when the
            link fails, so the next try reuses the account).
        user_id: The signed-in freelancer.
        base_url: Public origin of the site, for the return and refresh URLs.

    Raises:
        PayoutError: Not configured, not a freelancer, no CPF yet, or Stripe refused.
    """
    if not configured():
        raise PayoutError(SETUP_ERROR, NOT_CONFIGURED)
    user = _freelancer(session, user_id)
    row = account_of(session, user_id)
    if row is None:
        raise PayoutError(SETUP_ERROR, CPF_FIRST)
    try:
        if not row.stripe_account_id:
            row.stripe_account_id = _create_account(user)
            row.updated_at = utcnow()
            session.add(row)
            session.commit()
        return_url, refresh_url = _return_urls(base_url)
        link = stripe_api.client().v1.account_links.create(
            {
                "account": row.stripe_account_id,
                "type": "account_onboarding",
                "return_url": return_url,
                "refresh_url": refresh_url,
                "collection_options": {"fields": "eventually_due"},
            }
        )
    except stripe.StripeError as exc:
        log.warning("Stripe refused the payout onboarding of freelancer %s: %s", user_id, exc)
        raise PayoutError(SETUP_ERROR, SETUP_FAILED) from exc
    if not getattr(link, "url", None):
        raise PayoutError(SETUP_ERROR, SETUP_FAILED)
    return link.url


def _apply(row: PayoutAccount, account: dict) -> None:
    requirements = account.get("requirements") or {}
    row.details_submitted = bool(account.get("details_submitted"))
    row.payouts_enabled = bool(account.get("payouts_enabled"))
    row.requirements_due = len(requirements.get("currently_due") or [])
    row.updated_at = utcnow()


def refresh_account(session: Session, user_id: int) -> PayoutAccount | None:
    """Read the freelancer's connected account from Stripe (back from onboarding, before the webhook).

    A failed read changes nothing: the webhook brings the same state later.
    """
    row = account_of(session, user_id)
    if row is None or not row.stripe_account_id or not configured():
        return row
    try:
        account = stripe_api.client().v1.accounts.retrieve(row.stripe_account_id).to_dict()
    except stripe.StripeError as exc:
        log.warning("Could not read connected account %s: %s", row.stripe_account_id, exc)
        return row
    _apply(row, account)
    session.add(row)
    return row


def on_account_updated(session: Session, account: dict) -> None:
    """`account.updated` (a verified webhook): keep our copy of the account's state."""
    account_id = account.get("id")
    if not isinstance(account_id, str) or not account_id:
        return
    row = session.exec(select(PayoutAccount).where(PayoutAccount.stripe_account_id == account_id)).first()
    if row is None:
        log.info("account.updated for an account we do not know: %s", account_id)
        return
    _apply(row, account)
    session.add(row)


def export(session: Session, user_id: int) -> dict | None:
    """The payout data in the freelancer's own data export ('Baixar meus dados')."""
    row = account_of(session, user_id)
    if row is None:
        return None
    return {
        "cpf": row.cpf,
        "regime": row.regime,
        "mei_cnpj": row.mei_cnpj,
        "municipio_ibge": row.municipio_ibge,
        "stripe_account_id": row.stripe_account_id,
        "status": STATUS_LABELS[status_of(row)],
    }
