"""Live chat and notifications between two browsers on the single-process app (SQLite).

Each person has their own browser context; nothing is reloaded unless the test says so. What is
checked is what the user sees: bubbles, the composer, the chat list, the bell and the Mensagens tab.
"""

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from models import Message
from services.jobs import company_jobs
from services.privacy import privacy
from services.reach import chat_sending, chats
from services.shifts import application_answers, applications
from tests.e2e.conftest import PASSWORD, login
from tests.support.chat_support import (
    JOB_FORM,
    account,
    both_in_chat,
    bubbles,
    chat_url,
    draft_keys,
    hire,
    open_chat,
    person,
    send,
    user_id,
)
from tests.support.shift_form import shift_fields
from tests.support.timing import ABSENCE_MS, ARRIVAL_MS


def _stored(chat_id: int) -> list[str]:
    with session_scope() as db:
        return list(db.exec(select(Message.content).where(Message.chat_id == chat_id).order_by(Message.id)).all())


def test_messages_travel_both_ways_without_reloading(browser, base_url):
    with both_in_chat(browser, base_url, mobile_freelancer=True) as (pair, company, freelancer):
        expect(company.get_by_role("heading", name="João Silva")).to_be_visible()
        expect(freelancer.get_by_role("heading", name="Empresa de Mariana Costa", exact=True)).to_be_visible()
        expect(bubbles(freelancer)).to_have_count(1)  # the welcome message of the acceptance

        send(freelancer, "Oi, Mariana! Chego às 18h.")
        expect(bubbles(company, "Oi, Mariana! Chego às 18h.")).to_be_visible(timeout=ARRIVAL_MS)
        expect(bubbles(freelancer, "Oi, Mariana! Chego às 18h.")).to_have_class(re.compile("mine"))
        expect(bubbles(company, "Oi, Mariana! Chego às 18h.")).to_have_class(re.compile("theirs"))

        send(company, "Perfeito, até lá.")
        expect(bubbles(freelancer, "Perfeito, até lá.")).to_be_visible(timeout=ARRIVAL_MS)
        expect(bubbles(company)).to_have_count(3)
        expect(bubbles(freelancer)).to_have_count(3)
        time_text = bubbles(company, "Perfeito, até lá.").locator("p").last
        expect(time_text).to_have_text(re.compile(r"^\d{2}:\d{2}$"))
        assert _stored(pair.chat_id)[-2:] == ["Oi, Mariana! Chego às 18h.", "Perfeito, até lá."]


def test_composer_enter_sends_shift_enter_breaks_the_line_and_blank_cannot_be_sent(browser, base_url):
    pair = hire()
    context, page = person(browser, base_url, pair.company)
    try:
        open_chat(page, "client", pair.chat_id)
        composer = page.get_by_placeholder("Digite sua mensagem...")
        send_button = page.get_by_role("button", name="Enviar mensagem")
        expect(send_button).to_be_disabled()
        composer.fill("   ")
        expect(send_button).to_be_disabled()
        composer.press("Enter")
        expect(bubbles(page)).to_have_count(1)

        composer.fill("Linha 1")
        expect(send_button).to_be_enabled()
        composer.press("Shift+Enter")
        composer.press_sequentially("Linha 2")
        expect(composer).to_have_value("Linha 1\nLinha 2")
        composer.press("Enter")

        expect(bubbles(page)).to_have_count(2)
        expect(bubbles(page).last.locator("p").first).to_have_text("Linha 1\nLinha 2", use_inner_text=True)
        expect(composer).to_have_value("")
        expect(send_button).to_be_disabled()
        assert _stored(pair.chat_id)[-1] == "Linha 1\nLinha 2"
    finally:
        context.close()


def test_html_in_a_message_is_shown_as_text(browser, base_url):
    payload = '<img src=x onerror="window.__pwned=1"><b>negrito</b><script>window.__pwned=2</script>'
    with both_in_chat(browser, base_url) as (_pair, company, freelancer):
        send(freelancer, payload)
        expect(bubbles(company, payload)).to_be_visible()
        assert company.locator("#chat-messages img, #chat-messages b, #chat-messages script").count() == 0
        assert company.evaluate("window.__pwned") is None
        company.reload()
        expect(bubbles(company, payload)).to_be_visible()
        assert company.evaluate("window.__pwned") is None


def test_a_message_over_the_limit_is_refused_with_a_clear_message(browser, base_url):
    pair = hire()
    context, page = person(browser, base_url, pair.freelancer)
    try:
        open_chat(page, "freelancer", pair.chat_id)
        composer = page.locator("#chat-input")
        assert composer.get_attribute("maxlength") == str(chat_sending.MESSAGE_MAX)
        composer.evaluate("(el) => el.removeAttribute('maxlength')")  # what a hand-made request could do
        composer.fill("a" * (chat_sending.MESSAGE_MAX + 1))
        composer.press("Enter")
        expect(page.get_by_text("A mensagem deve ter no máximo 4.000 caracteres.")).to_be_visible()
        expect(composer).to_have_value("a" * (chat_sending.MESSAGE_MAX + 1))
        assert len(_stored(pair.chat_id)) == 1
    finally:
        context.close()


def test_unread_badges_update_live_and_opening_the_conversation_marks_it_read(browser, base_url):
    pair = hire()
    company_ctx, company = person(browser, base_url, pair.company)
    freelancer_ctx, freelancer = person(browser, base_url, pair.freelancer)
    try:
        freelancer.goto("/freelancer-dashboard/chats")
        card = freelancer.locator(f"main a[href$='/chats/{pair.chat_id}']")
        expect(card).to_contain_text("Bartender para evento")
        messages_tab = freelancer.get_by_role("link", name=re.compile("^Mensagens"))
        expect(messages_tab.first).to_have_attribute("aria-label", "Mensagens: 1 não lida")
        bell = freelancer.locator("#bell-desktop")
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")  # the acceptance

        open_chat(company, "client", pair.chat_id)
        send(company, "Você pode vestir preto?")
        send(company, "E trazer o avental?")

        expect(card).to_contain_text("E trazer o avental?")
        expect(card.locator(".rt-Badge")).to_have_text("3")
        expect(messages_tab.first).to_have_attribute("aria-label", "Mensagens: 3 não lidas")
        expect(bell).to_have_attribute("aria-label", "Notificações: 2 não lidas")  # one notice per conversation
        expect(bell).to_have_text("2")

        card.click()
        expect(bubbles(freelancer, "E trazer o avental?")).to_be_visible()
        expect(messages_tab.first).to_have_attribute("aria-label", "Mensagens")
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")

        send(company, "Obrigada!")
        expect(bubbles(freelancer, "Obrigada!")).to_be_visible(timeout=ARRIVAL_MS)
        expect(messages_tab.first).to_have_attribute("aria-label", "Mensagens")  # read where it arrived
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")  # no notice while reading
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_a_new_application_rings_the_company_bell_live(browser, base_url):
    pair = hire()
    company_ctx, company = person(browser, base_url, pair.company)
    other = account("freelancer", "Ana Souza")
    freelancer_ctx, freelancer = person(browser, base_url, other)
    try:
        company.goto("/client-dashboard?tab=notifications")
        bell = company.locator("#bell-desktop")
        expect(company.locator("#notifications-count")).to_have_text("2 notificações")  # published, applied
        expect(bell).to_have_attribute("aria-label", "Notificações: 2 não lidas")

        freelancer.goto(f"/jobs/{pair.job_id}")
        freelancer.locator("#apply-box").get_by_role("button", name="Enviar candidatura").click()
        expect(freelancer.get_by_text("Candidatura enviada!")).to_be_visible()

        expect(company.locator("#notifications-count")).to_have_text("3 notificações")
        expect(company.locator(".notification.unread").first).to_contain_text("Bartender para evento")
        expect(bell).to_have_attribute("aria-label", "Notificações: 3 não lidas")
        expect(bell).to_have_text("3")
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_a_stranger_gets_chat_nao_encontrado_and_no_data(browser, base_url):
    pair = hire()
    rival = account("client", "Empresa Rival")
    outsider = account("freelancer", "Pessoa de Fora")
    for email, role in ((rival, "client"), (outsider, "freelancer")):
        context, page = person(browser, base_url, email)
        try:
            for chat_id in (pair.chat_id, pair.chat_id + 100_000):
                page.goto(chat_url(role, chat_id))
                expect(page.get_by_role("heading", name="Chat não encontrado")).to_be_visible()
                expect(
                    page.get_by_text("O chat solicitado não existe ou você não tem permissão para acessá-lo.")
                ).to_be_visible()
                expect(page.locator("#chat-input")).to_have_count(0)
                expect(page.get_by_text("Bartender para evento")).to_have_count(0)
        finally:
            context.close()


def test_after_a_lost_connection_nothing_is_lost_or_shown_twice(browser, base_url):
    with both_in_chat(browser, base_url) as (_pair, company, freelancer):
        freelancer.context.set_offline(True)
        freelancer.evaluate("window.dispatchEvent(new Event('offline'))")
        send(company, "Enquanto você estava fora")
        send(company, "Segunda mensagem")
        expect(bubbles(company)).to_have_count(3)
        freelancer.wait_for_timeout(ABSENCE_MS)  # proving an absence: nothing to wait for
        expect(bubbles(freelancer)).to_have_count(1)  # really cut off: nothing arrived meanwhile
        freelancer.context.set_offline(False)

        expect(bubbles(freelancer, "Segunda mensagem")).to_have_count(1, timeout=30_000)
        expect(bubbles(freelancer, "Enquanto você estava fora")).to_have_count(1)
        expect(bubbles(freelancer)).to_have_count(3)
        send(freelancer, "Voltei")
        expect(bubbles(company, "Voltei")).to_have_count(1)
        expect(bubbles(freelancer)).to_have_count(4)


def test_older_messages_load_on_demand(page: Page):
    pair = hire()
    with session_scope() as db:
        for number in range(chats.PAGE_SIZE + 20):
            chat_sending.send(db, user_id(pair.freelancer), pair.chat_id, f"Mensagem antiga {number + 1}")
    login(page, pair.company)
    open_chat(page, "client", pair.chat_id)

    expect(bubbles(page)).to_have_count(chats.PAGE_SIZE)
    expect(bubbles(page).last).to_contain_text(f"Mensagem antiga {chats.PAGE_SIZE + 20}")
    page.get_by_role("button", name="Carregar mensagens anteriores").click()
    expect(bubbles(page)).to_have_count(chats.PAGE_SIZE + 21)
    expect(bubbles(page).first).to_contain_text("Sua candidatura para a vaga")
    expect(page.get_by_role("button", name="Carregar mensagens anteriores")).to_have_count(0)


def test_a_conversation_with_a_deleted_account_says_so_and_has_no_box(browser, base_url):
    pair = hire()
    with session_scope() as db:
        privacy.delete_account(db, user_id(pair.company), PASSWORD)
    context, freelancer = person(browser, base_url, pair.freelancer, mobile=True)
    try:
        freelancer.goto(chat_url("freelancer", pair.chat_id))
        expect(freelancer.locator("#chat-closed")).to_contain_text("Esta conta foi excluída")
        expect(bubbles(freelancer)).to_have_count(1)  # what was said stays readable
        expect(freelancer.locator("#chat-input")).to_have_count(0)
        expect(freelancer.get_by_role("button", name="Enviar mensagem")).to_have_count(0)
    finally:
        context.close()


def _second_chat(freelancer_email: str) -> int:
    """Another company hires the same freelancer: their own conversation."""
    company = account("client", "Paula Nunes")
    with session_scope() as db:
        later = {**JOB_FORM, **shift_fields(days=5), "titulo": "Garçom para casamento"}  # one shift at a time
        job_id = company_jobs.create_job(db, user_id(company), later)
    with session_scope() as db:
        application_id = applications.apply(db, user_id(freelancer_email), "freelancer", job_id, {})
        return application_answers.accept(db, user_id(company), application_id)


def test_an_unsent_message_waits_in_its_own_conversation_until_sent_or_the_session_ends(browser, base_url):
    pair = hire()
    other_chat = _second_chat(pair.freelancer)
    context, page = person(browser, base_url, pair.freelancer, mobile=True)
    try:
        open_chat(page, "freelancer", pair.chat_id)
        composer = page.get_by_placeholder("Digite sua mensagem...")
        send_button = page.get_by_role("button", name="Enviar mensagem")
        composer.fill("Posso levar meu próprio kit")

        open_chat(page, "freelancer", other_chat)  # another conversation: its own, empty box
        expect(composer).to_have_value("")
        expect(send_button).to_be_disabled()

        open_chat(page, "freelancer", pair.chat_id)  # back: the draft is there, ready to send
        expect(composer).to_have_value("Posso levar meu próprio kit")
        expect(send_button).to_be_enabled()
        page.reload()  # a reload (or a reconnection with a fresh page) keeps it too
        expect(composer).to_have_value("Posso levar meu próprio kit")
        page.screenshot(path="/tmp/shots/chat_draft_375.png")
        composer.press("Enter")
        expect(bubbles(page, "Posso levar meu próprio kit")).to_have_count(1)
        page.reload()  # sent: forgotten
        page.locator("#chat-input").wait_for()
        expect(bubbles(page, "Posso levar meu próprio kit")).to_have_count(1)
        expect(composer).to_have_value("")

        composer.fill("Rascunho de antes de sair")
        page.get_by_role("button", name="Abrir perfil").click()  # at 375 px, 'Sair' is in the profile sheet
        page.get_by_role("dialog").get_by_role("button", name="Sair").click()
        expect(page.get_by_text("Logout realizado")).to_be_visible()
        assert draft_keys(page) == []
    finally:
        context.close()
