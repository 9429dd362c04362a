"""The 'Configurações' tab of both dashboards: Aparência, Notificações and Segurança."""

import reflex as rx
from reflex.style import set_color_mode

from components.dashboard import detail_item, detail_list, detail_row, loading, section_card, tab_heading
from components.forms import labelled, password_input, submit_button
from components.install_app import install_section
from services.accounts.profiles import THEME_LABELS
from states.dashboard import DashboardState
from states.settings import SettingsState

APPLY_THEME_BUTTON_ID = "apply-saved-theme"


def apply_theme_button() -> rx.Component:
    """A hidden button that applies the theme a script left in `window.__turnoTheme`.

    Reflex's color mode lives in a React context that only components can reach, so the saved
    theme (loaded on the server) is applied by clicking this button from a script
    (DashboardState.load_chrome), which also makes it stick in this browser's local storage.
    """
    return rx.el.button(
        id=APPLY_THEME_BUTTON_ID,
        type="button",
        hidden=True,
        aria_hidden="true",
        tab_index=-1,
        on_click=set_color_mode(rx.Var("window.__turnoTheme").to(str)),
    )


def _theme_option(value: str, label: str) -> rx.Component:
    return rx.el.label(
        rx.hstack(
            rx.radio_group.item(value=value, id=f"theme-{value}"),
            rx.text(label),
            spacing="2",
            align="center",
        ),
        cursor="pointer",
    )


def _appearance() -> rx.Component:
    return section_card(
        "Tema",
        rx.text("Escolha como o site aparece para você. A escolha vale em todos os seus acessos.", size="2"),
        rx.radio_group.root(
            rx.vstack(*[_theme_option(value, label) for value, label in THEME_LABELS.items()], spacing="3"),
            default_value=SettingsState.theme,
            name="theme",
            aria_label="Tema",
            on_change=lambda value: [SettingsState.save_theme(value), set_color_mode(value)],
        ),
        detail_list(detail_row("Idioma", SettingsState.language)),
        rx.text("No momento o site está disponível apenas em português.", size="1", color=rx.color("gray", 11)),
    )


def _switch(row: rx.Var) -> rx.Component:
    field_id = "switch-" + row["name"].to(str)
    return rx.hstack(
        rx.vstack(
            rx.el.label(row["label"], html_for=field_id, style={"fontWeight": "500"}),
            rx.text(row["description"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            align="start",
        ),
        rx.spacer(),
        rx.switch(id=field_id, name=row["name"].to(str), default_checked=row["enabled"].to(bool)),
        width="100%",
        align="center",
        spacing="3",
    )


def _notifications() -> rx.Component:
    return section_card(
        "Notificações",
        rx.form(
            rx.vstack(
                rx.foreach(SettingsState.switches, _switch),
                rx.box(
                    submit_button(
                        "Salvar preferências",
                        "Salvando...",
                        SettingsState.saving_notifications,
                        id="save-notifications-button",
                    ),
                    width="100%",
                    max_width="320px",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=SettingsState.save_notifications,
            reset_on_submit=False,
            id="notification-settings-form",
            width="100%",
        ),
        _push_devices(),
    )


PUSH_INTRO = (
    "Receba mensagens, respostas às candidaturas, convites e lembretes de turno mesmo com o site fechado. "
    "As notificações seguem as preferências acima e param quando você sai da conta neste aparelho."
)


def _device_row(device: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.icon("smartphone", size=18, color=rx.color("gray", 11)),
        rx.vstack(
            rx.hstack(
                rx.text(device["name"], weight="medium"),
                rx.cond(device["this_device"], rx.badge("Este aparelho", color_scheme="green", variant="soft")),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            rx.text("Ativado em ", device["since"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            align="start",
        ),
        rx.spacer(),
        rx.button(
            "Remover",
            size="1",
            variant="soft",
            color_scheme="red",
            on_click=SettingsState.remove_device(device["id"].to(int)),
            aria_label="Remover " + device["name"].to(str),
        ),
        width="100%",
        align="center",
        spacing="3",
        class_name="push-device",
    )


def _push_devices() -> rx.Component:
    """'Ativar notificações neste aparelho' and the devices that receive them (only when push is on)."""
    return rx.cond(
        SettingsState.push_key != "",
        rx.vstack(
            rx.separator(size="4"),
            rx.text("Notificações no aparelho", weight="bold"),
            rx.text(PUSH_INTRO, size="2", color=rx.color("gray", 11)),
            rx.cond(
                SettingsState.push_here,
                rx.hstack(
                    rx.icon("circle-check", size=16, color=rx.color("green", 11)),
                    rx.text("Este aparelho já recebe notificações.", size="2", color=rx.color("green", 11)),
                    spacing="2",
                    align="center",
                    id="push-here",
                ),
                rx.button(
                    rx.cond(SettingsState.enabling_push, rx.spinner(size="2"), rx.icon("bell-ring", size=16)),
                    "Ativar notificações neste aparelho",
                    on_click=SettingsState.enable_push,
                    disabled=SettingsState.enabling_push,
                    id="push-enable",
                    variant="outline",
                ),
            ),
            rx.cond(
                SettingsState.push_devices.length() > 0,
                rx.vstack(
                    rx.text("Aparelhos com notificações", size="2", weight="medium"),
                    rx.foreach(SettingsState.push_devices, _device_row),
                    spacing="2",
                    width="100%",
                    id="push-devices",
                ),
                rx.text("Nenhum aparelho recebe notificações.", size="2", color=rx.color("gray", 11), id="push-none"),
            ),
            spacing="3",
            width="100%",
            align="start",
        ),
    )


WHATSAPP_INTRO = (
    "Receba a confirmação e os lembretes dos seus turnos pelo WhatsApp, com o link para o turno. "
    "Confirmamos o número com um código; 'Parar' desliga quando você quiser."
)


def _whatsapp_number_form() -> rx.Component:
    return rx.form(
        rx.hstack(
            rx.box(
                labelled(
                    "Celular com DDD",
                    "whatsapp-phone",
                    rx.input(
                        id="whatsapp-phone", name="phone", type="tel", placeholder="(11) 98765-4321", max_length=25
                    ),
                    SettingsState.whatsapp_errors["phone"],
                ),
                flex="1",
                min_width="200px",
            ),
            rx.button("Enviar código", type="submit", variant="outline", id="whatsapp-send-code"),
            align="end",
            spacing="3",
            wrap="wrap",
            width="100%",
        ),
        on_submit=SettingsState.start_whatsapp,
        reset_on_submit=False,
        width="100%",
    )


def _whatsapp_code_form() -> rx.Component:
    return rx.form(
        rx.hstack(
            rx.box(
                labelled(
                    "Código recebido",
                    "whatsapp-code",
                    rx.input(
                        id="whatsapp-code",
                        name="code",
                        inputmode="numeric",
                        max_length=6,
                        auto_complete="one-time-code",
                    ),
                    SettingsState.whatsapp_errors["code"],
                ),
                flex="1",
                min_width="160px",
            ),
            rx.button("Confirmar", type="submit", id="whatsapp-confirm"),
            align="end",
            spacing="3",
            wrap="wrap",
            width="100%",
        ),
        on_submit=SettingsState.confirm_whatsapp,
        reset_on_submit=True,
        key=SettingsState.whatsapp_form_key.to_string(),
        width="100%",
    )


def _whatsapp() -> rx.Component:
    """Opt-in WhatsApp (only where the server has it configured): number, code, then 'Parar'."""
    state = SettingsState.whatsapp["state"]
    return section_card(
        "WhatsApp",
        rx.text(WHATSAPP_INTRO, size="2", color=rx.color("gray", 11)),
        rx.cond(
            SettingsState.whatsapp["error"] != "",
            rx.callout(SettingsState.whatsapp["error"], icon="triangle-alert", color_scheme="red", id="whatsapp-error"),
        ),
        rx.cond(
            state == "active",
            rx.hstack(
                rx.text(
                    "Ativo para ",
                    rx.el.strong(SettingsState.whatsapp["phone"]),
                    " desde ",
                    SettingsState.whatsapp["since"],
                    size="2",
                    id="whatsapp-active",
                ),
                rx.spacer(),
                rx.button("Parar", color_scheme="red", variant="soft", on_click=SettingsState.stop_whatsapp),
                width="100%",
                align="center",
                wrap="wrap",
            ),
            rx.vstack(
                rx.cond(
                    state == "stopped",
                    rx.text("Mensagens pelo WhatsApp paradas. Confirme o número de novo para voltar.", size="2"),
                ),
                _whatsapp_number_form(),
                rx.cond(
                    state == "pending",
                    rx.vstack(
                        rx.text(
                            "Enviamos um código para ", rx.el.strong(SettingsState.whatsapp["phone"]), ".", size="2"
                        ),
                        _whatsapp_code_form(),
                        spacing="2",
                        width="100%",
                    ),
                ),
                spacing="3",
                width="100%",
            ),
        ),
    )


def _password_input(label: str, name: str, auto_complete: str) -> rx.Component:
    field_id = f"password-{name}"
    error = SettingsState.password_errors[name]
    return labelled(label, field_id, password_input(field_id, name, error, auto_complete=auto_complete), error)


def _password_form() -> rx.Component:
    return section_card(
        "Alterar senha",
        rx.text(
            "Ao alterar a senha, as outras sessões abertas da sua conta são encerradas.",
            size="2",
            color=rx.color("gray", 11),
        ),
        rx.form(
            rx.vstack(
                _password_input("Senha atual", "current", "current-password"),
                _password_input("Nova senha", "new", "new-password"),
                _password_input("Confirme a nova senha", "confirm", "new-password"),
                rx.box(
                    submit_button(
                        "Alterar senha", "Alterando...", SettingsState.changing_password, id="change-password-button"
                    ),
                    width="100%",
                    max_width="320px",
                ),
                spacing="3",
                width="100%",
            ),
            key=SettingsState.password_form_key,
            on_submit=SettingsState.change_password,
            reset_on_submit=False,
            no_validate=True,
            id="change-password-form",
            width="100%",
        ),
    )


def _account() -> rx.Component:
    return section_card(
        "Sua conta",
        detail_list(
            detail_row("E-mail da conta", DashboardState.me["email"]),
            detail_row("Conta criada em", SettingsState.account_created),
            detail_row("E-mail confirmado em", SettingsState.email_confirmed, "E-mail não confirmado"),
            detail_item("Sessões ativas", rx.text(SettingsState.active_sessions, id="active-sessions")),
        ),
    )


def settings_panel(*security_extras: rx.Component) -> rx.Component:
    """Tabs Aparência, Notificações and Segurança with the saved values (loaded when the tab mounts).

    Args:
        *security_extras: Sections added under Segurança (e.g. the LGPD data section).

    Returns:
        The tab's content.
    """
    return rx.vstack(
        tab_heading("Configurações", "Preferências e segurança da sua conta."),
        rx.cond(
            SettingsState.loaded,
            rx.tabs.root(
                rx.tabs.list(
                    rx.tabs.trigger("Aparência", value="appearance"),
                    rx.tabs.trigger("Notificações", value="notifications"),
                    rx.tabs.trigger("Segurança", value="security"),
                ),
                rx.tabs.content(_appearance(), value="appearance", padding_top="1rem"),
                rx.tabs.content(
                    rx.vstack(
                        _notifications(),
                        rx.cond(SettingsState.whatsapp_on, _whatsapp()),
                        section_card("Aplicativo no celular", install_section()),
                        spacing="4",
                    ),
                    value="notifications",
                    padding_top="1rem",
                ),
                rx.tabs.content(
                    rx.vstack(_password_form(), _account(), *security_extras, spacing="4", width="100%"),
                    value="security",
                    padding_top="1rem",
                ),
                default_value="appearance",
                width="100%",
            ),
            loading(),
        ),
        on_mount=SettingsState.load,
        spacing="3",
        width="100%",
    )
