"""/register: company and freelancer sign-up, validated on the server (docs/product/accounts.md §2 and docs/product/validation.md §3)."""

from collections.abc import Callable
from concurrent.futures import Future

import reflex as rx
from sqlmodel import Session

from app.layout import public_page
from components.city_field import city_field
from components.forms import select_field, submit_button, text_area, text_field
from components.ui import auth_card
from core import background, routes
from core.catalog import INDUSTRIES
from core.db import session_scope
from services.accounts import accounts
from services.common import rate_limits
from services.common.errors import ServiceError
from states.auth import AuthState, client_address_of

COMPANY_FIELDS = ("name", "email", "password", "confirmPassword", "company", "industry", "location", "description")
FREELANCER_FIELDS = ("name", "email", "password", "confirmPassword", "profession", "skills", "location", "experience")
PASSWORD_HINT = "Mínimo de 8 caracteres, com pelo menos uma letra maiúscula, uma minúscula e um número."
_KINDS = {
    "client": (
        accounts.validate_company,
        accounts.register_company,
        "Conta empresarial criada com sucesso!",
    ),
    "freelancer": (
        accounts.validate_freelancer,
        accounts.register_freelancer,
        "Conta de freelancer criada com sucesso!",
    ),
}


def register_in_background(register: Callable[[Session, dict], object], data: dict) -> Future:
    """Run a registration (bcrypt, rows, e-mail) after the answer, on the bounded pool of core/background.py.

    A failed registration is tried again; when every attempt failed, the person is e-mailed that
    the account could not be created, so it is never lost silently.
    """

    def _register() -> None:
        with session_scope() as db:
            register(db, data)

    def _tell_the_person() -> None:
        with session_scope() as db:
            accounts.send_registration_failed(db, data.get("email"))

    return background.submit("registration", _register, _tell_the_person)


def _blank(fields: tuple[str, ...]) -> dict[str, str]:
    return dict.fromkeys(fields, "")


class RegisterState(rx.State):
    """Both registration forms; the kind comes from the submitting form, never a role field."""

    tab: str = "client"
    chosen: bool = False  # set once the page has loaded: until then the tab comes from the URL (`shown_tab`)
    submitting: bool = False
    company_errors: dict[str, str] = _blank(COMPANY_FIELDS)
    freelancer_errors: dict[str, str] = _blank(FREELANCER_FIELDS)

    @rx.event
    def load(self):
        """Pick the tab from ?type=client|freelancer (default: the page's own, freelancer on /register/freelancer)."""
        path = self.router.url.path.rstrip("/")
        self.tab = routes.register_kind(self.router.url.query_parameters.get("type"), path)
        self.chosen = True
        self.company_errors = _blank(COMPANY_FIELDS)
        self.freelancer_errors = _blank(FREELANCER_FIELDS)
        self.submitting = False

    @rx.event
    def set_tab(self, value: str):
        """Switch between the Empresa and Freelancer tabs."""
        self.tab = value if value in _KINDS else "client"
        self.chosen = True

    @rx.event
    async def submit_company(self, form_data: dict):
        """Register a company."""
        async for event in self._submit("client", form_data):
            yield event

    @rx.event
    async def submit_freelancer(self, form_data: dict):
        """Register a freelancer."""
        async for event in self._submit("freelancer", form_data):
            yield event

    async def _submit(self, kind: str, form_data: dict):
        """Validate now; answer; create the account (or mail the owner of a known e-mail) after answering.

        The answer is the same for a new and a registered e-mail, and so is its time: the work
        that differs (a new account's rows, or the owner's notice) and the bcrypt hash both run
        after the answer, in a background thread (register_in_background).
        """
        validate, register, success = _KINDS[kind]
        fields = COMPANY_FIELDS if kind == "client" else FREELANCER_FIELDS
        data = form_data if isinstance(form_data, dict) else {}
        self._set_errors(kind, _blank(fields))
        try:
            validate(data)
        except ServiceError as exc:
            self._set_errors(kind, {**_blank(fields), **{k: v for k, v in exc.field_errors.items() if k in fields}})
            if not exc.field_errors:
                yield rx.toast.error("Erro no cadastro", description=exc.message)
            return
        if not self._allowed_from_here():
            yield rx.toast.error("Erro no cadastro", description=rate_limits.TOO_MANY_REQUESTS)
            return
        register_in_background(register, data)
        yield rx.toast.success(
            success, description="Enviamos um link de confirmação para o seu email. Confirme-o para fazer login."
        )
        yield rx.redirect(routes.LOGIN)

    def _allowed_from_here(self) -> bool:
        """Whether this connection's address may register once more this hour (services/common/rate_limits.py).

        Keyed on the address, never the e-mail typed: the answer cannot tell whether an e-mail has an account.
        """
        with session_scope() as db:
            return rate_limits.allow(db, rate_limits.Kind.REGISTRATION, client_address_of(self))

    def _set_errors(self, kind: str, errors: dict[str, str]) -> None:
        if kind == "client":
            self.company_errors = errors
        else:
            self.freelancer_errors = errors


def _common_fields(prefix: str, errors) -> list[rx.Component]:
    return [
        text_field(
            "Nome completo",
            "name",
            errors["name"],
            field_id=f"{prefix}-name",
            placeholder="Seu nome",
            auto_complete="name",
        ),
        text_field(
            "Email",
            "email",
            errors["email"],
            type="email",
            field_id=f"{prefix}-email",
            placeholder="seu@email.com",
            auto_complete="email",
        ),
        text_field(
            "Senha",
            "password",
            errors["password"],
            type="password",
            field_id=f"{prefix}-password",
            hint=PASSWORD_HINT,
            auto_complete="new-password",
        ),
        text_field(
            "Confirmar senha",
            "confirmPassword",
            errors["confirmPassword"],
            type="password",
            field_id=f"{prefix}-confirm",
            auto_complete="new-password",
        ),
    ]


def company_form() -> rx.Component:
    """Company form, fields in the order of docs/product/accounts.md §2."""
    errors = RegisterState.company_errors
    return rx.form(
        rx.vstack(
            rx.callout(
                "Cadastre sua empresa para publicar vagas e encontrar profissionais qualificados.",
                icon="building-2",
                size="1",
                width="100%",
            ),
            *_common_fields("company", errors),
            text_field(
                "Nome da empresa",
                "company",
                errors["company"],
                field_id="company-company",
                placeholder="Nome da sua empresa",
                auto_complete="organization",
            ),
            select_field(
                "Setor",
                "industry",
                INDUSTRIES,
                errors["industry"],
                placeholder="Selecione o setor",
                field_id="company-industry",
            ),
            city_field("Localização", "location", errors["location"], field_id="company-location"),
            text_area(
                "Descrição da empresa (opcional)",
                "description",
                errors["description"],
                field_id="company-description",
                placeholder="Conte um pouco sobre a sua empresa",
            ),
            submit_button("Cadastrar Empresa", "Cadastrando...", RegisterState.submitting),
            spacing="4",
            width="100%",
        ),
        on_submit=RegisterState.submit_company,
        reset_on_submit=False,
        no_validate=True,
        id="company-form",
    )


def freelancer_form() -> rx.Component:
    """Freelancer form, fields in the order of docs/product/accounts.md §2."""
    errors = RegisterState.freelancer_errors
    return rx.form(
        rx.vstack(
            rx.callout(
                "Cadastre-se gratuitamente e candidate-se a vagas em hotelaria, gastronomia e eventos.",
                icon="user-round",
                size="1",
                width="100%",
            ),
            *_common_fields("freelancer", errors),
            text_field(
                "Profissão",
                "profession",
                errors["profession"],
                field_id="freelancer-profession",
                placeholder="Ex.: Chef, Garçom, Recepcionista",
            ),
            text_field(
                "Habilidades",
                "skills",
                errors["skills"],
                field_id="freelancer-skills",
                placeholder="Ex.: Atendimento, Organização, Cozinha italiana",
                hint="Separe as habilidades por vírgula.",
            ),
            city_field("Localização", "location", errors["location"], field_id="freelancer-location"),
            text_area(
                "Experiência (opcional)",
                "experience",
                errors["experience"],
                field_id="freelancer-experience",
                placeholder="Conte sobre suas experiências anteriores",
            ),
            submit_button("Cadastrar como Freelancer", "Cadastrando...", RegisterState.submitting),
            spacing="4",
            width="100%",
        ),
        on_submit=RegisterState.submit_freelancer,
        reset_on_submit=False,
        no_validate=True,
        id="freelancer-form",
    )


# Before the page has loaded, the tab is read from ?type= in the browser, so the first render after
# the scripts run already shows the form the URL asked for. The build prerenders without a URL
# (`typeof window` is undefined there), so each of the two routes prerenders its own default, and
# app/api/public_pages.py serves the freelancer route's HTML for /register?type=freelancer: the
# first paint, before any script, is the right form too, and React hydrates it without a mismatch.
_URL_KIND_JS = (
    "((typeof window !== 'undefined' && ['client', 'freelancer'].find("
    "(kind) => kind === new URLSearchParams(window.location.search).get('type'))) || '{default}')"
)


def shown_tab(default: str) -> rx.Var:
    """The tab shown: the state's once loaded; before that the URL's ?type=, or `default` without one.

    Args:
        default: The route's own tab ('client' on /register, 'freelancer' on /register/freelancer).
    """
    return rx.cond(RegisterState.chosen, RegisterState.tab, rx.Var(_URL_KIND_JS.format(default=default)).to(str))


def register_content(default: str) -> rx.Component:
    """Tabs Empresa and Freelancer with help notes and legal links, `default` shown until the page loads."""
    return auth_card(
        "Criar conta",
        "Escolha o tipo de conta e preencha seus dados.",
        rx.tabs.root(
            rx.tabs.list(
                rx.tabs.trigger("Empresa", value="client"),
                rx.tabs.trigger("Freelancer", value="freelancer"),
            ),
            rx.tabs.content(rx.box(company_form(), padding_top="1rem"), value="client"),
            rx.tabs.content(rx.box(freelancer_form(), padding_top="1rem"), value="freelancer"),
            value=shown_tab(default),
            on_change=RegisterState.set_tab,
            width="100%",
        ),
        rx.text(
            "Ao se cadastrar, você concorda com os ",
            rx.link("Termos de uso", href=routes.TERMS),
            " e a ",
            rx.link("Política de privacidade", href=routes.PRIVACY),
            ".",
            size="2",
        ),
        rx.text("Precisa de ajuda? ", rx.link("Fale com o suporte", href=routes.CONTACT), size="2"),
        rx.text("Já tem uma conta? ", rx.link("Entrar", href=routes.LOGIN), size="2"),
    )


@public_page(routes.REGISTER, "Cadastro", on_load=[RegisterState.load], guard=AuthState.redirect_if_signed_in)
def register_page() -> rx.Component:
    """/register: the company form first (or the one ?type= asks for)."""
    return register_content("client")


@public_page(
    routes.REGISTER_FREELANCER, "Cadastro", on_load=[RegisterState.load], guard=AuthState.redirect_if_signed_in
)
def register_freelancer_page() -> rx.Component:
    """/register/freelancer: the same page with the freelancer form first (the prerendered HTML of ?type=freelancer)."""
    return register_content("freelancer")
