"""'Pagamento garantido pelo Turno' (services/money/) against the local Stripe fake.

The real `stripe` library talks to tests/support/fake_stripe.py: the Checkout's parameters, the
transfer's `source_transaction` and `transfer_group`, the refunds and every idempotency key are
checked as Stripe receives them, and webhooks arrive signed through services.money.billing.handle_event.
Times are explicit (the hiring's shift is three days ahead); the settlement runs as the timer does.
"""

import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from core import background
from core.types import utcnow
from models import (
    Application,
    Hiring,
    Job,
    MoneyMovement,
    Notification,
    PayoutAccount,
    Profile,
    ProtectedPayment,
)
from services.common.errors import ServiceError
from services.jobs import pricing
from services.money import billing, checkout, payments, receipts, settlement
from services.shifts import application_answers, hiring_rules
from services.timer import clock
from tests.support.factories import make_application, make_company, make_freelancer, make_job, make_subscription
from tests.support.fake_stripe import event, sign
from tests.support.payouts import ready_payout_account
from tests.support.shift_helpers import MIN, H, Shift, by_company, by_freelancer, hiring, shift_start

CNPJ = "12.ABC.345/01DE-35"
BASE_URL = "http://turno.test"


# --- helpers ----------------------------------------------------------------------------------------


def _company(db: Session, cnpj: str = "12ABC34501DE35", **profile):
    company = make_company(db, **profile)
    db.get(Profile, company.id).cnpj = cnpj
    db.commit()
    return company


def _freelancer(db: Session, fake, ready: bool = True):
    """A freelancer with a CPF and, when `ready`, a connected account that can receive transfers."""
    freelancer = make_freelancer(db)
    row = ready_payout_account(fake, freelancer.id, freelancer.email)
    if not ready:  # Stripe still checks them: the account exists, payouts are off
        fake.accounts[row.stripe_account_id].update(payouts_enabled=False, charges_enabled=False)
        row.details_submitted = row.payouts_enabled = False
    db.add(row)
    db.commit()
    return freelancer


def _accept(db: Session, fake, company=None, freelancer=None, *, hours: int = 8, start=None) -> Shift:
    """A guaranteed vaga (R$ 30/h, 1 h break) and its application accepted with 'Aceitar e pagar'."""
    company = company or _company(db)
    freelancer = freelancer or _freelancer(db, fake)
    start = start or shift_start()
    job = make_job(
        db, company, "Garçom", pagamento="garantido", inicio_em=start, fim_em=start + hours * H, intervalo_min=60
    )
    application = make_application(db, job, freelancer)
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    h = db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()
    return Shift(h.id, job.id, application.id, company, freelancer, start, start + hours * H, "")


def _checkout(db: Session, shift: Shift, now=None) -> tuple[str, ProtectedPayment]:
    url = checkout.open_checkout(db, shift.company.id, shift.hiring_id, BASE_URL, now or utcnow())
    db.commit()
    payment = db.exec(
        select(ProtectedPayment)
        .where(ProtectedPayment.hiring_id == shift.hiring_id)
        .order_by(ProtectedPayment.id.desc())
    ).first()
    return url, payment


def deliver(db: Session, event_type: str, obj: dict, event_id: str | None = None) -> str:
    """A signed webhook through services.money.billing.handle_event, committed as the endpoint does."""
    body = event(event_type, obj, event_id)
    result = billing.handle_event(db, body.encode(), sign(body))
    db.commit()
    return result


def _pay(db: Session, fake, shift: Shift, method: str = "card") -> ProtectedPayment:
    _url, payment = _checkout(db, shift)
    deliver(db, "checkout.session.completed", fake.complete_payment(payment.checkout_session_id, method))
    return db.get(ProtectedPayment, payment.id, populate_existing=True)


def _work(db: Session, shift: Shift, hours: str = "7:00") -> None:
    """Arrive, leave, send `hours` and have them approved."""
    by_freelancer(db, shift, "chegada", shift.start, method="manual")
    by_freelancer(db, shift, "saida", shift.end, method="manual")
    by_freelancer(db, shift, "enviar_horas", shift.end + H, hours=hours)
    by_company(db, shift, "aprovar", shift.end + 2 * H)


def _settle(db: Session, shift: Shift) -> str:
    """Settle as the timer does when the settlement falls due (the hiring's clock is days ahead)."""
    due = hiring(db, shift.hiring_id).repasse_em
    return settlement.settle(shift.hiring_id, due or utcnow())


def _ledger(db: Session, hiring_id: int) -> dict[str, int]:
    return receipts.ledger_totals(db, hiring_id)


def _adds_up(totals: dict[str, int]) -> bool:
    return totals["cobranca"] == totals["repasse"] + totals["estorno"] + totals["taxa"]


# --- quote, CNPJ and the guards before accepting -----------------------------------------------------


def test_the_quote_is_hours_times_rate_plus_the_plan_fee(db, fake):
    company = _company(db)
    assert pricing.quote(db, company.id, 7 * 60, 3000) == pricing.Quote(21000, 12, 2520)
    make_subscription(db, company, tier="premium")
    assert pricing.quote(db, company.id, 7 * 60, 3000).fee_centavos == 2100
    assert pricing.fee(333, 12) == 40  # 39.96 half-up


def test_a_company_cnpj_is_validated_and_kept_bare(db):
    company = make_company(db)
    assert pricing.save_cnpj(db, company.id, CNPJ) == CNPJ
    db.commit()
    assert db.get(Profile, company.id).cnpj == "12ABC34501DE35"
    with pytest.raises(ServiceError) as refused:
        pricing.save_cnpj(db, company.id, "12ABC34501DE36")
    db.rollback()
    assert refused.value.message == "CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras."
    assert db.get(Profile, company.id).cnpj == "12ABC34501DE35"


@pytest.mark.parametrize("missing", ["cnpj", "stripe", "dispute"])
def test_a_protected_acceptance_is_refused_and_writes_nothing(db, fake, monkeypatch, missing):
    company = _company(db, cnpj="" if missing == "cnpj" else "12ABC34501DE35")
    if missing == "stripe":
        monkeypatch.setattr(pricing, "configured", lambda: False)
    if missing == "dispute":
        earlier = _accept(db, fake, company)
        payment = _pay(db, fake, earlier)
        deliver(db, "charge.dispute.created", fake.dispute(payment.charge_id))
    job = make_job(db, company, "Bartender", pagamento="garantido")
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    expected = {
        "cnpj": pricing.CNPJ_FIRST,
        "stripe": pricing.NOT_CONFIGURED,
        "dispute": pricing.DISPUTE_BLOCKS,
    }[missing]
    with pytest.raises(ServiceError) as refused:
        application_answers.accept(db, company.id, application.id)
    db.rollback()
    assert refused.value.message == expected
    assert db.get(Application, application.id, populate_existing=True).status == "pending"
    assert db.exec(select(Hiring).where(Hiring.application_id == application.id)).first() is None


def test_a_closed_dispute_lifts_the_block_and_the_freelancer_keeps_the_transfer(db, fake):
    shift = _accept(db, fake)
    payment = _pay(db, fake, shift)
    _work(db, shift)
    _settle(db, shift)
    dispute = fake.dispute(payment.charge_id)
    deliver(db, "charge.dispute.created", dispute)
    assert pricing.has_open_dispute(db, shift.company.id)
    deliver(db, "charge.dispute.closed", fake.close_dispute(dispute["id"], "lost"))
    assert not pricing.has_open_dispute(db, shift.company.id)
    assert [t["reversed"] for t in fake.transfers.values()] == [False]
    assert hiring(db, shift.hiring_id).state == "paga"


# --- acceptance and Checkout ----------------------------------------------------------------------------


def test_aceitar_e_pagar_waits_for_payment_and_opens_a_payment_checkout(db, fake):
    now = utcnow()
    shift = _accept(db, fake)
    h = hiring(db, shift.hiring_id)
    assert (h.state, h.pagamento) == ("aguardando_pagamento", "garantido")
    assert h.due_at == h.updated_at + timedelta(minutes=60)
    url, payment = _checkout(db, shift, now)
    assert url == fake.checkout_sessions[payment.checkout_session_id]["url"]
    (call,) = fake.calls("/v1/checkout/sessions")
    p = call.params
    assert (p["mode"], p["locale"], p["line_items[0][price_data][currency]"]) == ("payment", "pt-BR", "brl")
    assert p["line_items[0][price_data][unit_amount]"] == "21000"  # 7 h x R$ 30
    assert p["line_items[1][price_data][unit_amount]"] == "2520"  # 12 % (Gratuito)
    assert p["line_items[1][price_data][product_data][name]"] == "Taxa de serviço Turno (12%)"
    assert p["payment_intent_data[transfer_group]"] == f"turno-contratacao-{shift.hiring_id}"
    assert p["metadata[hiring_id]"] == str(shift.hiring_id)
    assert int(p["expires_at"]) == int((now + timedelta(minutes=60)).timestamp())
    assert call.headers["idempotency-key"] == f"turno-checkout-{payment.id}"
    assert "session_id={CHECKOUT_SESSION_ID}" in p["success_url"]
    # The same open Checkout is offered again rather than a second one.
    assert _checkout(db, shift, now)[0] == url
    assert len(fake.calls("/v1/checkout/sessions")) == 1
    # The freelancer is not told 'aceita' before the money arrives.
    assert not db.exec(select(Notification).where(Notification.user_id == shift.freelancer.id)).all()


def test_a_stranger_cannot_open_the_checkout_of_someone_elses_hiring(db, fake):
    shift = _accept(db, fake)
    stranger = _company(db)
    with pytest.raises(Exception) as refused:
        checkout.open_checkout(db, stranger.id, shift.hiring_id, BASE_URL, utcnow())
    db.rollback()
    assert type(refused.value).__name__ == "NotAllowed"
    assert not fake.calls("/v1/checkout/sessions")
    assert not db.exec(select(ProtectedPayment)).all()


def test_stripe_refusing_the_checkout_leaves_no_payment_row(db, fake):
    shift = _accept(db, fake)
    fake.fail("/v1/checkout/sessions", 500, "boom")
    with pytest.raises(payments.PaymentError) as refused:
        checkout.open_checkout(db, shift.company.id, shift.hiring_id, BASE_URL, utcnow())
    db.rollback()
    assert refused.value.message == payments.PAY_FAILED
    assert not db.exec(select(ProtectedPayment)).all()
    assert hiring(db, shift.hiring_id).state == "aguardando_pagamento"


def test_a_card_payment_schedules_the_shift_once_however_often_stripe_says_so(db, fake):
    shift = _accept(db, fake)
    _url, payment = _checkout(db, shift)
    completed = fake.complete_payment(payment.checkout_session_id, "card")
    assert deliver(db, "checkout.session.completed", completed, "evt_pago_1") == "processed"
    assert deliver(db, "checkout.session.completed", completed, "evt_pago_1") == "duplicate"
    assert deliver(db, "checkout.session.completed", completed, "evt_pago_2") == "processed"  # a resend
    assert deliver(db, "checkout.session.expired", {**completed, "status": "expired"}) == "processed"  # late, stale
    payment = db.get(ProtectedPayment, payment.id, populate_existing=True)
    assert (payment.status, payment.charge_id) == (
        "pago",
        fake.payment_intents[payment.payment_intent_id]["latest_charge"],
    )
    assert hiring(db, shift.hiring_id).state == "agendada"
    assert _ledger(db, shift.hiring_id)["cobranca"] == 23520
    messages = db.exec(select(Notification.message).where(Notification.user_id == shift.freelancer.id)).all()
    assert messages == [
        'Sua candidatura para a vaga "Garçom" foi aceita! O pagamento de R$ 210,00 está garantido pelo Turno.'
    ]


def test_a_pix_waits_for_its_async_success(db, fake):
    shift = _accept(db, fake)
    _url, payment = _checkout(db, shift)
    deliver(db, "checkout.session.completed", fake.complete_payment(payment.checkout_session_id, "pix"))
    assert db.get(ProtectedPayment, payment.id, populate_existing=True).status == "processando"
    assert hiring(db, shift.hiring_id).state == "aguardando_pagamento"
    deliver(db, "checkout.session.async_payment_succeeded", fake.settle_pix(payment.checkout_session_id))
    assert hiring(db, shift.hiring_id).state == "agendada"


def test_the_async_success_arriving_before_completed_ends_the_same(db, fake):
    shift = _accept(db, fake)
    _url, payment = _checkout(db, shift)
    completed = fake.complete_payment(payment.checkout_session_id, "pix")
    succeeded = fake.settle_pix(payment.checkout_session_id)
    deliver(db, "checkout.session.async_payment_succeeded", succeeded)
    deliver(db, "checkout.session.completed", completed)
    assert db.get(ProtectedPayment, payment.id, populate_existing=True).status == "pago"
    assert hiring(db, shift.hiring_id).state == "agendada"
    assert _ledger(db, shift.hiring_id)["cobranca"] == 23520


def test_a_failed_pix_returns_the_application_to_pending(db, fake):
    shift = _accept(db, fake)
    _url, payment = _checkout(db, shift)
    deliver(db, "checkout.session.completed", fake.complete_payment(payment.checkout_session_id, "pix"))
    deliver(db, "checkout.session.async_payment_failed", fake.settle_pix(payment.checkout_session_id, succeeded=False))
    assert hiring(db, shift.hiring_id).state == "expirada"
    assert db.get(Application, shift.application_id, populate_existing=True).status == "pending"


def test_unpaid_after_60_minutes_the_timer_returns_the_application_and_a_second_acceptance_works(db, fake):
    shift = _accept(db, fake)
    job = db.get(Job, shift.job_id)
    assert job.vaga_status == "in_progress"  # its one position is held while the company pays
    _url, first = _checkout(db, shift)
    accepted_at = hiring(db, shift.hiring_id).updated_at
    assert clock.tick(accepted_at + 59 * MIN).moved == 0
    assert clock.tick(accepted_at + 60 * MIN).moved == 1
    db.expire_all()
    assert hiring(db, shift.hiring_id).state == "expirada"
    assert db.get(Application, shift.application_id).status == "pending"
    assert db.get(Job, shift.job_id).vaga_status == "open"
    background.wait_idle()  # the Checkout is closed at Stripe too, so nobody pays it later
    assert fake.checkout_sessions[first.checkout_session_id]["status"] == "expired"
    assert db.get(ProtectedPayment, first.id).status == "expirado"
    application_answers.accept(db, shift.company.id, shift.application_id)
    db.commit()
    h = hiring(db, shift.hiring_id)
    assert h.state == "aguardando_pagamento"
    payment = _pay(db, fake, shift)
    assert payment.status == "pago"
    assert hiring(db, shift.hiring_id).state == "agendada"


def test_money_arriving_after_the_expiry_is_refunded_in_full(db, fake):
    shift = _accept(db, fake)
    _url, payment = _checkout(db, shift)
    paid = fake.complete_payment(payment.checkout_session_id, "card")  # paid at the last second...
    clock.tick(hiring(db, shift.hiring_id).updated_at + 61 * MIN)
    deliver(db, "checkout.session.completed", paid)  # ...but Stripe's word arrives after the expiry
    assert _settle(db, shift) == "acertado"
    totals = _ledger(db, shift.hiring_id)
    assert (totals["estorno"], totals["repasse"], totals["taxa"]) == (23520, 0, 0)
    assert not fake.transfers


# --- settlement -----------------------------------------------------------------------------------------


def test_approved_hours_pay_one_transfer_from_the_charge_and_refund_the_rest(db, fake):
    shift = _accept(db, fake)
    payment = _pay(db, fake, shift)
    _work(db, shift, hours="6:00")  # 6 h of the 7 paid
    assert hiring(db, shift.hiring_id).repasse_em is not None
    assert _settle(db, shift) == "pago"
    (transfer,) = fake.transfers.values()
    freelancer_account = db.get(PayoutAccount, shift.freelancer.id).stripe_account_id
    assert (transfer["amount"], transfer["destination"], transfer["source_transaction"]) == (
        18000,
        freelancer_account,
        payment.charge_id,
    )
    assert transfer["transfer_group"] == f"turno-contratacao-{shift.hiring_id}"
    (refund,) = fake.refunds.values()
    assert refund["amount"] == 23520 - 18000 - 2160  # the hour not worked and its fee
    assert fake.idempotency_keys("/v1/transfers") == [f"turno-repasse-{payment.id}"]
    assert fake.idempotency_keys("/v1/refunds") == [f"turno-estorno-{payment.id}"]
    h = hiring(db, shift.hiring_id)
    assert (h.state, h.repasse_em, h.repasse_erro) == ("paga", None, "")
    totals = _ledger(db, shift.hiring_id)
    assert (totals["repasse"], totals["taxa"]) == (18000, 2160) and _adds_up(totals)
    assert _settle(db, shift) == ""  # nothing left to do
    assert len(fake.transfers) == 1


def test_the_direct_payment_buttons_are_not_offered_on_a_guaranteed_shift(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    h = hiring(db, shift.hiring_id)
    assert "marcar_pago" not in hiring_rules.allowed_actions(h, "empresa", utcnow())
    assert "confirmar_recebimento" not in hiring_rules.allowed_actions(h, "freelancer", utcnow())


@pytest.mark.parametrize(
    ("who", "before", "transferred", "refunded"),
    [
        ("company", 3 * 24 * H, 0, 23520),  # more than 24 h before: free, all back
        ("company", 10 * H, 12000, 23520 - 12000 - 1440),  # late: min(4 h, 7 h) x R$ 30 and its fee
        ("freelancer", 10 * H, 0, 23520),
    ],
)
def test_a_cancellation_settles_by_the_rules(db, fake, who, before, transferred, refunded):
    start = (utcnow() + timedelta(days=4)).replace(second=0, microsecond=0)
    shift = _accept(db, fake, start=start)
    _pay(db, fake, shift)
    act = by_company if who == "company" else by_freelancer
    act(db, shift, "cancelar", start - before, reason="Mudança de planos no evento.")
    assert settlement.settle(shift.hiring_id, start - before) == "acertado"
    totals = _ledger(db, shift.hiring_id)
    assert (totals["repasse"], totals["estorno"]) == (transferred, refunded) and _adds_up(totals)


def test_a_no_show_is_refunded_only_after_the_contest_window(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    by_company(db, shift, "nao_compareceu", shift.start + 31 * MIN)
    h = hiring(db, shift.hiring_id)
    assert h.repasse_em == shift.start + 31 * MIN + timedelta(hours=48) or h.repasse_em >= shift.start + 48 * H
    assert settlement.settle(shift.hiring_id, shift.start + 40 * MIN) == ""
    assert settlement.settle(shift.hiring_id, h.repasse_em) == "acertado"
    assert _ledger(db, shift.hiring_id)["estorno"] == 23520


def test_a_failed_transfer_stays_pending_and_the_timer_retries_it(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    approved_at = hiring(db, shift.hiring_id).repasse_em
    fake.fail("/v1/transfers", 402, "Insufficient funds in Stripe account.")
    assert settlement.settle(shift.hiring_id, approved_at) == "pendente"
    h = hiring(db, shift.hiring_id)
    assert (h.state, h.repasse_tentativas) == ("aprovada", 1)
    assert h.repasse_erro == "O Stripe recusou o repasse. Nova tentativa em breve."
    assert h.repasse_em == approved_at + timedelta(minutes=1)
    assert not fake.transfers and not fake.refunds  # nothing moved: the refund waits for the transfer
    assert clock.tick(approved_at + 30 * timedelta(seconds=1)).settled == 0  # not due yet
    assert clock.tick(approved_at + 2 * MIN).settled == 1
    assert hiring(db, shift.hiring_id).state == "paga"
    assert len(fake.transfers) == 1


def test_a_freelancer_without_a_payout_account_waits_with_the_reason(db, fake):
    freelancer = _freelancer(db, fake, ready=False)
    shift = _accept(db, fake, freelancer=freelancer)
    _pay(db, fake, shift)
    _work(db, shift)
    assert _settle(db, shift) == "pendente"
    assert hiring(db, shift.hiring_id).repasse_erro == payments.NO_PAYOUT_ACCOUNT
    assert not fake.calls("/v1/transfers")
    assert _settle(db, shift) == "pendente"  # the timer tries again later: the freelancer is told once
    messages = db.exec(
        select(Notification.message).where(Notification.user_id == freelancer.id).order_by(Notification.id)
    ).all()
    accepted = [m for m in messages if "foi aceita!" in m]
    assert accepted == [
        'Sua candidatura para a vaga "Garçom" foi aceita! O pagamento de R$ 210,00 está garantido pelo Turno. '
        "Configure seu recebimento em Meus Ganhos para receber."
    ]
    assert messages.count(payments.PAYOUT_WAITING) == 1


def test_a_timeout_is_retried_with_the_same_key_and_pays_once(db, fake, monkeypatch):
    from services.money import stripe_api

    monkeypatch.setattr(stripe_api, "REQUEST_TIMEOUT_SECONDS", 0.5)
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    fake.hang("/v1/transfers", 1.5)
    result = _settle(db, shift)
    keys = fake.idempotency_keys("/v1/transfers")
    assert len(keys) >= 2 and len(set(keys)) == 1  # the library's retry, or the timer's, sent the same key
    if result == "pendente":  # both tries timed out: the timer's next try finds the same transfer
        assert _settle(db, shift) == "pago"
    assert len(fake.transfers) == 1
    assert hiring(db, shift.hiring_id).state == "paga"


def test_32_concurrent_settlements_make_exactly_one_transfer(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    now = hiring(db, shift.hiring_id).repasse_em
    results: list[str] = []
    barrier = threading.Barrier(32)

    def worker() -> None:
        barrier.wait()
        results.append(settlement.settle(shift.hiring_id, now))

    threads = [threading.Thread(target=worker) for _ in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count("pago") == 1
    assert len(fake.transfers) == 1 and len(fake.refunds) == 0  # 7 h paid, 7 h approved: nothing to refund
    assert db.exec(select(MoneyMovement).where(MoneyMovement.kind == "repasse")).all()[0].amount_centavos == 21000


def test_more_approved_hours_than_paid_wait_for_a_top_up(db, fake):
    shift = _accept(db, fake)
    first = _pay(db, fake, shift)
    _work(db, shift, hours="9:00")  # 2 h more than the 7 paid
    assert _settle(db, shift) == "complemento"
    h = hiring(db, shift.hiring_id)
    assert (h.state, h.repasse_erro) == ("aprovada", payments.TOP_UP_WAITING)
    due = payments.top_up_due(db, h)
    assert (due.freelancer_centavos, due.fee_centavos) == (6000, 720)
    _url, top_up = _checkout(db, shift)
    assert (top_up.kind, top_up.amount_centavos) == ("complemento", 6720)
    deliver(db, "checkout.session.completed", fake.complete_payment(top_up.checkout_session_id, "card"))
    assert _settle(db, shift) == "pago"
    amounts = sorted((t["amount"], t["source_transaction"]) for t in fake.transfers.values())
    top_up = db.get(ProtectedPayment, top_up.id, populate_existing=True)
    assert amounts == sorted([(21000, first.charge_id), (6000, top_up.charge_id)])
    totals = _ledger(db, shift.hiring_id)
    assert (totals["cobranca"], totals["repasse"], totals["taxa"], totals["estorno"]) == (30240, 27000, 3240, 0)
    assert hiring(db, shift.hiring_id).state == "paga"


def test_the_freelancer_is_told_when_the_money_is_sent(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    _settle(db, shift)
    messages = db.exec(select(Notification.message).where(Notification.user_id == shift.freelancer.id)).all()
    assert 'Pagamento de R$ 210,00 do turno "Garçom" enviado para sua conta de recebimento.' in messages


def test_a_reversed_transfer_is_marked_in_the_ledger(db, fake):
    shift = _accept(db, fake)
    _pay(db, fake, shift)
    _work(db, shift)
    _settle(db, shift)
    (transfer_id,) = fake.transfers
    deliver(db, "transfer.reversed", fake.reverse_transfer(transfer_id))
    row = db.exec(select(MoneyMovement).where(MoneyMovement.stripe_id == transfer_id)).one()
    assert row.reversed_at is not None


def test_rates_with_centavos_round_half_up(db, fake):
    company = _company(db)
    quote = pricing.quote(db, company.id, 7 * 60 + 25, 2755)
    assert quote.freelancer_centavos == 20433  # 445 min x 2755 / 60 = 20432,92
    assert quote.fee_centavos == 2452  # 12 % = 2451,96
    assert quote.total_centavos == 22885


def test_meus_ganhos_says_where_a_protected_payment_is(db, fake):
    from services.money import earnings

    freelancer = _freelancer(db, fake, ready=False)
    shift = _accept(db, fake, freelancer=freelancer)
    _pay(db, fake, shift)
    _work(db, shift)
    at = hiring(db, shift.hiring_id).repasse_em

    def status() -> str:
        (row,) = earnings.for_freelancer(db, freelancer.id, at)["rows"]
        return row["status"]

    assert status() == "Pagamento a caminho"
    _settle(db, shift)
    assert status() == "Pagamento pendente: configure seu recebimento"
    account = db.get(PayoutAccount, freelancer.id)
    fake.complete_onboarding(account.stripe_account_id)
    account.payouts_enabled = True
    db.commit()
    assert _settle(db, shift) == "pago"
    assert status().startswith("Pago em ")


def test_a_late_cancellation_fee_paid_through_turno_counts_as_received(db, fake):
    from services.money import earnings

    start = (utcnow() + timedelta(days=4)).replace(second=0, microsecond=0)
    shift = _accept(db, fake, start=start)
    _pay(db, fake, shift)
    by_company(db, shift, "cancelar", start - 10 * H, reason="Evento cancelado pelo cliente.")
    settlement.settle(shift.hiring_id, start - 10 * H)
    (row,) = earnings.for_freelancer(db, shift.freelancer.id, start)["rows"]
    assert row["status"].startswith("Taxa de cancelamento paga em")
    assert row["amount"] == "R$ 120,00"


def test_the_company_data_export_lists_its_payments_and_cnpj_without_stripe_ids(db, fake):
    from services.privacy import data_export

    shift = _accept(db, fake)
    payment = _pay(db, fake, shift)
    data = data_export.export_user_data(db, shift.company.id)
    (row,) = data["pagamentos_garantidos"]
    assert (row["amount"], row["status"], row["kind"], row["job_title"]) == (
        "R$ 235,20",
        "Pago",
        "Contratação",
        "Garçom",
    )
    assert data["perfil"]["cnpj"] == "12ABC34501DE35"
    text = str(data)
    assert payment.charge_id not in text and payment.payment_intent_id not in text
    assert data_export.export_user_data(db, shift.freelancer.id)["pagamentos_garantidos"] == []
