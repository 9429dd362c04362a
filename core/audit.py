"""The security log: one line per login, logout and authorization denial, safe to ship anywhere.

Every event goes to the `turno.security` logger as a single line of `key=value` fields:

    time=2025-05-01T12:00:00.123Z event=login.failure who=email:3f2a9c01b7e4 what=/api/auth/login
    where=ip:203.0.113.7 outcome=denied reason="wrong credentials" agent="Mozilla/5.0 ..."

- when: UTC time with milliseconds (the line's own field, whatever the handler's formatter adds).
- who: `user:<id>` or `anon`; a failed login names the account only by a keyed hash of the
  e-mail (`email:<12 hex>`), so repeated failures against one account can be correlated without
  the log holding the address. Passwords, session tokens and cookies are never passed here.
- what: the HTTP route or the Reflex event handler, plus the object when the check knows it.
- where: the client's address and the first 8 characters of the browser tab's client token
  (not a secret: it only tells tabs apart).
- outcome: `ok` or `denied`.

Log injection is neutralised field by field: backslash, quotes and every control or line-breaking
character (CR, LF, ESC of ANSI colour codes, NEL, U+2028/9...) are written as escapes, and each
field is cut to `MAX_FIELD` characters, so one event is always exactly one line and a client can
neither forge a second line nor repaint a terminal.

The security log has a handler of its own and does not pass its records on to the root logger
(`configure_security_log`): with SECURITY_LOG_FILE set, a file only these lines are written to, so
no other logger (Reflex's, a library's) can put a line there that looks like a security event.

Denials are recorded where the app refuses: `services.common.errors.NotAllowed` (a foreign or missing
object, a wrong role) and `AuthState` guards call `deny`. Who and where come from the caller's
context (`set_actor`), set when a handler or route resolves its caller, and live only for that
event's task or request.
"""

import asyncio
import contextvars
import hashlib
import hmac
import logging
import sys
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

SECURITY_LOGGER = "turno.security"
MAX_FIELD = 200
TOKEN_PREFIX = 8
EMAIL_HASH_CHARS = 12
_FIXED_KEY = b"turno-security-log"
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}

security_log = logging.getLogger(SECURITY_LOGGER)


@dataclass(frozen=True)
class Actor:
    """Who is calling and from where, as the server resolved it for the current event or request."""

    who: str = "anon"
    where: str = "unknown"
    handler: str = ""


_actor: contextvars.ContextVar[Actor | None] = contextvars.ContextVar("security_actor", default=None)


def clean(value: object, limit: int = MAX_FIELD) -> str:
    r"""`value` as a single-line, printable, length-capped log field.

    Backslash and double quote are escaped; CR, LF, tab, ESC and every other control, format or
    line/paragraph-separator character become `\xNN`/`\uNNNN` escapes. Values longer than `limit`
    are cut and end with '…'.
    """
    text = str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    out: list[str] = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def _field(name: str, value: object) -> str:
    text = clean(value)
    if not text or any(c in text for c in ' ="'):
        text = f'"{text}"'
    return f"{name}={text}"


def _key() -> bytes:
    from core.settings import get_settings

    configured = get_settings().security_log_key
    return configured.encode() if configured else _FIXED_KEY


def email_ref(email: object) -> str:
    """A stable pseudonym of an e-mail address for the log: `email:` and 12 hex of a keyed hash."""
    normalized = str(email or "").strip().lower().encode("utf-8", "replace")
    digest = hmac.new(_key(), normalized, hashlib.sha256).hexdigest()
    return f"email:{digest[:EMAIL_HASH_CHARS]}"


def user_ref(user_id: int | None) -> str:
    """`user:<id>` for a signed-in caller, `anon` for a visitor."""
    return f"user:{user_id}" if user_id is not None else "anon"


def place(address: str | None, client_token: str | None = None) -> str:
    """Where a request came from: `ip:<address>`, plus `/tab:<8 chars>` of the client token when known."""
    where = f"ip:{address or 'unknown'}"
    if client_token:
        where += f"/tab:{str(client_token)[:TOKEN_PREFIX]}"
    return where


def current_handler() -> str:
    """The Reflex event handler running in this task (from its task name), or ''."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return ""
    name = task.get_name() if task else ""
    parts = name.split("|")
    return parts[1] if len(parts) > 2 and parts[0] == "reflex_event" else ""


def set_actor(user_id: int | None, where: str, handler: str = "") -> None:
    """Remember who the current event or request is acting for (context-local, not shared)."""
    _actor.set(Actor(who=user_ref(user_id), where=where, handler=handler or current_handler()))


def current_actor() -> Actor:
    """The actor set for this event or request; an anonymous, unknown one when none was set."""
    return _actor.get() or Actor(handler=current_handler())


def log_event(event: str, *, who: str, what: str, where: str, outcome: str, **details: object) -> None:
    """Write one security event as one line on the `turno.security` logger.

    Args:
        event: Dotted kind, e.g. 'login.success', 'login.failure', 'logout', 'authz.denied'.
        who: `user_ref(...)`, `email_ref(...)` or 'anon'; never a raw e-mail, password or token.
        what: The route or handler, and the object when known.
        where: `place(...)`.
        outcome: 'ok' or 'denied'.
        **details: Extra fields (reason, agent...); each is cleaned and capped like the others.
    """
    when = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    fields = [_field("time", when), _field("event", event), _field("who", who), _field("what", what)]
    fields += [_field("where", where), _field("outcome", outcome)]
    fields += [_field(name, value) for name, value in details.items() if value not in (None, "")]
    level = logging.INFO if outcome == "ok" else logging.WARNING
    security_log.log(level, " ".join(fields))


def configure_security_log(path: str | None) -> logging.Handler:
    """Give `turno.security` a handler of its own (a file at `path`, or standard error) and stop propagation.

    Idempotent: a second call replaces the handler it installed before.

    Args:
        path: The file the security log is appended to; standard error when None or empty.

    Returns:
        The handler now in place.
    """
    for old in [h for h in security_log.handlers if getattr(h, "_turno_security", False)]:
        security_log.removeHandler(old)
        old.close()
    handler: logging.Handler = (
        logging.FileHandler(path, encoding="utf-8") if path else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(message)s" if path else "turno.security %(message)s"))
    handler._turno_security = True  # type: ignore[attr-defined]
    security_log.addHandler(handler)
    security_log.setLevel(logging.INFO)
    security_log.propagate = False
    return handler


def login_succeeded(user_id: int, where: str, agent: str = "") -> None:
    """A login that opened a session."""
    log_event("login.success", who=user_ref(user_id), what="login", where=where, outcome="ok", agent=agent)


def login_failed(email: object, where: str, reason: str, agent: str = "") -> None:
    """A refused login (wrong credentials, throttled, unconfirmed, invalid form); the e-mail is hashed."""
    who = email_ref(email) if email else "anon"
    log_event("login.failure", who=who, what="login", where=where, outcome="denied", reason=reason, agent=agent)


def logged_out(user_id: int | None, where: str, what: str = "logout") -> None:
    """A session ended by its user."""
    log_event("logout", who=user_ref(user_id), what=what, where=where, outcome="ok")


WRAPPERS_MODULE = "states.failures"


def handler_in_stack(skip: int = 2) -> str:
    """The public State handler running below this call, with its object ids: 'JobsState.archive(job_id=7)'.

    Walks outwards from the caller and keeps the outermost frame of a public method of a Reflex
    state (a class with `get_full_name`), so a refusal raised deep inside a service is attributed
    to the handler the browser called. Only arguments named `id` or `*_id` are shown: ids say
    which object was refused, and no other argument (a form with a password) ever reaches the log.
    The wrappers of states/failures.py `recovers` are passed over: the handler is the function they wrap.
    """
    frame = sys._getframe(skip)
    found = ""
    while frame is not None:
        code = frame.f_code
        owner = frame.f_locals.get("self")
        wrapper = frame.f_globals.get("__name__") == WRAPPERS_MODULE
        if (
            owner is not None
            and hasattr(type(owner), "get_full_name")
            and not code.co_name.startswith("_")
            and not wrapper
        ):
            names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            ids = [f"{n}={frame.f_locals.get(n)!r}" for n in names if n == "id" or n.endswith("_id")]
            found = f"{type(owner).__name__}.{code.co_name}({', '.join(ids)})"
        frame = frame.f_back
    return found


def deny(reason: str, target: object = "") -> None:
    """An authorization denial for the current actor (see `set_actor`).

    Args:
        reason: Why, in a few words (the refusal's message or a guard's name).
        target: The object refused, e.g. 'job:42' or a raw client-sent id (cleaned and capped).
    """
    actor = current_actor()
    what = handler_in_stack() or actor.handler or "unknown"
    log_event(
        "authz.denied",
        who=actor.who,
        what=what,
        where=actor.where,
        outcome="denied",
        target=target,
        reason=reason,
    )
