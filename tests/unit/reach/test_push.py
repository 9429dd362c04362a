"""Notifications on the device (services/reach/push*.py, services/reach/consents.py and their handlers), on both databases.

Pushes go to tests/support/fake_push.py, which checks VAPID and decrypts each payload with the
test subscription's keys, as a browser's push service and the browser would.
"""

import logging
import time
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from core import vapid
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, ChannelConsent, Notification, NotificationType, PushDevice, PushMessage, User
from models.user import UserPreferences
from services.accounts import sessions
from services.common.errors import NotAllowed, ValidationFailed
from services.privacy import data_export, privacy
from services.reach import chat_sending, consents, notifications, push_addresses, push_devices, push_sending
from services.timer import clock
from states.settings import SettingsState
from tests.support.factories import make_application, make_chat, make_company, make_freelancer, make_job
from tests.support.fake_push import FakePushService
from tests.support.state_harness import cookie_for, run, state_for, toasts

CHROME_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"
)


@pytest.fixture
def fake():
    with FakePushService() as service:
        yield service


@pytest.fixture
def no_sender_thread(monkeypatch):
    """Keep what a commit queues in the queue (no sender thread), so a test sends it itself."""
    monkeypatch.setattr(push_sending.sender, "kick", lambda: None)


def _signed_in(db: Session, user: User) -> str:
    """A fresh session token of `user` (committed)."""
    token, _ = sessions.create(db, user.id, remember=True)
    db.commit()
    return token


def _device(db: Session, fake: FakePushService, user: User, name: str = "") -> tuple[str, dict]:
    """`user` signs in and activates push on a new browser; returns the session token and subscription."""
    token = _signed_in(db, user)
    subscription = fake.subscribe(name)
    push_devices.register(db, user.id, token, subscription, CHROME_ANDROID)
    db.commit()
    return token, subscription


def _sid(subscription: dict) -> str:
    return subscription["endpoint"].rsplit("/", 1)[1]


def _queued(db: Session) -> list[PushMessage]:
    db.expire_all()
    return list(db.exec(select(PushMessage).order_by(PushMessage.id)).all())


# --- the device and its consent -------------------------------------------------------------


def test_a_device_is_kept_for_the_session_with_its_name_and_the_consent_time(db, fake):
    freelancer = make_freelancer(db)
    token, subscription = _device(db, fake, freelancer, "pixel")
    (device,) = db.exec(select(PushDevice)).all()
    assert (device.user_id, device.endpoint, device.name) == (
        freelancer.id,
        subscription["endpoint"],
        "Chrome no Android",
    )
    assert device.session_id == db.exec(select(AuthSession.id).where(AuthSession.user_id == freelancer.id)).one()
    (consent,) = db.exec(select(ChannelConsent)).all()
    assert (consent.channel, consent.granted, consent.detail) == ("push", True, "Chrome no Android")
    assert abs(consent.at - utcnow()) < timedelta(minutes=1)
    views = push_devices.devices(db, freelancer.id, token)
    assert [(v["name"], v["this_device"]) for v in views] == [("Chrome no Android", True)]
    assert push_devices.devices(db, freelancer.id, _signed_in(db, freelancer))[0]["this_device"] is False


@pytest.mark.parametrize(
    "change",
    [
        lambda s: "not a subscription",
        lambda s: {**s, "endpoint": "https://evil.example.com/push/1"},
        lambda s: {**s, "endpoint": "http://10.0.0.1/push/1"},
        lambda s: {**s, "endpoint": "https://fcm.googleapis.com.evil.com/x"},
        lambda s: {**s, "endpoint": "https://fcm.googleapis.com/" + "x" * 1000},
        lambda s: {**s, "keys": {"p256dh": s["keys"]["p256dh"]}},
        lambda s: {**s, "keys": {**s["keys"], "auth": "c2hvcnQ"}},
        lambda s: {**s, "keys": {**s["keys"], "p256dh": "A" * 87}},  # 65 bytes, not an uncompressed point
        lambda s: {**s, "keys": {**s["keys"], "p256dh": "@@@"}},
    ],
)
def test_a_malformed_subscription_or_a_foreign_address_is_refused_and_nothing_is_written(db, fake, change):
    freelancer = make_freelancer(db)
    token = _signed_in(db, freelancer)
    with pytest.raises(ValidationFailed) as refused:
        push_devices.register(db, freelancer.id, token, change(fake.subscribe()), CHROME_ANDROID)
    assert refused.value.field_errors == {"push": push_devices.CANNOT_ENABLE}
    db.rollback()
    assert db.exec(select(PushDevice)).all() == [] and db.exec(select(ChannelConsent)).all() == []


def test_known_push_services_are_accepted_over_https_only(monkeypatch):
    monkeypatch.setenv("APP_ENV", "production")
    get_settings.cache_clear()
    try:
        assert push_addresses.allowed_endpoint("https://fcm.googleapis.com/fcm/send/abc")
        assert push_addresses.allowed_endpoint("https://updates.push.services.mozilla.com/wpush/v2/abc")
        assert push_addresses.allowed_endpoint("https://web.push.apple.com/QO7")
        assert not push_addresses.allowed_endpoint("http://fcm.googleapis.com/fcm/send/abc")
        assert not push_addresses.allowed_endpoint("http://127.0.0.1:9000/push/a")  # local only outside production
        assert not push_addresses.allowed_endpoint("https://localhost/push")
    finally:
        get_settings.cache_clear()


def test_another_persons_session_token_cannot_register_a_device(db, fake):
    freelancer, other = make_freelancer(db), make_freelancer(db)
    with pytest.raises(NotAllowed):
        push_devices.register(db, freelancer.id, _signed_in(db, other), fake.subscribe(), CHROME_ANDROID)
    with pytest.raises(NotAllowed):
        push_devices.register(db, freelancer.id, None, fake.subscribe(), CHROME_ANDROID)


def test_the_same_browser_registered_by_another_account_moves_to_it(db, fake):
    first, second = make_freelancer(db), make_company(db)
    _token, subscription = _device(db, fake, first)
    push_devices.register(db, second.id, _signed_in(db, second), subscription, CHROME_ANDROID)
    db.commit()
    assert [(d.user_id, d.endpoint) for d in db.exec(select(PushDevice)).all()] == [
        (second.id, subscription["endpoint"])
    ]


def test_an_eleventh_device_replaces_the_oldest(db, fake):
    freelancer = make_freelancer(db)
    endpoints = [_device(db, fake, freelancer)[1]["endpoint"] for _ in range(push_devices.MAX_DEVICES + 1)]
    kept = {d.endpoint for d in db.exec(select(PushDevice)).all()}
    assert len(kept) == push_devices.MAX_DEVICES and endpoints[0] not in kept and endpoints[-1] in kept


def test_removing_a_device_records_the_withdrawal_and_a_stranger_cannot(db, fake):
    freelancer, stranger = make_freelancer(db), make_freelancer(db)
    _device(db, fake, freelancer)
    device = db.exec(select(PushDevice)).one()
    with pytest.raises(NotAllowed):
        push_devices.remove(db, stranger.id, device.id)
    with pytest.raises(NotAllowed):
        push_devices.remove(db, freelancer.id, device.id + 1000)
    push_devices.remove(db, freelancer.id, device.id)
    db.commit()
    assert db.exec(select(PushDevice)).all() == []
    assert [(c["consentimento"], c["canal"]) for c in consents.history(db, freelancer.id)] == [
        ("concedido", "Notificações no aparelho"),
        ("retirado", "Notificações no aparelho"),
    ]


def test_logging_out_or_a_password_change_elsewhere_ends_the_devices_pushes(db, fake):
    freelancer = make_freelancer(db)
    token, _ = _device(db, fake, freelancer)
    sessions.revoke(db, token)
    db.commit()
    assert db.exec(select(PushDevice)).all() == []
    _device(db, fake, freelancer)
    sessions.revoke_others(db, freelancer.id, _signed_in(db, freelancer))
    db.commit()
    assert db.exec(select(PushDevice)).all() == []


def test_the_export_lists_devices_and_consents_and_deleting_the_account_removes_them(db, fake, monkeypatch):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    db.commit()
    data = data_export.export_user_data(db, freelancer.id)
    (device,) = data["aparelhos_com_notificacoes"]
    assert device["aparelho"] == "Chrome no Android" and device["endereco"].startswith(fake.url)
    assert "p256dh" not in str(data) and "auth" not in device
    assert [c["consentimento"] for c in data["consentimentos"]] == ["concedido"]
    privacy._remove(db, db.get(User, freelancer.id))
    db.commit()
    assert db.exec(select(PushDevice)).all() == [] and db.exec(select(ChannelConsent)).all() == []


# --- what is queued ---------------------------------------------------------------------------


def test_a_notice_queues_one_push_per_live_device_with_its_title_text_and_page(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer, "phone")
    _device(db, fake, freelancer, "laptop")
    notifications.notify(db, freelancer.id, NotificationType.APPLICATION_ACCEPTED, "Você foi contratado para Garçom")
    db.commit()
    queued = _queued(db)
    assert [(m.title, m.body, m.url) for m in queued] == [
        ("Candidatura aceita", "Você foi contratado para Garçom", get_settings().site_url)
    ] * 2


def test_many_notices_write_what_as_many_single_notices_write_in_a_few_statements(db, fake, no_sender_thread):
    """notify_many (the timer's reminder chunks): the same rows as one notify each, not a statement per notice."""
    from core import signals
    from models import OutboxEmail
    from tests.support.sql_log import sent_statements

    two, one, quiet, idle, gone = (
        make_freelancer(db, nome=name) for name in ("Dois", "Um", "Sem email", "Inativo", "Ex")
    )
    for user, name in ((two, "phone"), (two, "laptop"), (one, "tablet"), (idle, "old_phone")):
        _device(db, fake, user, name)
    db.get(UserPreferences, quiet.id).email_notifications = False
    stale = db.exec(select(AuthSession).where(AuthSession.user_id == idle.id)).one()
    stale.last_seen_at = utcnow() - sessions.idle_limit(True) - timedelta(minutes=1)
    gone.deleted_at = utcnow()
    db.commit()
    notices = [
        notifications.Notice(
            user.id, NotificationType.SHIFT, f"Lembrete {i}", notifications.NoticeTarget.FREELANCER_SHIFTS
        )
        for i, user in enumerate((two, one, quiet, idle, gone, two))
    ]

    def written() -> tuple:
        rows = (
            sorted((n.user_id, n.message, n.target) for n in db.exec(select(Notification)).all()),
            sorted((e.to_email, e.subject, e.body) for e in db.exec(select(OutboxEmail)).all()),
            sorted((m.device_id, m.title, m.body, m.url) for m in _queued(db)),
            signals.pending(db),
        )
        db.rollback()
        return rows

    for notice in notices:
        notifications.notify(db, *notice)
    one_by_one = written()
    with sent_statements(db.get_bind()) as sent:
        notifications.notify_many(db, notices)
    together = written()

    assert together == one_by_one
    assert (
        len(together[0]) == 5 and len(together[1]) == 4 and len(together[2]) == 5
    )  # 2 devices x 2 + 1; the removed account: nothing
    assert [s.split()[0] for s in sent] == ["SELECT", "INSERT", "INSERT", "SELECT", "INSERT"]


def test_a_rollback_queues_nothing(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    notifications.notify(db, freelancer.id, NotificationType.MESSAGE, "Nova mensagem de Hotel")
    db.rollback()
    assert _queued(db) == []


@pytest.mark.parametrize(
    ("kind", "settings"),
    [
        (NotificationType.MESSAGE, {"push_notifications": False}),
        (NotificationType.JOB_ALERT, {"new_job_alerts": False}),
        (NotificationType.APPLICATION_ACCEPTED, {"application_updates": False}),
        (NotificationType.JOB_CREATED, {}),  # a notice the person caused themselves
    ],
)
def test_each_kind_follows_the_notification_settings(db, fake, no_sender_thread, kind, settings):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    prefs = db.get(UserPreferences, freelancer.id)
    for name, value in settings.items():
        setattr(prefs, name, value)
    db.add(prefs)
    notifications.notify(db, freelancer.id, kind, "Texto")
    db.commit()
    assert _queued(db) == []
    assert len(db.exec(select(Notification)).all()) == 1  # the bell still has it


def test_a_message_to_someone_looking_at_the_conversation_is_not_pushed(db, fake, no_sender_thread):
    company, freelancer = make_company(db), make_freelancer(db)
    application = make_application(db, make_job(db, company, "Garçom"), freelancer, status="accepted")
    chat = make_chat(db, application, company, freelancer)
    db.commit()
    _device(db, fake, freelancer)
    chat_sending.send(db, company.id, chat.id, "Olá, tudo certo para sábado?", recipient_viewing=True)
    db.commit()
    assert _queued(db) == []
    chat_sending.send(db, company.id, chat.id, "Me confirma o horário?", recipient_viewing=False)
    db.commit()
    (queued,) = _queued(db)
    assert queued.title == "Nova mensagem" and queued.url.endswith(f"/chats/{chat.id}")


def test_an_idle_session_gets_no_push(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    session_row = db.exec(select(AuthSession)).one()
    session_row.last_seen_at = utcnow() - sessions.idle_limit(True) - timedelta(minutes=1)
    db.add(session_row)
    notifications.notify(db, freelancer.id, NotificationType.APPLICATION_ACCEPTED, "Contratado")
    db.commit()
    assert _queued(db) == []


# --- sending ----------------------------------------------------------------------------------


def test_the_sender_delivers_what_the_browser_decrypts(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    notifications.notify(db, freelancer.id, NotificationType.APPLICATION_ACCEPTED, "Você foi contratado para Garçom")
    db.commit()
    report = push_sending.send_due()
    assert (report.sent, report.retried, report.dropped) == (1, 0, 0)
    (delivery,) = fake.deliveries(_sid(subscription))
    assert delivery.payload == {
        "title": "Candidatura aceita",
        "body": "Você foi contratado para Garçom",
        "url": get_settings().site_url,
    }
    assert delivery.ttl == push_sending.TTL_SECONDS and delivery.vapid_key == vapid.public_key()
    assert delivery.claims["sub"] == vapid.subject() and delivery.claims["aud"] == fake.url
    assert _queued(db) == []
    assert db.exec(select(PushDevice)).one().last_sent_at is not None


def test_one_vapid_signature_serves_every_push_to_a_push_service():
    signed = []

    class Key:
        def sign(self, claims):
            signed.append(claims)
            return {"Authorization": f"vapid t=token{len(signed)}, k=key"}

    signer = push_sending._Signer(Key(), "mailto:contato@turno.com.br")
    first = signer.authorization(push_addresses.push_target("https://fcm.googleapis.com/fcm/send/aaa").origin)
    again = signer.authorization(push_addresses.push_target("https://fcm.googleapis.com/fcm/send/bbb").origin)
    other = signer.authorization(
        push_addresses.push_target("https://updates.push.services.mozilla.com/wpush/v2/ccc").origin
    )

    assert first == again == "vapid t=token1, k=key" and other == "vapid t=token2, k=key"
    assert [claims["aud"] for claims in signed] == [
        "https://fcm.googleapis.com",
        "https://updates.push.services.mozilla.com",
    ]
    assert {claims["sub"] for claims in signed} == {"mailto:contato@turno.com.br"}
    assert all(0 < claims["exp"] - time.time() <= 24 * 3600 for claims in signed)


def test_a_round_to_one_push_service_signs_once_and_every_push_verifies(db, fake, no_sender_thread, monkeypatch):
    signatures = []
    sign = push_sending.Vapid.sign
    monkeypatch.setattr(
        push_sending.Vapid, "sign", lambda key, claims: signatures.append(claims["aud"]) or sign(key, claims)
    )
    freelancers = [make_freelancer(db) for _ in range(3)]
    devices = [_device(db, fake, freelancer)[1] for freelancer in freelancers]
    for freelancer in freelancers:
        notifications.notify(db, freelancer.id, NotificationType.APPLICATION_ACCEPTED, "Você foi contratado")
    db.commit()

    assert push_sending.send_due().sent == 3
    assert signatures == [fake.url]
    assert all(len(fake.deliveries(_sid(subscription))) == 1 for subscription in devices)


def test_a_burst_goes_a_round_at_a_time_with_a_rest_after_each_round(db, fake, no_sender_thread):
    """Five pushes in rounds of two: a rest after each of the three rounds (pace x its CPU), the short one too.

    A burst's pushes arrive a chunk of reminders at a time, in rounds smaller than a full one: resting
    only after full rounds let them go unpaced (docs/performance.md).
    """
    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    for n in range(5):
        notifications.notify(db, freelancer.id, NotificationType.SHIFT, f"Lembrete {n}")
    db.commit()
    rests: list[float] = []

    report = push_sending.send_due(batch=2, pace=3.0, sleep=rests.append)

    assert report.sent == 5
    assert len(fake.deliveries(_sid(subscription))) == 5
    assert len(rests) == 3 and all(rest > 0 for rest in rests)
    assert push_sending.send_due(batch=2, pace=0.0, sleep=rests.append).sent == 0 and len(rests) == 3


def test_a_rest_follows_the_cpu_a_round_took_not_its_wait_for_the_push_service(db, fake, no_sender_thread, monkeypatch):
    """A push service that takes 0.3 s to answer costs no CPU here: the rest after the round stays short."""
    monkeypatch.setattr(push_sending, "_send_one", lambda item, signer: time.sleep(0.3) or (201, ""))
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    for n in range(4):
        notifications.notify(db, freelancer.id, NotificationType.SHIFT, f"Lembrete {n}")
    db.commit()
    rests: list[float] = []

    assert push_sending.send_due(batch=2, pace=1.0, sleep=rests.append).sent == 4

    assert len(rests) == 2 and all(0 < rest < 0.3 for rest in rests)


def test_after_a_commit_the_sender_thread_delivers_without_the_caller_waiting(db, fake):
    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Seu turno começa em 2 horas")
    db.commit()
    (delivery,) = fake.wait_for(1, _sid(subscription))
    assert delivery.payload["body"] == "Seu turno começa em 2 horas"
    assert push_sending.sender.wait_idle()


def test_a_gone_subscription_removes_the_device(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    fake.gone(_sid(subscription))
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    report = push_sending.send_due()
    assert report.removed_devices == 1
    assert db.exec(select(PushDevice)).all() == [] and _queued(db) == []


def _reminder_to_failing_device(db, fake, *statuses: int) -> str:
    """A freelancer's device whose next pushes the fake answers with `statuses`, and a reminder queued to it; its sid."""
    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    sid = _sid(subscription)
    fake.fail(sid, *statuses)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    return sid


def test_failures_are_retried_with_backoff_then_dropped(db, fake, no_sender_thread):
    sid = _reminder_to_failing_device(db, fake, *[500] * (len(push_sending.RETRY_DELAYS) + 1))
    now = utcnow()
    for attempt, delay in enumerate(push_sending.RETRY_DELAYS, start=1):
        assert push_sending.send_due(now).retried == 1
        (row,) = _queued(db)
        assert row.attempts == attempt and abs(row.due_at - (now + delay)) < timedelta(seconds=1)
        assert push_sending.send_due(now).sent == 0  # not due before its time
        now = row.due_at
    assert push_sending.send_due(now).dropped == 1
    assert _queued(db) == [] and fake.attempts(sid) == len(push_sending.RETRY_DELAYS) + 1
    assert db.exec(select(PushDevice)).one()  # a server error is not a gone subscription


def test_a_failure_then_success_delivers_once(db, fake, no_sender_thread):
    _reminder_to_failing_device(db, fake, 503)
    now = utcnow()
    assert push_sending.send_due(now).retried == 1
    assert push_sending.send_due(now + push_sending.RETRY_DELAYS[0]).sent == 1
    assert len(fake.deliveries()) == 1


def _old_device(db, fake, endpoint: str) -> int:
    """A freelancer's device saved before today's address rules, now at `endpoint`, a reminder queued; its id."""
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    device = db.exec(select(PushDevice).where(PushDevice.user_id == freelancer.id)).one()
    device.endpoint = endpoint
    db.commit()
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    return device.id


def _good_devices(db, fake, count: int) -> list[str]:
    """`count` freelancers' devices at the fake, each with a reminder queued; their sids."""
    sids = []
    for _ in range(count):
        freelancer = make_freelancer(db)
        sids.append(_sid(_device(db, fake, freelancer)[1]))
        notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    return sids


def test_one_bad_address_among_good_ones_fails_alone_and_the_good_ones_are_sent_once(
    db, fake, no_sender_thread, caplog
):
    """Issue 41: this address made py_vapid raise out of the round before `_settle`, so every push of
    the round was sent again on each call and stayed queued."""
    good = _good_devices(db, fake, 2)
    bad = _old_device(db, fake, "https://127.0.0.3:3296\\@fcm.googleapis.com/x")
    good += _good_devices(db, fake, 2)
    now = utcnow()

    with caplog.at_level(logging.WARNING, logger="services.reach.push_sending"):
        report = push_sending.send_due(now, pace=0)
        again = push_sending.send_due(now + timedelta(hours=2), pace=0)

    assert (report.sent, report.removed_devices, again.sent) == (4, 1, 0)
    assert [len(fake.deliveries(sid)) for sid in good] == [1, 1, 1, 1]
    assert _queued(db) == [] and db.get(PushDevice, bad) is None
    assert f"push: device {bad} removed, its address is not a push service's; its pushes dropped" in caplog.messages


def test_a_push_that_fails_in_any_way_is_retried_alone_then_dropped_after_the_bound(
    db, fake, no_sender_thread, monkeypatch, caplog
):
    good = _good_devices(db, fake, 2)
    bad_user = make_freelancer(db)
    _device(db, fake, bad_user, "broken")
    notifications.notify(db, bad_user.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    bad_device = db.exec(select(PushDevice.id).where(PushDevice.user_id == bad_user.id)).one()
    (bad_row,) = [row.id for row in _queued(db) if row.device_id == bad_device]
    encode = push_sending.WebPusher.encode

    def encode_or_fail(pusher, *args, **kwargs):
        if pusher.subscription_info["endpoint"].endswith("/push/broken"):
            raise RuntimeError("a library bug on one subscription")
        return encode(pusher, *args, **kwargs)

    monkeypatch.setattr(push_sending.WebPusher, "encode", encode_or_fail)
    now = utcnow()
    with caplog.at_level(logging.WARNING, logger="services.reach.push_sending"):
        first = push_sending.send_due(now, pace=0)
        assert (first.sent, first.retried) == (2, 1)
        for delay in push_sending.RETRY_DELAYS[:-1]:
            now += delay
            assert push_sending.send_due(now, pace=0).retried == 1
        last = push_sending.send_due(now + push_sending.RETRY_DELAYS[-1], pace=0)

    assert (last.sent, last.retried, last.dropped) == (0, 0, 1)
    assert [len(fake.deliveries(sid)) for sid in good] == [1, 1] and fake.attempts("broken") == 0
    assert _queued(db) == []
    attempts = len(push_sending.RETRY_DELAYS) + 1
    dropped = [m for m in caplog.messages if "dropped after" in m]
    assert dropped == [f"push {bad_row} dropped after {attempts} attempts (last status or error RuntimeError)"]
    assert "push: 1 of 3 not accepted, by status or error: {'RuntimeError': 1}" in caplog.messages


def test_each_round_with_failures_logs_one_line_naming_the_statuses_and_errors(db, fake, no_sender_thread, caplog):
    _reminder_to_failing_device(db, fake, 500)
    now = utcnow()
    with caplog.at_level(logging.WARNING, logger="services.reach.push_sending"):
        assert push_sending.send_due(now).retried == 1
        fake.close()  # the push service stops answering
        assert push_sending.send_due(now + push_sending.RETRY_DELAYS[0]).retried == 1
    assert [r.getMessage() for r in caplog.records] == [
        "push: 1 of 1 not accepted, by status or error: {500: 1}",
        "push: 1 of 1 not accepted, by status or error: {'ConnectionError': 1}",
    ]
    (row,) = _queued(db)
    assert row.attempts == 2


def test_the_sender_keeps_its_connection_to_a_push_service_open(db, fake, no_sender_thread):
    """Three rounds of one push each go over one connection (to a real service: one TLS handshake).

    A connection per push cost the sender 60 % more CPU (docs/performance.md).
    """
    for _ in range(3):
        freelancer = make_freelancer(db)
        _device(db, fake, freelancer)
        notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()

    assert push_sending.send_due(utcnow(), batch=1, pace=0).sent == 3
    assert fake.connections == 1


def test_a_claimed_row_is_not_sent_twice(db, fake, no_sender_thread):
    freelancer = make_freelancer(db)
    _device(db, fake, freelancer)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Lembrete")
    db.commit()
    now = utcnow()
    claimed, _ = push_sending._claim(now, 10, push_sending.session_scope)
    assert len(claimed) == 1
    assert push_sending._claim(now, 10, push_sending.session_scope) == ([], 0)  # a second sender finds nothing due
    assert push_sending._claim(now + push_sending.LEASE, 10, push_sending.session_scope)[
        0
    ]  # a dead sender's rows come back


def test_without_a_key_in_production_push_is_off(db, monkeypatch):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    get_settings.cache_clear()
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    try:
        assert vapid.private_key() is None and vapid.public_key() == ""
        assert push_sending.send_due().sent == 0
    finally:
        get_settings.cache_clear()
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()


def test_a_configured_key_is_used_and_its_public_half_derived(monkeypatch):
    private = vapid.new_private_key()
    monkeypatch.setenv("VAPID_PRIVATE_KEY", private)
    get_settings.cache_clear()
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    try:
        assert vapid.private_key() == private
        assert vapid.public_key() == vapid.public_key_of(private) and len(vapid.b64url_decode(vapid.public_key())) == 65
    finally:
        get_settings.cache_clear()
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()


def test_device_names():
    assert push_devices.device_name(CHROME_ANDROID) == "Chrome no Android"
    assert (
        push_devices.device_name(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            "Version/18.0 Mobile/15E148 Safari/604.1"
        )
        == "Safari no iPhone"
    )
    assert (
        push_devices.device_name(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36 Edg/156.0"
        )
        == "Edge no Windows"
    )
    assert (
        push_devices.device_name("Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0")
        == "Firefox no Linux"
    )
    assert push_devices.device_name("") == "Navegador"


# --- handlers ---------------------------------------------------------------------------------


def test_the_settings_handlers_register_list_and_remove_for_the_caller_only(db, fake, no_sender_thread):
    freelancer, stranger = make_freelancer(db), make_freelancer(db)
    cookie = cookie_for(db, freelancer)
    tab = state_for(SettingsState, cookie, "/freelancer-dashboard", {"tab": "settings"})
    run(tab, SettingsState.load)
    assert tab.push_key == vapid.public_key() and tab.push_devices == [] and not tab.push_here
    assert run(tab, SettingsState.enable_push)  # the browser is asked (a script with a callback)
    assert tab.enabling_push
    assert toasts(run(tab, SettingsState.save_push, {"error": "denied"})) == [
        f"error: Notificações no aparelho | {push_devices.DENIED}"
    ]
    assert toasts(run(tab, SettingsState.save_push, {"subscription": fake.subscribe()})) == [
        f"success: {push_devices.ENABLED}"
    ]
    (device,) = tab.push_devices
    assert device["this_device"] and tab.push_here and not tab.enabling_push
    as_stranger = state_for(SettingsState, cookie_for(db, stranger), "/freelancer-dashboard", {"tab": "settings"})
    assert toasts(run(as_stranger, SettingsState.remove_device, device["id"])) == [
        f"error: Erro ao salvar configurações | {push_devices.DEVICE_MISSING}"
    ]
    visitor = state_for(SettingsState, "", "/freelancer-dashboard", {"tab": "settings"})
    run(visitor, SettingsState.save_push, {"subscription": fake.subscribe()})
    run(visitor, SettingsState.remove_device, device["id"])
    db.expire_all()
    assert [d.user_id for d in db.exec(select(PushDevice)).all()] == [freelancer.id]
    assert toasts(run(tab, SettingsState.remove_device, device["id"])) == [f"success: {push_devices.REMOVED}"]
    assert tab.push_devices == [] and not tab.push_here
    db.expire_all()
    assert db.exec(select(PushDevice)).all() == []


def test_the_timer_tick_sends_the_pushes_due_again(db, fake, no_sender_thread):

    freelancer = make_freelancer(db)
    _token, subscription = _device(db, fake, freelancer)
    fake.fail(_sid(subscription), 502)
    notifications.notify(db, freelancer.id, NotificationType.SHIFT, "Seu turno começa amanhã")
    db.commit()
    now = utcnow()
    clock.tick(now)
    assert fake.deliveries() == [] and _queued(db)[0].attempts == 1  # refused once, waiting its retry
    clock.tick(now + push_sending.RETRY_DELAYS[0])
    assert [d.payload["body"] for d in fake.deliveries()] == ["Seu turno começa amanhã"]
    assert _queued(db) == []


@pytest.mark.parametrize("failing", ["drain", "settle_due", "trust", "push"])
def test_a_tick_step_that_raises_is_logged_and_the_others_still_run(db, monkeypatch, caplog, failing):
    """Issue 41: a push round that raised ended the tick before the WhatsApp retries."""
    from services.money import settlement
    from services.reach import whatsapp
    from services.shifts import shift_timer
    from services.timer import trust_steps

    ran: list[str] = []

    def step(name: str, value: object):
        def run(*_args, **_kwargs):
            ran.append(name)
            if name == failing:
                raise RuntimeError(f"{name} broke")
            return value

        return run

    monkeypatch.setattr(shift_timer, "_drain", step("drain", 0))
    monkeypatch.setattr(settlement, "settle_due", step("settle_due", 0))
    monkeypatch.setattr(trust_steps, "run", step("trust", None))
    monkeypatch.setattr(push_sending, "send_due", step("push", push_sending.SendReport()))
    monkeypatch.setattr(whatsapp, "send_due", step("whatsapp", None))

    with caplog.at_level(logging.ERROR, logger="services.timer.clock"):
        report = clock.tick(utcnow())

    assert ran == ["drain", "drain", "settle_due", "trust", "push", "whatsapp"]
    assert report == clock.TickReport(0, 0, 0)
    assert len(caplog.records) == (2 if failing == "drain" else 1)
    assert all("failed; the tick's other steps go on" in r.getMessage() for r in caplog.records)
