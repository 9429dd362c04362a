"""The session version token: changes in the same commit as anything that changes who a session token is.

`session_version` holds one row whose `token` database triggers (alembic revision 0008) replace
when a session ends or is changed (logout, 'sair de todos os dispositivos', a password change or
reset, the purge of expired sessions), and when a user's e-mail, role, activity or deletion, or
shown name (`profiles.nome`), changes. A new session (a login) and the once-a-minute refresh of
`last_seen_at` do not move it, so a busy site keeps its cache; `last_seen_at` set back (by an
operator or a test) does, since the cache trusts only a use it has seen itself. services/accounts/session_cache.py keys its
cache of session lookups on it (how version tokens work: core/version_token.py).

The trigger text lives here once; the migration keeps its own frozen copy, and a unit test checks
both match.
"""

from core.version_token import VersionToken
from models.auth import SessionVersion

_T = SessionVersion.__tablename__
_SESSION_COLUMNS = "user_id, token_hash, expires_at, remember"  # every column but last_seen_at
_USER_COLUMNS = "email, role, is_active, deleted_at"
_SEEN_BACKWARDS = ("AFTER UPDATE OF last_seen_at ON auth_sessions", "NEW.last_seen_at < OLD.last_seen_at")
TOKEN = VersionToken(
    SessionVersion,
    sqlite_triggers={
        f"{_T}_sessions_au": f"AFTER UPDATE OF {_SESSION_COLUMNS} ON auth_sessions",
        f"{_T}_sessions_ad": "AFTER DELETE ON auth_sessions",
        f"{_T}_sessions_back": _SEEN_BACKWARDS,
        f"{_T}_users_au": f"AFTER UPDATE OF {_USER_COLUMNS} ON users",
        f"{_T}_users_ad": "AFTER DELETE ON users",
        f"{_T}_profiles_ai": "AFTER INSERT ON profiles",
        f"{_T}_profiles_au": "AFTER UPDATE OF nome ON profiles",
        f"{_T}_profiles_ad": "AFTER DELETE ON profiles",
    },
    pg_triggers={
        f"{_T}_sessions": f"AFTER UPDATE OF {_SESSION_COLUMNS} OR DELETE ON auth_sessions",
        f"{_T}_sessions_back": _SEEN_BACKWARDS,
        f"{_T}_users": f"AFTER UPDATE OF {_USER_COLUMNS} OR DELETE ON users",
        f"{_T}_profiles": "AFTER INSERT OR UPDATE OF nome OR DELETE ON profiles",
    },
)
current = TOKEN.current
