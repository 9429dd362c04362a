"""Security headers on every HTTP response of the backend, including the compiled frontend it serves.

`reflex run --env prod --single-port` and scripts/serve.py mount the built pages, their assets,
/_upload and our /api routes on one ASGI app; this middleware wraps all of them. Behind Caddy
(deploy/Caddyfile) Caddy serves the pages itself and sends the same headers, with the policy this
module prints (`python -m app.api.security_headers`).

The Content-Security-Policy only lets the browser run script files from the site itself and the
inline scripts the frontend build wrote (by their SHA-256, listed when the build is read), so markup
injected into a page cannot run. Two concessions to the framework:

- script-src 'unsafe-eval': Reflex runs `rx.call_script(...)` by passing the server's string to
  `eval` in the browser (reflex_base/.templates/web/utils/state.js). Every script the server sends
  is a constant of the code, never user text.
- style-src 'unsafe-inline': Radix and Emotion write `<style>` elements and `style=` attributes at
  run time. Styles cannot run code.

The build's hashed scripts and stylesheets (/assets/*.js, /assets/*.css) get the other headers but
not the policy: a browser applies a CSP only to documents and workers, never to a script or a
stylesheet a page loads, and the policy (about 2.2 KB with the hashes) rode on each of the 25-50
asset answers of a page, about 100 KB more to download on a phone (docs/performance.md).
"""

import base64
import hashlib
import re
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.settings import get_settings

INLINE_SCRIPT_RE = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
SRC_ATTRIBUTE_RE = re.compile(r"\bsrc\s*=", re.IGNORECASE)

FIXED_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
)
REPLACED_HEADERS = {b"content-security-policy", *(name for name, _ in FIXED_HEADERS)}


def websocket_origin(site_url: str) -> str:
    """The ws:// or wss:// origin of the site's websocket ('' when the URL has no host).

    Args:
        site_url: The public origin of the site (SITE_URL), e.g. https://turno.example.com.br.

    Returns:
        The same host and port with the websocket scheme matching http/https.
    """
    parts = urlsplit(site_url)
    if not parts.netloc:
        return ""
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}"


def content_security_policy(site_url: str, script_hashes: Iterable[str] = ()) -> str:
    """The site's Content-Security-Policy.

    Args:
        site_url: The public origin (SITE_URL); its websocket origin is allowed in connect-src.
        script_hashes: CSP hash sources ('sha256-…') of the inline scripts the frontend build wrote.

    Returns:
        The policy, directives separated by '; '.
    """
    connect = " ".join(filter(None, ("'self'", websocket_origin(site_url))))
    scripts = " ".join(("'self'", "'unsafe-eval'", *(f"'{source}'" for source in script_hashes)))
    directives = (
        "default-src 'self'",
        f"script-src {scripts}",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        f"connect-src {connect}",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
    return "; ".join(directives)


def inline_script_hashes_of(html: str) -> set[str]:
    """CSP hash sources ('sha256-…') of the inline scripts of one page (scripts with src= skipped).

    Args:
        html: The page's markup.

    Returns:
        One 'sha256-<base64>' per distinct inline script body.
    """
    hashes = set()
    for match in INLINE_SCRIPT_RE.finditer(html):
        attributes, body = match.groups()
        if SRC_ATTRIBUTE_RE.search(attributes):
            continue
        digest = hashlib.sha256(body.encode("utf-8")).digest()
        hashes.add("sha256-" + base64.b64encode(digest).decode("ascii"))
    return hashes


@cache
def build_script_hashes(build_dir: Path) -> tuple[str, ...]:
    """Hash sources of every inline script in the built pages under `build_dir` (sorted; empty if none).

    Args:
        build_dir: The compiled frontend (`.web/build/client`).

    Returns:
        The sorted, distinct 'sha256-…' sources.
    """
    hashes: set[str] = set()
    if build_dir.is_dir():
        for page in build_dir.rglob("*.html"):
            hashes |= inline_script_hashes_of(page.read_text(encoding="utf-8"))
    return tuple(sorted(hashes))


def frontend_build_dir() -> Path:
    """Where the compiled frontend lives: the directory Reflex's single-port mount serves."""
    from reflex.utils.prerequisites import get_web_dir
    from reflex_base import constants
    from reflex_base.config import get_config

    static = get_web_dir() / constants.Dirs.STATIC
    return (static / get_config().frontend_path.strip("/")).resolve()


ASSETS_PREFIX = "/assets/"
ASSET_SUFFIXES = (".js", ".css")


def is_build_asset(path: str) -> bool:
    """True for a hashed script or stylesheet of the build, which a page loads and never shows as a document."""
    return path.startswith(ASSETS_PREFIX) and path.endswith(ASSET_SUFFIXES) and "/../" not in path


def _with_security_headers(message: Message, policy: bytes | None) -> Message:
    headers = [(name, value) for name, value in message.get("headers", []) if name.lower() not in REPLACED_HEADERS]
    csp = [(b"content-security-policy", policy)] if policy is not None else []
    return {**message, "headers": [*headers, *csp, *FIXED_HEADERS]}


def security_headers(app: ASGIApp) -> ASGIApp:
    """Wrap the backend's ASGI app: CSP, nosniff, referrer policy and frame denial on every HTTP answer.

    Every answer but the build's hashed scripts and stylesheets carries the same policy, with the
    build's inline-script hashes (read from the build on the first answer). Pages included: a
    revalidated page comes back as a bodiless 304 whose headers replace the cached ones in the
    browser, so a policy chosen by content type would strip the hashes from every page seen before
    (the exception is chosen by path, so it holds for a 304 too).

    Args:
        app: The ASGI app Reflex built (API routes, uploads, websocket, mounted frontend).

    Returns:
        The same app with the headers added to each HTTP response.
    """
    site_url = get_settings().site_url

    def policy() -> bytes:
        return content_security_policy(site_url, build_script_hashes(frontend_build_dir())).encode()

    async def with_security_headers(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        with_policy = not is_build_asset(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = _with_security_headers(message, policy() if with_policy else None)
            await send(message)

        await app(scope, receive, send_with_headers)

    return with_security_headers


def main(argv: list[str]) -> None:
    """Print the policy for a build (deploy/Caddyfile reads it from TURNO_CSP).

    Args:
        argv: Optional build directory (default: the project's `.web/build/client`).
    """
    build_dir = Path(argv[0]).resolve() if argv else frontend_build_dir()
    print(content_security_policy(get_settings().site_url, build_script_hashes(build_dir)))


if __name__ == "__main__":
    main(sys.argv[1:])
