"""A cap on the size of every HTTP request body, before any route reads it (413 beyond it).

Reflex's upload endpoint (POST /_upload) parses the whole multipart body before the handler runs
(spooling files past 1 MB to temporary files), and the login route reads its JSON body whole; with
no cap a client could send gigabytes. This pure-ASGI wrapper sits outside every route (it is the
last `api_transformer` in app/app.py, so it wraps Reflex's own /_upload route, the mounted API
and the frontend):

- a declared Content-Length over the cap is answered 413 at once, without reading a byte of it;
- a body without a length (chunked) or one longer than declared is counted as it arrives and the
  request ends with 413 as soon as the count passes the cap, so at most `cap` bytes are read.

The cap (6 MB) leaves room for the largest photo the app accepts (5 MB, services/accounts/photos.py) plus
the multipart framing. Websockets are not touched (Reflex's event channel has its own limit).
"""

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 6 * 1024 * 1024
TOO_LARGE = "Arquivo muito grande"


def _declared_length(scope: Scope) -> int | None:
    """The Content-Length header as a number; None when absent; -1 when malformed."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


def limit_request_bodies(app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> ASGIApp:
    """Wrap `app` so that no HTTP request body larger than `max_bytes` is ever read.

    Args:
        app: The ASGI app Reflex built (routes, /_upload, the mounted API).
        max_bytes: The largest body accepted, in bytes.

    Returns:
        An ASGI app answering 413 'Arquivo muito grande' to larger bodies.
    """

    async def limited(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and (declared < 0 or declared > max_bytes):
            status = 413 if declared > max_bytes else 400
            await PlainTextResponse(TOO_LARGE if status == 413 else "Bad Request", status_code=status)(
                scope, receive, send
            )
            return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    raise HTTPException(status_code=413, detail=TOO_LARGE)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, counting_receive, tracking_send)
        except HTTPException as error:
            if error.status_code != 413 or started:
                raise
            await PlainTextResponse(TOO_LARGE, status_code=413)(scope, receive, send)

    return limited
