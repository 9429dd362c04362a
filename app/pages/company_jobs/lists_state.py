"""The company's three job lists of 'Minhas Vagas', the mixin every other part of its state builds on.

`JobListsMixin` resolves the signed-in company (`_company_id`), holds the Ativas, Encerradas and
Arquivadas lists with their totals, the search and 'Carregar mais', reloads them after an action
(`_load_jobs`) and keeps the plan-limit message the tab shows.
"""

import reflex as rx

from core.db import session_scope
from models import Role
from services.screens import company_dashboard, dashboard
from services.screens.company_dashboard import JobRow
from states.auth import AuthState
from states.failures import failed, recovers

SEARCH_MAX = 100
ERROR = "Erro"
LOAD_JOBS_FAILED = ("Erro ao carregar vagas", "Não foi possível carregar suas vagas. Por favor, tente novamente.")


class JobListsMixin(AuthState, mixin=True):
    """The company's jobs (active, closed, archived) filtered by the search, and the company check.

    The publish form, the applicants and `CompanyJobsState` build on it: `_company_id` is how
    every handler resolves the caller, `_load_jobs` how each reloads the lists after a change.
    """

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
    def set_search(self, value: str):
        """'Buscar vagas': filter on the server by title, category or location (accents and case ignored)."""
        company_id = self._company_id()
        if company_id is None:
            return None
        self.search = value.strip()[:SEARCH_MAX] if isinstance(value, str) else ""
        return self._load_jobs(company_id, keep_shown=False)
