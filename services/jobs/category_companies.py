"""The companies of a category (with their count of public vagas) and the name a company filter shows.

Anonymous vagas are never counted or named here: listing their company would reveal who published them.
"""

from typing import TypedDict

from sqlalchemy import false, func
from sqlmodel import Session, col, select

from core.catalog import canonical_category
from models import Job, Profile
from services.common import paging
from services.common.paging import Page
from services.jobs import job_lifecycle, visibility
from services.jobs.jobs import company_name

COMPANIES_PAGE_SIZE = paging.DASHBOARD_PAGE_SIZE


class CompanyInCategory(TypedDict):
    """A company with public jobs in a category, and how many."""

    id: int
    name: str
    photo: str
    open_jobs: int
    punctual: bool  # 'Empresa Pontual' (services/trust/punctuality.py); anonymous vagas are not counted here
    punctual_summary: str  # its figures in one line ('' without the badge)


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
