"""A local stand-in for a browser's Web Push service, so tests can see what our server pushes.

A browser that subscribes to push gets an endpoint at its vendor's push service (FCM, Mozilla
autopush, ...) and two keys; our server encrypts each notification for those keys and POSTs it to the
endpoint. Those services are not reachable from the test machines, so `FakePushService` plays both
the browser (`subscribe` makes the subscription with a fresh key pair) and the push service (an HTTP
server on 127.0.0.1), and it checks each push the way a real service would before accepting it:

- RFC 8030 (Generic Event Delivery Using HTTP Push): ``POST /push/<sid>`` with a ``TTL`` header
  (``Urgency`` optional); 201 Created with a ``Location`` on success, 404 for an unknown
  subscription, 410 Gone for an expired one;
- RFC 8291 (Message Encryption for Web Push): the body is ``Content-Encoding: aes128gcm`` (RFC 8188)
  encrypted for the subscription's P-256 key and auth secret, at most 4096 bytes; the fake decrypts
  it with the subscription's private key, as the browser would, and records the JSON payload;
- RFC 8292 (VAPID): ``Authorization: vapid t=<JWT>, k=<public key>``; the ES256 JWT must verify
  with ``k``, its ``aud`` must be this service's origin, its ``exp`` in the next 24 hours and its
  ``sub`` a ``mailto:`` or ``https:`` contact. Missing authorization answers 401, invalid 403.

A push that fails a check answers 400/401/403/413 and is not recorded. Outages are simulated after
the checks (so a malformed push is never mistaken for one): `fail` queues statuses for the next
pushes to a subscription and `gone` expires it. Every push to a known subscription counts in
`attempts`; only accepted ones are in `deliveries` (`wait_for` waits for them).
"""

import base64
import json
import os
import re
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

import http_ece
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.support.local_http import LocalServer, serve, shut

MAX_BODY = 4096  # RFC 8291 section 4: push services must accept (at least) 4096-byte bodies
MAX_EXP_SECONDS = 24 * 60 * 60  # RFC 8292 section 2: `exp` no more than 24 hours ahead
URGENCIES = ("", "very-low", "low", "normal", "high")  # RFC 8030 section 5.3
_SID = re.compile(r"[A-Za-z0-9_-]+")


def b64url(data: bytes) -> str:
    """Base64url without padding, the encoding of every key in Web Push."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """Decode base64url with or without padding.

    Raises:
        ValueError: `text` is not base64url.
    """
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Delivery:
    """One push the fake service accepted.

    Attributes:
        sid: The subscription it was sent to (the last part of the endpoint).
        payload: The decrypted body, parsed as JSON.
        ttl: The ``TTL`` header, in seconds.
        urgency: The ``Urgency`` header, or "" when absent.
        claims: The claims of the VAPID JWT (``aud``, ``exp``, ``sub``).
        vapid_key: The ``k`` of the Authorization header: the sender's public key, base64url.
        arrived: When it was accepted (``time.time()``).
    """

    sid: str
    payload: dict
    ttl: int
    urgency: str
    claims: dict
    vapid_key: str
    arrived: float = field(default_factory=time.time, compare=False)


@dataclass
class _Subscription:
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    application_server_key: str | None


class _Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class FakePushService:
    """A Web Push service on 127.0.0.1 (random port), serving in a daemon thread from construction.

    Example:
        >>> with FakePushService() as push:  # doctest: +SKIP
        ...     subscription = push.subscribe("ana")
        ...     send_our_notification(subscription)
        ...     [delivery] = push.wait_for(1, sid="ana")
    """

    def __init__(self, port: int = 0) -> None:
        self._subscriptions: dict[str, _Subscription] = {}
        self._deliveries: list[Delivery] = []
        self._attempts: dict[str, int] = {}
        self._failures: dict[str, deque[int]] = {}
        self._gone: set[str] = set()
        self._changed = threading.Condition()  # guards everything above
        self._server: LocalServer | None = serve(_Handler, self, port)
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def __enter__(self) -> "FakePushService":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (a second call does nothing)."""
        shut(self._server)
        self._server = None

    @property
    def connections(self) -> int:
        """The TCP connections senders have opened to this service so far."""
        return self._server.connections if self._server else 0

    def subscribe(self, name: str = "", application_server_key: str | None = None) -> dict:
        """Subscribe as a browser's ``pushManager.subscribe()`` does, with a fresh key pair.

        Args:
            name: The subscription id (letters, digits, '-' and '_'); a random one when empty.
            application_server_key: The VAPID public key (base64url) the page subscribed with; when
                given, pushes signed with another key are refused with 403, as real services do.

        Returns:
            The subscription as ``PushSubscription.toJSON()`` gives it: endpoint, expirationTime and
            keys (``p256dh``: the uncompressed P-256 public point, ``auth``: 16 random bytes).

        Raises:
            ValueError: `name` is taken or not usable in a URL.
        """
        sid = name or secrets.token_urlsafe(12)
        if not _SID.fullmatch(sid):
            raise ValueError(f"subscription name {sid!r} must be letters, digits, '-' or '_'")
        private_key = ec.generate_private_key(ec.SECP256R1())
        auth_secret = secrets.token_bytes(16)
        with self._changed:
            if sid in self._subscriptions:
                raise ValueError(f"subscription {sid!r} exists already")
            self._subscriptions[sid] = _Subscription(private_key, auth_secret, application_server_key)
            self._attempts[sid] = 0
        point = private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.url}/push/{sid}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(auth_secret)},
        }

    def fail(self, sid: str, *statuses: int) -> None:
        """Answer the next valid pushes to `sid` with these statuses, one each, then accept again.

        Example: ``fail(sid, 500, 500)`` fails two pushes; ``fail(sid, 429)`` one.
        """
        with self._changed:
            self._failures.setdefault(sid, deque()).extend(statuses)

    def gone(self, sid: str) -> None:
        """Expire the subscription: every later push to it answers 410 Gone."""
        with self._changed:
            self._gone.add(sid)

    def attempts(self, sid: str) -> int:
        """How many pushes were POSTed to `sid`, accepted or not."""
        with self._changed:
            return self._attempts.get(sid, 0)

    def deliveries(self, sid: str | None = None) -> list[Delivery]:
        """The accepted pushes, in arrival order: all of them or those to `sid`."""
        with self._changed:
            return [d for d in self._deliveries if sid is None or d.sid == sid]

    def wait_for(self, count: int, sid: str | None = None, timeout: float = 10.0) -> list[Delivery]:
        """Wait until at least `count` pushes were accepted (to `sid`, when given).

        Returns:
            All the accepted pushes (to `sid`), at least `count` of them.

        Raises:
            AssertionError: Fewer than `count` arrived within `timeout` seconds.
        """
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.deliveries(sid)) >= count, timeout):
                where = f" to {sid!r}" if sid else ""
                got = [d.payload for d in self.deliveries(sid)]
                raise AssertionError(f"expected {count} push(es){where} within {timeout}s, got {len(got)}: {got}")
            return self.deliveries(sid)

    def _receive(self, sid: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """Check and record one push; returns the status and a reason for the answer."""
        with self._changed:
            subscription = self._subscriptions.get(sid)
            if subscription is None:
                return 404, "no such subscription"
            self._attempts[sid] += 1
        try:
            delivery = self._check(sid, subscription, headers, body)
        except _Refused as refused:
            return refused.status, refused.reason
        with self._changed:
            if sid in self._gone:
                return 410, "subscription expired"
            queued = self._failures.get(sid)
            if queued:
                return queued.popleft(), "simulated failure"
            self._deliveries.append(delivery)
            self._changed.notify_all()
        return 201, "created"

    def _check(self, sid: str, subscription: _Subscription, headers: dict[str, str], body: bytes) -> Delivery:
        ttl = headers.get("ttl", "")
        if not ttl.isdigit():
            raise _Refused(400, "a TTL header (seconds) is required")
        urgency = headers.get("urgency", "")
        if urgency not in URGENCIES:
            raise _Refused(400, f"bad Urgency {urgency!r}")
        if headers.get("content-encoding", "").lower() != "aes128gcm":
            raise _Refused(400, "Content-Encoding must be aes128gcm")
        claims, key = self._check_vapid(headers.get("authorization", ""))
        if subscription.application_server_key not in (None, key):
            raise _Refused(403, "k is not the applicationServerKey of this subscription")
        if len(body) > MAX_BODY:
            raise _Refused(413, f"body of {len(body)} bytes is over {MAX_BODY}")
        try:
            plain = http_ece.decrypt(
                body, private_key=subscription.private_key, auth_secret=subscription.auth_secret, version="aes128gcm"
            )
            payload = json.loads(plain.decode("utf-8"))
        except (http_ece.ECEException, InvalidTag, ValueError) as exc:
            raise _Refused(400, f"cannot decrypt the body into JSON: {exc!r}") from exc
        if not isinstance(payload, dict):
            raise _Refused(400, "the payload is not a JSON object")
        return Delivery(sid, payload, int(ttl), urgency, claims, key)

    def _check_vapid(self, authorization: str) -> tuple[dict, str]:
        """Verify an RFC 8292 Authorization header; returns the JWT's claims and the key k."""
        scheme, _, rest = authorization.partition(" ")
        params = dict(part.strip().partition("=")[::2] for part in rest.split(","))
        token, key = params.get("t", ""), params.get("k", "")
        if scheme.lower() != "vapid" or not token or not key:
            raise _Refused(401, "Authorization: vapid t=<JWT>, k=<key> is required")
        try:
            header, claims_part, signature_part = token.split(".")
            header_json = json.loads(unb64url(header))
            claims = json.loads(unb64url(claims_part))
            signature = unb64url(signature_part)
            public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            if not isinstance(header_json, dict) or header_json.get("alg") != "ES256" or len(signature) != 64:
                raise ValueError("not an ES256 JWT")
            if not isinstance(claims, dict):
                raise ValueError("the claims are not a JSON object")
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            public_key.verify(der, f"{header}.{claims_part}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        except (InvalidSignature, ValueError) as exc:
            raise _Refused(403, f"the VAPID JWT does not verify with k: {exc!r}") from exc
        now = time.time()
        if claims.get("aud") != self.url:
            raise _Refused(403, f"aud {claims.get('aud')!r} is not {self.url}")
        exp = claims.get("exp")
        if not isinstance(exp, int | float) or not now < exp <= now + MAX_EXP_SECONDS:
            raise _Refused(403, f"exp {exp!r} is not within the next 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise _Refused(403, f"sub {claims.get('sub')!r} is not a mailto: or https: contact")
        return claims, key


class _Handler(BaseHTTPRequestHandler):
    # Keep-alive, as FCM's and Mozilla's push services answer: over HTTP/1.0 every push opened and
    # closed a connection, a third of the sender's CPU that no real service makes it spend.
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the answer's headers and body leave at once (no 40 ms delayed ACK)
    server: LocalServer

    @property
    def push(self) -> FakePushService:
        return self.server.owner

    def log_message(self, *_args) -> None:
        return

    def do_GET(self) -> None:
        """``GET /_stats``: how many pushes were accepted and when the first and last arrived (benchmarks)."""
        if urlsplit(self.path).path != "/_stats":
            self.send_error(404)
            return
        arrivals = [delivery.arrived for delivery in self.push.deliveries()]
        text = json.dumps(
            {"deliveries": len(arrivals), "first": min(arrivals, default=0), "last": max(arrivals, default=0)}
        )
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text.encode())

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        prefix, _, sid = urlsplit(self.path).path.rpartition("/")
        if prefix != "/push":
            status, reason = 404, "not a push endpoint"
        else:
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, reason = self.push._receive(sid, headers, body)
        text = reason.encode()
        self.send_response(status)
        if status == 201:
            self.send_header("Location", f"{self.push.url}/message/{secrets.token_urlsafe(12)}")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)


def idle() -> None:
    """Run this process (and the threads it starts later) only on cores nothing else wants.

    SCHED_IDLE, which Linux lets any process choose for itself: a task of any other policy that
    wakes preempts it at once, whichever session it belongs to. nice 19 does not: with autogroups
    (one per session, Linux's default for desktops and these machines) niceness only orders a
    session's own processes, and a session whose only runnable process is the nice-19 fake weighs
    as much as the server's. Where the policy is missing, nice 19.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def main(argv: list[str] | None = None) -> None:
    """Serve in a process of its own (bench/reminder_burst.py): ``python -m tests.support.fake_push --port P
    --subscriptions N --out subs.json`` writes N subscriptions (ids b0 ... bN-1) to the file, then serves
    until killed. Its CPU (a decryption per push) is then not the measuring process's.
    """
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(description="A fake Web Push service")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--subscriptions", type=int, default=0)
    parser.add_argument("--out", required=True)
    parser.add_argument("--nice", type=int, default=0, help="lower this process's priority (a remote service's CPU)")
    parser.add_argument("--idle", action="store_true", help="run only on cores nothing else wants (SCHED_IDLE)")
    args = parser.parse_args(argv)
    if args.nice:
        os.nice(args.nice)
    if args.idle:
        idle()
    service = FakePushService(port=args.port)
    subscriptions = [service.subscribe(f"b{n}") for n in range(args.subscriptions)]
    Path(args.out).write_text(json.dumps(subscriptions))
    threading.Event().wait()


if __name__ == "__main__":
    main()
