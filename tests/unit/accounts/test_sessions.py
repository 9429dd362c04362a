"""Server-side login sessions (services/accounts/sessions.py): tokens, idle and absolute expiry, revocation.

The end-to-end part takes an old session cookie through each way a session ends (logout, login
rotation, password change, reset, account deletion, idle and absolute expiry) and then uses it
again both over HTTP (the data-export route) and on a state handler: it is a visitor each time.
"""

import base64
import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import event
from sqlmodel import select
from starlette.testclient import TestClient

from app.api import api
from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, OutboxEmail, Profile, Role, User
from services.accounts import accounts, sessions
from services.privacy import privacy
from states.auth import AuthState
from states.settings import SettingsState
from tests.support.state_harness import cookie_for, run, state_for, toasts

PASSWORD = "Segura123"
NEW_PASSWORD = "NovaSenha456"


def _user(db, email="ana@hotel.com.br", name="Ana Souza", role=Role.CLIENT) -> User:
    user = User(email=email, password_hash=hash_password(PASSWORD), role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, nome=name))
    db.commit()
    return user


def _open(db, user: User, remember: bool = False) -> str:
    token, _ = sessions.create(db, user.id, remember=remember)
    db.commit()
    return token


def test_token_is_random_with_at_least_128_bits_and_only_its_sha256_is_stored(db):
    user = _user(db)

    tokens = [_open(db, user) for _ in range(20)]

    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128
    rows = db.exec(select(AuthSession)).all()
    assert {row.token_hash for row in rows} == {hashlib.sha256(t.encode()).hexdigest() for t in tokens}
    for row in rows:
        assert all(token not in str(value) for token in tokens for value in row.model_dump().values())


def test_resolve_returns_the_user_of_a_live_session(db):
    user = _user(db)
    token = _open(db, user)

    current = sessions.resolve(db, token)

    assert current == sessions.CurrentUser(id=user.id, role=Role.CLIENT, email="ana@hotel.com.br", name="Ana Souza")


def test_resolve_works_without_a_profile(db):
    user = User(email="semperfil@hotel.com.br", password_hash="x", role=Role.FREELANCER)
    db.add(user)
    db.commit()

    current = sessions.resolve(db, _open(db, user))

    assert current is not None
    assert current.name == ""


@pytest.mark.parametrize("token", [None, "", "desconhecido", "x" * 1000])
def test_resolve_is_none_for_missing_or_unknown_tokens(db, token):
    _open(db, _user(db))

    assert sessions.resolve(db, token) is None


def test_resolve_is_none_for_an_expired_session(db):
    token = _open(db, _user(db))
    row = db.exec(select(AuthSession)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()

    assert sessions.resolve(db, token) is None


@pytest.mark.parametrize("change", ["deleted", "inactive"])
def test_resolve_is_none_for_a_deleted_or_inactive_user(db, change):
    user = _user(db)
    token = _open(db, user)
    if change == "deleted":
        user.deleted_at = utcnow()
    else:
        user.is_active = False
    db.add(user)
    db.commit()

    assert sessions.resolve(db, token) is None


def test_resolve_is_none_once_the_user_row_is_gone(db):
    user = _user(db)
    token = _open(db, user)
    db.delete(db.get(Profile, user.id))
    db.delete(user)
    db.commit()

    assert sessions.resolve(db, token) is None


def test_revoke_ends_only_that_session(db):
    user = _user(db)
    kept, ended = _open(db, user), _open(db, user)

    sessions.revoke(db, ended)
    db.commit()

    assert sessions.resolve(db, ended) is None
    assert sessions.resolve(db, kept) is not None


@pytest.mark.parametrize("token", [None, "", "desconhecido"])
def test_revoke_of_nothing_is_harmless(db, token):
    live = _open(db, _user(db))

    sessions.revoke(db, token)
    db.commit()

    assert sessions.resolve(db, live) is not None


def test_revoke_all_ends_every_session_of_that_user_only(db):
    ana, joao = _user(db), _user(db, "joao@exemplo.com", "João", Role.FREELANCER)
    ana_tokens = [_open(db, ana), _open(db, ana, remember=True)]
    joao_token = _open(db, joao)

    sessions.revoke_all(db, ana.id)
    db.commit()

    assert [sessions.resolve(db, t) for t in ana_tokens] == [None, None]
    assert sessions.resolve(db, joao_token).id == joao.id


@pytest.mark.parametrize(("remember", "max_age"), [(True, 30 * 24 * 3600), (False, None)])
def test_create_gives_the_cookie_max_age(db, remember, max_age):
    _, got = sessions.create(db, _user(db).id, remember=remember)

    assert got == max_age


def test_purge_expired_removes_only_expired_sessions(db):
    user = _user(db)
    live = _open(db, user)
    _open(db, user)
    _open(db, user)
    for row in db.exec(select(AuthSession).order_by(AuthSession.id)).all()[1:]:
        row.expires_at = utcnow() - timedelta(minutes=1)
        db.add(row)
    db.commit()

    removed = sessions.purge_expired(db)
    db.commit()

    assert removed == 2
    assert sessions.resolve(db, live) is not None


def _set_times(db, token: str, **times) -> None:
    """Move a session's `last_seen_at` / `expires_at` (relative timedeltas from now)."""
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hashlib.sha256(token.encode()).hexdigest())).one()
    for name, delta in times.items():
        setattr(row, name, utcnow() + delta)
    db.add(row)
    db.commit()


@pytest.mark.parametrize(
    ("remember", "unused", "alive"),
    [
        (False, timedelta(minutes=119), True),
        (False, timedelta(minutes=121), False),
        (True, timedelta(days=6), True),
        (True, timedelta(days=7, minutes=1), False),
    ],
    ids=["browser-119min", "browser-121min", "remember-6d", "remember-7d"],
)
def test_an_idle_session_ends_after_its_idle_limit(db, settings, remember, unused, alive):
    assert (settings.session_idle_minutes, settings.remember_idle_days) == (120, 7)
    token = _open(db, _user(db), remember=remember)
    _set_times(db, token, last_seen_at=-unused)

    assert (sessions.resolve(db, token) is not None) is alive


def test_using_a_session_restarts_its_idle_clock(db):
    token = _open(db, _user(db))
    _set_times(db, token, last_seen_at=-timedelta(minutes=119))

    assert sessions.resolve(db, token) is not None
    db.commit()

    assert db.exec(select(AuthSession.last_seen_at)).one() > utcnow() - timedelta(minutes=1)


@contextmanager
def _session_writes(engine) -> Iterator[list[int]]:
    """Collect the rows changed by each UPDATE sent to auth_sessions while the block runs."""
    updates: list[int] = []

    def count(_conn, cursor, statement, *_args) -> None:
        if statement.lstrip().upper().startswith("UPDATE AUTH_SESSIONS"):
            updates.append(cursor.rowcount)

    event.listen(engine, "after_cursor_execute", count)
    try:
        yield updates
    finally:
        event.remove(engine, "after_cursor_execute", count)


def test_a_handler_records_the_use_of_its_session_in_the_background_once(db, engine):
    token = _open(db, _user(db))
    _set_times(db, token, last_seen_at=-timedelta(minutes=30))

    with _session_writes(engine) as updates:
        for _ in range(20):
            with session_scope() as fresh:
                assert sessions.resolve(fresh, token, touch=sessions.touch_soon) is not None
        sessions.touches_done()

    # One write records the use. A use whose read came just before that write committed may send
    # a second, conditional UPDATE after it: that one finds the row already fresh and changes nothing.
    assert updates[:1] == [1] and not any(updates[1:]), updates
    db.commit()
    assert db.exec(select(AuthSession.last_seen_at)).one() > utcnow() - timedelta(minutes=1)


def test_last_seen_is_written_at_most_once_a_minute(db, engine):
    token = _open(db, _user(db))
    _set_times(db, token, last_seen_at=-timedelta(seconds=90))

    with _session_writes(engine) as updates:
        for _ in range(50):
            with session_scope() as fresh:
                assert sessions.resolve(fresh, token) is not None

    assert updates == [1]


def test_absolute_expiry_holds_however_busy_the_session_is(db):
    token = _open(db, _user(db), remember=True)
    _set_times(db, token, expires_at=-timedelta(seconds=1), last_seen_at=timedelta(0))

    assert sessions.resolve(db, token) is None


def test_purge_expired_removes_idle_sessions_too(db):
    user = _user(db)
    live, idle_browser, idle_remembered = _open(db, user), _open(db, user), _open(db, user, remember=True)
    _set_times(db, idle_browser, last_seen_at=-timedelta(minutes=121))
    _set_times(db, idle_remembered, last_seen_at=-timedelta(days=8))

    assert sessions.purge_expired(db) == 2
    db.commit()
    assert sessions.resolve(db, live) is not None


def _http_login(client: TestClient, email: str, password: str = PASSWORD, cookie: str = ""):
    client.cookies.clear()
    return client.post(
        "/api/auth/login", json={"email": email, "password": password}, headers={"cookie": cookie} if cookie else {}
    )


def _cookie_of(response) -> str:
    match = re.match(rf"({get_settings().session_cookie_name}=[^;]+)", response.headers["set-cookie"])
    assert match, response.headers.get("set-cookie")
    return match.group(1)


def _end_by_logout(client, db, user, old):
    client.cookies.clear()
    assert client.post("/api/auth/logout", headers={"cookie": old}).status_code == 200


def _end_by_login_again(client, db, user, old):
    new = _cookie_of(_http_login(client, user.email, cookie=old))
    assert new != old
    return new


def _end_by_password_change(client, db, user, old):
    changer = cookie_for(db, user)
    events = run(
        state_for(SettingsState, changer, "/client-dashboard"),
        SettingsState.change_password,
        {"current": PASSWORD, "new": NEW_PASSWORD, "confirm": NEW_PASSWORD},
    )
    assert toasts(events) == ["success: Senha alterada! | A outra sessão aberta foi encerrada."]
    return changer


def _end_by_reset(client, db, user, old):
    accounts.request_password_reset(db, {"email": user.email})
    db.commit()
    body = db.exec(select(OutboxEmail.body).order_by(OutboxEmail.id.desc())).first()
    token = re.search(r"reset-password\?token=([\w-]+)", body).group(1)
    accounts.reset_password(db, token, {"password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    db.commit()


def _end_by_deletion(client, db, user, old):
    privacy.delete_account(db, user.id, PASSWORD)
    db.commit()


def _end_by_idle_time(client, db, user, old):
    _set_times(db, old.split("=", 1)[1], last_seen_at=-timedelta(minutes=121))


def _end_by_absolute_expiry(client, db, user, old):
    _set_times(db, old.split("=", 1)[1], expires_at=-timedelta(seconds=1), last_seen_at=timedelta(0))


ENDINGS: dict[str, Callable] = {
    "logout": _end_by_logout,
    "login-rotation": _end_by_login_again,
    "password-change": _end_by_password_change,
    "password-reset": _end_by_reset,
    "account-deletion": _end_by_deletion,
    "idle": _end_by_idle_time,
    "absolute-expiry": _end_by_absolute_expiry,
}


def _export_status(client: TestClient, cookie: str) -> int:
    client.cookies.clear()
    return client.get("/api/account/export", headers={"cookie": cookie}).status_code


def _signed_in_on_a_handler(cookie: str) -> bool:
    state = state_for(AuthState, cookie, "/client-dashboard")
    run(state, AuthState.load_session)
    return state.signed_in


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_an_ended_sessions_old_cookie_is_a_visitor_again(db, ending):
    user = _user(db)
    client = TestClient(api, base_url="http://turno.test")
    old = _cookie_of(_http_login(client, user.email))
    assert _export_status(client, old) == 200
    assert _signed_in_on_a_handler(old) is True

    survivor = ending(client, db, user, old)

    assert _export_status(client, old) == 401
    assert _signed_in_on_a_handler(old) is False
    with session_scope() as fresh:
        assert sessions.resolve(fresh, old.split("=", 1)[1]) is None
    if survivor is not None:  # a new login, or the browser that changed the password
        assert _export_status(client, survivor) == 200
        assert _signed_in_on_a_handler(survivor) is True


def test_login_with_another_accounts_cookie_revokes_that_session(db):
    ana, joao = _user(db), _user(db, "joao@exemplo.com", "João", Role.FREELANCER)
    client = TestClient(api, base_url="http://turno.test")
    anas = _cookie_of(_http_login(client, ana.email))

    joaos = _cookie_of(_http_login(client, joao.email, cookie=anas))

    assert _export_status(client, anas) == 401
    assert _export_status(client, joaos) == 200
    assert db.exec(select(AuthSession.user_id)).all() == [joao.id]


def test_a_failed_login_leaves_the_current_session_alone(db):
    user = _user(db)
    client = TestClient(api, base_url="http://turno.test")
    current = _cookie_of(_http_login(client, user.email))

    assert _http_login(client, user.email, password="Errada123", cookie=current).status_code == 400

    assert _export_status(client, current) == 200


OTHER_APPS_COOKIES = [
    'consent={"ads":false}',  # a JSON value, as consent banners store it
    "theme=dark mode",  # a space
    'note="unterminated',  # a lone quote
    "flags=a,b;;empty=",  # commas, an empty pair and an empty value
    "ünïcode=çà",  # non-ASCII name and value
]


@pytest.mark.parametrize("other", OTHER_APPS_COOKIES)
@pytest.mark.parametrize("position", ["before", "after"])
def test_another_apps_odd_cookie_does_not_hide_the_session_cookie(db, other, position):
    """A cookie set by another app on the same host cannot sign the user out (SimpleCookie dropped the header)."""
    cookie = cookie_for(db, _user(db))
    header = f"{other}; {cookie}" if position == "before" else f"{cookie}; {other}"

    assert _signed_in_on_a_handler(header) is True


def test_a_header_of_odd_cookies_alone_is_a_visitor(db):
    assert _signed_in_on_a_handler("; ".join(OTHER_APPS_COOKIES)) is False
