"""'Minhas Candidaturas' in the freelancer dashboard: each application, its status and actions ('Retirar candidatura')."""

import reflex as rx

from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from components.dashboard import (
    TONE_COLORS,
    count_label,
    status_badge,
    tab_heading,
)
from components.links import link_button
from components.pager import pager
from components.rating import rating_control, rating_dialog
from components.ui import empty_state
from core import routes
from models import Role


def _withdraw_button(row: rx.Var) -> rx.Component:
    """'Retirar candidatura' behind a confirmation; only pending applications can be withdrawn."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            rx.button(rx.icon("undo-2", size=14), "Retirar candidatura", size="1", variant="soft", color_scheme="red")
        ),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Retirar candidatura?"),
            rx.alert_dialog.description(
                "Sua candidatura para a vaga “",
                row["job_title"],
                "” será removida e a empresa não poderá mais vê-la. Você poderá se candidatar de novo enquanto a vaga "
                "estiver aberta.",
            ),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancelar", variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(
                    rx.button(
                        "Retirar", color_scheme="red", on_click=FreelancerDashboardState.withdraw_application(row["id"])
                    )
                ),
                gap="0.75rem",
                justify="end",
                margin_top="1rem",
            ),
            max_width="440px",
        ),
    )


def application_actions(row: rx.Var) -> rx.Component:
    """An application card's actions: rate (closed job), see the job, withdraw (pending), chat (accepted)."""
    return rx.flex(
        rating_control(row, FreelancerDashboardState.open_rating),
        link_button("Ver vaga", href=routes.job_detail(row["job_id"]), size="1", variant="outline"),
        rx.cond(row["status"] == "pending", _withdraw_button(row)),
        rx.cond(
            row["chat_id"].to(int) > 0,
            link_button(
                rx.icon("message-circle", size=14),
                "Abrir chat",
                href=routes.chat(Role.FREELANCER, row["chat_id"]),
                size="1",
            ),
        ),
        gap="0.5rem",
        align="center",
        wrap="wrap",
        class_name="application-actions",
    )


def _application_card(row: rx.Var) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.hstack(
                    rx.text(row["job_title"], weight="bold"),
                    status_badge(row["tone"], row["status_label"], TONE_COLORS),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.text(row["company"], size="2", color=rx.color("gray", 11)),
                rx.text("Enviada em ", row["date"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
                min_width="0",
            ),
            application_actions(row),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="0.75rem",
            align=rx.breakpoints(initial="start", sm="center"),
            width="100%",
        ),
        width="100%",
        class_name="application-card",
    )


def _pager() -> rx.Component:
    """The pager of the open tab's list (hidden when it has one page)."""
    state = FreelancerDashboardState
    return pager(state.pager_items, state.prev_href, state.next_href)


def applications_tab() -> rx.Component:
    """The freelancer's applications with their status."""
    rows = FreelancerDashboardState.applications
    return rx.vstack(
        tab_heading(
            "Minhas Candidaturas",
            count_label(FreelancerDashboardState.applications_total, "candidatura", "candidaturas"),
        ),
        rx.cond(
            rows.length() > 0,
            rx.vstack(rx.foreach(rows, _application_card), _pager(), spacing="2", width="100%"),
            empty_state(
                "file-text",
                "Nenhuma candidatura enviada ainda",
                "Encontre uma vaga e envie sua candidatura.",
                rx.link(rx.button("Buscar Vagas"), href=routes.dashboard_tab(Role.FREELANCER, "jobs")),
            ),
        ),
        rating_dialog(FreelancerDashboardState),
        spacing="3",
        width="100%",
    )
