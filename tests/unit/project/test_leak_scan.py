"""The browser tests' leak scanner (tests/support/leak_scan.py) finds what it must and excuses only what it may.

Frames are built the way Reflex 0.10 sends them (`42/_event,["event", {"delta": ...}]`) and scanned
against accounts stored in the test database, as the e2e run does against the app's database.
"""

import json
from types import SimpleNamespace

import pytest

from core.security import hash_password, new_token, token_digest
from models import PayoutAccount
from tests.support.factories import make_company, make_freelancer
from tests.support.leak_scan import (
    CPF,
    EMAIL,
    EMAIL_TOKEN,
    PASSWORD_HASH,
    PHONE,
    SESSION_TOKEN,
    STRIPE,
    TOKEN_DIGEST,
    BrowserLog,
    LeakScan,
    Received,
    parse,
)

APP = "http://localhost:3000"
MAILBOX_STATE = "reflex___state____state.app___pages___mailbox____mailbox_state"
JOBS_STATE = "reflex___state____state.app___pages___company_jobs___state____company_jobs_state"


def frame(state: str, var: str, value: object) -> str:
    """A websocket frame carrying one state var, as Reflex sends it."""
    return "42/_event," + json.dumps(["event", {"delta": {state: {f"{var}_rx_state_": value}}}])


@pytest.fixture
def people(db):
    company = make_company(db, nome="Mariana Costa")
    freelancer = make_freelancer(db, nome="João Silva", telefone="(11) 98888-7777")
    db.commit()
    return company, freelancer


@pytest.fixture
def scanner(db, people) -> LeakScan:
    return LeakScan()


def leaks(scanner: LeakScan, text: str, viewer: int | None, page: str = "/client-dashboard", browser=None, seq=10):
    item = Received("ws", APP + page, text, viewer, browser or BrowserLog(), seq)
    return scanner.scan([item])


def test_another_users_email_and_phone_in_a_state_var_are_leaks(scanner, people):
    company, freelancer = people
    card = {"name": "João Silva", "email": freelancer.email, "phone": "(11) 98888-7777"}

    found = leaks(scanner, frame(JOBS_STATE, "applicants", [card]), viewer=company.id)

    assert len(found) == 2
    assert any(
        line.startswith(EMAIL) and freelancer.email in line and "applicants_rx_state_.0.email" in line for line in found
    )
    assert any(line.startswith(PHONE) for line in found)


def test_the_viewers_own_email_and_phone_are_not_leaks(scanner, people):
    _, freelancer = people
    me = {"email": freelancer.email, "telefone": "11988887777"}

    assert (
        leaks(scanner, frame("reflex___state____state.states___dashboard____dashboard_state", "me", me), freelancer.id)
        == []
    )


def test_a_visitor_gets_no_email(scanner, people):
    company, _ = people

    assert len(leaks(scanner, frame(JOBS_STATE, "x", company.email), viewer=None)) == 1


def test_password_hashes_tokens_and_their_digests_are_leaks(scanner, people):
    company, _ = people
    cookie = new_token()
    browser = BrowserLog(cookies={cookie})
    text = json.dumps({"a": hash_password("Senha1234"), "b": cookie, "c": token_digest(cookie)})

    found = leaks(scanner, text, viewer=company.id, browser=browser)

    assert sorted(line.split(" '")[0] for line in found) == sorted([PASSWORD_HASH, SESSION_TOKEN, TOKEN_DIGEST])


def test_stripe_ids_and_keys_are_leaks_but_words_like_in_progress_are_not(scanner, people):
    company, _ = people
    scanner.learn_stripe_id("price_test_premium_brl")
    text = json.dumps({"status": "in_progress", "customer": "cus_NffrFeUfNV2Hib", "price": "price_test_premium_brl"})

    found = leaks(scanner, text, viewer=company.id)

    assert sorted(line.split("'")[1] for line in found) == ["cus_NffrFeUfNV2Hib", "price_test_premium_brl"]


def test_a_stored_cpf_bare_or_formatted_and_a_connected_account_id_are_leaks(db, people):
    _, freelancer = people
    db.add(PayoutAccount(user_id=freelancer.id, cpf="52998224725", stripe_account_id="acct_1Q2w3E4r5T6y7U8i"))
    db.commit()
    scanner = LeakScan()
    scanner.refresh()
    text = json.dumps({"a": "52998224725", "b": "529.982.247-25", "c": "acct_1Q2w3E4r5T6y7U8i", "d": "***.982.247-**"})

    found = leaks(scanner, text, viewer=freelancer.id)

    assert sorted(line.split(" '")[0] for line in found) == sorted([CPF, CPF, STRIPE])


def test_the_dev_mailbox_list_is_excused_only_in_a_browser_that_opened_it(scanner, people):
    _, freelancer = people
    token = new_token()
    scanner.secrets[token] = EMAIL_TOKEN
    mails = [{"to": freelancer.email, "body": f"{APP}/reset-password?token={token}"}]
    opened = BrowserLog(sent=[(1, f"{APP}/dev/mailbox/\n")])

    assert leaks(scanner, frame(MAILBOX_STATE, "emails", mails), None, "/dev/mailbox/", browser=opened) == []
    assert leaks(scanner, frame(MAILBOX_STATE, "emails", mails), None, "/login/", browser=opened) == []
    assert len(leaks(scanner, frame(MAILBOX_STATE, "emails", mails), None, "/dev/mailbox/")) == 2
    assert len(leaks(scanner, frame(JOBS_STATE, "emails", mails), None, "/dev/mailbox/", browser=opened)) == 2


def test_a_value_the_browser_sent_earlier_is_an_echo_and_one_sent_later_is_not(scanner, people):
    _, freelancer = people
    typed = BrowserLog(sent=[(5, json.dumps({"email": freelancer.email}))])
    text = frame("reflex___state____state.app___pages___register____register_state", "email", freelancer.email)

    assert leaks(scanner, text, None, "/register/", browser=typed, seq=6) == []
    assert len(leaks(scanner, text, None, "/register/", browser=typed, seq=4)) == 1


def test_a_socket_id_shaped_like_a_stripe_id_is_no_leak_but_a_known_stripe_id_there_is(scanner, people):
    company, _ = people
    sid = "ch_EtDrMz3txn8k7AANZ"
    router = "reflex___state____state.rx_router_session_rx_state_"
    connect = "40/_event," + json.dumps({"sid": sid})
    delta = "42/_event," + json.dumps(["event", {"delta": {router: {"session_id": sid}}}])
    scanner.learn_stripe_id("ch_3Q2w3E4r5T6y7U8i")
    known = "40/_event," + json.dumps({"sid": "ch_3Q2w3E4r5T6y7U8i"})

    assert leaks(scanner, connect, None, "/login/") == []
    assert leaks(scanner, delta, company.id) == []
    assert len(leaks(scanner, frame(JOBS_STATE, "note", sid), company.id)) == 1
    assert len(leaks(scanner, known, None, "/login/")) == 1


def test_a_socket_io_frame_is_read_down_to_the_state_var():
    text = frame(JOBS_STATE, "applicants", [{"name": "Ana"}])

    assert parse(text) == {"delta": {JOBS_STATE: {"applicants_rx_state_": [{"name": "Ana"}]}}}


def test_the_totals_count_every_frame_and_byte(scanner):
    leaks(scanner, "2", None)
    leaks(scanner, "42/_event,[]", None)

    assert (scanner.frames, scanner.bytes) == (2, 13)
    assert scanner.summary().startswith(
        "leak scan: 2 frames (2 websocket, 0 HTTP bodies), 0.0 MB, 0 leaks (scanning took "
    )


def redirect(url: str) -> str:
    """A frame with Reflex's _redirect event, as `rx.redirect(url)` sends it."""
    event = {"name": "_redirect", "router_data": {}, "payload": {"path": url, "external": False, "replace": False}}
    return "42/_event," + json.dumps(["event", {"events": [event]}])


def test_a_stripe_checkout_id_is_excused_only_in_the_redirect_of_its_own_company(db, people):
    company, _ = people
    rival = make_company(db, nome="Rui Rival")
    db.commit()
    checkout_id = "cs_test_0001a1b2c3d4e5f6"
    fake = SimpleNamespace(
        checkout_sessions={checkout_id: {"id": checkout_id, "client_reference_id": str(company.id)}},
        subscriptions={},
        customers={},
        accounts={},
        calls=lambda _path: [],
    )
    scanner = LeakScan(fake)
    to_stripe = redirect(f"http://127.0.0.1:9/c/pay/{checkout_id}")

    assert leaks(scanner, to_stripe, company.id, "/client-dashboard/") == []
    assert len(leaks(scanner, to_stripe, rival.id, "/client-dashboard/")) == 1
    assert len(leaks(scanner, to_stripe, None, "/client-dashboard/")) == 1
    assert len(leaks(scanner, frame(JOBS_STATE, "plan", checkout_id), company.id, "/client-dashboard/")) == 1
    assert len(leaks(scanner, redirect(f"/jobs?ref={checkout_id}"), company.id, "/client-dashboard/")) == 1
