"""Which addresses the push sender may POST to, and where it really connects (services/reach/push_addresses.py `push_target`).

A browser chooses its push address, so the server POSTs to a URL it did not choose: every address
below is read by the rules of production and of development (where the tests' local fake push
service is allowed), and what the sender would connect to is recorded at urllib3's pool, the one
place a connection is made, not only the checker's answer.
"""

import re
from dataclasses import dataclass, field

import pytest
import urllib3
from sqlmodel import Session, select

from core import vapid
from core.settings import get_settings
from models import NotificationType, PushDevice, User
from services.accounts import sessions
from services.common.errors import ValidationFailed
from services.reach import notifications, push_addresses, push_devices, push_sending
from tests.support.factories import make_freelancer
from tests.support.fake_push import FakePushService

CHROME = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"

# Refused by both rule sets: each reads differently to some parser, names another host, or is not
# exactly https://<push service>[:443]/<path>.
HOSTILE = [
    # userinfo, and the backslash urlsplit and urllib3 disagree on (issue 41: urllib3 connected to 127.0.0.4)
    "https://127.0.0.4\\@fcm.googleapis.com/x",
    "https://10.0.0.5\\@updates.push.services.mozilla.com/x",
    "https://127.0.0.3:3296\\@fcm.googleapis.com/x",
    "https://localhost\\@fcm.googleapis.com/x",
    "https://user@fcm.googleapis.com/x",
    "https://user:pass@fcm.googleapis.com/x",
    "https://evil.example@fcm.googleapis.com/x",
    "https://fcm.googleapis.com@evil.example/x",
    "https://fcm.googleapis.com:443@127.0.0.1/x",
    "http://127.0.0.1:9000@evil.example/push/a",
    "http://evil.example\\@127.0.0.1:9000/push/a",
    # a backslash anywhere
    "https://fcm.googleapis.com\\x",
    "https://fcm.googleapis.com/\\evil.example/x",
    "https://fcm.googleapis.com/x\\",
    # percent-encoded separators in the authority
    "https://127.0.0.4%5C@fcm.googleapis.com/x",
    "https://127.0.0.4%5c@fcm.googleapis.com/x",
    "https://evil.example%2F.fcm.googleapis.com/x",
    "https://evil.example%2f.fcm.googleapis.com/x",
    "https://evil.example%40.fcm.googleapis.com/x",
    "https://evil.example%3A443.fcm.googleapis.com/x",
    "https://evil.example%23.fcm.googleapis.com/x",
    "https://evil.example%3F.fcm.googleapis.com/x",
    "https://fcm%2egoogleapis.com/x",
    "https://fcm.googleapis.com%2F/x",
    "http://127.0.0.1%3A9000/push/a",
    # fragment or query where the authority is
    "https://evil.example#@fcm.googleapis.com/x",
    "https://evil.example?@fcm.googleapis.com/x",
    "https://evil.example#.fcm.googleapis.com/x",
    "https://fcm.googleapis.com/x#frag",
    # IPv6 and IPv4 literals
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::1]\\@fcm.googleapis.com/x",
    "https://[fcm.googleapis.com]/x",
    "http://[::1]:9000/push/a",
    "https://127.0.0.1/x",
    "https://10.0.0.5/x",
    "http://10.0.0.1/push/1",
    "http://127.0.0.2:9000/push/a",
    "http://127.1:9000/push/a",
    "http://2130706433:9000/push/a",
    "http://0x7f000001:9000/push/a",
    "http://0177.0.0.1:9000/push/a",
    "https://1.2.3.4.fcm.googleapis.com.1/x",
    # ports
    "https://fcm.googleapis.com:8443/x",
    "https://fcm.googleapis.com:0443/x",
    "https://fcm.googleapis.com:/x",
    "https://fcm.googleapis.com:443:443/x",
    "https://fcm.googleapis.com:99999/x",
    "https://fcm.googleapis.com:-1/x",
    "https://fcm.googleapis.com:80/x",
    "http://127.0.0.1:0/push/a",
    "http://127.0.0.1:65536/push/a",
    "http://127.0.0.1:09000/push/a",
    "http://127.0.0.1:/push/a",
    # trailing dots and empty labels
    "https://fcm.googleapis.com./x",
    "https://web.push.apple.com./x",
    "https://a..fcm.googleapis.com/x",
    "https://.fcm.googleapis.com/x",
    "http://localhost./push/a",
    "http://127.0.0.1./push/a",
    # IDNA and look-alikes
    "https://xn--fcm-6na.googleapis.com/x",
    "https://xn--80ak6aa92e.fcm.googleapis.com/x",
    "https://ab--c.fcm.googleapis.com/x",
    "https://\uff46cm.googleapis.com/x",  # fullwidth f
    "https://fcm.googleapis\u3002com/x",  # ideographic full stop
    "https://fcm.googleapis.com\u2024evil.example/x",
    "https://f\u0441m.googleapis.com/x",  # Cyrillic es
    "https://fcm.googleapis.com/\u00e9",
    # uppercase
    "https://FCM.googleapis.com/x",
    "https://fcm.GoogleApis.com/x",
    "HTTPS://fcm.googleapis.com/x",
    "Https://fcm.googleapis.com/x",
    "HTTP://127.0.0.1:9000/push/a",
    "http://LOCALHOST:9000/push/a",
    # whitespace and control characters
    "https://fcm.googleapis.com\t/x",
    "https://127.0.0.4\t@fcm.googleapis.com/x",
    "https://fcm.googleapis.com/x\n",
    "https://fcm.googleapis.com/x\r\nHost: evil.example",
    " https://fcm.googleapis.com/x",
    "https://fcm.googleapis.com /x",
    "https://fcm.googleapis.com/x y",
    "https://fcm.googleapis.com/\x00x",
    "https://fcm.goo\x7fgleapis.com/x",
    "https://fcm.googleapis.com/x\u200b",
    # malformed percent escapes, and paths another parser reads as an authority
    "https://fcm.googleapis.com/x%zz",
    "https://fcm.googleapis.com/x%",
    "https://fcm.googleapis.com/x%4",
    "https://fcm.googleapis.com//evil.example/x",
    "https://fcm.googleapis.com",
    "https://fcm.googleapis.com?x",
    "https:/fcm.googleapis.com/x",
    "https:///fcm.googleapis.com/x",
    "//fcm.googleapis.com/x",
    "fcm.googleapis.com/x",
    # other schemes and hosts
    "http://fcm.googleapis.com/fcm/send/abc",
    "wss://fcm.googleapis.com/x",
    "file:///etc/passwd",
    "https://localhost/push",
    "https://fcm.googleapis.com.evil.example/x",
    "https://evilfcm.googleapis.com/x",
    "https://googleapis.com/x",
    "https://evil.example/push/1",
    "https://fcm.googleapis.com/" + "x" * 1000,
    "",
]

# Accepted by both rule sets: (endpoint, (scheme, host, port), the request line's target).
PUSH_SERVICES = [
    ("https://fcm.googleapis.com/fcm/send/dXlkZ:APA91bE-x_y", ("https", "fcm.googleapis.com", 443), None),
    ("https://fcm.googleapis.com:443/fcm/send/abc", ("https", "fcm.googleapis.com", 443), "/fcm/send/abc"),
    (
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
        ("https", "updates.push.services.mozilla.com", 443),
        None,
    ),
    ("https://web.push.apple.com/QO7fA-wJ", ("https", "web.push.apple.com", 443), None),
    (
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAADx2Bw%2bD9ZJdbu%2fAA%3d%3d",
        ("https", "wns2-by3p.notify.windows.com", 443),
        None,
    ),
]
# Accepted outside production only (the tests' fake push service and a developer's own).
LOCAL = [
    ("http://127.0.0.1:9000/push/a", ("http", "127.0.0.1", 9000), None),
    ("http://localhost:9000/push/a", ("http", "localhost", 9000), None),
    ("http://127.0.0.1/push/a", ("http", "127.0.0.1", 80), None),
    ("http://127.0.0.1:65535/push/a", ("http", "127.0.0.1", 65535), None),
]


@pytest.fixture(params=["production", "development"])
def rules(request, monkeypatch):
    """The rule set of production or of development (APP_ENV), with a VAPID key so push is on in both."""
    monkeypatch.setenv("APP_ENV", request.param)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", vapid.new_private_key())
    _clear_caches()
    yield request.param
    monkeypatch.undo()
    _clear_caches()


def _clear_caches() -> None:
    get_settings.cache_clear()
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()


@dataclass
class _Pool:
    """Stands in for the connection pool urllib3 would open: records the request, answers 201."""

    opened: "list[tuple]"
    requests: list[tuple[str, str]] = field(default_factory=list)
    status: int = 201

    def urlopen(self, method, url, **_kw):
        self.requests.append((method, url))
        return self


@pytest.fixture
def connections(monkeypatch):
    """Every (scheme, host, port) the sender's urllib3 pool manager was asked to connect to, and the requests."""
    opened: list[tuple] = []
    pool = _Pool(opened)

    def connection_from_host(host, port=None, scheme="http", pool_kwargs=None):
        opened.append((scheme, host, port))
        return pool

    monkeypatch.setattr(push_sending._HTTP, "connection_from_host", connection_from_host)
    return pool


class _Signer:
    def __init__(self) -> None:
        self.audiences: list[str] = []

    def authorization(self, audience: str) -> str:
        self.audiences.append(audience)
        return "vapid t=x, k=y"


@pytest.fixture(scope="module")
def keys() -> dict:
    with FakePushService() as service:
        return service.subscribe()["keys"]


def _send(endpoint: str, keys: dict) -> tuple[tuple[int, str], _Signer]:
    item = push_sending._Outgoing(
        1, 1, 1, endpoint, keys["p256dh"], keys["auth"], '{"title": "t", "body": "b", "url": "/"}'
    )
    signer = _Signer()
    return push_sending._send_one(item, signer), signer


def _expected(rules: str) -> list:
    return PUSH_SERVICES + (LOCAL if rules == "development" else [])


# --- the checker and the sender agree ---------------------------------------------------------


@pytest.mark.parametrize("endpoint", HOSTILE)
def test_a_hostile_address_is_refused_and_the_sender_connects_nowhere(rules, connections, keys, endpoint):
    answer, _signer = _send(endpoint, keys)
    assert connections.opened == [] and connections.requests == []
    assert not push_addresses.allowed_endpoint(endpoint)
    assert answer == (0, push_sending.REFUSED_ADDRESS) and push_addresses.push_target(endpoint) is None


def test_local_addresses_are_refused_in_production_rules_only(rules, connections, keys):
    for endpoint, _target, _path in LOCAL:
        assert push_addresses.allowed_endpoint(endpoint) == (rules == "development"), endpoint
    if rules == "production":
        for endpoint, _target, _path in LOCAL:
            assert _send(endpoint, keys)[0][0] == 0
        assert connections.opened == []


def test_a_push_service_address_is_connected_to_exactly_the_host_and_port_it_names(rules, connections, keys):
    """The pool is opened for the parsed host and port, the request line is the parsed path, the VAPID
    `aud` the parsed origin, and urllib3's own parser reads each address the same way."""
    for endpoint, (scheme, host, port), path in _expected(rules):
        path = path or endpoint[endpoint.index("/", len(scheme) + 3) :]
        connections.opened.clear()
        connections.requests.clear()

        answer, signer = _send(endpoint, keys)

        assert answer == (201, ""), endpoint
        assert connections.opened == [(scheme, host, port)], endpoint
        assert connections.requests == [("POST", path)], endpoint
        default = 443 if scheme == "https" else 80
        assert signer.audiences == [f"{scheme}://{host}" + ("" if port == default else f":{port}")]
        read = urllib3.util.parse_url(endpoint)  # it writes escapes in capitals, as its pool does on the wire
        wire = re.sub(r"%[0-9a-f]{2}", lambda escape: escape.group(0).upper(), path)
        assert (read.scheme, read.host, read.port or default, read.request_uri, read.auth) == (
            scheme,
            host,
            port,
            wire,
            None,
        )


# --- the subscription is refused when it is saved --------------------------------------------


def _session(db: Session, user: User) -> str:
    token, _ = sessions.create(db, user.id, remember=True)
    db.commit()
    return token


@pytest.mark.parametrize("endpoint", HOSTILE)
def test_a_hostile_address_is_refused_when_saved_with_the_portuguese_message(rules, keys, endpoint):
    with pytest.raises(ValidationFailed) as refused:
        push_devices._clean_subscription({"endpoint": endpoint, "keys": keys})
    assert refused.value.field_errors == {"push": "Não foi possível ativar as notificações neste aparelho."}


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.4\\@fcm.googleapis.com/x",
        "https://127.0.0.4%5C@fcm.googleapis.com/x",
        "https://[::1]/x",
        "https://fcm.googleapis.com./x",
        "http://127.0.0.1:9000\\@fcm.googleapis.com/push/a",
    ],
)
def test_registering_a_hostile_address_writes_nothing(db, keys, endpoint):
    freelancer = make_freelancer(db)
    token = _session(db, freelancer)
    with pytest.raises(ValidationFailed) as refused:
        push_devices.register(db, freelancer.id, token, {"endpoint": endpoint, "keys": keys}, CHROME)
    assert refused.value.field_errors == {"push": push_devices.CANNOT_ENABLE}
    db.rollback()
    assert db.exec(select(PushDevice)).all() == []


# --- an address saved before today's rules ------------------------------------------------------


def test_a_device_saved_with_a_hostile_address_is_never_connected_to_and_is_removed(db, connections, monkeypatch):
    """Old rows may hold what today's rules refuse: the sender reads the address again before each push."""
    monkeypatch.setattr(push_sending.sender, "kick", lambda: None)
    with FakePushService() as fake:
        good, bad = make_freelancer(db), make_freelancer(db)
        for user in (good, bad):
            push_devices.register(db, user.id, _session(db, user), fake.subscribe(), CHROME)
        db.commit()
        device = db.exec(select(PushDevice).where(PushDevice.user_id == bad.id)).one()
        device.endpoint = "https://127.0.0.4\\@fcm.googleapis.com/x"
        db.commit()
        for user in (good, bad):
            notifications.notify(db, user.id, NotificationType.APPLICATION_ACCEPTED, "Você foi contratado")
        db.commit()

        report = push_sending.send_due(pace=0)

    assert (report.sent, report.removed_devices) == (1, 1)
    assert [host for _scheme, host, _port in connections.opened] == ["127.0.0.1"]  # the good device's fake only
    db.expire_all()
    assert [d.user_id for d in db.exec(select(PushDevice)).all()] == [good.id]
    assert push_sending.pending_count(db) == 0
