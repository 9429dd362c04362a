"""Who is calling, per event, without a join per event: session lookups cached while the session token holds.

Every event handler starts by resolving the session cookie to its user (states/auth.py
`_current_user`). That join of the session, its user and profile was a tenth of the server's time
under load (docs/performance.md); reading the session version token (services/accounts/session_version.py) is
one single-row SELECT, a fraction of it.

An entry holds the facts `services.accounts.sessions.lookup` read, keyed by the database and the token's
digest (never the raw token), under the session token read before that lookup. Triggers move that
token in the same commit as any logout, revocation, password change, account removal or deactivation, role or
e-mail change, or rename, in any process or worker, so a revoked session is refused at its very
next event everywhere. An entry is trusted only while its last recorded use is within
`sessions.TOUCH_INTERVAL` (a minute): after that the facts are read again, so the idle expiry is
decided on the database's `last_seen_at`, which other workers may have moved, and the use is
recorded as before. Unknown or refused tokens are never stored.
"""

from dataclasses import replace
from datetime import datetime

from sqlalchemy.engine import Connection, Engine

from core import db
from core.security import token_digest
from core.token_cache import TokenCache
from core.types import utcnow
from services.accounts import session_version, sessions
from services.accounts.sessions import CurrentUser, SessionFacts, Toucher

ENTRIES = 20_000  # about 300 bytes each: a few MB for the busiest worker
_cache = TokenCache(ENTRIES)


def who(
    token: str | None,
    touch: Toucher = sessions.touch_soon,
    engine: Engine | None = None,
    version: str | None = None,
) -> CurrentUser | None:
    """The user of a live session token, or None (what `sessions.resolve` answers), mostly from memory.

    Args:
        token: The raw session token from the cookie.
        touch: Records a use (the session's id, now) when TOUCH_INTERVAL has passed.
        engine: The database; the configured one when omitted.
        version: The session version token, when the caller read it just before (a live delivery
            checks many tabs against one read); read here when omitted.

    Returns:
        The caller, or None.
    """
    if not sessions.well_formed(token):
        return None
    digest = token_digest(token)  # type: ignore[arg-type]
    now = utcnow()
    engine = engine or db.get_engine()
    key = (engine.url.render_as_string(), digest)
    if version is not None and _trusted(cached := _cache.get(key, version), now):
        return sessions.admit(cached, now, touch)  # type: ignore[arg-type]
    with engine.connect() as connection:
        version, facts, cached = _read(connection, key, digest, now)
    if not cached:
        if facts is None or not facts.live(now):
            _cache.discard(key)
            return None
        _cache.put(key, version, replace(facts, last_seen_at=now) if facts.needs_touch(now) else facts)
    return sessions.admit(facts, now, touch)


def _read(
    connection: Connection, key: tuple, digest: str, now: datetime
) -> tuple[str | None, SessionFacts | None, bool]:
    """The version token, the session's facts, and whether the facts came from the cache.

    A token seen before costs the version read alone while its entry holds, and a lookup when it
    does not; a token not seen before, one statement for both.
    """
    if key not in _cache:
        return (*sessions.lookup_with_version(connection, digest), False)
    version = session_version.current(connection)  # before the lookup: a later write can only make it miss
    cached = _cache.get(key, version)
    if _trusted(cached, now):
        return version, cached, True  # type: ignore[return-value]
    return version, sessions.lookup(connection, digest), False


def _trusted(facts: object, now: datetime) -> bool:
    """Whether a cached entry may answer at `now` (live, and used within TOUCH_INTERVAL: no use to record)."""
    return isinstance(facts, SessionFacts) and facts.live(now) and not facts.needs_touch(now)


def current_version(engine: Engine | None = None) -> str | None:
    """The session version token now (one single-row read), for callers that check many tokens at once."""
    with (engine or db.get_engine()).connect() as connection:
        return session_version.current(connection)


def clear() -> None:
    """Forget every cached lookup (tests)."""
    _cache.clear()
