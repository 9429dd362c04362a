"""A session that ends, ends in every tab: what a person sees when they sign out in another tab.

The company has the conversation open in one tab, with a reply typed but not sent, and signs out
('Sair') in a second tab of the same browser. A message the freelancer then sends must not appear in
the first tab: that tab goes to the login page, says why, and forgets the draft. Signing in again
shows the message as unread.
"""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import login
from tests.support.chat_support import bubbles, draft_keys, hire, open_chat, person, send, type_draft
from tests.support.timing import ARRIVAL_MS

LATE = "Você ainda está aí?"


def test_sair_in_another_tab_ends_the_open_conversation_too(browser, base_url):
    pair = hire()
    company_ctx, company = person(browser, base_url, pair.company)
    freelancer_ctx, freelancer = person(browser, base_url, pair.freelancer, mobile=True)
    try:
        open_chat(company, "client", pair.chat_id)
        type_draft(company, "Resposta ainda não enviada")
        open_chat(freelancer, "freelancer", pair.chat_id)
        second_tab = company_ctx.new_page()
        second_tab.goto("/client-dashboard")
        second_tab.get_by_role("button", name="Sair").first.click()
        expect(second_tab.get_by_text("Logout realizado")).to_be_visible()

        send(freelancer, LATE)

        expect(company).to_have_url(re.compile(r"/login/?$"), timeout=ARRIVAL_MS)
        expect(company.get_by_text("Sua sessão foi encerrada. Entre novamente.")).to_be_visible()
        expect(bubbles(company, LATE)).to_have_count(0)
        expect(company.get_by_text("Mariana Costa")).to_have_count(0)
        assert draft_keys(company) == []  # the ended session's draft left with it

        login(company, pair.company)
        messages_tab = company.get_by_role("link", name=re.compile("^Mensagens"))
        expect(messages_tab.first).to_have_attribute("aria-label", "Mensagens: 1 não lida")
    finally:
        company_ctx.close()
        freelancer_ctx.close()
