"""The freelancer's 'Meus ganhos' tab: earnings per shift, yearly totals and the payout setup.

Every handler resolves the freelancer from the server-side session; a visitor or a company gets
the handler's usual answer and nothing changes (tests/security). The CPF never travels back to the
browser: the form shows it masked and a blank CPF field keeps the saved one.
"""

from typing import ClassVar

import reflex as rx

from core.db import session_scope
from core.settings import get_settings
from core.types import utcnow
from models import FiscalRegime, Role
from services.money import earnings, payout_verification, payouts
from services.money.payouts import PayoutError, PayoutSetup
from states.auth import AuthState
from states.failures import recovers

SAVED = "Dados fiscais salvos"
BACK_FROM_STRIPE = {
    payouts.STATUS_READY: ("Recebimento configurado", "Sua conta está pronta para receber pelo Turno."),
    payouts.STATUS_REVIEW: (
        "Cadastro enviado",
        "O Stripe está conferindo seus dados; avisaremos quando estiver pronto.",
    ),
    payouts.STATUS_INCOMPLETE: ("Cadastro incompleto", "Ainda faltam dados no Stripe. Continue quando puder."),
}
_BLANK_ERRORS = dict.fromkeys(payouts.FISCAL_FIELDS, "")


class EarningsMixin(AuthState, mixin=True):
    """What 'Meus ganhos' shows and its two actions: save the fiscal data, open Stripe's onboarding."""

    ROLE: ClassVar[Role]

    earning_rows: list[earnings.EarningRow] = []
    earnings_year: int = 0
    earnings_received: str = ""
    earnings_to_receive: str = ""
    earnings_waiting: str = ""
    earnings_is_mei: bool = False
    earnings_mei_percent: int = 0
    earnings_mei_text: str = ""
    earnings_mei_warning: bool = False
    payout_configured: bool = False
    payout_status: str = payouts.STATUS_NONE
    payout_status_label: str = ""
    payout_action: str = ""
    payout_cpf: str = ""
    payout_cpf_locked: bool = False
    payout_regime: str = FiscalRegime.AUTONOMO
    payout_mei_cnpj: str = ""
    payout_municipio: str = ""
    payout_requirements: int = 0
    payout_notice: str = ""
    fiscal_errors: dict[str, str] = _BLANK_ERRORS
    payout_busy: bool = False

    def _show_setup(self, setup: PayoutSetup) -> None:
        self.payout_configured = setup.configured
        self.payout_status = setup.status
        self.payout_status_label = setup.status_label
        self.payout_action = setup.action_label
        self.payout_cpf = setup.cpf_masked
        self.payout_cpf_locked = setup.cpf_locked
        self.payout_regime = setup.regime
        self.payout_mei_cnpj = setup.mei_cnpj
        self.payout_municipio = setup.municipio
        self.payout_requirements = setup.requirements_due
        self.payout_notice = setup.notice

    def _load_earnings(self, db, user_id: int) -> None:
        """Load the tab; back from Stripe (?stripe=retorno) read the account from Stripe first."""
        returned = self.router.url.query_parameters.get("stripe", "")
        if returned == "retorno":
            payout_verification.refresh_account(db, user_id)
            db.commit()
        self.fiscal_errors = _BLANK_ERRORS
        self.payout_busy = False
        self._show_earnings(db, user_id)

    def _show_earnings(self, db, user_id: int) -> None:
        view = earnings.for_freelancer(db, user_id, utcnow())
        self.earning_rows = view["rows"]
        self.earnings_year = view["year"]
        self.earnings_received = view["received"]
        self.earnings_to_receive = view["to_receive"]
        self.earnings_waiting = view["waiting"]
        self.earnings_is_mei = view["is_mei"]
        self.earnings_mei_percent = view["mei_percent"]
        self.earnings_mei_text = view["mei_text"]
        self.earnings_mei_warning = view["mei_warning"]
        self._show_setup(payouts.setup_for(db, user_id))

    def _back_from_stripe(self, onboarding: rx.EventHandler):
        """After the tab loaded: greet a return from Stripe, or open a fresh link for an expired one.

        Args:
            onboarding: This state's `start_payout_onboarding` (Stripe sent ?stripe=renovar).
        """
        returned = self.router.url.query_parameters.get("stripe", "")
        if returned == "renovar":
            return onboarding
        if returned == "retorno" and self.payout_status in BACK_FROM_STRIPE:
            title, text = BACK_FROM_STRIPE[self.payout_status]
            return rx.toast.success(title, description=text)
        return None

    @rx.event
    def choose_regime(self, value: str):
        """MEI or autônomo in the form (the MEI's CNPJ field shows for MEI)."""
        self.payout_regime = value if value in payouts.REGIME_LABELS else FiscalRegime.AUTONOMO

    @rx.event
    @recovers(payouts.SAVE_ERROR)
    def save_fiscal_data(self, form_data: dict):
        """'Salvar dados fiscais': CPF, MEI or autônomo, and the MEI's CNPJ."""
        user = self._caller(Role.FREELANCER)
        if user is None:
            return rx.toast.error(payouts.SAVE_ERROR, description=payouts.FREELANCERS_ONLY)
        form = form_data if isinstance(form_data, dict) else {}
        try:
            with session_scope() as db:
                payouts.save_fiscal_data(db, user.id, form, self._client_address())
                db.commit()
                self._show_earnings(db, user.id)  # the MEI limit shows once MEI is chosen
        except PayoutError as exc:
            self.fiscal_errors = {**_BLANK_ERRORS, **(exc.field_errors or {})}
            return None if exc.field_errors else rx.toast.error(exc.title, description=exc.message)
        self.fiscal_errors = _BLANK_ERRORS
        return [rx.set_value("fiscal-cpf", ""), rx.toast.success(SAVED)]

    @rx.event
    @recovers(payouts.SETUP_ERROR, payouts.SETUP_FAILED, reset={"payout_busy": False})
    async def start_payout_onboarding(self):
        """'Configurar recebimento': open (or continue) the freelancer's Stripe onboarding in this tab."""
        if self.payout_busy:
            return
        user = self._caller(Role.FREELANCER)
        if user is None:
            yield rx.toast.error(payouts.SETUP_ERROR, description=payouts.FREELANCERS_ONLY)
            return
        self.payout_busy = True
        yield

        def _url() -> str:
            with session_scope() as db:
                url = payouts.start_onboarding(db, user.id, get_settings().site_url)
                db.commit()
                return url

        try:
            url = await rx.run_in_thread(_url)
        except PayoutError as exc:
            self.payout_busy = False
            yield rx.toast.error(exc.title, description=exc.message)
            return
        yield rx.redirect(url)
