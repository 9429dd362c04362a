"""The company's screens of 'Pagamento garantido pelo Turno', driven as a browser would with a session cookie.

'Aceitar e pagar R$ X' in the applicants dialog, 'Pagar R$ X' and 'Desistir' on the shift cards,
the greeting back from Stripe Checkout and the 'Pagamentos' tab (CNPJ and payments). Stripe is the
local fake (tests/support/fake_stripe.py); a stranger's call changes nothing and reaches no Stripe.
"""

from datetime import timedelta
from decimal import Decimal

import pytest
from sqlmodel import Session, select

from app.pages.client_dashboard import ClientDashboardState
from app.pages.company_jobs.state import CompanyJobsState
from app.pages.freelancer_dashboard import FreelancerDashboardState
from core.formatting import local, money
from core.types import utcnow
from models import Application, Hiring, Job, Profile, ProtectedPayment, User
from services.common import documents
from services.jobs import pricing, shift_pay
from services.money import checkout, payments
from services.shifts import applicant_list, application_answers, applications
from tests.support.factories import make_application, make_company, make_freelancer, make_job, snapshot
from tests.support.shift_form import shift_fields
from tests.support.state_harness import cookie_for, run, state_for, toasts

CNPJ = "12.ABC.345/01DE-35"
CNPJ_BARE = "12ABC34501DE35"
REFUSED = f"error: {payments.PAY_ERROR} | {payments.NOTHING_TO_PAY}"


def _company(db: Session, cnpj: str = CNPJ_BARE, **profile) -> User:
    company = make_company(db, **profile)
    db.get(Profile, company.id).cnpj = cnpj
    db.commit()
    return company


def _vaga(db: Session, company: User, **fields) -> Job:
    """A guaranteed vaga three days ahead: 8 h with a 1 h break at R$ 30/h (7 h paid)."""
    job = make_job(db, company, "Garçom", pagamento="garantido", **fields)
    db.commit()
    return job


def _accepted(db: Session, company: User) -> tuple[Job, Application, Hiring]:
    """A guaranteed vaga with one application accepted: its hiring waits for the company's payment."""
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    return job, application, db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()


def _hiring_in(db: Session, company: User, state: str, **fields) -> Hiring:
    """A guaranteed hiring already in `state` (a fixture row: the steps there are tested elsewhere)."""
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db), status="accepted")
    db.flush()
    values = {
        "application_id": application.id,
        "job_id": job.id,
        "company_id": company.id,
        "freelancer_id": application.freelancer_id,
        "inicio_em": job.inicio_em,
        "fim_em": job.fim_em,
        "intervalo_min": job.intervalo_min,
        "valor_hora_centavos": 3000,
        "pagamento": "garantido",
    }
    hiring = Hiring(state=state, **{**values, **fields})
    db.add(hiring)
    db.commit()
    return hiring


def _dashboard(db: Session, user: User | None, **query) -> ClientDashboardState:
    return state_for(ClientDashboardState, cookie_for(db, user), "/client-dashboard", query or {"tab": "shifts"})


def _jobs(db: Session, user: User | None) -> CompanyJobsState:
    return state_for(CompanyJobsState, cookie_for(db, user), "/client-dashboard", {"tab": "jobs"})


def _redirect(events: list) -> str:
    """The URL of the redirect among `events` ('' when none)."""
    for spec in events:
        if "_redirect" in repr(getattr(getattr(spec, "handler", None), "fn", None)):
            return next(value._var_value for name, value in spec.args if name._js_expr == "path")
    return ""


def _money_tables(db: Session) -> dict:
    return snapshot(db, Hiring, Application, ProtectedPayment, Job)


# --- 'Pagamentos': the CNPJ -------------------------------------------------------------------------


def test_the_company_saves_its_cnpj_from_the_payments_tab(db):
    company = make_company(db)
    db.commit()
    state = _dashboard(db, company, tab="payments")
    run(state, ClientDashboardState.load)
    assert (state.loaded_tab, state.company_cnpj, state.payment_receipts) == ("payments", "", [])

    events = run(state, ClientDashboardState.save_company_cnpj, {"cnpj": CNPJ_BARE.lower()})

    assert toasts(events) == ["success: CNPJ salvo"]
    assert (state.company_cnpj, state.cnpj_error) == (CNPJ, "")
    db.expire_all()
    assert db.get(Profile, company.id).cnpj == CNPJ_BARE
    run(state, ClientDashboardState.load)
    assert state.company_cnpj == CNPJ  # shown formatted when the tab opens again


def test_an_invalid_cnpj_is_shown_under_the_field_and_nothing_is_written(db):
    company = _company(db)
    before = snapshot(db, Profile)
    state = _dashboard(db, company, tab="payments")
    run(state, ClientDashboardState.load)

    events = run(state, ClientDashboardState.save_company_cnpj, {"cnpj": "12.ABC.345/01DE-36"})

    assert toasts(events) == []
    assert state.cnpj_error == documents.CNPJ_INVALID
    assert state.company_cnpj == CNPJ
    assert snapshot(db, Profile) == before


@pytest.mark.parametrize("who", ["freelancer", "visitor"])
def test_only_a_company_saves_a_cnpj(db, who):
    caller = make_freelancer(db) if who == "freelancer" else None
    db.commit()
    before = snapshot(db, Profile)
    state = _dashboard(db, caller, tab="payments")

    events = run(state, ClientDashboardState.save_company_cnpj, {"cnpj": CNPJ})

    assert toasts(events) == [f"error: Não foi possível salvar o CNPJ | {pricing.COMPANIES_ONLY}"]
    assert snapshot(db, Profile) == before


# --- 'Pagamentos': the list -----------------------------------------------------------------------------


def test_the_payments_tab_lists_the_companys_payments_with_refunds_and_receipts(db, fake):
    company, rival = _company(db), _company(db)
    job, _application, h = _accepted(db, company)
    _accepted(db, rival)  # another company's payment is not listed
    for owner, hiring_id in ((company, h.id), (rival, _last_hiring(db, rival))):
        checkout.open_checkout(db, owner.id, hiring_id, "http://turno.test", utcnow())
        db.commit()
    payment = db.exec(select(ProtectedPayment).where(ProtectedPayment.company_id == company.id)).one()
    state = _dashboard(db, company, tab="payments")

    run(state, ClientDashboardState.load)

    (row,) = state.payment_receipts
    assert (row.job_title, row.kind, row.amount, row.refunded, row.status, row.receipt_url) == (
        job.titulo,
        "Contratação",
        "R$ 235,20",  # 7 h x R$ 30 + 12 % (Gratuito)
        "",
        "Aguardando pagamento",
        "",
    )
    assert row.id == payment.id and state.protected_available is True


def test_without_stripe_the_payments_tab_says_so_and_lists_nothing(db):
    company = _company(db)
    state = _dashboard(db, company, tab="payments")
    run(state, ClientDashboardState.load)
    assert (state.protected_available, state.payment_receipts, state.company_cnpj) == (False, [], CNPJ)


def _last_hiring(db: Session, company: User) -> int:
    return db.exec(select(Hiring.id).where(Hiring.company_id == company.id).order_by(Hiring.id.desc())).first()


# --- the applicants dialog: 'Aceitar e pagar R$ X' -------------------------------------------------------


def test_a_guaranteed_vagas_cards_read_aceitar_e_pagar_with_the_quote_of_each_rate(db, fake):
    company = _company(db)
    job = _vaga(db, company)
    direct_job = make_job(db, company, "Copeiro")
    plain = make_application(db, job, make_freelancer(db, nome="Ana"))
    proposal = make_application(db, job, make_freelancer(db, nome="Bia"), valor_proposto=Decimal("41.37"))
    direct = make_application(db, direct_job, make_freelancer(db, nome="Caio"))
    db.commit()

    cards = {card["id"]: card for card in applicant_list.list_for_job(db, company.id, job.id).cards}
    (direct_card,) = applicant_list.list_for_job(db, company.id, direct_job.id).cards

    def label(rate: int | None) -> str:
        total = pricing.job_quote(db, job, rate).total_centavos
        return f"Aceitar e pagar {money(Decimal(total) / 100)}"

    assert cards[plain.id]["accept_label"] == label(None) == "Aceitar e pagar R$ 235,20"
    assert cards[proposal.id]["accept_label"] == label(shift_pay.centavos(Decimal("41.37")))
    assert cards[plain.id]["guaranteed"] and cards[proposal.id]["guaranteed"]
    assert (direct_card["id"], direct_card["accept_label"], direct_card["guaranteed"]) == (direct.id, "Aceitar", False)
    reread = applicant_list.reread_cards(db, company.id, job.id, [proposal.id])
    assert reread[0]["accept_label"] == cards[proposal.id]["accept_label"]


def test_aceitar_e_pagar_accepts_and_sends_the_company_to_checkout(db, fake):
    company = _company(db)
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    state = _jobs(db, company)
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.open_applications, job.id)

    events = run(state, CompanyJobsState.accept_and_pay, application.id)

    h = db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()
    payment = db.exec(select(ProtectedPayment).where(ProtectedPayment.hiring_id == h.id)).one()
    assert h.state == "aguardando_pagamento"
    assert _redirect(events) == payment.checkout_url != ""
    assert payment.amount_centavos == 23520 and toasts(events) == []
    assert len(fake.calls("/v1/checkout/sessions")) == 1


def test_back_from_checkout_the_next_applicants_aceitar_e_pagar_is_not_left_busy(db, fake):
    """Issue 42 point 6: the tab's state outlives the trip to Stripe (and a reload); the busy mark must not."""
    company = _company(db)
    lunch, dinner = _vaga(db, company), _vaga(db, company)
    first = make_application(db, lunch, make_freelancer(db, nome="Ana"))
    second = make_application(db, dinner, make_freelancer(db, nome="Bia"))
    db.commit()
    state = _jobs(db, company)
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.open_applications, lunch.id)
    assert _redirect(run(state, CompanyJobsState.accept_and_pay, first.id)) != ""

    run(state, CompanyJobsState.load)  # back from Stripe in the same tab, or a reload: the page loads again
    assert state.paying_application == 0
    run(state, CompanyJobsState.open_applications, dinner.id)
    assert _redirect(run(state, CompanyJobsState.accept_and_pay, second.id)) != ""

    state.paying_application = first.id  # left over however it came: opening the dialog starts afresh
    run(state, CompanyJobsState.open_applications, dinner.id)
    assert state.paying_application == 0


def test_back_from_checkout_the_shift_cards_pagar_is_not_left_busy(db, fake):
    company = _company(db)
    _accepted(db, company)
    _job, _application, h = _accepted(db, company)
    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)
    assert _redirect(run(state, ClientDashboardState.pay_shift, h.id)) != ""

    run(state, ClientDashboardState.load)  # the tab comes back from Stripe (?pagamento=voltou) or reloads

    assert state.paying_hiring == 0


def test_when_the_checkout_fails_the_acceptance_stays_waiting_for_payment(db, fake):
    company = _company(db)
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    fake.fail("/v1/checkout/sessions", 500, "boom")
    state = _jobs(db, company)
    run(state, CompanyJobsState.open_applications, job.id)

    events = run(state, CompanyJobsState.accept_and_pay, application.id)

    assert toasts(events)[0] == f"error: {payments.PAY_ERROR} | {payments.PAY_FAILED}"
    assert _redirect(events) == "" and state.paying_application == 0
    assert db.exec(select(Hiring.state).where(Hiring.application_id == application.id)).one() == (
        "aguardando_pagamento"
    )
    assert state.applicants[0]["status"] == "accepted"


def test_aceitar_e_pagar_without_a_cnpj_is_refused_and_changes_nothing(db, fake):
    company = _company(db, cnpj="")
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    before = _money_tables(db)

    events = run(_jobs(db, company), CompanyJobsState.accept_and_pay, application.id)

    assert toasts(events) == [f"error: Erro | {pricing.CNPJ_FIRST}"]
    assert _money_tables(db) == before and not fake.calls("/v1/checkout/sessions")


@pytest.mark.parametrize("who", ["rival", "freelancer", "visitor", "missing"])
def test_a_stranger_cannot_accept_and_pay_someone_elses_application(db, fake, who):
    company, rival = _company(db), _company(db)
    job = _vaga(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    caller = {"rival": rival, "freelancer": make_freelancer(db), "visitor": None, "missing": company}[who]
    db.commit()
    before = _money_tables(db)

    target = 10**9 if who == "missing" else application.id
    events = run(_jobs(db, caller), CompanyJobsState.accept_and_pay, target)

    assert toasts(events) == [f"error: Erro | {applications.NOT_FOUND}"]
    assert _money_tables(db) == before and not fake.calls("/v1/checkout/sessions")


def test_a_direct_vaga_keeps_aceitar(db):
    company = _company(db)
    job = make_job(db, company)
    application = make_application(db, job, make_freelancer(db))
    db.commit()
    events = run(_jobs(db, company), CompanyJobsState.accept_application, application.id)
    assert toasts(events)[0] == "success: Candidatura aceita"
    assert db.exec(select(Hiring.state).where(Hiring.application_id == application.id)).one() == "agendada"


# --- the shift cards: 'Pagar', 'Desistir' and where the money is ------------------------------------------


def test_the_card_of_an_unpaid_hiring_offers_pagar_and_desistir(db, fake):
    company = _company(db)
    _job, _application, h = _accepted(db, company)
    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)

    (card,) = state.shifts_upcoming
    until = local(h.updated_at + timedelta(minutes=60))
    assert card["guaranteed"] is True
    assert card["payment_status"] == f"Aguardando pagamento (até {until:%H:%M})"
    assert card["pay_label"] == "Pagar R$ 235,20"
    assert [a["label"] for a in card["actions"]] == ["Desistir"]
    assert card["state_label"] == "Aguardando pagamento"

    freelancer = db.get(User, h.freelancer_id)
    mine = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "shifts"})
    run(mine, FreelancerDashboardState.load)
    (theirs,) = mine.shifts_upcoming
    assert (theirs["payment_status"], theirs["pay_label"], theirs["actions"]) == (
        "Aguardando pagamento da empresa",
        "",
        [],
    )


def test_pagar_on_the_card_opens_the_checkout_and_reuses_it(db, fake):
    company = _company(db)
    _job, _application, h = _accepted(db, company)
    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)

    first = _redirect(run(state, ClientDashboardState.pay_shift, h.id))
    state.paying_hiring = 0  # the browser left for Stripe and came back
    second = _redirect(run(state, ClientDashboardState.pay_shift, h.id))

    assert first == second != ""
    assert len(fake.calls("/v1/checkout/sessions")) == 1


@pytest.mark.parametrize("who", ["rival", "freelancer", "visitor", "missing"])
def test_a_stranger_cannot_pay_someone_elses_hiring(db, fake, who):
    company, rival = _company(db), _company(db)
    _job, _application, h = _accepted(db, company)
    caller = {"rival": rival, "freelancer": db.get(User, h.freelancer_id), "visitor": None, "missing": company}[who]
    before = _money_tables(db)

    events = run(_dashboard(db, caller), ClientDashboardState.pay_shift, 10**9 if who == "missing" else h.id)

    expected = REFUSED
    if who in ("freelancer", "visitor"):
        expected = f"error: {payments.PAY_ERROR} | {pricing.COMPANIES_ONLY}"
    assert toasts(events) == [expected] and _redirect(events) == ""
    assert _money_tables(db) == before and not fake.calls("/v1/checkout/sessions")


def test_a_bad_hiring_id_gets_the_same_refusal(db, fake):
    company = _company(db)
    for value in ("1 OR 1=1", -1, None, True):
        events = run(_dashboard(db, company), ClientDashboardState.pay_shift, value)
        assert toasts(events) == [REFUSED]
    assert not fake.calls("/v1/checkout/sessions")


def test_desistir_expires_the_hiring_and_the_application_returns_to_pending(db, fake):
    company = _company(db)
    _job, application, h = _accepted(db, company)
    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)

    events = run(state, ClientDashboardState.open_shift_action, h.id, "desistir")

    assert toasts(events) == ["success: Contratação desfeita"]
    db.expire_all()
    assert db.get(Hiring, h.id).state == "expirada"
    assert db.get(Application, application.id).status == "pending"
    assert state.shifts_upcoming == []


def test_the_freelancer_cannot_desistir(db, fake):
    company = _company(db)
    _job, _application, h = _accepted(db, company)
    freelancer = db.get(User, h.freelancer_id)
    before = _money_tables(db)
    state = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "shifts"})

    events = run(state, FreelancerDashboardState.open_shift_action, h.id, "desistir")

    assert toasts(events)[0].startswith("error: Não foi possível concluir")
    assert _money_tables(db) == before


@pytest.mark.parametrize(
    ("state", "error", "company_line", "freelancer_line"),
    [
        ("aprovada", "", "Pagamento a caminho", "Pagamento a caminho"),
        (
            "aprovada",
            payments.NO_PAYOUT_ACCOUNT,
            f"Pagamento pendente: {payments.NO_PAYOUT_ACCOUNT}",
            "Pagamento pendente: configure seu recebimento em Meus Ganhos",
        ),
        ("aprovada", payments.TOP_UP_WAITING, "Horas aprovadas acima do valor pago", "Pagamento a caminho"),
    ],
)
def test_the_cards_say_where_the_money_is(db, fake, state, error, company_line, freelancer_line):
    company = _company(db)
    # 8 h approved, nothing paid in this fixture: a top-up of the whole amount is due.
    h = _hiring_in(db, company, state, repasse_erro=error, minutos_aprovados=8 * 60, valor_centavos=24000)

    company_state = _dashboard(db, company)
    run(company_state, ClientDashboardState.load)
    freelancer = db.get(User, h.freelancer_id)
    mine = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "shifts"})
    run(mine, FreelancerDashboardState.load)

    (card,) = company_state.shifts_upcoming
    assert card["payment_status"] == company_line
    assert mine.shifts_upcoming[0]["payment_status"] == freelancer_line
    # Nothing was paid in this test, so the top-up is the whole approved amount plus the fee.
    expected = "Pagar complemento R$ 268,80" if error == payments.TOP_UP_WAITING else ""
    assert card["pay_label"] == expected


def test_a_paid_guaranteed_hiring_says_when_and_leaves_both_lists(db, fake):
    company = _company(db)
    paid_at = utcnow() - timedelta(days=1)
    h = _hiring_in(db, company, "paga", pago_em=paid_at, minutos_aprovados=7 * 60, valor_centavos=21000)

    state = _dashboard(db, company)
    run(state, ClientDashboardState.load)
    freelancer = db.get(User, h.freelancer_id)
    mine = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "shifts"})
    run(mine, FreelancerDashboardState.load)

    line = f"Pago em {local(paid_at):%d/%m}"
    assert (state.shifts_upcoming, mine.shifts_upcoming) == ([], [])  # Turno paid: nobody has to confirm it
    assert state.shifts_history[0]["payment_status"] == mine.shifts_history[0]["payment_status"] == line


# --- back from Stripe Checkout ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("returned", "toast"),
    [
        (
            "ok",
            "success: Pagamento enviado | Assim que o Stripe confirmar, o turno fica agendado e o freelancer é avisado.",
        ),
        ("voltou", 'info: Pagamento não concluído | Você pode pagar pelo botão "Pagar" no turno em até 60 minutos.'),
    ],
)
def test_back_from_checkout_the_company_is_greeted_once(db, returned, toast):
    company = _company(db)
    query = {"tab": "shifts", "pagamento": returned, "session_id": "cs_test_1"}
    events = run(_dashboard(db, company, **query), ClientDashboardState.load)
    assert toasts(events) == [toast]
    assert any("replaceState" in str(event) for event in events)
    assert toasts(run(_dashboard(db, company), ClientDashboardState.load)) == []


# --- the publish form: 'Forma de pagamento' ---------------------------------------------------------------

JOB_FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    "valor_hora": "25,00",
    **shift_fields(days=3, hours=6),
    "vagas_disponiveis": "1",
}


def test_without_stripe_garantido_is_off_and_refused_under_its_field(db):
    company = _company(db)
    state = _jobs(db, company)
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.open_publish)
    assert (state.protected_available, state.publish_payment) == (False, "direto")
    run(state, CompanyJobsState.choose_payment, "garantido")
    assert state.publish_payment == "direto"

    events = run(state, CompanyJobsState.publish, {**JOB_FORM, "pagamento": "garantido"})

    assert toasts(events) == []
    assert state.form_errors["pagamento"] == pricing.NOT_CONFIGURED
    assert db.exec(select(Job).where(Job.cliente_id == company.id)).all() == []


def test_with_stripe_a_company_publishes_a_guaranteed_vaga(db, fake):
    company = _company(db)
    state = _jobs(db, company)
    run(state, CompanyJobsState.open_publish)
    assert state.protected_available is True
    run(state, CompanyJobsState.choose_payment, "garantido")
    assert state.publish_payment == "garantido"
    run(state, CompanyJobsState.choose_payment, "<script>")
    assert state.publish_payment == "direto"

    events = run(state, CompanyJobsState.publish, {**JOB_FORM, "pagamento": "garantido"})

    assert toasts(events)[0] == "success: Vaga criada com sucesso!"
    assert db.exec(select(Job.pagamento).where(Job.cliente_id == company.id)).one() == "garantido"
