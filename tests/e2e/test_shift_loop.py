"""The shift loop in browsers: after 'Candidatura aceita', confirm, check in and out, hours, pay, rate.

The company and the freelancer each have their own browser context. The vaga is created directly with
a shift starting in 30 minutes (so check-in is open now); every step after that is what a person
clicks and sees: the freelancer applies and is accepted, confirms, types the code read from the
company's 'Código de presença' screen, leaves, sends hours; the company adjusts them with a reason,
the freelancer accepts the adjustment, the company marks the payment, the freelancer confirms it and
both rate each other. Also: check-in by one location reading, and by 'Não consigo registrar'; a late
cancellation by each side with its consequence stated; the .ics file; the tab at 375 px.
"""

import re
import uuid
from datetime import timedelta

import httpx
from playwright.sync_api import Browser, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Hiring
from tests.e2e.conftest import signed_in, toast
from tests.support.shift_support import apply_and_get_hired, bar_job, leave_and_send_hours, my_shifts, shift_card

VENUE = (-23.5614, -46.6559)  # the shift's point (MASP, São Paulo)


def _hiring(job_id: int) -> Hiring:
    with session_scope() as db:
        return db.exec(select(Hiring).where(Hiring.job_id == job_id)).one()


def _hired_an_hour_ago(job_id: int) -> None:
    """Past the 15 minutes after hiring in which a freelancer may cancel without a falta."""
    with session_scope() as db:
        hiring = db.exec(select(Hiring).where(Hiring.job_id == job_id)).one()
        hiring.created_at = utcnow() - timedelta(hours=1)
        db.add(hiring)


def test_confirm_code_check_in_hours_adjustment_payment_and_ratings(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Bartender corporativo {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Caio Drinks {token}")
    job_id = bar_job(company_email, title, timedelta(minutes=30), ponto_lat=VENUE[0], ponto_lng=VENUE[1])
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email)
    try:
        apply_and_get_hired(freelancer, company, job_id, title, freelancer_email)

        # 'Meus Turnos' shows the shift with its place and the calendar file.
        card = my_shifts(freelancer, "freelancer", title)
        expect(card.locator(".shift-state")).to_have_text("Agendado")
        expect(card).to_contain_text("Av. Paulista, 1578")
        expect(card.get_by_role("link", name="Ver no mapa")).to_have_attribute("href", re.compile("google.com/maps"))
        card.get_by_role("button", name="Confirmar presença").click()
        expect(toast(freelancer, "Presença confirmada")).to_be_visible()
        expect(card.locator(".shift-state")).to_have_text("Presença confirmada")

        # The company sees it live and opens the code screen; the freelancer types the code shown there.
        company_card = my_shifts(company, "client", title)
        expect(company_card.locator(".shift-state")).to_have_text("Presença confirmada")
        company_card.get_by_role("link", name="Código de presença").click()
        expect(company).to_have_url(re.compile(rf"/client-dashboard/presenca/{job_id}$"))
        code = company.locator("#attendance-code")
        expect(code).to_have_text(re.compile(r"^\d{6}$"))
        expect(company.get_by_role("img", name="QR do código de presença")).to_be_visible()

        card.get_by_role("button", name="Registrar chegada").click()
        dialog = freelancer.get_by_role("dialog", name="Registrar chegada")
        dialog.get_by_label("Código de presença").fill("000000" if code.inner_text() != "000000" else "111111")
        dialog.get_by_role("button", name="Registrar com código").click()
        expect(dialog.get_by_text("Código incorreto. Confira o código na tela da empresa.")).to_be_visible()
        dialog.get_by_label("Código de presença").fill(code.inner_text())
        dialog.get_by_role("button", name="Registrar com código").click()
        expect(toast(freelancer, "Chegada registrada")).to_be_visible()
        expect(card.locator(".shift-state")).to_have_text("Em andamento")
        expect(card).to_contain_text("Chegada:")

        # Leaving, then the hours: prefilled from the records, sent as typed.
        leave_and_send_hours(freelancer, card, "5:30")
        expect(card).to_contain_text("Horas: 5h30")

        # The company adjusts with a reason; a short reason is refused in Portuguese.
        company_card = my_shifts(company, "client", title)
        expect(company_card.get_by_text("Registro manual", exact=True)).to_be_visible()
        company_card.get_by_role("button", name="Ajustar horas").click()
        dialog = company.get_by_role("dialog", name="Ajustar horas")
        dialog.get_by_label("Horas corretas").fill("5:00")
        dialog.get_by_label("Motivo do ajuste (o profissional verá)").fill("curto")
        dialog.get_by_role("button", name="Enviar ajuste").click()
        expect(dialog.get_by_text("Explique o motivo com pelo menos 10 caracteres.")).to_be_visible()
        dialog.get_by_label("Motivo do ajuste (o profissional verá)").fill("Intervalo de 30 minutos não descontado.")
        dialog.get_by_role("button", name="Enviar ajuste").click()
        expect(toast(company, "Ajuste enviado")).to_be_visible()

        # The freelancer accepts the adjustment: approved, R$ 200,00 for 5 h at R$ 40,00.
        card = my_shifts(freelancer, "freelancer", title)
        expect(card).to_contain_text("Intervalo de 30 minutos não descontado.")
        card.get_by_role("button", name="Aceitar ajuste").click()
        expect(toast(freelancer, "Ajuste aceito")).to_be_visible()
        expect(card.locator(".shift-state")).to_have_text("Horas aprovadas")
        expect(card).to_contain_text("Valor: R$ 200,00")

        # Direct payment: the company marks it, the freelancer confirms receipt.
        company_card = my_shifts(company, "client", title)
        company_card.get_by_role("button", name="Marcar como pago").click()
        expect(toast(company, "Pagamento marcado como feito")).to_be_visible()
        card = my_shifts(freelancer, "freelancer", title)
        expect(card.locator(".shift-state")).to_have_text("Marcado como pago pela empresa")
        card.get_by_role("button", name="Confirmar recebimento").click()
        expect(toast(freelancer, "Recebimento confirmado")).to_be_visible()

        # The whole history is on the card, and ratings are open with the hours approved.
        freelancer.goto("/freelancer-dashboard?tab=shifts")
        history = shift_card(freelancer, title)
        history.get_by_text("Linha do tempo").click()
        expect(history.locator(".shift-timeline li")).to_have_count(10)
        freelancer.goto("/freelancer-dashboard?tab=applications")
        application = freelancer.locator(".application-card").filter(has_text=title)
        expect(application.get_by_role("button", name="Avaliar")).to_be_visible()
        hiring = _hiring(job_id)
        assert (hiring.state, hiring.minutos_aprovados, hiring.valor_centavos) == ("paga", 300, 20000)
        assert hiring.chegada_metodo == "codigo" and hiring.saida_metodo == "manual"
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_check_in_by_one_location_reading_and_the_calendar_file(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    title = f"Garçom com localização {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Bia Local {token}")
    job_id = bar_job(company_email, title, timedelta(minutes=20), ponto_lat=VENUE[0], ponto_lng=VENUE[1])
    company_ctx, company = signed_in(browser, base_url, company_email)
    near = {"latitude": VENUE[0] + 0.0005, "longitude": VENUE[1], "accuracy": 20}  # about 55 m away
    freelancer_ctx, freelancer = signed_in(
        browser, base_url, freelancer_email, geolocation=near, permissions=["geolocation"]
    )
    try:
        apply_and_get_hired(freelancer, company, job_id, title, freelancer_email)
        card = my_shifts(freelancer, "freelancer", title)

        link = card.get_by_role("link", name="Adicionar à agenda")
        cookies = {c["name"]: c["value"] for c in freelancer_ctx.cookies()}
        ics = httpx.get(f"{base_url}{link.get_attribute('href')}", cookies=cookies)
        assert ics.status_code == 200 and ics.headers["content-type"].startswith("text/calendar")
        assert f"SUMMARY:Turno: {title}" in ics.text and "LOCATION:Av. Paulista\\, 1578" in ics.text
        assert httpx.get(f"{base_url}{link.get_attribute('href')}").status_code == 404  # a visitor

        card.get_by_role("button", name="Registrar chegada").click()
        dialog = freelancer.get_by_role("dialog", name="Registrar chegada")
        dialog.get_by_role("button", name="Usar minha localização (uma única leitura)").click()
        expect(toast(freelancer, "Chegada registrada")).to_be_visible()
        expect(card).to_contain_text("localização informada pelo aparelho · até 150 m")
        expect(card.locator(".shift-location-note")).to_have_count(0)
        hiring = _hiring(job_id)
        assert (hiring.chegada_metodo, hiring.chegada_distancia) == ("local", "ate_150")

        # The company reads the reading as the device's word, worth less than the code.
        company_card = my_shifts(company, "client", title)
        expect(company_card).to_contain_text("Chegada: ")
        expect(company_card).to_contain_text("localização informada pelo aparelho · até 150 m")
        expect(company_card.locator(".shift-location-note")).to_have_text(
            "A localização é informada pelo aparelho do profissional e vale menos que o código de presença."
        )
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_late_cancellations_state_their_consequence(browser: Browser, base_url: str, make_account):
    token = uuid.uuid4().hex[:6]
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Duda Cancela {token}")
    first, second = f"Recepção tardia {token}", f"Cozinha tardia {token}"
    first_id = bar_job(company_email, first, timedelta(hours=10), ponto_lat=VENUE[0], ponto_lng=VENUE[1])
    # After the first one ends (+16 h): a freelancer holds one shift at a time (services/shifts/overlaps.py).
    second_id = bar_job(company_email, second, timedelta(hours=17), hours=3, ponto_lat=VENUE[0], ponto_lng=VENUE[1])
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email, viewport={"width": 375, "height": 812})
    try:
        apply_and_get_hired(freelancer, company, first_id, first, freelancer_email)
        apply_and_get_hired(freelancer, company, second_id, second, freelancer_email)

        # The freelancer, 10 h before and hired an hour ago: two faltas, said before confirming (at phone size).
        _hired_an_hour_ago(first_id)
        card = my_shifts(freelancer, "freelancer", first)
        card.get_by_role("button", name="Cancelar turno").click()
        dialog = freelancer.get_by_role("dialog", name="Cancelar turno")
        expect(dialog.locator(".shift-consequence")).to_contain_text("Este cancelamento conta 2 faltas.")
        dialog.get_by_role("button", name="Confirmar").click()
        expect(toast(freelancer, "Turno cancelado")).to_be_visible()

        # The company, 17 h before a 3-hour shift (2h30 paid, within 24 h): owes the 2h30 × R$ 40,00.
        card = my_shifts(company, "client", second)
        card.get_by_role("button", name="Cancelar turno").click()
        dialog = company.get_by_role("dialog", name="Cancelar turno")
        expect(dialog.locator(".shift-consequence")).to_contain_text("você deverá R$ 100,00 ao profissional")
        dialog.get_by_role("button", name="Confirmar").click()
        expect(toast(company, "Turno cancelado")).to_be_visible()
        card = my_shifts(freelancer, "freelancer", second)
        expect(card.locator(".shift-state")).to_have_text("Cancelado pela empresa")
        expect(card).to_contain_text("Valor do cancelamento tardio: R$ 100,00")
    finally:
        company_ctx.close()
        freelancer_ctx.close()


def test_hours_above_the_schedule_wait_for_the_company_and_each_side_is_told(
    browser: Browser, base_url: str, make_account
):
    """Issue 41: leaving the minute one arrived and sending 16:00 on a 5h30 shift is never approved by the
    timer; the company's card says 'Horas acima do agendado: aprove ou ajuste', the freelancer's why it waits."""
    token = uuid.uuid4().hex[:6]
    title = f"Bar com horas a mais {token}"
    company_email = make_account("client")
    freelancer_email = make_account("freelancer", name=f"Lia Horas {token}")
    job_id = bar_job(company_email, title, timedelta(minutes=30))  # 6 h with a 30 min break: 5h30
    company_ctx, company = signed_in(browser, base_url, company_email)
    freelancer_ctx, freelancer = signed_in(browser, base_url, freelancer_email)
    try:
        apply_and_get_hired(freelancer, company, job_id, title, freelancer_email)
        card = my_shifts(freelancer, "freelancer", title)
        card.get_by_role("button", name="Registrar chegada").click()
        freelancer.get_by_role("dialog", name="Registrar chegada").get_by_role(
            "button", name="Não consigo registrar"
        ).click()
        expect(toast(freelancer, "Chegada registrada")).to_be_visible()
        # Issue 42: leaving before the shift began is refused in plain words (it starts in 30 minutes).
        card.get_by_role("button", name="Registrar saída").click()
        leaving = freelancer.get_by_role("dialog", name="Registrar saída")
        expect(leaving.locator(".shift-subject")).to_contain_text(title)
        leaving.get_by_role("button", name="Não consigo registrar").click()
        expect(leaving.get_by_role("alert")).to_contain_text(
            "O turno ainda não começou: a saída pode ser registrada a partir do início"
        )
        leaving.get_by_role("button", name="Voltar").click()
        expect(card.locator(".shift-state")).to_have_text("Em andamento")
        leave_and_send_hours(freelancer, card, "16:00")
        expect(card).to_contain_text("Horas: 16h00")
        expect(card.locator(".shift-hours-note")).to_have_text(
            "Horas acima do agendado: aguardando aprovação da empresa"
        )

        company_card = my_shifts(company, "client", title)
        expect(company_card.locator(".shift-hours-note")).to_have_text("Horas acima do agendado: aprove ou ajuste")
        expect(company_card.get_by_role("button", name="Aprovar horas")).to_be_visible()
        expect(company_card.get_by_role("button", name="Ajustar horas")).to_be_visible()
        hiring = _hiring(job_id)
        assert (hiring.state, hiring.minutos_enviados, hiring.due_at) == ("horas_enviadas", 960, None)  # no timer
    finally:
        company_ctx.close()
        freelancer_ctx.close()
