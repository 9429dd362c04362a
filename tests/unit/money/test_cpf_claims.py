"""A CPF cannot be probed or squatted (issue 41, point 4): services/money/payouts.py and payout_verification.py against the local Stripe fake.

Saving a CPF answers the same whether or not another account has it; saves are limited per account
and per client address; Stripe's verification of the connected account's individual decides whose
the CPF is, releases the other claims, and the database holds at most one verified account per CPF.
"""

import json
import logging

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from app.pages.freelancer_dashboard import FreelancerDashboardState
from core.settings import get_settings
from models import PayoutAccount
from services.money import payout_verification, payouts, settlement
from services.money.payouts import PayoutError
from tests.support.factories import make_freelancer, snapshot
from tests.support.fake_stripe import CONNECT_WEBHOOK_SECRET, event, sign
from tests.support.state_harness import cookie_for, run, state_for, toasts

CPF, OTHER_CPF = "529.982.247-25", "168.995.350-09"
BASE_URL = "http://turno.test"
ADDRESS = "203.0.113.7"
PENDING, VERIFIED, RELEASED, CONFLICT = "pendente", "verificado", "liberado", "conflito"  # models.CpfStatus
SAVES_THROTTLED = "Você salvou seus dados fiscais muitas vezes seguidas. Aguarde uma hora e tente novamente."
THROTTLED = f"error: {payouts.SAVE_ERROR} | {SAVES_THROTTLED}"


def _state(db, user):
    return state_for(FreelancerDashboardState, cookie_for(db, user), "/freelancer-dashboard", {"tab": "earnings"})


def _screen(state) -> dict:
    """What the payout card shows, less the masked CPF itself."""
    return {
        "status": state.payout_status_label,
        "action": state.payout_action,
        "notice": state.payout_notice,
        "errors": state.fiscal_errors,
        "locked": state.payout_cpf_locked,
    }


def _save(db: Session, user_id: int, cpf: str = CPF, address: str = ADDRESS, **form) -> PayoutAccount:
    row = payouts.save_fiscal_data(db, user_id, {"cpf": cpf, "regime": "autonomo", **form}, address)
    db.commit()
    return row


def _onboard(db: Session, user_id: int) -> str:
    payouts.start_onboarding(db, user_id, BASE_URL)
    return db.get(PayoutAccount, user_id).stripe_account_id


def _webhook(api_client, account: dict) -> None:
    body = event("account.updated", account)
    answer = api_client.post(
        "/api/stripe/webhook", content=body, headers={"Stripe-Signature": sign(body, CONNECT_WEBHOOK_SECRET)}
    )
    assert answer.status_code == 200 and answer.json()["result"] == "processed"


def _status(db: Session, user_id: int) -> str:
    db.expire_all()
    return db.get(PayoutAccount, user_id).cpf_status


def test_a_taken_cpf_gets_the_same_answer_as_a_free_one(db):
    owner, squatter, other = make_freelancer(db), make_freelancer(db), make_freelancer(db)
    db.commit()
    answers = {}
    for who, cpf in ((owner, CPF), (squatter, CPF), (other, OTHER_CPF)):
        state = _state(db, who)
        run(state, FreelancerDashboardState.load)
        events = run(state, FreelancerDashboardState.save_fiscal_data, {"cpf": cpf, "regime": "autonomo"})
        answers[who.id] = (toasts(events), _screen(state))
        assert "já está cadastrado" not in json.dumps(state.dict(), ensure_ascii=False)

    assert answers[squatter.id] == answers[other.id] == answers[owner.id]
    assert answers[squatter.id][0] == ["success: Dados fiscais salvos"]
    db.expire_all()
    claims = [db.get(PayoutAccount, who.id) for who in (owner, squatter)]
    assert [(row.cpf, row.cpf_status) for row in claims] == [("52998224725", PENDING)] * 2


def test_every_account_is_told_receiving_waits_for_stripe_to_verify_the_identity(db):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    assert "depois que o Stripe confirmar sua identidade" in payouts.VERIFY_NOTE
    state = _state(db, freelancer)
    run(state, FreelancerDashboardState.load)
    assert state.payout_notice == ""
    assert payouts.setup_for(db, freelancer.id).notice == ""  # the same card for a taken and a free CPF


def test_the_sixth_save_in_an_hour_of_an_account_is_refused_and_changes_nothing(db):
    freelancer = make_freelancer(db)
    db.commit()
    state = _state(db, freelancer)
    for n in range(5):
        regime = "mei" if n % 2 else "autonomo"
        events = run(
            state,
            FreelancerDashboardState.save_fiscal_data,
            {"cpf": CPF, "regime": regime, "mei_cnpj": "11.222.333/0001-81"},
        )
        assert toasts(events) == ["success: Dados fiscais salvos"]
    before = snapshot(db, PayoutAccount)

    events = run(state, FreelancerDashboardState.save_fiscal_data, {"cpf": OTHER_CPF, "regime": "autonomo"})

    assert toasts(events) == [THROTTLED]
    assert snapshot(db, PayoutAccount) == before
    assert db.get(PayoutAccount, freelancer.id).cpf == "52998224725"


def test_the_sixth_save_in_an_hour_from_one_address_is_refused_and_changes_nothing(db, monkeypatch):
    monkeypatch.setenv("FISCAL_SAVES_PER_ADDRESS_HOUR", "5")
    get_settings.cache_clear()
    freelancers = [make_freelancer(db) for _ in range(7)]
    db.commit()
    for freelancer in freelancers[:5]:
        _save(db, freelancer.id, address=ADDRESS)
    before = snapshot(db, PayoutAccount)

    with pytest.raises(PayoutError, match=SAVES_THROTTLED):
        payouts.save_fiscal_data(db, freelancers[5].id, {"cpf": OTHER_CPF, "regime": "autonomo"}, ADDRESS)
    db.rollback()

    assert snapshot(db, PayoutAccount) == before
    _save(db, freelancers[6].id, cpf=OTHER_CPF, address="198.51.100.9")  # another address is not held back


def test_the_save_limits_default_to_5_per_account_and_20_per_address_an_hour():
    settings = get_settings()
    assert (settings.fiscal_saves_per_account_hour, settings.fiscal_saves_per_address_hour) == (5, 20)


def test_the_cpf_goes_to_stripe_as_the_individuals_id_number(db, fake):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    _onboard(db, freelancer.id)
    (created,) = fake.calls("/v1/accounts")
    assert created.params["individual[id_number]"] == "52998224725"
    account = fake.accounts[db.get(PayoutAccount, freelancer.id).stripe_account_id]
    assert account["individual"]["id_number_provided"] is True and "id_number" not in account["individual"]


def test_the_owners_verification_releases_the_squatters_claim(db, fake, api_client, caplog):
    squatter, owner = make_freelancer(db), make_freelancer(db)
    _save(db, squatter.id)
    squatter_account = _onboard(db, squatter.id)
    _webhook(api_client, fake.complete_onboarding(squatter_account, payouts_enabled=False))  # Stripe wants a document
    _save(db, owner.id)
    owner_account = _onboard(db, owner.id)

    with caplog.at_level(logging.INFO, logger="turno.security"):
        _webhook(api_client, fake.complete_onboarding(owner_account))

    assert (_status(db, owner.id), _status(db, squatter.id)) == (VERIFIED, RELEASED)
    assert payouts.setup_for(db, owner.id).status_label == "Pronto para receber"
    assert settlement.payout_destination(db, owner.id) == owner_account
    released = payouts.setup_for(db, squatter.id)
    assert released.status_label == "CPF precisa ser verificado de novo"
    assert "O Stripe confirmou este CPF na conta de outra pessoa" in released.notice
    assert "fale com o suporte" in released.notice
    assert any("payout.cpf_claim" in r.getMessage() and "claim released" in r.getMessage() for r in caplog.records)

    # Even if Stripe later enabled the squatter's payouts (say, with another id number typed on Stripe's
    # form), the released claim stays released and receives nothing.
    _webhook(api_client, fake.complete_onboarding(squatter_account))
    assert _status(db, squatter.id) == RELEASED
    assert settlement.payout_destination(db, squatter.id) == ""


def test_a_released_claim_without_a_stripe_account_may_save_the_right_cpf(db, fake, api_client):
    typo, owner = make_freelancer(db), make_freelancer(db)
    _save(db, typo.id)
    _save(db, owner.id)
    _webhook(api_client, fake.complete_onboarding(_onboard(db, owner.id)))
    assert _status(db, typo.id) == RELEASED

    _save(db, typo.id, cpf=OTHER_CPF)

    assert (_status(db, typo.id), db.get(PayoutAccount, typo.id).cpf) == (PENDING, "16899535009")
    assert payouts.setup_for(db, typo.id).status_label == "Falta o cadastro no Stripe"


def test_until_stripe_verifies_the_individual_nobody_receives(db, fake, api_client):
    freelancer = make_freelancer(db)
    _save(db, freelancer.id)
    account_id = _onboard(db, freelancer.id)
    _webhook(api_client, fake.complete_onboarding(account_id, verified=False))  # payouts on, identity pending

    assert _status(db, freelancer.id) == PENDING
    assert payouts.setup_for(db, freelancer.id).status_label == "Em análise pelo Stripe"
    assert settlement.payout_destination(db, freelancer.id) == ""


def test_a_second_verified_identity_on_a_held_cpf_goes_to_support_and_support_can_settle_it(db, fake, api_client):
    first, second = make_freelancer(db), make_freelancer(db)
    _save(db, first.id)
    _webhook(api_client, fake.complete_onboarding(_onboard(db, first.id)))
    _save(db, second.id)
    second_account = _onboard(db, second.id)

    _webhook(api_client, fake.complete_onboarding(second_account))

    assert (_status(db, first.id), _status(db, second.id)) == (VERIFIED, CONFLICT)
    conflict = payouts.setup_for(db, second.id)
    assert conflict.status_label == "CPF em análise pelo suporte"
    assert "este CPF já está confirmado em outra conta do Turno. Fale com o suporte" in conflict.notice
    assert settlement.payout_destination(db, second.id) == ""

    # Support checked the documents: the first account was the squatter.
    assert payout_verification.release_claim(db, first.id)
    payout_verification.refresh_account(db, second.id)
    db.commit()
    assert (_status(db, first.id), _status(db, second.id)) == (RELEASED, VERIFIED)
    assert settlement.payout_destination(db, second.id) == second_account


def test_two_accounts_can_claim_a_cpf_but_only_one_can_hold_it_verified(db):
    first, second = make_freelancer(db), make_freelancer(db)
    db.add_all(
        [PayoutAccount(user_id=first.id, cpf="52998224725"), PayoutAccount(user_id=second.id, cpf="52998224725")]
    )
    db.commit()  # two pending claims on one CPF are allowed
    db.get(PayoutAccount, first.id).cpf_status = VERIFIED
    db.commit()

    db.get(PayoutAccount, second.id).cpf_status = VERIFIED
    with pytest.raises(IntegrityError):
        db.commit()
    db.rollback()
    assert _status(db, second.id) == PENDING


def test_a_verification_racing_another_is_stopped_by_the_index(db, fake, monkeypatch):
    first, second = make_freelancer(db), make_freelancer(db)
    _save(db, first.id)
    _save(db, second.id)
    db.get(PayoutAccount, first.id).cpf_status = VERIFIED  # the other verification landed a moment ago
    db.commit()
    second_account = _onboard(db, second.id)
    looks = iter([None])  # the check ran before the first commit was visible: only the index can stop it
    real = payout_verification._verified_holder
    monkeypatch.setattr(payout_verification, "_verified_holder", lambda session, row: next(looks, real(session, row)))

    payout_verification.on_account_updated(db, fake.complete_onboarding(second_account))
    db.commit()

    assert (_status(db, first.id), _status(db, second.id)) == (VERIFIED, CONFLICT)
