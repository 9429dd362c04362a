"""'Instalar o app': shown only where the browser offers to install (assets/pwa.js asks it)."""

import reflex as rx

from core.settings import get_settings

IOS_HINT = "No iPhone, abra no Safari, toque em Compartilhar e depois em 'Adicionar à Tela de Início'."


def install_button(**props) -> rx.Component:
    """The button; hidden (by CSS) until the browser's install offer arrives, then it asks the browser."""
    return rx.button(
        rx.icon("smartphone", size=16, aria_hidden="true"),
        "Instalar o app",
        type="button",
        variant="soft",
        class_name="install-app",
        custom_attrs={"data-install-app": ""},
        **props,
    )


def install_section() -> rx.Component:
    """The settings card's text: what installing gives, the button, and how on an iPhone."""
    name = get_settings().product_name
    return rx.vstack(
        rx.text(
            f"Instale o {name} na tela inicial do celular: ele abre direto no seu painel, em tela cheia, "
            "e mostra um aviso quando você estiver sem conexão.",
            size="2",
        ),
        install_button(id="settings-install-app"),
        rx.text(IOS_HINT, size="1", color=rx.color("gray", 11)),
        spacing="2",
        align="start",
    )
