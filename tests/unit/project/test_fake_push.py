"""The local Web Push service (tests/support/fake_push.py), driven by the real pywebpush.

What the fake accepts (RFC 8291 encryption, RFC 8292 VAPID, RFC 8030 headers) and records, what it
refuses and how, and its simulated outages: what tests of our notifications rely on.
"""

import base64
import json
import threading
import time
from collections.abc import Iterator

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid, Vapid01
from pywebpush import WebPusher, WebPushException, webpush

from tests.support.fake_push import Delivery, FakePushService, b64url

SUB = "mailto:contato@turno.com.br"
ACCEPTED = {
    "title": "Candidatura aceita",
    "body": "Você foi contratado para Garçom",
    "url": "http://localhost:3000/freelancer-dashboard",
}


def _keys() -> tuple[str, str]:
    """A VAPID key pair as our settings hold it: (private key, applicationServerKey), both base64url."""
    vapid = Vapid()
    vapid.generate_keys()
    private = b64url(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))
    public = b64url(
        vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return private, public


PRIVATE_KEY, PUBLIC_KEY = _keys()


@pytest.fixture
def push() -> Iterator[FakePushService]:
    with FakePushService() as service:
        yield service


def _send(subscription: dict, payload: dict, **kwargs) -> requests.Response:
    return webpush(
        subscription,
        data=json.dumps(payload),
        vapid_private_key=kwargs.pop("key", PRIVATE_KEY),
        vapid_claims={"sub": SUB},
        ttl=kwargs.pop("ttl", 60),
        **kwargs,
    )


def _sid(subscription: dict) -> str:
    return subscription["endpoint"].rsplit("/", 1)[1]


def test_subscription_is_browser_shaped(push: FakePushService) -> None:
    subscription = push.subscribe()
    assert subscription["endpoint"].startswith(f"{push.url}/push/")
    assert subscription["expirationTime"] is None
    keys = subscription["keys"]
    assert "=" not in keys["p256dh"] + keys["auth"]
    assert len(base64.urlsafe_b64decode(keys["p256dh"] + "=")) == 65
    assert base64.urlsafe_b64decode(keys["p256dh"] + "=")[0] == 4  # an uncompressed point
    assert len(base64.urlsafe_b64decode(keys["auth"] + "==")) == 16
    assert push.subscribe("ana")["endpoint"] == f"{push.url}/push/ana"
    with pytest.raises(ValueError, match="exists"):
        push.subscribe("ana")


def test_push_is_decrypted_and_recorded(push: FakePushService) -> None:
    subscription = push.subscribe("ana", application_server_key=PUBLIC_KEY)

    response = _send(subscription, ACCEPTED, headers={"Urgency": "high"})

    assert response.status_code == 201
    assert response.headers["Location"].startswith(f"{push.url}/message/")
    [delivery] = push.wait_for(1, sid="ana")
    assert delivery == Delivery(
        sid="ana", payload=ACCEPTED, ttl=60, urgency="high", claims=delivery.claims, vapid_key=PUBLIC_KEY
    )
    assert delivery.claims["aud"] == push.url
    assert delivery.claims["sub"] == SUB
    assert time.time() < delivery.claims["exp"] <= time.time() + 24 * 3600


def test_subscriptions_are_kept_apart(push: FakePushService) -> None:
    ana, bruno = push.subscribe("ana"), push.subscribe()

    _send(ana, {"n": 1})
    _send(bruno, {"n": 2})
    _send(ana, {"n": 3})

    assert [d.payload["n"] for d in push.deliveries("ana")] == [1, 3]
    assert [d.payload["n"] for d in push.deliveries(_sid(bruno))] == [2]
    assert [d.payload["n"] for d in push.deliveries()] == [1, 2, 3]


def test_jwt_signed_with_another_key_than_k_is_forbidden(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    other = Vapid()
    other.generate_keys()
    token = other.sign({"aud": push.url, "sub": SUB})["Authorization"].split("t=")[1].split(",")[0]
    tampered = f"vapid t={token}, k={PUBLIC_KEY}"

    response = WebPusher(subscription).send(json.dumps(ACCEPTED), headers={"Authorization": tampered}, ttl=60)

    assert response.status_code == 403
    assert "does not verify with k" in response.text
    assert push.deliveries() == []
    assert push.attempts("ana") == 1


def test_key_other_than_the_application_server_key_is_forbidden(push: FakePushService) -> None:
    subscription = push.subscribe("ana", application_server_key=PUBLIC_KEY)
    other_private, _ = _keys()

    with pytest.raises(WebPushException) as raised:
        _send(subscription, ACCEPTED, key=other_private)

    assert raised.value.response.status_code == 403
    assert push.deliveries() == []


@pytest.mark.parametrize(
    ("claims", "refused"),
    [
        ({"aud": "https://fcm.googleapis.com", "sub": SUB}, "aud"),
        ({"sub": SUB, "exp": int(time.time()) + 25 * 3600}, "exp"),
        ({"sub": "contato@turno.com.br"}, "sub"),
    ],
    ids=["other-aud", "exp-over-24h", "sub-not-mailto"],
)
def test_bad_claims_are_forbidden(push: FakePushService, claims: dict, refused: str) -> None:
    subscription = push.subscribe()
    signer = Vapid.from_string(PRIVATE_KEY)
    signer.conf["no-strict"] = True  # let py_vapid sign a `sub` it would refuse
    authorization = signer.sign({"aud": push.url, **claims})["Authorization"]

    response = WebPusher(subscription).send(json.dumps(ACCEPTED), headers={"Authorization": authorization}, ttl=60)

    assert response.status_code == 403
    assert response.text.startswith(refused)
    assert push.deliveries() == []


def test_missing_or_legacy_authorization_is_unauthorized(push: FakePushService) -> None:
    subscription = push.subscribe()
    legacy = Vapid01.from_string(PRIVATE_KEY)  # the draft "WebPush" scheme with a Crypto-Key header

    assert WebPusher(subscription).send(json.dumps(ACCEPTED), ttl=60).status_code == 401
    with pytest.raises(WebPushException) as raised:
        _send(subscription, ACCEPTED, key=legacy)
    assert raised.value.response.status_code == 401
    assert push.deliveries() == []


def test_missing_ttl_is_a_bad_request(push: FakePushService) -> None:
    subscription = push.subscribe()
    authorization = Vapid.from_string(PRIVATE_KEY).sign({"aud": push.url, "sub": SUB})["Authorization"]
    body = WebPusher(subscription).encode(json.dumps(ACCEPTED).encode())["body"]

    response = requests.post(
        subscription["endpoint"],
        data=body,
        headers={"Authorization": authorization, "Content-Encoding": "aes128gcm"},
        timeout=5,
    )

    assert response.status_code == 400
    assert "TTL" in response.text
    assert push.deliveries() == []


def test_unknown_subscription_is_not_found(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    unknown = {**subscription, "endpoint": f"{push.url}/push/nobody"}

    with pytest.raises(WebPushException) as raised:
        _send(unknown, ACCEPTED)

    assert raised.value.response.status_code == 404
    assert push.attempts("ana") == 0


def test_queued_failure_then_success(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    push.fail("ana", 500)

    with pytest.raises(WebPushException) as raised:
        _send(subscription, ACCEPTED)
    assert raised.value.response.status_code == 500
    assert push.deliveries() == []

    _send(subscription, ACCEPTED)

    assert [d.payload for d in push.deliveries("ana")] == [ACCEPTED]
    assert push.attempts("ana") == 2


def test_gone_subscription_answers_410_every_time(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    push.gone("ana")

    for _ in range(2):
        with pytest.raises(WebPushException) as raised:
            _send(subscription, ACCEPTED)
        assert raised.value.response.status_code == 410

    assert push.deliveries() == []
    assert push.attempts("ana") == 2


def test_wait_for_returns_when_pushes_arrive_from_another_thread(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    sender = threading.Thread(target=lambda: [_send(subscription, {"n": n}) for n in range(2)])

    sender.start()
    deliveries = push.wait_for(2, sid="ana", timeout=10)
    sender.join()

    assert [d.payload["n"] for d in deliveries] == [0, 1]


def test_wait_for_times_out_with_what_arrived(push: FakePushService) -> None:
    subscription = push.subscribe("ana")
    _send(subscription, {"n": 1})

    with pytest.raises(AssertionError, match=r"expected 2 push\(es\) to 'ana' within 0.2s, got 1"):
        push.wait_for(2, sid="ana", timeout=0.2)
