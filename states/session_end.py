"""What a browser tab keeps after its session ends: nothing of the user it belonged to.

A session ends in many ways: 'Sair' in another tab, the logout route, a password change ('outras
sessões encerradas'), a password reset, the account's deletion, idle or absolute expiry. Most of
them happen outside the tab, often on another worker, and the tab's websocket stays connected
with its old cookie. Two checks make the end reach every tab, each on the cookie the tab itself
connected with (services/session_cache.who: while nothing changed, one read of the session
version token):

1. Live delivery (states/live.py) delivers to a tab only while its session still resolves to the
   user the delivery is for. A tab whose session ended receives nothing: its substates are reset,
   it leaves core.presence, and its browser loads the login page.
2. A hydrate (a page load or a reconnect on the same client token) whose session no longer
   resolves to the user whose data the tab holds resets every substate before Reflex sends the
   state (`SessionEndMiddleware`), so the next person at that tab sees none of it. Whose data the
   tab holds (`AuthState._data_owner`) is recorded whenever a handler resolves a signed-in caller,
   not only at hydrate: a client that never hydrated (a raw websocket) loads data too, and a tab
   that held two users' data matches no one. Signing out in the tab keeps it, for the substates
   the sign-out did not load.
"""

from datetime import datetime

from reflex.middleware import Middleware
from reflex.state import BaseState
from reflex_base import constants
from reflex_base.event import Event, get_event

from services.accounts import session_cache
from states.auth import AuthState


def _not_a_use(_session_id: int, _now: datetime) -> None:
    """Checking a tab's session for a delivery is not the user using it: the idle clock runs on."""


def session_user_id(auth: AuthState, version: str | None = None) -> int:
    """The id of the user whose live session the tab's cookie holds (0: none, ended or expired).

    Args:
        auth: The tab's AuthState (or a substate of it): its router data carry the cookie.
        version: The session version token read just before, when many tabs are checked at once.
    """
    user = session_cache.who(auth._session_token(), touch=_not_a_use, version=version)
    return user.id if user is not None else 0


_OWN_PACKAGES = ("app", "states", "components")


def _state_classes(root_cls: type[BaseState]) -> list[type[BaseState]]:
    """Every state class of this app below `root_cls`, parents before their substates.

    Reflex's own internal states (on-load bookkeeping, shared-state links) hold no user data and
    are left alone.
    """
    found, queue = [], sorted(root_cls.get_substates(), key=lambda cls: cls.get_full_name())
    while queue:
        state_cls = queue.pop(0)
        if state_cls.__module__.split(".")[0] in _OWN_PACKAGES:
            found.append(state_cls)
        queue.extend(sorted(state_cls.get_substates(), key=lambda cls: cls.get_full_name()))
    return found


async def forget_user(root: BaseState) -> None:
    """Reset every substate of a tab's root state to its defaults (what any page loaded for its user).

    Each state is loaded first, so with Redis a substate no event had loaded yet is reset too. The
    root's own fields (router data, hydration flag) stay as they are.
    """
    for state_cls in _state_classes(type(root)):
        (await root.get_state(state_cls)).reset()


def _hydrate_events(state: BaseState) -> tuple[str, str]:
    """The events a tab sends when it (re)connects or rehydrates: each answers with the whole state."""
    return get_event(state, constants.CompileVars.HYDRATE_AND_LOAD), get_event(state, constants.CompileVars.HYDRATE)


class SessionEndMiddleware(Middleware):
    """On hydrate, reset a tab whose data belongs to someone its cookie no longer signs in."""

    async def preprocess(self, app, state: BaseState, event: Event) -> None:
        """Reset the tab's substates when the session's user differs from the one its data was loaded for.

        Args:
            app: The Reflex app.
            state: The tab's root state (its router data already carry this connection's cookie).
            event: The event about to be processed; only the hydrate events are looked at.
        """
        if event.name not in _hydrate_events(state):
            return
        auth = await state.get_state(AuthState)
        owner = session_user_id(auth)
        if owner != auth._data_owner:
            await forget_user(state)
            auth._data_owner = owner
