"""/freelancer-dashboard: overview, job search, applications, messages, profile and settings."""

from dataclasses import replace
from typing import ClassVar

import reflex as rx

from app.layout import dashboard_page
from components.apply import apply_dialog
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
from components.job_filters import job_filters, no_jobs
from components.links import link_button
from components.next_shift import next_shift_card
from components.notification_list import notifications_panel
from components.pager import pager
from components.privacy import privacy_section
from components.profile_forms import freelancer_profile_form
from components.rating import company_rating, rating_control, rating_dialog
from components.settings_panel import settings_panel
from components.shift_card import shift_dialog, shifts_tab
from components.ui import empty_state
from core import routes
from core.db import session_scope
from models import Role
from services.common.paging import PagerLink, pager_fields
from services.jobs import jobs, visibility
from services.jobs.jobs import JobListItem
from services.screens import freelancer_dashboard
from services.screens.freelancer_dashboard import ApplicationRow, ChecklistItem
from services.shifts import applications
from states import live
from states.apply import ApplyState
from states.blocks import FreelancerBlocksMixin
from states.dashboard import DashboardState
from states.dashboard_tabs import DashboardTabs
from states.earnings import EarningsMixin
from states.failures import failed, recovers
from states.invites import FreelancerInvitesMixin
from states.job_search import JobFilters, chosen_category, typed_search
from states.messages import UNEXPECTED_MESSAGE as UNEXPECTED
from states.ratings import RatingMixin
from states.shifts import ShiftsMixin

LOAD_ERRORS = {
    "jobs": ("Erro ao carregar vagas", "Não foi possível carregar as vagas disponíveis."),
    "applications": ("Erro ao carregar candidaturas", "Ocorreu um erro inesperado ao carregar as candidaturas."),
}
WITHDRAW_ERROR = "Erro ao retirar candidatura"
WITHDRAWN = "Candidatura retirada"


def _tab(name: str) -> str:
    return routes.dashboard_tab(Role.FREELANCER, name)


@live.refresher
class FreelancerDashboardState(
    DashboardTabs, RatingMixin, ShiftsMixin, EarningsMixin, FreelancerBlocksMixin, FreelancerInvitesMixin, ApplyState
):
    """The selected tab (from ?tab=) and the data it shows, loaded for the signed-in freelancer.

    It extends the shared apply form (ApplyState), so applying from the 'Buscar Vagas' dialog and
    withdrawing in 'Minhas Candidaturas' keep the same list of jobs applied to.
    """

    ROLE: ClassVar[Role] = Role.FREELANCER
    HOME: ClassVar[str] = routes.FREELANCER_DASHBOARD
    LOAD_ERRORS: ClassVar[dict[str, tuple[str, str]]] = LOAD_ERRORS

    active_applications: int = 0
    completed_jobs: int = 0
    rating: str = "—"
    rating_count: int = 0
    checklist: list[ChecklistItem] = []
    checklist_done: int = 0
    checklist_percent: int = 0
    recent_applications: list[ApplicationRow] = []
    job_results: list[JobListItem] = []
    job_total: int = 0
    job_search: str = ""
    job_city: str = ""
    job_category: str = ""
    job_pager: list[PagerLink] = []
    job_prev_href: str = ""
    job_next_href: str = ""
    applications: list[ApplicationRow] = []
    applications_total: int = 0
    team_job_results: list[JobListItem] = []  # 'Primeiro para a sua equipe' (services/jobs/team_first.py)

    def _load_tab(self, db, user_id: int) -> None:
        if self.tab == "overview":
            overview = freelancer_dashboard.freelancer_overview(db, user_id)
            self.active_applications = overview["active_applications"]
            self.completed_jobs = overview["completed_jobs"]
            self.rating = overview["rating"]
            self.rating_count = overview["rating_count"]
            self.checklist = overview["checklist"]
            self.checklist_done = overview["checklist_done"]
            self.checklist_percent = overview["checklist_percent"]
            self.recent_applications = freelancer_dashboard.recent_applications(db, user_id)
            self._load_next_shift(db, user_id)
            self._load_companies(db, user_id)
            self._load_invites(db, user_id)
        elif self.tab == "jobs":
            self._search_jobs(db, user_id)
        elif self.tab == "applications":
            self._load_applications(db, user_id)
        elif self.tab == "shifts":
            self._load_shifts(db, user_id)
            self._open_scanned_code()
        elif self.tab == "earnings":
            self._load_earnings(db, user_id)
        else:
            super()._load_tab(db, user_id)

    def _after_load(self):
        if self.tab != "earnings":
            return super()._after_load()
        return self._back_from_stripe(FreelancerDashboardState.start_payout_onboarding)

    def _load_applications(self, db, user_id: int) -> None:
        result = self._paged(freelancer_dashboard.freelancer_applications(db, user_id, self._page()))
        self.applications, self.applications_total = result.items, result.total

    def _search_url(self, **changes) -> str:
        """This tab's URL with the address's filters and `changes` applied (page 1 unless given).

        Read from the address, not the state, so a filter changed before the tab has loaded keeps the others.
        """
        current = JobFilters.from_query(self.router.url.query_parameters)
        filters = {"search": current.search, "category": current.category, "city": current.city, "page": None}
        filters.update(changes)
        return routes.freelancer_job_search(**filters)

    def _search_jobs(self, db, user_id: int) -> None:
        """One page (10) of the public jobs matching ?search=&category=&city=&page=, filtered in the database."""
        filters = replace(JobFilters.from_query(self.router.url.query_parameters), company_id=0)
        self.job_search, self.job_city, self.job_category = filters.search, filters.city, filters.category
        viewer = visibility.viewer_facts(db, user_id)
        result = filters.results(db, viewer.hidden)
        self.job_results = result.items
        self.job_total = result.total
        self.team_job_results = jobs.team_first_items(db, user_id) if viewer.teams else []
        shown = [item["id"] for item in [*result.items, *self.team_job_results]]
        self.applied_job_ids = applications.applied_job_ids(db, user_id, shown)
        fields = pager_fields(result.page, result.pages, lambda number: self._search_url(page=number))
        self.job_pager, self.job_prev_href, self.job_next_href = (
            fields["links"],
            fields["prev_href"],
            fields["next_href"],
        )

    @rx.event
    def submit_job_search(self, form_data: dict):
        """Search the jobs by the typed text (blank clears it) and go back to page 1, staying in the dashboard."""
        return rx.redirect(self._search_url(search=typed_search(form_data)))

    @rx.event
    def choose_job_category(self, value: str):
        """Filter the search by a category ('' for all) and go back to page 1."""
        return rx.redirect(self._search_url(category=chosen_category(value)))

    @rx.event
    def clear_job_filters(self):
        """Limpar filtros: drop the search text, the category and the city."""
        return rx.redirect(routes.freelancer_job_search())

    @rx.event
    @recovers(WITHDRAW_ERROR, UNEXPECTED)
    def withdraw_application(self, application_id: int):
        """'Retirar candidatura' (after confirming): delete one's own pending application.

        Another freelancer's, an answered or a missing application is refused and nothing changes;
        the service checks ownership and status in the same statement.
        """
        user = self._caller(Role.FREELANCER)
        if user is None:
            return rx.toast.error(WITHDRAW_ERROR, description=applications.NOT_FOUND)
        with session_scope() as db:
            applications.withdraw(db, user.id, application_id)
        withdrawn_job = next((row["job_id"] for row in self.applications if row["id"] == application_id), None)
        try:
            with session_scope() as db:
                self._load_applications(db, user.id)
                overview = freelancer_dashboard.freelancer_overview(db, user.id)
                self.recent_applications = freelancer_dashboard.recent_applications(db, user.id)
        except Exception:  # withdrawn: say so, and that the list could not be read again
            return [
                rx.toast.success(WITHDRAWN),
                failed("FreelancerDashboardState.withdraw_application", *LOAD_ERRORS["applications"]),
            ]
        self.active_applications = overview["active_applications"]
        self.applied_job_ids = [job_id for job_id in self.applied_job_ids if job_id != withdrawn_job]
        return rx.toast.success(WITHDRAWN)


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


def _job_result_card(job: rx.Var) -> rx.Component:
    """A search result: title, category, company, place, pay and date; details and apply actions."""
    state = FreelancerDashboardState
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(job["title"], weight="bold", size="3"),
                rx.hstack(
                    rx.badge(job["category_label"], variant="soft"),
                    rx.text(job["company"], size="2", color=rx.color("gray", 11)),
                    company_rating(job["company_rating"]),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.cond(
                    job["shift"] != "",
                    rx.hstack(
                        rx.icon("calendar-clock", size=14),
                        rx.text(job["shift"], size="2", class_name="job-shift"),
                        align="center",
                        color=rx.color("gray", 11),
                    ),
                ),
                rx.flex(
                    rx.hstack(rx.icon("map-pin", size=14), rx.text(job["location"], size="2"), align="center"),
                    rx.hstack(rx.icon("wallet", size=14), rx.text(job["pay"], size="2"), align="center"),
                    rx.cond(job["total"] != "", rx.text(job["total"], size="2", class_name="job-total")),
                    gap="0.25rem 1rem",
                    wrap="wrap",
                    color=rx.color("gray", 11),
                ),
                rx.text("Postada em ", job["posted"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
                min_width="0",
            ),
            rx.flex(
                link_button(
                    "Ver detalhes",
                    href=rx.Var.create(routes.JOBS + "/") + job["id"].to(str),
                    variant="outline",
                    size="2",
                    aria_label="Ver detalhes da vaga " + job["title"].to(str),
                    white_space="nowrap",
                ),
                rx.cond(
                    state.applied_job_ids.contains(job["id"]),
                    rx.badge(
                        rx.icon("check", size=14),
                        "Candidatura enviada",
                        color_scheme="green",
                        variant="soft",
                        size="2",
                        white_space="nowrap",
                    ),
                    rx.button(
                        "Candidatar-se",
                        size="2",
                        on_click=state.open_apply_dialog(job["id"].to(int)),
                        aria_label="Candidatar-se à vaga " + job["title"].to(str),
                        white_space="nowrap",
                    ),
                ),
                gap="0.5rem",
                align="center",
                wrap="wrap",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="0.75rem",
            align=rx.breakpoints(initial="start", sm="center"),
            width="100%",
        ),
        width="100%",
        class_name="job-result",
    )


def _job_filters() -> rx.Component:
    """Search text (title or category) and the category select; the filters live in the URL."""
    state = FreelancerDashboardState
    return job_filters(
        "dashboard-jobs", state.job_search, state.submit_job_search, state.job_category, state.choose_job_category
    )


def jobs_tab() -> rx.Component:
    """Search the open jobs (10 per page) and apply in a dialog without leaving the dashboard."""
    state = FreelancerDashboardState
    return rx.vstack(
        tab_heading(
            "Buscar Vagas",
            rx.cond(state.job_total == 1, "1 vaga encontrada", state.job_total.to_string() + " vagas encontradas"),
        ),
        rx.cond(
            state.job_city != "",
            rx.badge("Cidade: ", state.job_city, variant="soft", size="2", radius="full"),
        ),
        _job_filters(),
        rx.cond(
            state.team_job_results.length() > 0,
            rx.vstack(
                rx.heading("Primeiro para a sua equipe", as_="h2", size="4"),
                rx.text(
                    "Empresas que têm você na equipe oferecem estas vagas primeiro a vocês.",
                    size="2",
                    color=rx.color("gray", 11),
                ),
                rx.vstack(
                    rx.foreach(state.team_job_results, _job_result_card),
                    spacing="2",
                    width="100%",
                    id="team-first-results",
                ),
                spacing="2",
                width="100%",
            ),
        ),
        rx.cond(
            state.job_total > 0,
            rx.vstack(
                rx.vstack(rx.foreach(state.job_results, _job_result_card), spacing="2", width="100%", id="job-results"),
                pager(state.job_pager, state.job_prev_href, state.job_next_href),
                spacing="2",
                width="100%",
                align="stretch",
            ),
            no_jobs(
                (state.job_search != "") | (state.job_category != "") | (state.job_city != ""), state.clear_job_filters
            ),
        ),
        apply_dialog(guaranteed=ApplyState.apply_job_guaranteed),
        spacing="4",
        width="100%",
    )


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
                rx.link(rx.button("Buscar Vagas"), href=_tab("jobs")),
            ),
        ),
        rating_dialog(FreelancerDashboardState),
        spacing="3",
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
