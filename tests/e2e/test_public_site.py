"""The public site: every route's heading, the shell's city picker, search and mobile menu, 404, a11y."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

PUBLIC_ROUTES = {
    "/": "Encontre profissionais para hotelaria, gastronomia e eventos",
    "/login": "Entrar",
    "/register": "Criar conta",
    "/forgot-password": "Recuperar senha",
    "/jobs": "Vagas disponíveis",
    "/categories": "Categorias",
    "/categories/hotel": "Empresas - Hotelaria",
    "/freelancers": None,
    "/how-it-works": None,
    "/pricing": None,
    "/about": None,
    "/contact": None,
    "/terms": None,
    "/privacy": None,
    "/cookies": None,
}


@pytest.mark.parametrize("route", list(PUBLIC_ROUTES))
def test_public_route_shows_its_heading(page: Page, route: str):
    page.goto(route)
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_count(1)
    if PUBLIC_ROUTES[route]:
        expect(heading).to_have_text(PUBLIC_ROUTES[route])
    else:
        expect(heading).not_to_be_empty()
    expect(page.get_by_role("heading", name="Página não encontrada")).to_have_count(0)


def test_the_home_promises_only_what_the_product_does(page: Page):
    page.goto("/")
    expect(page.get_by_role("heading", name="Perfis verificados")).to_be_visible()
    features = [heading.strip() for heading in page.get_by_role("heading", level=3).all_inner_texts()]

    assert features[:6] == [
        "Perfis verificados",
        "Busca avançada",
        "Chat integrado",
        "Sistema de avaliações",
        "Turnos do início ao fim",
        "Pagamentos seguros",
    ]
    expect(page.get_by_text("código ou localização e horas aprovadas no app").first).to_be_visible()
    expect(page.get_by_text("a empresa paga pelo Stripe ao aceitar").first).to_be_visible()
    for promise in ("Gestão de disponibilidade", "geolocalizado"):
        expect(page.get_by_text(promise)).to_have_count(0)


def test_the_toast_region_is_named_in_portuguese_for_screen_readers(page: Page):
    page.goto("/login")

    expect(page.locator("section[aria-label^='Notificações']")).to_have_count(1)
    expect(page.locator("section[aria-label^='Notifications']")).to_have_count(0)


def test_unknown_path_shows_not_found_with_link_home(page: Page):
    page.goto("/nao-existe/de-jeito-nenhum")
    expect(page.get_by_role("heading", name="Página não encontrada")).to_be_visible()
    page.get_by_role("link", name="Voltar para o início").click()
    expect(page).to_have_url(re.compile(r"localhost:\d+/?$"))


def test_footer_has_every_link_and_the_current_year(page: Page):
    page.goto("/")
    footer = page.locator("footer")
    hrefs = {footer.get_by_role("link").nth(i).get_attribute("href") for i in range(footer.get_by_role("link").count())}
    expected = {
        "/jobs",
        "/freelancers",
        "/how-it-works",
        "/pricing",
        "/categories/hotel",
        "/categories/gastronomia",
        "/categories/restaurante",
        "/categories/eventos",
        "/about",
        "/contact",
        "/terms",
        "/privacy",
        "/cookies",
    }
    assert expected <= hrefs
    year = page.evaluate("new Date().getFullYear()")
    expect(footer.locator("#footer-year")).to_have_text(str(year))


def test_city_picker_goes_to_the_city_job_list(page: Page):
    page.goto("/")
    page.locator("#desktop-city").select_option("Belo Horizonte")
    expect(page).to_have_url(re.compile(r"/jobs/?\?city=Belo(\+|%20)Horizonte"))


def test_search_box_ignores_blank_text_and_searches_trimmed_text(page: Page):
    page.goto("/about")
    box = page.locator("#desktop-search")
    box.fill("   ")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/about/?$"))
    box.fill("  garçom  ")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/jobs/?\?search=gar%C3%A7om$"))


def test_mobile_menu_at_375px(mobile_page: Page):
    page = mobile_page
    page.goto("/")
    expect(page.locator("#desktop-city")).to_be_hidden()
    page.get_by_role("button", name="Abrir menu").click()
    menu = page.locator("#mobile-menu")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("link", name="Vagas")).to_be_visible()
    expect(menu.get_by_role("link", name="Entrar")).to_be_visible()
    menu.get_by_label("Cidade").select_option("Recife")
    expect(page).to_have_url(re.compile(r"/jobs/?\?city=Recife"))
    expect(page.locator("#mobile-menu")).to_have_count(0)


def test_mobile_search_row(mobile_page: Page):
    mobile_page.goto("/")
    box = mobile_page.locator("#mobile-search")
    box.fill("chef")
    box.press("Enter")
    expect(mobile_page).to_have_url(re.compile(r"/jobs/?\?search=chef$"))


@pytest.mark.parametrize("route", [*PUBLIC_ROUTES, "/nao-existe"])
def test_no_serious_accessibility_violations(page: Page, route: str):
    page.goto(route)
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    results = Axe().run(page)
    serious = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert serious == [], serious


@pytest.mark.parametrize("route", ["/", "/jobs", "/register", "/pricing", "/contact", "/how-it-works"])
def test_no_sideways_scrolling_at_375px(mobile_page: Page, route: str):
    mobile_page.goto(route)
    expect(mobile_page.get_by_role("heading", level=1)).to_be_visible()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 375


def test_the_leak_scan_and_the_csp_watch_both_follow_every_page(page: Page, leak_watch, leak_scanner, csp_violations):
    """Both autouse hooks wrap the browser's new_context: neither may hide the other's view of a page."""
    frames_before = leak_scanner.frames
    page.goto("/jobs")
    expect(page.get_by_role("heading", name="Vagas disponíveis")).to_be_visible()
    expect(page.get_by_text(re.compile(r"(\d+ vagas? encontradas?)|Nenhuma vaga encontrada")).first).to_be_visible()

    assert leak_watch.finish() == []
    assert leak_scanner.frames > frames_before
    assert page.evaluate("typeof window.__reportCspViolation") == "function"
    assert csp_violations == []
