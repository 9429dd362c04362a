"""The state of /freelancer-dashboard: the tab of ?tab= and the data it shows, for the signed-in freelancer.

`FreelancerDashboardState` loads the overview (counters, checklist, recent applications, the next
shift, invites, companies), the job search, the applications, the shifts and the earnings; the
shared parts come from the mixins of states/ and the apply form from ApplyState.
"""

from dataclasses import replace
from typing import ClassVar

import reflex as rx

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
