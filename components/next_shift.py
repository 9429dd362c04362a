"""The 'Próximo turno' card on top of both overviews (services/screens/next_shift.py builds what it shows)."""

import reflex as rx

from components.links import link_button
from core import routes

MUTED = rx.color("gray", 11)


def _fact(icon: str, label: str, *value, class_name: str = "") -> rx.Component:
    """One labelled line: an icon, a label for screen readers and eyes, the value."""
    return rx.hstack(
        rx.icon(icon, size=16, flex_shrink="0", aria_hidden="true", margin_top="2px"),
        rx.text(rx.text.strong(label, ": "), *value, size="2"),
        align="start",
        spacing="2",
        class_name=class_name,
    )


def _primary(shift: rx.Var, state, role: str) -> rx.Component:
    """The one large button: the company's 'Código de presença', or the freelancer's step for now."""
    if role == "client":
        return link_button(
            rx.icon("qr-code", size=18, aria_hidden="true"),
            shift["action_label"].to(str),
            href=routes.attendance_code(shift["job_id"].to(int)),
            size="3",
            width="100%",
            link_id="next-shift-action",
        )
    return rx.cond(
        shift["action"].to(str) != "",
        rx.button(
            shift["action_label"].to(str),
            size="3",
            width="100%",
            id="next-shift-action",
            on_click=state.open_shift_action(shift["hiring_id"].to(int), shift["action"].to(str)),
        ),
        rx.callout(shift["hint"].to(str), icon="clock", size="1", width="100%", class_name="next-shift-hint"),
    )


def next_shift_card(state, role: str) -> rx.Component:
    """'Próximo turno': when, where, pay, what to bring and one large button; nothing when no shift is coming.

    Args:
        state: A dashboard state mixing in states.shifts.ShiftsMixin (its `next_shift` is [] or one).
        role: 'client' or 'freelancer'.
    """
    return rx.foreach(state.next_shift, lambda shift: _card(shift, state, role))


def _card(shift: rx.Var, state, role: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading("Próximo turno", as_="h2", size="3", color=rx.color("accent", 11)),
                rx.cond(shift["soon"].to(str) != "", rx.badge(shift["soon"].to(str), variant="solid", size="2")),
                rx.spacer(),
                rx.badge(shift["state_label"].to(str), color_scheme=shift["tone"].to(str), variant="soft", size="2"),
                width="100%",
                align="center",
                wrap="wrap",
            ),
            rx.text(shift["title"].to(str), size="5", weight="bold", class_name="next-shift-title"),
            _fact("calendar-clock", "Quando", shift["when"].to(str), class_name="next-shift-when"),
            rx.flex(
                _fact("map-pin", "Onde", shift["address"].to(str)),
                rx.cond(
                    shift["map_url"].to(str) != "",
                    rx.link(
                        "Ver no mapa", href=shift["map_url"].to(str), is_external=True, size="2", class_name="tap-link"
                    ),
                ),
                gap="0 0.75rem",
                align="center",
                wrap="wrap",
            ),
            rx.cond(
                shift["pay"].to(str) != "",
                _fact("banknote", "Pagamento", shift["pay"].to(str), class_name="next-shift-pay"),
            ),
            rx.cond(
                shift["bring"].to(str) != "",
                _fact("shirt", "Traje e o que levar", shift["bring"].to(str), class_name="next-shift-bring"),
            ),
            _fact("user", shift["people_label"].to(str), shift["people"].to(str), class_name="next-shift-people"),
            _primary(shift, state, role),
            rx.link(
                "Ver todos os turnos",
                href=routes.dashboard_tab(role, "shifts"),
                size="2",
                class_name="tap-link",
                align_self="center",
            ),
            spacing="2",
            width="100%",
        ),
        width="100%",
        id="next-shift",
        style={"borderLeft": "4px solid var(--accent-9)"},
    )
