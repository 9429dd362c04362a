"""The job search both job lists share: /jobs and the freelancer dashboard's 'Buscar Vagas'.

Their filters live in the URL query, so a search can be linked, reloaded and paged. This module
reads them from the query (clipped and canonical whatever a browser sends), cleans what the search
bar sends, and runs the search; each page keeps its own URLs and the way it shows the results.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from core.catalog import CATEGORIES, canonical_category
from core.ids import id_from_text
from core.text import clipped, positive_int
from services.jobs import jobs, visibility

CITY_MAX_LENGTH = 120
CATEGORY_MAX_LENGTH = 32
GUARANTEED_PARAM = "garantido"  # ?garantido=1: only the vagas with 'Pagamento garantido pelo Turno'
_YES = frozenset({"1", "true", "sim"})


@dataclass(frozen=True)
class JobFilters:
    """The filters of a job search, as read from `?search=&city=&category=&empresa=&garantido=&page=`."""

    search: str = ""
    city: str = ""
    category: str = ""
    company_id: int = 0
    page: int = 1
    guaranteed: bool = False

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> "JobFilters":
        """The filters of a URL query; an unknown category, a bad company or page read as none.

        `garantido` is on for '1' (what core/routes.jobs writes), 'true' or 'sim'; anything else is off.
        """
        return cls(
            search=clipped(query.get("search"), jobs.SEARCH_MAX_LENGTH),
            city=clipped(query.get("city"), CITY_MAX_LENGTH),
            category=canonical_category(clipped(query.get("category"), CATEGORY_MAX_LENGTH)) or "",
            company_id=id_from_text(query.get("empresa")) or 0,
            page=positive_int(query.get("page"), 1),
            guaranteed=clipped(query.get(GUARANTEED_PARAM), 8).lower() in _YES,
        )

    @property
    def is_filtered(self) -> bool:
        """Whether a city, category, search or 'Pagamento garantido' narrows the list.

        The company filter is a link, not a page of its own.
        """
        return bool(self.city or self.category or self.search or self.guaranteed)

    @property
    def subject(self) -> str:
        """What the list shows, in words: 'Vagas de Eventos com pagamento garantido em Curitiba para “garçom”'.

        The server's first HTML (app/api/public_pages.py) and the connected page (app/pages/jobs.py)
        both title the list with it.
        """
        label = CATEGORIES[self.category] if self.category else ""
        subject = f"Vagas de {label}" if label else "Vagas temporárias"
        guaranteed = " com pagamento garantido" if self.guaranteed else ""
        where = f" em {self.city}" if self.city else ""
        searched = f" para “{self.search}”" if self.search else ""
        return f"{subject}{guaranteed}{where}{searched}"

    def results(self, db, hidden: visibility.Hidden = visibility.NOTHING_HIDDEN) -> jobs.JobPage:
        """The page of public jobs these filters ask for (filtered and paged in the database).

        `hidden`: what the viewer must not see (services.jobs.visibility.hidden_for).
        """
        return jobs.list_public_jobs(
            db,
            search=self.search,
            city=self.city,
            category=self.category,
            page=self.page,
            company_id=self.company_id or None,
            guaranteed=self.guaranteed,
            hidden=hidden,
        )


def typed_search(form_data: object) -> str:
    """The text the search bar's form sent (blank when the form is missing or malformed)."""
    text = form_data.get("search") if isinstance(form_data, dict) else ""
    return clipped(text, jobs.SEARCH_MAX_LENGTH)


def chosen_category(value: object) -> str:
    """The category the select sent, when it is one of ours ('' for all)."""
    return value if isinstance(value, str) and value in CATEGORIES else ""
