"""The state of 'Minhas Vagas': the company's jobs, the publish form, the confirmation and the applicants.

`CompanyJobsState` holds the company's jobs (active, closed and archived, filtered by the search), the
'Publicar Nova Vaga' form, the close/delete confirmation, the applications dialog and the freelancer
profile dialog. Every handler is a public endpoint: it resolves the company from the session cookie
on the server, validates its arguments and lets the services load each job or application by id
AND owner, so another company's object, a missing one and a bad id all get the same answer.
"""

from collections.abc import Callable

import reflex as rx
from sqlmodel import Session

from core import routes
from core.db import session_scope
from core.geo import valid_point
from core.ids import valid_id
from core.shift_rules import MAX_COPIES
from models import Role
from services.accounts import profiles
from services.common.errors import ServiceError
from services.jobs import company_jobs, pricing, team_first
from services.jobs.company_jobs import JOB_NOT_FOUND
from services.jobs.plans import PlanLimitReached
from services.screens import company_dashboard, dashboard
from services.screens.company_dashboard import JobRow
from services.shifts import applicant_list, application_answers, applications
from services.shifts.applicant_list import ApplicantCard, FreelancerProfileView
from services.trust import teams
from states.auth import AuthState
from states.blocks import CompanyBlocksMixin
from states.failures import failed, recovers
from states.messages import UNEXPECTED
from states.protected_payments import checkout_url, refusal_toast

SEARCH_MAX = 100
JOB_FIELDS = (
    "titulo",
    "categoria",
    "descricao",
    "localizacao",
    "valor_hora",
    "inicio_em",
    "fim_em",
    "intervalo_min",
    "endereco",
    "ponto_lat",
    "ponto_lng",
    "habilidades_necessarias",
    "vagas_disponiveis",
    "pagamento",
    "o_que_levar",
)
PAYMENT_MODES = (pricing.DIRECT, pricing.GUARANTEED)
POINT_FAILED = "Não foi possível ler sua localização. Verifique a permissão de localização do navegador."
# One location reading ('Marcar local do turno'), never a watch: resolves {lat, lng} or {error}.
READ_POINT_SCRIPT = """new Promise((resolve) => {
  if (!navigator.geolocation) { resolve({error: "unsupported"}); return; }
  navigator.geolocation.getCurrentPosition(
    (p) => resolve({lat: p.coords.latitude, lng: p.coords.longitude}),
    (e) => resolve({error: String(e && e.code)}),
    {enableHighAccuracy: true, timeout: 20000, maximumAge: 0}
  );
})"""
DUPLICATE_FIELD = "data_"
DUPLICATE_FAILED = ("Erro ao duplicar vaga", "Não foi possível duplicar a vaga. Tente novamente.")
ERROR = "Erro"
DELETE_FAILED = ("Erro ao excluir vaga", "Não foi possível excluir a vaga. Por favor, tente novamente.")
LOAD_JOBS_FAILED = ("Erro ao carregar vagas", "Não foi possível carregar suas vagas. Por favor, tente novamente.")
AUTH_REQUIRED = ("Erro de autenticação", "Você precisa estar logado para criar uma vaga.")
CREATE_FAILED_TITLE = "Erro ao criar vaga"
CREATE_FAILED = "Não foi possível criar a vaga. Tente novamente."
APPLICATIONS_FAILED = ("Erro ao carregar candidaturas", "Ocorreu um erro inesperado ao carregar as candidaturas.")
ACCEPT_FAILED = "Não foi possível aceitar a candidatura."
REJECT_FAILED = "Não foi possível recusar a candidatura."
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

DEFAULT_BREAK_MIN = 60  # what ticking 'Possui intervalo' fills in (as a vaga without shift times gets)


def _blank_errors() -> dict[str, str]:
    return dict.fromkeys(JOB_FIELDS, "")


def _accept_for_payment(company_id: int, application_id: int, bond_ack: bool) -> int | None:
    """Accept (committed) and return the hiring waiting for the company's payment (None when there is none)."""
    with session_scope() as db:
        application_answers.accept(db, company_id, application_id, bond_ack)
        return application_answers.hiring_to_pay(db, company_id, application_id)


class CompanyJobsState(CompanyBlocksMixin, AuthState):
    """The signed-in company's jobs and the dialogs of the 'Minhas Vagas' tab."""

    loaded: bool = False
    search: str = ""
    active_jobs: list[JobRow] = []
    closed_jobs: list[JobRow] = []
    archived_jobs: list[JobRow] = []
    active_total: int = 0
    closed_total: int = 0
    archived_total: int = 0
    loading_more_jobs: bool = False
    plan_message: str = ""

    publish_open: bool = False
    publishing: bool = False
    form_errors: dict[str, str] = _blank_errors()
    publish_error: str = ""
    point_lat: str = ""
    point_lng: str = ""
    protected_available: bool = False
    publish_payment: str = pricing.DIRECT
    publish_team_size: int = 0  # 'Oferecer primeiro à minha equipe' shows for a company with a team
    publish_city: str = ""  # the form starts with the company profile's city and address
    publish_address: str = ""
    publish_break: str = "0"  # 'Intervalo (minutos)' as typed; 'Possui intervalo' follows it
    bond_acknowledged: list[int] = []  # applications whose red 'Termômetro de vínculo' box is ticked

    duplicate_open: bool = False
    duplicating: bool = False
    duplicate_job_id: int = 0
    duplicate_title: str = ""
    duplicate_slots: list[int] = [0]
    duplicate_error: str = ""

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
    _applicants_after: applicant_list.ApplicantsCursor | None = None
    loading_more_applicants: bool = False
    paying_application: int = 0  # whose 'Aceitar e pagar' is opening Checkout; cleared on a page load and dialog open

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
        """Reload the three lists and their totals for the current search; an error toast on failure.

        With `keep_shown` (after an action) as many rows as were shown are read again, so the
        company stays where it was in a list it extended with 'Carregar mais'; otherwise (a new
        page load or search) the first page of each.
        """
        sizes = {
            tab: max(dashboard.PAGE_SIZE, len(self._shown(tab))) if keep_shown else dashboard.PAGE_SIZE
            for tab in company_dashboard.JOB_TABS
        }
        try:
            with session_scope() as db:
                totals = company_dashboard.company_job_totals(db, company_id, self.search)
                lists = {
                    tab: company_dashboard.company_jobs(db, company_id, size, search=self.search, tab=tab)
                    for tab, size in sizes.items()
                }
        except Exception:  # runs after actions too: their success toast stands, then this one
            return [failed("CompanyJobsState._load_jobs", *LOAD_JOBS_FAILED)]
        self.active_total, self.closed_total, self.archived_total = totals
        self.active_jobs, self.closed_jobs, self.archived_jobs = lists["active"], lists["closed"], lists["archived"]
        self.loaded = True
        return []

    def _shown(self, tab: str) -> list[JobRow]:
        return {"active": self.active_jobs, "closed": self.closed_jobs, "archived": self.archived_jobs}[tab]

    def _more_jobs(self, tab: str):
        """Append the next page of one list (Ativas, Encerradas or Arquivadas)."""
        company_id = self._company_id()
        if company_id is None or self.loading_more_jobs:
            return
        shown = self._shown(tab)
        self.loading_more_jobs = True
        yield
        try:
            with session_scope() as db:
                rows = company_dashboard.company_jobs(db, company_id, offset=len(shown), search=self.search, tab=tab)
        finally:
            self.loading_more_jobs = False
        ids = {job["id"] for job in shown}
        merged = shown + [job for job in rows if job["id"] not in ids]
        if tab == "archived":
            self.archived_jobs = merged
        elif tab == "closed":
            self.closed_jobs = merged
        else:
            self.active_jobs = merged

    @rx.event
    @recovers(*LOAD_JOBS_FAILED, reset={"loading_more_jobs": False})
    def more_active_jobs(self):
        """'Carregar mais' under Ativas: the next page of the company's active jobs."""
        yield from self._more_jobs("active")

    @rx.event
    @recovers(*LOAD_JOBS_FAILED, reset={"loading_more_jobs": False})
    def more_closed_jobs(self):
        """'Carregar mais' under Encerradas: the next page of the company's closed jobs."""
        yield from self._more_jobs("closed")

    @rx.event
    @recovers(*LOAD_JOBS_FAILED, reset={"loading_more_jobs": False})
    def more_archived_jobs(self):
        """'Carregar mais' under Arquivadas: the next page of the company's archived jobs."""
        yield from self._more_jobs("archived")

    def _job_title(self, job_id: int) -> str | None:
        for job in (*self.active_jobs, *self.closed_jobs, *self.archived_jobs):
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
        self.protected_available = pricing.configured()
        self.paying_application = 0  # a page load: any trip to Stripe Checkout is over (or was given up)
        self._close_confirm()
        self.applications_open = False
        self.profile_open = False
        self.publish_open = False
        self.duplicate_open = False
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
        self.point_lat = self.point_lng = ""
        self.protected_available = pricing.configured()
        self.publish_payment = pricing.DIRECT
        self.publish_break = "0"
        company_id = self._company_id()
        if company_id is not None:
            with session_scope() as db:
                self.publish_team_size = teams.size(db, company_id)
                self.publish_city, self.publish_address = profiles.publish_defaults(db, company_id)

    @rx.var
    def publish_has_break(self) -> bool:
        """'Possui intervalo': ticked exactly when the break has minutes."""
        text = self.publish_break.strip()
        return text.isdigit() and int(text) > 0

    @rx.event
    def set_break_minutes(self, value: str):
        """'Intervalo (minutos)' typed: 'Possui intervalo' follows (the server checks the number on publish)."""
        self.publish_break = value[:4] if isinstance(value, str) else "0"

    @rx.event
    def toggle_break(self, checked: bool):
        """'Possui intervalo' ticked: a 60-minute break when there was none; cleared: no break."""
        if checked is True:
            self.publish_break = self.publish_break if self.publish_has_break else str(DEFAULT_BREAK_MIN)
        else:
            self.publish_break = "0"

    @rx.event
    def choose_payment(self, value: str):
        """'Forma de pagamento' in the form: the note of the chosen one shows (the server checks again on publish)."""
        chosen = value if value in PAYMENT_MODES else pricing.DIRECT
        if chosen == pricing.GUARANTEED and not self.protected_available:
            chosen = pricing.DIRECT
        self.publish_payment = chosen

    @rx.event
    def point_marked(self, reading: dict):
        """The one browser location reading of 'Marcar local do turno': kept for the hidden fields.

        Only the reading's numbers are kept, rounded to 6 decimals; anything else is refused with a toast.
        """
        reading = reading if isinstance(reading, dict) else {}
        lat, lng = reading.get("lat"), reading.get("lng")
        if self._company_id() is None or not valid_point(lat, lng):
            self.point_lat = self.point_lng = ""
            return rx.toast.error(ERROR, description=POINT_FAILED)
        self.point_lat, self.point_lng = f"{float(lat):.6f}", f"{float(lng):.6f}"
        return None

    @rx.event
    def clear_point(self):
        """'Remover local': the shift has no marked point."""
        self.point_lat = self.point_lng = ""

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
        yield rx.toast.success(team_first.PUBLISHED if team_first.asked(data) else "Vaga criada com sucesso!")
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
    def reopen(self, job_id: int):
        """'Reabrir vaga': a vaga whose shift was cancelled returns to the public list (before its start)."""
        return self._job_action(job_id, company_jobs.reopen_job, "Vaga reaberta")

    @rx.event
    def ask_duplicate(self, job_id: int):
        """'Duplicar': the dialog to pick up to 8 new dates for a copy of the job."""
        checked_id = valid_id(job_id)
        title = self._job_title(checked_id) if checked_id is not None and self._company_id() is not None else None
        if title is None:
            return rx.toast.error(ERROR, description=JOB_NOT_FOUND)
        self.duplicate_job_id = checked_id
        self.duplicate_title = title
        self.duplicate_slots = [0]
        self.duplicate_error = ""
        self.duplicate_open = True
        return None

    @rx.event
    def add_duplicate_date(self):
        """'Adicionar data': one more date field, up to 8."""
        if len(self.duplicate_slots) < MAX_COPIES:
            self.duplicate_slots = [*self.duplicate_slots, len(self.duplicate_slots)]

    @rx.event
    def set_duplicate_open(self, value: bool):
        """Close the 'Duplicar' dialog (Esc, overlay, 'Cancelar')."""
        if value is not True:
            self.duplicate_open = False
            self.duplicate_job_id = 0
            self.duplicate_error = ""

    @rx.event
    @recovers(*DUPLICATE_FAILED, reset={"duplicating": False})
    def duplicate(self, form_data: dict):
        """Copy the dialog's job to the dates of the form (data_0 ... data_7), all or none."""
        company_id = self._company_id()
        job_id = self.duplicate_job_id
        if company_id is None or not job_id or not self.duplicate_open or self.duplicating:
            return
        data = form_data if isinstance(form_data, dict) else {}
        dates = [data.get(f"{DUPLICATE_FIELD}{slot}") for slot in range(MAX_COPIES)]
        self.duplicating = True
        self.duplicate_error = ""
        yield
        try:
            with session_scope() as db:
                copies = company_jobs.duplicate_job(db, company_id, job_id, dates)
        except PlanLimitReached as exc:
            self.plan_message = exc.message
            self.duplicate_error = exc.message
            return
        except ServiceError as exc:
            self.duplicate_error = next(iter(exc.field_errors.values()), exc.message)
            return
        finally:
            self.duplicating = False
        self.duplicate_open = False
        self.duplicate_job_id = 0
        self.plan_message = ""
        count = len(copies)
        yield rx.toast.success(f"Vaga duplicada para {count} {'data' if count == 1 else 'datas'}")
        yield from self._load_jobs(company_id)

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
                page = applicant_list.list_for_job(db, company_id, job_id)
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
                self.applicants = applicant_list.reread_cards(
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
                page = applicant_list.list_for_job(db, company_id, job_id, after=self._applicants_after)
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
        self.paying_application = 0
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
        return [rx.toast.success(success), *self._after_answer(company_id)]

    def _after_block(self, company_id: int) -> list:
        """A block refuses the person's pending applications: the open dialog's cards show it."""
        return self._after_answer(company_id)

    def _after_answer(self, company_id: int) -> list:
        """The dialog's cards and the job lists as they are after an answer."""
        events = []
        if self.applications_open and self.applications_job_id:
            events += self._reread_applicants(company_id)
        return events + self._load_jobs(company_id)

    @rx.event
    def acknowledge_bond(self, application_id: int, checked: bool):
        """'Estou ciente e assumo a responsabilidade' ticked or cleared on a card (kept in this tab only).

        Only remembered here: the accept handlers pass it to the service, which decides on the server.
        """
        checked_id = valid_id(application_id)
        if checked_id is None:
            return
        others = [card_id for card_id in self.bond_acknowledged if card_id != checked_id]
        self.bond_acknowledged = [*others, checked_id] if checked is True else others

    @rx.event
    def accept_application(self, application_id: int):
        """'Aceitar': the freelancer is hired and a chat opens (a red 'Termômetro de vínculo' needs the box ticked)."""
        acknowledged = valid_id(application_id) in self.bond_acknowledged

        def accept(db, company_id: int, checked_id: int) -> int:
            return application_answers.accept(db, company_id, checked_id, acknowledged)

        return self._answer(application_id, accept, "Candidatura aceita", ACCEPT_FAILED)

    @rx.event
    @recovers(ERROR, ACCEPT_FAILED, reset={"paying_application": 0})
    async def accept_and_pay(self, application_id: int):
        """'Aceitar e pagar R$ X' (a guaranteed vaga): accept, then send the company to Stripe Checkout.

        The acceptance is committed first: when the Checkout cannot open, the hiring stays
        'Aguardando pagamento' and the company pays it from 'Turnos'.
        """
        if self.paying_application:
            return
        company_id = self._company_id()
        checked_id = valid_id(application_id)
        if company_id is None or checked_id is None:
            yield rx.toast.error(ERROR, description=applications.NOT_FOUND)
            return
        self.paying_application = checked_id
        yield
        try:
            acknowledged = checked_id in self.bond_acknowledged
            hiring_id = await rx.run_in_thread(lambda: _accept_for_payment(company_id, checked_id, acknowledged))
        except ServiceError as exc:
            self.paying_application = 0
            yield rx.toast.error(ERROR, description=exc.message)
            return
        if hiring_id is None:  # nothing to pay (a direct vaga, or paid already): as 'Aceitar'
            self.paying_application = 0
            for event in [rx.toast.success("Candidatura aceita"), *self._after_answer(company_id)]:
                yield event
            return
        try:
            url = await rx.run_in_thread(lambda: checkout_url(company_id, hiring_id))
        except ServiceError as exc:
            self.paying_application = 0
            for event in [refusal_toast(exc), *self._after_answer(company_id)]:
                yield event
            return
        yield rx.redirect(url)

    @rx.event
    def reject_application(self, application_id: int):
        """'Recusar': the application is rejected and the freelancer told."""
        return self._answer(application_id, application_answers.reject, "Candidatura recusada", REJECT_FAILED)

    @rx.event
    @recovers(*UNEXPECTED)
    def view_profile(self, freelancer_id: int):
        """'Ver perfil': the profile of a freelancer who applied to one of the company's jobs."""
        company_id = self._company_id()
        checked_id = valid_id(freelancer_id)
        if company_id is None or checked_id is None:
            return rx.toast.error(ERROR, description=applicant_list.PROFILE_NOT_FOUND)
        try:
            with session_scope() as db:
                self.profile = applicant_list.freelancer_profile(db, company_id, checked_id)
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
