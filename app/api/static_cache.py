"""Cache headers for the compiled frontend when the backend serves it (single-port production).

`reflex run --env prod --single-port` and scripts/serve.py mount the built files on the backend
(already compressed: the build writes .br/.gz sidecars and the mount sends them). Reflex sends
no Cache-Control, so browsers guess from Last-Modified. Vite's /assets/ files carry a content hash
in their names, so they are cached for a year; pages (HTML) are revalidated on every visit
(ETag), so a deploy is seen at once and never points at assets that no longer exist. Behind Caddy
(deploy/Caddyfile) Caddy sets the same headers.

`serve_pages_in_place` answers a page's address as it is written (/jobs, not /jobs/): the build
writes each page both as jobs.html and as jobs/index.html, and the mount (Starlette's StaticFiles)
answers a directory without its trailing slash with a redirect, a round trip before the page
starts loading (Lighthouse's mobile run counted about 600 ms of its first paint on /jobs).
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.security_headers import frontend_build_dir

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


def is_page_directory(path: str) -> bool:
    """True when `path` (no trailing slash) names a directory of the build that holds a page.

    Args:
        path: The request's path, e.g. /jobs.

    Returns:
        True when `<build>/jobs/index.html` exists, so the mount would redirect /jobs to /jobs/.
    """
    parts = path.strip("/").split("/")
    if path.endswith("/") or not parts[-1] or "." in parts[-1] or ".." in parts:
        return False
    return (frontend_build_dir().joinpath(*parts) / "index.html").is_file()


def serve_pages_in_place(app: ASGIApp) -> ASGIApp:
    """Wrap the backend's ASGI app: a built page's path without its trailing slash is served, not redirected.

    Args:
        app: The ASGI app Reflex built (API routes, websocket, mounted frontend).

    Returns:
        The same app, with GET/HEAD /jobs answered as /jobs/ (the same page) instead of a 307 to it.
    """

    async def in_place(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and is_page_directory(scope["path"]):
            raw_path = scope.get("raw_path") or scope["path"].encode()
            scope = {**scope, "path": scope["path"] + "/", "raw_path": raw_path + b"/"}
        await app(scope, receive, send)

    return in_place
