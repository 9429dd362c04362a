"""The HTML answer of /jobs/{id}, robots.txt and the sitemaps (app/api/public_pages.py, app/api/crawlers.py)."""

import gzip
import re
from xml.etree import ElementTree

import pytest

from app.api import crawlers, public_pages
from app.api.first_paint import ELEMENT_ID, job_article
from core import routes
from models import JobStatus
from services.jobs import job_detail, sitemap
from tests.support.factories import make_company, make_job

SHELL = (
    '<html><head><meta charSet="utf-8"/></head><body><section></section><div class="radix-themes"></div></body></html>'
)
NS = {"s": crawlers.NAMESPACE}


@pytest.fixture(autouse=True)
def _no_cached_sitemaps():
    sitemap.clear()
    yield
    sitemap.clear()


def _open_job(db, **fields):
    company = make_company(db, empresa="Hotel <Sol>")
    job = make_job(db, company, "Garçom <script>alert(1)</script>", localizacao="Curitiba, PR", **fields)
    db.commit()
    return job


def test_an_open_vaga_answers_200_with_its_title_preview_and_job_posting(db):
    job = _open_job(db)

    answer = public_pages.job_page_answer(f"/jobs/{job.id}", job.id)

    assert answer.status == 200
    title = "Garçom &lt;script&gt;alert(1)&lt;/script&gt; em Curitiba, PR · Hotel &lt;Sol&gt; | Turno"
    assert f"<title data-seo>{title}</title>" in answer.head
    assert f'<link data-seo rel="canonical" href="http://turno.test/jobs/{job.id}"/>' in answer.head
    assert '<meta data-seo property="og:image" content="http://turno.test/og-default.png"/>' in answer.head
    assert '"addressRegion":"PR"' in answer.head
    assert '"hiringOrganization":{"@type":"Organization","name":"Hotel \\u003cSol\\u003e"}' in answer.head
    assert "<script>alert" not in answer.head + answer.body


def test_the_first_paint_shows_the_vaga_and_the_way_to_apply_escaped(db):
    job = _open_job(db, descricao="Servir <b>mesas</b>\nem evento.")
    detail = job_detail.get_public_job(db, job.id)

    article = job_article(detail, "Turno")

    assert article.startswith(f'<div id="{ELEMENT_ID}">')
    assert "<h1>Garçom &lt;script&gt;alert(1)&lt;/script&gt;</h1>" in article
    assert "Servir &lt;b&gt;mesas&lt;/b&gt;\nem evento." in article
    assert "R$ 30,00/hora" in article
    assert "<dt>Pagamento</dt><dd>Pagamento direto pela empresa — sem garantia do Turno</dd>" in article
    assert f'href="/login?next=%2Fjobs%2F{job.id}">Entre para se candidatar</a>' in article


def test_an_anonymous_vaga_keeps_its_company_out_of_the_head(db):
    job = _open_job(db, anuncio_anonimo=True)

    answer = public_pages.job_page_answer(f"/jobs/{job.id}", job.id)

    assert "Hotel" not in answer.head
    assert "Empresa Confidencial" in answer.head
    assert "hiringOrganization" not in answer.head


@pytest.mark.parametrize("status", [JobStatus.CLOSED, JobStatus.IN_PROGRESS, JobStatus.ARCHIVED])
def test_a_vaga_no_longer_open_answers_410_noindex_without_its_content(db, status):
    job = _open_job(db, status=status)

    answer = public_pages.job_page_answer(f"/jobs/{job.id}", job.id)

    assert answer.status == 410
    assert '<meta data-seo name="robots" content="noindex"/>' in answer.head
    assert "<title data-seo>Vaga não disponível | Turno</title>" in answer.head
    assert "Garçom" not in answer.head
    assert answer.body == ""


@pytest.mark.parametrize(("path", "job_id"), [("/jobs/987654", 987654), ("/jobs/abc", None), ("/jobs/0/", None)])
def test_an_id_that_never_existed_answers_404_noindex(db, path, job_id):
    answer = public_pages.job_page_answer(path, job_id)

    assert answer.status == 404
    assert "<title data-seo>Vaga não encontrada | Turno</title>" in answer.head
    assert 'content="noindex"' in answer.head


def test_the_answer_goes_at_the_end_of_the_head_and_the_first_paint_opens_the_body():
    answer = public_pages.PageAnswer(200, "<title data-seo>T</title>", "<div id=x></div>")

    page = public_pages.with_answer(SHELL, answer, '/jobs/7?x="1"')

    assert page == (
        '<html><head><meta charSet="utf-8"/><title data-seo data-address="/jobs/7?x=&quot;1&quot;">T</title></head>'
        '<body><div id=x></div><section></section><div class="radix-themes"></div></body></html>'
    )


def test_the_shell_is_read_from_the_build_and_missing_without_one(tmp_path, monkeypatch):
    monkeypatch.setattr(public_pages, "frontend_build_dir", lambda: tmp_path)
    assert public_pages.shell() is None
    (tmp_path / public_pages.SHELL_FILE).write_text(SHELL, encoding="utf-8")
    assert public_pages.shell() == SHELL


def test_robots_keeps_crawlers_out_of_private_areas_and_points_at_the_sitemap():
    text = crawlers.robots_text("https://turno.example.com.br")
    lines = text.splitlines()
    assert lines[:2] == ["User-agent: *", "Allow: /"]
    assert "Disallow: /client-dashboard" in lines
    assert "Disallow: /freelancer-dashboard" in lines
    assert "Disallow: /reset-password" in lines
    assert "Sitemap: https://turno.example.com.br/sitemap.xml" in lines


def _locs(xml: str) -> list[str]:
    return [node.text for node in ElementTree.fromstring(xml).iter(f"{{{crawlers.NAMESPACE}}}loc")]  # noqa: S314 (our own answer)


def test_the_sitemap_lists_open_vagas_only_and_a_closed_one_leaves_it(db):
    company = make_company(db)
    kept = make_job(db, company, "Garçom")
    closing = make_job(db, company, "Bartender")
    make_job(db, company, "Arquivada", status=JobStatus.ARCHIVED)
    db.commit()

    listed = _locs(crawlers._jobs_file(1))
    assert listed == [f"http://turno.test/jobs/{kept.id}", f"http://turno.test/jobs/{closing.id}"]

    closing.status = JobStatus.CLOSED
    db.add(closing)
    db.commit()
    assert _locs(crawlers._jobs_file(1)) == [f"http://turno.test/jobs/{kept.id}"]


def test_past_the_files_limit_the_vagas_are_paged_and_the_index_lists_every_file(db, monkeypatch):
    monkeypatch.setattr(sitemap, "URLS_PER_FILE", 2)
    company = make_company(db)
    ids = [make_job(db, company, f"Vaga {n}").id for n in range(5)]
    db.commit()

    index = _locs(crawlers._index())
    assert index == [
        "http://turno.test/sitemap-paginas.xml",
        "http://turno.test/sitemap-vagas-1.xml",
        "http://turno.test/sitemap-vagas-2.xml",
        "http://turno.test/sitemap-vagas-3.xml",
    ]
    pages = [_locs(crawlers._jobs_file(n)) for n in (1, 2, 3)]
    assert [len(page) for page in pages] == [2, 2, 1]
    assert [url.rsplit("/", 1)[1] for page in pages for url in page] == [str(job_id) for job_id in ids]
    assert crawlers._jobs_file(4) is None


def test_an_empty_site_still_has_one_file_of_vagas(db):
    assert _locs(crawlers._index())[-1] == "http://turno.test/sitemap-vagas-1.xml"
    assert _locs(crawlers._jobs_file(1)) == []


def test_the_fixed_pages_file_has_the_lists_information_pages_and_every_category():
    locs = _locs(crawlers.url_set("https://t.test", [(path, None) for path in sitemap.fixed_paths()]))
    assert "https://t.test/" in locs
    assert "https://t.test/jobs" in locs
    assert "https://t.test/categories/eventos" in locs
    assert not any(re.search(r"dashboard|admin|login", loc) for loc in locs)


@pytest.mark.parametrize("slug", ["eventos", "events"])
def test_a_category_page_has_its_own_title_and_a_canonical_on_the_portuguese_slug(slug):
    answer = public_pages.category_page_answer(f"/categories/{slug}", slug)

    assert answer.status == 200
    assert "<title data-seo>Vagas de Eventos: empresas contratando | Turno</title>" in answer.head
    assert '<link data-seo rel="canonical" href="http://turno.test/categories/eventos"/>' in answer.head
    assert answer.body == ""


def test_an_unknown_category_answers_404_noindex():
    answer = public_pages.category_page_answer("/categories/<x>", "<x>")

    assert answer.status == 404
    assert "<title data-seo>Categoria não encontrada | Turno</title>" in answer.head
    assert 'content="noindex"' in answer.head
    assert "<x>" not in answer.head


@pytest.mark.parametrize(
    ("asked", "path", "kind"),
    [
        ("freelancer", "/register", "freelancer"),
        ("client", "/register/freelancer", "client"),
        (None, "/register", "client"),
        (None, "/register/freelancer", "freelancer"),
        ("admin", "/register", "client"),  # never a role the forms do not have
        (["freelancer"], "/register", "client"),
    ],
)
def test_the_registration_tab_is_the_urls_kind_or_the_pages_own(asked, path, kind):
    assert routes.register_kind(asked, path) == kind


def _page(route: str, form: str) -> str:
    return (
        f'<html><head><link rel="modulepreload" href="/assets/{route}.js"/></head><body>'
        f'<a href="{route}/#conteudo">Pular</a><form id="{form}"></form>'
        f'<script>import "/assets/{route}.js";</script></body></html>'
    )


def test_register_with_type_freelancer_shows_the_freelancer_markup_with_the_register_routes_scripts(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(public_pages, "frontend_build_dir", lambda: tmp_path)
    (tmp_path / "register").mkdir()
    (tmp_path / "register" / "index.html").write_text(_page("/register", "company-form"), encoding="utf-8")
    (tmp_path / "register" / "freelancer.html").write_text(
        _page("/register/freelancer", "freelancer-form"), encoding="utf-8"
    )

    freelancer_first = (
        '<html><head><link rel="modulepreload" href="/assets//register.js"/></head><body>'
        '<a href="/register/#conteudo">Pular</a><form id="freelancer-form"></form>'
        '<script>import "/assets//register.js";</script></body></html>'
    )
    assert public_pages.register_variant("/register", "type=freelancer") == freelancer_first
    assert public_pages.register_variant("/register/", "next=%2Fx&type=freelancer") == freelancer_first
    company_first = public_pages.register_variant("/register/freelancer", "type=client")
    assert '<form id="company-form">' in company_first
    assert 'import "/assets//register/freelancer.js"' in company_first
    # No type: the static files answer (None); the path's own type: its own HTML, as it is.
    assert public_pages.register_variant("/register", "") is None
    assert public_pages.register_variant("/register/freelancer/", "next=%2Fjobs") is None
    assert public_pages.register_variant("/register", "type=client") == _page("/register", "company-form")
    assert public_pages.register_variant("/register", "type=admin") == _page("/register", "company-form")


def test_a_page_is_gzipped_for_browsers_that_accept_it_and_plain_otherwise():
    page = "<html>" + "vaga " * 500 + "</html>"
    zipped = public_pages.html_response(page, 410, {"headers": [(b"accept-encoding", b"gzip, deflate, br")]})
    assert (zipped.status_code, zipped.headers["content-encoding"]) == (410, "gzip")
    assert gzip.decompress(zipped.body).decode() == page
    plain = public_pages.html_response(page, 200, {"headers": []})
    assert "content-encoding" not in plain.headers
    assert plain.body.decode() == page


@pytest.mark.parametrize(
    ("query", "title", "canonical", "robots"),
    [
        ("city=Curitiba", "Vagas temporárias em Curitiba | Turno", "http://turno.test/jobs?city=Curitiba", "index"),
        (
            "category=events&city=Recife&page=2",
            "Vagas de Eventos em Recife | Turno",
            "http://turno.test/jobs?city=Recife&amp;category=eventos&amp;page=2",
            "index",
        ),
        ("search=gar%C3%A7om", "Vagas temporárias para “garçom” | Turno", "http://turno.test/jobs", "noindex"),
    ],
)
def test_a_filtered_job_list_says_what_it_lists(tmp_path, monkeypatch, query, title, canonical, robots):
    monkeypatch.setattr(public_pages, "frontend_build_dir", lambda: tmp_path)
    (tmp_path / "jobs").mkdir()
    static = (
        '<html><head><title>Vagas disponíveis | Turno</title><meta content="Tudo" name="description"/>'
        '<meta content="http://x/og.png" property="og:image"/></head><body>lista</body></html>'
    )
    (tmp_path / "jobs" / "index.html").write_text(static, encoding="utf-8")

    page = public_pages.filtered_jobs_page("/jobs", query)

    assert re.findall(r"<title[^>]*>([^<]*)</title>", page) == [title]
    assert f'<title data-seo data-address="/jobs?{query.replace("&", "&amp;")}">' in page  # the app keeps it
    assert f'<link data-seo rel="canonical" href="{canonical}"/>' in page
    assert f'name="robots" content="{robots}, follow"' in page
    assert 'content="Tudo"' not in page and "http://x/og.png" not in page  # the static head's, replaced
    assert page.endswith("<body>lista</body></html>")
    assert public_pages.filtered_jobs_page("/jobs", "") is None
    assert public_pages.filtered_jobs_page("/jobs", "page=2") is None  # no filter: the static page answers


def test_a_searched_list_has_its_search_box_filled_in_the_first_html_escaped():
    page = '<form><input id="jobs-search" name="search" value=""/></form><input id="other" value=""/>'

    filled = public_pages.with_search_value(page, 'garçom "<b>"')

    assert filled == (
        '<form><input id="jobs-search" name="search" value="garçom &quot;&lt;b&gt;&quot;"/></form>'
        '<input id="other" value=""/>'
    )
    assert public_pages.with_search_value(page, "") == page
    assert public_pages.with_search_value('<input id="x" value=""/>', "a") == '<input id="x" value=""/>'


def test_a_listed_category_is_the_one_chosen_in_the_first_html():
    page = (
        '<select id="jobs-category"><option value="" selected="">Todas</option><option value="eventos">Eventos'
        '</option></select><select id="x"><option value="eventos">E</option></select>'
    )

    chosen = public_pages.with_category_chosen(page, "eventos")

    assert chosen == (
        '<select id="jobs-category"><option value="">Todas</option><option value="eventos" selected="">Eventos'
        '</option></select><select id="x"><option value="eventos">E</option></select>'
    )
    assert public_pages.with_category_chosen(page, "") == page
    assert public_pages.with_category_chosen(page, "nada") == page  # not an option: left as built
