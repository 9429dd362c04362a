"""/login: the credentials go straight to /api/auth/login, which sets an HttpOnly cookie."""

import reflex as rx

from app.layout import public_page
from components.forms import submit_button, text_field
from components.ui import auth_card
from core import routes
from states.auth import AuthState, flash_then_go

_LOGIN_JS = f"""
(async () => {{
  const form = document.getElementById('login-form');
  const data = Object.fromEntries(new FormData(form).entries());
  const next = new URLSearchParams(window.location.search).get('next');
  if (next) data.next = next;  // where the person was going; the server checks it (routes.safe_next)
  try {{
    const r = await fetch('{routes.API_LOGIN}', {{
      method: 'POST', credentials: 'same-origin',
      headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify(data)
    }});
    const body = await r.json();
    if (body.ok) {{ {flash_then_go("Login realizado com sucesso!", "__R__").replace("'__R__'", "body.redirect")} return {{ok: true}}; }}
    return body;
  }} catch (e) {{ return {{ok: false, message: ''}}; }}
}})()
"""


class LoginState(rx.State):
    """Login form state: only messages, never the password."""

    submitting: bool = False
    email_error: str = ""
    password_error: str = ""

    @rx.event
    def clear(self):
        """On every visit: a fresh form (a tab keeps its state across logins, logouts and reloads)."""
        self.submitting = False
        self.email_error = ""
        self.password_error = ""

    @rx.event
    def submit(self, _form_data: dict):
        """Send the form to the login API from the browser and wait for its answer."""
        self.submitting = True
        self.email_error = ""
        self.password_error = ""
        return rx.call_script(_LOGIN_JS, callback=LoginState.finished)

    @rx.event
    def finished(self, result: dict):
        """Show the API's answer: field messages or a toast (success navigates in the browser)."""
        result = result if isinstance(result, dict) else {}
        if result.get("ok"):
            return None
        self.submitting = False
        errors = result.get("errors") if isinstance(result.get("errors"), dict) else {}
        self.email_error = str(errors.get("email", ""))[:200]
        self.password_error = str(errors.get("password", ""))[:200]
        if errors:
            return None
        message = result.get("message") if isinstance(result.get("message"), str) else ""
        return rx.toast.error(message[:200] or "Erro ao fazer login. Tente novamente.")


@public_page(routes.LOGIN, "Entrar", on_load=[LoginState.clear], guard=AuthState.redirect_if_signed_in)
def login_page() -> rx.Component:
    """Email and password form with remember-me and links to recovery and registration."""
    return auth_card(
        "Entrar",
        "Acesse sua conta para continuar.",
        rx.form(
            rx.vstack(
                text_field(
                    "Email",
                    "email",
                    LoginState.email_error,
                    type="email",
                    placeholder="seu@email.com",
                    auto_complete="email",
                    field_id="login-email",
                ),
                text_field(
                    "Senha",
                    "password",
                    LoginState.password_error,
                    type="password",
                    auto_complete="current-password",
                    field_id="login-password",
                ),
                rx.hstack(
                    rx.el.label(
                        rx.el.input(type="checkbox", name="remember", id="remember", value="on"),
                        " Lembrar de mim",
                        html_for="remember",
                        style={"display": "flex", "gap": "0.5rem", "alignItems": "center", "fontSize": "0.9rem"},
                    ),
                    rx.spacer(),
                    rx.link("Esqueceu a senha?", href=routes.FORGOT_PASSWORD, size="2"),
                    width="100%",
                ),
                submit_button("Entrar", "Entrando...", LoginState.submitting),
                rx.text(
                    "Não tem uma conta? ",
                    rx.link("Cadastre-se", href=routes.REGISTER),
                    size="2",
                ),
                spacing="4",
                width="100%",
            ),
            id="login-form",
            on_submit=LoginState.submit,
            reset_on_submit=False,
            no_validate=True,
        ),
    )
