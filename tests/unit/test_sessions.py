"""Server-side login sessions (services/sessions.py)."""

import base64
import hashlib
from datetime import timedelta

import pytest
from sqlmodel import select

from core.security import hash_password
from core.types import utcnow
from models import AuthSession, Profile, Role, User
from services import sessions


def _user(db, email="ana@hotel.com.br", name="Ana Souza", role=Role.CLIENT) -> User:
    user = User(email=email, password_hash=hash_password("Segura123"), role=role, email_confirmed_at=utcnow())
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
