"""WhatsApp in Configurações: the number confirmed by a code, a delivery failure shown, 'Parar'.

The app's server talks to tests/support/fake_whatsapp.py (the Cloud API's stand-in the e2e
server is configured with); the delivery status comes back through the real webhook, signed.
"""

import random

import requests
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import toast
from tests.support.chat_support import hire, person
from tests.support.fake_whatsapp import APP_SECRET, FakeWhatsApp, signed_webhook, status_payload


def _settings(page: Page) -> None:
    page.goto("/freelancer-dashboard?tab=settings")
    page.get_by_role("tab", name="Notificações").click()


def test_a_freelancer_confirms_whatsapp_sees_a_failure_and_stops_it(
    browser: Browser, base_url: str, fake_whatsapp: FakeWhatsApp
):
    number = f"9{random.randint(1000, 9999)}{random.randint(1000, 9999)}"
    shown = f"(11) {number[:5]}-{number[5:]}"
    pair = hire()
    context, page = person(browser, base_url, pair.freelancer, mobile=True)
    try:
        _settings(page)
        card = page.locator(".rt-Card").filter(has=page.get_by_role("heading", name="WhatsApp"))
        card.get_by_label("Celular com DDD").fill("(11) 3456-7890")
        card.get_by_role("button", name="Enviar código").click()
        expect(card.get_by_text("Informe um celular com DDD, por exemplo (11) 98765-4321.")).to_be_visible()

        card.get_by_label("Celular com DDD").fill(shown)
        card.get_by_role("button", name="Enviar código").click()
        expect(toast(page, f"Enviamos um código pelo WhatsApp para {shown}.")).to_be_visible()
        (code_message,) = fake_whatsapp.wait_for(1, to=f"5511{number}")
        assert (code_message.template, code_message.language) == ("turno_codigo", "pt_BR")

        wrong = "000000" if code_message.params[0] != "000000" else "111111"
        card.get_by_label("Código recebido").fill(wrong)
        card.get_by_role("button", name="Confirmar").click()
        expect(card.get_by_text("Código incorreto. Confira a mensagem e tente de novo.")).to_be_visible()
        card.get_by_label("Código recebido").fill(code_message.params[0])
        card.get_by_role("button", name="Confirmar").click()
        expect(toast(page, "WhatsApp confirmado.")).to_be_visible()
        expect(page.locator("#whatsapp-active")).to_contain_text(f"Ativo para {shown} desde")

        body, headers = signed_webhook(status_payload(code_message.wamid, "failed", 131026), APP_SECRET)
        forged = requests.post(
            f"{base_url}/api/whatsapp/webhook",
            data=body,
            headers={**headers, "X-Hub-Signature-256": "sha256=0"},
            timeout=10,
        )
        assert forged.status_code == 403
        answer = requests.post(f"{base_url}/api/whatsapp/webhook", data=body, headers=headers, timeout=10)
        assert answer.status_code == 200
        _settings(page)
        expect(page.locator("#whatsapp-error")).to_contain_text("Não conseguimos enviar pelo WhatsApp")
        page.screenshot(path="/tmp/shots/whatsapp_375.png", full_page=True)

        card.get_by_role("button", name="Parar").click()
        expect(toast(page, "Pronto. Você não recebe mais mensagens pelo WhatsApp.")).to_be_visible()
        expect(card.get_by_text("Mensagens pelo WhatsApp paradas.")).to_be_visible()
    finally:
        context.close()
