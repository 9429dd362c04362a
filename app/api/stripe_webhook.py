"""POST /api/stripe/webhook: Stripe's events, verified on the raw body and applied once."""

import logging

from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from core.db import session_scope
from services.money import billing, settlement

log = logging.getLogger(__name__)
MAX_BODY_BYTES = 1_000_000


async def stripe_webhook(request: Request) -> JSONResponse:
    """Verify the Stripe-Signature header and apply the event in a worker thread.

    Answers 400 to a missing or bad signature (nothing changes), 200 to a processed, ignored or
    replayed event, and 409/500 when applying it failed or raced a concurrent delivery of related
    events (nothing was stored; Stripe retries, and a retry of an event already applied is a replay).
    """
    payload = await request.body()
    if len(payload) > MAX_BODY_BYTES:
        return JSONResponse({"error": "payload too large"}, status_code=413)
    signature = request.headers.get("stripe-signature")

    def _apply() -> str:
        with session_scope() as db:
            return billing.handle_event(db, payload, signature)

    try:
        result = await run_in_threadpool(_apply)
    except billing.InvalidWebhook as exc:
        log.warning("Stripe webhook refused: %s", exc)
        return JSONResponse({"error": "invalid signature or payload"}, status_code=400)
    except IntegrityError:
        log.info("Stripe webhook raced another delivery; Stripe will retry it")
        return JSONResponse({"error": "concurrent delivery, retry"}, status_code=409)
    except Exception:
        log.exception("Stripe webhook failed")
        return JSONResponse({"error": "processing failed"}, status_code=500)
    if result == "processed":  # a top-up or a late payment just asked for a settlement: do it now
        settlement.settle_due_soon()
    return JSONResponse({"received": True, "result": result})
