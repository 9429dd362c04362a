"""/freelancer-dashboard: overview, job search, applications, messages, profile and settings."""

import reflex as rx

from app import routes
from app.layout import dashboard_page, tab_keys
from components.dashboard import (
    APPLICATION_STATUS_COLORS,
    chat_list,
    count_label,
    detail_item,
    detail_list,
    detail_row,
    loading,
    notifications_panel,
    section_card,
    stat_card,
    status_badge,
    tab_heading,
)
from components.shell import search_box
from components.ui import empty_state
from core.db import session_scope
from models import Role
from services import chats, dashboard, profiles
from services.chats import ChatSummary
from services.dashboard import ApplicationRow, ChecklistItem, OpenJobRow
from services.profiles import SwitchView
from states.auth import AuthState
from states.dashboard import DashboardState

TABS = tab_keys(Role.FREELANCER)
LOAD_ERRORS = {
    "jobs": ("Erro ao carregar vagas", "Não foi possível carregar as vagas disponíveis."),
    "applications": ("Erro ao carregar candidaturas", "Ocorreu um erro inesperado ao carregar as candidaturas."),
    "messages": ("Erro ao carregar conversas", "Não foi possível carregar suas conversas."),
}
GENERIC_LOAD_ERROR = ("Erro ao carregar dados", "Ocorreu um erro inesperado. Tente novamente.")


def _tab(name: str) -> str:
    return routes.dashboard_tab(Role.FREELANCER, name)


class FreelancerDashboardState(AuthState):
    """The selected tab (from ?tab=) and the data it shows, loaded for the signed-in freelancer."""

    tab: str = "overview"
    loaded_tab: str = ""
    active_applications: int = 0
    completed_jobs: int = 0
    rating: str = "—"
    rating_count: int = 0
    checklist: list[ChecklistItem] = []
    checklist_done: int = 0
    checklist_percent: int = 0
    recent_applications: list[ApplicationRow] = []
    open_jobs: list[OpenJobRow] = []
    applications: list[ApplicationRow] = []
    chats: list[ChatSummary] = []
    theme: str = ""
    language: str = ""
    switches: list[SwitchView] = []
    account_created: str = ""
    email_confirmed: str = ""
    active_sessions: int = 0

    @rx.event
    def load(self):
        """Pick the tab from ?tab= (default overview) and load what it shows."""
        requested = self.router.url.query_parameters.get("tab", "overview")
        self.tab = requested if requested in TABS else "overview"
        user = self._current_user()
        if user is None or user.role != Role.FREELANCER:
            return None
        try:
            with session_scope() as db:
                self._load_tab(db, user.id)
        except Exception:
            title, description = LOAD_ERRORS.get(self.tab, GENERIC_LOAD_ERROR)
            return rx.toast.error(title, description=description)
        self.loaded_tab = self.tab
        return None

    def _load_tab(self, db, user_id: int) -> None:
        if self.tab == "overview":
            overview = dashboard.freelancer_overview(db, user_id)
            self.active_applications = overview["active_applications"]
            self.completed_jobs = overview["completed_jobs"]
            self.rating = overview["rating"]
            self.rating_count = overview["rating_count"]
            self.checklist = overview["checklist"]
            self.checklist_done = overview["checklist_done"]
            self.checklist_percent = overview["checklist_percent"]
            self.recent_applications = dashboard.freelancer_applications(db, user_id)[:3]
        elif self.tab == "jobs":
            self.open_jobs = dashboard.latest_open_jobs(db)
        elif self.tab == "applications":
            self.applications = dashboard.freelancer_applications(db, user_id)
        elif self.tab == "messages":
            self.chats = chats.list_for(db, user_id)
        elif self.tab == "settings":
            preferences = profiles.get_preferences(db, user_id)
            security = profiles.get_security(db, user_id)
            self.theme = preferences["theme"]
            self.language = preferences["language"]
            self.switches = preferences["switches"]
            self.account_created = security["created"]
            self.email_confirmed = security["confirmed"]
            self.active_sessions = security["active_sessions"]


def _application_line(row: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(row["job_title"], weight="medium"),
            rx.text(row["company"], size="1", color=rx.color("gray", 11)),
            spacing="0",
            flex="1",
            min_width="0",
        ),
        status_badge(row["status"], row["status_label"], APPLICATION_STATUS_COLORS),
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
        spacing="4",
        width="100%",
    )


def _open_job_card(job: rx.Var) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(job["title"], weight="bold"),
                rx.text(job["category"], " · ", job["company"], size="2", color=rx.color("gray", 11)),
                rx.hstack(
                    rx.hstack(rx.icon("map-pin", size=14), rx.text(job["location"], size="2"), align="center"),
                    rx.hstack(rx.icon("wallet", size=14), rx.text(job["pay"], size="2"), align="center"),
                    spacing="4",
                    wrap="wrap",
                ),
                rx.text("Postada em ", job["created"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
            ),
            rx.link(rx.button("Ver detalhes", variant="outline", size="2"), href=routes.job_detail(job["id"])),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="0.75rem",
            align=rx.breakpoints(initial="start", sm="center"),
            width="100%",
        ),
        width="100%",
    )


def jobs_tab() -> rx.Component:
    """The newest open jobs, a search that goes to /jobs and a link to the full list."""
    jobs = FreelancerDashboardState.open_jobs
    return rx.vstack(
        tab_heading(
            "Buscar Vagas",
            "As vagas abertas mais recentes.",
            rx.link(rx.button(rx.icon("list", size=16), "Ver todas as vagas", id="all-jobs-button"), href=routes.JOBS),
        ),
        rx.box(search_box("dashboard-search"), width="100%", max_width="480px"),
        rx.cond(
            jobs.length() > 0,
            rx.vstack(rx.foreach(jobs, _open_job_card), spacing="2", width="100%"),
            empty_state(
                "search",
                "Nenhuma vaga encontrada",
                "Atualmente não há vagas abertas. Novas oportunidades aparecem aqui assim que forem publicadas.",
            ),
        ),
        spacing="3",
        width="100%",
    )


def _application_card(row: rx.Var) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(row["job_title"], weight="bold"),
                rx.text(row["company"], size="2", color=rx.color("gray", 11)),
                rx.text("Enviada em ", row["date"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
            ),
            rx.hstack(
                status_badge(row["status"], row["status_label"], APPLICATION_STATUS_COLORS),
                rx.link(rx.button("Ver vaga", size="1", variant="outline"), href=routes.job_detail(row["job_id"])),
                rx.cond(
                    row["chat_id"].to(int) > 0,
                    rx.link(
                        rx.button(rx.icon("message-circle", size=14), "Abrir chat", size="1"),
                        href=routes.chat(Role.FREELANCER, row["chat_id"]),
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


def applications_tab() -> rx.Component:
    """The freelancer's applications with their status."""
    rows = FreelancerDashboardState.applications
    return rx.vstack(
        tab_heading("Minhas Candidaturas", count_label(rows.length(), "candidatura", "candidaturas")),
        rx.cond(
            rows.length() > 0,
            rx.vstack(rx.foreach(rows, _application_card), spacing="2", width="100%"),
            empty_state(
                "file-text",
                "Nenhuma candidatura enviada ainda",
                "Encontre uma vaga e envie sua candidatura.",
                rx.link(rx.button("Buscar Vagas"), href=_tab("jobs")),
            ),
        ),
        spacing="3",
        width="100%",
    )


def messages_tab() -> rx.Component:
    """The freelancer's conversations, most recent first."""
    state = FreelancerDashboardState
    return rx.vstack(
        tab_heading("Mensagens", "Converse com as empresas que aceitaram sua candidatura."),
        chat_list(state.chats, state.loaded_tab == "messages", lambda chat_id: routes.chat(Role.FREELANCER, chat_id)),
        spacing="3",
        width="100%",
    )


def profile_tab() -> rx.Component:
    """The freelancer's profile, read-only."""
    me = DashboardState.me
    return rx.vstack(
        tab_heading("Meu Perfil", "Seus dados profissionais."),
        rx.card(
            rx.vstack(
                rx.hstack(
                    rx.avatar(src=me["foto_url"], fallback=me["initials"], size="6", radius="full", alt=""),
                    rx.vstack(
                        rx.heading(me["nome"], as_="h2", size="5"),
                        rx.text(me["profissao"], color=rx.color("gray", 11)),
                        spacing="1",
                    ),
                    spacing="4",
                    align="center",
                ),
                rx.separator(),
                detail_list(
                    detail_row("Nome", me["nome"]),
                    detail_row("E-mail", me["email"]),
                    detail_row("Profissão", me["profissao"]),
                    detail_item(
                        "Habilidades",
                        rx.cond(
                            me["habilidades"].to(list[str]).length() > 0,
                            rx.flex(
                                rx.foreach(me["habilidades"].to(list[str]), lambda s: rx.badge(s, variant="outline")),
                                wrap="wrap",
                                gap="0.35rem",
                            ),
                            rx.text("Não informado", color=rx.color("gray", 10)),
                        ),
                    ),
                    detail_row("Localização", me["localizacao"]),
                    detail_row("Endereço", me["endereco"]),
                    detail_row("Telefone", me["telefone"]),
                    detail_row("Biografia", me["biografia"]),
                    detail_row("Experiência", me["experiencia"]),
                    detail_row("Website", me["website"]),
                ),
                spacing="4",
                width="100%",
            ),
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


def _switch_row(switch: rx.Var) -> rx.Component:
    return detail_item(
        switch["label"],
        rx.cond(
            switch["enabled"],
            rx.badge("Ativado", color_scheme="green", variant="soft"),
            rx.badge("Desativado", color_scheme="gray", variant="soft"),
        ),
    )


def settings_tab() -> rx.Component:
    """Aparência, Notificações and Segurança: the persisted values."""
    state = FreelancerDashboardState
    return rx.vstack(
        tab_heading("Configurações", "Suas preferências salvas."),
        rx.tabs.root(
            rx.tabs.list(
                rx.tabs.trigger("Aparência", value="appearance"),
                rx.tabs.trigger("Notificações", value="notifications"),
                rx.tabs.trigger("Segurança", value="security"),
            ),
            rx.tabs.content(
                rx.card(
                    detail_list(detail_row("Tema", state.theme), detail_row("Idioma", state.language)), width="100%"
                ),
                value="appearance",
                padding_top="1rem",
            ),
            rx.tabs.content(
                rx.card(detail_list(rx.foreach(state.switches, _switch_row)), width="100%"),
                value="notifications",
                padding_top="1rem",
            ),
            rx.tabs.content(
                rx.card(
                    detail_list(
                        detail_row("E-mail da conta", DashboardState.me["email"]),
                        detail_row("Conta criada em", state.account_created),
                        detail_row("E-mail confirmado em", state.email_confirmed, "E-mail não confirmado"),
                        detail_item("Sessões ativas", rx.text(state.active_sessions)),
                    ),
                    width="100%",
                ),
                value="security",
                padding_top="1rem",
            ),
            default_value="appearance",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


def _notifications_tab() -> rx.Component:
    return notifications_panel(
        DashboardState.notifications, DashboardState.notifications_loaded, DashboardState.mark_notification_read
    )


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
            ("messages", messages_tab()),
            ("notifications", _notifications_tab()),
            ("profile", profile_tab()),
            ("settings", settings_tab()),
            overview_tab(),
        ),
        loading(),
    )
