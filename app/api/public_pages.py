"""Job and category pages whose first HTML answer already says what they are (docs/architecture.md "Pages crawlers can read").

Every /jobs/{id} used to be answered with the same prebuilt shell: no title, no description, no
preview, status 200 for any id. Crawlers and link previews read only that answer. This middleware
answers those paths itself, from the same shell, with:

- an open vaga: 200, its head tags (core/seo.py: title, description, canonical, Open Graph,
  Twitter card, JobPosting JSON-LD) and its first paint (app/api/first_paint.py);
- a vaga that exists but is closed, filled or archived: 410 Gone, 'noindex' (the app still shows
  'Esta vaga não está mais disponível' with similar open vagas);
- an id that never existed: 404, 'noindex' ('Vaga não encontrada').

/categories/{slug} gets its own title, description and canonical (404 for an unknown slug), and
/register?type=freelancer the prerendered HTML of the freelancer form (`register_variant`).
Any other path, and any answer when the build has no shell (development servers), passes through.
"""

import gzip
import html
import re
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, unquote

from starlette.concurrency import run_in_threadpool
from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.first_paint import job_article
from app.api.security_headers import frontend_build_dir
from core import routes, seo
from core.catalog import CATEGORIES, canonical_category
from core.db import session_scope
from core.ids import id_from_text
from core.settings import get_settings
from services.accounts import session_cache
from services.jobs import job_detail
from services.jobs.job_detail import JobDetail
from states.job_search import JobFilters

SHELL_FILE = "__spa-fallback.html"
GZIP_MIN_BYTES = 1024
JOB_PATH = re.compile(r"^/jobs/([^/]+)/?$")
CATEGORY_PATH = re.compile(r"^/categories/([^/]+)/?$")
REGISTER_PATH = re.compile(r"^/register(?:/freelancer)?/?$")
JOBS_PATH = re.compile(r"^/jobs/?$")
# What the build wrote in the static page's head for every visit; a filtered list says its own.
STATIC_HEAD = re.compile(r'<title>[^<]*</title>|<meta content="[^"]*" (?:name="description"|property="og:image")/>')
GONE_TITLE = "Vaga não disponível"
MISSING_TITLE = "Vaga não encontrada"


@dataclass(frozen=True)
class PageAnswer:
    """What a public page answers: its status, the tags for its head, and its first paint."""

    status: int
    head: str
    body: str = ""


@cache
def _file_at(path: Path, modified: float) -> str:
    return path.read_text(encoding="utf-8")


def _built(relative: str) -> str | None:
    """A page file of the build (read once per build), or None when there is none."""
    path = frontend_build_dir() / relative
    try:
        return _file_at(path, path.stat().st_mtime)
    except OSError:
        return None


def shell() -> str | None:
    """The build's shell for pages with a variable path, or None without a build."""
    return _built(SHELL_FILE)


def built_page(route: str) -> str | None:
    """The prerendered HTML of a static route ('/register/freelancer'), or None without a build."""
    name = route.strip("/")
    return _built(f"{name}.html") or _built(f"{name}/index.html")


def register_variant(path: str, query: str) -> str | None:
    """For /register?type=freelancer (and /register/freelancer?type=client): the page with the other form.

    Both routes render the same page; each prerenders its own first tab (app/pages/register.py), so
    the person sees and types into the form the URL asked for from the first paint. The answer is
    the path's own prerendered HTML (its head and its scripts: the browser hydrates the route of
    its address) with the visible part of <body> taken from the other route's HTML, so what React
    hydrates matches what it renders (tests/e2e/test_auth_flows.py checks there is no mismatch).
    With a `type` that asks for the path's own form, the path's own HTML; without `type`, None (the
    static files answer). Behind Caddy, which serves the static files itself, the backend answers
    every /register…?type= (deploy/Caddyfile), so it must never pass those through.

    Args:
        path: /register or /register/freelancer (a trailing slash allowed).
        query: The raw query string.
    """
    asked = parse_qs(query).get("type")
    if not asked:
        return None
    own = path.rstrip("/")
    kind = routes.register_kind(asked[0], own)
    wanted = routes.REGISTER_FREELANCER if kind == "freelancer" else routes.REGISTER
    if wanted == own:
        return built_page(own)
    page, other = built_page(own), built_page(wanted)
    if page is None or other is None:
        return None
    return with_body_of(page, other, wanted, own)


def jobs_list_meta(query: str, site_url: str, product_name: str) -> seo.PageMeta | None:
    """The head of a filtered /jobs: 'Vagas de Eventos em Curitiba | Turno' (None without a filter).

    A city or category list is a landing page of its own (canonical on those two filters and the
    page); a typed search is anyone's text, so its list is not indexed.

    Args:
        query: The raw query string.
        site_url: The site's public origin.
        product_name: The product's name.
    """
    filters = JobFilters.from_query(_first_values(query))
    if not filters.is_filtered:
        return None
    subject = filters.subject
    title = f"{subject} | {product_name}"
    canonical = routes.jobs(city=filters.city or None, category=filters.category or None, page=filters.page)
    return seo.site_page(
        title,
        f"{subject}: turnos em hotelaria, gastronomia e eventos publicados por empresas no "
        f"{product_name}. Veja o valor por hora, a data e o endereço e candidate-se.",
        seo.absolute(site_url, canonical),
        site_url,
        product_name,
        robots="noindex, follow" if filters.search else "index, follow",
    )


def filtered_jobs_page(path: str, query: str) -> str | None:
    """/jobs?… with its own head tags in the prerendered list (None: no filter, or no build).

    Args:
        path: The path asked for (/jobs or /jobs/).
        query: The raw query string.
    """
    settings = get_settings()
    meta = jobs_list_meta(query, settings.site_url, settings.product_name)
    page = built_page(routes.JOBS) if meta is not None else None
    if page is None or meta is None:
        return None
    tags = seo.with_address(seo.head_tags(meta), _address(path, query))
    page = STATIC_HEAD.sub("", page).replace("</head>", tags + "</head>", 1)
    filters = JobFilters.from_query(_first_values(query))
    return with_category_chosen(with_search_value(page, filters.search), filters.category)


SEARCH_INPUT_ID = 'id="jobs-search"'


def with_search_value(page: str, search: str) -> str:
    """The list's search box filled with `search` in the first HTML (escaped), as the app will show it."""
    if not search:
        return page
    start = page.find(SEARCH_INPUT_ID)
    end = page.find('value=""', start) if start >= 0 else -1
    if end < 0 or page.find(">", start) < end:
        return page
    return page[:end] + f'value="{html.escape(search)}"' + page[end + len('value=""') :]


CATEGORY_SELECT_ID = 'id="jobs-category"'
SELECTED = ' selected=""'


def with_category_chosen(page: str, category: str) -> str:
    """The list's category select showing `category` (a canonical slug) in the first HTML, as the app will."""
    start = page.find(CATEGORY_SELECT_ID)
    end = page.find("</select>", start) if start >= 0 and category else -1
    if end < 0:
        return page
    options = page[start:end].replace(SELECTED, "", 1)
    chosen = f'<option value="{html.escape(category)}"'
    if chosen not in options:
        return page
    return page[:start] + options.replace(chosen, chosen + SELECTED, 1) + page[end:]


def _address(path: str, query: str) -> str:
    """The path and query as the browser's `location.pathname + location.search` reads them."""
    return f"{path}?{query}" if query else path


def _first_values(query: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(query).items()}


def _body_markup(page: str) -> tuple[int, int] | None:
    """Where the rendered markup of <body> lies: after <body>, before its first script."""
    start = page.find("<body>")
    end = page.find("<script", start)
    return (start + len("<body>"), end) if start >= 0 and end >= 0 else None


def with_body_of(page: str, other: str, other_route: str, route: str) -> str | None:
    """`page` with the rendered markup of `other`'s body (links resolved against `other_route` made `route`'s).

    Args:
        page: The HTML whose head and scripts are kept.
        other: The HTML whose visible markup is shown.
        other_route: The route `other` was prerendered at.
        route: The route of `page`.

    Returns:
        The combined page, or None when either has no recognisable body.
    """
    here, there = _body_markup(page), _body_markup(other)
    if here is None or there is None:
        return None
    markup = other[there[0] : there[1]].replace(f"{other_route}/", f"{route}/")
    return page[: here[0]] + markup + page[here[1] :]


def with_answer(page: str, answer: PageAnswer, address: str) -> str:
    """`page` (the shell) with the answer's tags at the end of <head> and its first paint opening <body>.

    Args:
        page: The shell's HTML.
        answer: The tags and first paint.
        address: The path and query asked for (its title is marked as theirs: seo.with_address).

    Returns:
        The page to send.
    """
    page = page.replace("</head>", seo.with_address(answer.head, address) + "</head>", 1)
    if answer.body:
        page = page.replace("<body>", "<body>" + answer.body, 1)
    return page


def _instant(text: str) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def job_meta(job: JobDetail, site_url: str, product_name: str) -> seo.PageMeta:
    """The head of an open vaga's page.

    Args:
        job: The public vaga.
        site_url: The site's public origin.
        product_name: The product's name.

    Returns:
        Its title ('Garçom em São Paulo, SP · Hotel Sol | Turno'), description, preview and JobPosting.
    """
    url = seo.absolute(site_url, routes.job_detail(job["id"]))
    when = job["shift"] or job["date_needed"]
    summary = " · ".join(part for part in (job["pay"], when, job["description"]) if part)
    company = None if job["anonymous"] else job["company"]
    image = seo.absolute(site_url, job["company_photo"]) if job["company_photo"] else ""
    valid_through: datetime | date | None = _instant(job["starts_at"]) or (
        date.fromisoformat(job["day_needed"]) if job["day_needed"] else None
    )
    return seo.PageMeta(
        title=seo.job_title(job["title"], job["location"], job["company"], product_name),
        description=seo.excerpt(summary),
        url=url,
        image=image or seo.absolute(site_url, seo.DEFAULT_IMAGE),
        image_alt=job["company"] if image else product_name,
        image_size=None if image else seo.DEFAULT_IMAGE_SIZE,
        site_name=product_name,
        json_ld=seo.job_posting(
            url=url,
            title=job["title"],
            description=job["description"],
            posted=datetime.fromisoformat(job["posted_at"]),
            valid_through=valid_through,
            location=job["location"],
            address=job["address"],
            hourly_rate=job["hourly_rate"],
            positions=job["positions"],
            company=company,
            company_site=job["company_site"] if company else "",
            company_logo=image,
        ),
    )


def _closed_meta(
    title: str,
    path: str,
    site_url: str,
    product_name: str,
    description: str = "Esta vaga não existe ou não está mais disponível. Veja as outras vagas abertas.",
) -> seo.PageMeta:
    return seo.site_page(
        f"{title} | {product_name}", description, seo.absolute(site_url, path), site_url, product_name, "noindex"
    )


def job_page_answer(path: str, job_id: int | None, viewer: int | None = None) -> PageAnswer:
    """The answer for /jobs/{job_id}: 200 with the vaga, 410 when it is no longer open, 404 when it never was.

    Args:
        path: The path asked for.
        job_id: The id of the URL (None when the last segment is not an id).
        viewer: The signed-in person of the request's session cookie (None: a visitor): a team
            member's team-first vaga, or a blocked company's vaga, answers as the app will show it.

    Returns:
        Status, head tags and first paint.
    """
    settings = get_settings()
    site, name = settings.site_url, settings.product_name
    job, exists = None, False
    if job_id is not None:
        with session_scope() as db:
            job = job_detail.job_for_viewer(db, job_id, viewer)
            exists = job is not None or job_detail.job_exists(db, job_id)
    if job is not None:
        return PageAnswer(200, seo.head_tags(job_meta(job, site, name)), job_article(job, name))
    if job_id is not None:
        path = routes.job_detail(job_id)
    if exists:
        return PageAnswer(410, seo.head_tags(_closed_meta(GONE_TITLE, path, site, name)))
    return PageAnswer(404, seo.head_tags(_closed_meta(MISSING_TITLE, path, site, name)))


def category_page_answer(path: str, slug: str) -> PageAnswer:
    """The answer for /categories/{slug}: 200 with the category's own head, 404 for an unknown slug.

    English aliases ('events') point their canonical at the Portuguese slug ('eventos').

    Args:
        path: The path asked for.
        slug: Its last segment, percent-decoded.

    Returns:
        Status and head tags (the companies list itself arrives with the app).
    """
    settings = get_settings()
    site, name = settings.site_url, settings.product_name
    canonical = canonical_category(slug)
    if canonical is None:
        gone = "Esta categoria não existe. Veja as categorias com vagas abertas."
        meta = _closed_meta(seo.MISSING_CATEGORY_TITLE, path, site, name, gone)
        return PageAnswer(404, seo.head_tags(meta))
    label = CATEGORIES[canonical]
    meta = seo.site_page(
        f"{seo.category_title(label)} | {name}",
        f"Empresas de {label.lower()} com vagas temporárias abertas no {name}. "
        "Veja as vagas de cada empresa e candidate-se.",
        seo.absolute(site, routes.category(canonical)),
        site,
        name,
    )
    return PageAnswer(200, seo.head_tags(meta))


def _answer_for(path: str, session_token: str | None = None) -> PageAnswer:
    """The answer for a path `_page_kind` accepted (run off the event loop: it may read the database).

    `session_token`: the request's session cookie, resolved here as for every handler.
    """
    job = JOB_PATH.match(path)
    if job:
        user = session_cache.who(session_token) if session_token else None
        return job_page_answer(path, id_from_text(job[1]), user.id if user is not None else None)
    return category_page_answer(path, unquote(CATEGORY_PATH.match(path)[1]))


def html_response(page: str, status: int, scope: Scope) -> HTMLResponse:
    """The page as an HTML answer, gzip-compressed when the browser accepts it (as the static pages are).

    Args:
        page: The HTML.
        status: The HTTP status.
        scope: The request (its Accept-Encoding header).
    """
    body = page.encode("utf-8")
    accepted = dict(scope.get("headers", [])).get(b"accept-encoding", b"")
    if b"gzip" not in accepted.lower() or len(body) < GZIP_MIN_BYTES:
        return HTMLResponse(body, status_code=status, headers={"Vary": "Accept-Encoding"})
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return HTMLResponse(gzip.compress(body, compresslevel=6), status_code=status, headers=headers)


def _session_token(scope: Scope) -> str | None:
    """The session cookie of an HTTP request (as states/auth.py reads it from the websocket's)."""
    header = dict(scope.get("headers", [])).get(b"cookie", b"").decode("latin-1")
    return cookie_parser(header).get(get_settings().session_cookie_name) or None


def _is_public_page(path: str) -> bool:
    return JOB_PATH.match(path) is not None or CATEGORY_PATH.match(path) is not None


def _is_page_request(scope: Scope) -> bool:
    return scope["type"] == "http" and scope["method"] in ("GET", "HEAD")


def public_pages(app: ASGIApp) -> ASGIApp:
    """Wrap the backend's ASGI app: job pages answered with their own status, head and first paint.

    Args:
        app: The ASGI app Reflex built (API routes, websocket, mounted frontend).

    Returns:
        The same app, answering GET/HEAD /jobs/{id} and /categories/{slug} itself when the build's
        shell is there.
    """

    async def with_public_pages(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"] if _is_page_request(scope) else ""
        query = scope.get("query_string", b"").decode("latin-1")
        if JOBS_PATH.match(path):
            listed = filtered_jobs_page(path, query)
            if listed is not None:
                await html_response(listed, 200, scope)(scope, receive, send)
                return
        if REGISTER_PATH.match(path):
            variant = register_variant(path, query)
            if variant is not None:
                await html_response(variant, 200, scope)(scope, receive, send)
                return
        page = shell() if _is_public_page(path) else None
        if page is None:
            await app(scope, receive, send)
            return
        answer = await run_in_threadpool(_answer_for, path, _session_token(scope))
        page = with_answer(page, answer, _address(path, query))
        await html_response(page, answer.status, scope)(scope, receive, send)

    return with_public_pages
