"""One vaga's public page: its fields for a visitor or a signed-in viewer, and what a closed one leads to.

`get_public_job` serves a visitor from services/jobs/job_list_cache.py; `job_for_viewer` applies
services/jobs/visibility.py's rule for a signed-in person. A vaga no longer open answers with
similar open ones (`similar_to_unavailable`). `cached_statements` gathers every statement whose
result the cache keeps (the list's and this page's), for the test that its token watches them.
"""

from datetime import UTC, datetime
from typing import TypedDict

from sqlalchemy import bindparam, false
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from core.catalog import (
    PAYMENT_DIRECT,
    PAYMENT_DIRECT_NOTE,
    PAYMENT_GUARANTEED,
    PAYMENT_GUARANTEED_NOTE,
    canonical_category,
)
from core.formatting import hourly_pay, long_date, safe_website
from core.shift_format import map_url, shift_text, shift_when
from models import Job, PaymentMode, Profile
from services.common.social import SocialLink, social_links
from services.jobs import job_lifecycle, job_list_cache, list_version, shift_pay, visibility
from services.jobs.jobs import (
    JobListItem,
    category_label,
    company_name,
    company_rating_columns,
    count_statement,
    filters,
    list_public_jobs,
    page_statement,
    shown_rating,
)


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


_JOBS, _PROFILES = Job.__table__, Profile.__table__  # type: ignore[attr-defined]
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
        *company_rating_columns(_JOBS.c.cliente_id),
    )
    .select_from(_JOBS.outerjoin(_PROFILES, _PROFILES.c.user_id == _JOBS.c.cliente_id))
    .where(_JOBS.c.id == bindparam("job_id"), job_lifecycle.public())
)


def cached_statements(dialect: str) -> dict[str, object]:
    """Every statement whose result services.jobs.job_list_cache keeps, with every filter applied.

    The cache is right only while these read nothing the list's token does not watch
    (services/jobs/list_version.py `WATCHED_COLUMNS`); tests/unit/jobs/test_list_cache_watch.py checks it, so a
    new column shown on the list or the job page fails there until its trigger watches it.

    Args:
        dialect: The database's ("sqlite" or "postgresql"): the search condition differs.
    """
    conditions = filters("garcom", "sao paulo", "hotel", 1, dialect, guaranteed=True)
    return {
        "count": count_statement(conditions),
        "page": page_statement(conditions, 1),
        "job page": _PUBLIC_JOB,
    }


def job_for_viewer(db: Session, job_id: int, viewer_id: int | None) -> JobDetail | None:
    """The job page's vaga for this viewer: what `get_public_job` answers, adjusted to who is looking.

    A visitor gets the cached public vaga. A signed-in person gets it from one uncached statement
    with services.jobs.visibility's rule: team members also see a team-first vaga, a company its own held
    vagas, and nobody a vaga of a company a block stands between (docs/product/trust.md "Minha equipe").

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


def _public_job(db: Session, job_id: int) -> JobDetail | None:
    """`get_public_job` from the database (one prebuilt statement: a first view of a job pays it)."""
    return _detail(db.execute(_PUBLIC_JOB, {"job_id": job_id}).first())


def _detail(row) -> JobDetail | None:
    """A job page's row as the page's fields (None: no row)."""
    if row is None:
        return None
    shown = row.profile_user_id is not None and not row.anuncio_anonimo
    guaranteed = row.pagamento == PaymentMode.GUARANTEED
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
        company_rating=shown_rating(row),
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
