"""/jobs: the public job list, its filters (kept in the URL query) and pager."""

import json
from typing import TypedDict

import reflex as rx

from app.layout import first_title, page_title, public_page
from components.job_filters import job_filters, no_jobs
from components.links import link_button
from components.pager import pager
from components.punctuality import punctual_details
from components.rating import company_rating
from core import routes
from core.catalog import CATEGORIES, CATEGORY_ALIASES, CITIES, PAYMENT_GUARANTEED_BADGE
from core.db import session_scope
from core.settings import get_settings
from services.common.paging import PagerLink, pager_fields
from services.jobs import category_companies, jobs, visibility
from services.jobs.jobs import JobListItem
from states.auth import freelancer_viewer
from states.failures import recovers
from states.job_search import JobFilters, chosen_category, typed_search
from states.shell import ShellState

DESKTOP_CELL = ["none", "none", "table-cell"]
MOBILE_ONLY = ["flex", "flex", "none"]
VISUALLY_HIDDEN = {
    "position": "absolute",
    "width": "1px",
    "height": "1px",
    "overflow": "hidden",
    "clip": "rect(0 0 0 0)",
    "whiteSpace": "nowrap",
}
RESULTS_MIN_HEIGHT = "70vh"
NBSP = "\u00a0"
LIST_TITLE = "Vagas disponíveis"
# The empty list without any filter: nothing to clear, so no word of filters (issue 42 point 13).
LOAD_ERROR = ("Erro ao carregar vagas", "Não foi possível carregar as vagas disponíveis.")


class FilterChip(TypedDict):
    """An active filter shown in the note above the list, with the URL that removes it."""

    label: str
    remove_href: str
    remove_label: str


class JobsState(rx.State):
    """The job list page: filters read from the URL, one page of results."""

    items: list[JobListItem] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    search: str = ""
    city: str = ""
    category_slug: str = ""
    company_id: int = 0
    guaranteed: bool = False  # ?garantido=1: only 'Pagamento garantido pelo Turno'
    company_name: str = ""
    chips: list[FilterChip] = []
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""
    loading: bool = True
    team_items: list[JobListItem] = []  # 'Primeiro para a sua equipe': a team member's team-first vagas

    @rx.var
    def page_title(self) -> str:
        """The browser title: 'Vagas de Eventos em Curitiba | Turno' for a filtered list, as its first HTML says."""
        filters = JobFilters(
            search=self.search, city=self.city, category=self.category_slug, guaranteed=self.guaranteed
        )
        if filters.is_filtered:
            return f"{filters.subject} | {get_settings().product_name}"
        return page_title(LIST_TITLE)

    @rx.var
    def filtered(self) -> bool:
        """Whether any filter narrows the list (the empty state offers 'Limpar filtros' only then)."""
        return bool(self.search or self.city or self.category_slug or self.company_id or self.guaranteed)

    def _url(self, **changes) -> str:
        """The list URL with the address's filters and `changes` applied (page 1 unless given).

        The filters come from the address the browser is on, not from the state: a person who picks a
        category (or ticks 'Pagamento garantido') before the page has loaded keeps the city and search
        the address already holds.
        """
        current = JobFilters.from_query(self.router.url.query_parameters)
        filters = {
            "city": current.city,
            "search": current.search,
            "category": current.category,
            "company": current.company_id or None,
            "guaranteed": current.guaranteed,
            "page": None,
        }
        filters.update(changes)
        return routes.jobs(**filters)

    def _read_query(self) -> JobFilters:
        """Set the filters from the URL query, and return them."""
        filters = JobFilters.from_query(self.router.url.query_parameters)
        self.search, self.city, self.category_slug = filters.search, filters.city, filters.category
        self.company_id, self.guaranteed = filters.company_id, filters.guaranteed
        return filters

    def _show_nothing(self) -> None:
        """The page after a failed load: no results, not loading."""
        self._show(jobs.JobPage(), None)
        self.loading = False

    def _show(self, result: jobs.JobPage, company_name: str | None) -> None:
        """Copy one page of results, the filter note and the pager into the state."""
        self.items = result.items
        self.total = result.total
        self.page = result.page
        self.pages = result.pages
        self.company_name = company_name or ("Empresa" if self.company_id else "")
        chips = []
        if self.city:
            chips.append(
                FilterChip(label=f"Cidade: {self.city}", remove_href=self._url(city=""), remove_label="cidade")
            )
        if self.search:
            chips.append(
                FilterChip(label=f"Busca: “{self.search}”", remove_href=self._url(search=""), remove_label="busca")
            )
        if self.company_id:
            chips.append(
                FilterChip(
                    label=f"Empresa: {self.company_name}", remove_href=self._url(company=None), remove_label="empresa"
                )
            )
        self.chips = chips
        fields = pager_fields(result.page, result.pages, lambda number: self._url(page=number))
        self.pager_items, self.prev_href, self.next_href = fields["links"], fields["prev_href"], fields["next_href"]

    @rx.event
    @recovers(*LOAD_ERROR, reset=lambda state: state._show_nothing())
    async def load(self):
        """On page load (also when only the query changes): read the filters and load the page.

        The header's city picker is set to the list's city, so it shows what the list is filtered by.
        """
        filters = self._read_query()
        freelancer = await freelancer_viewer(self)
        with session_scope() as db:
            viewer = visibility.viewer_facts(db, freelancer)
            result = filters.results(db, viewer.hidden)
            company_name = category_companies.company_display_name(db, self.company_id) if self.company_id else None
            team = jobs.team_first_items(db, freelancer) if viewer.teams and not self.company_id else []
        self.team_items = team
        self._show(result, company_name)
        self.loading = False
        shell = await self.get_state(ShellState)
        shown = self.city if self.city in CITIES else ""
        if shell.city != shown:
            shell.city = shown

    @rx.event
    def submit_search(self, form_data: dict):
        """Apply the typed search text (blank clears it) and go back to page 1."""
        return rx.redirect(self._url(search=typed_search(form_data)))

    @rx.event
    def choose_category(self, value: str):
        """Filter by a category ('' for all) and go back to page 1."""
        return rx.redirect(self._url(category=chosen_category(value)))

    @rx.event
    def choose_guaranteed(self, checked: bool):
        """'Pagamento garantido' ticked or cleared: only the guaranteed vagas (`garantido=1`) or all, page 1."""
        return rx.redirect(self._url(guaranteed=checked is True))

    @rx.event
    def clear_filters(self):
        """Limpar filtros: drop the search, the category, the company and 'Pagamento garantido'; keep the city."""
        return rx.redirect(routes.jobs(city=JobFilters.from_query(self.router.url.query_parameters).city))


def filter_note() -> rx.Component:
    """The active city, search and company filters, each removable."""
    return rx.cond(
        JobsState.chips.length() > 0,
        rx.flex(
            rx.text("Filtros ativos:", size="2", color=rx.color("gray", 11)),
            rx.foreach(
                JobsState.chips,
                lambda chip: rx.badge(
                    rx.text(chip["label"]),
                    rx.link(
                        rx.icon("x", size=14),
                        href=chip["remove_href"],
                        aria_label="Remover filtro de " + chip["remove_label"].to(str),
                        color=rx.color("accent", 11),
                        display="inline-flex",
                    ),
                    size="2",
                    variant="soft",
                    radius="full",
                    gap="0.35rem",
                ),
            ),
            spacing="2",
            align="center",
            wrap="wrap",
            id="filtros-ativos",
            role="status",
        ),
    )


# Until the list has loaded, the search box shows ?search= read in the browser (the prerendered page
# has no URL; app/api/public_pages.py writes the value into a filtered list's first HTML), so what
# the address asked for is there from the first paint and what a quick person types is kept.
_URL_SEARCH_JS = (
    "((typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('search')) || '')"
    f".slice(0, {jobs.SEARCH_MAX_LENGTH})"
)


# The same for ?category= (English aliases read as their Portuguese slug, an unknown one as all).
_URL_CATEGORY_JS = (
    "((asked) => { const slug = ("
    + json.dumps(CATEGORY_ALIASES)
    + ")[asked] ?? asked; return "
    + json.dumps(list(CATEGORIES))
    + ".includes(slug) ? slug : ''; })("
    "((typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('category')) || '')"
    ".trim().toLowerCase())"
)


def filters() -> rx.Component:
    """Search box, category dropdown and the 'Pagamento garantido' checkbox.

    The checkbox follows the state, not the address: the prerendered page (and so the first HTML)
    has it clear, and a box the browser showed ticked before hydrating would not match it.
    """
    shown = rx.cond(JobsState.loading, rx.Var(_URL_SEARCH_JS).to(str), JobsState.search)
    chosen = rx.cond(JobsState.loading, rx.Var(_URL_CATEGORY_JS).to(str), JobsState.category_slug)
    return job_filters(
        "jobs",
        shown,
        JobsState.submit_search,
        chosen,
        JobsState.choose_category,
        guaranteed=JobsState.guaranteed,
        on_guaranteed=JobsState.choose_guaranteed,
    )


def guaranteed_badge() -> rx.Component:
    """'Pagamento garantido' on a row whose vaga is paid through the Turno."""
    return rx.badge(
        rx.icon("shield-check", size=14, aria_hidden="true"),
        PAYMENT_GUARANTEED_BADGE,
        color_scheme="green",
        variant="soft",
        high_contrast=True,  # the soft green text alone is below 4.5:1 on the row (axe color-contrast)
        class_name="job-guaranteed",
    )


def job_row(job: rx.Var) -> rx.Component:
    """One job: title, category and company; location, pay and date on wide screens; details link.

    'Empresa Pontual' has a line of its own: the badge opens its figures and 'Como calculamos'.
    """
    return rx.table.row(
        rx.table.cell(
            rx.vstack(
                rx.text(job["title"], weight="bold", size="3"),
                rx.hstack(
                    rx.badge(job["category_label"], variant="soft"),
                    rx.cond(
                        job["company_photo"] != "",
                        rx.el.img(src=job["company_photo"].to(str), alt="", class_name="turno-company-thumb"),
                    ),
                    rx.text(job["company"], size="2", color=rx.color("gray", 11)),
                    company_rating(job["company_rating"]),
                    rx.cond(job["guaranteed"].to(bool), guaranteed_badge()),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.cond(job["punctual"].to(bool), punctual_details(job["punctual_summary"])),
                rx.cond(
                    job["shift"] != "",
                    rx.text(job["shift"], size="2", color=rx.color("gray", 11), class_name="job-shift"),
                ),
                rx.flex(
                    rx.text(job["location"]),
                    rx.text("·", aria_hidden="true"),
                    rx.text(job["pay"]),
                    rx.cond(job["total"] != "", rx.text("·", aria_hidden="true")),
                    rx.cond(job["total"] != "", rx.text(job["total"], class_name="job-total")),
                    spacing="1",
                    wrap="wrap",
                    size="2",
                    color=rx.color("gray", 11),
                    display=MOBILE_ONLY,
                    font_size="0.875rem",
                ),
                spacing="1",
            )
        ),
        rx.table.cell(job["location"], display=DESKTOP_CELL),
        rx.table.cell(
            rx.vstack(
                rx.text(job["pay"]),
                rx.cond(job["total"] != "", rx.text(job["total"], size="1", color=rx.color("gray", 11))),
                spacing="0",
            ),
            display=DESKTOP_CELL,
            white_space="nowrap",
        ),
        rx.table.cell(job["posted"], display=DESKTOP_CELL, white_space="nowrap"),
        rx.table.cell(
            link_button(
                "Ver detalhes",
                href=rx.Var.create(routes.JOBS + "/") + job["id"].to(str),
                variant="outline",
                size="2",
                aria_label="Ver detalhes da vaga " + job["title"].to(str),
                white_space="nowrap",
            ),
            text_align="right",
        ),
        align="center",
    )


def job_table() -> rx.Component:
    """The results table with its pager."""
    return rx.box(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell("Vaga"),
                    rx.table.column_header_cell("Local", display=DESKTOP_CELL),
                    rx.table.column_header_cell("Valor por hora", display=DESKTOP_CELL),
                    rx.table.column_header_cell("Postado em", display=DESKTOP_CELL),
                    rx.table.column_header_cell(rx.el.span("Ações", style=VISUALLY_HIDDEN)),
                )
            ),
            rx.table.body(rx.foreach(JobsState.items, job_row)),
            variant="surface",
            width="100%",
            id="jobs-table",
        ),
        pager(JobsState.pager_items, JobsState.prev_href, JobsState.next_href),
        width="100%",
    )


def team_first_section() -> rx.Component:
    """'Primeiro para a sua equipe': the team-first vagas a team member sees before everyone else."""
    return rx.cond(
        JobsState.team_items.length() > 0,
        rx.vstack(
            rx.heading("Primeiro para a sua equipe", as_="h2", size="5"),
            rx.text(
                "Empresas que têm você na equipe oferecem estas vagas primeiro a vocês. Depois elas abrem para todos.",
                size="2",
                color=rx.color("gray", 11),
            ),
            rx.table.root(
                rx.table.body(rx.foreach(JobsState.team_items, job_row)),
                variant="surface",
                width="100%",
            ),
            spacing="2",
            width="100%",
            id="team-first-jobs",
        ),
    )


def results() -> rx.Component:
    """Loading text, the empty state or the table.

    The results arrive over the websocket after the page shows. The area keeps a minimum height
    (RESULTS_MIN_HEIGHT) in every state, so the footer starts below the fold and does not jump
    when the list replaces the loading text (Lighthouse measured a layout shift of 0.27 on mobile).
    """
    return rx.box(
        rx.cond(
            JobsState.loading,
            rx.text("Carregando vagas disponíveis...", role="status", color=rx.color("gray", 11), padding_y="2rem"),
            rx.cond(
                JobsState.total > 0,
                job_table(),
                no_jobs(JobsState.filtered, JobsState.clear_filters),
            ),
        ),
        min_height=RESULTS_MIN_HEIGHT,
        width="100%",
    )


@public_page(
    routes.JOBS,
    rx.cond(JobsState.loading, first_title(page_title(LIST_TITLE)), JobsState.page_title),
    on_load=[JobsState.load],
)
def jobs_page() -> rx.Component:
    """Title, active filters, search and category filters, the results and the pager."""
    return rx.vstack(
        rx.vstack(
            rx.heading(LIST_TITLE, as_="h1", size="8"),
            # The count's line is there while loading too (blank), so nothing below it moves.
            rx.text(
                rx.cond(
                    JobsState.loading,
                    NBSP,
                    rx.cond(JobsState.total == 1, "1 vaga encontrada", JobsState.total.to(str) + " vagas encontradas"),
                ),
                color=rx.color("gray", 11),
                size="3",
            ),
            spacing="2",
        ),
        filter_note(),
        filters(),
        team_first_section(),
        results(),
        spacing="5",
        width="100%",
        align="stretch",
    )
