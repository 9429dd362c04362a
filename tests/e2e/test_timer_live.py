"""What the shift timer sends shows in the tabs already open (core/ping_relay.py).

The timer runs in a process of its own beside the server (app/timer.py), with no tab connected to
it: it pipes its commits' pings to the server, which refreshes the open tabs they concern. Here the
24-hour reminder of a confirmed shift is made due while the freelancer looks at the dashboard on a
phone; the server's timer ticks every 30 s, so the bell is given up to 75 s.
"""

import re
from datetime import timedelta

from playwright.sync_api import expect
from sqlalchemy import update
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Application, Hiring, Notification
from tests.e2e.conftest import login
from tests.support.chat_support import person, user_id
from tests.support.polling import wait_until
from tests.support.shift_support import bar_job

TICK_ROOM_MS = 75_000  # two of the server's 30-second ticks and the page's refresh


def _confirmed_shift(company_email: str, freelancer_email: str, title: str) -> int:
    """A confirmed shift of the pair starting in 5 hours, its 24-hour reminder not due yet (fixture rows)."""
    job_id = bar_job(company_email, title, timedelta(hours=5))
    with session_scope() as db:
        freelancer = user_id(freelancer_email)
        application = Application(vaga_id=job_id, freelancer_id=freelancer, status="accepted")
        db.add(application)
        db.flush()
        start = utcnow().replace(second=0, microsecond=0) + timedelta(hours=5)
        hiring = Hiring(
            state="confirmada",
            application_id=application.id,
            job_id=job_id,
            company_id=user_id(company_email),
            freelancer_id=freelancer,
            inicio_em=start,
            fim_em=start + timedelta(hours=6),
            intervalo_min=30,
            valor_hora_centavos=4000,
            confirmed_at=utcnow(),
            remind_at=utcnow() + timedelta(days=1),
        )
        db.add(hiring)
        db.flush()
        return hiring.id


def _on_the_dashboard(browser, base_url, email: str):
    """The freelancer signed in on a phone, looking at the dashboard; returns (context, page)."""
    context, page = person(browser, base_url, email, mobile=True)
    page.goto("/freelancer-dashboard")
    expect(page.get_by_text("Candidaturas Ativas").first).to_be_visible()
    return context, page


def test_the_reminder_the_timer_sends_reaches_the_open_bell_on_a_phone(browser, base_url, make_account):
    freelancer_email = make_account("freelancer")
    hiring_id = _confirmed_shift(make_account("client"), freelancer_email, "Bar do Réveillon na Paulista")
    context, page = _on_the_dashboard(browser, base_url, freelancer_email)
    try:
        bell = page.locator("#bell-mobile")
        expect(bell).to_have_attribute("aria-label", "Notificações")

        with session_scope() as db:  # the reminder's time comes while the page is open
            db.exec(update(Hiring).where(Hiring.id == hiring_id).values(remind_at=utcnow()))

        expect(bell).to_have_text("1", timeout=TICK_ROOM_MS)
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")
        expect(page).to_have_url(re.compile(r"/freelancer-dashboard/?$"))  # refreshed in place, not reloaded
        bell.click()
        # The list the bell opens; the same notice may also pop up as a toast when the tab had read
        # its bell before the reminder came (states/live.py), so the text is looked for in the list.
        expect(
            page.locator("#conteudo").get_by_text(
                re.compile(r'^Lembrete: seu turno "Bar do Réveillon na Paulista" começa ')
            )
        ).to_be_visible()
        page.screenshot(path="/tmp/shots/timer_reminder_live_375.png")
    finally:
        context.close()


def _reminded(email: str) -> bool:
    with session_scope() as db:
        return db.exec(select(Notification.id).where(Notification.user_id == user_id(email))).first() is not None


def test_a_reminder_for_a_session_ended_in_another_tab_does_not_reach_the_old_tab(browser, base_url, make_account):
    """The timer's notice goes through the same live delivery: a tab whose session ended gets the login page, not the notice."""
    freelancer_email = make_account("freelancer")
    hiring_id = _confirmed_shift(make_account("client"), freelancer_email, "Festa Junina da Vila Madalena")
    context, page = _on_the_dashboard(browser, base_url, freelancer_email)
    try:
        other = context.new_page()
        other.set_viewport_size({"width": 1280, "height": 800})
        other.goto("/freelancer-dashboard")
        other.get_by_role("button", name="Sair").first.click()
        expect(other.get_by_text("Logout realizado")).to_be_visible()
        other.close()

        with session_scope() as db:
            db.exec(update(Hiring).where(Hiring.id == hiring_id).values(remind_at=utcnow()))
        wait_until(lambda: _reminded(freelancer_email), TICK_ROOM_MS / 1000, 0.5, "the timer sent no reminder")

        expect(page).to_have_url(re.compile(r"/login/?$"), timeout=TICK_ROOM_MS)
        expect(page.get_by_text("Sua sessão foi encerrada. Entre novamente.")).to_be_visible()
        expect(page.get_by_text(re.compile(r'^Lembrete: seu turno "Festa Junina'))).to_have_count(0)
        page.screenshot(path="/tmp/shots/timer_reminder_ended_session_375.png")

        login(page, freelancer_email)  # signing in again shows it
        expect(page.locator("#bell-mobile")).to_have_text("1")
    finally:
        context.close()
