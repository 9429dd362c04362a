"""A local stand-in for the WhatsApp Cloud API (Graph API `/<version>/<phone number id>/messages`).

The tests (unit and browser) point `WHATSAPP_API_BASE` at it. It checks what the real API checks
for the messages we send: the bearer token, the phone number id, `messaging_product`, a template
it knows with language pt_BR and the right number of body parameters; it answers like the API
(a `wamid` per accepted message, Graph-style errors otherwise) and records what it accepted.
Outages are queued with `fail`. `signed_webhook` and the payload builders make the webhook calls
Meta would make, signed with the app secret (X-Hub-Signature-256).
"""

import hashlib
import hmac
import json
import re
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from tests.support.local_http import LocalServer, serve, shut

VERSION = "v21.0"
APP_SECRET = "segredo-do-app"
VERIFY_TOKEN = "token-de-verificacao"
TOKEN = "token-teste"


@dataclass(frozen=True)
class Sent:
    """One template message the fake API accepted."""

    to: str
    template: str
    language: str
    params: list[str]
    button: str | None
    wamid: str


class FakeWhatsApp:
    """The Cloud API on 127.0.0.1 (random port), serving in a daemon thread from construction."""

    def __init__(
        self, token: str = TOKEN, phone_number_id: str = "1234567890", templates: dict[str, int] | None = None
    ) -> None:
        self.token = token
        self.phone_number_id = phone_number_id
        self.templates = templates or {"turno_codigo": 1, "turno_aviso": 1}
        self._sent: list[Sent] = []
        self._failures: deque[tuple[int, int]] = deque()
        self._changed = threading.Condition()
        self._server: LocalServer | None = serve(_Handler, self)
        self.api_base = f"http://127.0.0.1:{self._server.server_address[1]}/{VERSION}"

    def __enter__(self) -> "FakeWhatsApp":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (a second call does nothing)."""
        shut(self._server)
        self._server = None

    def env(self, app_secret: str = APP_SECRET, verify_token: str = VERIFY_TOKEN) -> dict[str, str]:
        """The app's settings that point it at this fake."""
        return {
            "WHATSAPP_TOKEN": self.token,
            "WHATSAPP_PHONE_NUMBER_ID": self.phone_number_id,
            "WHATSAPP_API_BASE": self.api_base,
            "WHATSAPP_APP_SECRET": app_secret,
            "WHATSAPP_VERIFY_TOKEN": verify_token,
        }

    def fail(self, *statuses: int, code: int = 131026) -> None:
        """Answer the next requests with these HTTP statuses (a 4xx carries the Graph error `code`)."""
        with self._changed:
            self._failures.extend((status, code) for status in statuses)

    def sent(self) -> list[Sent]:
        """What was accepted, in order."""
        with self._changed:
            return list(self._sent)

    def wait_for(self, count: int, to: str | None = None, timeout: float = 10.0) -> list[Sent]:
        """Wait until at least `count` messages (to the number `to`, when given) were accepted; returns them.

        Raises:
            AssertionError: Fewer arrived within `timeout` seconds.
        """

        def found() -> list[Sent]:
            return [sent for sent in self._sent if to is None or sent.to == to]

        with self._changed:
            if not self._changed.wait_for(lambda: len(found()) >= count, timeout):
                raise AssertionError(f"{len(found())} WhatsApp messages after {timeout} s, expected {count}")
            return found()

    def _receive(self, path: str, authorization: str, body: bytes) -> tuple[int, dict]:
        if path != f"/{VERSION}/{self.phone_number_id}/messages":
            return 404, _error("Unknown path components", 2500)
        if authorization != f"Bearer {self.token}":
            return 401, _error("Invalid OAuth access token.", 190)
        try:
            data = json.loads(body)
            template = data["template"]
            params = [p["text"] for p in template["components"][0]["parameters"]]
            button = next(
                (c["parameters"][0]["text"] for c in template["components"] if c.get("type") == "button"), None
            )
            valid = (
                data["messaging_product"] == "whatsapp"
                and data["type"] == "template"
                and re.fullmatch(r"\d{8,15}", data["to"])
                and template["language"]["code"] == "pt_BR"
                and self.templates.get(template["name"]) == len(params)
                and all(isinstance(p, str) and p for p in params)
            )
        except (ValueError, KeyError, IndexError, TypeError):
            valid = False
        if not valid:
            return 400, _error("(#100) Invalid parameter", 100)
        with self._changed:
            if self._failures:
                status, code = self._failures.popleft()
                return status, _error("Message undeliverable" if status < 500 else "Service unavailable", code)
            wamid = f"wamid.{secrets.token_hex(12)}"
            self._sent.append(Sent(data["to"], template["name"], "pt_BR", params, button, wamid))
            self._changed.notify_all()
        return 200, {
            "messaging_product": "whatsapp",
            "contacts": [{"input": data["to"], "wa_id": data["to"]}],
            "messages": [{"id": wamid}],
        }


def _error(message: str, code: int) -> dict:
    return {"error": {"message": message, "type": "OAuthException", "code": code, "fbtrace_id": "fake"}}


class _Handler(BaseHTTPRequestHandler):
    server: LocalServer

    @property
    def fake(self) -> FakeWhatsApp:
        return self.server.owner

    def log_message(self, *_args) -> None:
        return

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        status, answer = self.fake._receive(self.path, self.headers.get("Authorization", ""), body)
        text = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)


def signed_webhook(payload: dict, app_secret: str) -> tuple[bytes, dict[str, str]]:
    """The body and headers of a webhook call as Meta signs it."""
    body = json.dumps(payload).encode()
    signature = hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()
    return body, {"X-Hub-Signature-256": f"sha256={signature}", "Content-Type": "application/json"}


def _envelope(value: dict) -> dict:
    return {
        "object": "whatsapp_business_account",
        "entry": [
            {
                "id": "102290129340398",
                "changes": [
                    {
                        "field": "messages",
                        "value": {
                            "messaging_product": "whatsapp",
                            "metadata": {"display_phone_number": "551140000000", "phone_number_id": "1234567890"},
                            **value,
                        },
                    }
                ],
            }
        ],
    }


def status_payload(wamid: str, status: str, error_code: int | None = None) -> dict:
    """A delivery status webhook ('sent', 'delivered', 'read' or 'failed')."""
    item: dict = {"id": wamid, "status": status, "timestamp": "1764350000", "recipient_id": "5511987654321"}
    if error_code is not None:
        item["errors"] = [{"code": error_code, "title": "Message undeliverable"}]
    return _envelope({"statuses": [item]})


def text_payload(from_phone: str, text: str) -> dict:
    """A text message the person sent to our number."""
    message = {"from": from_phone, "id": "wamid.in", "timestamp": "1764350000", "type": "text", "text": {"body": text}}
    return _envelope({"contacts": [{"profile": {"name": "Freelancer"}, "wa_id": from_phone}], "messages": [message]})
