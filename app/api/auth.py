"""Login and logout over HTTP, so the session token lives only in an HttpOnly cookie."""

import json
import logging

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from core import audit
from core.client_address import client_address
from core.db import session_scope
from core.settings import get_settings
from services.accounts import accounts, sessions
from services.common.errors import ServiceError

log = logging.getLogger(__name__)
GENERIC_ERROR = "Erro ao fazer login. Tente novamente."


def _same_origin(request: Request) -> bool:
    """Refuse cross-site posts: an Origin header, when sent, must be our own."""
    origin = request.headers.get("origin")
    if not origin:
        return True
    settings = get_settings()
    own = f"{request.url.scheme}://{request.url.netloc}"
    return origin in {own, settings.site_url.rstrip("/")}


def _client_address(request: Request) -> str:
    return client_address(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))


async def login(request: Request) -> JSONResponse:
    """POST /api/auth/login: check credentials and set the session cookie.

    A successful login rotates the session: the session of the cookie the browser arrived with
    (another account's, or a token planted by someone else) is revoked, and a new token is set.
    It also (re)sets the trusted-device cookie (services/accounts/devices.py), sent back only to /api/auth,
    so the next login from this browser is not locked out by strangers' failures.

    Answers {"ok": true, "redirect": url} or {"ok": false, "message": ..., "errors": {...}}.
    """
    if not _same_origin(request):
        audit.login_failed(None, audit.place(_client_address(request)), "cross-site origin")
        return JSONResponse({"ok": False, "message": GENERIC_ERROR}, status_code=403)
    try:
        data = json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        data = {}
    address = _client_address(request)
    agent = request.headers.get("user-agent", "")
    previous_token = request.cookies.get(get_settings().session_cookie_name)
    device_token = request.cookies.get(get_settings().device_cookie_name)

    def _do() -> accounts.LoginResult:
        with session_scope() as db:
            result = accounts.login(db, data if isinstance(data, dict) else {}, address, agent, device_token)
            sessions.revoke(db, previous_token)
            return result

    try:
        result = await run_in_threadpool(_do)
    except ServiceError as exc:
        return JSONResponse({"ok": False, "message": exc.message, "errors": exc.field_errors}, status_code=400)
    except Exception:
        log.exception("login failed")
        return JSONResponse({"ok": False, "message": GENERIC_ERROR}, status_code=500)
    response = JSONResponse({"ok": True, "redirect": result.redirect_to})
    settings = get_settings()
    _set_cookie(response, settings.session_cookie_name, result.token, result.max_age, "/")
    _set_cookie(response, settings.device_cookie_name, result.device_token, result.device_max_age, "/api/auth")
    return response


def _set_cookie(response: JSONResponse, name: str, value: str, max_age: int | None, path: str) -> None:
    """Set an HttpOnly, SameSite=Lax cookie, Secure in production (None max-age: a browser-session cookie)."""
    response.set_cookie(
        name, value, max_age=max_age, httponly=True, secure=get_settings().is_production, samesite="lax", path=path
    )


async def logout(request: Request) -> JSONResponse:
    """POST /api/auth/logout: revoke the server session (if any) and delete the cookie."""
    if not _same_origin(request):
        return JSONResponse({"ok": False}, status_code=403)
    settings = get_settings()
    token = request.cookies.get(settings.session_cookie_name)

    def _do() -> None:
        with session_scope() as db:
            user = sessions.resolve(db, token)
            sessions.revoke(db, token)
        if user is not None:
            audit.logged_out(user.id, audit.place(_client_address(request)))

    await run_in_threadpool(_do)
    response = JSONResponse({"ok": True})
    response.delete_cookie(settings.session_cookie_name, path="/")
    return response
