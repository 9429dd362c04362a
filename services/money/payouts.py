"""Where a freelancer receives protected payments: CPF, fiscal data and opening a Stripe connected account.

'Pagamento garantido pelo Turno' (docs/product/money.md "Meus Ganhos") pays the freelancer through a
Stripe connected account in Brazil, opened by the freelancer on Stripe's hosted onboarding. Before
that the freelancer gives a CPF (valid, shown masked) and says how they invoice: MEI (with its
CNPJ) or autônomo, and from which municipality (the profile's city), which the NFS-e will need.

Saving a CPF is a *claim* and answers the same whether or not another account claims it too (no
'já cadastrado' oracle), and saves are limited per account and per client address
(services/common/rate_limits.py). The CPF goes to Stripe as the individual's `id_number` when the
connected account is opened. What Stripe then reports, and whose the CPF becomes, is
services/money/payout_verification.py. Only a verified holder with payouts enabled receives
(`can_receive`).

Identity always comes from the caller's session (`user_id`). Every call that creates something at
Stripe carries an idempotency key derived from the freelancer and the step, so a retry after a
timeout cannot open a second account.
"""

import logging
from dataclasses import dataclass
from typing import Any

import stripe
from sqlmodel import Session

from core import audit, routes
from core.cities import by_code
from core.types import utcnow
from models import CpfStatus, FiscalRegime, PayoutAccount, Profile, Role, User
from services.common import documents, rate_limits
from services.common.errors import ServiceError
from services.jobs.pricing import configured
from services.money import stripe_api

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
SAVES_THROTTLED = "Você salvou seus dados fiscais muitas vezes seguidas. Aguarde uma hora e tente novamente."
VERIFY_NOTE = (
    "O recebimento pelo Turno é liberado depois que o Stripe confirmar sua identidade (nome e CPF) no "
    "cadastro de recebimento."
)
CPF_RELEASED_NOTE = (
    "O Stripe confirmou este CPF na conta de outra pessoa, então ele precisa ser verificado de novo para "
    "você receber pelo Turno. Se digitou errado, salve o CPF certo. Se o CPF é seu, fale com o suporte "
    "pela página de contato."
)
CPF_CONFLICT_NOTE = (
    "O Stripe confirmou sua identidade, mas este CPF já está confirmado em outra conta do Turno. Fale com o "
    "suporte pela página de contato para resolvermos; até lá, os recebimentos ficam parados."
)
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
STATUS_RELEASED = "cpf_liberado"
STATUS_CONFLICT = "cpf_em_conflito"
STATUS_LABELS = {
    STATUS_NONE: "Não configurado",
    STATUS_FISCAL: "Falta o cadastro no Stripe",
    STATUS_INCOMPLETE: "Cadastro incompleto no Stripe",
    STATUS_REVIEW: "Em análise pelo Stripe",
    STATUS_READY: "Pronto para receber",
    STATUS_RELEASED: "CPF precisa ser verificado de novo",
    STATUS_CONFLICT: "CPF em análise pelo suporte",
}
ACTION_LABELS = {
    STATUS_NONE: "Configurar recebimento",
    STATUS_FISCAL: "Configurar recebimento",
    STATUS_INCOMPLETE: "Continuar cadastro no Stripe",
    STATUS_REVIEW: "Ver cadastro no Stripe",
    STATUS_READY: "Atualizar dados no Stripe",
    STATUS_RELEASED: "",
    STATUS_CONFLICT: "",
}
NOTES = {STATUS_RELEASED: CPF_RELEASED_NOTE, STATUS_CONFLICT: CPF_CONFLICT_NOTE}


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
        notice: Why the CPF needs attention ('' unless released or in conflict).
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
    notice: str = ""


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
    if row.cpf_status == CpfStatus.RELEASED:
        return STATUS_RELEASED
    if row.cpf_status == CpfStatus.CONFLICT:
        return STATUS_CONFLICT
    if not row.stripe_account_id:
        return STATUS_FISCAL
    if can_receive(row):
        return STATUS_READY
    return STATUS_REVIEW if row.details_submitted else STATUS_INCOMPLETE


def can_receive(row: PayoutAccount | None) -> bool:
    """Whether transfers may go to the row's connected account: Stripe verified its CPF and enabled payouts."""
    return bool(row and row.stripe_account_id and row.payouts_enabled and row.cpf_status == CpfStatus.VERIFIED)


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
        notice=NOTES.get(status, ""),
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


def _throttle(session: Session, user_id: int, address: str) -> None:
    """Count this save for the account and the client address; refuse it past either hour's limit."""
    by_account = rate_limits.allow(session, rate_limits.Kind.FISCAL_SAVE_ACCOUNT, f"user:{user_id}")
    by_address = not address or rate_limits.allow(session, rate_limits.Kind.FISCAL_SAVE_ADDRESS, address)
    if not (by_account and by_address):
        audit.log_event(
            "payout.fiscal_throttled",
            who=audit.user_ref(user_id),
            what="payouts.save_fiscal_data",
            where=audit.place(address),
            outcome="denied",
        )
        raise PayoutError(SAVE_ERROR, SAVES_THROTTLED)


def save_fiscal_data(session: Session, user_id: int, form: dict, address: str = "") -> PayoutAccount:
    """Save the freelancer's CPF, regime and MEI CNPJ ('Dados fiscais').

    A blank CPF keeps the saved one (the form shows it masked, never the digits). The municipality
    is the profile's city from the IBGE list. A CPF other accounts claim (or even hold verified) is
    saved all the same, as this account's claim: the answer never tells whether the CPF is known,
    and Stripe's verification of the connected account decides whose it is (`settle_claim`).

    Args:
        session: Open database session (the caller commits; a refusal is rolled back with it).
        user_id: The signed-in freelancer.
        form: The form's fields ('cpf', 'regime', 'mei_cnpj').
        address: The client's address, for the per-address limit (none counted when empty).

    Raises:
        PayoutError: Not a freelancer, too many saves this hour (per account or per address), or
            field errors ('CPF inválido. Confira os números.', an invalid MEI CNPJ...). Nothing is
            written then.
    """
    _freelancer(session, user_id)
    _throttle(session, user_id, address)
    row = account_of(session, user_id)
    errors, clean = _check_fiscal(form, row)
    if errors:
        raise PayoutError(SAVE_ERROR, next(iter(errors.values())), errors)
    profile = session.get(Profile, user_id)
    row = row or PayoutAccount(user_id=user_id, cpf=clean["cpf"])
    if row.cpf != clean["cpf"]:  # a new claim (only possible before the Stripe account exists)
        row.cpf, row.cpf_status = clean["cpf"], CpfStatus.PENDING
    elif row.cpf_status == CpfStatus.RELEASED and not row.stripe_account_id:
        row.cpf_status = CpfStatus.PENDING  # the same CPF claimed again: Stripe decides again
    row.regime, row.mei_cnpj = clean["regime"], clean["mei_cnpj"]
    row.municipio_ibge = profile.cidade_ibge if profile else None
    row.updated_at = utcnow()
    session.add(row)
    return row


def _return_urls(base_url: str) -> tuple[str, str]:
    tab = base_url.rstrip("/") + routes.dashboard_tab(Role.FREELANCER, "earnings")
    return f"{tab}&stripe=retorno", f"{tab}&stripe=renovar"


def _create_account(user: User, cpf: str) -> str:
    """Open the freelancer's connected account (Brazil; Stripe collects and verifies the rest).

    The saved CPF is prefilled as the individual's `id_number`: the identity Stripe verifies is the
    one that claims this CPF (Stripe never returns the number, only `id_number_provided`).
    """
    params: dict[str, Any] = {
        "country": "BR",
        "email": user.email,
        "business_type": "individual",
        "individual": {"id_number": cpf},
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
            row.stripe_account_id = _create_account(user, row.cpf)
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
        "conta_de_recebimento": "Conectada ao Stripe" if row.stripe_account_id else "Não criada",  # never the acct_ id
        "status": STATUS_LABELS[status_of(row)],
    }
