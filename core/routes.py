"""Route constants and URL builders; no route string is written anywhere else."""

import unicodedata
from enum import StrEnum
from urllib.parse import unquote, urlencode, urlsplit

from core.ids import id_from_text

HOME = "/"
LOGIN = "/login"
REGISTER = "/register"
REGISTER_FREELANCER = "/register/freelancer"
FORGOT_PASSWORD = "/forgot-password"
RESET_PASSWORD = "/reset-password"
CONFIRM_EMAIL = "/confirm-email"
JOBS = "/jobs"
JOB_DETAIL = "/jobs/[id]"
CATEGORIES = "/categories"
CATEGORY = "/categories/[category]"
FREELANCERS = "/freelancers"
FREELANCER_PROFILE = "/freelancers/[id]"
HOW_IT_WORKS = "/how-it-works"
HOW_WE_CALCULATE = "/como-calculamos"
BOND_GUIDE = "/termometro-de-vinculo"
PRICING = "/pricing"
ABOUT = "/about"
CONTACT = "/contact"
TERMS = "/terms"
PRIVACY = "/privacy"
COOKIES = "/cookies"
COMPANY_PROFILE_SETUP = "/company-profile-setup"
CLIENT_DASHBOARD = "/client-dashboard"
CLIENT_CHATS = "/client-dashboard/chats"
CLIENT_CHAT = "/client-dashboard/chats/[chat_id]"
FREELANCER_DASHBOARD = "/freelancer-dashboard"
FREELANCER_CHATS = "/freelancer-dashboard/chats"
FREELANCER_CHAT = "/freelancer-dashboard/chats/[chat_id]"
ATTENDANCE_CODE = "/client-dashboard/presenca/[job_id]"
DEV_MAILBOX = "/dev/mailbox"
ADMIN = "/admin"

API_LOGIN = "/api/auth/login"
API_LOGOUT = "/api/auth/logout"
API_HEALTH = "/api/health"
API_STRIPE_WEBHOOK = "/api/stripe/webhook"
API_WHATSAPP_WEBHOOK = "/api/whatsapp/webhook"
API_ACCOUNT_EXPORT = "/api/account/export"
API_SHIFT_CALENDAR = "/api/turnos/{hiring_id:int}.ics"
APP_START = "/app"  # an installed app opens here (app/api/pwa.py)
MANIFEST = "/manifest.webmanifest"
SERVICE_WORKER = "/sw.js"
OFFLINE = "/offline"
ROBOTS = "/robots.txt"
SITEMAP = "/sitemap.xml"
SITEMAP_PAGES = "/sitemap-paginas.xml"
SITEMAP_JOBS = "/sitemap-vagas-{number:int}.xml"


NEXT_MAX_LENGTH = 500
# Where a person may be sent back after signing in: each role's own pages, or the public job pages.
_NEXT_AREAS = {
    "client": (CLIENT_DASHBOARD, COMPANY_PROFILE_SETUP, FREELANCERS),
    "freelancer": (FREELANCER_DASHBOARD, JOBS, FREELANCERS),
    "admin": (ADMIN,),
}


def login_back_to_job_prefix() -> str:
    """'/login?next=' with '/jobs/' encoded: a job page appends its id ('Entre para se candidatar')."""
    return f"{LOGIN}?{urlencode({'next': '/jobs/'})}"


def login_with_next(here: str) -> str:
    """/login remembering `here` (a same-site path with its query) to come back to after signing in."""
    return f"{LOGIN}?{urlencode({'next': here})}" if safe_next(here) else LOGIN


def safe_next(value: object, role: str | None = None) -> str | None:
    """`value` (its path normalised) when it is a path of this site `role` may land on after signing in, else None.

    Only a relative path is accepted: no scheme or host ('https://x', '//x'), no backslash (some
    browsers read a slash and a backslash as '//'), no control characters or spaces (browsers drop
    tabs and line breaks, so a tab between two slashes becomes '//'). The path is read as the
    browser will: each segment percent-decoded until it no longer changes (so '%2e%2e' and
    '%252e%252e' are '..') and compared after Unicode compatibility folding ('．．' is '..'); an
    encoded separator ('%2f', '%5c'), an empty segment ('//'), or a '..' above the root is refused,
    and '.' and '..' are resolved before the area is checked. With a role, only that role's own
    pages (its dashboard and profile setup; a freelancer also the job pages; both the freelancers'
    profiles), so a company is never sent into the freelancers' area.
    """
    if not isinstance(value, str) or not value.startswith("/") or len(value) > NEXT_MAX_LENGTH:
        return None
    if value.startswith("//") or "\\" in value or any(ord(ch) <= 0x20 or ord(ch) == 0x7F for ch in value):
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:
        return None
    path = _normalised_path(parts.path)
    if path is None:
        return None
    if role is not None:
        areas = _NEXT_AREAS.get(role, ())
        if not any(path == area or path.startswith(area + "/") for area in areas):
            return None
    return path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


_DECODE_ROUNDS = 4  # '%25' nested deeper than this is refused rather than decoded further


def _decoded(segment: str) -> str | None:
    """A path segment percent-decoded until stable and folded (NFKC); None when it never settles."""
    for _ in range(_DECODE_ROUNDS):
        decoded = unquote(segment)
        if decoded == segment:
            return unicodedata.normalize("NFKC", decoded)
        segment = decoded
    return None


def _normalised_path(raw: str) -> str | None:
    """`raw` (an absolute path, still encoded) with '.' and '..' resolved, or None when it is unsafe.

    Unsafe: a segment that decodes to a separator, a control or format character or a space; an
    empty segment before the last ('//'); a '..' that would leave the root.
    """
    segments = raw.split("/")[1:]
    kept: list[str] = []
    for index, segment in enumerate(segments):
        decoded = _decoded(segment)
        if decoded is None or "/" in decoded or "\\" in decoded:
            return None
        if any(unicodedata.category(ch)[0] in "CZ" for ch in decoded):
            return None
        if decoded == "" and index < len(segments) - 1:
            return None
        if decoded == "..":
            if not kept:
                return None
            kept.pop()
        elif decoded != ".":
            kept.append(segment)
    return "/" + "/".join(kept)


def register(kind: str) -> str:
    """Registration page with a tab preselected ('client' or 'freelancer')."""
    return f"{REGISTER}?{urlencode({'type': kind})}"


REGISTER_KINDS = ("client", "freelancer")


def register_kind(asked: object, path: str) -> str:
    """The registration tab: ?type= when it is a kind, else the page's own (freelancer on REGISTER_FREELANCER).

    Args:
        asked: The ?type= value (None when absent).
        path: The page's path, without a trailing slash.
    """
    if asked in REGISTER_KINDS:
        return str(asked)
    return "freelancer" if path == REGISTER_FREELANCER else "client"


def admin(page: int | None = None) -> str:
    """Turno staff's back office: the open reviews (`page` of them omitted when it is the first)."""
    return _with_page(ADMIN, page)


def _with_page(base: str, page: int | None) -> str:
    """`base` with ?page=N (or &page=N after a query); the first page has no parameter."""
    if not page or page <= 1:
        return base
    return f"{base}{'&' if '?' in base else '?'}{urlencode({'page': page})}"


def category(slug: str, page: int | None = None) -> str:
    """Page of the companies with open jobs in a category (`page` omitted when it is the first)."""
    return _with_page(f"{CATEGORIES}/{slug}", page)


def jobs(
    city: str | None = None,
    search: str | None = None,
    category: str | None = None,
    company: int | None = None,
    page: int | None = None,
    guaranteed: bool = False,
) -> str:
    """Job list with its filters in the query (URL-encoded; empty filters and page 1 left out).

    Args:
        city: Location filter.
        search: Search text (title or category).
        category: Category slug.
        company: A company's id (its non-anonymous jobs only).
        page: Page number; omitted when it is the first.
        guaranteed: Only vagas with 'Pagamento garantido pelo Turno' (`garantido=1`; left out when off).

    Returns:
        The URL, e.g. '/jobs?city=S%C3%A3o+Paulo&garantido=1&page=2'.
    """
    params = {
        key: value
        for key, value in (
            ("city", city),
            ("search", search),
            ("category", category),
            ("empresa", company),
            ("garantido", 1 if guaranteed else None),
            ("page", page if page and page > 1 else None),
        )
        if value
    }
    return f"{JOBS}?{urlencode(params)}" if params else JOBS


def job_detail(job_id) -> str:
    """Public page of one job (`job_id` may be a Var inside a foreach)."""
    return f"{JOBS}/{job_id}"


def attendance_code(job_id) -> str:
    """The company's 'Código de presença' screen of one vaga (`job_id` may be a Var)."""
    return f"{CLIENT_DASHBOARD}/presenca/{job_id}"


def shift_calendar(hiring_id) -> str:
    """'Adicionar à agenda': the .ics file of one of the freelancer's shifts (`hiring_id` may be a Var)."""
    return f"/api/turnos/{hiring_id}.ics"


def shift_check_in(job_id: int, code: str) -> str:
    """What the QR on the code screen opens: the freelancer's shifts with the check-in code filled in."""
    return f"{FREELANCER_DASHBOARD}?{urlencode({'tab': 'shifts', 'vaga': job_id, 'codigo': code})}"


def sitemap_jobs(number: int) -> str:
    """File `number` (1-based) of the open vagas' sitemap."""
    return SITEMAP_JOBS.replace("{number:int}", str(number))


def job_id_from_path(path: str) -> int | None:
    """The job id at the end of a /jobs/{id} path, when it is a plausible id."""
    return id_from_text(last_segment(path))


def freelancer_profile(user_id, page: int | None = None) -> str:
    """A freelancer's profile page (`user_id` may be a Var); `page` of the reviews, omitted when it is the first."""
    base = f"{FREELANCERS}/{user_id}"
    return f"{base}?{urlencode({'page': page})}" if page and page > 1 else base


# The ?tab= values of each dashboard, in the order of their menus (app/layout.py labels them).
DASHBOARD_TABS = {
    "client": (
        "overview",
        "jobs",
        "hirings",
        "shifts",
        "payments",
        "team",
        "freelancers",
        "messages",
        "notifications",
        "plans",
        "profile",
        "settings",
    ),
    "freelancer": (
        "overview",
        "jobs",
        "applications",
        "shifts",
        "earnings",
        "messages",
        "notifications",
        "profile",
        "settings",
    ),
}


def tab_keys(role: str) -> frozenset[str]:
    """The valid ?tab= values of a role's dashboard ('client' or 'freelancer')."""
    return frozenset(DASHBOARD_TABS["client" if role == "client" else "freelancer"])


def dashboard_tab(role: str, tab: str, page: int | None = None) -> str:
    """A tab of the company ('client') or freelancer dashboard; the overview has no query.

    `page` is the page of the tab's list, omitted when it is the first.
    """
    base = CLIENT_DASHBOARD if role == "client" else FREELANCER_DASHBOARD
    return _with_page(base if tab == "overview" else f"{base}?{urlencode({'tab': tab})}", page)


def new_job() -> str:
    """The company's 'Minhas Vagas' tab with the 'Publicar Nova Vaga' dialog open."""
    return f"{CLIENT_DASHBOARD}?{urlencode({'tab': 'jobs', 'nova': '1'})}"


def freelancer_job_search(
    search: str | None = None, category: str | None = None, city: str | None = None, page: int | None = None
) -> str:
    """The freelancer dashboard's 'Buscar Vagas' tab with its filters in the query (empty ones and page 1 left out)."""
    params = {
        key: value
        for key, value in (
            ("tab", "jobs"),
            ("search", search),
            ("category", category),
            ("city", city),
            ("page", page if page and page > 1 else None),
        )
        if value
    }
    return f"{FREELANCER_DASHBOARD}?{urlencode(params)}"


def company_plans(checkout: str | None = None) -> str:
    """The company dashboard's Planos tab; `checkout` ('success' or 'cancel') marks a return from Stripe."""
    params = {"tab": "plans", **({"checkout": checkout} if checkout else {})}
    return f"{CLIENT_DASHBOARD}?{urlencode(params)}"


def chat_list(role: str, page: int | None = None) -> str:
    """The conversation list of a role (`page` omitted when it is the first)."""
    return _with_page(CLIENT_CHATS if role == "client" else FREELANCER_CHATS, page)


def chat(role: str, chat_id) -> str:
    """One conversation, under the viewer's own dashboard (`chat_id` may be a Var)."""
    return f"{chat_list(role)}/{chat_id}"


def last_segment(path: str) -> str:
    """The decoded last segment of a URL path: a dynamic route's value, e.g. '/jobs/12' gives '12'.

    Pages read their dynamic argument this way from `router.url.path` (RouterData.page is
    deprecated in Reflex 0.10).
    """
    return unquote((path or "").rstrip("/").rsplit("/", 1)[-1])[:64]


def maps_search(address: str) -> str:
    """External link that opens an address in Google Maps (no embedded map: it needs no third-party script)."""
    return f"https://www.google.com/maps/search/?{urlencode({'api': '1', 'query': address})}"


class NoticeTarget(StrEnum):
    """What a notification points at (stored with it as `target` and `target_id`), never a URL.

    The notice's recipient and role are known when it is created, so each target names one place;
    `notice_path` turns it into the address, for the bell, the e-mail copy and the data export.
    """

    NONE = ""
    CLIENT_CHAT = "client_chat"  # target_id: the chat, under the company's dashboard
    FREELANCER_CHAT = "freelancer_chat"  # target_id: the chat, under the freelancer's dashboard
    JOB = "job"  # target_id: the job's public page
    COMPANY_JOBS = "company_jobs"  # 'Minhas Vagas'
    COMPANY_HIRINGS = "company_hirings"  # 'Contratações'
    COMPANY_SHIFTS = "company_shifts"  # 'Turnos'
    COMPANY_TEAM = "company_team"  # 'Minha equipe' (its sent invites)
    FREELANCER_APPLICATIONS = "freelancer_applications"  # 'Minhas Candidaturas'
    FREELANCER_HOME = "freelancer_home"  # the freelancer's overview
    FREELANCER_SHIFTS = "freelancer_shifts"  # 'Meus Turnos'


def chat_target(role: str) -> NoticeTarget:
    """The chat target of a participant of `role` ('client' or 'freelancer')."""
    return NoticeTarget.CLIENT_CHAT if role == "client" else NoticeTarget.FREELANCER_CHAT


def notice_path(target: str, target_id: int | None) -> str:
    """The in-app address of a notification's target ('' when it points nowhere or is unknown)."""
    if target in (NoticeTarget.CLIENT_CHAT, NoticeTarget.FREELANCER_CHAT, NoticeTarget.JOB):
        if not isinstance(target_id, int) or target_id <= 0:
            return ""
        if target == NoticeTarget.JOB:
            return job_detail(target_id)
        return chat("client" if target == NoticeTarget.CLIENT_CHAT else "freelancer", target_id)
    return {
        NoticeTarget.COMPANY_JOBS: dashboard_tab("client", "jobs"),
        NoticeTarget.COMPANY_HIRINGS: dashboard_tab("client", "hirings"),
        NoticeTarget.COMPANY_SHIFTS: dashboard_tab("client", "shifts"),
        NoticeTarget.COMPANY_TEAM: dashboard_tab("client", "team"),
        NoticeTarget.FREELANCER_APPLICATIONS: dashboard_tab("freelancer", "applications"),
        NoticeTarget.FREELANCER_HOME: FREELANCER_DASHBOARD,
        NoticeTarget.FREELANCER_SHIFTS: dashboard_tab("freelancer", "shifts"),
    }.get(target, "")
