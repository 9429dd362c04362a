"""Who is calling: the session cookie resolved on the server, page guards, flash toasts."""

import reflex as rx
from starlette.requests import cookie_parser

from core import audit, routes
from core.client_address import client_address
from core.db import session_scope
from core.presence import SITE, get_presence
from core.settings import get_settings
from models import Role
from services.accounts import session_cache, sessions
from services.accounts.accounts import dashboard_for, guard
from services.accounts.sessions import CurrentUser

FLASH_KEY = "turno_flash"
_TAKE_FLASH_JS = (
    f"(() => {{ const m = sessionStorage.getItem('{FLASH_KEY}'); "
    f"sessionStorage.removeItem('{FLASH_KEY}'); return m || ''; }})()"
)


def client_address_of(state: rx.State) -> str:
    """The address of the browser behind a state's websocket (core/client_address.py: trusted proxies only)."""
    forwarded = state.router.headers.raw_headers.get("x-forwarded-for", "")
    return client_address(state.router.session.client_ip, forwarded)


def flash_then_go(message: str, url: str) -> str:
    """JavaScript that keeps a toast for the next page and then loads `url` in full."""
    return f"sessionStorage.setItem('{FLASH_KEY}', {message!r}); window.location.assign({url!r});"


# Unsent chat messages are kept per conversation in the tab (app/pages/chats/room.py) until sent, or
# until the session ends in that tab: `session_over` forgets them.
DRAFT_KEY_PREFIX = "turno_draft:"
MIXED = -1  # AuthState._data_owner of a tab that loaded the data of more than one user
_FORGET_DRAFTS_JS = (
    f"Object.keys(sessionStorage).filter((k) => k.startsWith('{DRAFT_KEY_PREFIX}'))"
    ".forEach((k) => sessionStorage.removeItem(k));"
)


def session_over(message: str, url: str, logout: bool = False) -> str:
    """JavaScript for a tab whose session ended: forget its drafts, keep `message` for the next page, go to `url`.

    Args:
        message: The toast the next page shows.
        url: Where the tab goes.
        logout: Clear the session cookie first (POST routes.API_LOGOUT), as 'Sair' and a deleted account do.
    """
    leave = f"{_FORGET_DRAFTS_JS} {flash_then_go(message, url)}"
    if not logout:
        return leave
    return f"fetch('{routes.API_LOGOUT}', {{method: 'POST', credentials: 'same-origin'}}).finally(() => {{ {leave} }})"


class AuthState(rx.State):
    """The signed-in user as the server knows them; identity never comes from the client."""

    signed_in: bool = False
    user_name: str = ""
    user_email: str = ""
    user_role: str = ""
    auth_checked: bool = False
    # Whose data this tab holds (0: none, a visitor's; MIXED: more than one user's), recorded by
    # `_current_user` whenever a handler resolves a signed-in caller, so also for a client that never
    # hydrated. states/session_end.py resets the tab when a hydrate finds that the cookie signs in
    # someone else, or no one.
    _data_owner: int = 0

    def _session_token(self) -> str | None:
        """The session token from the HttpOnly cookie the websocket connected with.

        The Cookie header is read as browsers and Starlette read it (`cookie_parser`): a cookie of
        another app on the same host whose value is JSON, or holds a space or a quote, must not hide
        the session cookie (`http.cookies.SimpleCookie` drops the whole header on such a value).
        """
        return cookie_parser(self.router.headers.cookie or "").get(get_settings().session_cookie_name) or None

    def _current_user(self) -> CurrentUser | None:
        """Resolve the caller from the server-side session table (None for visitors).

        Also names the caller for the security log of this event (core/audit.py `set_actor`).
        """
        user = session_cache.who(self._session_token())
        audit.set_actor(user.id if user else None, self._where())
        if user is not None:
            self._holds_data_of(user.id)
        return user

    def _holds_data_of(self, user_id: int) -> None:
        """Record that this tab may now hold `user_id`'s data (MIXED once it held another user's)."""
        if self._data_owner != user_id:
            self._data_owner = user_id if self._data_owner == 0 else MIXED

    def _sign_out_tab(self) -> None:
        """Reset this state (and its loaded substates) but keep whose data the tab held.

        Substates no event of this tab has loaded (Reflex loads only the ones an event needs when
        the state lives in Redis) still hold that data: keeping the owner makes the next hydrate,
        with no one signed in, reset them all (states/session_end.py).
        """
        owner = self._data_owner
        self.reset()
        self._data_owner = owner

    def _client_address(self) -> str:
        """The caller's address, from the proxy's X-Forwarded-For when it came through a trusted proxy."""
        return client_address_of(self)

    def _where(self) -> str:
        """The caller's address and tab (client token prefix), for the security log."""
        return audit.place(self._client_address(), self.router.session.client_token)

    def _deny(self, reason: str, user: CurrentUser | None = None) -> None:
        """Record that this handler refused its caller (visitor or wrong role); the answer is unchanged."""
        audit.set_actor(user.id if user else None, self._where())
        audit.deny(reason)

    def _caller(self, role: Role | None = None) -> CurrentUser | None:
        """The signed-in caller (of `role`, when given), or None with the refusal written to the security log.

        For handlers that only members may call: a visitor or a wrong role gets the handler's usual
        answer, and the log records who was refused where.
        """
        user = self._current_user()
        if user is None or (role is not None and user.role != role):
            self._deny(f"{role or 'signed-in'} only", user)
            return None
        return user

    def _apply(self, user: CurrentUser | None) -> None:
        self.signed_in = user is not None
        self.user_name = user.name if user else ""
        self.user_email = user.email if user else ""
        self.user_role = user.role if user else ""
        self.auth_checked = True

    @rx.event
    async def load_session(self):
        """On every page load: refresh who is signed in and show a pending flash toast.

        A signed-in user's tab that was on a dashboard is recorded as being on the public site,
        so nobody takes it for a reader of a conversation it no longer shows.
        """
        user = self._current_user()
        self._apply(user)
        if user is not None:
            await get_presence().move(user.id, self.router.session.client_token, SITE)
        return _TAKE_FLASH

    @rx.event
    def show_flash(self, message: str):
        """Show a toast left by the previous page (e.g. after a login redirect)."""
        if isinstance(message, str) and message:
            return rx.toast.success(message[:200])
        return None

    def _guard(self, role: Role | None):
        user = self._current_user()
        self._apply(user)
        url = self.router.url
        path = url.path.rstrip("/") or "/"  # the static build serves '/client-dashboard/'
        here = f"{path}?{url.query}" if url.query else path
        decision = guard(user.role if user else None, role, here)
        if decision.redirect_to:
            self._deny(f"page for {role or 'signed-in users'}", user)
        if decision.restricted_to:
            return [
                rx.toast.error("Acesso Restrito", description=f"Esta área é exclusiva para {decision.restricted_to}."),
                rx.redirect(decision.redirect_to),
            ]
        if decision.redirect_to:
            return rx.redirect(decision.redirect_to)
        return _TAKE_FLASH

    @rx.event
    def guard_client(self):
        """Page guard for company pages: steers the browser only; data handlers check again."""
        return self._guard(Role.CLIENT)

    @rx.event
    def guard_freelancer(self):
        """Page guard for freelancer pages."""
        return self._guard(Role.FREELANCER)

    @rx.event
    def guard_admin(self):
        """Page guard for Turno staff's back office (/admin)."""
        return self._guard(Role.ADMIN)

    @rx.event
    def guard_signed_in(self):
        """Page guard for pages any signed-in user may open."""
        return self._guard(None)

    @rx.event
    def redirect_if_signed_in(self):
        """On /login and /register: a signed-in user goes where `next` asks (if theirs) or to their dashboard."""
        user = self._current_user()
        self._apply(user)
        if user is not None:
            wanted = routes.safe_next(self.router.url.query_parameters.get("next"), user.role)
            return rx.redirect(wanted or dashboard_for(user.role))
        return _TAKE_FLASH

    @rx.event
    async def logout(self):
        """Sair: end the server session, clear the cookie, reset per-user state, stop live updates, go home."""
        user = self._current_user()
        with session_scope() as db:
            sessions.revoke(db, self._session_token())
        if user is not None:
            audit.logged_out(user.id, self._where())
            await get_presence().leave(user.id, self.router.session.client_token)
        self._sign_out_tab()
        return rx.call_script(session_over("Logout realizado", routes.HOME, logout=True))


# What every page load returns: the script that shows a flash toast left by the previous page.
# Built once, after the class it calls back (building a script call is Reflex Var work, docs/performance.md).
_TAKE_FLASH = rx.call_script(_TAKE_FLASH_JS, callback=AuthState.show_flash)


async def freelancer_viewer(state: rx.State) -> int | None:
    """The id of the signed-in freelancer looking at a public page (None: a visitor or a company).

    For public pages whose state is not an AuthState: what they show depends on who looks only
    through services/jobs/visibility.py (a freelancer's blocks and teams), resolved on the server.
    """
    user = (await state.get_state(AuthState))._current_user()
    return user.id if user is not None and user.role == Role.FREELANCER else None


async def viewer_id(state: rx.State) -> int | None:
    """The id of whoever is signed in on this tab (None: a visitor)."""
    user = (await state.get_state(AuthState))._current_user()
    return user.id if user is not None else None
