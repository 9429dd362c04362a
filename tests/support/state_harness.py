"""Drive Reflex state handlers in unit tests as a browser would, with a real session cookie.

A handler is called on a state instance whose router data carry the `Cookie` header of the
websocket connection, so identity is resolved exactly as in the running app (cookie -> hashed
session row -> user). Use it with the `db` fixture; commit the rows the handler must see first.

    state = state_for(CompanyJobsState, cookie_for(db, company))
    events = run(state, CompanyJobsState.archive, job.id)
"""

import asyncio
import inspect
import re
import uuid
from typing import Any
from urllib.parse import urlencode

from reflex.event import EventHandler
from reflex.istate.data import RouterData
from reflex.state import BaseState, State
from sqlmodel import Session

from core.settings import get_settings
from models import User
from services.accounts import sessions


def cookie_for(db: Session, user: User | None) -> str:
    """A `Cookie` header holding a fresh session token of `user` ('' for a visitor); commits."""
    if user is None:
        return ""
    token, _ = sessions.create(db, user.id, remember=False)
    db.commit()
    return f"{get_settings().session_cookie_name}={token}"


def state_for(
    state_cls: type[BaseState], cookie: str = "", path: str = "/", query: dict | None = None, token: str = ""
) -> BaseState:
    """A fresh instance of `state_cls` inside a new root state, connected with `cookie` at `path`.

    `token` is the browser tab's client token (a fresh random one when omitted).
    """
    root = State(_reflex_internal_init=True)
    as_path = f"{path}?{urlencode(query)}" if query else path  # Reflex reads ?query from asPath
    router_data = {
        "headers": {"cookie": cookie},
        "pathname": path,
        "asPath": as_path,
        "query": query or {},
        "token": token or uuid.uuid4().hex,
    }
    root.router_data = router_data
    root.router = RouterData.from_router_data(router_data)
    return root.get_substate(state_cls.get_full_name().split(".")[1:])


def run(state: BaseState, handler: EventHandler, *args: Any) -> list[Any]:
    """Call an event handler on `state` as Reflex would and return everything it returned or yielded.

    Sync and async functions and generators are all supported; `None` results are dropped and
    lists are flattened, so the result is the list of event specs (toasts, redirects, scripts).
    """
    result = handler.fn(state, *args)
    if inspect.isasyncgen(result):

        async def _drain() -> list[Any]:
            return [item async for item in result]

        items = asyncio.run(_drain())
    elif inspect.isgenerator(result):
        items = list(result)
    elif inspect.iscoroutine(result):
        items = [asyncio.run(result)]
    else:
        items = [result]
    flat: list[Any] = []
    for item in items:
        if isinstance(item, list | tuple):
            flat.extend(i for i in item if i is not None)
        elif item is not None:
            flat.append(item)
    return flat


def toasts(events: list[Any]) -> list[str]:
    """The toasts among `events` as 'kind: title | description' (e.g. 'error: Erro | Vaga não encontrada.')."""
    found: list[str] = []
    for spec in events:
        for _name, value in getattr(spec, "args", ()):
            call = getattr(value, "_return_expr", None)
            func = getattr(call, "_func", None)
            match = re.search(r'__toast.*?\["(\w+)"\]', str(getattr(func, "_js_expr", "")))
            if not match:
                continue
            parts: list[str] = []
            for arg in getattr(call, "_args", ()):
                if isinstance(arg, str):
                    parts.append(arg)
                elif isinstance(getattr(arg, "_var_value", None), dict):
                    parts.append(str(arg._var_value.get("description", "")))
            found.append(f"{match.group(1)}: " + " | ".join(parts))
    return found
