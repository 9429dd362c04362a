"""/freelancer-dashboard: overview, job search, applications, messages, profile and settings.

- state: `FreelancerDashboardState` (the tab of ?tab= and its data) and its messages.
- job_search: the 'Buscar Vagas' tab.
- my_applications: the 'Minhas Candidaturas' tab.
- here: the overview, the profile tab and the page, which picks the tab (shifts, messages, earnings,
  notifications and settings come from components/).
"""

import reflex as rx

from app.layout import dashboard_page
from app.pages.freelancer_dashboard.job_search import jobs_tab
from app.pages.freelancer_dashboard.my_applications import applications_tab
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from components.blocks import freelancer_companies
from components.chat_list import messages_tab
from components.dashboard import (
    TONE_COLORS,
    count_label,
    loading,
    section_card,
    stat_card,
    status_badge,
    tab_heading,
)
from components.earnings import earnings_tab
from components.invites import open_invites
from components.next_shift import next_shift_card
from components.notification_list import notifications_panel
from components.privacy import privacy_section
from components.profile_forms import freelancer_profile_form
from components.settings_panel import settings_panel
from components.shift_dialog import shift_dialog
from components.shifts_tab import shifts_tab
from core import routes
from models import Role
from states.dashboard import DashboardState


def _tab(name: str) -> str:
    return routes.dashboard_tab(Role.FREELANCER, name)


def _application_line(row: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(row["job_title"], weight="medium"),
            rx.text(row["company"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            flex="1",
            min_width="0",
        ),
        status_badge(row["tone"], row["status_label"], TONE_COLORS),
        width="100%",
        align="center",
        padding_y="0.35rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _checklist_item(item: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.cond(
            item["done"],
            rx.icon("circle-check", size=18, color=rx.color("green", 10), aria_label="Concluído"),
            rx.icon("circle", size=18, color=rx.color("gray", 9), aria_label="Pendente"),
        ),
        rx.text(
            item["label"],
            size="2",
            color=rx.cond(item["done"], rx.color("gray", 11), rx.color("gray", 12)),
            text_decoration=rx.cond(item["done"], "line-through", "none"),
        ),
        spacing="2",
        align="center",
    )


def overview_tab() -> rx.Component:
    """Real counters, the complete-your-profile checklist and the latest applications."""
    state = FreelancerDashboardState
    return rx.vstack(
        tab_heading("Visão Geral", "Acompanhe suas candidaturas e trabalhos."),
        next_shift_card(state, Role.FREELANCER),
        open_invites(state),
        rx.grid(
            stat_card("Candidaturas ativas", state.active_applications, "file-text", "stat-active-applications"),
            stat_card("Trabalhos concluídos", state.completed_jobs, "briefcase", "stat-completed-jobs"),
            stat_card(
                "Avaliação média",
                state.rating,
                "star",
                "stat-rating",
                rx.cond(
                    state.rating_count > 0,
                    count_label(state.rating_count, "avaliação", "avaliações"),
                    "Sem avaliações ainda",
                ),
            ),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="4",
            width="100%",
        ),
        rx.grid(
            section_card(
                "Complete seu perfil",
                rx.text(
                    state.checklist_done.to_string()
                    + " de "
                    + state.checklist.length().to_string()
                    + " itens concluídos",
                    size="2",
                    color=rx.color("gray", 11),
                ),
                rx.progress(value=state.checklist_percent, max=100, aria_label="Perfil completo"),
                rx.vstack(rx.foreach(state.checklist, _checklist_item), spacing="2"),
                action=rx.link("Ver perfil", href=_tab("profile"), size="2"),
            ),
            section_card(
                "Candidaturas recentes",
                rx.cond(
                    state.recent_applications.length() > 0,
                    rx.vstack(rx.foreach(state.recent_applications, _application_line), spacing="1", width="100%"),
                    rx.text("Nenhuma candidatura enviada ainda", size="2", color=rx.color("gray", 11)),
                ),
                action=rx.link("Ver todas", href=_tab("applications"), size="2"),
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="4",
            width="100%",
        ),
        freelancer_companies(state),
        shift_dialog(state, Role.FREELANCER),
        spacing="4",
        width="100%",
    )


def profile_tab() -> rx.Component:
    """The freelancer's profile form: what companies see in applications and conversations."""
    return rx.vstack(
        tab_heading(
            "Meu Perfil",
            "É assim que as empresas conhecem você nas candidaturas e nas conversas.",
            rx.link("Ver meu perfil público", href=routes.freelancer_profile(DashboardState.me["id"]), size="2"),
        ),
        freelancer_profile_form(),
        spacing="3",
        width="100%",
    )


def _notifications_tab() -> rx.Component:
    return notifications_panel(DashboardState)


@dashboard_page(
    routes.FREELANCER_DASHBOARD,
    "Painel do Freelancer",
    Role.FREELANCER,
    on_load=[FreelancerDashboardState.load],
    active_tab=FreelancerDashboardState.tab,
)
def freelancer_dashboard_page() -> rx.Component:
    """The selected tab; a spinner until its data has arrived."""
    state = FreelancerDashboardState
    return rx.cond(
        state.loaded_tab == state.tab,
        rx.match(
            state.tab,
            ("jobs", jobs_tab()),
            ("applications", applications_tab()),
            (
                "shifts",
                shifts_tab(
                    state, Role.FREELANCER, "Meus Turnos", "Seus próximos turnos, registros, horas e pagamentos."
                ),
            ),
            (
                "messages",
                messages_tab(state, Role.FREELANCER, "Converse com as empresas que aceitaram sua candidatura."),
            ),
            ("earnings", earnings_tab(state)),
            ("notifications", _notifications_tab()),
            ("profile", profile_tab()),
            ("settings", settings_panel(privacy_section())),
            overview_tab(),
        ),
        loading(),
    )
