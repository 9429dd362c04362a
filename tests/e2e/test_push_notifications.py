"""Notifications on the device: 'Ativar notificações neste aparelho', the push that arrives, 'Remover'.

The browser's push service (FCM for Chromium) is not reachable here, so the page's
`PushManager.subscribe` is stubbed to answer a subscription of tests/support/fake_push.py, with
keys the fake holds: the app's server then encrypts and POSTs each push to the fake, which checks
VAPID and decrypts it exactly as the browser would. Everything else is real: the permission
prompt (granted by the context), the service worker, the settings page, the server's queue and
sender, the chat that causes the push.
"""

import json

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import toast
from tests.support.chat_support import bubbles, chat_url, hire, person, send
from tests.support.fake_push import FakePushService
from tests.support.polling import wait_until

# The browser's PushManager, answering the fake's subscription (and forgetting it on unsubscribe).
STUB = """
(subscription) => {
  let current = null;
  const make = () => ({
    endpoint: subscription.endpoint,
    options: { applicationServerKey: null },
    toJSON: () => subscription,
    unsubscribe: async () => { current = null; window.__pushUnsubscribed = true; return true; },
  });
  PushManager.prototype.subscribe = async function () { current = make(); return current; };
  PushManager.prototype.getSubscription = async function () { return current; };
}
"""


def _stub_push(context: BrowserContext, subscription: dict) -> None:
    context.grant_permissions(["notifications"])
    context.add_init_script(f"({STUB})({json.dumps(subscription)})")


def _notification_settings(page: Page, role: str) -> None:
    page.goto(f"/{role}-dashboard?tab=settings")
    page.get_by_role("tab", name="Notificações").click()


def test_a_freelancer_activates_push_receives_a_message_and_removes_the_device(browser: Browser, base_url: str):
    pair = hire("Garçom para casamento")
    with FakePushService() as fake:
        subscription = fake.subscribe("freelancer-phone")
        company_ctx, company = person(browser, base_url, pair.company)
        freelancer_ctx, freelancer = person(browser, base_url, pair.freelancer, mobile=True)
        try:
            _stub_push(freelancer_ctx, subscription)
            _notification_settings(freelancer, "freelancer")
            expect(freelancer.locator("#push-none")).to_have_text("Nenhum aparelho recebe notificações.")
            freelancer.get_by_role("button", name="Ativar notificações neste aparelho").click()
            expect(toast(freelancer, "Notificações ativadas neste aparelho.")).to_be_visible()
            device = freelancer.locator(".push-device")
            expect(device).to_have_count(1)
            expect(device).to_contain_text("Chrome no Linux")
            expect(device).to_contain_text("Este aparelho")
            expect(freelancer.locator("#push-here")).to_have_text("Este aparelho já recebe notificações.")
            expect(freelancer.get_by_role("button", name="Ativar notificações neste aparelho")).to_have_count(0)
            freelancer.screenshot(path="/tmp/shots/push_settings_375.png", full_page=True)

            company.goto(chat_url("client", pair.chat_id))
            company.locator("#chat-input").wait_for()
            send(company, "Você consegue chegar às 18h?")  # the freelancer is on the settings page, not the chat
            (delivery,) = fake.wait_for(1, "freelancer-phone", timeout=20)
            assert delivery.payload["title"] == "Nova mensagem"
            assert delivery.payload["body"] == 'Nova mensagem de Mariana Costa sobre a vaga "Garçom para casamento"'
            assert delivery.payload["url"] == f"{base_url}{chat_url('freelancer', pair.chat_id)}"

            freelancer.get_by_role("button", name="Remover Chrome no Linux").click()
            expect(toast(freelancer, "Aparelho removido. Ele não recebe mais notificações.")).to_be_visible()
            expect(freelancer.locator("#push-none")).to_be_visible()
            expect(freelancer.get_by_role("button", name="Ativar notificações neste aparelho")).to_be_visible()
            freelancer.wait_for_function("() => window.__pushUnsubscribed === true")  # the browser let go too

            send(company, "Confirmado então!")  # stored: nothing was queued with it (no device left)
            expect(bubbles(company, "Confirmado então!")).to_have_count(1)
            assert fake.attempts("freelancer-phone") == 1
        finally:
            company_ctx.close()
            freelancer_ctx.close()


def test_a_browser_that_refuses_permission_is_told_how_to_allow_it(browser: Browser, base_url: str):
    pair = hire()
    context, page = person(browser, base_url, pair.freelancer)
    try:
        page.add_init_script("Notification.requestPermission = async () => 'denied';")
        _notification_settings(page, "freelancer")
        page.get_by_role("button", name="Ativar notificações neste aparelho").click()
        expect(toast(page, "As notificações estão bloqueadas neste navegador")).to_be_visible()
        expect(page.locator("#push-none")).to_be_visible()
    finally:
        context.close()


def test_logging_out_on_the_device_ends_its_pushes(browser: Browser, base_url: str):
    pair = hire()
    with FakePushService() as fake:
        subscription = fake.subscribe("laptop")
        context, page = person(browser, base_url, pair.company)
        try:
            _stub_push(context, subscription)
            _notification_settings(page, "client")
            page.get_by_role("button", name="Ativar notificações neste aparelho").click()
            expect(page.locator(".push-device")).to_have_count(1)
            page.screenshot(path="/tmp/shots/push_settings_1280.png", full_page=True)
            page.get_by_role("button", name="Sair").first.click()
            expect(page.get_by_text("Logout realizado")).to_be_visible()
        finally:
            context.close()
        other_ctx, other = person(browser, base_url, pair.freelancer)
        try:
            other.goto(chat_url("freelancer", pair.chat_id))
            other.locator("#chat-input").wait_for()
            send(other, "Chego às 18h.")
            expect(bubbles(other, "Chego às 18h.")).to_have_count(1)
        finally:
            other_ctx.close()
        company_ctx, company = person(browser, base_url, pair.company)
        try:
            _notification_settings(company, "client")
            expect(company.locator("#push-none")).to_be_visible()  # the device went with the session
            assert fake.attempts("laptop") == 0
        finally:
            company_ctx.close()


NOTIFICATIONS = """() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))"""


def test_the_service_worker_shows_a_push_with_the_page_to_open_on_this_site(context: BrowserContext, base_url: str):
    """A push delivered to the real service worker (Chromium's DevTools protocol plays the push service)."""
    context.grant_permissions(["notifications"])
    page = context.new_page()
    page.goto("/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"] if not r["isDeleted"]),
    )
    cdp.send("ServiceWorker.enable")
    # Each Playwright call lets the protocol's events in; the registration arrives as one.
    wait_until(lambda: page.evaluate("1") and registrations, 10, 0.1, "the service worker is not registered")
    payload = {
        "title": "Candidatura aceita",
        "body": 'Sua candidatura para a vaga "Garçom" foi aceita!',
        "url": "http://outro-endereco:9999/freelancer-dashboard/chats/7",  # a push built for another host
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base_url, "registrationId": registrations[0], "data": json.dumps(payload)},
    )
    # getNotifications() answers a promise, which wait_for_function would take as truthy at once
    # (it never awaits its predicate): poll from here until the service worker has shown it.
    shown = wait_until(lambda: page.evaluate(NOTIFICATIONS), 10, 0.1, "the service worker showed no notification")
    assert shown == [
        {
            "title": "Candidatura aceita",
            "body": 'Sua candidatura para a vaga "Garçom" foi aceita!',
            "tag": f"{base_url}/freelancer-dashboard/chats/7",
            "url": f"{base_url}/freelancer-dashboard/chats/7",  # opened on this site, whatever host it named
        }
    ]
