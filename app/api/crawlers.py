"""/robots.txt and the sitemaps, built from the database (services/jobs/sitemap.py).

/sitemap.xml is an index: /sitemap-paginas.xml (fixed pages and categories) and
/sitemap-vagas-{n}.xml (open vagas, URLS_PER_FILE each). Addresses are absolute, on SITE_URL.
"""

from datetime import UTC, datetime
from xml.sax.saxutils import escape

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from core import routes, seo
from core.db import session_scope
from core.ids import valid_id
from core.settings import get_settings
from services.jobs import sitemap

XML = "application/xml; charset=utf-8"
NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
# Areas behind a login, and pages reached only from an e-mailed token: nothing for a search engine.
PRIVATE_PREFIXES = (
    routes.CLIENT_DASHBOARD,
    routes.FREELANCER_DASHBOARD,
    routes.COMPANY_PROFILE_SETUP,
    routes.ADMIN,
    routes.RESET_PASSWORD,
    routes.CONFIRM_EMAIL,
    "/dev/",
    "/api/",
)


def robots_text(site_url: str) -> str:
    """robots.txt: everything public may be crawled; private areas may not; where the sitemap is.

    Args:
        site_url: The site's public origin.
    """
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {prefix}" for prefix in PRIVATE_PREFIXES)]
    return "\n".join([*lines, "", f"Sitemap: {seo.absolute(site_url, routes.SITEMAP)}", ""])


def _lastmod(moment: datetime) -> str:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).date().isoformat()


def url_set(site_url: str, entries: list[tuple[str, datetime | None]]) -> str:
    """A sitemap file: one <url> per (path, last change or None).

    Args:
        site_url: The site's public origin.
        entries: Paths and their last change.
    """
    urls = []
    for path, changed in entries:
        lastmod = f"<lastmod>{_lastmod(changed)}</lastmod>" if changed else ""
        urls.append(f"<url><loc>{escape(seo.absolute(site_url, path))}</loc>{lastmod}</url>")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NAMESPACE}">{"".join(urls)}</urlset>\n'


def sitemap_index(site_url: str, files: int) -> str:
    """The index: the fixed pages' file and `files` files of open vagas.

    Args:
        site_url: The site's public origin.
        files: How many files of vagas there are.
    """
    paths = [routes.SITEMAP_PAGES, *(routes.sitemap_jobs(number) for number in range(1, files + 1))]
    items = "".join(f"<sitemap><loc>{escape(seo.absolute(site_url, path))}</loc></sitemap>" for path in paths)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NAMESPACE}">{items}</sitemapindex>\n'


def _jobs_file(number: int) -> str | None:
    site = get_settings().site_url
    with session_scope() as db:
        if number > sitemap.job_files(db):
            return None
        vagas = sitemap.open_jobs(db, number)
    return url_set(site, [(routes.job_detail(job_id), created) for job_id, created in vagas])


def _index() -> str:
    with session_scope() as db:
        files = sitemap.job_files(db)
    return sitemap_index(get_settings().site_url, files)


async def robots(request: Request) -> Response:
    """GET /robots.txt."""
    return PlainTextResponse(robots_text(get_settings().site_url))


async def sitemap_xml(request: Request) -> Response:
    """GET /sitemap.xml: the index of sitemap files."""
    return Response(await run_in_threadpool(_index), media_type=XML)


async def sitemap_pages(request: Request) -> Response:
    """GET /sitemap-paginas.xml: the fixed pages and one page per category."""
    entries = [(path, None) for path in sitemap.fixed_paths()]
    return Response(url_set(get_settings().site_url, entries), media_type=XML)


async def sitemap_jobs(request: Request) -> Response:
    """GET /sitemap-vagas-{number}.xml: one file of open vagas (404 before the first and past the last)."""
    number = valid_id(request.path_params["number"])
    body = None if number is None else await run_in_threadpool(_jobs_file, number)
    if body is None:
        return PlainTextResponse("Não encontrado", status_code=404)
    return Response(body, media_type=XML)
