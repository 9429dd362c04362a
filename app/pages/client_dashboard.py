"""/client-dashboard: the company's overview, jobs, hirings, shifts, payments, freelancers, messages, plans and profile."""

from typing import ClassVar

import reflex as rx

from app.layout import dashboard_page
from app.pages.company_jobs.job_list import jobs_tab
from app.pages.company_jobs.state import CompanyJobsState
from app.pages.company_profile_setup import account_data
from components.chat_list import messages_tab
from components.company_payments import payments_tab
from components.dashboard import (
    TONE_COLORS,
    count_label,
    loading,
    section_card,
    stat_card,
    status_badge,
    tab_heading,
)
from components.next_shift import next_shift_card
from components.notification_list import notifications_panel
from components.pager import pager
from components.plans import plan_conditions, plans_grid, subscription_panel
from components.privacy import privacy_section
from components.profile_forms import company_profile_form
from components.rating import rating_control, rating_dialog
from components.settings_panel import settings_panel
from components.shifts_tab import shifts_tab
from components.team import team_tab
from components.ui import empty_state
from core import routes
from core.db import session_scope
from models import Role
from services.screens import company_dashboard
from services.screens.company_dashboard import FreelancerRow, HiringRow, JobRow
from services.trust import punctuality
from states import live
from states.auth import AuthState
from states.billing import BillingState
from states.blocks import CompanyBlocksMixin
from states.dashboard import DashboardState
from states.dashboard_tabs import DashboardTabs
from states.invites import CompanyInvitesMixin
from states.protected_payments import CompanyPaymentsMixin, PayShiftMixin
from states.ratings import RatingMixin
from states.shifts import ShiftsMixin
from states.teams import TeamMixin

LOAD_ERRORS = {
    "jobs": ("Erro ao carregar vagas", "Não foi possível carregar suas vagas. Por favor, tente novamente."),
}


def _tab(name: str) -> str:
    return routes.dashboard_tab(Role.CLIENT, name)


@live.refresher
class ClientDashboardState(
    DashboardTabs,
    RatingMixin,
    ShiftsMixin,
    PayShiftMixin,
    CompanyPaymentsMixin,
    TeamMixin,
    CompanyBlocksMixin,
    CompanyInvitesMixin,
    AuthState,
):
    """The selected tab (from ?tab=) and the data it shows, loaded for the signed-in company."""

    ROLE: ClassVar[Role] = Role.CLIENT
    HOME: ClassVar[str] = routes.CLIENT_DASHBOARD
    LOAD_ERRORS: ClassVar[dict[str, tuple[str, str]]] = LOAD_ERRORS
    TAB_EVENTS: ClassVar[dict[str, rx.EventHandler]] = {
        "jobs": CompanyJobsState.load,
        "plans": BillingState.load_subscription,
    }

    total_jobs: int = 0
    total_applications: int = 0
    active_hirings: int = 0
    recent_jobs: list[JobRow] = []
    active_hiring_rows: list[HiringRow] = []
    hirings: list[HiringRow] = []
    freelancers: list[FreelancerRow] = []
    punctuality_panel: dict = {"badge": False, "summary": "", "missing": []}  # 'Selo Empresa Pontual'

    def _load_tab(self, db, user_id: int) -> None:
        if self.tab == "overview":
            overview = company_dashboard.company_overview(db, user_id)
            self.total_jobs = overview["total_jobs"]
            self.total_applications = overview["total_applications"]
            self.active_hirings = overview["active_hirings"]
            self.recent_jobs = overview["recent_jobs"]
            self.active_hiring_rows = overview["hirings"]
            self._load_next_shift(db, user_id)
        elif self.tab == "hirings":
            self.hirings = self._paged(company_dashboard.company_hirings(db, user_id, self._page())).items
        elif self.tab == "shifts":
            self._load_shifts(db, user_id)
        elif self.tab == "payments":
            self._load_payments(db, user_id)
        elif self.tab == "team":
            self._load_team(db, user_id)
            self._load_blocked(db, user_id)
            self._load_sent(db, user_id)
            self.punctuality_panel = punctuality.panel(db, user_id)
        elif self.tab == "freelancers":
            self.freelancers = self._paged(company_dashboard.company_freelancers(db, user_id, self._page())).items
        else:
            super()._load_tab(db, user_id)

    def _after_block(self, company_id: int) -> list:
        with session_scope() as db:
            self._load_team(db, company_id)  # a blocked member leaves the team
        return []

    def _after_load(self):
        self._checkout_over()  # a page load only (not a live refresh, which may come while Checkout opens)
        if self.tab == "shifts":
            return self._back_from_checkout()
        return super()._after_load()


def _link_button(label: str, href: str, icon: str, element_id: str, variant: str = "solid") -> rx.Component:
    return rx.link(rx.button(rx.icon(icon, size=16), label, variant=variant, id=element_id), href=href)


def _welcome() -> rx.Component:
    return rx.vstack(
        tab_heading("Visão Geral"),
        rx.card(
            empty_state(
                "party-popper",
                "Bem-vindo(a), " + DashboardState.me["nome"] + "!",
                "Publique sua primeira vaga e comece a receber candidaturas de freelancers qualificados.",
                _link_button("Publicar Primeira Vaga", routes.new_job(), "plus", "publish-first-job"),
            ),
            width="100%",
        ),
        spacing="0",
        width="100%",
    )


def _recent_job(job: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(job["title"], weight="medium"),
            rx.text("Publicada em ", job["created"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            flex="1",
            min_width="0",
        ),
        status_badge(job["status"], job["status_label"]),
        width="100%",
        align="center",
        padding_y="0.35rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _hiring_line(hiring: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(hiring["freelancer_name"], weight="medium"),
            rx.text(hiring["job_title"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            flex="1",
            min_width="0",
        ),
        _hiring_badge(hiring),
        width="100%",
        align="center",
        padding_y="0.35rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _hiring_badge(hiring: rx.Var) -> rx.Component:
    """The state the hiring is in (services/jobs/application_status.py): 'Confirmado', 'Cancelada pelo profissional' ..."""
    return status_badge(hiring["tone"], hiring["status_label"], TONE_COLORS)


def overview_tab() -> rx.Component:
    """Welcome empty state, or the counters, recent jobs and active hirings."""
    state = ClientDashboardState
    return rx.cond(
        state.total_jobs == 0,
        _welcome(),
        rx.vstack(
            tab_heading("Visão Geral", "Acompanhe suas vagas, candidaturas e contratações."),
            next_shift_card(state, Role.CLIENT),
            rx.grid(
                stat_card("Vagas publicadas", state.total_jobs, "briefcase", "stat-total-jobs"),
                stat_card("Candidaturas recebidas", state.total_applications, "file-text", "stat-total-applications"),
                stat_card("Contratações ativas", state.active_hirings, "handshake", "stat-active-hirings"),
                columns=rx.breakpoints(initial="1", sm="3"),
                spacing="4",
                width="100%",
            ),
            rx.grid(
                section_card(
                    "Vagas recentes",
                    rx.vstack(rx.foreach(state.recent_jobs, _recent_job), spacing="1", width="100%"),
                    action=rx.link("Ver todas", href=_tab("jobs"), size="2"),
                ),
                section_card(
                    "Contratações ativas",
                    rx.cond(
                        state.active_hiring_rows.length() > 0,
                        rx.vstack(rx.foreach(state.active_hiring_rows, _hiring_line), spacing="1", width="100%"),
                        rx.text("Nenhuma contratação ativa no momento.", color=rx.color("gray", 11), size="2"),
                    ),
                    action=rx.link("Ver contratações", href=_tab("hirings"), size="2"),
                ),
                columns=rx.breakpoints(initial="1", md="2"),
                spacing="4",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
    )


def _pager() -> rx.Component:
    """The pager of the open tab's list (hidden when it has one page)."""
    state = ClientDashboardState
    return pager(state.pager_items, state.prev_href, state.next_href)


def _hiring_card(hiring: rx.Var) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(hiring["job_title"], weight="bold"),
                rx.hstack(rx.icon("user", size=14), rx.text(hiring["freelancer_name"], size="2"), align="center"),
                rx.text("Atualizada em ", hiring["date"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
            ),
            rx.hstack(
                _hiring_badge(hiring),
                rating_control(hiring, ClientDashboardState.open_rating),
                rx.cond(
                    hiring["chat_id"].to(int) > 0,
                    rx.link(
                        rx.button(rx.icon("message-circle", size=14), "Abrir chat", size="1", variant="outline"),
                        href=routes.chat(Role.CLIENT, hiring["chat_id"]),
                    ),
                ),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="0.75rem",
            align=rx.breakpoints(initial="start", sm="center"),
            width="100%",
        ),
        width="100%",
    )


def hirings_tab() -> rx.Component:
    """Accepted (Confirmado) and pending (Pendente) applications to the company's jobs."""
    rows = ClientDashboardState.hirings
    return rx.vstack(
        tab_heading("Contratações", "Freelancers confirmados e candidaturas aguardando sua resposta."),
        rx.cond(
            rows.length() > 0,
            rx.vstack(rx.foreach(rows, _hiring_card), _pager(), spacing="2", width="100%"),
            empty_state(
                "handshake",
                "Nenhuma contratação ainda",
                "Quando freelancers se candidatarem às suas vagas, eles aparecerão aqui.",
            ),
        ),
        rating_dialog(ClientDashboardState),
        spacing="3",
        width="100%",
    )


def _freelancer_card(row: rx.Var) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.vstack(
                    rx.text(row["name"], weight="bold"),
                    rx.text(row["profession"], size="2", color=rx.color("gray", 11)),
                    spacing="0",
                    flex="1",
                ),
                rx.cond(row["hired"], rx.badge("Contratado", color_scheme="green", variant="soft")),
                width="100%",
                align="start",
            ),
            rx.cond(
                row["location"] != "",
                rx.hstack(rx.icon("map-pin", size=14), rx.text(row["location"], size="2"), align="center"),
            ),
            rx.flex(
                rx.foreach(row["skills"].to(list[str]), lambda skill: rx.badge(skill, variant="outline")),
                rx.cond(row["more_skills"] != "", rx.text(row["more_skills"], size="1", color=rx.color("gray", 11))),
                wrap="wrap",
                gap="0.35rem",
                align="center",
            ),
            rx.text(
                count_label(row["applications"].to(int), "candidatura", "candidaturas"),
                " às suas vagas",
                size="1",
                color=rx.color("gray", 11),
            ),
            rx.link("Ver perfil completo", href=routes.freelancer_profile(row["id"]), size="2"),
            spacing="2",
            width="100%",
        ),
        width="100%",
    )


def freelancers_tab() -> rx.Component:
    """Freelancers who applied to the company's jobs."""
    rows = ClientDashboardState.freelancers
    return rx.vstack(
        tab_heading("Freelancers", "Profissionais que se candidataram às suas vagas."),
        rx.cond(
            rows.length() > 0,
            rx.vstack(
                rx.grid(
                    rx.foreach(rows, _freelancer_card),
                    columns=rx.breakpoints(initial="1", sm="2", lg="3"),
                    spacing="3",
                    width="100%",
                ),
                _pager(),
                width="100%",
            ),
            empty_state(
                "users",
                "Nenhum freelancer ainda",
                "Os freelancers que se candidatarem às suas vagas aparecerão aqui.",
            ),
        ),
        spacing="3",
        width="100%",
    )


def plans_tab() -> rx.Component:
    """The company's subscription, the three plans with Stripe's buttons, and the general conditions."""
    return rx.vstack(
        tab_heading("Planos", "Escolha o plano ideal para o volume de vagas da sua empresa."),
        subscription_panel(),
        plans_grid(),
        section_card("Condições gerais", plan_conditions()),
        spacing="4",
        width="100%",
    )


def profile_tab() -> rx.Component:
    """The company profile form (the same as /company-profile-setup) and the account data."""
    return rx.vstack(
        tab_heading("Meu Perfil", "É assim que os freelancers conhecem sua empresa nas vagas e nas conversas."),
        company_profile_form(),
        account_data(),
        spacing="3",
        width="100%",
    )


def _notifications_tab() -> rx.Component:
    return notifications_panel(DashboardState)


@dashboard_page(
    routes.CLIENT_DASHBOARD,
    "Painel da Empresa",
    Role.CLIENT,
    on_load=[ClientDashboardState.load],
    active_tab=ClientDashboardState.tab,
)
def client_dashboard_page() -> rx.Component:
    """The selected tab; a spinner until its data has arrived."""
    state = ClientDashboardState
    return rx.cond(
        state.loaded_tab == state.tab,
        rx.match(
            state.tab,
            ("jobs", jobs_tab()),
            ("hirings", hirings_tab()),
            (
                "shifts",
                shifts_tab(
                    state, Role.CLIENT, "Turnos", "Confirmações, registros de chegada e saída, horas e pagamentos."
                ),
            ),
            ("payments", payments_tab(state)),
            ("team", team_tab(state)),
            ("freelancers", freelancers_tab()),
            ("messages", messages_tab(state, Role.CLIENT, "Converse com os freelancers contratados.")),
            ("notifications", _notifications_tab()),
            ("plans", plans_tab()),
            ("profile", profile_tab()),
            ("settings", settings_panel(privacy_section())),
            overview_tab(),
        ),
        loading(),
    )
