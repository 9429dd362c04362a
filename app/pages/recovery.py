"""/forgot-password, /reset-password and /confirm-email: the e-mailed, single-use links."""

from concurrent.futures import Future

import reflex as rx

from app.layout import public_page
from components.forms import submit_button, text_field
from components.links import link_button
from components.ui import auth_card
from core import background, routes
from core.db import session_scope
from services.accounts import accounts
from services.common import rate_limits
from services.common.errors import ServiceError
from states.auth import client_address_of, flash_then_go
from states.failures import recovers
from states.messages import TRY_AGAIN

RECOVERY_SENT = (
    "Se houver uma conta com este email, você receberá um link para redefinir sua senha. O link é válido por 1 hora."
)


class ForgotPasswordState(rx.State):
    """Password recovery: idle, then a success state (the same whether the e-mail exists or not)."""

    submitting: bool = False
    sent: bool = False
    email_error: str = ""

    @rx.event
    def reset_form(self):
        """Back to the idle form ('tentar novamente')."""
        self.sent = False
        self.submitting = False
        self.email_error = ""

    @rx.event
    def submit(self, form_data: dict):
        """Answer 'sent' for any valid e-mail, then send a reset link if the account exists.

        The lookup and the writes a registered address causes run after the answer, in a
        background thread (send_reset_in_background), so the answer takes the same time whether
        or not the e-mail has an account.
        """
        self.email_error = ""
        try:
            email = accounts.parse_reset_request(form_data if isinstance(form_data, dict) else {})
        except ServiceError as exc:
            self.email_error = exc.field_errors.get("email", "")
            return None if self.email_error else rx.toast.error("Erro ao enviar email", description=exc.message)
        with session_scope() as db:
            allowed = rate_limits.allow(db, rate_limits.Kind.RECOVERY, client_address_of(self))
        if not allowed:  # keyed on the address, never the e-mail: the answer tells nothing about it
            return rx.toast.error("Erro ao enviar email", description=rate_limits.TOO_MANY_REQUESTS)
        send_reset_in_background(email)
        self.sent = True
        return rx.toast.success("Email enviado com sucesso!")


def send_reset_in_background(email: str) -> Future:
    """Send the reset link of `email` (if it has an account) after the answer, on the bounded pool (core/background.py)."""

    def _send() -> None:
        with session_scope() as db:
            accounts.send_reset_link(db, email)

    return background.submit("password reset e-mail", _send)


@public_page(routes.FORGOT_PASSWORD, "Recuperar senha", on_load=[ForgotPasswordState.reset_form])
def forgot_password_page() -> rx.Component:
    """Email form, then a success state with a link to try again."""
    return auth_card(
        "Recuperar senha",
        "Informe o email da sua conta para receber um link de redefinição.",
        rx.cond(
            ForgotPasswordState.sent,
            rx.vstack(
                rx.callout(RECOVERY_SENT, icon="mail-check", color_scheme="green", width="100%"),
                rx.button("Tentar novamente", variant="soft", on_click=ForgotPasswordState.reset_form),
                rx.link("Voltar para o login", href=routes.LOGIN, size="2"),
                spacing="3",
                width="100%",
            ),
            rx.form(
                rx.vstack(
                    text_field(
                        "Email",
                        "email",
                        ForgotPasswordState.email_error,
                        type="email",
                        placeholder="seu@email.com",
                        field_id="forgot-email",
                        auto_complete="email",
                    ),
                    submit_button("Enviar link de recuperação", "Enviando...", ForgotPasswordState.submitting),
                    rx.link("Voltar para o login", href=routes.LOGIN, size="2"),
                    spacing="4",
                    width="100%",
                ),
                on_submit=ForgotPasswordState.submit,
                reset_on_submit=False,
                no_validate=True,
            ),
        ),
    )


class ResetPasswordState(rx.State):
    """Choosing a new password through a reset link."""

    link_valid: bool = True
    checked: bool = False
    submitting: bool = False
    password_error: str = ""
    confirm_error: str = ""
    _token: str = ""

    @rx.event
    def load(self):
        """Check the link's token before showing the form."""
        token = self.router.url.query_parameters.get("token", "")
        self._token = token if isinstance(token, str) else ""
        with session_scope() as db:
            self.link_valid = accounts.reset_token_is_valid(db, self._token)
        self.checked = True
        self.submitting = False
        self.password_error = ""
        self.confirm_error = ""

    @rx.event
    @recovers("Erro ao redefinir senha", TRY_AGAIN, reset={"submitting": False})
    async def submit(self, form_data: dict):
        """Set the new password, end every session of the account and go to /login."""
        if self.submitting:
            return
        self.submitting = True
        self.password_error = ""
        self.confirm_error = ""
        yield
        token = self._token

        def _do() -> None:
            with session_scope() as db:
                accounts.reset_password(db, token, form_data if isinstance(form_data, dict) else {})

        try:
            await rx.run_in_thread(_do)
        except ServiceError as exc:
            self.submitting = False
            self.password_error = exc.field_errors.get("password", "")
            self.confirm_error = exc.field_errors.get("confirmPassword", "")
            if not exc.field_errors:
                self.link_valid = False
            return
        yield rx.call_script(flash_then_go("Senha redefinida! Entre com a nova senha.", routes.LOGIN))


@public_page(routes.RESET_PASSWORD, "Nova senha", on_load=[ResetPasswordState.load])
def reset_password_page() -> rx.Component:
    """New password form, or the invalid-link notice."""
    return auth_card(
        "Criar nova senha",
        "Escolha uma nova senha para a sua conta.",
        rx.cond(
            ResetPasswordState.link_valid,
            rx.form(
                rx.vstack(
                    text_field(
                        "Nova senha",
                        "password",
                        ResetPasswordState.password_error,
                        type="password",
                        field_id="reset-password",
                        auto_complete="new-password",
                        hint="Mínimo de 8 caracteres, com pelo menos uma letra maiúscula, uma minúscula e um número.",
                    ),
                    text_field(
                        "Confirmar nova senha",
                        "confirmPassword",
                        ResetPasswordState.confirm_error,
                        type="password",
                        field_id="reset-confirm",
                        auto_complete="new-password",
                    ),
                    submit_button("Redefinir senha", "Salvando...", ResetPasswordState.submitting),
                    spacing="4",
                    width="100%",
                ),
                on_submit=ResetPasswordState.submit,
                reset_on_submit=False,
                no_validate=True,
            ),
            rx.vstack(
                rx.callout(accounts.INVALID_LINK, icon="triangle-alert", color_scheme="red", width="100%"),
                rx.link("Solicitar novo link", href=routes.FORGOT_PASSWORD),
                width="100%",
            ),
        ),
    )


class ConfirmEmailState(rx.State):
    """Confirming an e-mail address through its link."""

    status: str = "checking"

    @rx.event
    def load(self):
        """Consume the confirmation token."""
        token = self.router.url.query_parameters.get("token", "")
        try:
            with session_scope() as db:
                accounts.confirm_email(db, token if isinstance(token, str) else "")
        except ServiceError:
            self.status = "invalid"
            return
        self.status = "confirmed"


@public_page(routes.CONFIRM_EMAIL, "Confirmar email", on_load=[ConfirmEmailState.load])
def confirm_email_page() -> rx.Component:
    """Result of following a confirmation link."""
    return auth_card(
        "Confirmação de email",
        "",
        rx.match(
            ConfirmEmailState.status,
            (
                "confirmed",
                rx.vstack(
                    rx.callout(
                        "Email confirmado! Agora você já pode entrar.",
                        icon="circle-check",
                        color_scheme="green",
                        width="100%",
                    ),
                    link_button("Entrar", href=routes.LOGIN),
                    width="100%",
                ),
            ),
            (
                "invalid",
                rx.vstack(
                    rx.callout(accounts.INVALID_LINK, icon="triangle-alert", color_scheme="red", width="100%"),
                    rx.link("Voltar ao início", href=routes.HOME),
                    width="100%",
                ),
            ),
            rx.text("Confirmando seu email..."),
        ),
    )
