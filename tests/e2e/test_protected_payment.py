"""'Pagamento garantido pelo Turno' in browsers, against the local Stripe fake's stand-in pages.

The company saves its CNPJ, accepts with 'Aceitar e pagar R$ X', pays on the fake's Checkout page
and comes back to a scheduled shift (the fake posts the signed webhook to the app); the freelancer
works it and sends hours; the company approves and the freelancer sees 'Pago' — the transfer and the
refund of the unused part happened at the fake, and the company's 'Pagamentos' lists the payment with
what came back. Also: approved hours above what was paid, paid with 'Pagar complemento' at 375 px,
and a late cancellation that pays the freelancer's fee and refunds the rest.
"""

import re
import uuid
from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Application, Hiring, Profile, User
from services.money import checkout, payments, receipts, settlement, stripe_events
from services.shifts import application_answers, shifts
from tests.e2e.conftest import signed_in, toast
from tests.support.fake_stripe import FakeStripe
from tests.support.payouts import ready_payout_account
from tests.support.shift_support import bar_job, begin_now, leave_and_send_hours, my_shifts

CNPJ = "12.ABC.345/01DE-35"
SHOTS = Path("/tmp/stale-shots")  # looked at by hand (375 px and 1280 px)


def _user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def _ready_to_receive(fake: FakeStripe, email: str) -> None:
    """The freelancer finished Stripe's onboarding (that round trip has its own test in test_earnings)."""
    with session_scope() as db:
        db.add(ready_payout_account(fake, _user_id(email), email))


def _pay_on_stripe(page: Page, amount: str) -> None:
    """The fake's Checkout page: check the amount and pay by card; back at the app's shifts tab."""
    expect(page.get_by_role("heading", name="Pagamento de teste")).to_be_visible()
    expect(page.locator("body")).to_contain_text(amount)
    page.get_by_role("button", name="Pagar com cartão").click()
    expect(page).to_have_url(re.compile(r"/client-dashboard\?tab=shifts"))


def _ledger(job_id: int) -> dict[str, int]:
    with session_scope() as db:
        hiring_id = db.exec(select(Hiring.id).where(Hiring.job_id == job_id)).one()
        return receipts.ledger_totals(db, hiring_id)


def _paid_hiring(fake: FakeStripe, company_email: str, freelancer_email: str, job_id: int) -> int:
    """Accepted and paid without the pages (those have their own test): the hiring id."""
    company_id, freelancer_id = _user_id(company_email), _user_id(freelancer_email)
    with session_scope() as db:
        application = Application(vaga_id=job_id, freelancer_id=freelancer_id, status="pending")
        db.add(application)
        db.flush()
        application_id = application.id
    with session_scope() as db:
        application_answers.accept(db, company_id, application_id)
    with session_scope() as db:
        hiring_id = db.exec(select(Hiring.id).where(Hiring.application_id == application_id)).one()
        checkout.open_checkout(db, company_id, hiring_id, "http://turno.test", utcnow())
    with session_scope() as db:
        payment = payments.latest_payment(db, hiring_id, "aceite")
        completed = fake.complete_payment(payment.checkout_session_id, "card")
        stripe_events.on_checkout_completed(db, completed)
    return hiring_id


def _paid_cast(make_account, fake: FakeStripe, title: str, starts_in_hours: float) -> tuple[str, str, str, int]:
    """A company with a CNPJ, a freelancer ready to receive, a guaranteed vaga and its hiring paid.

    Returns:
        The vaga's unique title, the company's and the freelancer's e-mails, and the vaga's id.
    """
    title = f"{title} {uuid.uuid4().hex[:6]}"
    company_email = make_account("client")
    with session_scope() as db:
        db.get(Profile, _user_id(company_email)).cnpj = "12ABC34501DE35"
    freelancer_email = make_account("freelancer", name="Rui Extra")
    _ready_to_receive(fake, freelancer_email)
    job_id = bar_job(company_email, title, timedelta(hours=starts_in_hours), pagamento="garantido")
    _paid_hiring(fake, company_email, freelancer_email, job_id)
    return title, company_email, freelancer_email, job_id


def test_accept_and_pay_work_the_shift_approve_and_the_freelancer_is_paid(
    browser: Browser, base_url: str, make_account, fake_stripe: FakeStripe
):
    fake_stripe.webhook_url = f"{base_url}/api/stripe/webhook"
    token = uuid.uuid4().hex[:6]
    title = f"Bartender garantido {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Lia Drinks {token}")
    _ready_to_receive(fake_stripe, freelancer_email)
    job_id = bar_job(company_email, title, timedelta(minutes=30), pagamento="garantido")
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email)
    try:
        # The company gives its CNPJ first (the new alphanumeric format is accepted).
        company.goto("/client-dashboard?tab=payments")
        cnpj = company.locator("#company-cnpj")
        cnpj.fill("12.ABC.345/01DE-36")
        company.get_by_role("button", name="Salvar CNPJ").click()
        expect(
            company.get_by_text("CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras.")
        ).to_be_visible()
        cnpj.fill(CNPJ)
        company.get_by_role("button", name="Salvar CNPJ").click()
        expect(toast(company, "CNPJ salvo")).to_be_visible()
        expect(company.get_by_text("Nenhum pagamento garantido ainda.")).to_be_visible()

        # The freelancer sees the guarantee before applying, and applies.
        freelancer.goto(f"/jobs/{job_id}")
        expect(freelancer.locator("#job-payment")).to_contain_text("Pagamento garantido pelo Turno")
        freelancer.locator("#apply-box").get_by_role("button", name="Enviar candidatura").click()
        expect(toast(freelancer, "Candidatura enviada!")).to_be_visible()
        with session_scope() as db:
            application_id = db.exec(select(Application.id).where(Application.vaga_id == job_id)).one()

        # 'Aceitar e pagar R$ 246,40': 5h30 x R$ 40,00 = R$ 220,00 + 12 % (Gratuito) = R$ 246,40.
        company.goto("/client-dashboard?tab=jobs")
        company.locator(f"#job-row-{job_id}").get_by_role("button", name="Ver candidaturas").click()
        dialog = company.get_by_role("dialog", name=title)
        dialog.locator(f"#application-{application_id}").get_by_role("button", name="Aceitar e pagar R$ 246,40").click()
        _pay_on_stripe(company, "R$ 246,40")
        expect(toast(company, "Pagamento enviado")).to_be_visible()
        card = company.locator(".shift-card").filter(has_text=title).first
        expect(card.locator(".shift-state")).to_have_text("Agendado")
        expect(card).to_contain_text("Pagamento garantido pelo Turno")

        # The freelancer works it and sends 5 hours (half an hour less than paid).
        card = my_shifts(freelancer, "freelancer", title)
        expect(card).to_contain_text("Pagamento garantido pelo Turno")
        card.get_by_role("button", name="Registrar chegada").click()
        freelancer.get_by_role("dialog", name="Registrar chegada").get_by_role(
            "button", name="Não consigo registrar"
        ).click()
        expect(toast(freelancer, "Chegada registrada")).to_be_visible()
        leave_and_send_hours(freelancer, card, "5:00")
        expect(card).not_to_contain_text("Marcar como pago")

        # The company approves: the money moves at once (no 'Marcar como pago' here).
        card = my_shifts(company, "client", title)
        expect(card.get_by_role("button", name="Marcar como pago")).to_have_count(0)
        # 'Aprovar horas' first shows what is approved: the hours, their pay, where the money goes, the
        # records, and that the hours are above what the records show (left the minute the shift began).
        card.get_by_role("button", name="Aprovar horas").click()
        dialog = company.get_by_role("dialog", name="Aprovar horas")
        expect(dialog.locator(".shift-subject")).to_contain_text(title)
        approval = dialog.locator(".shift-approval")
        expect(approval).to_contain_text("Horas enviadas5h00")
        expect(approval).to_contain_text("ValorR$ 200,00 (5h00 × R$ 40,00)")
        expect(approval).to_contain_text("Repasse ao profissionalR$ 200,00")
        expect(approval).to_contain_text("Reembolso à empresaR$ 22,40")  # R$ 246,40 - 200,00 - 12 % of it
        expect(approval).to_contain_text(re.compile(r"Chegada\d\d/\d\d \d\d:\d\d · registro manual"))
        expect(dialog.locator(".shift-records-flag")).to_have_text(
            re.compile(r"^As horas enviadas \(5h00\) são maiores que o registrado \(0h0\d\)\.$")
        )
        company.set_viewport_size({"width": 375, "height": 812})
        dialog.screenshot(path="/tmp/dialogs-approval-375.png")
        company.set_viewport_size({"width": 1280, "height": 800})
        company.screenshot(path="/tmp/dialogs-approval-1280.png")
        dialog.get_by_role("button", name="Aprovar horas").click()
        expect(toast(company, "Horas aprovadas")).to_be_visible()
        card = my_shifts(freelancer, "freelancer", title)
        expect(card.locator(".shift-state")).to_have_text("Pago", timeout=20_000)
        expect(card).to_contain_text("R$ 200,00")
        freelancer.goto("/freelancer-dashboard?tab=earnings")
        expect(freelancer.locator("#earnings-list")).to_contain_text(title)
        expect(freelancer.locator("#earnings-list")).to_contain_text(re.compile(r"Pago em \d\d/\d\d"))

        # The company's 'Pagamentos': what it paid and what came back (R$ 20,00 + its 12 % fee).
        company.goto("/client-dashboard?tab=payments")
        receipts = company.locator("#company-receipts")
        expect(receipts).to_contain_text(title)
        expect(receipts).to_contain_text("R$ 246,40")
        expect(receipts).to_contain_text("Estornado R$ 22,40")
        expect(receipts.get_by_role("link", name="Recibo")).to_have_attribute("href", re.compile(r"/receipts/payment/"))
        assert _ledger(job_id) == {"cobranca": 24640, "repasse": 20000, "estorno": 2240, "taxa": 2400}
        (transfer,) = [
            t for t in fake_stripe.transfers.values() if t["transfer_group"].endswith(f"-{_hiring_id(job_id)}")
        ]
        assert transfer["amount"] == 20000
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def _hiring_id(job_id: int) -> int:
    with session_scope() as db:
        return db.exec(select(Hiring.id).where(Hiring.job_id == job_id)).one()


def test_hours_above_what_was_paid_are_topped_up_on_a_phone(
    browser: Browser, base_url: str, make_account, fake_stripe: FakeStripe
):
    fake_stripe.webhook_url = f"{base_url}/api/stripe/webhook"
    title, company_email, freelancer_email, job_id = _paid_cast(make_account, fake_stripe, "Garçom com hora extra", 0.5)
    hiring_id = _hiring_id(job_id)
    begin_now(title)  # leaving and sending hours wait for the start
    now = utcnow()
    with session_scope() as db:  # worked and sent 7 h of the 5h30 paid; the company approved them
        freelancer_id, company_id = _user_id(freelancer_email), _user_id(company_email)
        for action, data in (
            ("chegada", {"method": "manual"}),
            ("saida", {"method": "manual"}),
            ("enviar_horas", {"hours": "7:00"}),
        ):
            shifts.act(db, freelancer_id, "freelancer", hiring_id, action, data, now)
        shifts.act(db, company_id, "client", hiring_id, "aprovar", {}, now)
    assert settlement.settle(hiring_id) == "complemento"

    context, company = signed_in(browser, base_url, company_email, viewport={"width": 375, "height": 812})
    try:
        card = my_shifts(company, "client", title)
        expect(card).to_contain_text("Horas aprovadas acima do valor pago")
        # 1h30 x R$ 40,00 = R$ 60,00 + 12 % = R$ 67,20.
        card.get_by_role("button", name="Pagar complemento R$ 67,20").click()
        _pay_on_stripe(company, "R$ 67,20")
        card = my_shifts(company, "client", title)
        expect(card.locator(".shift-state")).to_have_text("Pago", timeout=20_000)
        assert company.evaluate("document.documentElement.scrollWidth") <= 375
        totals = _ledger(job_id)
        assert (totals["repasse"], totals["estorno"]) == (28000, 0)
        assert totals["cobranca"] == totals["repasse"] + totals["taxa"]
    finally:
        context.close()


def test_a_late_cancellation_pays_the_fee_and_refunds_the_rest(
    browser: Browser, base_url: str, make_account, fake_stripe: FakeStripe
):
    fake_stripe.webhook_url = f"{base_url}/api/stripe/webhook"
    title, company_email, freelancer_email, job_id = _paid_cast(
        make_account, fake_stripe, "Recepcionista cancelada", 10
    )
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email)
    try:
        card = my_shifts(company, "client", title)
        card.get_by_role("button", name="Cancelar turno").click()
        dialog = company.get_by_role("dialog", name="Cancelar turno")
        expect(dialog.locator(".shift-subject")).to_contain_text(title)  # names the shift: title, day, time
        expect(dialog.locator(".shift-subject")).to_contain_text(re.compile(r"\d\d/\d\d · \d\d:\d\d–\d\d:\d\d"))
        expect(dialog.locator(".shift-consequence")).to_contain_text("você deverá R$ 160,00 ao profissional")
        expect(dialog.locator(".shift-cancel-money")).to_have_text(
            "Pagamento garantido: R$ 67,20 voltam para a empresa; ficam R$ 179,20: R$ 160,00 para o profissional"
            " e R$ 19,20 de taxa do Turno."
        )
        company.set_viewport_size({"width": 375, "height": 812})
        dialog.screenshot(path="/tmp/dialogs-cancel-375.png")
        company.set_viewport_size({"width": 1280, "height": 800})
        dialog.get_by_role("button", name="Confirmar").click()
        expect(toast(company, "Turno cancelado")).to_be_visible()
        # 4 h x R$ 40,00 to the freelancer; R$ 246,40 - 160,00 - 19,20 (12 % of it) back to the company.
        company.goto("/client-dashboard?tab=payments")
        expect(company.locator("#company-receipts")).to_contain_text("Estornado R$ 67,20", timeout=20_000)
        freelancer.goto("/freelancer-dashboard?tab=earnings")
        expect(freelancer.locator("#earnings-list")).to_contain_text(
            re.compile(r"Taxa de cancelamento paga em \d\d/\d\d")
        )
        assert _ledger(job_id) == {"cobranca": 24640, "repasse": 16000, "estorno": 6720, "taxa": 1920}
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def _applied(job_id: int, email: str) -> int:
    """The freelancer's pending application to the vaga (applying has its own test): its id."""
    with session_scope() as db:
        application = Application(vaga_id=job_id, freelancer_id=_user_id(email), status="pending")
        db.add(application)
        db.flush()
        return application.id


def _accept_pay_button(page: Page, job_id: int, title: str, application_id: int):
    """Open 'Ver candidaturas' of the vaga on 'Minhas Vagas' and return the applicant's 'Aceitar e pagar'."""
    page.goto("/client-dashboard?tab=jobs")
    page.locator(f"#job-row-{job_id}").get_by_role("button", name="Ver candidaturas").click()
    dialog = page.get_by_role("dialog", name=title)
    return dialog.locator(f"#application-{application_id}").get_by_role("button", name="Aceitar e pagar R$ 246,40")


def test_after_one_stripe_round_trip_the_next_aceitar_e_pagar_works_in_the_same_tab(
    browser: Browser, base_url: str, make_account, fake_stripe: FakeStripe
):
    """Issue 42 point 6: the busy mark of the first payment outlived the trip to Stripe (and a reload)."""
    fake_stripe.webhook_url = f"{base_url}/api/stripe/webhook"
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    with session_scope() as db:
        db.get(Profile, _user_id(company_email)).cnpj = "12ABC34501DE35"
    titles = (f"Bar do almoço {token}", f"Bar do jantar {token}")
    jobs = [
        bar_job(company_email, t, timedelta(hours=h), pagamento="garantido")
        for t, h in zip(titles, (10, 30), strict=True)
    ]
    people = [make_account("freelancer", name=f"{name} {token}") for name in ("Ana Copa", "Bia Bar")]
    first, second = (_applied(job_id, email) for job_id, email in zip(jobs, people, strict=True))
    context, company = signed_in(browser, base_url, company_email)
    try:
        _accept_pay_button(company, jobs[0], titles[0], first).click()
        _pay_on_stripe(company, "R$ 246,40")
        expect(toast(company, "Pagamento enviado")).to_be_visible()

        button = _accept_pay_button(company, jobs[1], titles[1], second)
        expect(button).to_be_enabled()
        company.reload()
        button = _accept_pay_button(company, jobs[1], titles[1], second)
        expect(button).to_be_enabled()
        company.screenshot(path=SHOTS / "next-applicant-1280.png")
        company.set_viewport_size({"width": 375, "height": 812})
        button.scroll_into_view_if_needed()
        company.screenshot(path=SHOTS / "next-applicant-375.png")
        button.click()
        _pay_on_stripe(company, "R$ 246,40")
        card = company.locator(".shift-card").filter(has_text=titles[1]).first
        expect(card.locator(".shift-state")).to_have_text("Agendado", timeout=20_000)
    finally:
        context.close()
