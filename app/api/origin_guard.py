"""Refuse websocket handshakes from other sites in production (cross-site websocket hijacking).

A browser sends the session cookie (SameSite=Lax) with a websocket handshake to our host even
when a page of another site opens it, and the socket then acts as the signed-in user. Browsers
always send `Origin` on websocket handshakes and scripts cannot forge it, so the handshake is
accepted only when `Origin` is the site's own origin (SITE_URL). python-engineio, which serves
Reflex's `/_event` socket, checks `cors_allowed_origins` only when an Origin header is present
and lets a handshake without one through; this guard also refuses a missing Origin and the
opaque `null` origin (sandboxed frames, `data:` pages). Outside production this guard lets every
origin pass, and python-engineio checks a browser's Origin against the development list of
`core.settings.Settings.cors_origins` (SITE_URL and the localhost origins of PORT).

The guard is an `api_transformer` entry (app/app.py): Reflex wraps its whole backend ASGI app,
`/_event` websocket mount included, with each transformer, so every handshake passes here first.
"""

from starlette.types import ASGIApp, Receive, Scope, Send

from core.settings import get_settings

POLICY_VIOLATION = 1008


def _origin_of(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            return value.decode("latin-1").strip().lower()
    return ""


def site_origin() -> str:
    """The site's own origin, as browsers write it in `Origin` (no trailing slash, lower case)."""
    return get_settings().site_url.strip().rstrip("/").lower()


def origin_allowed(origin: str) -> bool:
    """Whether a websocket handshake with this `Origin` may go on (always outside production)."""
    if not get_settings().is_production:
        return True
    return bool(origin) and origin == site_origin()


async def _refuse(receive: Receive, send: Send) -> None:
    """Close the handshake before accepting it: the server answers HTTP 403."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": POLICY_VIOLATION})


def guard_websocket_origin(app: ASGIApp) -> ASGIApp:
    """Wrap the backend so that websocket handshakes from a foreign, null or missing Origin are refused.

    Args:
        app: The ASGI app Reflex built (API routes, the `/_event` socket, the mounted frontend).

    Returns:
        The same app behind the Origin check for websocket scopes; HTTP passes untouched.
    """

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not origin_allowed(_origin_of(scope)):
            await _refuse(receive, send)
            return
        await app(scope, receive, send)

    return guarded
