"""/api/whatsapp/webhook: the WhatsApp Cloud API's callbacks (services/reach/whatsapp.py).

GET answers Meta's subscription check (`hub.mode=subscribe`, our verify token, echo the
challenge). POST carries delivery statuses and the messages people send to our number; it is
applied only when `X-Hub-Signature-256` is the HMAC of the raw body with the app secret (403
otherwise, nothing changes). Without WhatsApp configured both answer 404.
"""

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse

from core.db import session_scope
from services.reach import whatsapp, whatsapp_webhook

MAX_BODY_BYTES = 256 * 1024


async def verify(request: Request) -> PlainTextResponse:
    """GET: the webhook's setup check."""
    if not whatsapp.configured():
        return PlainTextResponse("not found", status_code=404)
    query = request.query_params
    challenge = whatsapp_webhook.verify_subscription(
        query.get("hub.mode"), query.get("hub.verify_token"), query.get("hub.challenge")
    )
    if challenge is None:
        return PlainTextResponse("forbidden", status_code=403)
    return PlainTextResponse(challenge)


async def receive(request: Request) -> PlainTextResponse:
    """POST: statuses and inbound messages, applied once the signature checks."""
    if not whatsapp.configured():
        return PlainTextResponse("not found", status_code=404)
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        return PlainTextResponse("payload too large", status_code=413)
    if not whatsapp_webhook.signature_ok(body, request.headers.get("x-hub-signature-256")):
        return PlainTextResponse("forbidden", status_code=403)
    try:
        payload = json.loads(body)
    except ValueError:
        return PlainTextResponse("bad request", status_code=400)

    def _apply() -> int:
        with session_scope() as db:
            return whatsapp_webhook.handle_webhook(db, payload)

    await run_in_threadpool(_apply)
    return PlainTextResponse("ok")
