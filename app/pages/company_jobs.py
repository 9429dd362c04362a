"""'Minhas Vagas' of the company dashboard: the jobs list, its actions and its dialogs.

`CompanyJobsState` holds the company's jobs (active and archived, filtered by the search), the
'Publicar Nova Vaga' form, the close/delete confirmation, the applications dialog and the freelancer
profile dialog. Every handler is a public endpoint: it resolves the company from the session cookie
on the server, validates its arguments and lets the services load each job or application by id
AND owner, so another company's object, a missing one and a bad id all get the same answer.
"""

from collections.abc import Callable

import reflex as rx
from sqlmodel import Session

from components.dashboard import APPLICATION_STATUS_COLORS, loading, status_badge, tab_heading
from components.forms import dialog_buttons, select_field, text_area, text_field
from components.links import link_button
from components.pager import load_more
from components.shell import DESKTOP, MOBILE
from components.ui import empty_state
from core import routes
from core.catalog import CATEGORIES
from core.db import session_scope
from core.ids import valid_id
from models import Role
from services import applications, company_jobs, dashboard
from services.applications import ApplicantCard, FreelancerProfileView
from services.company_jobs import JOB_NOT_FOUND
from services.dashboard import JobRow
from services.errors import ServiceError
from services.plans import PlanLimitReached
from states.auth import AuthState
from states.failures import failed, recovers
from states.messages import UNEXPECTED

SEARCH_MAX = 100
JOB_FIELDS = (
    "titulo",
    "categoria",
    "descricao",
    "localizacao",
    "valor_hora",
    "duracao",
    "data_necessaria",
    "habilidades_necessarias",
    "vagas_disponiveis",
)
ERROR = "Erro"
DELETE_FAILED = ("Erro ao excluir vaga", "Não foi possível excluir a vaga. Por favor, tente novamente.")
LOAD_JOBS_FAILED = ("Erro ao carregar vagas", "Não foi possível carregar suas vagas. Por favor, tente novamente.")
AUTH_REQUIRED = ("Erro de autenticação", "Você precisa estar logado para criar uma vaga.")
CREATE_FAILED_TITLE = "Erro ao criar vaga"
CREATE_FAILED = "Não foi possível criar a vaga. Tente novamente."
APPLICATIONS_FAILED = ("Erro ao carregar candidaturas", "Ocorreu um erro inesperado ao carregar as candidaturas.")
ACCEPT_FAILED = "Não foi possível aceitar a candidatura."
REJECT_FAILED = "Não foi possível recusar a candidatura."
TRY_LATER = "Por favor, tente novamente mais tarde."
EMPTY_FREELANCER = FreelancerProfileView(
    id=0,
    name="",
    profession="",
    location="",
    photo="",
    bio="",
    skills=[],
    experience="",
    website="",
    rating="",
)
TABLE_COLUMNS = ("Vaga", "Categoria", "Valor/hora", "Local", "Criada em", "Status", "Candidaturas", "Ações")


def _blank_errors() -> dict[str, str]:
    return dict.fromkeys(JOB_FIELDS, "")


class CompanyJobsState(AuthState):
    """The signed-in company's jobs and the dialogs of the 'Minhas Vagas' tab."""

    loaded: bool = False
    search: str = ""
    active_jobs: list[JobRow] = []
    archived_jobs: list[JobRow] = []
    active_total: int = 0
    archived_total: int = 0
    loading_more_jobs: bool = False
    plan_message: str = ""

    publish_open: bool = False
    publishing: bool = False
    form_errors: dict[str, str] = _blank_errors()
    publish_error: str = ""

    confirm_kind: str = ""
    confirm_job_id: int = 0
    confirm_title: str = ""

    applications_open: bool = False
    applications_loading: bool = False
    applications_error: str = ""
    applications_title: str = ""
    applications_job_id: int = 0
    applicants: list[ApplicantCard] = []
    applicants_more: bool = False
    _applicants_after: applications.ApplicantsCursor | None = None
    loading_more_applicants: bool = False

    profile_open: bool = False
    profile: FreelancerProfileView = EMPTY_FREELANCER

    def _company_id(self) -> int | None:
        """The caller's id when a company is signed in (None for visitors and freelancers)."""
        user = self._current_user()
        if user is None or user.role != Role.CLIENT:
            self._deny("companies only", user)
            return None
        return user.id

    def _load_jobs(self, company_id: int, keep_shown: bool = True) -> list:
        """Reload both lists and their totals for the current search; an error toast on failure.

        With `keep_shown` (after an action) as many rows as were shown are read again, so the
        company stays where it was in a list it extended with 'Carregar mais'; otherwise (a new
        page load or search) the first page of each.
        """
        active = max(dashboard.PAGE_SIZE, len(self.active_jobs)) if keep_shown else dashboard.PAGE_SIZE
        archived = max(dashboard.PAGE_SIZE, len(self.archived_jobs)) if keep_shown else dashboard.PAGE_SIZE
        try:
            with session_scope() as db:
                self.active_total, self.archived_total = dashboard.company_job_totals(db, company_id, self.search)
                self.active_jobs = dashboard.company_jobs(db, company_id, active, search=self.search, archived=False)
                self.archived_jobs = dashboard.company_jobs(db, company_id, archived, search=self.search, archived=True)
        except Exception:  # runs after actions too: their success toast stands, then this one
            return [failed("CompanyJobsState._load_jobs", *LOAD_JOBS_FAILED)]
        self.loaded = True
        return []

    def _more_jobs(self, archived: bool):
        """Append the next page of one list (Ativas or Arquivadas)."""
        company_id = self._company_id()
        if company_id is None or self.loading_more_jobs:
            return
        shown = self.archived_jobs if archived else self.active_jobs
        self.loading_more_jobs = True
        yield
        try:
            with session_scope() as db:
                rows = dashboard.company_jobs(db, company_id, offset=len(shown), search=self.search, archived=archived)
        finally:
            self.loading_more_jobs = False
        ids = {job["id"] for job in shown}
        merged = shown + [job for job in rows if job["id"] not in ids]
        if archived:
            self.archived_jobs = merged
        else:
            self.active_jobs = merged

    @rx.event
    @recovers(*LOAD_JOBS_FAILED, reset={"loading_more_jobs": False})
    def more_active_jobs(self):
        """'Carregar mais' under Ativas: the next page of the company's active jobs."""
        yield from self._more_jobs(archived=False)

    @rx.event
    @recovers(*LOAD_JOBS_FAILED, reset={"loading_more_jobs": False})
    def more_archived_jobs(self):
        """'Carregar mais' under Arquivadas: the next page of the company's archived jobs."""
        yield from self._more_jobs(archived=True)

    def _job_title(self, job_id: int) -> str | None:
        for job in (*self.active_jobs, *self.archived_jobs):
            if job["id"] == job_id:
                return job["title"]
        return None

    @rx.event
    def load(self):
        """Load the company's jobs; ?nova=1 (header 'Nova Vaga', 'Publicar Primeira Vaga') opens the form."""
        company_id = self._company_id()
        if company_id is None:
            return None
        self.plan_message = ""
        self._close_confirm()
        self.applications_open = False
        self.profile_open = False
        self.publish_open = False
        events = self._load_jobs(company_id, keep_shown=False)
        if self.router.url.query_parameters.get("nova") == "1":
            self._open_form()
            # Drop ?nova=1 from the address so a reload does not open the form again.
            events.append(
                rx.call_script(f"window.history.replaceState(null, '', {routes.dashboard_tab(Role.CLIENT, 'jobs')!r})")
            )
        return events

    @rx.event
    def set_search(self, value: str):
        """'Buscar vagas': filter on the server by title, category or location (accents and case ignored)."""
        company_id = self._company_id()
        if company_id is None:
            return None
        self.search = value.strip()[:SEARCH_MAX] if isinstance(value, str) else ""
        return self._load_jobs(company_id, keep_shown=False)

    def _open_form(self) -> None:
        self.publish_open = True
        self.form_errors = _blank_errors()
        self.publish_error = ""

    @rx.event
    def open_publish(self):
        """'Publicar Nova Vaga': open an empty form."""
        self._open_form()

    @rx.event
    def set_publish_open(self, value: bool):
        """Open or close the publish dialog (Esc, overlay, 'Cancelar'); the form starts afresh."""
        if value is True:
            self._open_form()
        else:
            self.publish_open = False

    @rx.event
    @recovers(CREATE_FAILED_TITLE, CREATE_FAILED, reset={"publishing": False})
    async def publish(self, form_data: dict):
        """Publish the job of the form; a submission while one runs, or with the dialog closed, is ignored."""
        if self.publishing or not self.publish_open:
            return
        self.publishing = True
        self.form_errors = _blank_errors()
        self.publish_error = ""
        yield
        try:
            for event in self._create(form_data if isinstance(form_data, dict) else {}):
                yield event
        finally:
            self.publishing = False

    def _create(self, data: dict):
        user = self._current_user()
        if user is None:
            yield rx.toast.error(AUTH_REQUIRED[0], description=AUTH_REQUIRED[1])
            return
        try:
            with session_scope() as db:
                company_jobs.create_job(db, user.id, data)
        except PlanLimitReached as exc:
            self.publish_error = exc.message
            return
        except ServiceError as exc:
            self.form_errors = {**_blank_errors(), **{k: v for k, v in exc.field_errors.items() if k in JOB_FIELDS}}
            if not exc.field_errors:
                yield rx.toast.error(CREATE_FAILED_TITLE, description=exc.message)
            return
        self.publish_open = False
        self.plan_message = ""
        yield rx.toast.success("Vaga criada com sucesso!")
        yield from self._load_jobs(user.id)

    def _job_action(
        self,
        job_id: object,
        action: Callable[[Session, int, int], object],
        success: str,
        failure: tuple[str, str] = UNEXPECTED,
        refused_title: str = ERROR,
    ) -> list:
        """Run a company_jobs action on one of the caller's jobs, then reload the lists and counts."""
        company_id = self._company_id()
        checked_id = valid_id(job_id)
        if company_id is None or checked_id is None:
            return [rx.toast.error(refused_title, description=JOB_NOT_FOUND)]
        try:
            with session_scope() as db:
                action(db, company_id, checked_id)
        except PlanLimitReached as exc:
            self.plan_message = exc.message
            return [rx.toast.error(refused_title, description=exc.message)]
        except ServiceError as exc:
            return [rx.toast.error(refused_title, description=exc.message)]
        except Exception:  # shared by five handlers, each with its own failure toast
            return [failed("CompanyJobsState._job_action", *failure)]
        self.plan_message = ""
        return [rx.toast.success(success), *self._load_jobs(company_id)]

    @rx.event
    def archive(self, job_id: int):
        """'Arquivar': the job leaves the public list and moves to Arquivadas."""
        return self._job_action(job_id, company_jobs.archive_job, "Vaga arquivada")

    @rx.event
    def restore(self, job_id: int):
        """'Restaurar': the archived job is open again (within the plan's limit)."""
        return self._job_action(job_id, company_jobs.restore_job, "Vaga restaurada")

    @rx.event
    def duplicate(self, job_id: int):
        """'Duplicar': a new open copy without applications (within the plan's limit)."""
        return self._job_action(job_id, company_jobs.duplicate_job, "Vaga duplicada")

    @rx.event
    def close_job(self, job_id: int):
        """'Encerrar vaga' (after confirmation): closed, pending applications rejected."""
        self._close_confirm()
        return self._job_action(job_id, company_jobs.close_job, "Vaga encerrada")

    @rx.event
    def delete_job(self, job_id: int):
        """'Excluir' (after confirmation): the applications, then the job, permanently."""
        self._close_confirm()
        return self._job_action(
            job_id, company_jobs.delete_job, "Vaga excluída", failure=DELETE_FAILED, refused_title=DELETE_FAILED[0]
        )

    def _ask(self, kind: str, job_id: object):
        checked_id = valid_id(job_id)
        title = self._job_title(checked_id) if checked_id is not None and self._company_id() is not None else None
        if title is None:
            return rx.toast.error(DELETE_FAILED[0] if kind == "delete" else ERROR, description=JOB_NOT_FOUND)
        self.confirm_kind = kind
        self.confirm_job_id = checked_id
        self.confirm_title = title
        return None

    @rx.event
    def ask_close(self, job_id: int):
        """Ask to confirm 'Encerrar vaga' for a job of the list."""
        return self._ask("close", job_id)

    @rx.event
    def ask_delete(self, job_id: int):
        """Ask to confirm 'Excluir' for a job of the list."""
        return self._ask("delete", job_id)

    def _close_confirm(self) -> None:
        self.confirm_kind = ""
        self.confirm_job_id = 0
        self.confirm_title = ""

    @rx.event
    def set_confirm_open(self, value: bool):
        """Closing the confirmation (Cancelar, Esc) forgets the pending action."""
        if value is not True:
            self._close_confirm()

    def _fetch_applications(self, company_id: int, job_id: int) -> list:
        """Fill the applications dialog with its first page; its error state and a toast on failure."""
        self.applications_error = ""
        try:
            with session_scope() as db:
                page = applications.list_for_job(db, company_id, job_id)
        except ServiceError as exc:
            return self._applications_failed(exc.message)
        except Exception:  # the dialog shows its error state, not only a toast
            failed("CompanyJobsState._fetch_applications", *APPLICATIONS_FAILED)
            return self._applications_failed(APPLICATIONS_FAILED[1])
        finally:
            self.applications_loading = False
        self.applications_title, self.applicants, self.applicants_more = page.title, page.cards, page.has_more
        self._applicants_after = page.cursor
        return []

    def _applications_failed(self, message: str) -> list:
        """The dialog's error state and its toast."""
        self._clear_applicants()
        self.applications_error = message
        return [rx.toast.error(APPLICATIONS_FAILED[0], description=message)]

    def _reread_applicants(self, company_id: int) -> list:
        """After an answer: the cards shown, in their places, as they are now (see applications.reread_cards)."""
        try:
            with session_scope() as db:
                self.applicants = applications.reread_cards(
                    db, company_id, self.applications_job_id, [card["id"] for card in self.applicants]
                )
        except ServiceError as exc:
            return self._applications_failed(exc.message)
        except Exception:  # after an answer that was stored: the dialog shows its error state
            failed("CompanyJobsState._reread_applicants", *APPLICATIONS_FAILED)
            return self._applications_failed(APPLICATIONS_FAILED[1])
        return []

    def _clear_applicants(self) -> None:
        self.applicants = []
        self.applicants_more = False
        self._applicants_after = None

    @rx.event
    @recovers(*APPLICATIONS_FAILED, reset={"loading_more_applicants": False})
    def more_applicants(self):
        """'Carregar mais' in the applications dialog: the next cards of the job shown."""
        company_id = self._company_id()
        job_id = self.applications_job_id
        if company_id is None or not job_id or not self.applicants_more or self.loading_more_applicants:
            return
        self.loading_more_applicants = True
        yield
        try:
            with session_scope() as db:
                page = applications.list_for_job(db, company_id, job_id, after=self._applicants_after)
        finally:
            self.loading_more_applicants = False
        ids = {card["id"] for card in self.applicants}
        self.applicants = self.applicants + [card for card in page.cards if card["id"] not in ids]
        self.applicants_more = page.has_more
        self._applicants_after = page.cursor or self._applicants_after

    @rx.event
    def open_applications(self, job_id: int):
        """'Ver candidaturas': the dialog titled with the job's title, loading, then the list."""
        company_id = self._company_id()
        checked_id = valid_id(job_id)
        if company_id is None or checked_id is None:
            yield rx.toast.error(APPLICATIONS_FAILED[0], description=JOB_NOT_FOUND)
            return
        self.applications_open = True
        self.applications_loading = True
        self.applications_job_id = checked_id
        self.applications_title = self._job_title(checked_id) or ""
        self._clear_applicants()
        self.applications_error = ""
        yield
        yield from self._fetch_applications(company_id, checked_id)

    @rx.event
    def set_applications_open(self, value: bool):
        """Close the applications dialog (Esc, overlay, close button)."""
        if value is not True:
            self.applications_open = False
            self.profile_open = False
            self.applications_job_id = 0
            self._clear_applicants()

    def _answer(self, application_id: object, action: Callable, success: str, failure: str) -> list:
        company_id = self._company_id()
        checked_id = valid_id(application_id)
        if company_id is None or checked_id is None:
            return [rx.toast.error(ERROR, description=applications.NOT_FOUND)]
        try:
            with session_scope() as db:
                action(db, company_id, checked_id)
        except ServiceError as exc:
            return [rx.toast.error(ERROR, description=exc.message)]
        except Exception:  # shared by accept and reject, each with its own failure text
            return [failed("CompanyJobsState._answer", ERROR, failure)]
        events = [rx.toast.success(success)]
        if self.applications_open and self.applications_job_id:
            events += self._reread_applicants(company_id)
        return events + self._load_jobs(company_id)

    @rx.event
    def accept_application(self, application_id: int):
        """'Aceitar': the freelancer is hired and a chat opens."""
        return self._answer(application_id, applications.accept, "Candidatura aceita", ACCEPT_FAILED)

    @rx.event
    def reject_application(self, application_id: int):
        """'Recusar': the application is rejected and the freelancer told."""
        return self._answer(application_id, applications.reject, "Candidatura recusada", REJECT_FAILED)

    @rx.event
    @recovers(*UNEXPECTED)
    def view_profile(self, freelancer_id: int):
        """'Ver perfil': the profile of a freelancer who applied to one of the company's jobs."""
        company_id = self._company_id()
        checked_id = valid_id(freelancer_id)
        if company_id is None or checked_id is None:
            return rx.toast.error(ERROR, description=applications.PROFILE_NOT_FOUND)
        try:
            with session_scope() as db:
                self.profile = applications.freelancer_profile(db, company_id, checked_id)
        except ServiceError as exc:
            return rx.toast.error(ERROR, description=exc.message)
        self.profile_open = True
        return None

    @rx.event
    def set_profile_open(self, value: bool):
        """Close the freelancer profile dialog."""
        if value is not True:
            self.profile_open = False
            self.profile = EMPTY_FREELANCER


def _action_button(label: str, icon: str, on_click, element_id: rx.Var, color: str = "gray") -> rx.Component:
    return rx.icon_button(
        rx.icon(icon, size=16),
        on_click=on_click,
        aria_label=label,
        title=label,
        id=element_id,
        variant="ghost",
        color_scheme=color,
        size="2",
    )


def _row_id(prefix: str, job: rx.Var) -> rx.Var:
    return prefix + job["id"].to_string()


def _can_close(job: rx.Var) -> rx.Var:
    return (job["status"] == "open") | (job["status"] == "in_progress")


def _job_actions(job: rx.Var, compact: bool) -> list[rx.Component]:
    """The actions of one job: icon buttons in the table, labelled buttons on the cards."""
    state = CompanyJobsState
    job_id = job["id"].to(int)
    suffix = "" if compact else "-card"

    def button(label: str, icon: str, event, key: str, color: str = "gray") -> rx.Component:
        element_id = f"{key}-" + job["id"].to_string() + suffix
        if compact:
            return _action_button(label, icon, event, element_id, color)
        return rx.button(
            rx.icon(icon, size=14), label, on_click=event, id=element_id, size="1", variant="soft", color_scheme=color
        )

    archived = job["status"] == "archived"
    return [
        button("Ver candidaturas", "users", state.open_applications(job_id), "applications", "indigo"),
        rx.cond(
            archived,
            button("Restaurar", "archive-restore", state.restore(job_id), "restore"),
            button("Arquivar", "archive", state.archive(job_id), "archive"),
        ),
        button("Duplicar", "copy", state.duplicate(job_id), "duplicate"),
        rx.cond(_can_close(job), button("Encerrar vaga", "circle-stop", state.ask_close(job_id), "close", "amber")),
        button("Excluir", "trash-2", state.ask_delete(job_id), "delete", "red"),
    ]


def job_table_row(job: rx.Var) -> rx.Component:
    """One job in the desktop table."""
    return rx.table.row(
        rx.table.row_header_cell(rx.link(job["title"], href=routes.job_detail(job["id"]), weight="medium")),
        rx.table.cell(job["category"]),
        rx.table.cell(job["pay"], white_space="nowrap"),
        rx.table.cell(job["location"]),
        rx.table.cell(job["created"]),
        rx.table.cell(status_badge(job["status"], job["status_label"])),
        rx.table.cell(job["applications"], text_align="center"),
        rx.table.cell(rx.hstack(*_job_actions(job, compact=True), spacing="1", wrap="nowrap")),
        id=_row_id("job-row-", job),
        align="center",
    )


def job_card(job: rx.Var) -> rx.Component:
    """One job on mobile, with the same actions as the table."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.link(job["title"], href=routes.job_detail(job["id"]), weight="bold", flex="1"),
                status_badge(job["status"], job["status_label"]),
                width="100%",
                align="start",
            ),
            rx.text(job["category"], " · ", job["location"], size="2", color=rx.color("gray", 11)),
            rx.text(job["pay"], size="2"),
            rx.hstack(
                rx.text("Criada em ", job["created"], size="1", color=rx.color("gray", 11)),
                rx.spacer(),
                rx.text("Candidaturas: ", job["applications"], size="1", weight="medium", white_space="nowrap"),
                width="100%",
            ),
            rx.flex(*_job_actions(job, compact=False), wrap="wrap", gap="0.5rem"),
            spacing="2",
            width="100%",
        ),
        id=_row_id("job-card-", job),
        width="100%",
    )


def _job_list(rows: rx.Var, table_id: str) -> rx.Component:
    return rx.fragment(
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(*[rx.table.column_header_cell(label) for label in TABLE_COLUMNS])),
                rx.table.body(rx.foreach(rows, job_table_row)),
                variant="surface",
                size="1",
                width="100%",
                id=table_id,
            ),
            display=DESKTOP,
            width="100%",
            overflow_x="auto",
        ),
        rx.vstack(rx.foreach(rows, job_card), spacing="2", width="100%", display=MOBILE),
    )


def _publish_button(element_id: str) -> rx.Component:
    return rx.button(
        rx.icon("plus", size=16), "Publicar Nova Vaga", on_click=CompanyJobsState.open_publish, id=element_id
    )


def _list_or_empty(
    rows: rx.Var, total: rx.Var, on_more: rx.EventHandler, table_id: str, empty_title: str, empty_text: str
) -> rx.Component:
    state = CompanyJobsState
    return rx.cond(
        rows.length() > 0,
        rx.fragment(
            _job_list(rows, table_id),
            load_more(rows.length() < total, on_more, state.loading_more_jobs, f"more-{table_id}"),
        ),
        rx.cond(
            state.search != "",
            empty_state(
                "search-x",
                "Nenhuma vaga encontrada",
                "Nenhuma vaga corresponde à sua busca. Tente outros termos.",
            ),
            empty_state("briefcase", empty_title, empty_text),
        ),
    )


def _no_jobs_yet() -> rx.Component:
    return rx.card(
        empty_state(
            "briefcase",
            "Nenhuma vaga publicada ainda",
            "Publique sua primeira vaga e comece a receber candidaturas de freelancers qualificados.",
            _publish_button("publish-empty-job"),
        ),
        width="100%",
    )


def _plan_callout(message: rx.Var, element_id: str, icon: str, **props) -> rx.Component:
    """A plan-limit explanation with a 'Ver planos' link to /pricing (hidden while `message` is empty)."""
    return rx.cond(
        message != "",
        rx.callout.root(
            rx.callout.icon(rx.icon(icon)),
            rx.callout.text(message, " ", rx.link("Ver planos", href=routes.PRICING, weight="bold")),
            color_scheme="amber",
            id=element_id,
            width="100%",
            **props,
        ),
    )


def _plan_banner() -> rx.Component:
    return _plan_callout(CompanyJobsState.plan_message, "plan-limit-banner", "info")


def _job_tabs() -> rx.Component:
    state = CompanyJobsState
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Ativas (", state.active_total.to_string(), ")", value="active", id="tab-active"),
            rx.tabs.trigger("Arquivadas (", state.archived_total.to_string(), ")", value="archived", id="tab-archived"),
        ),
        rx.tabs.content(
            _list_or_empty(
                state.active_jobs,
                state.active_total,
                state.more_active_jobs,
                "active-jobs-table",
                "Nenhuma vaga ativa",
                "Publique uma nova vaga ou restaure uma arquivada.",
            ),
            value="active",
            padding_top="1rem",
        ),
        rx.tabs.content(
            _list_or_empty(
                state.archived_jobs,
                state.archived_total,
                state.more_archived_jobs,
                "archived-jobs-table",
                "Nenhuma vaga arquivada",
                "As vagas que você arquivar aparecerão aqui.",
            ),
            value="archived",
            padding_top="1rem",
        ),
        default_value="active",
        width="100%",
    )


def jobs_tab() -> rx.Component:
    """'Minhas Vagas': search, Ativas/Arquivadas with counts, the jobs and their dialogs."""
    state = CompanyJobsState
    has_any = (state.active_total + state.archived_total > 0) | (state.search != "")
    return rx.vstack(
        tab_heading("Minhas Vagas", "Publique, acompanhe e gerencie as suas vagas.", _publish_button("publish-job")),
        _plan_banner(),
        rx.cond(
            state.loaded,
            rx.cond(
                has_any,
                rx.vstack(
                    rx.input(
                        rx.input.slot(rx.icon("search", size=16)),
                        placeholder="Buscar vagas",
                        aria_label="Buscar vagas",
                        type="search",
                        id="jobs-search",
                        default_value=state.search,
                        on_change=state.set_search.debounce(300),
                        size="3",
                        width="100%",
                        max_width="420px",
                    ),
                    _job_tabs(),
                    spacing="3",
                    width="100%",
                ),
                _no_jobs_yet(),
            ),
            loading("Carregando vagas..."),
        ),
        publish_dialog(),
        confirm_dialog(),
        applications_dialog(),
        spacing="3",
        width="100%",
    )


def _checkbox(label: str, name: str) -> rx.Component:
    return rx.text(
        rx.hstack(rx.checkbox(name=name, id=f"job-{name}"), label, spacing="2", align="center"),
        as_="label",
        size="2",
    )


def _publish_fields() -> list[rx.Component]:
    errors = CompanyJobsState.form_errors
    return [
        text_field("Título da vaga", "titulo", errors["titulo"], field_id="job-titulo", placeholder="Ex.: Garçom"),
        select_field(
            "Categoria",
            "categoria",
            CATEGORIES,
            errors["categoria"],
            placeholder="Selecione uma categoria",
            field_id="job-categoria",
        ),
        text_area(
            "Descrição",
            "descricao",
            errors["descricao"],
            field_id="job-descricao",
            placeholder="Descreva as atividades, o horário e os requisitos",
        ),
        text_field(
            "Localização", "localizacao", errors["localizacao"], field_id="job-localizacao", placeholder="São Paulo, SP"
        ),
        rx.grid(
            text_field(
                "Valor por hora (R$)",
                "valor_hora",
                errors["valor_hora"],
                field_id="job-valor_hora",
                placeholder="25,00",
                input_mode="decimal",
            ),
            text_field("Duração", "duracao", errors["duracao"], field_id="job-duracao", placeholder="Ex.: 6 horas"),
            text_field(
                "Data necessária", "data_necessaria", errors["data_necessaria"], type="date", field_id="job-data"
            ),
            text_field(
                "Vagas disponíveis",
                "vagas_disponiveis",
                errors["vagas_disponiveis"],
                type="number",
                field_id="job-vagas",
                default_value="1",
                min="1",
                max="100",
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        text_field(
            "Habilidades necessárias",
            "habilidades_necessarias",
            errors["habilidades_necessarias"],
            field_id="job-habilidades",
            placeholder="Separe por vírgulas: bandeja, inglês, vinhos",
        ),
        rx.grid(
            _checkbox("Vale-transporte", "vale_transporte"),
            _checkbox("Refeição no local", "refeicao_local"),
            _checkbox("Possui intervalo", "possui_intervalo"),
            _checkbox("Anúncio anônimo (ocultar o nome da empresa)", "anuncio_anonimo"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            width="100%",
        ),
    ]


def _publish_limit() -> rx.Component:
    return _plan_callout(CompanyJobsState.publish_error, "publish-plan-limit", "triangle-alert", role="alert")


def publish_dialog() -> rx.Component:
    """'Publicar Nova Vaga': every job field, validated on the server."""
    state = CompanyJobsState
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Publicar Nova Vaga"),
            rx.dialog.description(
                "Preencha os dados da vaga para receber candidaturas de freelancers.",
                size="2",
                color=rx.color("gray", 11),
                margin_bottom="1rem",
            ),
            rx.form(
                rx.vstack(
                    _publish_limit(),
                    *_publish_fields(),
                    dialog_buttons("Publicar Vaga", "Publicando...", state.publishing, "publish-submit"),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.publish,
                reset_on_submit=False,
                no_validate=True,
                id="publish-job-form",
            ),
            max_width="640px",
        ),
        open=state.publish_open,
        on_open_change=state.set_publish_open,
    )


def confirm_dialog() -> rx.Component:
    """Confirmation of 'Encerrar vaga' or 'Excluir' for the job chosen in the list."""
    state = CompanyJobsState
    is_delete = state.confirm_kind == "delete"
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(rx.cond(is_delete, "Excluir vaga?", "Encerrar vaga?")),
            rx.alert_dialog.description(
                rx.cond(
                    is_delete,
                    "A vaga \u201c" + state.confirm_title + "\u201d e todas as suas candidaturas serão excluídas "
                    "permanentemente. Esta ação não pode ser desfeita.",
                    "A vaga \u201c" + state.confirm_title + "\u201d será encerrada e as candidaturas pendentes "
                    "serão recusadas.",
                ),
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancelar", variant="soft", color_scheme="gray")),
                rx.cond(
                    is_delete,
                    rx.alert_dialog.action(
                        rx.button(
                            "Excluir",
                            color_scheme="red",
                            on_click=state.delete_job(state.confirm_job_id),
                            id="confirm-delete",
                        )
                    ),
                    rx.alert_dialog.action(
                        rx.button(
                            "Encerrar vaga",
                            color_scheme="amber",
                            on_click=state.close_job(state.confirm_job_id),
                            id="confirm-close",
                        )
                    ),
                ),
                justify="end",
                spacing="3",
                margin_top="1rem",
            ),
            max_width="460px",
        ),
        open=state.confirm_kind != "",
        on_open_change=state.set_confirm_open,
    )


def _status_label(status: rx.Var) -> rx.Var:
    return rx.match(status, ("pending", "Pendente"), ("accepted", "Aceita"), ("rejected", "Recusada"), status)


def _applicant_actions(card: rx.Var) -> rx.Component:
    state = CompanyJobsState
    card_id = card["id"].to(int)
    return rx.flex(
        rx.button(
            rx.icon("user", size=14),
            "Ver perfil",
            size="1",
            variant="soft",
            color_scheme="gray",
            on_click=state.view_profile(card["freelancer_id"].to(int)),
            disabled=~card["has_profile"].to(bool),
        ),
        rx.cond(
            card["has_profile"].to(bool),
            rx.link(
                rx.hstack(rx.icon("user-round-search", size=14), "Ver perfil completo", spacing="1", align="center"),
                href=routes.freelancer_profile(card["freelancer_id"]),
                id="applicant-profile-link-" + card_id.to_string(),
                size="1",
                weight="medium",
                align_self="center",
            ),
        ),
        rx.cond(
            card["status"] == "pending",
            rx.fragment(
                rx.button(rx.icon("check", size=14), "Aceitar", size="1", on_click=state.accept_application(card_id)),
                rx.button(
                    rx.icon("x", size=14),
                    "Recusar",
                    size="1",
                    variant="soft",
                    color_scheme="red",
                    on_click=state.reject_application(card_id),
                ),
            ),
        ),
        rx.cond(
            (card["status"] == "accepted") & (card["chat_id"].to(int) > 0),
            rx.link(
                rx.button(rx.icon("message-circle", size=14), "Abrir chat", size="1", variant="outline"),
                href=routes.chat(Role.CLIENT, card["chat_id"]),
            ),
        ),
        wrap="wrap",
        gap="0.5rem",
    )


def applicant_card(card: rx.Var) -> rx.Component:
    """One application: who applied, their proposal and message, its status and the answers."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.avatar(src=card["photo"], fallback=card["name"].to(str)[:1], size="3", radius="full", alt=""),
                rx.vstack(
                    rx.text(card["name"], weight="bold"),
                    rx.text(card["profession"], size="2", color=rx.color("gray", 11)),
                    spacing="0",
                    flex="1",
                    min_width="0",
                ),
                status_badge(card["status"], _status_label(card["status"]), APPLICATION_STATUS_COLORS),
                width="100%",
                align="center",
            ),
            rx.flex(
                rx.foreach(card["skills"].to(list[str]), lambda skill: rx.badge(skill, variant="outline")),
                rx.cond(card["more_skills"] != "", rx.text(card["more_skills"], size="1", color=rx.color("gray", 11))),
                wrap="wrap",
                gap="0.35rem",
                align="center",
            ),
            rx.text(rx.text.strong("Valor proposto: "), card["proposal"], size="2"),
            rx.cond(card["message"] != "", rx.text(card["message"], size="2", white_space="pre-wrap")),
            rx.text("Candidatura enviada em ", card["date"], size="1", color=rx.color("gray", 11)),
            _applicant_actions(card),
            spacing="2",
            width="100%",
        ),
        id="application-" + card["id"].to_string(),
        width="100%",
    )


def _applications_body() -> rx.Component:
    state = CompanyJobsState
    return rx.cond(
        state.applications_loading,
        loading("Carregando candidaturas..."),
        rx.cond(
            state.applications_error != "",
            rx.callout.root(
                rx.callout.icon(rx.icon("circle-alert")),
                rx.callout.text(state.applications_error, " ", TRY_LATER),
                color_scheme="red",
                role="alert",
                width="100%",
            ),
            rx.cond(
                state.applicants.length() > 0,
                rx.box(
                    rx.vstack(
                        rx.foreach(state.applicants, applicant_card),
                        load_more(
                            state.applicants_more,
                            state.more_applicants,
                            state.loading_more_applicants,
                            "more-applicants",
                        ),
                        spacing="3",
                        width="100%",
                    ),
                    max_height="60vh",
                    overflow_y="auto",
                    padding_right="0.25rem",
                    width="100%",
                    id="applications-list",
                ),
                empty_state("inbox", "Nenhuma candidatura para esta vaga"),
            ),
        ),
    )


def applications_dialog() -> rx.Component:
    """The applications of one job, titled with the job's title, with the profile dialog inside."""
    state = CompanyJobsState
    return rx.dialog.root(
        rx.dialog.content(
            rx.hstack(
                rx.dialog.title(state.applications_title, margin="0"),
                rx.spacer(),
                rx.dialog.close(
                    rx.icon_button(rx.icon("x", size=16), variant="ghost", color_scheme="gray", aria_label="Fechar")
                ),
                width="100%",
                align="center",
                margin_bottom="0.75rem",
            ),
            rx.dialog.description("Candidaturas recebidas para esta vaga.", size="2", color=rx.color("gray", 11)),
            rx.box(_applications_body(), margin_top="0.75rem", width="100%"),
            profile_dialog(),
            max_width="680px",
        ),
        open=state.applications_open,
        on_open_change=state.set_applications_open,
    )


def _profile_tabs() -> rx.Component:
    profile = CompanyJobsState.profile
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Habilidades", value="skills"), rx.tabs.trigger("Experiência", value="experience")
        ),
        rx.tabs.content(
            rx.cond(
                profile["skills"].length() > 0,
                rx.flex(
                    rx.foreach(profile["skills"], lambda skill: rx.badge(skill, variant="soft")),
                    wrap="wrap",
                    gap="0.35rem",
                ),
                rx.text("Nenhuma habilidade informada.", color=rx.color("gray", 11), size="2"),
            ),
            value="skills",
            padding_top="0.75rem",
        ),
        rx.tabs.content(
            rx.cond(
                profile["experience"] != "",
                rx.text(profile["experience"], size="2", white_space="pre-wrap"),
                rx.text("Nenhuma experiência informada.", color=rx.color("gray", 11), size="2"),
            ),
            value="experience",
            padding_top="0.75rem",
        ),
        default_value="skills",
        width="100%",
    )


def profile_dialog() -> rx.Component:
    """A freelancer who applied: photo, name, profession, location, rating, bio, skills and experience."""
    state = CompanyJobsState
    profile = state.profile
    return rx.dialog.root(
        rx.dialog.content(
            rx.hstack(
                rx.avatar(src=profile["photo"], fallback=profile["name"][:1], size="5", radius="full", alt=""),
                rx.vstack(
                    rx.dialog.title(profile["name"], margin="0"),
                    rx.text(profile["profession"], color=rx.color("gray", 11), size="2"),
                    rx.hstack(
                        rx.icon("star", size=14, color=rx.color("amber", 9)),
                        rx.text(profile["rating"], size="2", id="freelancer-rating"),
                        align="center",
                        spacing="1",
                    ),
                    spacing="1",
                ),
                spacing="4",
                align="center",
            ),
            rx.dialog.description(
                rx.cond(profile["location"] != "", profile["location"], "Localização não informada"),
                size="2",
                color=rx.color("gray", 11),
                margin_top="0.5rem",
            ),
            rx.cond(profile["bio"] != "", rx.text(profile["bio"], size="2", margin_top="0.75rem")),
            rx.box(_profile_tabs(), margin_top="1rem", width="100%"),
            rx.flex(
                link_button(
                    "Ver perfil completo",
                    href=routes.freelancer_profile(profile["id"]),
                    link_id="freelancer-profile-link",
                    size="2",
                    variant="outline",
                ),
                rx.dialog.close(rx.button("Fechar", variant="soft", color_scheme="gray")),
                justify="end",
                wrap="wrap",
                gap="0.75rem",
                margin_top="1rem",
            ),
            max_width="520px",
        ),
        open=state.profile_open,
        on_open_change=state.set_profile_open,
    )
