"""'Selo Empresa Pontual' in the browser: it appears after the fifth well-run shift, on the list, the
category's company card and the job page (and its first HTML), at phone size, each time with its
figures and 'Como calculamos'; the company sees what it lacks before."""

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from core import routes
from core.db import session_scope
from core.types import utcnow
from models import Profile, User
from services.jobs import category_companies
from services.timer import trust_steps
from services.trust import punctuality
from tests.e2e.conftest import signed_in
from tests.support.shift_support import bar_job, past_shifts

PHONE = {"width": 375, "height": 812}
HOW_HREF = "/como-calculamos#selo"


def _well_run_shifts(company_email: str, freelancer_email: str, count: int) -> None:
    """`count` past shifts of the company whose hours it approved 3 hours after they were sent."""
    starts = [utcnow() - timedelta(days=3 + n) for n in range(count)]
    past_shifts(company_email, freelancer_email, starts, approved_after=timedelta(hours=3))


def _run_timer(company_email: str) -> None:
    """The timer's steps (services/timer/trust_steps.py), tick after tick, until this company's score has read
    the shifts just written (the server's own timer may get there first; the database holds other
    companies, a batch of them per tick)."""
    written = utcnow()
    for _ in range(50):
        trust_steps.run(utcnow(), session_scope)
        with session_scope() as db:
            computed = db.exec(
                select(Profile.selo_em).join(User, User.id == Profile.user_id).where(User.email == company_email)
            ).one()
        if computed is not None and computed + punctuality.IN_FLIGHT >= written:
            return
    raise AssertionError("the timer did not recompute the company's badge")


def _company(company_email: str, name: str) -> int:
    """Name the company `name` (its card and rows are found by it); returns its id."""
    with session_scope() as db:
        profile = db.exec(
            select(Profile).join(User, User.id == Profile.user_id).where(User.email == company_email)
        ).one()
        profile.empresa = name
        db.add(profile)
        return profile.user_id


def _category_page(company_id: int) -> str:
    """The address of the 'eventos' page that lists the company (other tests' companies come before it)."""
    with session_scope() as db:
        number = 1
        while True:
            found = category_companies.companies_in_category(db, "eventos", number)
            if any(company["id"] == company_id for company in found.items):
                return routes.category("eventos", number)
            assert number < found.pages, "the company is on no page of its category"
            number += 1


def test_the_badge_appears_after_the_fifth_well_run_shift(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer")
    title = f"Bartender pontual {token}"
    name = f"Bar Pontual {token}"
    company_id = _company(company_email, name)
    job_id = bar_job(company_email, title, timedelta(days=4))
    _well_run_shifts(company_email, freelancer_email, 4)
    _run_timer(company_email)

    company_context, company_page = signed_in(browser, base_url, company_email)
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"/jobs?search={token}")
        row = page.locator("#jobs-table").get_by_role("row").filter(has_text=title)
        expect(row).to_be_visible()
        expect(row.locator(".company-punctual")).to_have_count(0)
        company_page.goto("/client-dashboard?tab=team")
        expect(company_page.get_by_text("Faltam 1 turno nos últimos 90 dias.")).to_be_visible()

        _well_run_shifts(company_email, freelancer_email, 1)
        _run_timer(company_email)
        page.goto(f"/jobs?search={token}")
        expect(row.locator(".company-punctual")).to_have_text("Empresa Pontual")
        figures = row.locator(".company-punctual-summary")  # behind the badge: the row stays short
        expect(figures).to_be_hidden()
        row.locator(".company-punctual-details > summary").click()  # a tap on the badge
        expect(figures).to_contain_text("horas aprovadas em 3 h (mediana)")
        expect(figures).to_contain_text("5 turnos em 90 dias")
        expect(figures.get_by_role("link", name="Como calculamos")).to_have_attribute("href", HOW_HREF)
        page.screenshot(path="/tmp/shots/badge_list.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        page.goto(_category_page(company_id))
        card = page.locator(".rt-Card").filter(has=page.get_by_role("heading", name=name))
        expect(card.locator(".company-punctual")).to_have_text("Empresa Pontual")
        figures = card.locator(".company-punctual-summary")
        expect(figures).to_be_hidden()
        card.locator(".company-punctual-details > summary").focus()  # by keyboard
        page.keyboard.press("Enter")
        expect(figures).to_contain_text("0% de cancelamentos tardios")
        expect(figures).to_contain_text("sem disputas abertas")
        expect(figures.get_by_role("link", name="Como calculamos")).to_have_attribute("href", HOW_HREF)
        card.scroll_into_view_if_needed()
        page.screenshot(path="/tmp/shots/badge_category.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        response = page.request.get(f"/jobs/{job_id}")
        assert "Empresa Pontual: 0% de cancelamentos tardios" in response.text()
        page.goto(f"/jobs/{job_id}")
        expect(page.locator("#job-punctual-summary")).to_contain_text("horas aprovadas em 3 h (mediana)")
        expect(page.locator("#job-punctual-summary")).to_contain_text("5 turnos em 90 dias")
        page.screenshot(path="/tmp/shots/badge_job.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        company_page.goto(f"/jobs/{job_id}")  # on a desktop too
        expect(company_page.locator("#job-punctual-summary")).to_contain_text("sem disputas abertas")
        company_page.screenshot(path="/tmp/shots/badge_job_desktop.png", animations="disabled")
        company_page.goto("/client-dashboard?tab=team")
        expect(company_page.get_by_text("Sua empresa tem o selo.")).to_be_visible()
    finally:
        context.close()
        company_context.close()
