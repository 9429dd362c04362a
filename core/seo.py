"""What search engines and link previews read of a public page: head tags and schema.org JSON-LD.

Crawlers and link previews (WhatsApp, Facebook, Slack) read only the HTML of the first answer; they
do not run the app's scripts or open its websocket. app/api/public_pages.py writes these tags into
that answer (docs/architecture.md "Pages crawlers can read"). Everything here is pure: values in,
escaped markup out.
"""

import html
import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from core.formatting import LOCAL_TZ

UFS = frozenset(
    [
        "AC",
        "AL",
        "AP",
        "AM",
        "BA",
        "CE",
        "DF",
        "ES",
        "GO",
        "MA",
        "MT",
        "MS",
        "MG",
        "PA",
        "PB",
        "PR",
        "PE",
        "PI",
        "RJ",
        "RN",
        "RS",
        "RO",
        "RR",
        "SC",
        "SP",
        "SE",
        "TO",
    ]
)
MISSING_CATEGORY_TITLE = "Categoria não encontrada"
DESCRIPTION_CHARS = 160
LOCALE = "pt_BR"
DEFAULT_IMAGE = "/og-default.png"  # 1200 × 630, assets/og-default.png (scripts/make_og_image.py)
DEFAULT_IMAGE_SIZE = (1200, 630)
# "São Paulo, SP", "Curitiba - PR", "Recife/PE", "Salvador (BA)": the state is the last two letters.
_CITY_STATE = re.compile(r"^\s*(?P<city>.+?)\s*(?:,|-|–|/|\()\s*(?P<uf>[A-Za-z]{2})\)?\s*$")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class PageMeta:
    """Everything the head of one public page says about it.

    Attributes:
        title: The `<title>` (product name included).
        description: The meta description (plain text; cut to DESCRIPTION_CHARS by `excerpt`).
        url: The canonical absolute URL.
        image: Absolute URL of the preview image.
        image_alt: What the preview image shows.
        site_name: The product name (og:site_name).
        robots: The robots directive ('noindex' for pages that must leave the index).
        json_ld: schema.org data for the page, or None.
        image_size: Width and height of the image when known (the default image's).
    """

    title: str
    description: str
    url: str
    image: str
    image_alt: str
    site_name: str
    robots: str = "index, follow"
    json_ld: dict | None = None
    image_size: tuple[int, int] | None = None


def site_page(title: str, description: str, url: str, site_url: str, product_name: str, robots: str = "index, follow"):
    """A page previewed with the site's own picture (every page but an open vaga with a company photo).

    Args:
        title: The `<title>`.
        description: The meta description (cut by `excerpt`).
        url: The canonical absolute URL.
        site_url: The site's public origin (for the picture's address).
        product_name: The product's name (site name and the picture's alt text).
        robots: The robots directive.

    Returns:
        The PageMeta.
    """
    return PageMeta(
        title=title,
        description=excerpt(description),
        url=url,
        image=absolute(site_url, DEFAULT_IMAGE),
        image_alt=product_name,
        image_size=DEFAULT_IMAGE_SIZE,
        site_name=product_name,
        robots=robots,
    )


def job_title(title: str, location: str, company: str, product_name: str) -> str:
    """A vaga's browser and preview title: 'Garçom em São Paulo, SP · Hotel Sol | Turno'."""
    return f"{title} em {location} · {company} | {product_name}"


def category_title(label: str) -> str:
    """The title of a category's page: 'Vagas de Eventos: empresas contratando' (its first HTML and its tab)."""
    return f"Vagas de {label}: empresas contratando"


def excerpt(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """`text` on one line, cut at a word boundary to at most `limit` characters ('…' when cut).

    Args:
        text: Any plain text (a job description with line breaks).
        limit: The most characters returned.

    Returns:
        The text with runs of white space made one space, whole if it fits.
    """
    flat = _SPACES.sub(" ", text).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,.;:-") + "…"


def city_and_state(location: str) -> tuple[str, str]:
    """Split a free-text place ('São Paulo, SP') into the city and the state's two letters.

    Args:
        location: What the company wrote in 'Localização'.

    Returns:
        (city, UF); the UF is '' when the text does not end in a Brazilian state's code.
    """
    match = _CITY_STATE.match(location or "")
    if match and match["uf"].upper() in UFS:
        return match["city"].strip(), match["uf"].upper()
    return (location or "").strip(), ""


def absolute(site_url: str, path: str) -> str:
    """`path` on the site ('/jobs/3' → 'https://site/jobs/3'); an absolute URL is returned as is."""
    if path.startswith(("http://", "https://")):
        return path
    return site_url.rstrip("/") + "/" + path.lstrip("/")


def _local(moment: datetime) -> datetime:
    """A stored instant (naive means UTC, as the database returns it) in São Paulo time."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(LOCAL_TZ)


def job_posting(
    *,
    url: str,
    title: str,
    description: str,
    posted: datetime,
    valid_through: datetime | date | None,
    location: str,
    address: str,
    hourly_rate: float,
    positions: int,
    company: str | None,
    company_site: str = "",
    company_logo: str = "",
) -> dict:
    """schema.org JobPosting for one open vaga (Google's job search reads it).

    Args:
        url: The vaga's canonical URL.
        title: Its title.
        description: Its description (plain text).
        posted: When it was published (UTC when naive).
        valid_through: When applications end: the shift's start, or the end of the day needed.
        location: The free-text place ('São Paulo, SP').
        address: The street address when the company gave one ('' otherwise).
        hourly_rate: Pay per hour in reais (0 when not stated: no baseSalary).
        positions: Openings.
        company: The company's shown name, or None when the vaga is anonymous.
        company_site: The company's site ('' when none).
        company_logo: Absolute URL of the company's photo ('' when none).

    Returns:
        The JSON-LD object.
    """
    city, state = city_and_state(location)
    if not state and address:  # 'Rua Oscar Freire, 725 - Jardins, São Paulo - SP'
        state = city_and_state(address)[1]
    postal = {"@type": "PostalAddress", "addressLocality": city, "addressCountry": "BR"}
    if state:
        postal["addressRegion"] = state
    if address:
        postal["streetAddress"] = address
    data: dict = {
        "@context": "https://schema.org",
        "@type": "JobPosting",
        "title": title,
        "description": description,
        "url": url,
        "datePosted": _local(posted).date().isoformat(),
        "employmentType": "TEMPORARY",
        "jobLocation": {"@type": "Place", "address": postal},
        "totalJobOpenings": positions,
    }
    if hourly_rate > 0:  # 0: the company did not state the pay
        data["baseSalary"] = {
            "@type": "MonetaryAmount",
            "currency": "BRL",
            "value": {"@type": "QuantitativeValue", "value": round(hourly_rate, 2), "unitText": "HOUR"},
        }
    if isinstance(valid_through, datetime):
        data["validThrough"] = _local(valid_through).isoformat(timespec="seconds")
    elif isinstance(valid_through, date):
        data["validThrough"] = datetime.combine(valid_through, time(23, 59), LOCAL_TZ).isoformat(timespec="seconds")
    if company:
        organization = {"@type": "Organization", "name": company}
        if company_site:
            organization["sameAs"] = company_site
        if company_logo:
            organization["logo"] = company_logo
        data["hiringOrganization"] = organization
    return data


def with_address(markup: str, address: str) -> str:
    """`markup` with its `<title data-seo>` marked as the title of `address` (path and query, as asked).

    The page keeps showing that title until it has loaded its own (app/layout.first_title); the mark
    tells it the title is this address's and not one left by an earlier page.
    """
    return markup.replace("<title data-seo>", f'<title data-seo data-address="{html.escape(address)}">', 1)


def json_for_script(data: dict) -> str:
    """`data` as JSON that cannot close or confuse the `<script>` element it sits in."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def head_tags(meta: PageMeta) -> str:
    """The head markup for `meta`: title, description, canonical, robots, Open Graph, Twitter card, JSON-LD.

    Args:
        meta: What the page says about itself.

    Returns:
        Escaped HTML, one tag per line, each marked `data-seo`.
    """
    e = html.escape
    tags = [
        f"<title data-seo>{e(meta.title, quote=False)}</title>",
        f'<meta data-seo name="description" content="{e(meta.description)}"/>',
        f'<link data-seo rel="canonical" href="{e(meta.url)}"/>',
        f'<meta data-seo name="robots" content="{e(meta.robots)}"/>',
        '<meta data-seo property="og:type" content="website"/>',
        f'<meta data-seo property="og:site_name" content="{e(meta.site_name)}"/>',
        f'<meta data-seo property="og:locale" content="{LOCALE}"/>',
        f'<meta data-seo property="og:title" content="{e(meta.title)}"/>',
        f'<meta data-seo property="og:description" content="{e(meta.description)}"/>',
        f'<meta data-seo property="og:url" content="{e(meta.url)}"/>',
        f'<meta data-seo property="og:image" content="{e(meta.image)}"/>',
        f'<meta data-seo property="og:image:alt" content="{e(meta.image_alt)}"/>',
    ]
    if meta.image_size:
        width, height = meta.image_size
        tags += [
            f'<meta data-seo property="og:image:width" content="{width}"/>',
            f'<meta data-seo property="og:image:height" content="{height}"/>',
        ]
    card = "summary_large_image" if meta.image_size else "summary"
    tags += [
        f'<meta data-seo name="twitter:card" content="{card}"/>',
        f'<meta data-seo name="twitter:title" content="{e(meta.title)}"/>',
        f'<meta data-seo name="twitter:description" content="{e(meta.description)}"/>',
        f'<meta data-seo name="twitter:image" content="{e(meta.image)}"/>',
    ]
    if meta.json_ld is not None:
        tags.append(f'<script data-seo type="application/ld+json">{json_for_script(meta.json_ld)}</script>')
    return "\n".join(tags)
