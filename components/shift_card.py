"""A hiring's shift card (both sides) and the dialog its actions open."""

import reflex as rx

from components.dashboard import tab_heading
from components.forms import field_error
from components.invites import invite_dialog
from components.links import link_button
from components.rating import STAR_COLOR, rating_dialog
from components.ui import empty_state
from core import routes
from core.catalog import BRING_LABEL
from services.jobs.shift_pay import DISMISS_REASONS
from services.screens.shift_views import GUARANTEED_LINE

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
