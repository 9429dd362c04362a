"""'Contratar novamente' in the browser: the company invites a team member for a new date, the
freelancer accepts on the phone and the shift is in both 'Turnos'; a second invite, sent from the paid
shift's card in 'Turnos', is declined. On a phone, a weekly rebook turns the 'Termômetro de vínculo'
red in the dialog: sending needs the box, and another date clears the notice. The 4th weekly rebook
(W = 5) turns it yellow: a warning only, and the invite goes without any box."""

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import TeamMember, User
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import paid_shift, past_shifts

PHONE = {"width": 375, "height": 812}


def test_a_company_rebooks_a_team_member_who_accepts_then_declines(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom de confiança {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Rita Convite {token}")
    paid_shift(company_email, freelancer_email, title)
    with session_scope() as db:
        company = db.exec(select(User.id).where(User.email == company_email)).one()
        member = db.exec(select(User.id).where(User.email == freelancer_email)).one()
        db.add(TeamMember(company_id=company, freelancer_id=member, added_at=utcnow()))

    company_context, company_page = signed_in(browser, base_url, company_email)
    freelancer_context, freelancer_page = signed_in(browser, base_url, freelancer_email, viewport=PHONE)
    try:
        company_page.goto("/client-dashboard?tab=team")
        row = company_page.locator(".team-member").filter(has_text=f"Rita Convite {token}")
        row.get_by_role("button", name="Contratar novamente").click()
        dialog = company_page.get_by_role("dialog", name="Contratar novamente")
        expect(dialog).to_contain_text(f"Convite particular para Rita Convite {token}")
        dialog.get_by_label("Mensagem (opcional)").fill("Volta no sábado?")
        company_page.screenshot(path="/tmp/shots/invite_company_dialog.png", animations="disabled")
        dialog.get_by_role("button", name="Enviar convite").click()
        expect(toast(company_page, "Convite enviado.")).to_be_visible()
        sent = company_page.locator(".sent-invite").first
        expect(sent).to_contain_text("Aguardando resposta")
        company_page.screenshot(path="/tmp/shots/invite_company.png", full_page=True)

        freelancer_page.goto("/freelancer-dashboard")
        card = freelancer_page.locator(".invite-card").first
        expect(card).to_contain_text(title)
        expect(card).to_contain_text("Volta no sábado?")
        expect(card).to_contain_text("Expira em")
        freelancer_page.screenshot(path="/tmp/shots/invite_freelancer.png", full_page=True)
        assert freelancer_page.evaluate("document.documentElement.scrollWidth") <= 375
        card.get_by_role("button", name="Aceitar convite").click()
        expect(toast(freelancer_page, "Convite aceito!")).to_be_visible()
        expect(freelancer_page.locator(".invite-card")).to_have_count(0)
        freelancer_page.goto("/freelancer-dashboard?tab=shifts")
        expect(freelancer_page.locator(".shift-card").filter(has_text=title).first).to_be_visible()
        expect(freelancer_page.locator(".shift-card").filter(has_text=title)).to_have_count(2)  # the old one too
        company_page.goto("/client-dashboard?tab=team")
        expect(company_page.locator(".sent-invite").first).to_contain_text("Aceito")
        company_page.goto("/client-dashboard?tab=shifts")
        expect(company_page.locator(".shift-card").filter(has_text=title)).to_have_count(2)

        # A second invite, from the paid shift's card in 'Turnos', declined: the company sees it.
        company_page.locator(".shift-card").filter(has_text=title).get_by_role(
            "button", name="Contratar novamente"
        ).click()
        dialog = company_page.get_by_role("dialog", name="Contratar novamente")
        expect(dialog.get_by_label("Data")).not_to_have_value("")  # a week after the shift just booked
        dialog.get_by_role("button", name="Enviar convite").click()
        expect(toast(company_page, "Convite enviado.")).to_be_visible()
        freelancer_page.goto("/freelancer-dashboard")
        freelancer_page.locator(".invite-card").first.get_by_role("button", name="Recusar").click()
        expect(toast(freelancer_page, "Convite recusado.")).to_be_visible()
        expect(freelancer_page.locator(".invite-card")).to_have_count(0)
        company_page.goto("/client-dashboard?tab=team")
        expect(company_page.locator(".sent-invite").first).to_contain_text("Recusado")
    finally:
        company_context.close()
        freelancer_context.close()


def _weekly_paid_shifts(company_email: str, freelancer_email: str, title: str, weeks: int) -> None:
    """`weeks` paid shifts of the pair on the same weekday, the latest two days ago."""
    latest = utcnow().replace(second=0, microsecond=0) - timedelta(days=2)
    past_shifts(company_email, freelancer_email, [latest - timedelta(weeks=week) for week in range(weeks)], title)


def _rebook_dialog(page, title: str):
    """The company's 'Contratar novamente' dialog, opened from the shift card of `title`."""
    page.goto("/client-dashboard?tab=shifts")
    page.locator(".shift-card").filter(has_text=title).first.get_by_role("button", name="Contratar novamente").click()
    return page.get_by_role("dialog", name="Contratar novamente")


def test_a_weekly_rebook_needs_the_thermometer_box_on_a_phone(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Bartender de sexta {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Beto Semanal {token}")
    _weekly_paid_shifts(company_email, freelancer_email, title, 5)  # the rebook is the 6th on that weekday

    context, page = signed_in(browser, base_url, company_email, viewport=PHONE)
    try:
        dialog = _rebook_dialog(page, title)
        expect(dialog.locator(".bond-notice")).to_have_attribute("data-level", "vermelho")
        page.screenshot(path="/tmp/shots/invite_company_red.png", animations="disabled")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        dialog.get_by_role("button", name="Enviar convite").click()
        expect(toast(page, "Estou ciente e assumo a responsabilidade")).to_be_visible()
        expect(page.locator(".sent-invite")).to_have_count(0)

        later = dialog.get_by_label("Data").input_value()
        dialog.get_by_label("Data").fill("2099-01-05")  # far from the weekly shifts: no notice
        expect(dialog.locator(".bond-notice")).to_have_count(0)
        dialog.get_by_label("Data").fill(later)
        expect(dialog.locator(".bond-notice")).to_have_attribute("data-level", "vermelho")
        dialog.locator(".bond-ack").click()
        dialog.get_by_role("button", name="Enviar convite").click()
        expect(toast(page, "Convite enviado.")).to_be_visible()
        expect(dialog).to_have_count(0)
    finally:
        context.close()


def test_the_fourth_weekly_rebook_warns_in_yellow_without_the_box_on_a_phone(
    browser: Browser, base_url: str, make_account
):
    token = uuid.uuid4().hex[:6]
    title = f"Bartender de quinta {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Clara Semanal {token}")
    _weekly_paid_shifts(company_email, freelancer_email, title, 4)  # the rebook is the 5th on that weekday

    context, page = signed_in(browser, base_url, company_email, viewport=PHONE)
    try:
        dialog = _rebook_dialog(page, title)
        notice = dialog.locator(".bond-notice")
        expect(notice).to_have_attribute("data-level", "amarelo")
        expect(notice).to_contain_text(
            "Atenção ao vínculo Chamar a mesma pessoa com frequência pode caracterizar vínculo de emprego "
            "(CLT, art. 3º). Se a necessidade é fixa, considere o contrato intermitente."
        )
        expect(notice).to_contain_text(
            "Vocês trabalharam juntos em 5 das últimas 8 semanas, 5 vezes no mesmo dia da semana e "
            "4 vezes em 28 dias (contando este turno)."
        )
        expect(notice.get_by_role("link", name="Entenda o termômetro de vínculo")).to_have_attribute(
            "href", "/termometro-de-vinculo"
        )
        expect(dialog.get_by_text("Estou ciente e assumo a responsabilidade")).to_have_count(0)
        expect(dialog.locator(".bond-ack")).to_have_count(0)
        send = dialog.get_by_role("button", name="Enviar convite")
        send.scroll_into_view_if_needed()
        page.screenshot(path="/tmp/shots/invite_company_yellow.png", animations="disabled")  # notice, then buttons
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        send.click()  # no box to tick
        expect(toast(page, "Convite enviado.")).to_be_visible()
        expect(dialog).to_have_count(0)
        page.goto("/client-dashboard?tab=team")
        expect(page.locator(".sent-invite")).to_have_count(1)
        expect(page.locator(".sent-invite")).to_contain_text(f"Clara Semanal {token}")
        expect(page.locator(".sent-invite")).to_contain_text("Aguardando resposta")
    finally:
        context.close()
