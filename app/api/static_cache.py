"""Cache headers for the compiled frontend when the backend serves it (single-port production).

`reflex run --env prod --single-port` and scripts/serve.py mount the built files on the backend
(already compressed: the build writes .br/.gz sidecars and the mount sends them). Reflex sends
no Cache-Control, so browsers guess from Last-Modified. Vite's /assets/ files carry a content hash
in their names, so they are cached for a year; pages (HTML) are revalidated on every visit
(ETag), so a deploy is seen at once and never points at assets that no longer exist. Behind Caddy
(deploy/Caddyfile) Caddy sets the same headers.
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ASSETS_PREFIX = "/assets/"
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"


def _with_cache_control(message: Message, value: bytes) -> Message:
    headers = [(name, v) for name, v in message.get("headers", []) if name.lower() != b"cache-control"]
    return {**message, "headers": [*headers, (b"cache-control", value)]}


def cache_static_files(app: ASGIApp) -> ASGIApp:
    """Wrap the backend's ASGI app: long-lived caching for hashed assets, revalidation for pages.

    Args:
        app: The ASGI app Reflex built (API routes, websocket, mounted frontend).

    Returns:
        The same app, adding Cache-Control to successful GET/HEAD answers of the frontend.
    """

    async def with_cache_headers(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await app(scope, receive, send)
            return
        is_asset = scope["path"].startswith(ASSETS_PREFIX)

        async def send_with_cache_control(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = dict(message.get("headers", []))
                if is_asset:
                    message = _with_cache_control(message, IMMUTABLE)
                elif headers.get(b"content-type", b"").startswith(b"text/html"):
                    message = _with_cache_control(message, REVALIDATE)
            await send(message)

        await app(scope, receive, send_with_cache_control)

    return with_cache_headers
