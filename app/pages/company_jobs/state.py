"""The state of 'Minhas Vagas': the company's jobs, the publish form, the confirmation and the applicants.

`CompanyJobsState` holds the company's jobs (active, closed and archived, filtered by the search), the
'Publicar Nova Vaga' form, the close/delete confirmation, the applications dialog and the freelancer
profile dialog. It is put together from mixins, one module each: lists_state (the lists, the search
and the company check), publish_state (the form) and applicants_state (the two dialogs); this
module has the page load, the actions on a job and the confirmation.

Every handler is a public endpoint: it resolves the company from the session cookie on the server,
validates its arguments and lets the services load each job or application by id AND owner, so
another company's object, a missing one and a bad id all get the same answer.
"""

from collections.abc import Callable

import reflex as rx
from sqlmodel import Session

from app.pages.company_jobs.applicants_state import ApplicantsMixin
from app.pages.company_jobs.lists_state import ERROR
from app.pages.company_jobs.publish_state import PublishFormMixin
from core import routes
from core.db import session_scope
from core.ids import valid_id
from core.shift_rules import MAX_COPIES
from models import Role
from services.common.errors import ServiceError
from services.jobs import company_jobs, pricing
from services.jobs.company_jobs import JOB_NOT_FOUND
from services.jobs.plans import PlanLimitReached
from states.auth import AuthState
from states.blocks import CompanyBlocksMixin
from states.failures import failed, recovers
from states.messages import UNEXPECTED

DUPLICATE_FIELD = "data_"
DUPLICATE_FAILED = ("Erro ao duplicar vaga", "Não foi possível duplicar a vaga. Tente novamente.")
DELETE_FAILED = ("Erro ao excluir vaga", "Não foi possível excluir a vaga. Por favor, tente novamente.")


class CompanyJobsState(PublishFormMixin, ApplicantsMixin, CompanyBlocksMixin, AuthState):
    """The signed-in company's jobs and the dialogs of the 'Minhas Vagas' tab.

    The lists, the publish form and the applicants come from the mixins beside this module; here
    are the page load, the actions on a job (archive, restore, reopen, close, delete, duplicate)
    and the close/delete confirmation.
    """

    duplicate_open: bool = False
    duplicating: bool = False
    duplicate_job_id: int = 0
    duplicate_title: str = ""
    duplicate_slots: list[int] = [0]
    duplicate_error: str = ""

    confirm_kind: str = ""
    confirm_job_id: int = 0
    confirm_title: str = ""

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

    def _after_block(self, company_id: int) -> list:
        """A block refuses the person's pending applications: the open dialog's cards show it."""
        return self._after_answer(company_id)
