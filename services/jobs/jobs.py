"""Public job browsing: searching and filtering the list of vagas, and how a vaga's company and category are shown.

Only jobs with status open that are not archived are public. Searching and filtering happen in the
database on the folded columns `busca` and `cidade_busca` (see models.job), never by loading every
job into Python. One vaga's page is services/jobs/job_detail.py; the companies of a category are
services/jobs/category_companies.py.
"""

import math
from typing import TypedDict

from sqlalchemy import column, false, func, literal_column, table
from sqlmodel import Session, col, select

from core.catalog import CATEGORIES, JOBS_PAGE_SIZE, canonical_category
from core.display_names import CONFIDENTIAL_COMPANY
from core.formatting import hourly_pay, long_date
from core.ratings import RatingSummary
from core.shift_format import shift_text
from core.text import city_key, fold
from models import Job, PaymentMode, Profile, Rating
from models.job import SEARCH_INDEX_TABLE, SEARCH_SEPARATOR
from services.common.paging import Page
from services.jobs import job_lifecycle, job_list_cache, list_version, shift_pay, visibility

UNKNOWN_COMPANY = "Empresa não informada"
SEARCH_MAX_LENGTH = 100
_SEARCH_INDEX = table(SEARCH_INDEX_TABLE, column("rowid"))


class JobListItem(TypedDict):
    """One row of the public job list."""

    id: int
    title: str
    category: str
    category_label: str
    company: str
    company_photo: str
    location: str
    pay: str
    total: str  # 'R$ 165,00 pelo turno' (services.jobs.shift_pay.shift_total_text; '' for 'A combinar')
    shift: str
    posted: str
    company_rating: str  # '4,8 (12 avaliações)'; '' when anonymous or not rated yet
    guaranteed: bool  # 'Pagamento garantido pelo Turno' (its badge on the list)
    punctual: bool  # 'Empresa Pontual' (services/trust/punctuality.py); never on an anonymous vaga
    punctual_summary: str  # its figures in one line ('' without the badge), from the same statement


JobPage = Page[JobListItem]
"""One page of the public job list, newest first (services.common.paging.Page)."""


def category_label(slug: str) -> str:
    """The label of a category slug (English aliases included); the slug itself when unknown."""
    canonical = canonical_category(slug)
    return CATEGORIES[canonical] if canonical else slug


def search_term(text: str) -> str:
    """Fold a search text the way `Job.busca` is folded (separator removed, length capped).

    Args:
        text: What the user typed.

    Returns:
        The folded term; empty when nothing searchable remains.
    """
    return fold((text or "")[:SEARCH_MAX_LENGTH].replace(SEARCH_SEPARATOR, " "))


def company_name(anonymous: bool, empresa: str | None, nome: str | None) -> str:
    """What the public sees as a job's company.

    Args:
        anonymous: Whether the job is published anonymously.
        empresa: The company profile's company name (None when the profile is missing).
        nome: The company profile's person name.

    Returns:
        'Empresa Confidencial', the company name, the person's name or 'Empresa não informada'.
    """
    if anonymous:
        return CONFIDENTIAL_COMPANY
    return (empresa or "").strip() or (nome or "").strip() or UNKNOWN_COMPANY


def _search_condition(term: str, dialect: str):
    """`busca` contains the folded `term`, written so an index serves it on each engine.

    PostgreSQL: `busca LIKE '%term%'`, served by the pg_trgm GIN index (revision 0002). SQLite: a
    phrase query on the FTS5 trigram index (revision 0004), which is an exact substring match for
    terms of three characters or more (its LIKE form re-reads every candidate row: far slower,
    docs/performance.md); shorter terms scan `busca` instead (still correct).
    """
    if dialect == "sqlite" and len(term) >= 3:
        phrase = '"' + term.replace('"', '""') + '"'  # inside quotes FTS5 syntax is literal
        matches = select(_SEARCH_INDEX.c.rowid).where(literal_column(SEARCH_INDEX_TABLE).op("MATCH")(phrase))
        return col(Job.id).in_(matches)
    return col(Job.busca).contains(term, autoescape=True)


def filters(
    term: str,
    city_folded: str,
    slug: str | None,
    company_id: int | None,
    dialect: str = "",
    guaranteed: bool = False,
    hidden: visibility.Hidden = visibility.NOTHING_HIDDEN,
) -> list:
    """SQL conditions for the list filters, already folded (`search_term`, `fold`, `canonical_category`).

    `dialect` is the database's (e.g. "sqlite"), so the search uses that engine's index; `guaranteed`
    keeps only the vagas with 'Pagamento garantido pelo Turno'; `hidden` leaves out what a signed-in
    freelancer's blocks and hidden vagas keep from them (services/jobs/visibility.py).
    """
    conditions = [job_lifecycle.public(), *hidden.conditions()]
    if guaranteed:
        conditions.append(col(Job.pagamento) == PaymentMode.GUARANTEED)
    if term:
        conditions.append(_search_condition(term, dialect))
    if city_folded:
        conditions.append(col(Job.cidade_busca) == city_folded)
    if slug:
        conditions.append(col(Job.categoria) == slug)
    if company_id is not None:
        conditions.append(col(Job.cliente_id) == company_id)
        conditions.append(col(Job.anuncio_anonimo) == false())
    return conditions


def list_public_jobs(
    db: Session,
    *,
    search: str = "",
    city: str = "",
    category: str = "",
    page: int = 1,
    company_id: int | None = None,
    guaranteed: bool = False,
    hidden: visibility.Hidden = visibility.NOTHING_HIDDEN,
) -> JobPage:
    """One page of the open, non-archived jobs matching the filters, newest first.

    The count and the page come from services.jobs.job_list_cache while the list's token
    (services/jobs/list_version.py) is the one they were computed under; otherwise from the database.

    Args:
        db: Open database session.
        search: Case- and accent-insensitive substring of the title or category (label or slug).
        city: The city ('Curitiba', or 'Curitiba, PR': the part before a comma or ' - '), equal to the
            job's city ignoring case and accents.
        category: A category slug (English aliases accepted); an unknown slug matches nothing.
        page: The 1-based page wanted; clamped to the pages that exist.
        company_id: Only this company's jobs, anonymous ones excluded (they must not be tied to it).
        guaranteed: Only the vagas with 'Pagamento garantido pelo Turno' (`pagamento` 'garantido').
        hidden: What the viewer must not see (services.jobs.visibility.hidden_for); each one is its own
            cache entry, and most viewers have nothing hidden.

    Returns:
        The page, with the total count and the number of pages.
    """
    slug = canonical_category(category)
    if category and slug is None:
        return JobPage()  # an unknown category matches nothing
    bind = db.get_bind()
    token = list_version.current(db)  # before the queries: a write after it can only make the entry miss
    term, city_folded = search_term(search), city_key(city)
    scope = (bind.url.render_as_string(), term, city_folded, slug, company_id, bool(guaranteed), hidden.key())

    def conditions() -> list:  # built only when the cache misses: most visitors never need them
        return filters(term, city_folded, slug, company_id, bind.dialect.name, bool(guaranteed), hidden)

    total = job_list_cache.counts.get_or_compute(scope, token, lambda: _count(db, conditions()))
    pages = max(1, math.ceil(total / JOBS_PAGE_SIZE))
    page = min(max(1, page), pages)
    items = job_list_cache.pages.get_or_compute((scope, page), token, lambda: _page_items(db, conditions(), page))
    return JobPage(items=[JobListItem(**item) for item in items], total=total, page=page, pages=pages)


def count_statement(conditions: list):
    """How many jobs meet `conditions` (the list's count; bench/job_search.py runs it bare)."""
    return select(func.count()).select_from(Job).where(*conditions)


def page_statement(conditions: list, page: int):
    """Page `page` (1-based) of the jobs meeting `conditions`, newest first, with the shown company columns."""
    return (
        select(
            Job.id,
            Job.titulo,
            Job.categoria,
            Job.localizacao,
            Job.valor_hora,
            Job.criado_em,
            Job.inicio_em,
            Job.fim_em,
            Job.intervalo_min,
            Job.anuncio_anonimo,
            Job.pagamento,
            Profile.empresa,
            Profile.nome,
            Profile.foto_url,
            Profile.selo_pontual,
            Profile.selo_resumo,
            *company_rating_columns(Job.cliente_id),
        )
        .join(Profile, col(Profile.user_id) == col(Job.cliente_id), isouter=True)
        .where(*conditions)
        .order_by(col(Job.criado_em).desc(), col(Job.id).desc())
        .offset((page - 1) * JOBS_PAGE_SIZE)
        .limit(JOBS_PAGE_SIZE)
    )


def _count(db: Session, conditions: list) -> int:
    """How many jobs meet `conditions`."""
    return db.exec(count_statement(conditions)).one()


def _page_items(db: Session, conditions: list, page: int) -> list[JobListItem]:
    """Page `page` (1-based, JOBS_PAGE_SIZE rows) of the jobs meeting `conditions`, newest first."""
    return _items(db.exec(page_statement(conditions, page)).all())


def _items(rows) -> list[JobListItem]:
    """The list's rows (`page_statement`) as the list's items."""
    return [
        JobListItem(
            id=row.id,
            title=row.titulo,
            category=canonical_category(row.categoria) or row.categoria,
            category_label=category_label(row.categoria),
            company=company_name(row.anuncio_anonimo, row.empresa, row.nome),
            company_photo="" if row.anuncio_anonimo else (row.foto_url or ""),
            location=row.localizacao,
            pay=hourly_pay(row.valor_hora),
            total=shift_pay.shift_total_text(row),
            shift=shift_text(row.inicio_em, row.fim_em, row.intervalo_min),
            posted=long_date(row.criado_em),
            company_rating=shown_rating(row),
            guaranteed=row.pagamento == PaymentMode.GUARANTEED,
            punctual=bool(row.selo_pontual) and not row.anuncio_anonimo,
            punctual_summary=(row.selo_resumo or "") if row.selo_pontual and not row.anuncio_anonimo else "",
        )
        for row in rows
    ]


def company_rating_columns(owner):
    """The average and count of the stars the job's company received (read in the same statement).

    Correlated on the page's rows only (ix_ratings_ratee_created); the list token moves with every
    rating (alembic 0014), so cached pages never show an old figure.

    Args:
        owner: The statement's column of the job's company id.
    """
    received = Rating.ratee_id == owner
    return (
        select(func.avg(Rating.stars)).where(received).scalar_subquery().label("rating_average"),
        select(func.count()).select_from(Rating).where(received).scalar_subquery().label("rating_count"),
    )


def shown_rating(row) -> str:
    """'4,8 (12 avaliações)' for a rated company; '' when it has none or the vaga is anonymous."""
    if row.anuncio_anonimo or not row.rating_count:
        return ""
    return RatingSummary.of(row.rating_average, row.rating_count).text


def team_first_items(db: Session, freelancer_id: int) -> list[JobListItem]:
    """The open team-first vagas of the teams this freelancer is in, newest first (one page at most).

    Not cached: only team members ask, and each one's answer is their own.
    """
    return _items(db.exec(page_statement([visibility.team_first_open(freelancer_id)], 1)).all())
