"""WhatsApp confirmations and reminders (services/reach/whatsapp.py, whatsapp_number.py, whatsapp_webhook.py and handlers), on both databases.

Messages go to tests/support/fake_whatsapp.py, which checks the token, the template, pt_BR and
the parameters as the Cloud API does.
"""

import logging
import threading
from datetime import timedelta

import pytest
from sqlmodel import select
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from app.api import whatsapp_webhook
from core import audit
from core.db import session_scope
from core.settings import get_settings
from core.types import utcnow
from models import ChannelConsent, NotificationType, User, WhatsAppContact, WhatsAppMessage
from services.common.errors import NotAllowed, ValidationFailed
from services.privacy import data_export, privacy
from services.reach import notifications, whatsapp, whatsapp_number
from states.settings import SettingsState
from tests.support.factories import make_freelancer
from tests.support.fake_whatsapp import (
    APP_SECRET,
    VERIFY_TOKEN,
    FakeWhatsApp,
    signed_webhook,
    status_payload,
    text_payload,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts

PHONE = "5511987654321"


@pytest.fixture
def fake(monkeypatch):
    with FakeWhatsApp() as service:
        for name, value in service.env().items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        yield service
    get_settings.cache_clear()


@pytest.fixture
def no_sender_thread(monkeypatch):
    monkeypatch.setattr(whatsapp.sender, "kick", lambda: None)


def _code(fake: FakeWhatsApp) -> str:
    """The code of the last code message the fake API accepted."""
    return [sent for sent in fake.sent() if sent.template == "turno_codigo"][-1].params[0]


def _active(db, fake, freelancer: User) -> None:
    whatsapp_number.start(db, freelancer.id, "(11) 98765-4321")
    db.commit()
    whatsapp.send_due()
    assert whatsapp_number.confirm(db, freelancer.id, _code(fake)) is None
    db.commit()


def _messages(db) -> list[WhatsAppMessage]:
    db.expire_all()
    return list(db.exec(select(WhatsAppMessage).order_by(WhatsAppMessage.id)).all())


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("(11) 98765-4321", PHONE),
        ("11987654321", PHONE),
        ("+55 11 98765-4321", PHONE),
        ("55 (21) 9 8765 4321", "5521987654321"),
    ],
)
def test_mobile_numbers_are_normalised(typed, expected):
    assert whatsapp.normalize_phone(typed) == expected
    assert whatsapp.format_phone(expected).startswith("(")


@pytest.mark.parametrize("typed", ["(11) 3456-7890", "1198765432", "(01) 98765-4321", "abc", "", None, "1" * 50])
def test_other_numbers_are_refused(typed):
    with pytest.raises(ValidationFailed) as refused:
        whatsapp.normalize_phone(typed)
    assert refused.value.field_errors == {"phone": whatsapp.PHONE_INVALID}


def test_a_code_reaches_the_number_in_portuguese_and_confirms_it(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    assert whatsapp_number.start(db, freelancer.id, "(11) 98765-4321") == "(11) 98765-4321"
    db.commit()
    assert whatsapp_number.status(db, freelancer.id)["state"] == "pending"
    assert whatsapp.send_due().sent == 1
    (sent,) = fake.sent()
    assert (sent.to, sent.template, sent.language, sent.button) == (PHONE, "turno_codigo", "pt_BR", None)
    assert len(sent.params[0]) == 6 and sent.params[0].isdigit()
    contact = db.get(WhatsAppContact, freelancer.id)
    assert contact.code_hash and sent.params[0] not in contact.code_hash
    assert whatsapp_number.confirm(db, freelancer.id, sent.params[0]) is None
    db.commit()
    view = whatsapp_number.status(db, freelancer.id)
    assert (view["state"], view["phone"], view["error"]) == ("active", "(11) 98765-4321", "")
    (consent,) = db.exec(select(ChannelConsent)).all()
    assert (consent.channel, consent.granted, consent.detail) == ("whatsapp", True, "(11) 9****-4321")
    assert abs(consent.at - utcnow()) < timedelta(minutes=1)


def test_a_second_code_waits_a_minute(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    now = utcnow()
    whatsapp_number.start(db, freelancer.id, PHONE, now)
    db.commit()
    with pytest.raises(ValidationFailed) as refused:
        whatsapp_number.start(db, freelancer.id, PHONE, now + timedelta(seconds=30))
    assert refused.value.field_errors == {"code": whatsapp_number.WAIT}
    whatsapp_number.start(db, freelancer.id, PHONE, now + timedelta(seconds=61))


def test_wrong_codes_count_and_five_end_the_code(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    whatsapp_number.start(db, freelancer.id, PHONE)
    db.commit()
    whatsapp.send_due()
    right = _code(fake)
    wrong = "000000" if right != "000000" else "111111"
    answers = [whatsapp_number.confirm(db, freelancer.id, wrong) for _ in range(whatsapp_number.CODE_ATTEMPTS)]
    db.commit()
    assert answers == [whatsapp_number.CODE_WRONG] * (whatsapp_number.CODE_ATTEMPTS - 1) + [whatsapp_number.TOO_MANY]
    assert whatsapp_number.confirm(db, freelancer.id, right) == whatsapp_number.CODE_EXPIRED  # asked for a new one
    assert whatsapp_number.status(db, freelancer.id)["state"] == "none"


def test_an_expired_code_is_refused(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    now = utcnow()
    whatsapp_number.start(db, freelancer.id, PHONE, now)
    db.commit()
    whatsapp.send_due()
    later = now + timedelta(minutes=whatsapp_number.CODE_MINUTES, seconds=1)
    assert whatsapp_number.confirm(db, freelancer.id, _code(fake), later) == whatsapp_number.CODE_EXPIRED


def test_shift_notices_go_only_to_an_active_number_with_the_page(db, fake, no_sender_thread):
    active, waiting, nobody = make_freelancer(db), make_freelancer(db), make_freelancer(db)
    _active(db, fake, active)
    whatsapp_number.start(db, waiting.id, "(21) 98765-4321")
    db.commit()
    for user in (active, waiting, nobody):
        notifications.notify(db, user.id, NotificationType.SHIFT, "Seu turno começa em 2 horas")
        notifications.notify(db, user.id, NotificationType.JOB_ALERT, "Nova vaga na sua cidade")
    db.commit()
    queued = [m for m in _messages(db) if m.template == "turno_aviso"]
    assert [(m.user_id, m.params) for m in queued] == [(active.id, ["Seu turno começa em 2 horas"])]
    whatsapp.send_due()
    (sent,) = [s for s in fake.sent() if s.template == "turno_aviso"]
    assert sent.params == ["Seu turno começa em 2 horas"] and sent.to == PHONE


def test_a_rollback_queues_nothing(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _active(db, fake, freelancer)
    before = len(_messages(db))
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.rollback()
    assert len(_messages(db)) == before


def test_a_link_becomes_the_url_buttons_suffix():
    body = whatsapp.template_body(PHONE, "turno_aviso", ["Texto"], "/freelancer-dashboard?tab=shifts")
    assert body["template"]["language"] == {"code": "pt_BR"}
    assert body["template"]["components"][1] == {
        "type": "button",
        "sub_type": "url",
        "index": "0",
        "parameters": [{"type": "text", "text": "freelancer-dashboard?tab=shifts"}],
    }


def test_server_errors_are_retried_and_client_errors_shown_in_settings(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _active(db, fake, freelancer)
    fake.fail(500)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete 1")
    db.commit()
    now = utcnow()
    assert whatsapp.send_due(now).retried == 1
    assert whatsapp.send_due(now + whatsapp.RETRY_DELAYS[0]).sent == 1
    fake.fail(400)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete 2")
    db.commit()
    assert whatsapp.send_due().failed == 1
    assert whatsapp.send_due(utcnow() + timedelta(hours=2)).sent == 0  # a refusal is not retried
    error = whatsapp_number.status(db, freelancer.id)["error"]
    assert error.startswith(whatsapp_number.SEND_FAILED) and "undeliverable" in error


def test_stop_ends_messages_and_records_the_withdrawal(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _active(db, fake, freelancer)
    whatsapp_number.stop(db, freelancer.id)
    db.commit()
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    assert [m.template for m in _messages(db)] == ["turno_codigo"]
    assert whatsapp_number.status(db, freelancer.id)["state"] == "stopped"
    assert [c.granted for c in db.exec(select(ChannelConsent).order_by(ChannelConsent.id)).all()] == [True, False]


def _webhook_client() -> TestClient:
    return TestClient(
        Starlette(
            routes=[
                Route("/hook", whatsapp_webhook.verify, methods=["GET"]),
                Route("/hook", whatsapp_webhook.receive, methods=["POST"]),
            ]
        )
    )


def test_the_webhook_checks_its_signature_and_records_statuses_and_parar(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _active(db, fake, freelancer)
    wamid = fake.sent()[0].wamid
    client = _webhook_client()
    check = {"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158201444"}
    assert client.get("/hook", params=check).text == "1158201444"
    assert client.get("/hook", params={**check, "hub.verify_token": "outro"}).status_code == 403

    body, headers = signed_webhook(status_payload(wamid, "failed", 131026), APP_SECRET)
    assert (
        client.post("/hook", content=body, headers={**headers, "X-Hub-Signature-256": "sha256=00"}).status_code == 403
    )
    assert client.post("/hook", content=body, headers={"Content-Type": "application/json"}).status_code == 403
    db.expire_all()
    assert db.exec(select(WhatsAppMessage).where(WhatsAppMessage.wamid == wamid)).one().status == "enviada"
    assert client.post("/hook", content=body, headers=headers).status_code == 200
    db.expire_all()
    assert db.exec(select(WhatsAppMessage).where(WhatsAppMessage.wamid == wamid)).one().status == "falhou"
    assert whatsapp_number.status(db, freelancer.id)["error"].startswith(whatsapp_number.SEND_FAILED)
    body, headers = signed_webhook(status_payload(wamid, "delivered"), APP_SECRET)
    client.post("/hook", content=body, headers=headers)
    db.expire_all()
    assert whatsapp_number.status(db, freelancer.id)["error"] == ""

    body, headers = signed_webhook(text_payload(PHONE, " Parar "), APP_SECRET)
    assert client.post("/hook", content=body, headers=headers).status_code == 200
    db.expire_all()
    assert whatsapp_number.status(db, freelancer.id)["state"] == "stopped"


def test_without_whatsapp_configured_nothing_exists(db, monkeypatch):
    for name in ("WHATSAPP_TOKEN", "WHATSAPP_PHONE_NUMBER_ID"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    freelancer = make_freelancer(db)
    with pytest.raises(NotAllowed):
        whatsapp_number.start(db, freelancer.id, PHONE)
    assert _webhook_client().post("/hook", content=b"{}").status_code == 404
    tab = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "settings"})
    run(tab, SettingsState.load)
    assert tab.whatsapp_on is False


def test_the_export_has_no_code_and_deletion_forgets_the_number(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _active(db, fake, freelancer)
    data = data_export.export_user_data(db, freelancer.id)
    assert data["whatsapp"]["numero"] == "(11) 98765-4321" and data["whatsapp"]["confirmado_em"]
    assert "code" not in str(data["whatsapp"]) and [c["canal"] for c in data["consentimentos"]] == ["WhatsApp"]
    privacy._remove(db, db.get(User, freelancer.id))
    db.commit()
    assert db.exec(select(WhatsAppContact)).all() == [] and _messages(db) == []


def test_the_settings_handlers_act_for_the_caller_only(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    tab = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "settings"})
    run(tab, SettingsState.load)
    assert tab.whatsapp_on and tab.whatsapp["state"] == "none"
    run(tab, SettingsState.start_whatsapp, {"phone": "123"})
    assert tab.whatsapp_errors["phone"] == whatsapp.PHONE_INVALID
    assert toasts(run(tab, SettingsState.start_whatsapp, {"phone": "(11) 98765-4321"})) == [
        "success: " + whatsapp_number.CODE_SENT.format(phone="(11) 98765-4321")
    ]
    assert tab.whatsapp["state"] == "pending"
    whatsapp.send_due()
    run(tab, SettingsState.confirm_whatsapp, {"code": "999999" if _code(fake) != "999999" else "888888"})
    assert tab.whatsapp_errors["code"] == whatsapp_number.CODE_WRONG
    db.expire_all()
    assert db.get(WhatsAppContact, freelancer.id).code_attempts == 1  # the attempt was kept
    visitor = state_for(SettingsState, "", "/freelancer-dashboard", {"tab": "settings"})
    run(visitor, SettingsState.confirm_whatsapp, {"code": _code(fake)})
    run(visitor, SettingsState.stop_whatsapp)
    db.expire_all()
    assert db.get(WhatsAppContact, freelancer.id).confirmed_at is None
    assert toasts(run(tab, SettingsState.confirm_whatsapp, {"code": _code(fake)})) == [
        f"success: {whatsapp_number.CONFIRMED}"
    ]
    assert tab.whatsapp["state"] == "active"
    assert toasts(run(tab, SettingsState.stop_whatsapp)) == [f"success: {whatsapp_number.STOPPED}"]
    assert tab.whatsapp["state"] == "stopped"


# --- limits per number and in all (issue 41, point 6) ---------------------------------------------


@pytest.fixture
def security_lines(caplog, monkeypatch):
    """The security log's lines written during the test."""
    caplog.set_level(logging.INFO, logger=audit.SECURITY_LOGGER)
    monkeypatch.setattr(logging.getLogger(audit.SECURITY_LOGGER), "propagate", True)
    return lambda: [r.getMessage() for r in caplog.records if r.name == audit.SECURITY_LOGGER]


def _start(db, user: User, phone: str, now) -> str:
    """`start` as a request runs it: committed when it answers, rolled back when it refuses."""
    try:
        shown = whatsapp_number.start(db, user.id, phone, now)
    except BaseException:
        db.rollback()
        raise
    db.commit()
    return shown


def _refusal(db, user: User, phone: str, now) -> dict:
    with pytest.raises(ValidationFailed) as refused:
        _start(db, user, phone, now)
    return refused.value.field_errors


def test_five_accounts_get_three_codes_to_one_number_and_the_rest_the_per_account_answer(
    db, fake, no_sender_thread, security_lines
):
    accounts = [make_freelancer(db) for _ in range(5)]
    db.commit()
    now = utcnow()
    for account in accounts[:3]:
        _start(db, account, PHONE, now)
    per_account = _refusal(db, accounts[0], PHONE, now + timedelta(seconds=1))

    assert _refusal(db, accounts[3], "(11) 98765-4321", now + timedelta(seconds=1)) == per_account
    assert _refusal(db, accounts[4], "+55 11 98765-4321", now + timedelta(seconds=2)) == per_account
    assert per_account == {"code": whatsapp_number.WAIT}

    db.expire_all()
    assert [db.get(WhatsAppContact, a.id) for a in accounts[3:]] == [None, None]
    assert [m.user_id for m in _messages(db)] == [a.id for a in accounts[:3]]
    assert whatsapp.send_due().sent == 3
    assert [sent.to for sent in fake.sent()] == [PHONE] * 3
    lines = [line for line in security_lines() if "event=whatsapp.code_limited" in line]
    assert len(lines) == 2 and all('reason="whatsapp-code-number limit"' in line for line in lines)
    assert all("(11) 9****-4321" in line and PHONE not in line for line in lines)
    assert f"who=user:{accounts[3].id}" in lines[0]

    later = now + timedelta(hours=1, seconds=3)
    _start(db, accounts[3], PHONE, later)  # the number's hour is over
    other_number = "(21) 98765-4321"
    assert _start(db, accounts[4], other_number, now + timedelta(seconds=3)) == other_number


def test_the_hourly_cap_of_all_codes_refuses_with_the_same_answer(
    db, fake, no_sender_thread, monkeypatch, security_lines
):
    monkeypatch.setenv("WHATSAPP_CODES_HOUR", "2")
    get_settings.cache_clear()
    first, second, third = make_freelancer(db), make_freelancer(db), make_freelancer(db)
    db.commit()
    now = utcnow()
    _start(db, first, "(11) 98765-4321", now)
    _start(db, second, "(21) 98765-4321", now)

    assert _refusal(db, third, "(31) 98765-4321", now + timedelta(seconds=5)) == {"code": whatsapp_number.WAIT}

    db.expire_all()
    assert db.get(WhatsAppContact, third.id) is None and len(_messages(db)) == 2
    assert whatsapp.send_due().sent == 2
    (line,) = [line for line in security_lines() if "event=whatsapp.code_limited" in line]
    assert f"who=user:{third.id}" in line and "whatsapp-code-all limit" in line and "outcome=denied" in line
    _start(db, third, "(31) 98765-4321", now + timedelta(hours=1, seconds=1))


def test_the_settings_handler_gives_a_fourth_account_the_per_account_answer(db, fake, no_sender_thread):
    for _ in range(3):
        whatsapp_number.start(db, make_freelancer(db).id, PHONE)
        db.commit()
    fourth = make_freelancer(db)
    tab = state_for(SettingsState, cookie_for(db, fourth), "/freelancer-dashboard", {"tab": "settings"})
    run(tab, SettingsState.load)

    assert toasts(run(tab, SettingsState.start_whatsapp, {"phone": "(11) 98765-4321"})) == []

    assert tab.whatsapp_errors["code"] == whatsapp_number.WAIT
    db.expire_all()
    assert db.get(WhatsAppContact, fourth.id) is None


def test_twelve_accounts_asking_at_once_send_three_codes_to_one_number(db, fake, no_sender_thread):
    """Parallel requests (one session each, lined up on a barrier) share the number's count."""
    accounts = [make_freelancer(db) for _ in range(12)]
    db.commit()
    barrier = threading.Barrier(len(accounts))
    answers: list[object] = [None] * len(accounts)

    def ask(index: int) -> None:
        try:
            with session_scope() as session:
                session.connection()
                barrier.wait(timeout=30)
                answers[index] = whatsapp_number.start(session, accounts[index].id, PHONE)
        except Exception as exc:  # noqa: BLE001  (the test counts what each request got)
            answers[index] = exc

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(accounts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    refused = [a for a in answers if isinstance(a, ValidationFailed)]
    assert all(a.field_errors == {"code": whatsapp_number.WAIT} for a in refused)
    assert (len(answers) - len(refused), len(_messages(db))) == (3, 3)
