"""Turno as an installed app: the manifest, the service worker, the offline page and 'Instalar o app'."""

import re

from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import login

WORKER_READY = "() => navigator.serviceWorker.ready.then((registration) => registration.scope)"
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
  }
  return urls.sort();
}"""


def test_the_manifest_and_its_icons_are_served_and_linked(page: Page, base_url: str):
    page.goto("/")
    expect(page.locator('link[rel="manifest"]')).to_have_attribute("href", "/manifest.webmanifest")
    manifest = page.request.get("/manifest.webmanifest").json()
    assert (manifest["name"], manifest["lang"], manifest["start_url"]) == ("Turno", "pt-BR", "/app")
    for icon in manifest["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.status == 200 and answer.headers["content-type"] == "image/png"


def test_without_a_connection_a_page_says_so_and_comes_back_with_it(page: Page, context: BrowserContext, base_url):
    page.goto("/")
    assert page.evaluate(WORKER_READY) == f"{base_url}/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    context.set_offline(True)
    page.goto("/jobs")
    expect(page.get_by_role("heading", name="Você está sem conexão")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/jobs/?$"))  # the address stays the one asked for
    logo = page.get_by_role("img", name="Turno")
    expect(logo).to_be_visible()
    page.wait_for_function(
        "() => { const img = document.querySelector('main img'); return img.complete && img.naturalWidth > 0; }"
    )

    context.set_offline(False)
    page.get_by_role("link", name="Tentar novamente").click()
    expect(page.get_by_role("heading", name="Vagas disponíveis")).to_be_visible()


def test_the_worker_keeps_nothing_of_a_signed_in_person(page: Page, make_account):
    login(page, make_account("freelancer"))
    page.goto("/freelancer-dashboard?tab=profile")
    expect(page.get_by_role("heading", name="Meu Perfil")).to_be_visible()
    page.evaluate(WORKER_READY)

    assert page.evaluate(CACHED_URLS) == ["/favicon.svg", "/icons/icon-192.png", "/offline"]


def test_the_installed_app_opens_the_freelancers_dashboard(page: Page, make_account):
    login(page, make_account("freelancer"))
    page.goto("/app")
    expect(page).to_have_url(re.compile(r"/freelancer-dashboard/?$"))


def test_instalar_o_app_appears_when_the_browser_offers_and_asks_it(page: Page, make_account):
    login(page, make_account("client"))
    page.goto("/client-dashboard?tab=settings")
    page.get_by_role("tab", name="Notificações").click()
    button = page.locator("#settings-install-app")
    expect(page.get_by_text("No iPhone, abra no Safari")).to_be_visible()
    expect(button).to_be_hidden()  # this browser has not offered to install

    page.evaluate(
        """() => {
          const offer = new Event("beforeinstallprompt", { cancelable: true });
          offer.prompt = () => { window.__asked = (window.__asked || 0) + 1; return Promise.resolve(); };
          window.dispatchEvent(offer);
        }"""
    )
    expect(button).to_be_visible()
    button.click()

    assert page.evaluate("window.__asked") == 1
    expect(button).to_be_hidden()  # asked once; the browser answers from here
