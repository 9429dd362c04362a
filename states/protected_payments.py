"""'Pagamento garantido pelo Turno' on the company's screens: paying a shift, the CNPJ and the payments.

`PayShiftMixin` gives the company's shift cards their 'Pagar R$ X' / 'Pagar complemento R$ X'
button (the dashboard's 'Turnos' and the code screen, next to `ShiftsMixin`);
`CompanyPaymentsMixin` is the dashboard's 'Pagamentos' tab and the greeting back from Stripe
Checkout. Every handler resolves the company from the server-side session, and
services/money/ loads the hiring by id AND company, so another company's hiring and
a missing one get the same refusal. Whether a payment arrived comes from Stripe's verified webhook,
never from the address the browser returns with: the greeting only says what happens next.
"""

import reflex as rx
from reflex.event import EventSpec

from core import routes
from core.db import session_scope
from core.ids import valid_id
from core.settings import get_settings
from core.types import utcnow
from models import Role
from services.common import documents
from services.common.errors import ServiceError
from services.jobs import pricing
from services.money import checkout, payments, receipts
from services.money.payments import PAY_ERROR
from services.money.receipts import Receipt
from states.auth import AuthState
from states.failures import recovers

CNPJ_SAVED = "CNPJ salvo"
CNPJ_ERROR = "Não foi possível salvar o CNPJ"
BACK_FROM_CHECKOUT = {
    "ok": (
        rx.toast.success,
        "Pagamento enviado",
        "Assim que o Stripe confirmar, o turno fica agendado e o freelancer é avisado.",
    ),
    "voltou": (
        rx.toast.info,
        "Pagamento não concluído",
        'Você pode pagar pelo botão "Pagar" no turno em até 60 minutos.',
    ),
}


def checkout_url(company_id: int, hiring_id: int) -> str:
    """The Stripe Checkout of one of the company's hirings (opened or reused), committed before the redirect.

    Raises:
        NotAllowed: Not the company's hiring (or none).
        PaymentError: Nothing to pay, Stripe off, or Stripe refused.
    """
    with session_scope() as db:
        return checkout.open_checkout(db, company_id, hiring_id, get_settings().site_url, utcnow())


def refusal_toast(exc: ServiceError) -> EventSpec:
    """The toast of a refused payment: a PaymentError's own title, 'Não foi possível abrir o pagamento' otherwise."""
    return rx.toast.error(getattr(exc, "title", PAY_ERROR), description=exc.message)


class PayShiftMixin(AuthState, mixin=True):
    """The 'Pagar' button of the company's shift cards (mix in next to ShiftsMixin, which loads the cards)."""

    paying_hiring: int = 0  # the card whose 'Pagar' is opening Checkout: cleared by `_checkout_over` on a page load

    def _checkout_over(self) -> None:
        """A page load: the tab's state outlived any trip to Stripe Checkout, its busy mark must not.

        Reflex keeps a tab's state across the redirect and a reload; left set, every 'Pagar' of the
        tab would stay disabled after one payment.
        """
        self.paying_hiring = 0

    @rx.event
    @recovers(PAY_ERROR, payments.PAY_FAILED, reset={"paying_hiring": 0})
    async def pay_shift(self, hiring_id: int):
        """'Pagar R$ X' / 'Pagar complemento R$ X': send the company to the hiring's Stripe Checkout in this tab."""
        if self.paying_hiring:
            return
        user = self._caller(Role.CLIENT)
        if user is None:
            yield rx.toast.error(PAY_ERROR, description=pricing.COMPANIES_ONLY)
            return
        checked = valid_id(hiring_id)
        if checked is None:
            yield rx.toast.error(PAY_ERROR, description=payments.NOTHING_TO_PAY)
            return
        self.paying_hiring = checked
        yield
        try:
            url = await rx.run_in_thread(lambda: checkout_url(user.id, checked))
        except ServiceError as exc:
            self.paying_hiring = 0
            yield refusal_toast(exc)
            return
        yield rx.redirect(url)


class CompanyPaymentsMixin(AuthState, mixin=True):
    """The 'Pagamentos' tab (the CNPJ and the guaranteed payments) and the return from Stripe Checkout."""

    protected_available: bool = False
    company_cnpj: str = ""
    cnpj_error: str = ""
    payment_receipts: list[Receipt] = []

    def _load_payments(self, db, company_id: int) -> None:
        """Fill the tab: whether payments are on here, the saved CNPJ and the payments made."""
        self.protected_available = pricing.configured()
        bare = pricing.company_cnpj(db, company_id)
        self.company_cnpj = documents.formatted_cnpj(bare) if bare else ""
        self.cnpj_error = ""
        self.payment_receipts = receipts.receipts(db, company_id)

    def _back_from_checkout(self) -> list | None:
        """Back from Stripe Checkout (?pagamento=ok|voltou): greet once, then drop the query from the address."""
        returned = self.router.url.query_parameters.get("pagamento", "")
        if returned not in BACK_FROM_CHECKOUT:
            return None
        toast, title, text = BACK_FROM_CHECKOUT[returned]
        shifts = routes.dashboard_tab(Role.CLIENT, "shifts")
        return [toast(title, description=text), rx.call_script(f"window.history.replaceState(null, '', {shifts!r})")]

    @rx.event
    @recovers(CNPJ_ERROR)
    def save_company_cnpj(self, form_data: dict):
        """'Salvar CNPJ': validate and store the company's CNPJ (numeric or alphanumeric)."""
        user = self._caller(Role.CLIENT)
        if user is None:
            return rx.toast.error(CNPJ_ERROR, description=pricing.COMPANIES_ONLY)
        text = form_data.get("cnpj", "") if isinstance(form_data, dict) else ""
        try:
            with session_scope() as db:
                shown = pricing.save_cnpj(db, user.id, text)
        except ServiceError as exc:
            self.cnpj_error = exc.message
            return None
        self.company_cnpj, self.cnpj_error = shown, ""
        return [rx.set_value("company-cnpj", shown), rx.toast.success(CNPJ_SAVED)]
