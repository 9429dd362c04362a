"""Who is calling, from the session cache (services/accounts/session_cache.py) and its token (services/accounts/session_version.py).

The cache is only as right as the token: every write that ends a session or changes who it
belongs to must move it, in the same commit, whichever engine or process writes; a login and the
once-a-minute use refresh must not (or a busy site would never hit). Each case runs on SQLite and,
when configured, PostgreSQL; "another process" is a second engine on the same database.
"""

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool
from sqlmodel import Session, select, update

from core.security import token_digest
from core.types import utcnow
from models import AuthSession, Profile, Role, User
from services.accounts import session_cache, session_version, sessions
from tests.support.factories import make_company, make_freelancer
from tests.support.sql_log import sent_statements


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache (it is process-wide)."""
    session_cache.clear()
    yield
    session_cache.clear()


@pytest.fixture
def other(engine: Engine) -> Iterator[Engine]:
    """A second engine on the test database: another worker or process."""
    second = create_engine(engine.url.render_as_string(hide_password=False), poolclass=NullPool)
    yield second
    second.dispose()


class Touches:
    """A `touch` that records the uses it is asked to write (and writes nothing)."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, session_id: int, _now: datetime) -> None:
        self.calls.append(session_id)


def _login(db: Session, user: User, remember: bool = False) -> str:
    token, _ = sessions.create(db, user.id, remember=remember)
    db.commit()
    return token


def _version(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return session_version.current(conn)


def _who(engine: Engine, token: str | None, touch=None) -> sessions.CurrentUser | None:
    return session_cache.who(token, touch=touch or Touches(), engine=engine)


def _write(engine: Engine, sql: str, **params) -> None:
    """A committed write from `engine` (another process's)."""
    with engine.begin() as conn:
        conn.execute(text(sql), params)


def _set_last_seen(engine: Engine, when: datetime) -> None:
    """Every session's last use set to `when`, committed from `engine` (stored as the app stores it)."""
    with engine.begin() as conn:
        conn.execute(update(AuthSession).values(last_seen_at=when))


def test_a_live_session_is_answered_from_memory_after_its_first_lookup(db, engine):
    user = make_freelancer(db, nome="Ana Souza")
    token = _login(db, user)

    with sent_statements(engine) as first_sent:
        first = _who(engine, token)
    with sent_statements(engine) as sent:
        again = _who(engine, token)

    assert first == again == sessions.CurrentUser(id=user.id, role=Role.FREELANCER, email=user.email, name="Ana Souza")
    assert len(first_sent) == 1 and "auth_sessions" in first_sent[0], "token and facts in one statement"
    assert len(sent) == 1 and "auth_sessions" not in sent[0], "then only the version token is read"


def test_a_logout_in_another_process_refuses_the_session_at_its_next_event(db, engine, other):
    user = make_freelancer(db)
    token, kept = _login(db, user), _login(db, user)
    assert _who(engine, token) is not None and _who(engine, kept) is not None

    _write(other, "DELETE FROM auth_sessions WHERE token_hash = :h", h=token_digest(token))

    assert _who(engine, token) is None
    assert _who(engine, kept) is not None, "the user's other browser stays signed in"


def test_ending_every_session_of_a_user_refuses_each_of_them(db, engine):
    user = make_freelancer(db)
    tokens = [_login(db, user) for _ in range(3)]
    assert all(_who(engine, t) for t in tokens)

    sessions.revoke_all(db, user.id)
    db.commit()

    assert [_who(engine, t) for t in tokens] == [None, None, None]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("UPDATE users SET is_active = false WHERE id = :id", None),
        ("UPDATE users SET deleted_at = CURRENT_TIMESTAMP WHERE id = :id", None),
        ("UPDATE users SET role = 'client' WHERE id = :id", ("client", "Ana Souza")),
        ("UPDATE users SET email = 'nova@exemplo.com.br' WHERE id = :id", ("freelancer", "Ana Souza")),
        ("UPDATE profiles SET nome = 'Ana Lima' WHERE user_id = :id", ("freelancer", "Ana Lima")),
        ("DELETE FROM profiles WHERE user_id = :id", ("freelancer", "")),
    ],
    ids=["deactivated", "deleted", "role", "email", "renamed", "profile-removed"],
)
def test_a_change_to_who_the_session_is_shows_at_the_next_event(db, engine, other, sql, expected):
    user = make_freelancer(db, nome="Ana Souza")
    token = _login(db, user)
    assert _who(engine, token).name == "Ana Souza"

    _write(other, sql, id=user.id)

    current = _who(engine, token)
    assert (current.role, current.name) == expected if expected else current is None
    if current is not None and "email" in sql:
        assert current.email == "nova@exemplo.com.br"


def test_a_login_and_a_use_refresh_leave_the_token_and_the_cache_alone(db, engine, other):
    user, company = make_freelancer(db), make_company(db)
    token = _login(db, user)
    _who(engine, token)
    before = _version(engine)

    _login(db, company)
    _set_last_seen(other, utcnow() + timedelta(seconds=5))
    _write(other, "UPDATE profiles SET telefone = '81 99999-0000' WHERE user_id = :id", id=user.id)

    assert _version(engine) == before
    with sent_statements(engine) as sent:
        assert _who(engine, token) is not None
    assert len(sent) == 1


def test_a_rolled_back_revocation_moves_nothing(db, engine):
    user = make_freelancer(db)
    token = _login(db, user)
    _who(engine, token)
    before = _version(engine)

    sessions.revoke(db, token)
    db.flush()
    db.rollback()

    assert _version(engine) == before
    assert _who(engine, token) is not None


def test_an_entry_older_than_the_touch_interval_is_read_again_and_its_use_recorded(db, engine, monkeypatch):
    user = make_freelancer(db)
    token = _login(db, user)
    touches = Touches()
    _who(engine, token, touches)
    assert touches.calls == [], "a session used just now needs no write"

    later = utcnow() + sessions.TOUCH_INTERVAL + timedelta(seconds=1)
    monkeypatch.setattr(session_cache, "utcnow", lambda: later)
    with sent_statements(engine) as sent:
        assert _who(engine, token, touches) is not None
        assert _who(engine, token, touches) is not None

    assert len(touches.calls) == 1, "recorded once, then trusted for another interval"
    assert sum("auth_sessions" in statement for statement in sent) == 1


def test_the_idle_expiry_is_decided_on_the_database_and_not_on_the_cached_use(db, engine, other, monkeypatch):
    user = make_freelancer(db)
    token = _login(db, user)
    _who(engine, token)
    idle = sessions.idle_limit(remember=False)

    # Another worker kept the session in use: the database's last use is recent, this cache's old.
    later = utcnow() + idle + timedelta(minutes=5)
    _set_last_seen(other, later - timedelta(minutes=1))
    monkeypatch.setattr(session_cache, "utcnow", lambda: later)
    assert _who(engine, token) is not None

    much_later = later + idle + timedelta(minutes=1)
    monkeypatch.setattr(session_cache, "utcnow", lambda: much_later)
    assert _who(engine, token) is None


def test_a_last_use_set_back_moves_the_token_and_ends_an_idle_session(db, engine, other):
    user = make_freelancer(db)
    token = _login(db, user)
    _who(engine, token)
    before = _version(engine)

    _set_last_seen(other, utcnow() - timedelta(days=1))

    assert _version(engine) != before
    assert _who(engine, token) is None


def test_an_expired_session_is_refused_even_when_cached(db, engine, monkeypatch):
    user = make_freelancer(db)
    token = _login(db, user)
    _who(engine, token)
    expires = db.exec(select(AuthSession.expires_at)).one()

    monkeypatch.setattr(session_cache, "utcnow", lambda: expires + timedelta(seconds=1))

    assert _who(engine, token) is None


@pytest.mark.parametrize("token", [None, "", "x" * 201, "nao-existe"])
def test_unknown_or_malformed_tokens_are_refused_and_never_stored(db, engine, token):
    make_freelancer(db)
    assert _who(engine, token) is None
    assert _who(engine, token) is None
    assert len(session_cache._cache) == 0


def test_the_session_triggers_in_the_migration_are_the_ones_in_core(db, engine):
    def catalog() -> list[str]:
        if engine.dialect.name == "sqlite":
            query = (
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'session_version%' ORDER BY name"
            )
        else:
            query = (
                "SELECT pg_get_triggerdef(oid) || ' ' || pg_get_functiondef(tgfoid) FROM pg_trigger "
                "WHERE tgname LIKE 'session_version%' AND NOT tgisinternal ORDER BY tgname"
            )
        return list(db.exec(text(query)).scalars())

    migrated = catalog()
    db.commit()
    with engine.begin() as conn:
        for statement in session_version.TOKEN.drop_ddl(conn.dialect.name) + session_version.TOKEN.trigger_ddl(
            conn.dialect.name
        ):
            conn.exec_driver_sql(statement)

    assert catalog() == migrated and len(migrated) >= 3


def test_a_profile_created_after_login_names_the_user(db, engine):
    user = User(email="novo@exemplo.com.br", password_hash="x", role=Role.FREELANCER)
    db.add(user)
    db.commit()
    token = _login(db, user)
    assert _who(engine, token).name == ""

    db.add(Profile(user_id=user.id, tipo_usuario=Role.FREELANCER, nome="Bruno Alves"))
    db.commit()

    assert _who(engine, token).name == "Bruno Alves"
