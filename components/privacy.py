"""The settings card 'Privacidade e dados': download one's data and delete the account (LGPD)."""

import reflex as rx

from components.forms import text_field
from core import routes
from states.privacy import PrivacyState

EXPLANATION = (
    "De acordo com a Lei Geral de Proteção de Dados (LGPD), você pode baixar uma cópia de todos os dados "
    "que guardamos sobre você ou excluir sua conta quando quiser."
)
CONSEQUENCES = (
    "Seus dados pessoais (nome, contatos, foto, perfil, preferências e notificações) são removidos e "
    "você sai de todos os dispositivos.",
    "Conversas, contratações e avaliações continuam visíveis para a outra parte, com seu nome mostrado "
    "como \u2018Usuário removido\u2019. Ninguém poderá mais enviar mensagens para você.",
    "Empresas: as vagas abertas são encerradas e as candidaturas pendentes, recusadas. Freelancers: as "
    "candidaturas pendentes são retiradas.",
    "Não é possível desfazer a exclusão.",
)


def _export_link() -> rx.Component:
    """'Baixar meus dados': a download link to the export route (same origin, so the cookie goes along).

    `rx.el.a` is React Router's Link, which would route the click inside the app; `reload_document`
    leaves the click to the browser, which honours `download` and the route's attachment header.
    """
    return rx.button(
        rx.el.a(
            rx.icon("download", size=16, aria_hidden="true"),
            "Baixar meus dados",
            href=routes.API_ACCOUNT_EXPORT,
            download=True,
            reload_document=True,
            id="export-data-link",
        ),
        as_child=True,
        variant="soft",
        size="2",
    )


def _delete_dialog() -> rx.Component:
    state = PrivacyState
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Excluir sua conta?"),
            rx.alert_dialog.description("Antes de confirmar, veja o que acontece:", size="2", margin_bottom="0.5rem"),
            rx.el.ul(
                *[rx.el.li(rx.text(item, size="2")) for item in CONSEQUENCES],
                style={"paddingLeft": "1.25rem", "display": "grid", "gap": "0.35rem", "marginBottom": "1rem"},
            ),
            rx.form(
                rx.vstack(
                    text_field(
                        "Confirme sua senha",
                        "password",
                        state.delete_error,
                        type="password",
                        auto_complete="current-password",
                        field_id="delete-account-password",
                    ),
                    rx.flex(
                        rx.alert_dialog.cancel(
                            rx.button(
                                "Cancelar", type="button", variant="soft", color_scheme="gray", disabled=state.deleting
                            )
                        ),
                        rx.button(
                            rx.cond(state.deleting, "Excluindo...", "Excluir minha conta"),
                            type="submit",
                            color_scheme="red",
                            disabled=state.deleting,
                            id="confirm-delete-account",
                        ),
                        justify="end",
                        spacing="3",
                        width="100%",
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.delete_account,
                reset_on_submit=True,
                no_validate=True,
                id="delete-account-form",
            ),
            max_width="480px",
        ),
        open=state.delete_open,
        on_open_change=state.set_delete_open,
    )


def privacy_section() -> rx.Component:
    """The 'Privacidade e dados' card: 'Baixar meus dados' and 'Excluir conta' with its dialog.

    Self-contained: it carries its own state (states.privacy.PrivacyState) and dialog, so a settings
    tab only places it. Stable ids: `export-data-link`, `delete-account-button`,
    `delete-account-password`, `confirm-delete-account`.
    """
    return rx.card(
        rx.vstack(
            rx.heading("Privacidade e dados", as_="h2", size="5"),
            rx.text(EXPLANATION, size="2", color=rx.color("gray", 11)),
            rx.flex(
                _export_link(),
                rx.button(
                    rx.icon("trash-2", size=16, aria_hidden="true"),
                    "Excluir conta",
                    type="button",
                    variant="soft",
                    color_scheme="red",
                    size="2",
                    on_click=PrivacyState.open_delete,
                    id="delete-account-button",
                ),
                spacing="3",
                wrap="wrap",
            ),
            _delete_dialog(),
            spacing="3",
            width="100%",
        ),
        width="100%",
        id="privacy-section",
    )
