"""Public job browsing: the job list, the companies of a category and the job detail.

Only jobs with status open that are not archived are public. Searching and filtering happen in the
database on the folded columns `busca` and `cidade_busca` (see models.job), never by loading every
job into Python.
"""

import math
from datetime import UTC, datetime
from typing import TypedDict

from sqlalchemy import bindparam, column, false, func, literal_column, table
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from core.catalog import (
    CATEGORIES,
    JOBS_PAGE_SIZE,
    PAYMENT_DIRECT,
    PAYMENT_DIRECT_NOTE,
    PAYMENT_GUARANTEED,
    PAYMENT_GUARANTEED_NOTE,
    canonical_category,
)
from core.display_names import CONFIDENTIAL_COMPANY
from core.formatting import hourly_pay, long_date, safe_website
from core.ratings import RatingSummary
from core.shift_format import map_url, shift_text, shift_when
from core.text import city_key, fold
from models import Job, Profile, Rating
from models.job import SEARCH_INDEX_TABLE, SEARCH_SEPARATOR
from services.common import paging
from services.common.paging import Page
from services.common.social import SocialLink, social_links
from services.jobs import job_lifecycle, job_list_cache, list_version, shift_pay, visibility

UNKNOWN_COMPANY = "Empresa não informada"
SEARCH_MAX_LENGTH = 100
_SEARCH_INDEX = table(SEARCH_INDEX_TABLE, column("rowid"))
_JOBS, _PROFILES = Job.__table__, Profile.__table__  # type: ignore[attr-defined]
COMPANIES_PAGE_SIZE = paging.DASHBOARD_PAGE_SIZE
GUARANTEED = "garantido"  # `Job.pagamento` of a vaga paid through the Turno (services/money/)


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


class CompanyInCategory(TypedDict):
    """A company with public jobs in a category, and how many."""

    id: int
    name: str
    photo: str
    open_jobs: int
    punctual: bool  # 'Empresa Pontual' (services/trust/punctuality.py); anonymous vagas are not counted here
    punctual_summary: str  # its figures in one line ('' without the badge)


class JobDetail(TypedDict):
    """Everything a visitor may see of a public job (no owner id when it is anonymous)."""

    id: int
    title: str
    category: str
    category_label: str
    company: str
    anonymous: bool
    company_id: int
    company_photo: str
    company_bio: str
    company_site: str
    company_links: list[SocialLink]
    location: str
    pay: str
    total: str  # 'R$ 165,00 pelo turno' (services.jobs.shift_pay.shift_total_text; '' for 'A combinar')
    when: str  # 'sáb., 12/12 · 18:00–23:30': what the apply form restates ('' without times)
    date_needed: str
    duration: str
    shift: str
    address: str
    map_url: str
    bring: str  # 'Traje e o que levar' (core/catalog.BRING_LABEL; '' when the company said nothing)
    description: str
    skills: list[str]
    transport_voucher: bool
    meal_on_site: bool
    has_break: bool
    positions: int
    posted: str
    company_rating: str  # '4,8 (12 avaliações)'; '' when anonymous or not rated yet
    payment: str  # how the vaga is paid (core/catalog.PAYMENT_DIRECT or PAYMENT_GUARANTEED)
    payment_note: str  # what that means for the freelancer (PAYMENT_DIRECT_NOTE or PAYMENT_GUARANTEED_NOTE)
    guaranteed: bool  # paid through the Turno ('garantido'), not directly by the company
    punctual: bool  # the company's 'Selo Empresa Pontual' (never on an anonymous vaga)
    punctual_summary: str  # its figures in one line ('' without the badge)
    # Raw facts for search engines (core/seo.py JobPosting): ISO instants in UTC, '' when unknown.
    posted_at: str
    starts_at: str
    day_needed: str
    hourly_rate: float


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


def _filters(
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
        conditions.append(col(Job.pagamento) == GUARANTEED)
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
        return _filters(term, city_folded, slug, company_id, bind.dialect.name, bool(guaranteed), hidden)

    total = job_list_cache.counts.get_or_compute(scope, token, lambda: _count(db, conditions()))
    pages = max(1, math.ceil(total / JOBS_PAGE_SIZE))
    page = min(max(1, page), pages)
    items = job_list_cache.pages.get_or_compute((scope, page), token, lambda: _page_items(db, conditions(), page))
    return JobPage(items=[JobListItem(**item) for item in items], total=total, page=page, pages=pages)


SIMILAR_JOBS = 4


def _ever_public():
    """Not held for a team or an invite: a vaga outsiders may know exists (team-first and private ones answer 404)."""
    return col(Job.equipe_ate).is_(None) & (col(Job.privada) == false())


def job_exists(db: Session, job_id: int) -> bool:
    """Whether a vaga with this id exists for outsiders (open or not): a closed one's page answers 410, a missing one 404."""
    return db.exec(select(Job.id).where(Job.id == job_id, _ever_public())).first() is not None


def similar_to_unavailable(
    db: Session, job_id: int, hidden: visibility.Hidden = visibility.NOTHING_HIDDEN
) -> list[JobListItem] | None:
    """For a job that exists but is no longer public: up to SIMILAR_JOBS open jobs like it.

    Same category in the same city first, then the same category anywhere, newest first (through
    `list_public_jobs`, so its cache serves most of them). An old alert or a shared link to a
    closed vaga leads somewhere useful instead of a dead end.

    Args:
        db: Open database session.
        job_id: The vaga asked for.
        hidden: What the viewer must not see (services.jobs.visibility.hidden_for): a blocked freelancer
            finds that company's vaga unavailable, and none of its others here.

    Returns:
        The similar open jobs (maybe none), or None when there is no such job at all.
    """
    row = db.exec(select(Job.categoria, Job.cidade_busca).where(Job.id == job_id, _ever_public())).first()
    if row is None:
        return None
    slug = canonical_category(row.categoria) or ""
    found = list_public_jobs(db, city=row.cidade_busca or "", category=slug, hidden=hidden).items[:SIMILAR_JOBS]
    if len(found) < SIMILAR_JOBS and row.cidade_busca:
        shown = {item["id"] for item in found}
        found += [item for item in list_public_jobs(db, category=slug, hidden=hidden).items if item["id"] not in shown]
    return [item for item in found if item["id"] != job_id][:SIMILAR_JOBS]


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
            *_company_rating_columns(Job.cliente_id),
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
            company_rating=_shown_rating(row),
            guaranteed=row.pagamento == GUARANTEED,
            punctual=bool(row.selo_pontual) and not row.anuncio_anonimo,
            punctual_summary=(row.selo_resumo or "") if row.selo_pontual and not row.anuncio_anonimo else "",
        )
        for row in rows
    ]


def _company_rating_columns(owner):
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


def _shown_rating(row) -> str:
    """'4,8 (12 avaliações)' for a rated company; '' when it has none or the vaga is anonymous."""
    if row.anuncio_anonimo or not row.rating_count:
        return ""
    return RatingSummary.of(row.rating_average, row.rating_count).text


def companies_in_category(
    db: Session, slug: str, page: object = 1, hidden: visibility.Hidden = visibility.NOTHING_HIDDEN
) -> Page[CompanyInCategory]:
    """One page of the distinct companies with public jobs in a category, each with its count of such jobs.

    Anonymous jobs are left out: listing their company here would reveal who published them.
    The jobs are grouped per company in the database; only the page's companies are returned.

    Args:
        db: Open database session.
        slug: A category slug (English aliases accepted); an unknown slug gives an empty page.
        page: The 1-based page wanted (COMPANIES_PAGE_SIZE companies); clamped to the pages that exist.
        hidden: What the viewer must not see (services.jobs.visibility.hidden_for).

    Returns:
        The companies, most jobs first, then by name, with the total and the number of pages.
    """
    canonical = canonical_category(slug)
    if canonical is None:
        return Page()
    conditions = [
        job_lifecycle.public(),
        col(Job.categoria) == canonical,
        col(Job.anuncio_anonimo) == false(),
        *hidden.conditions(),
    ]
    total = db.exec(select(func.count(func.distinct(col(Job.cliente_id)))).where(*conditions)).one()
    page, pages = paging.clamp(page, total, COMPANIES_PAGE_SIZE)
    if not total:
        return Page()
    per_company = (
        select(col(Job.cliente_id).label("cliente_id"), func.count(col(Job.id)).label("vagas"))
        .where(*conditions)
        .group_by(col(Job.cliente_id))
        .subquery()
    )
    shown_name = func.coalesce(
        func.nullif(func.trim(Profile.empresa), ""), func.nullif(func.trim(Profile.nome), ""), ""
    )
    rows = db.exec(
        select(
            per_company.c.cliente_id,
            per_company.c.vagas,
            Profile.empresa,
            Profile.nome,
            Profile.foto_url,
            Profile.selo_pontual,
            Profile.selo_resumo,
        )
        .join(Profile, col(Profile.user_id) == per_company.c.cliente_id, isouter=True)
        .order_by(per_company.c.vagas.desc(), func.lower(shown_name), per_company.c.cliente_id)
        .offset(paging.offset(page, COMPANIES_PAGE_SIZE))
        .limit(COMPANIES_PAGE_SIZE)
    ).all()
    companies = [
        CompanyInCategory(
            id=row.cliente_id,
            name=company_name(False, row.empresa, row.nome),
            photo=row.foto_url or "",
            open_jobs=row.vagas,
            punctual=bool(row.selo_pontual),
            punctual_summary=(row.selo_resumo or "") if row.selo_pontual else "",
        )
        for row in rows
    ]
    return Page(items=companies, total=int(total), page=page, pages=pages)


def company_display_name(db: Session, company_id: int) -> str | None:
    """The public name of a company that has public, non-anonymous jobs; None otherwise.

    Args:
        db: Open database session.
        company_id: The company's user id.

    Returns:
        The name shown for the company filter of the job list, or None.
    """
    row = db.exec(
        select(Profile.empresa, Profile.nome)
        .select_from(Job)
        .join(Profile, col(Profile.user_id) == col(Job.cliente_id), isouter=True)
        .where(job_lifecycle.public(), col(Job.cliente_id) == company_id, col(Job.anuncio_anonimo) == false())
        .limit(1)
    ).first()
    return company_name(False, row.empresa, row.nome) if row is not None else None


def get_public_job(db: Session, job_id: int) -> JobDetail | None:
    """Every public field of an open, non-archived job.

    Served from services.jobs.job_list_cache while the list's token (services/jobs/list_version.py) is the one
    it was read under: the token moves with every write to `jobs` and to a company's shown profile
    fields, which is everything this page shows.

    Args:
        db: Open database session.
        job_id: The job's id.

    Returns:
        A copy of the job's details (company hidden when anonymous), or None when it is missing or not public.
    """
    token = list_version.current(db)  # before the query: a write after it can only make the entry miss
    key = (db.get_bind().url.render_as_string(), job_id)
    detail = job_list_cache.details.get_or_compute(key, token, lambda: _public_job(db, job_id))
    if detail is None:
        return None
    return JobDetail(  # a copy: callers may change theirs
        **{
            **detail,
            "skills": list(detail["skills"]),
            "company_links": [dict(link) for link in detail["company_links"]],
        }
    )


_PUBLIC_JOB = (
    sa_select(
        _JOBS.c.id,
        _JOBS.c.titulo,
        _JOBS.c.categoria,
        _JOBS.c.anuncio_anonimo,
        _JOBS.c.localizacao,
        _JOBS.c.valor_hora,
        _JOBS.c.data_necessaria,
        _JOBS.c.duracao,
        _JOBS.c.inicio_em,
        _JOBS.c.fim_em,
        _JOBS.c.intervalo_min,
        _JOBS.c.endereco,
        _JOBS.c.ponto_lat,
        _JOBS.c.ponto_lng,
        _JOBS.c.o_que_levar,
        _JOBS.c.descricao,
        _JOBS.c.habilidades_necessarias,
        _JOBS.c.vale_transporte,
        _JOBS.c.refeicao_local,
        _JOBS.c.possui_intervalo,
        _JOBS.c.vagas_disponiveis,
        _JOBS.c.criado_em,
        _JOBS.c.pagamento,
        _PROFILES.c.user_id.label("profile_user_id"),
        _PROFILES.c.empresa,
        _PROFILES.c.nome,
        _PROFILES.c.foto_url,
        _PROFILES.c.biografia,
        _PROFILES.c.website,
        _PROFILES.c.redes_sociais,
        _PROFILES.c.selo_pontual,
        _PROFILES.c.selo_resumo,
        *_company_rating_columns(_JOBS.c.cliente_id),
    )
    .select_from(_JOBS.outerjoin(_PROFILES, _PROFILES.c.user_id == _JOBS.c.cliente_id))
    .where(_JOBS.c.id == bindparam("job_id"), job_lifecycle.public())
)


def cached_statements(dialect: str) -> dict[str, object]:
    """Every statement whose result services.jobs.job_list_cache keeps, with every filter applied.

    The cache is right only while these read nothing the list's token does not watch
    (services/jobs/list_version.py `WATCHED_COLUMNS`); tests/unit/test_list_cache_watch.py checks it, so a
    new column shown on the list or the job page fails there until its trigger watches it.

    Args:
        dialect: The database's ("sqlite" or "postgresql"): the search condition differs.
    """
    conditions = _filters("garcom", "sao paulo", "hotel", 1, dialect, guaranteed=True)
    return {
        "count": count_statement(conditions),
        "page": page_statement(conditions, 1),
        "job page": _PUBLIC_JOB,
    }


def job_for_viewer(db: Session, job_id: int, viewer_id: int | None) -> JobDetail | None:
    """The job page's vaga for this viewer: what `get_public_job` answers, adjusted to who is looking.

    A visitor gets the cached public vaga. A signed-in person gets it from one uncached statement
    with services.jobs.visibility's rule: team members also see a team-first vaga, a company its own held
    vagas, and nobody a vaga of a company a block stands between (docs/product.md "Minha equipe").

    Args:
        db: Open database session.
        job_id: The job's id.
        viewer_id: The signed-in viewer's id (None for a visitor).
    """
    if not viewer_id:
        return get_public_job(db, job_id)
    return _detail(db.execute(_viewer_job_statement(), {"job_id": job_id, "viewer": viewer_id}).first())


def _viewer_job_statement():
    """`_PUBLIC_JOB`'s columns and joins under services.jobs.visibility's rule instead of `public()` (built once)."""
    global _VIEWER_JOB
    if _VIEWER_JOB is None:
        _VIEWER_JOB = (
            sa_select(*_PUBLIC_JOB.selected_columns)
            .select_from(*_PUBLIC_JOB.get_final_froms())
            .where(_JOBS.c.id == bindparam("job_id"), visibility.open_to())
        )
    return _VIEWER_JOB


_VIEWER_JOB = None


def team_first_items(db: Session, freelancer_id: int) -> list[JobListItem]:
    """The open team-first vagas of the teams this freelancer is in, newest first (one page at most).

    Not cached: only team members ask, and each one's answer is their own.
    """
    return _items(db.exec(page_statement([visibility.team_first_open(freelancer_id)], 1)).all())


def _public_job(db: Session, job_id: int) -> JobDetail | None:
    """`get_public_job` from the database (one prebuilt statement: a first view of a job pays it)."""
    return _detail(db.execute(_PUBLIC_JOB, {"job_id": job_id}).first())


def _detail(row) -> JobDetail | None:
    """A job page's row as the page's fields (None: no row)."""
    if row is None:
        return None
    shown = row.profile_user_id is not None and not row.anuncio_anonimo
    guaranteed = row.pagamento == GUARANTEED
    return JobDetail(
        id=row.id,
        title=row.titulo,
        category=canonical_category(row.categoria) or row.categoria,
        category_label=category_label(row.categoria),
        company=company_name(row.anuncio_anonimo, row.empresa, row.nome),
        anonymous=row.anuncio_anonimo,
        company_id=row.profile_user_id if shown else 0,
        company_photo=row.foto_url if shown else "",
        company_bio=row.biografia if shown else "",
        company_site=safe_website(row.website) if shown else "",
        company_links=social_links(row.redes_sociais) if shown else [],
        location=row.localizacao,
        pay=hourly_pay(row.valor_hora),
        total=shift_pay.shift_total_text(row),
        when=shift_when(row.inicio_em, row.fim_em),
        date_needed=long_date(row.data_necessaria) if row.data_necessaria else "",
        duration=row.duracao,
        shift=shift_text(row.inicio_em, row.fim_em, row.intervalo_min),
        address=row.endereco or "",
        map_url=map_url(row.endereco, row.ponto_lat, row.ponto_lng),
        bring=row.o_que_levar or "",
        description=row.descricao,
        skills=[skill for skill in row.habilidades_necessarias or [] if isinstance(skill, str) and skill.strip()],
        transport_voucher=row.vale_transporte,
        meal_on_site=row.refeicao_local,
        has_break=row.possui_intervalo,
        positions=row.vagas_disponiveis,
        posted=long_date(row.criado_em),
        company_rating=_shown_rating(row),
        payment=PAYMENT_GUARANTEED if guaranteed else PAYMENT_DIRECT,
        payment_note=PAYMENT_GUARANTEED_NOTE if guaranteed else PAYMENT_DIRECT_NOTE,
        guaranteed=guaranteed,
        punctual=bool(shown and row.selo_pontual),
        punctual_summary=row.selo_resumo if shown and row.selo_pontual else "",
        posted_at=_iso_utc(row.criado_em),
        starts_at=_iso_utc(row.inicio_em),
        day_needed=row.data_necessaria.isoformat() if row.data_necessaria else "",
        hourly_rate=float(row.valor_hora) if row.valor_hora is not None else 0.0,  # 0: not informed
    )


def _iso_utc(moment: datetime | None) -> str:
    """A stored instant as ISO 8601 in UTC ('' for None; naive values are UTC, as SQLite returns them)."""
    if moment is None:
        return ""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat(timespec="seconds")
