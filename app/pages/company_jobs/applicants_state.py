"""The applications dialog of 'Minhas Vagas': one job's applicants, the answers, and a freelancer's profile.

`ApplicantsMixin` lists a job's applicant cards (paged), accepts ('Aceitar', or 'Aceitar e pagar'
through Stripe Checkout for a guaranteed vaga, with the 'Termômetro de vínculo' box when it is
red) and rejects them, and opens the profile of a freelancer who applied. The services load every
application by id AND owner.
"""

from collections.abc import Callable

import reflex as rx

from app.pages.company_jobs.lists_state import ERROR, JobListsMixin
from core.db import session_scope
from core.ids import valid_id
from services.common.errors import ServiceError
from services.jobs.company_jobs import JOB_NOT_FOUND
from services.shifts import applicant_list, application_answers, applications
from services.shifts.applicant_list import ApplicantCard, FreelancerProfileView
from states.failures import failed, recovers
from states.messages import UNEXPECTED
from states.protected_payments import checkout_url, refusal_toast

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


def _accept_for_payment(company_id: int, application_id: int, bond_ack: bool) -> int | None:
    """Accept (committed) and return the hiring waiting for the company's payment (None when there is none)."""
    with session_scope() as db:
        application_answers.accept(db, company_id, application_id, bond_ack)
        return application_answers.hiring_to_pay(db, company_id, application_id)


class ApplicantsMixin(JobListsMixin, mixin=True):
    """The applications dialog and the freelancer profile dialog (the view is app/pages/company_jobs/applicants.py)."""

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
    bond_acknowledged: list[int] = []  # applications whose red 'Termômetro de vínculo' box is ticked
    profile_open: bool = False
    profile: FreelancerProfileView = EMPTY_FREELANCER

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
        """After an answer: the cards shown, in their places, as they are now (see applicant_list.reread_cards)."""
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
