"""The dialog a shift card's action opens (states.shifts.ShiftsMixin's `shift_action`), one body per action.

Check-in/out, 'Enviar horas', 'Aprovar horas', 'Ajustar horas', 'Dispensar', the contestations and
every confirmation (cancel, give up, no-show) with its consequence; the error shows inside.
"""

import reflex as rx

from components.forms import field_error
from services.jobs.shift_pay import DISMISS_REASONS

MUTED = rx.color("gray", 11)


def _hours_field(state, label: str) -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for="shift-hours", style={"fontWeight": "500"}),
        rx.input(id="shift-hours", name="hours", default_value=state.shift_prefill, placeholder="7:30", required=True),
        rx.text("Horas trabalhadas, sem o intervalo (ex.: 7:30).", size="1", color=MUTED),
        spacing="1",
        width="100%",
    )


def _reason_field(label: str = "Motivo") -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for="shift-reason", style={"fontWeight": "500"}),
        rx.text_area(id="shift-reason", name="reason", max_length=500, required=True),
        spacing="1",
        width="100%",
    )


def _submit(label: str, **extra) -> rx.Component:
    return rx.flex(
        rx.button("Voltar", type="button", variant="soft", color_scheme="gray", on_click=extra.pop("on_close")),
        rx.button(label, type="submit", **extra),
        justify="end",
        spacing="3",
        width="100%",
    )


def _attendance_body(state, role: str) -> rx.Component:
    """Check-in/out: the company registers for the freelancer; the freelancer uses code, location or manual."""
    if role == "client":
        return rx.vstack(
            rx.text("Registre a chegada do profissional em nome dele (comprovação do serviço).", size="2"),
            rx.el.input(type="hidden", name="method", value="empresa"),
            _submit("Registrar", on_close=state.close_shift_dialog),
            width="100%",
        )
    return rx.vstack(
        rx.text("Registro de chegada/saída (comprovação do serviço).", size="2", color=MUTED),
        rx.el.label("Código de presença", html_for="shift-code", style={"fontWeight": "500"}),
        rx.input(
            id="shift-code",
            name="code",
            default_value=state.shift_code,
            input_mode="numeric",
            auto_complete="one-time-code",
            max_length=6,
            placeholder="000000",
        ),
        rx.text("Digite o código da tela da empresa ou escaneie o QR com a câmera.", size="1", color=MUTED),
        rx.el.input(type="hidden", name="method", value="codigo"),
        _submit("Registrar com código", on_close=state.close_shift_dialog),
        rx.cond(
            state.shift_has_point,
            rx.button(
                rx.icon("locate", size=14),
                "Usar minha localização (uma única leitura)",
                type="button",
                variant="outline",
                loading=state.shift_busy,
                on_click=state.read_location,
                width="100%",
            ),
        ),
        rx.button(
            "Não consigo registrar",
            type="button",
            variant="ghost",
            on_click=state.submit_shift_action({"method": "manual"}),
            width="100%",
        ),
        rx.text("O registro manual guarda o horário do servidor e não bloqueia seu pagamento.", size="1", color=MUTED),
        width="100%",
    )


def _approval_body(state) -> rx.Component:
    """'Aprovar horas': what is approved (hours, amount, a guaranteed payment's money) and the records."""
    return rx.vstack(
        rx.el.dl(
            rx.foreach(
                state.shift_approval,
                lambda line: rx.flex(
                    rx.el.dt(line["label"], style={"color": "var(--gray-11)"}),
                    rx.el.dd(line["value"], style={"margin": 0, "fontWeight": "500", "textAlign": "right"}),
                    justify="between",
                    gap="3",
                    wrap="wrap",
                    width="100%",
                ),
            ),
            class_name="shift-approval",
            style={"width": "100%", "display": "flex", "flexDirection": "column", "gap": "0.35rem", "margin": 0},
        ),
        rx.cond(
            state.shift_flag != "",
            rx.callout(state.shift_flag, icon="triangle-alert", color_scheme="amber", class_name="shift-records-flag"),
        ),
        rx.text(
            "Para aprovar outras horas, use 'Ajustar horas'.",
            size="1",
            color=MUTED,
        ),
        _submit("Aprovar horas", on_close=state.close_shift_dialog),
        width="100%",
    )


def _dialog_body(state, role: str) -> rx.Component:
    close = state.close_shift_dialog
    return rx.match(
        state.shift_action,
        ("aprovar", _approval_body(state)),
        ("chegada", _attendance_body(state, role)),
        ("saida", _attendance_body(state, role)),
        (
            "enviar_horas",
            rx.vstack(
                rx.cond(
                    state.shift_estimate != "",
                    rx.text("Estimado: ", state.shift_estimate, size="2", id="shift-estimate"),
                ),
                _hours_field(state, "Horas trabalhadas"),
                _submit("Enviar horas", on_close=close),
                width="100%",
            ),
        ),
        (
            "ajustar",
            rx.vstack(
                _hours_field(state, "Horas corretas"),
                _reason_field("Motivo do ajuste (o profissional verá)"),
                _submit("Enviar ajuste", on_close=close),
                width="100%",
            ),
        ),
        (
            "dispensar",
            rx.vstack(
                rx.radio_group(list(DISMISS_REASONS.values()), name="reason_label", direction="column", required=True),
                rx.text(
                    "'Não precisamos mais' paga no mínimo 4 horas (ou o turno, se for menor).", size="1", color=MUTED
                ),
                _submit("Dispensar agora", color_scheme="red", on_close=close),
                width="100%",
            ),
        ),
        (
            "contestar_ajuste",
            rx.vstack(_reason_field("Por que você contesta?"), _submit("Contestar", on_close=close), width="100%"),
        ),
        (
            "contestar_falta",
            rx.vstack(_reason_field("Por que você contesta?"), _submit("Contestar", on_close=close), width="100%"),
        ),
        rx.vstack(
            rx.cond(
                state.shift_text != "",
                rx.callout(state.shift_text, icon="info", color_scheme="amber", class_name="shift-consequence"),
            ),
            rx.cond(
                state.shift_money != "",
                rx.callout(
                    state.shift_money, icon="shield-check", color_scheme="blue", class_name="shift-cancel-money"
                ),
            ),
            _submit("Confirmar", color_scheme="red", on_close=close),
            width="100%",
        ),
    )


def shift_dialog(state, role: str) -> rx.Component:
    """The dialog of the action chosen on a card; its error shows inside."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(state.shift_title),
            rx.cond(
                state.shift_subject != "",
                rx.dialog.description(state.shift_subject, size="2", weight="medium", class_name="shift-subject"),
            ),
            rx.form(
                rx.vstack(
                    _dialog_body(state, role),
                    field_error(state.shift_error, "shift-dialog"),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.submit_shift_action,
                reset_on_submit=False,
            ),
            max_width="480px",
        ),
        open=state.shift_dialog_open,
        on_open_change=lambda _open: state.close_shift_dialog(),
    )
