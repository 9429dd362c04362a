"""'Meus Ganhos': a freelancer sees each shift's money and the year's totals, saves fiscal data and
opens a Stripe payout account through the fake's stand-in onboarding page, and comes back ready."""

import re
from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Application, ApplicationStatus, Hiring, HiringState, Job, PayoutAccount, User
from services.jobs import company_jobs
from tests.e2e.conftest import login
from tests.support.fake_stripe import FakeStripe
from tests.support.shift_form import shift_fields

EARNINGS = "/freelancer-dashboard?tab=earnings"


def _user_id(email: str) -> int:
    with session_scope() as db:
        return db.exec(select(User.id).where(User.email == email)).one()


def _paid_shift(company: str, freelancer: str, title: str, centavos: int) -> None:
    """A shift of `company` worked by `freelancer`, its hours approved and paid (direct payment)."""
    company_id, freelancer_id = _user_id(company), _user_id(freelancer)
    with session_scope() as db:
        fields = {
            "titulo": title,
            "categoria": "eventos",
            "descricao": "Atendimento em evento.",
            "localizacao": "São Paulo, SP",
            **shift_fields(),
        }
        job_id = company_jobs.create_job(db, company_id, fields)
        job = db.get(Job, job_id)
        application = Application(vaga_id=job_id, freelancer_id=freelancer_id, status=ApplicationStatus.ACCEPTED)
        db.add(application)
        db.flush()
        db.add(  # a shift already worked, approved and paid (a fixture row: its steps are tested elsewhere)
            Hiring(
                application_id=application.id,
                job_id=job_id,
                company_id=company_id,
                freelancer_id=freelancer_id,
                state=HiringState.PAID,
                inicio_em=job.inicio_em,
                fim_em=job.fim_em,
                valor_hora_centavos=3750,
                valor_centavos=centavos,
                pago_em=utcnow() - timedelta(hours=1),
            )
        )


def test_a_freelancer_sees_a_paid_shift_and_sets_up_payouts_on_stripe(
    page: Page, make_account, fake_stripe: FakeStripe, base_url: str
):
    company, freelancer = make_account("client"), make_account("freelancer", name="Rita Souza")
    _paid_shift(company, freelancer, "Garçom de formatura", 18750)
    fake_stripe.webhook_url = f"{base_url}/api/stripe/webhook"
    login(page, freelancer)
    page.goto(EARNINGS)

    expect(page.get_by_role("heading", name="Meus Ganhos")).to_be_visible()
    expect(page.locator("#earned-total")).to_contain_text("R$ 187,50")
    table = page.locator("#earnings-list")
    expect(table).to_contain_text("Garçom de formatura")
    expect(table).to_contain_text(re.compile(r"Pago em \d\d/\d\d"))
    expect(page.locator("#payout-status")).to_have_text("Não configurado")
    expect(page.locator("#payout-verify-note")).to_have_text(
        "O recebimento pelo Turno é liberado depois que o Stripe confirmar sua identidade (nome e CPF) no "
        "cadastro de recebimento."
    )

    form = page.locator("#fiscal-form")
    form.get_by_label("CPF", exact=True).fill("529.982.247-24")
    form.get_by_role("button", name="Salvar dados fiscais").click()
    expect(form.get_by_text("CPF inválido. Confira os números.")).to_be_visible()

    form.get_by_label("CPF", exact=True).fill("529.982.247-25")
    form.get_by_role("radio", name="MEI (com CNPJ)").click()
    form.get_by_label("CNPJ do MEI").fill("12.ABC.345/01DE-36")
    form.get_by_role("button", name="Salvar dados fiscais").click()
    expect(form.get_by_text("CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras.")).to_be_visible()

    form.get_by_label("CNPJ do MEI").fill("12.ABC.345/01DE-35")
    form.get_by_role("button", name="Salvar dados fiscais").click()
    expect(page.get_by_text("Dados fiscais salvos")).to_be_visible()
    expect(form.get_by_label("CPF", exact=True)).to_have_attribute("placeholder", "***.982.247-**")
    expect(form.get_by_label("CPF", exact=True)).to_have_value("")
    expect(page.locator("#mei-limit")).to_contain_text("limite anual do MEI (R$ 81.000,00)")
    expect(page.locator("#payout-status")).to_have_text("Falta o cadastro no Stripe")

    page.get_by_role("button", name="Configurar recebimento").click()
    expect(page.get_by_role("heading", name="Cadastro de recebimento (teste)")).to_be_visible()
    page.get_by_role("button", name="Concluir cadastro").click()

    expect(page).to_have_url(re.compile(r"/freelancer-dashboard/?\?tab=earnings&stripe=retorno$"))
    expect(page.get_by_text("Recebimento configurado")).to_be_visible()
    expect(page.locator("#payout-status")).to_have_text("Pronto para receber")
    expect(page.get_by_role("button", name="Atualizar dados no Stripe")).to_be_visible()
    expect(page.locator("#fiscal-form")).to_contain_text("***.982.247-**")  # the CPF is now fixed
    with session_scope() as db:
        row = db.get(PayoutAccount, _user_id(freelancer))
        assert row.payouts_enabled and row.mei_cnpj == "12ABC34501DE35" and row.cpf_status == "verificado"
        (created,) = [
            r for r in fake_stripe.calls("/v1/accounts") if r.params.get("metadata[user_id]") == str(row.user_id)
        ]
        assert created.params["country"] == "BR" and created.params["individual[id_number]"] == "52998224725"


def test_leaving_stripe_unfinished_says_the_signup_is_incomplete(mobile_page: Page, make_account):
    page = mobile_page
    freelancer = make_account("freelancer")
    with session_scope() as db:
        db.add(PayoutAccount(user_id=_user_id(freelancer), cpf="16899535009"))
    login(page, freelancer)
    page.goto(EARNINGS)
    expect(page.get_by_role("heading", name="Meus Ganhos")).to_be_visible()
    expect(page.get_by_text("Nenhum ganho ainda")).to_be_visible()

    page.get_by_role("button", name="Configurar recebimento").click()
    page.get_by_role("button", name="Sair sem concluir").click()

    expect(page).to_have_url(re.compile(r"stripe=retorno$"))
    expect(page.get_by_text("Cadastro incompleto", exact=True)).to_be_visible()
    expect(page.locator("#payout-status")).to_have_text("Cadastro incompleto no Stripe")
    expect(page.get_by_role("button", name="Continuar cadastro no Stripe")).to_be_visible()


def test_a_company_has_no_earnings_tab(page: Page, make_account):
    login(page, make_account("client"))
    page.goto(EARNINGS.replace("freelancer", "client"))
    expect(page.get_by_role("heading", name="Visão Geral")).to_be_visible()
    expect(page.get_by_text("Meus Ganhos")).to_have_count(0)
