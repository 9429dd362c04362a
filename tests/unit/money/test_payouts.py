"""services/money/payouts.py, payout_verification.py (its webhook) and the 'Meus Ganhos' handlers, against the local Stripe fake.

The real `stripe` library talks to tests/support/fake_stripe.py, so the connected account's
parameters (Brazil, `controller` properties), the idempotency key and the account link are checked
as Stripe would receive them; `account.updated` arrives signed with the Connect endpoint's secret.
"""

import json
import warnings

import pytest
from sqlmodel import Session, select

from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.security import hash_password
from models import FiscalRegime, PayoutAccount
from services.money import payout_verification, payouts
from services.money.payouts import PayoutError
from services.privacy import data_export, privacy
from tests.support.factories import make_company, make_freelancer, snapshot
from tests.support.fake_stripe import CONNECT_WEBHOOK_SECRET, event, sign
from tests.support.state_harness import cookie_for, run, state_for, toasts

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

CPF, OTHER_CPF = "529.982.247-25", "168.995.350-09"
BASE_URL = "http://turno.test"


def _save(db: Session, user_id: int, **form) -> PayoutAccount:
    row = payouts.save_fiscal_data(db, user_id, {"cpf": CPF, "regime": "autonomo", **form})
    db.commit()
    return row


def _errors(db: Session, user_id: int, form: dict) -> dict[str, str]:
    with pytest.raises(PayoutError) as refused:
        payouts.save_fiscal_data(db, user_id, form)
    db.rollback()
    return refused.value.field_errors


def test_fiscal_data_are_saved_bare_and_shown_masked(db):
    freelancer = make_freelancer(db, localizacao="Curitiba, PR")
    _save(db, freelancer.id, regime="mei", mei_cnpj="12.ABC.345/01DE-35")

    row = db.get(PayoutAccount, freelancer.id)
    assert (row.cpf, row.regime, row.mei_cnpj, row.municipio_ibge) == ("52998224725", "mei", "12ABC34501DE35", 4106902)
    setup = payouts.setup_for(db, freelancer.id)
    assert (setup.cpf_masked, setup.mei_cnpj, setup.municipio) == (
        "***.982.247-**",
        "12.ABC.345/01DE-35",
        "Curitiba, PR",
    )
    assert setup.status == payouts.STATUS_FISCAL


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"cpf": "", "regime": "autonomo"}, "cpf", "Informe seu CPF."),
        ({"cpf": "529.982.247-24", "regime": "autonomo"}, "cpf", "CPF inválido. Confira os números."),
        ({"cpf": CPF, "regime": "clt"}, "regime", "Escolha MEI ou autônomo."),
        ({"cpf": CPF, "regime": "mei", "mei_cnpj": ""}, "mei_cnpj", "Informe o CNPJ do seu MEI."),
        (
            {"cpf": CPF, "regime": "mei", "mei_cnpj": "12ABC34501DE36"},
            "mei_cnpj",
            "CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras.",
        ),
    ],
)
def test_bad_fiscal_data_get_their_message_and_write_nothing(db, form, field, message):
    freelancer = make_freelancer(db)
    db.commit()
    assert _errors(db, freelancer.id, form)[field] == message
    assert db.get(PayoutAccount, freelancer.id) is None


def test_a_blank_cpf_keeps_the_saved_one(db):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    _save(db, freelancer.id, cpf="", regime="mei", mei_cnpj="11.222.333/0001-81")
    row = db.get(PayoutAccount, freelancer.id)
    assert (row.cpf, row.regime) == ("52998224725", FiscalRegime.MEI)


def test_a_company_has_no_payout_account(db):
    company = make_company(db)
    db.commit()
    with pytest.raises(PayoutError, match=payouts.FREELANCERS_ONLY):
        payouts.save_fiscal_data(db, company.id, {"cpf": CPF, "regime": "autonomo"})


def test_without_stripe_only_direct_payment_is_offered(db):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    setup = payouts.setup_for(db, freelancer.id)
    assert (setup.configured, setup.action_label) == (False, "")
    with pytest.raises(PayoutError, match="Pagamento direto"):
        payouts.start_onboarding(db, freelancer.id, BASE_URL)


def test_onboarding_opens_one_brazilian_account_with_controller_properties(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)

    url = payouts.start_onboarding(db, freelancer.id, BASE_URL)
    again = payouts.start_onboarding(db, freelancer.id, BASE_URL)

    (created,) = fake.calls("/v1/accounts")
    assert created.params["country"] == "BR"
    assert created.params["controller[fees][payer]"] == "application"
    assert created.params["controller[losses][payments]"] == "application"
    assert created.params["controller[stripe_dashboard][type]"] == "express"
    assert created.params["capabilities[transfers][requested]"] == "true"
    assert created.params["metadata[user_id]"] == str(freelancer.id)
    assert created.headers["idempotency-key"] == f"turno-connect-account-{freelancer.id}"
    links = fake.calls("/v1/account_links")
    assert len(links) == 2 and url != again and url.startswith(fake.url + "/setup/")
    assert links[0].params["type"] == "account_onboarding"
    assert links[0].params["return_url"] == f"{BASE_URL}/freelancer-dashboard?tab=earnings&stripe=retorno"
    assert links[0].params["refresh_url"] == f"{BASE_URL}/freelancer-dashboard?tab=earnings&stripe=renovar"
    row = db.get(PayoutAccount, freelancer.id)
    assert row.stripe_account_id in fake.accounts
    assert payouts.setup_for(db, freelancer.id).status == payouts.STATUS_INCOMPLETE


def test_a_retry_after_a_lost_answer_reuses_the_same_account(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    fake.fail("/v1/account_links", 500, "timeout")
    with pytest.raises(PayoutError, match=payouts.SETUP_FAILED):
        payouts.start_onboarding(db, freelancer.id, BASE_URL)
    db.expire_all()
    kept = db.get(PayoutAccount, freelancer.id).stripe_account_id
    assert kept  # the account was kept, so the next try links it instead of opening another

    payouts.start_onboarding(db, freelancer.id, BASE_URL)
    assert len(fake.calls("/v1/accounts")) == 1 and len(fake.accounts) == 1


def test_the_cpf_cannot_change_once_the_account_is_open(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    payouts.start_onboarding(db, freelancer.id, BASE_URL)
    assert _errors(db, freelancer.id, {"cpf": OTHER_CPF, "regime": "autonomo"}) == {"cpf": payouts.CPF_LOCKED}


def test_coming_back_reads_the_account_and_the_webhook_keeps_it(db, fake, api_client):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    payouts.start_onboarding(db, freelancer.id, BASE_URL)
    account_id = db.get(PayoutAccount, freelancer.id).stripe_account_id

    fake.complete_onboarding(account_id, payouts_enabled=False)
    payout_verification.refresh_account(db, freelancer.id)
    db.commit()
    assert payouts.setup_for(db, freelancer.id).status == payouts.STATUS_REVIEW
    assert payouts.setup_for(db, freelancer.id).requirements_due == 1

    account = fake.complete_onboarding(account_id)
    body = event("account.updated", account)
    answer = api_client.post(
        "/api/stripe/webhook", content=body, headers={"Stripe-Signature": sign(body, CONNECT_WEBHOOK_SECRET)}
    )
    assert answer.status_code == 200 and answer.json()["result"] == "processed"
    db.expire_all()
    assert payouts.setup_for(db, freelancer.id).status == payouts.STATUS_READY


def test_an_account_update_signed_with_another_secret_changes_nothing(db, fake, api_client):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    payouts.start_onboarding(db, freelancer.id, BASE_URL)
    account = fake.complete_onboarding(db.get(PayoutAccount, freelancer.id).stripe_account_id)
    body = event("account.updated", account)
    answer = api_client.post(
        "/api/stripe/webhook", content=body, headers={"Stripe-Signature": sign(body, "whsec_forged")}
    )
    assert answer.status_code == 400
    db.expire_all()
    assert payouts.setup_for(db, freelancer.id).status == payouts.STATUS_INCOMPLETE


def test_the_data_export_has_the_payout_data_and_deletion_removes_them(db):
    freelancer = make_freelancer(db)
    freelancer.password_hash = hash_password("Segredo123")
    _save(db, freelancer.id)
    exported = data_export.export_user_data(db, freelancer.id)
    assert exported["recebimento"]["cpf"] == "52998224725"
    assert exported["recebimento"]["status"] == "Falta o cadastro no Stripe"
    privacy.delete_account(db, freelancer.id, "Segredo123")
    db.commit()
    assert db.exec(select(PayoutAccount)).all() == []


# --- the handlers, as a browser calls them ------------------------------------------------------


def _state(db, user, query=None):
    return state_for(
        FreelancerDashboardState, cookie_for(db, user), "/freelancer-dashboard", query or {"tab": "earnings"}
    )


def test_the_freelancer_saves_fiscal_data_from_the_tab(db):
    freelancer = make_freelancer(db)
    db.commit()
    state = _state(db, freelancer)
    run(state, FreelancerDashboardState.load)
    assert state.payout_status_label == "Não configurado"

    events = run(state, FreelancerDashboardState.save_fiscal_data, {"cpf": "529.982.247-24", "regime": "autonomo"})
    assert state.fiscal_errors["cpf"] == "CPF inválido. Confira os números." and toasts(events) == []

    events = run(state, FreelancerDashboardState.save_fiscal_data, {"cpf": CPF, "regime": "autonomo"})
    assert toasts(events) == ["success: Dados fiscais salvos"]
    assert state.payout_cpf == "***.982.247-**" and state.fiscal_errors["cpf"] == ""
    assert "52998224725" not in json.dumps(state.dict())  # the digits never go back to the browser


@pytest.mark.parametrize("who", ["visitor", "company"])
def test_a_stranger_cannot_save_fiscal_data_or_open_onboarding(db, fake, who):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    caller = None if who == "visitor" else make_company(db)
    db.commit()
    before = snapshot(db, PayoutAccount)
    state = state_for(FreelancerDashboardState, cookie_for(db, caller), "/freelancer-dashboard", {"tab": "earnings"})

    saved = run(state, FreelancerDashboardState.save_fiscal_data, {"cpf": OTHER_CPF, "regime": "mei"})
    opened = run(state, FreelancerDashboardState.start_payout_onboarding)

    assert toasts(saved) == [f"error: {payouts.SAVE_ERROR} | {payouts.FREELANCERS_ONLY}"]
    assert toasts(opened) == [f"error: {payouts.SETUP_ERROR} | {payouts.FREELANCERS_ONLY}"]
    assert snapshot(db, PayoutAccount) == before and fake.calls("/v1/accounts") == []


def test_onboarding_from_the_tab_redirects_to_stripe(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    state = _state(db, freelancer)
    run(state, FreelancerDashboardState.load)
    assert state.payout_action == "Configurar recebimento"

    events = run(state, FreelancerDashboardState.start_payout_onboarding)

    assert any(fake.url + "/setup/" in str(getattr(e, "args", "")) for e in events)
    assert state.payout_busy is True


def test_an_expired_link_opens_a_fresh_one_and_a_return_is_greeted(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    state = _state(db, freelancer, {"tab": "earnings", "stripe": "renovar"})
    assert run(state, FreelancerDashboardState.load) == [FreelancerDashboardState.start_payout_onboarding]

    payouts.start_onboarding(db, freelancer.id, BASE_URL)
    fake.complete_onboarding(db.get(PayoutAccount, freelancer.id).stripe_account_id)
    db.commit()
    state = _state(db, freelancer, {"tab": "earnings", "stripe": "retorno"})
    events = run(state, FreelancerDashboardState.load)
    assert toasts(events) == ["success: Recebimento configurado | Sua conta está pronta para receber pelo Turno."]
    assert state.payout_status_label == "Pronto para receber"
