"""/contact: the contact form (stored by services.accounts.contact), contact details, hours and location."""

import asyncio

import reflex as rx

from app.layout import public_page
from components.content import MUTED
from components.forms import select_field, submit_button, text_area, text_field
from components.links import link_button
from components.ui import page_heading
from core import routes
from core.catalog import CONTACT_SUBJECTS, CONTACT_SUCCESS_SECONDS
from core.db import session_scope
from core.settings import get_settings
from services.accounts import contact
from services.common.errors import ServiceError
from states.auth import AuthState
from states.failures import recovers

CONTACT_FIELDS = ("name", "email", "phone", "subject", "message")
OPENING_HOURS = "Segunda a sexta, das 9h às 18h"
SEND_FAILED = "Não foi possível enviar sua mensagem. Tente novamente."


def _blank() -> dict[str, str]:
    return dict.fromkeys(CONTACT_FIELDS, "")


def _store(form_data: dict) -> None:
    """Validate and store the message in its own transaction (runs in a worker thread)."""
    with session_scope() as db:
        contact.submit(db, form_data)


class ContactState(rx.State):
    """The contact form: field messages, the submitting flag and the 3-second success state."""

    submitting: bool = False
    sent: bool = False
    errors: dict[str, str] = _blank()

    @rx.event
    def load(self):
        """Start every visit with an empty, idle form."""
        self.submitting = False
        self.sent = False
        self.errors = _blank()

    @rx.event
    @recovers("Erro ao enviar mensagem", SEND_FAILED, reset={"submitting": False})
    async def submit(self, form_data: dict):
        """Validate and store the message; show the field messages or the success state."""
        if self.submitting or self.sent:
            return
        self.submitting = True
        self.errors = _blank()
        yield
        data = {key: form_data.get(key) for key in CONTACT_FIELDS} if isinstance(form_data, dict) else {}
        try:
            await rx.run_in_thread(lambda: _store(data))
        except ServiceError as exc:
            self.submitting = False
            self.errors = {**_blank(), **{k: v for k, v in exc.field_errors.items() if k in CONTACT_FIELDS}}
            if not exc.field_errors:
                yield rx.toast.error("Erro ao enviar mensagem", description=exc.message)
            return
        self.submitting = False
        self.sent = True
        yield rx.toast.success("Mensagem enviada!", description="Responderemos em breve no email informado.")
        yield ContactState.end_success

    @rx.event(background=True)
    async def end_success(self):
        """After CONTACT_SUCCESS_SECONDS, leave the success state: a fresh, empty form appears."""
        await asyncio.sleep(CONTACT_SUCCESS_SECONDS)
        async with self:
            self.sent = False


def contact_form() -> rx.Component:
    """The form, or the success state for a few seconds after a message is sent."""
    errors = ContactState.errors
    return rx.cond(
        ContactState.sent,
        rx.center(
            rx.vstack(
                rx.icon("circle-check", size=48, color=rx.color("green", 11), aria_hidden="true"),
                rx.heading("Mensagem enviada!", as_="h3", size="5"),
                rx.text(
                    "Obrigado pelo contato. Responderemos em breve no email informado.",
                    color=MUTED,
                    text_align="center",
                ),
                align="center",
                spacing="3",
            ),
            id="contato-sucesso",
            role="status",
            padding="3rem 1rem",
        ),
        rx.form(
            rx.vstack(
                rx.grid(
                    text_field("Nome", "name", errors["name"], field_id="contact-name", auto_complete="name"),
                    text_field(
                        "Email",
                        "email",
                        errors["email"],
                        type="email",
                        field_id="contact-email",
                        placeholder="seu@email.com",
                        auto_complete="email",
                    ),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                rx.grid(
                    text_field(
                        "Telefone (opcional)",
                        "phone",
                        errors["phone"],
                        type="tel",
                        field_id="contact-phone",
                        placeholder="(11) 99999-9999",
                        auto_complete="tel",
                    ),
                    select_field(
                        "Assunto",
                        "subject",
                        CONTACT_SUBJECTS,
                        errors["subject"],
                        placeholder="Selecione um assunto",
                        field_id="contact-subject",
                    ),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                text_area(
                    "Mensagem",
                    "message",
                    errors["message"],
                    field_id="contact-message",
                    placeholder="Como podemos ajudar?",
                ),
                submit_button("Enviar mensagem", "Enviando...", ContactState.submitting),
                spacing="4",
                width="100%",
            ),
            id="contact-form",
            on_submit=ContactState.submit,
            reset_on_submit=False,
            no_validate=True,
        ),
    )


def info_row(icon: str, title: str, *content: rx.Component) -> rx.Component:
    """A contact detail: decorative icon, h3 title and its content."""
    return rx.hstack(
        rx.icon(icon, size=22, color=rx.color("accent", 11), aria_hidden="true", flex_shrink="0"),
        rx.vstack(rx.heading(title, as_="h3", size="3"), *content, spacing="1"),
        spacing="3",
        align="start",
    )


def contact_details() -> rx.Component:
    """E-mail, phone and opening hours."""
    settings = get_settings()
    phone_digits = "".join(ch for ch in settings.contact_phone if ch.isdigit())
    return rx.card(
        rx.vstack(
            rx.heading("Informações de contato", as_="h2", size="5"),
            info_row("mail", "Email", rx.link(settings.contact_email, href=f"mailto:{settings.contact_email}")),
            info_row("phone", "Telefone", rx.link(settings.contact_phone, href=f"tel:+55{phone_digits}")),
            info_row("clock", "Horário de atendimento", rx.text(OPENING_HOURS, id="horario-atendimento")),
            spacing="4",
        ),
        size="3",
        width="100%",
    )


def location_card() -> rx.Component:
    """The office address with a link that opens it in a maps site (no embedded map)."""
    address = get_settings().contact_address
    return rx.card(
        rx.vstack(
            rx.heading("Onde estamos", as_="h2", size="5"),
            info_row(
                "map-pin",
                "Endereço",
                rx.el.address(address, style={"fontStyle": "normal"}),
            ),
            rx.link(
                rx.hstack(
                    rx.text("Abrir no Google Maps"),
                    rx.icon("external-link", size=16, aria_hidden="true"),
                    rx.el.span(" (abre em uma nova aba)", class_name="sr-only"),
                    spacing="1",
                    align="center",
                ),
                href=routes.maps_search(address),
                is_external=True,
                rel="noopener noreferrer",
                weight="medium",
                id="abrir-mapa",
            ),
            spacing="4",
        ),
        size="3",
        width="100%",
    )


def chat_card() -> rx.Component:
    """'Iniciar conversa': the platform chat between companies and freelancers."""
    chats = rx.cond(AuthState.user_role == "client", routes.CLIENT_CHATS, routes.FREELANCER_CHATS)
    return rx.card(
        rx.vstack(
            rx.heading("Converse pelo chat", as_="h2", size="5"),
            rx.text(
                "Empresas e freelancers conversam diretamente pelo chat da plataforma assim que uma "
                "candidatura é aceita.",
                color=MUTED,
            ),
            link_button(
                "Iniciar conversa",
                href=rx.cond(AuthState.signed_in, chats, routes.REGISTER),
                variant="soft",
                width="100%",
                link_id="iniciar-conversa",
            ),
            spacing="3",
        ),
        size="3",
        width="100%",
    )


@public_page(routes.CONTACT, "Contato", on_load=[ContactState.load])
def contact_page() -> rx.Component:
    """Contact form, contact details, opening hours, chat and location."""
    return rx.box(
        page_heading("Fale conosco", "Dúvidas, sugestões ou parcerias? Envie uma mensagem para a nossa equipe."),
        rx.grid(
            rx.card(
                rx.vstack(
                    rx.heading("Envie uma mensagem", as_="h2", size="5"),
                    rx.text("Os campos marcados como opcionais podem ficar em branco.", size="2", color=MUTED),
                    contact_form(),
                    spacing="4",
                    width="100%",
                ),
                size="3",
                width="100%",
                grid_column=rx.breakpoints(initial="auto", md="span 2"),
            ),
            rx.vstack(contact_details(), chat_card(), location_card(), spacing="4", width="100%"),
            columns=rx.breakpoints(initial="1", md="3"),
            spacing="5",
            width="100%",
            align="start",
        ),
        width="100%",
    )
