"""The company's 'Pagamentos' tab: the CNPJ form and the list of guaranteed payments with their receipts."""

import reflex as rx

from components.dashboard import section_card, status_badge, tab_heading
from components.forms import text_field
from models import PaymentStatus
from services.jobs import pricing
from services.money import payments

MUTED = rx.color("gray", 11)
CNPJ_HINT = "Necessário antes do primeiro pagamento garantido. Aceita só números ou o novo formato, com letras."
EMPTY = "Nenhum pagamento garantido ainda."
STATUS_COLORS = tuple(
    (payments.LABELS[status], color)
    for status, color in (
        (PaymentStatus.PAID, "green"),
        (PaymentStatus.OPEN, "amber"),
        (PaymentStatus.PROCESSING, "amber"),
        (PaymentStatus.FAILED, "red"),
        (PaymentStatus.EXPIRED, "gray"),
    )
)


def _cnpj_form(state) -> rx.Component:
    return section_card(
        "CNPJ da empresa",
        rx.form(
            rx.vstack(
                text_field(
                    "CNPJ",
                    "cnpj",
                    state.cnpj_error,
                    field_id="company-cnpj",
                    default_value=state.company_cnpj,
                    placeholder="00.000.000/0000-00",
                    hint=CNPJ_HINT,
                    auto_complete="off",
                    max_length=18,
                ),
                rx.box(rx.button("Salvar CNPJ", type="submit", size="3", id="company-cnpj-save")),
                spacing="3",
                width="100%",
                align="stretch",
            ),
            on_submit=state.save_company_cnpj,
            reset_on_submit=False,
            no_validate=True,
            id="company-cnpj-form",
            width="100%",
        ),
    )


def _receipt(row: rx.Var) -> rx.Component:
    """One payment: what and for whom on the left, how much and its status on the right (stacked on phones)."""
    return rx.el.li(
        rx.flex(
            rx.vstack(
                rx.text(row.job_title, weight="medium", word_break="break-word"),
                rx.text(row.date, " · ", row.freelancer, " · ", row.kind, size="1", color=MUTED),
                spacing="0",
                min_width="0",
                flex="1 1 12rem",
            ),
            rx.vstack(
                rx.text(row.amount, weight="bold", white_space="nowrap"),
                rx.cond(
                    row.refunded != "",
                    rx.text("Estornado ", row.refunded, size="1", color=MUTED, white_space="nowrap"),
                ),
                rx.flex(
                    status_badge(row.status, row.status, STATUS_COLORS),
                    rx.cond(
                        row.receipt_url != "",
                        rx.link(
                            "Recibo",
                            rx.icon("external-link", size=12, aria_hidden="true"),
                            href=row.receipt_url,
                            is_external=True,
                            size="2",
                            display="inline-flex",
                            align_items="center",
                            gap="0.25rem",
                        ),
                    ),
                    gap="0.5rem",
                    align="center",
                    wrap="wrap",
                ),
                spacing="1",
                align=rx.breakpoints(initial="start", sm="end"),
            ),
            justify="between",
            wrap="wrap",
            gap="0.5rem",
            padding_y="0.75rem",
        ),
        class_name="payment-receipt",
        style={"borderBottom": f"1px solid {rx.color('gray', 4)}", "listStyle": "none"},
    )


def _receipts(state) -> rx.Component:
    return section_card(
        "Pagamentos garantidos",
        rx.cond(
            ~state.protected_available,
            rx.callout(
                pricing.NOT_CONFIGURED,
                icon="info",
                color_scheme="gray",
                id="protected-unavailable",
                width="100%",
            ),
        ),
        rx.cond(
            state.payment_receipts.length() > 0,
            rx.el.ul(
                rx.foreach(state.payment_receipts, _receipt),
                id="company-receipts",
                style={"padding": 0, "margin": 0, "width": "100%"},
            ),
            rx.text(EMPTY, size="2", color=MUTED, id="payment-receipts-empty"),
        ),
    )


def payments_tab(state) -> rx.Component:
    """'Pagamentos' for the company dashboard state `state` (a CompanyPaymentsMixin)."""
    return rx.vstack(
        tab_heading("Pagamentos", "O CNPJ da empresa e os pagamentos garantidos pelo Turno, com seus recibos."),
        _cnpj_form(state),
        _receipts(state),
        spacing="4",
        width="100%",
        min_width="0",
    )
