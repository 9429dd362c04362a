"""'Contratar novamente' on screen: the company's dialog and sent list, the freelancer's invites."""

import reflex as rx

from components.bond import bond_ack, bond_notice
from components.dashboard import section_card
from components.forms import field_error

MUTED = rx.color("gray", 11)


def _field(label: str, name: str, state, **props) -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=f"invite-{name}", style={"fontSize": "0.875rem", "fontWeight": 500}),
        rx.input(
            name=name,
            id=f"invite-{name}",
            default_value=state.invite_values[name],
            key=state.invite_key + name,
            width="100%",
            **props,
        ),
        field_error(state.invite_errors[name], f"invite-{name}"),
        spacing="1",
        width="100%",
    )


def invite_dialog(state) -> rx.Component:
    """'Contratar novamente': date, times, rate and a message; the thermometer; 'Enviar convite'."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Contratar novamente"),
            rx.dialog.description(
                "Convite particular para " + state.invite_name + ": só essa pessoa vê a vaga, com os dados do último "
                "turno e a nova data. O convite vale por até 24 horas.",
                size="2",
                color=MUTED,
                margin_bottom="0.5rem",
            ),
            rx.cond(
                state.invite_copied != "",
                rx.text(state.invite_copied, size="2", weight="medium", margin_bottom="1rem", id="invite-copied"),
            ),
            rx.form(
                rx.vstack(
                    _field(
                        "Data", "data", state, type="date", on_change=lambda v: state.change_invite_start("data", v)
                    ),
                    rx.grid(
                        _field(
                            "Início",
                            "inicio",
                            state,
                            type="time",
                            on_change=lambda v: state.change_invite_start("inicio", v),
                        ),
                        _field("Fim", "fim", state, type="time"),
                        columns="2",
                        spacing="3",
                        width="100%",
                    ),
                    _field("Valor por hora (R$)", "valor_hora", state, input_mode="decimal"),
                    rx.vstack(
                        rx.el.label("Mensagem (opcional)", html_for="invite-mensagem", style={"fontSize": "0.875rem"}),
                        rx.text_area(name="mensagem", id="invite-mensagem", max_length=500, width="100%"),
                        field_error(state.invite_errors["mensagem"], "invite-mensagem"),
                        spacing="1",
                        width="100%",
                    ),
                    bond_notice(state.invite_bond),
                    rx.cond(
                        state.invite_bond["needs_ack"].to(bool),
                        bond_ack(state.invite_ack, state.acknowledge_invite_bond),
                    ),
                    rx.flex(
                        rx.dialog.close(rx.button("Cancelar", type="button", variant="soft", color_scheme="gray")),
                        rx.button("Enviar convite", type="submit", id="send-invite"),
                        spacing="3",
                        justify="end",
                        width="100%",
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.send_invite,
                reset_on_submit=False,
                no_validate=True,
                id="invite-form",
            ),
            max_width="480px",
        ),
        open=state.invite_open,
        on_open_change=state.set_invite_open,
    )


def _sent_row(invite: rx.Var, state) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.text(invite.freelancer, " · ", invite.title, weight="medium", size="2"),
            rx.text(invite.shift, size="1", color=MUTED),
            spacing="0",
            min_width="0",
        ),
        rx.spacer(),
        rx.badge(invite.status_label, variant="soft"),
        rx.cond(
            invite.status == "pendente",
            rx.button(
                "Cancelar convite",
                size="1",
                variant="ghost",
                color_scheme="red",
                on_click=state.cancel_invite(invite.id),
            ),
        ),
        spacing="2",
        align="center",
        wrap="wrap",
        width="100%",
        class_name="sent-invite",
    )


def sent_invites(state) -> rx.Component:
    """'Convites enviados' (the last 20), each with its status (nothing while there are none)."""
    return rx.cond(
        state.sent_invites.length() > 0,
        section_card(
            "Convites enviados",
            rx.vstack(
                rx.foreach(state.sent_invites, lambda invite: _sent_row(invite, state)), spacing="2", width="100%"
            ),
        ),
    )


def _invite_card(invite: rx.Var, state) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(invite.company, " convidou você", size="2", color=MUTED),
            rx.text(invite.title, weight="bold", size="3"),
            rx.text(invite.shift, size="2"),
            rx.text(invite.place, size="2", color=MUTED),
            rx.text(invite.pay, " · ", invite.payment, size="2"),
            rx.cond(invite.message != "", rx.text("“", invite.message, "”", size="2", white_space="pre-wrap")),
            rx.text("Expira em ", invite.expires, size="1", color=MUTED),
            rx.flex(
                rx.button("Aceitar convite", size="2", on_click=state.accept_invite(invite.id)),
                rx.button(
                    "Recusar", size="2", variant="soft", color_scheme="gray", on_click=state.decline_invite(invite.id)
                ),
                spacing="2",
                wrap="wrap",
            ),
            spacing="1",
            width="100%",
        ),
        width="100%",
        class_name="invite-card",
    )


def open_invites(state) -> rx.Component:
    """The freelancer's 'Convites' (nothing while there are none)."""
    return rx.cond(
        state.open_invites.length() > 0,
        section_card(
            "Convites",
            rx.vstack(
                rx.foreach(state.open_invites, lambda invite: _invite_card(invite, state)), spacing="2", width="100%"
            ),
        ),
    )
