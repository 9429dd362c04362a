"""The freelancer's 'Meus Ganhos' tab: totals, the MEI limit, the payout setup and each shift's money."""

import reflex as rx

from components.dashboard import detail_list, detail_row, section_card, stat_card, tab_heading
from components.forms import labelled, submit_button, text_field
from components.ui import empty_state
from core import routes
from models import FiscalRegime, Role
from services.money import payouts

CPF_HINT = "Somente números ou no formato 000.000.000-00. Mostramos apenas parte dele depois de salvo."
ABOUT_GUARANTEED = (
    "Nas vagas com Pagamento garantido pelo Turno, a empresa paga ao aceitar sua candidatura e o valor fica "
    "guardado na plataforma; você recebe depois que as horas são aprovadas. Para isso, precisamos do seu CPF "
    "e de uma conta de recebimento no Stripe, nosso parceiro de pagamentos."
)
FISCAL_NOTE = (
    "Guardamos como você emite nota (MEI ou autônomo) e o município do seu perfil para a nota fiscal de "
    "serviço (NFS-e)."
)


def _totals(state) -> rx.Component:
    return rx.grid(
        stat_card("Recebido em " + state.earnings_year.to_string(), state.earnings_received, "wallet", "earned-total"),
        stat_card("A receber", state.earnings_to_receive, "hand-coins", "earned-pending", "Horas aprovadas"),
        stat_card("Aguardando aprovação", state.earnings_waiting, "hourglass", "earned-waiting", "Estimativa"),
        columns=rx.breakpoints(initial="1", sm="3"),
        spacing="4",
        width="100%",
    )


def _mei(state) -> rx.Component:
    return rx.cond(
        state.earnings_is_mei,
        rx.callout(
            rx.vstack(
                rx.text(state.earnings_mei_text, id="mei-limit"),
                rx.progress(value=state.earnings_mei_percent, max=100, aria_label="Limite anual do MEI usado"),
                spacing="2",
                width="100%",
            ),
            icon="receipt",
            color_scheme=rx.cond(state.earnings_mei_warning, "amber", "blue"),
            width="100%",
        ),
    )


def _fiscal_form(state) -> rx.Component:
    errors = state.fiscal_errors
    return rx.form(
        rx.vstack(
            rx.cond(
                state.payout_cpf_locked,
                detail_list(detail_row("CPF", state.payout_cpf)),
                text_field(
                    "CPF",
                    "cpf",
                    errors["cpf"],
                    field_id="fiscal-cpf",
                    placeholder=rx.cond(state.payout_cpf != "", state.payout_cpf, "000.000.000-00"),
                    hint=rx.cond(state.payout_cpf != "", "Deixe em branco para manter o CPF salvo.", CPF_HINT),
                    input_mode="numeric",
                    auto_complete="off",
                    max_length=14,
                ),
            ),
            labelled(
                "Como você emite nota",
                "fiscal-regime",
                rx.radio_group.root(
                    *[rx.radio_group.item(label, value=value) for value, label in payouts.REGIME_LABELS.items()],
                    id="fiscal-regime",
                    name="regime",
                    value=state.payout_regime,
                    on_change=state.choose_regime,
                    direction="column",
                ),
                errors["regime"],
            ),
            rx.cond(
                state.payout_regime == FiscalRegime.MEI,
                text_field(
                    "CNPJ do MEI",
                    "mei_cnpj",
                    errors["mei_cnpj"],
                    field_id="fiscal-mei-cnpj",
                    placeholder="00.000.000/0000-00",
                    default_value=state.payout_mei_cnpj,
                    auto_complete="off",
                    max_length=18,
                ),
            ),
            detail_list(detail_row("Município", state.payout_municipio, "Escolha sua cidade em Meu Perfil")),
            rx.text(FISCAL_NOTE, size="2", color=rx.color("gray", 11)),
            rx.box(submit_button("Salvar dados fiscais", "Salvando...", state.payout_busy, width="auto")),
            spacing="3",
            width="100%",
            align="stretch",
        ),
        on_submit=state.save_fiscal_data,
        reset_on_submit=False,
        no_validate=True,
        id="fiscal-form",
        width="100%",
    )


def _payout_setup(state) -> rx.Component:
    return section_card(
        "Recebimento pelo Turno",
        rx.text(ABOUT_GUARANTEED, size="2"),
        rx.cond(
            state.payout_configured,
            rx.vstack(
                rx.hstack(
                    rx.text("Situação:", weight="medium", size="2"),
                    rx.badge(
                        state.payout_status_label,
                        id="payout-status",
                        color_scheme=rx.cond(state.payout_status == payouts.STATUS_READY, "green", "amber"),
                        variant="soft",
                        size="2",
                    ),
                    align="center",
                    wrap="wrap",
                ),
                rx.text(payouts.VERIFY_NOTE, size="2", color=rx.color("gray", 11), id="payout-verify-note"),
                rx.cond(
                    state.payout_notice != "",
                    rx.callout(state.payout_notice, icon="triangle-alert", color_scheme="amber", id="payout-notice"),
                ),
                rx.cond(
                    state.payout_requirements > 0,
                    rx.text(
                        "O Stripe ainda pede ",
                        state.payout_requirements.to_string(),
                        " informação(ões) para liberar seus recebimentos.",
                        size="2",
                        color=rx.color("amber", 11),
                    ),
                ),
                _fiscal_form(state),
                rx.cond(
                    state.payout_action != "",
                    rx.button(
                        rx.cond(state.payout_busy, "Abrindo o Stripe...", state.payout_action),
                        rx.icon("external-link", size=16, aria_hidden="true"),
                        on_click=state.start_payout_onboarding,
                        disabled=state.payout_busy,
                        size="3",
                        id="payout-onboarding",
                    ),
                    rx.text(payouts.CPF_FIRST, size="2", color=rx.color("gray", 11)),
                ),
                spacing="3",
                width="100%",
                align="start",
            ),
            rx.callout(payouts.NOT_CONFIGURED, icon="info", color_scheme="gray", id="payout-unavailable"),
        ),
    )


def _row(row: rx.Var) -> rx.Component:
    """One shift: what and for whom on the left, how much and where the money is on the right."""
    return rx.el.li(
        rx.flex(
            rx.vstack(
                rx.text(row["title"], weight="medium"),
                rx.text(
                    row["company"] + " · " + row["day"] + " · " + row["mode"], size="1", color=rx.color("gray", 11)
                ),
                spacing="0",
                min_width="12rem",
                flex="1",
            ),
            rx.vstack(
                rx.text(row["amount"], weight="bold", white_space="nowrap"),
                rx.badge(row["status"], color_scheme=row["tone"], variant="soft", white_space="normal"),
                spacing="1",
                align=rx.breakpoints(initial="start", sm="end"),
            ),
            justify="between",
            wrap="wrap",
            gap="2",
            padding_y="0.75rem",
        ),
        style={"borderBottom": f"1px solid {rx.color('gray', 4)}", "listStyle": "none"},
    )


def _rows(state) -> rx.Component:
    return section_card(
        "Seus turnos",
        rx.cond(
            state.earning_rows.length() > 0,
            rx.el.ul(
                rx.foreach(state.earning_rows, _row),
                id="earnings-list",
                style={"padding": 0, "margin": 0, "width": "100%"},
            ),
            empty_state(
                "wallet",
                "Nenhum ganho ainda",
                "Quando você trabalhar um turno, o valor aparece aqui.",
                rx.link("Buscar vagas", href=routes.dashboard_tab(Role.FREELANCER, "jobs")),
            ),
        ),
    )


def earnings_tab(state) -> rx.Component:
    """'Meus Ganhos' for the dashboard state `state` (an EarningsMixin)."""
    return rx.vstack(
        tab_heading("Meus Ganhos", "Quanto cada turno paga, o que já caiu na sua conta e o que está a caminho."),
        _totals(state),
        _mei(state),
        _rows(state),
        _payout_setup(state),
        spacing="4",
        width="100%",
    )
