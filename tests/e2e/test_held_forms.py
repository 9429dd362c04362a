"""A form sent from the first paint, before React has hydrated the page, waits for it (assets/held_forms.js).

The login page's first HTML is the real form, so a person on a slow phone can type and press
'Entrar' before the page's scripts have arrived. The browser would then send the form itself, as a
GET to /login with the e-mail and the password in the address (history, logs, Referer). Here the
app's scripts are held back while the person signs in: nothing may leave the page with the
password in it, and once the scripts arrive the login the person asked for goes through.
"""

import re

from playwright.sync_api import Route, expect

from tests.e2e.conftest import PASSWORD

APP_BUNDLES = re.compile(r"/assets/.+\.js(\?.*)?$")  # React Router's modules: without them nothing hydrates


def test_a_login_sent_before_the_page_is_hydrated_waits_for_it_and_never_puts_the_password_in_the_url(
    browser, base_url, make_account
):
    email = make_account("freelancer")
    context = browser.new_context(
        base_url=base_url, viewport={"width": 375, "height": 812}, locale="pt-BR", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    held: list[Route] = []
    released = []

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)  # answered once the person has pressed 'Entrar'

    page.route(APP_BUNDLES, hold)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto("/login", wait_until="domcontentloaded")
        form = page.locator("#login-form")
        form.get_by_label("Email").fill(email)
        form.get_by_label("Senha").fill(PASSWORD)
        form.get_by_role("button", name="Entrar").click()
        assert held, "the page's scripts were not held back: the test would not show anything"
        expect(page).to_have_url(re.compile(r"/login/?$"))

        released.append(True)
        for route in held:
            route.continue_()

        page.wait_for_url(re.compile(r"/freelancer-dashboard"))
        expect(page.get_by_text("Login realizado com sucesso!").first).to_be_visible()
        page.screenshot(path="/tmp/shots/held_login_375.png")
        leaked = [url for url in asked if PASSWORD in url or "password=" in url]
        assert leaked == []
        assert not any("/login?" in url or "/login/?" in url for url in asked)
    finally:
        context.close()
