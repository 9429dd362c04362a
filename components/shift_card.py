"""A hiring's shift card (both sides): the shift, its state, records, money, actions and timeline.

The dialog its actions open is components/shift_dialog.py; the tab listing the cards is components/shifts_tab.py.
"""

import reflex as rx

from components.links import link_button
from components.rating import STAR_COLOR
from core import routes
from core.catalog import BRING_LABEL
from services.screens.shift_card_lines import GUARANTEED_LINE

MUTED = rx.color("gray", 11)
RATE_LABELS = {"client": "Avaliar profissional", "freelancer": "Avaliar empresa"}


def _line(icon: str, *children) -> rx.Component:
    return rx.hstack(rx.icon(icon, size=14, flex_shrink="0"), rx.text(*children, size="2"), align="center", spacing="2")


def _timeline(card: rx.Var) -> rx.Component:
    return rx.el.details(
        rx.el.summary("Linha do tempo", style={"cursor": "pointer", "fontSize": "0.875rem"}),
        rx.el.ol(
            rx.foreach(
                card["timeline"].to(list[dict]),
                lambda event: rx.el.li(
                    rx.text(
                        rx.text.strong(event["at"].to(str)),
                        " · ",
                        event["who"].to(str),
                        ": ",
                        event["text"].to(str),
                        size="2",
                    ),
                    rx.cond(event["reason"].to(str) != "", rx.text(event["reason"].to(str), size="1", color=MUTED)),
                ),
            ),
            style={"paddingLeft": "1.2rem", "marginTop": "0.4rem"},
        ),
        class_name="shift-timeline",
    )


def shift_card(card: rx.Var, state, role: str, code_link: bool = True) -> rx.Component:
    """One hiring: the shift, its state, the records, hours and money, the actions and the timeline.

    Args:
        card: A services.screens.shift_views.ShiftCard.
        state: The dashboard state (mixes states.shifts.ShiftsMixin in).
        role: 'client' or 'freelancer' (what the card links to).
        code_link: Offer the company's 'Código de presença' (not on the code screen itself).
    """
    other_label = "Profissional: " if role == "client" else "Empresa: "
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.vstack(
                    rx.text(card["title"].to(str), weight="bold", class_name="shift-title"),
                    rx.text(other_label, card["other"].to(str), size="2", color=MUTED),
                    spacing="0",
                    flex="1",
                ),
                rx.badge(
                    card["state_label"].to(str),
                    color_scheme=card["tone"].to(str),
                    variant="soft",
                    class_name="shift-state",
                ),
                width="100%",
                align="start",
            ),
            _line("calendar", card["day"].to(str), " · ", card["time"].to(str)),
            rx.hstack(
                _line("map-pin", card["address"].to(str)),
                rx.cond(
                    card["map_url"].to(str) != "",
                    rx.link(
                        "Ver no mapa", href=card["map_url"].to(str), is_external=True, size="2", class_name="tap-link"
                    ),
                ),
                wrap="wrap",
                spacing="2",
            ),
            rx.cond(
                card["bring"].to(str) != "",
                rx.box(_line("shirt", BRING_LABEL + ": ", card["bring"].to(str)), class_name="shift-bring"),
            ),
            rx.cond(card["arrival"].to(str) != "", _line("log-in", "Chegada: ", card["arrival"].to(str))),
            rx.cond(card["departure"].to(str) != "", _line("log-out", "Saída: ", card["departure"].to(str))),
            rx.cond(
                card["manual"].to(bool),
                rx.badge("Registro manual", color_scheme="amber", variant="outline", width="fit-content"),
            ),
            rx.cond(
                card["location_note"].to(str) != "",
                rx.text(card["location_note"].to(str), size="1", color=MUTED, class_name="shift-location-note"),
            ),
            rx.cond(card["hours"].to(str) != "", _line("clock", "Horas: ", card["hours"].to(str))),
            rx.cond(card["adjustment"].to(str) != "", _line("pencil", "Ajuste proposto: ", card["adjustment"].to(str))),
            rx.cond(
                card["decision"].to(str) != "",
                rx.callout(
                    card["decision"].to(str), icon="gavel", color_scheme="blue", size="1", class_name="shift-decision"
                ),
            ),
            rx.cond(
                card["hours_note"].to(str) != "",
                rx.callout(
                    card["hours_note"].to(str),
                    icon="triangle-alert",
                    color_scheme="amber",
                    size="1",
                    class_name="shift-hours-note",
                ),
            ),
            rx.cond(
                (card["amount"].to(str) == "") & (card["estimate"].to(str) != ""),
                _line("banknote", "Estimado: ", card["estimate"].to(str), " ", card["estimate_fee"].to(str)),
            ),
            rx.cond(card["amount"].to(str) != "", _line("banknote", "Valor: ", card["amount"].to(str))),
            rx.cond(
                card["fee"].to(str) != "", _line("banknote", "Valor do cancelamento tardio: ", card["fee"].to(str))
            ),
            _guaranteed(card),
            rx.flex(
                *(_code_button(card, role) if code_link else []),
                *_pay_button(card, state, role),
                *_team_button(card, state, role),
                *_rebook_button(card, state, role),
                *_rating_button(card, state, role),
                rx.foreach(
                    card["actions"].to(list[dict]),
                    lambda item: rx.button(
                        item["label"].to(str),
                        size="2",
                        variant=_action_variant(card, item, role == "client" and code_link),
                        color_scheme=rx.cond(_backs_out(item), "red", "accent"),
                        on_click=state.open_shift_action(card["id"].to(int), item["action"].to(str)),
                    ),
                ),
                *_links(card, role),
                wrap="wrap",
                gap="0.5rem",
                align="center",
            ),
            _timeline(card),
            spacing="2",
            width="100%",
        ),
        width="100%",
        class_name="shift-card",
    )


def _backs_out(item: rx.Var) -> rx.Var:
    """Cancelling, giving up an unpaid hiring, dismissing or a no-show: the red, quieter buttons."""
    action = item["action"].to(str)
    return (
        action.contains("cancelar")
        | action.contains("desistir")
        | action.contains("dispensar")
        | action.contains("nao_compareceu")
    )


def _code_live(card: rx.Var) -> rx.Var:
    """A shift whose people arrive or work now or soon: the company's 'Código de presença' is its primary action."""
    state = card["state"].to(str)
    return state.contains("agendada") | state.contains("confirmada") | (state == "em_andamento")


def _action_variant(card: rx.Var, item: rx.Var, beside_code: bool) -> rx.Var | str:
    """Backing out is soft red; beside the company's 'Código de presença' every other step is secondary."""
    forward = rx.cond(_code_live(card), "outline", "solid") if beside_code else "solid"
    return rx.cond(_backs_out(item), "soft", forward)


def _code_button(card: rx.Var, role: str) -> list[rx.Component]:
    """The company's 'Código de presença' (to the vaga's code screen), first and solid while the shift is live."""
    if role != "client":
        return []
    return [
        rx.cond(
            _code_live(card),
            link_button(
                rx.icon("qr-code", size=16, aria_hidden="true"),
                "Código de presença",
                href=routes.attendance_code(card["job_id"].to(int)),
                size="2",
                class_name="shift-code-link",
            ),
        )
    ]


def _guaranteed(card: rx.Var) -> rx.Component:
    """'Pagamento garantido pelo Turno' and where its money is (only on a guaranteed hiring)."""
    return rx.cond(
        card["guaranteed"].to(bool),
        rx.vstack(
            _line("shield-check", GUARANTEED_LINE),
            rx.cond(
                card["payment_status"].to(str) != "",
                rx.text(card["payment_status"].to(str), size="2", weight="medium", class_name="shift-payment"),
            ),
            spacing="1",
            width="100%",
        ),
    )


def _team_button(card: rx.Var, state, role: str) -> list[rx.Component]:
    """The company's 'Adicionar à equipe' on a paid shift, or 'Na sua equipe' (a TeamMixin state only)."""
    if role != "client" or not hasattr(state, "add_to_team"):
        return []
    team = card["team"].to(str)
    return [
        rx.match(
            team,
            (
                "add",
                rx.button(
                    rx.icon("user-plus", size=14, aria_hidden="true"),
                    "Adicionar à equipe",
                    size="2",
                    variant="outline",
                    on_click=state.add_to_team(card["id"].to(int)),
                    class_name="shift-team-add",
                ),
            ),
            ("member", rx.badge("Na sua equipe", color_scheme="green", variant="soft", high_contrast=True)),
            rx.fragment(),
        )
    ]


def _rebook_button(card: rx.Var, state, role: str) -> list[rx.Component]:
    """The company's 'Contratar novamente' on a paid shift: copies this card's own shift (CompanyInvitesMixin)."""
    if role != "client" or not hasattr(state, "rebook_shift"):
        return []
    freelancer = card["rebook"].to(int)
    return [
        rx.cond(
            freelancer > 0,
            rx.button(
                rx.icon("calendar-plus", size=14, aria_hidden="true"),
                "Contratar novamente",
                size="2",
                variant="outline",
                on_click=state.rebook_shift(card["id"].to(int)),
                class_name="shift-rebook",
            ),
        )
    ]


def _rating_button(card: rx.Var, state, role: str) -> list[rx.Component]:
    """'Avaliar profissional' / 'Avaliar empresa' once the shift reads 'Concluída'; then 'Você avaliou ★ N'.

    Opens the dashboard's rating dialog (a RatingMixin state only) for the shift's application.
    """
    if not hasattr(state, "open_rating"):
        return []
    stars = card["my_stars"].to(int)
    return [
        rx.cond(
            card["can_rate"].to(bool),
            rx.button(
                rx.icon("star", size=14, aria_hidden="true"),
                RATE_LABELS[role],
                size="2",
                variant="soft",
                color_scheme="amber",
                on_click=state.open_rating(card["application_id"].to(int)),
                class_name="shift-rate",
            ),
            rx.cond(
                stars > 0,
                rx.text(
                    "Você avaliou ",
                    rx.el.span("★ ", aria_hidden="true", style={"color": STAR_COLOR}),
                    stars.to_string(),
                    rx.el.span(" de 5 estrelas", class_name="sr-only"),
                    size="2",
                    weight="medium",
                    class_name="shift-rated",
                ),
            ),
        )
    ]


def _pay_button(card: rx.Var, state, role: str) -> list[rx.Component]:
    """The company's 'Pagar R$ X' / 'Pagar complemento R$ X' (a PayShiftMixin state): to Stripe Checkout."""
    if role != "client":
        return []
    busy = state.paying_hiring == card["id"].to(int)
    return [
        rx.cond(
            card["pay_label"].to(str) != "",
            rx.button(
                rx.icon("credit-card", size=14, aria_hidden="true"),
                rx.cond(busy, "Abrindo o pagamento...", card["pay_label"].to(str)),
                size="2",
                disabled=state.paying_hiring != 0,
                on_click=state.pay_shift(card["id"].to(int)),
                class_name="shift-pay",
            ),
        )
    ]


def _links(card: rx.Var, role: str) -> list[rx.Component]:
    chat = rx.cond(
        card["chat_id"].to(int) > 0,
        link_button(
            rx.icon("message-circle", size=14, aria_hidden="true"),
            "Abrir conversa",
            href=routes.chat(role, card["chat_id"].to(int)),
            size="2",
            variant="soft",
            color_scheme="gray",
        ),
    )
    if role == "client":
        return [chat]
    scheduled = card["state"].to(str).contains("agendada") | card["state"].to(str).contains("confirmada")
    calendar = rx.cond(
        scheduled,
        rx.link(
            rx.icon("calendar-plus", size=14),
            "Adicionar à agenda",
            href=routes.shift_calendar(card["id"].to(int)),
            size="2",
            download=True,
            class_name="tap-link",
        ),
    )
    return [calendar, chat]
