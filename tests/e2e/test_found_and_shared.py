"""Vagas found on search engines and shared on WhatsApp (issue 24 #1–3).

Crawlers and link previews read only the first HTML answer, so those checks fetch the raw HTML
with an HTTP client; what a person sees before the websocket connects is checked in the browser
with the websocket held back.
"""

import html
import json
import re
import uuid
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from urllib.parse import quote
from xml.etree import ElementTree

import httpx
from playwright.sync_api import Page, expect

from core.db import session_scope
from core.formatting import LOCAL_TZ
from models import Job
from services.jobs import company_jobs
from tests.e2e.conftest import goto_ready, wait_hydrated
from tests.e2e.test_job_browsing import _add_jobs, _company

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _vaga(**fields) -> tuple[int, str, str]:
    """An open vaga of a new company (category 'eventos'), starting in 10 days at 19:00 in São Paulo.

    Returns:
        (id, title, company name).
    """
    token = "zq" + uuid.uuid4().hex[:8]
    company = f"Buffet {token}"
    day = date.today() + timedelta(days=10)
    start = datetime.combine(day, time(19), tzinfo=LOCAL_TZ).astimezone(UTC)
    values = {
        "localizacao": "Curitiba, PR",
        "valor_hora": Decimal("38.00"),
        "descricao": "Servir volantes em casamento para 150 convidados.",
        "data_necessaria": day,
        "inicio_em": start,
        "fim_em": start + timedelta(hours=6),
        **fields,
    }
    [job_id] = _add_jobs(_company(company), [f"Garçom {token}"], **values)
    return job_id, f"Garçom {token}", company


def _close(job_id: int) -> None:
    """'Encerrar vaga' by its company."""
    with session_scope() as db:
        company_jobs.close_job(db, db.get(Job, job_id).cliente_id, job_id)


def _head_tags(page_html: str) -> dict[str, str]:
    """property/name → content of the page's meta tags."""
    tags = {}
    for match in re.finditer(r'<meta data-seo (?:name|property)="([^"]+)" content="([^"]*)"/>', page_html):
        tags[match[1]] = html.unescape(match[2])
    return tags


def _json_ld(page_html: str) -> dict:
    match = re.search(r'<script data-seo type="application/ld\+json">(.*?)</script>', page_html)
    assert match, "no JSON-LD"
    return json.loads(match[1])


def test_the_first_html_of_a_vaga_carries_its_title_preview_and_job_posting(base_url: str):
    job_id, title, company = _vaga()

    answer = httpx.get(f"{base_url}/jobs/{job_id}")

    assert answer.status_code == 200
    page_html = answer.text
    expected_title = f"{title} em Curitiba, PR · {company} | Turno"
    assert re.search(r'<title data-seo data-address="/jobs/\d+">(.*?)</title>', page_html)[1] == expected_title
    tags = _head_tags(page_html)
    assert tags["og:title"] == tags["twitter:title"] == expected_title
    assert tags["description"].startswith("R$ 38,00/hora · ")
    assert "Servir volantes em casamento" in tags["og:description"]
    assert tags["og:url"] == f"{base_url}/jobs/{job_id}"
    assert tags["og:image"] == f"{base_url}/og-default.png"
    assert tags["og:locale"] == "pt_BR"
    assert tags["twitter:card"] == "summary_large_image"
    assert f'<link data-seo rel="canonical" href="{base_url}/jobs/{job_id}"/>' in page_html
    posting = _json_ld(page_html)
    assert posting["@type"] == "JobPosting"
    assert posting["title"] == title
    assert posting["employmentType"] == "TEMPORARY"
    assert posting["hiringOrganization"]["name"] == company
    assert posting["jobLocation"]["address"]["addressLocality"] == "Curitiba"
    assert posting["jobLocation"]["address"]["addressRegion"] == "PR"
    assert posting["baseSalary"]["currency"] == "BRL"
    assert posting["baseSalary"]["value"] == {"@type": "QuantitativeValue", "value": 38.0, "unitText": "HOUR"}
    assert posting["validThrough"].endswith("T19:00:00-03:00")
    preview = httpx.get(tags["og:image"])
    assert (preview.status_code, preview.headers["content-type"]) == (200, "image/png")


def test_a_closed_vaga_answers_410_a_missing_one_404_and_both_leave_the_index(base_url: str):
    job_id, _, _ = _vaga()
    closed_id, _, _ = _vaga()
    _close(closed_id)

    gone = httpx.get(f"{base_url}/jobs/{closed_id}")
    assert gone.status_code == 410
    assert '<meta data-seo name="robots" content="noindex"/>' in gone.text
    assert "Vaga não disponível | Turno" in gone.text
    missing = httpx.get(f"{base_url}/jobs/987654321")
    assert missing.status_code == 404
    assert "Vaga não encontrada | Turno" in missing.text
    assert httpx.get(f"{base_url}/jobs/{job_id}").status_code == 200


def test_a_category_page_answers_with_its_own_title_and_an_unknown_one_404(base_url: str):
    found = httpx.get(f"{base_url}/categories/eventos")
    assert found.status_code == 200
    assert (
        re.search(r"<title data-seo[^>]*>(.*?)</title>", found.text)[1]
        == "Vagas de Eventos: empresas contratando | Turno"
    )
    assert f'<link data-seo rel="canonical" href="{base_url}/categories/eventos"/>' in found.text
    assert httpx.get(f"{base_url}/categories/nada").status_code == 404


def test_a_filtered_job_list_answers_with_its_own_title_and_a_search_is_not_indexed(base_url: str):
    listed = httpx.get(f"{base_url}/jobs", params={"city": "Curitiba", "category": "eventos"})
    assert listed.status_code == 200
    assert re.findall(r"<title[^>]*>(.*?)</title>", listed.text) == ["Vagas de Eventos em Curitiba | Turno"]
    assert f'<link data-seo rel="canonical" href="{base_url}/jobs?city=Curitiba&amp;category=eventos"/>' in listed.text
    searched = httpx.get(f"{base_url}/jobs", params={"search": "garçom"})
    assert '<meta data-seo name="robots" content="noindex, follow"/>' in searched.text


def _locs(xml: str) -> list[str]:
    return [node.text for node in ElementTree.fromstring(xml).iter(f"{SITEMAP_NS}loc")]  # noqa: S314 (our own answer)


def test_robots_and_the_sitemap_list_open_vagas_and_drop_a_closed_one(base_url: str):
    open_id, _, _ = _vaga()
    closed_id, _, _ = _vaga()
    _close(closed_id)

    robots = httpx.get(f"{base_url}/robots.txt")
    assert robots.status_code == 200
    assert f"Sitemap: {base_url}/sitemap.xml" in robots.text.splitlines()
    assert "Disallow: /client-dashboard" in robots.text.splitlines()
    files = _locs(httpx.get(f"{base_url}/sitemap.xml").text)
    assert files[0] == f"{base_url}/sitemap-paginas.xml"
    assert f"{base_url}/categories/eventos" in _locs(httpx.get(files[0]).text)
    vagas = [loc for file in files[1:] for loc in _locs(httpx.get(file).text)]
    assert f"{base_url}/jobs/{open_id}" in vagas
    assert f"{base_url}/jobs/{closed_id}" not in vagas


def test_a_person_reads_the_vaga_before_the_page_connects(page: Page):
    job_id, title, company = _vaga()
    page.route_web_socket(re.compile(r"/_event"), lambda ws: None)  # the websocket never answers

    page.goto(f"/jobs/{job_id}")

    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    expect(page.get_by_text("R$ 38,00/hora")).to_be_visible()
    expect(page.get_by_text("Pagamento direto pela empresa — sem garantia do Turno")).to_be_visible()
    expect(page.get_by_text(f"Eventos · {company}")).to_be_visible()
    expect(page.get_by_text("Servir volantes em casamento para 150 convidados.")).to_be_visible()
    expect(page.get_by_role("link", name="Entre para se candidatar")).to_have_attribute(
        "href", f"/login?next=%2Fjobs%2F{job_id}"
    )
    expect(page.get_by_text("Carregando").filter(visible=True)).to_have_count(0)  # the app waits unseen
    wait_hydrated(page, "#desktop-city")  # React has rendered the page behind the article
    expect(page).to_have_title(f"{title} em Curitiba, PR · {company} | Turno")  # not the page's default


def test_once_connected_the_app_takes_over_with_the_vagas_title_and_lets_go_of_it_elsewhere(page: Page):
    job_id, title, company = _vaga()

    page.goto(f"/jobs/{job_id}")

    expect(page.locator("#job-company")).to_have_text(company)  # the app's own page
    expect(page.locator("#first-paint")).to_have_count(0)
    expect(page.locator("#job-payment")).to_contain_text("Pagamento direto pela empresa — sem garantia do Turno")
    expect(page).to_have_title(f"{title} em Curitiba, PR · {company} | Turno")
    page.get_by_role("link", name="Voltar para as vagas").click()
    expect(page).to_have_url(re.compile(r"/jobs/?$"))
    expect(page).to_have_title("Vagas disponíveis | Turno")


def test_a_vaga_opened_from_a_searched_list_has_its_own_title_and_the_list_gets_its_back(page: Page):
    _, title, company = _vaga()
    token = title.split()[-1]
    goto_ready(page, f"/jobs?search={token}")  # the list's first HTML brought the server's title
    expect(page).to_have_title(f"Vagas temporárias para “{token}” | Turno")

    page.get_by_role("link", name=f"Ver detalhes da vaga {title}").click()

    expect(page.locator("#job-company")).to_have_text(company)
    expect(page).to_have_title(f"{title} em Curitiba, PR · {company} | Turno")
    page.go_back()
    expect(page).to_have_title(f"Vagas temporárias para “{token}” | Turno")


def test_a_category_page_keeps_its_title_before_and_after_it_connects(page: Page):
    held = page.context.new_page()
    held.route_web_socket(re.compile(r"/_event"), lambda ws: None)  # the websocket never answers
    held.goto("/categories/eventos")
    wait_hydrated(held, "#desktop-city")
    expect(held).to_have_title("Vagas de Eventos: empresas contratando | Turno")

    goto_ready(page, "/categories/eventos")
    expect(page).to_have_title("Vagas de Eventos: empresas contratando | Turno")
    page.goto("/categories/nada")
    expect(page.get_by_role("heading", name="Categoria não encontrada")).to_be_visible()
    expect(page).to_have_title("Categoria não encontrada | Turno")


def test_compartilhar_offers_whatsapp_and_copies_the_link(page: Page, base_url: str):
    job_id, title, _ = _vaga()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    page.goto(f"/jobs/{job_id}")

    share = page.get_by_role("group", name="Compartilhar esta vaga")
    url = f"{base_url}/jobs/{job_id}"
    whatsapp = share.get_by_role("link", name="WhatsApp")
    expect(whatsapp).to_have_attribute(
        "href", "https://wa.me/?text=" + quote(f"Vaga: {title} em Curitiba, PR {url}", safe="")
    )
    expect(share.get_by_role("button", name="Compartilhar")).to_be_hidden()  # no Web Share in desktop Chromium
    share.get_by_role("button", name="Copiar link").click()
    expect(page.get_by_text("Link copiado")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == url


def test_where_the_phone_has_a_share_sheet_compartilhar_opens_it_with_the_vaga(mobile_page: Page, base_url: str):
    job_id, title, company = _vaga()
    mobile_page.add_init_script("navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };")

    mobile_page.goto(f"/jobs/{job_id}")

    button = mobile_page.get_by_role("group", name="Compartilhar esta vaga").get_by_role("button", name="Compartilhar")
    expect(button).to_be_visible()
    button.click()
    mobile_page.wait_for_function("window.sharedWith !== undefined")
    shared = mobile_page.evaluate("window.sharedWith")
    assert shared == {"title": f"{title} em Curitiba, PR · {company} | Turno", "url": f"{base_url}/jobs/{job_id}"}
