"""The apply form shared by the job detail page and the freelancer dashboard's job search.

The job being applied to is chosen by `load_for_job` (from the /jobs/{id} path) or by
`open_apply_dialog(job_id)` (a result card in the dashboard); both validate the id. A job page
whose server state expired while it stayed open applies to the job of its URL. Who applies,
and with which role, always comes from the session cookie on the server.
"""

import reflex as rx

from core import routes
from core.db import session_scope
from core.ids import valid_id
from models import Role
from services.common.errors import ServiceError
from services.jobs import job_detail
from services.shifts import applications
from states.auth import AuthState
from states.failures import recovers
from states.messages import UNEXPECTED_MESSAGE as UNEXPECTED

APPLY_FIELDS = ("valor_proposto", "mensagem")
SENT = "Candidatura enviada!"
SEND_ERROR = "Erro ao enviar candidatura"
SIGN_IN_FIRST = "Você precisa estar logado para se candidatar a uma vaga."
LOAD_ERROR = ("Erro ao carregar candidatura", "Não foi possível verificar sua candidatura. Tente novamente.")
_SENT_TOAST = rx.toast.success(SENT)  # built once: every apply sends it (docs/performance.md)


def _blank() -> dict[str, str]:
    return dict.fromkeys(APPLY_FIELDS, "")


class ApplyState(AuthState):
    """One apply form: the job it targets, its field messages, and what the caller already applied to.

    Attributes:
        apply_job_id: The job the form applies to (0: none chosen).
        apply_job_title: Its title, shown in the dialog.
        apply_status: The caller's application status for that job ('' when not applied).
        apply_open: Whether the dashboard's apply dialog is open.
        apply_submitting: A submission is in progress (the button shows 'Enviando...').
        apply_errors: The message under each field.
        applied_job_ids: Jobs known to be applied to (the dashboard's page of results, plus new ones).
    """

    apply_job_id: int = 0
    apply_job_title: str = ""
    apply_job_guaranteed: bool = False  # 'Pagamento garantido pelo Turno' (the dialog's payment line)
    apply_job_when: str = ""  # 'sáb., 12/12 · 18:00–23:30', restated in the dialog
    apply_job_total: str = ""  # 'R$ 165,00 pelo turno' ('' for 'A combinar')
    apply_job_bring: str = ""  # 'Traje e o que levar' ('' when the vaga says nothing)
    apply_status: str = ""
    apply_open: bool = False
    apply_submitting: bool = False
    apply_errors: dict[str, str] = _blank()
    applied_job_ids: list[int] = []

    def _reset_form(self) -> None:
        self.apply_errors = _blank()
        self.apply_submitting = False

    @rx.event
    @recovers(*LOAD_ERROR)
    def load_for_job(self):
        """On /jobs/{id}: target the job of the URL and read whether the caller already applied."""
        self._reset_form()
        self.apply_open = False
        job_id = routes.job_id_from_path(self.router.url.path)
        self.apply_job_id = 0
        self.apply_status = ""
        if job_id is None:
            return None
        user = self._current_user()
        if user is not None and user.role == Role.FREELANCER:
            with session_scope() as db:
                self.apply_status = applications.has_applied(db, user.id, job_id)
        self.apply_job_id = job_id
        return None

    @rx.event
    @recovers(SEND_ERROR, UNEXPECTED)
    def open_apply_dialog(self, job_id: int):
        """'Candidatar-se' on a result card: open the form for that public job."""
        job_id = valid_id(job_id)
        if job_id is None:
            return rx.toast.error(SEND_ERROR, description=applications.JOB_UNAVAILABLE)
        user = self._current_user()
        with session_scope() as db:
            job = job_detail.job_for_viewer(db, job_id, user.id if user is not None else None)
        if job is None:
            return rx.toast.error(SEND_ERROR, description=applications.JOB_UNAVAILABLE)
        self._reset_form()
        self.apply_job_id = job_id
        self.apply_job_title = job["title"]
        self.apply_job_guaranteed = bool(job.get("guaranteed"))
        self.apply_job_when, self.apply_job_total = job.get("when", ""), job.get("total", "")
        self.apply_job_bring = job.get("bring", "")
        self.apply_status = ""
        self.apply_open = True
        return None

    @rx.event
    def set_apply_open(self, is_open: bool):
        """The dialog asks to close (Escape, outside click, 'Cancelar'); opening goes through open_apply_dialog."""
        if is_open is False and not self.apply_submitting:
            self.apply_open = False
            self.apply_errors = _blank()

    @rx.event
    @recovers(SEND_ERROR, UNEXPECTED, reset={"apply_submitting": False})
    async def submit_application(self, form_data: dict):
        """'Enviar candidatura': apply to the targeted job with the optional proposal and message.

        A second submission while one runs, or after this form's job was applied to, is ignored.
        The database work runs on the event loop like every load handler's (a few milliseconds): in a
        worker thread it competed for the GIL with the busy loop and was several times slower under load
        (docs/performance.md, event round trip).
        """
        if self.apply_submitting:
            return
        job_id = valid_id(self.apply_job_id) or self._job_of_page()
        if job_id is None:
            yield rx.toast.error(SEND_ERROR, description=applications.JOB_UNAVAILABLE)
            return
        if job_id in self.applied_job_ids and self.apply_status:
            return  # a repeated click whose first submission already went through
        self.apply_submitting = True
        self.apply_errors = _blank()
        yield

        data = form_data if isinstance(form_data, dict) else {}
        data = {field: data.get(field) for field in APPLY_FIELDS if isinstance(data.get(field), str)}

        def _apply() -> None:
            user = self._caller()
            if user is None:
                raise ServiceError(SIGN_IN_FIRST)
            with session_scope() as db:
                applications.apply(db, user.id, user.role, job_id, data)

        try:
            _apply()
        except ServiceError as exc:
            self.apply_submitting = False
            if exc.field_errors:
                self.apply_errors = {**_blank(), **{k: v for k, v in exc.field_errors.items() if k in APPLY_FIELDS}}
                return
            if exc.message == applications.ALREADY_APPLIED:
                self._mark_applied(job_id, self._status_of(job_id))
            yield rx.toast.error(SEND_ERROR, description=exc.message)
            return
        self.apply_submitting = False
        self._mark_applied(job_id, "pending")
        self.apply_open = False
        yield _SENT_TOAST

    def _job_of_page(self) -> int | None:
        """On /jobs/{id}, the job of the URL (what `load_for_job` targets).

        A tab whose server state was dropped while the page stayed open (idle past Reflex's state
        expiry, an hour) submits with a fresh state; the job page's form is for the job of its URL.
        """
        path = self.router.url.path
        return routes.job_id_from_path(path) if path.startswith(routes.JOBS + "/") else None

    def _status_of(self, job_id: int) -> str:
        user = self._current_user()
        if user is None:
            return ""
        with session_scope() as db:
            return applications.has_applied(db, user.id, job_id)

    def _mark_applied(self, job_id: int, status: str) -> None:
        if not status:
            return
        self.apply_status = status
        if job_id not in self.applied_job_ids:
            self.applied_job_ids = [*self.applied_job_ids, job_id]
        self.apply_open = False
