"""/categories/[category]: the companies with open jobs in one category, a page (?page=N) at a time."""

from typing import TypedDict

import reflex as rx

from app.layout import first_title, page_title, public_page
from components.links import link_button
from components.pager import pager
from components.punctuality import punctual_details
from components.ui import empty_state
from core import routes, seo
from core.catalog import CATEGORIES, canonical_category
from core.db import session_scope
from core.text import positive_int
from services.common.paging import PagerLink, pager_fields
from services.jobs import category_companies, visibility
from states.auth import freelancer_viewer
from states.failures import recovers

DEFAULT_TITLE = "Empresas por categoria"
LOAD_ERROR = ("Erro ao carregar dados", "Não foi possível carregar as empresas desta categoria.")


class CompanyCard(TypedDict):
    """A company as the category page shows it."""

    id: int
    name: str
    photo: str
    jobs_text: str
    href: str
    punctual: bool  # 'Empresa Pontual' (services/trust/punctuality.py)
    punctual_summary: str  # its figures in one line ('' without the badge)


def open_jobs_text(count: int) -> str:
    """'1 vaga disponível' / 'N vagas disponíveis'."""
    return "1 vaga disponível" if count == 1 else f"{count} vagas disponíveis"


class CategoryState(rx.State):
    """The category page: which category, and its companies."""

    slug: str = ""
    label: str = ""
    known: bool = True
    companies: list[CompanyCard] = []
    total: int = 0
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""
    loading: bool = True

    @rx.var
    def page_title(self) -> str:
        """The browser title, as the page's first HTML says: 'Vagas de Eventos: empresas contratando | Turno'."""
        if not self.known:
            return page_title(seo.MISSING_CATEGORY_TITLE)
        return page_title(seo.category_title(self.label) if self.label else DEFAULT_TITLE)

    @rx.event
    @recovers(*LOAD_ERROR, reset={"loading": False})
    async def load(self):
        """Read the category from the path; English slugs go to the canonical page.

        A signed-in freelancer does not see companies a block stands between them and.
        """
        requested = routes.last_segment(self.router.url.path)
        canonical = canonical_category(requested)
        if canonical is not None and canonical != requested:
            return rx.redirect(routes.category(canonical), replace=True)
        self.slug = canonical or ""
        self.label = CATEGORIES.get(self.slug, "")
        self.known = canonical is not None
        self.companies = []
        self.total = 0
        self.pager_items = []
        if not self.known:
            self.loading = False
            return None
        page = positive_int(self.router.url.query_parameters.get("page"), 1)
        freelancer = await freelancer_viewer(self)
        with session_scope() as db:
            result = category_companies.companies_in_category(
                db, canonical, page, visibility.hidden_for(db, freelancer)
            )
        fields = pager_fields(result.page, result.pages, lambda number: routes.category(canonical, number))
        self.pager_items, self.prev_href, self.next_href = fields["links"], fields["prev_href"], fields["next_href"]
        self.total = result.total
        self.companies = [
            CompanyCard(
                id=company["id"],
                name=company["name"],
                photo=company["photo"],
                jobs_text=open_jobs_text(company["open_jobs"]),
                href=routes.jobs(category=canonical, company=company["id"]),
                punctual=company["punctual"],
                punctual_summary=company["punctual_summary"],
            )
            for company in result.items
        ]
        self.loading = False
        return None


def company_card(company: rx.Var) -> rx.Component:
    """A company with its number of open jobs, its 'Empresa Pontual' (opening its figures) and a link to its jobs."""
    return rx.card(
        rx.flex(
            rx.hstack(
                rx.cond(
                    company["photo"] != "",
                    rx.el.img(src=company["photo"].to(str), alt="", class_name="turno-company-photo"),
                    rx.icon("building-2", size=28, color=rx.color("accent", 9), flex_shrink="0"),
                ),
                rx.vstack(
                    rx.heading(company["name"], as_="h2", size="4"),
                    rx.text(company["jobs_text"], color=rx.color("gray", 11), size="2"),
                    rx.cond(company["punctual"].to(bool), punctual_details(company["punctual_summary"])),
                    spacing="1",
                ),
                spacing="3",
                align="center",
            ),
            link_button(
                "Ver vagas",
                href=company["href"],
                variant="soft",
                aria_label="Ver vagas de " + company["name"].to(str),
            ),
            justify="between",
            align="center",
            gap="3",
            wrap="wrap",
        ),
        width="100%",
    )


def known_category() -> rx.Component:
    """Heading, total line and companies (or the empty state)."""
    return rx.vstack(
        rx.heading(
            rx.cond(CategoryState.label != "", "Empresas - " + CategoryState.label, "Empresas"), as_="h1", size="8"
        ),
        rx.cond(
            CategoryState.loading,
            rx.text("Carregando empresas...", role="status", color=rx.color("gray", 11)),
            rx.cond(
                CategoryState.companies.length() > 0,
                rx.vstack(
                    rx.text(
                        "Encontramos ",
                        CategoryState.total.to(str),
                        " empresa(s) que oferecem vagas nesta categoria.",
                        color=rx.color("gray", 11),
                        id="total-empresas",
                    ),
                    rx.grid(
                        rx.foreach(CategoryState.companies, company_card),
                        columns=rx.breakpoints(initial="1", md="2"),
                        spacing="4",
                        width="100%",
                    ),
                    pager(CategoryState.pager_items, CategoryState.prev_href, CategoryState.next_href),
                    spacing="4",
                    width="100%",
                ),
                empty_state(
                    "building",
                    "Nenhuma empresa encontrada nesta categoria.",
                    "",
                    link_button("Ver todas as vagas", href=routes.JOBS, variant="outline"),
                ),
            ),
        ),
        spacing="4",
        width="100%",
        align="stretch",
    )


def unknown_category() -> rx.Component:
    """A category slug that does not exist."""
    return rx.vstack(
        rx.heading("Categoria não encontrada", as_="h1", size="8"),
        empty_state(
            "folder-x",
            "Nenhuma empresa encontrada nesta categoria.",
            "Esta categoria não existe. Veja a lista de categorias disponíveis.",
            link_button("Ver categorias", href=routes.CATEGORIES, variant="outline"),
        ),
        spacing="4",
        width="100%",
        align="stretch",
    )


@public_page(
    routes.CATEGORY,
    rx.cond(CategoryState.loading, first_title(page_title(DEFAULT_TITLE)), CategoryState.page_title),
    on_load=[CategoryState.load],
    description=None,  # the server writes the category's own (app/api/public_pages.py)
)
def category_page() -> rx.Component:
    """The companies with open jobs in the category of the URL."""
    return rx.cond(CategoryState.known, known_category(), unknown_category())
