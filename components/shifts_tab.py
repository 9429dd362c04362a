"""The shift tab of both dashboards: upcoming shifts, the history, the freelancer's faltas and the dialogs."""

import reflex as rx

from components.dashboard import tab_heading
from components.invites import invite_dialog
from components.rating import rating_dialog
from components.shift_card import shift_card
from components.shift_dialog import shift_dialog
from components.ui import empty_state
from core import routes


def shifts_tab(state, role: str, title: str, subtitle: str) -> rx.Component:
    """The shift tab of a dashboard: what is still moving, then the history, and the action dialog."""
    return rx.vstack(
        tab_heading(title, subtitle),
        rx.cond(
            state.shifts_upcoming.length() > 0,
            rx.vstack(rx.foreach(state.shifts_upcoming, lambda card: shift_card(card, state, role)), width="100%"),
            empty_state(
                "calendar-clock",
                "Nenhum turno por vir",
                "Quando uma candidatura for aceita, o turno aparece aqui com data, horário e endereço.",
            ),
        ),
        rx.cond(
            state.shifts_history.length() > 0,
            rx.vstack(
                rx.heading("Histórico", size="4"),
                rx.foreach(state.shifts_history, lambda card: shift_card(card, state, role)),
                width="100%",
            ),
        ),
        *([_faltas_section(state)] if role == "freelancer" else []),
        shift_dialog(state, role),
        *([invite_dialog(state)] if role == "client" and hasattr(state, "open_invite") else []),
        *([rating_dialog(state)] if hasattr(state, "open_rating") else []),
        spacing="3",
        width="100%",
    )


def _faltas_section(state) -> rx.Component:
    """The freelancer's own faltas (private), the suspension if any, and 'Pedir revisão humana'."""
    return rx.vstack(
        rx.cond(
            state.suspended_until != "",
            rx.callout(
                "Você está com 3 faltas ativas e não pode se candidatar a novas vagas até "
                + state.suspended_until
                + ".",
                icon="triangle-alert",
                color_scheme="red",
                id="suspension-banner",
            ),
        ),
        rx.cond(
            state.my_faltas.length() > 0,
            rx.vstack(
                rx.hstack(
                    rx.heading("Minhas faltas (só você vê)", size="4"),
                    rx.link("Como calculamos", href=routes.HOW_WE_CALCULATE, size="2"),
                    align="center",
                    wrap="wrap",
                ),
                rx.foreach(
                    state.my_faltas,
                    lambda falta: rx.hstack(
                        rx.text(
                            falta["date"].to(str),
                            " · ",
                            falta["reason"].to(str),
                            " · ",
                            falta["counted"].to(str),
                            rx.cond(falta["active"].to(bool), "", " · não conta mais"),
                            size="2",
                        ),
                        rx.cond(
                            falta["can_review"].to(bool),
                            rx.button(
                                "Pedir revisão humana",
                                size="1",
                                variant="soft",
                                on_click=state.open_review(falta["id"].to(int)),
                            ),
                            rx.cond(falta["reviewed"].to(bool), rx.badge("Revisão pedida", variant="soft")),
                        ),
                        align="center",
                        wrap="wrap",
                        class_name="falta-row",
                    ),
                ),
                width="100%",
            ),
        ),
        width="100%",
    )
