"""Shared steps of the chat browser tests: a hired pair with their conversation, people, bubbles."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import User
from services.accounts import accounts
from services.jobs import company_jobs
from services.shifts import application_answers, applications
from tests.e2e.conftest import PASSWORD, login, unique_email
from tests.support.shift_form import shift_fields

JOB_FORM = {
    "titulo": "Bartender para evento",
    "categoria": "eventos",
    "descricao": "Drinks clássicos e autorais para 120 convidados, das 19h às 2h.",
    "localizacao": "São Paulo, SP",
    "valor_hora": "60",
    "vagas_disponiveis": 3,
    **shift_fields(),
}


@dataclass(frozen=True)
class Hire:
    """A company, the freelancer it hired and their conversation."""

    company: str
    freelancer: str
    chat_id: int
    job_id: int


def user_id(email: str, engine: Engine | None = None) -> int:
    """The id of the account with `email`."""
    with session_scope(engine) as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def account(role: str, name: str, engine: Engine | None = None) -> str:
    """A confirmed account made through the services (on `engine`, the app's database by default)."""
    email = unique_email(role)
    common = {"name": name, "email": email, "password": PASSWORD, "confirmPassword": PASSWORD, "location": "São Paulo"}
    with session_scope(engine) as db:
        if role == "client":
            user = accounts.register_company(db, {**common, "company": f"Empresa de {name}", "industry": "events"})
        else:
            user = accounts.register_freelancer(db, {**common, "profession": "Bartender", "skills": "Drinks"})
        user.email_confirmed_at = utcnow()
        db.add(user)
    return email


def hire(title: str = JOB_FORM["titulo"], engine: Engine | None = None) -> Hire:
    """Create a company, publish a job, then a freelancer who applies and is accepted: the chat is born."""
    company = account("client", "Mariana Costa", engine)
    with session_scope(engine) as db:
        job_id = company_jobs.create_job(db, user_id(company, engine), {**JOB_FORM, "titulo": title})
    freelancer = account("freelancer", "João Silva", engine)  # after the job: no new-job alert in the bell
    with session_scope(engine) as db:
        application_id = applications.apply(db, user_id(freelancer, engine), "freelancer", job_id, {})
        chat_id = application_answers.accept(db, user_id(company, engine), application_id)
    return Hire(company, freelancer, chat_id, job_id)


def person(browser: Browser, base_url: str, email: str, mobile: bool = False) -> tuple[BrowserContext, Page]:
    """A signed-in browser of its own (desktop, or 375 px wide)."""
    size = {"width": 375, "height": 812} if mobile else {"width": 1280, "height": 900}
    context = browser.new_context(base_url=base_url, viewport=size, locale="pt-BR", is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    login(page, email)
    return context, page


def chat_url(role: str, chat_id: int) -> str:
    """The conversation page under a role's dashboard."""
    return f"/{'client' if role == 'client' else 'freelancer'}-dashboard/chats/{chat_id}"


def open_chat(page: Page, role: str, chat_id: int) -> None:
    """Open a conversation and wait until its composer is ready."""
    page.goto(chat_url(role, chat_id))
    page.locator("#chat-input").wait_for()


def send(page: Page, text: str) -> None:
    """Type `text` in the composer, press Enter and wait until it is stored (the composer empties)."""
    composer = page.locator("#chat-input")
    composer.fill(text)
    composer.press("Enter")
    expect(composer).to_have_value("")


DRAFT_KEYS_JS = "Object.keys(sessionStorage).filter((key) => key.startsWith('turno_draft:'))"


def type_draft(page: Page, text: str) -> None:
    """Type `text` in the open conversation's composer without sending; wait until the tab keeps it."""
    page.locator("#chat-input").fill(text)
    page.wait_for_function(f"{DRAFT_KEYS_JS}.length > 0")


def draft_keys(page: Page) -> list[str]:
    """The conversations whose draft the tab keeps (sessionStorage)."""
    return page.evaluate(DRAFT_KEYS_JS)


def bubbles(page: Page, text: str | None = None) -> Locator:
    """Message bubbles on the page, those holding exactly `text` when given."""
    found = page.locator("#chat-messages .chat-bubble")
    if text is None:
        return found
    return found.filter(has=page.get_by_text(re.compile(rf"^{re.escape(text)}$")))


@contextmanager
def both_in_chat(
    browser: Browser, base_url: str, engine: Engine | None = None, mobile_freelancer: bool = False
) -> Iterator[tuple[Hire, Page, Page]]:
    """A new hire with the company and the freelancer each in their own browser, on their conversation."""
    pair = hire(engine=engine)
    company_ctx, company = person(browser, base_url, pair.company)
    freelancer_ctx, freelancer = person(browser, base_url, pair.freelancer, mobile=mobile_freelancer)
    try:
        open_chat(company, "client", pair.chat_id)
        open_chat(freelancer, "freelancer", pair.chat_id)
        yield pair, company, freelancer
    finally:
        company_ctx.close()
        freelancer_ctx.close()
