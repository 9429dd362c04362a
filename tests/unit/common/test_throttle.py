"""Login throttling per account and per client address (services/common/throttle.py).

Counting is tested on both stores: the database (no Redis) and Redis (TEST_REDIS_URL; skipped
without it), each with two independent clients standing for two workers.

Attempts go through `session_scope()`, as the login endpoint calls the service: a refused login
rolls its transaction back, and the failure must still count.
"""

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool
from sqlmodel import Session, delete, select

from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import LoginAttempt, Role, User
from services.accounts import accounts
from services.common import throttle
from services.common.errors import ServiceError
from tests.unit.conftest import TEST_REDIS_URL, needs_redis

EMAIL = "ana@hotel.com.br"
PASSWORD = "Segura123"
WRONG = "Errada123"
ADDRESS = "198.51.100.10"
OTHER_ADDRESS = "198.51.100.99"


@pytest.fixture
def account(db) -> User:
    """A confirmed client account with PASSWORD."""
    user = User(email=EMAIL, password_hash=hash_password(PASSWORD), role=Role.CLIENT, email_confirmed_at=utcnow())
    db.add(user)
    db.commit()
    return user


def _attempt(password: str, email: str = EMAIL, address: str = ADDRESS) -> str:
    """Log in as the endpoint does; 'ok' or the refusal message."""
    try:
        with session_scope() as session:
            accounts.login(session, {"email": email, "password": password}, address)
    except ServiceError as exc:
        return exc.message
    return "ok"


def _fail(times: int, **kwargs) -> None:
    for _ in range(times):
        assert _attempt(WRONG, **kwargs) == accounts.INVALID_CREDENTIALS


def _age_attempts(db, minutes: int) -> None:
    for row in db.exec(select(LoginAttempt)).all():
        row.created_at = utcnow() - timedelta(minutes=minutes)
        db.add(row)
    db.commit()


def test_the_message_is_spec_text():
    assert throttle.THROTTLED == "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."


def test_sixth_attempt_after_five_failures_is_refused_even_with_the_right_password(db, account, settings):
    _fail(settings.login_max_failures)

    assert _attempt(PASSWORD) == throttle.THROTTLED
    assert _attempt(WRONG) == throttle.THROTTLED


def test_four_failures_still_let_the_right_password_in(db, account, settings):
    _fail(settings.login_max_failures - 1)

    assert _attempt(PASSWORD) == "ok"


def test_failures_are_counted_per_account_ignoring_case(db, account, settings):
    _fail(settings.login_max_failures, email=EMAIL.upper())

    assert _attempt(PASSWORD) == throttle.THROTTLED


def test_failures_for_an_unknown_account_are_throttled_the_same_way(db, settings):
    _fail(settings.login_max_failures, email="ninguem@hotel.com.br")

    assert _attempt(WRONG, email="ninguem@hotel.com.br") == throttle.THROTTLED


def test_account_throttle_holds_from_another_address(db, account, settings):
    _fail(settings.login_max_failures)

    assert _attempt(PASSWORD, address=OTHER_ADDRESS) == throttle.THROTTLED


def test_failures_older_than_the_window_do_not_count(db, account, settings):
    _fail(settings.login_max_failures)
    _age_attempts(db, settings.login_window_minutes + 1)

    assert _attempt(PASSWORD) == "ok"


def test_failures_inside_the_window_still_count(db, account, settings):
    _fail(settings.login_max_failures)
    _age_attempts(db, settings.login_window_minutes - 1)

    assert _attempt(PASSWORD) == throttle.THROTTLED


def test_per_address_limit_across_accounts(db, account, settings):
    for i in range(settings.login_max_failures_per_address):  # one failure per account: no account limit hit
        throttle.record_failure(db, f"tentativa{i}@hotel.com.br", ADDRESS)
    db.commit()

    assert _attempt(PASSWORD) == throttle.THROTTLED
    assert _attempt(PASSWORD, address=OTHER_ADDRESS) == "ok"


def test_per_address_limit_counts_failures_made_through_login(db, account, monkeypatch):
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", "3")
    get_settings.cache_clear()
    for i in range(3):
        _fail(1, email=f"outro{i}@hotel.com.br")

    assert _attempt(PASSWORD) == throttle.THROTTLED


def test_successes_do_not_count(db, account, settings):
    for _ in range(settings.login_max_failures + 3):
        assert _attempt(PASSWORD) == "ok"
    _fail(settings.login_max_failures - 1)

    assert _attempt(PASSWORD) == "ok"
    kinds = [row.succeeded for row in db.exec(select(LoginAttempt)).all()]
    assert kinds.count(True) == settings.login_max_failures + 4
    assert kinds.count(False) == settings.login_max_failures - 1


def test_unconfirmed_login_is_not_a_failure(db, settings):
    user = User(email=EMAIL, password_hash=hash_password(PASSWORD), role=Role.CLIENT)
    db.add(user)
    db.commit()

    for _ in range(settings.login_max_failures + 1):
        assert _attempt(PASSWORD) == accounts.NOT_CONFIRMED


def test_check_and_record_directly(db, settings):
    for _ in range(settings.login_max_failures - 1):
        throttle.record_failure(db, EMAIL, ADDRESS)
    throttle.check(db, EMAIL, ADDRESS)

    throttle.record_failure(db, EMAIL, ADDRESS)

    with pytest.raises(ServiceError) as caught:
        throttle.check(db, EMAIL, ADDRESS)
    assert caught.value.message == throttle.THROTTLED
    throttle.check(db, "outra@hotel.com.br", OTHER_ADDRESS)


def test_long_addresses_are_cut_to_the_column_size(db):
    throttle.record_failure(db, EMAIL, "a" * 500)
    db.commit()

    assert db.exec(select(LoginAttempt.address)).one() == "a" * 64


def _worker_counter(kind: str, engine, prefix: str) -> throttle.FailureCounter:
    """A counter with its own connection, as a separate worker process would have."""
    if kind == "redis":
        import redis

        return throttle.RedisCounter(redis.Redis.from_url(TEST_REDIS_URL, decode_responses=True), prefix)
    return throttle.DatabaseCounter(Session(create_engine(engine.url, poolclass=NullPool)))


@pytest.mark.parametrize("kind", ["database", pytest.param("redis", marks=needs_redis)])
def test_two_workers_share_one_count(db, engine, kind, request, settings):
    prefix = request.getfixturevalue("redis_throttle") if kind == "redis" else ""
    first, second = _worker_counter(kind, engine, prefix), _worker_counter(kind, engine, prefix)

    for worker in [first, second, first, second, first][: settings.login_max_failures]:
        with Session(create_engine(engine.url, poolclass=NullPool)) as own:
            own.add(LoginAttempt(email=EMAIL, address=ADDRESS, succeeded=False))
            own.commit()
        worker.add_failure(EMAIL, ADDRESS)

    assert first.failures(EMAIL, ADDRESS) == (settings.login_max_failures, settings.login_max_failures)
    assert second.failures(EMAIL, ADDRESS) == (settings.login_max_failures, settings.login_max_failures)
    assert second.failures("outra@hotel.com.br", OTHER_ADDRESS) == (0, 0)


@needs_redis
def test_with_redis_set_failures_are_counted_in_redis(db, account, settings, redis_throttle):
    import redis

    _fail(settings.login_max_failures)

    assert _attempt(PASSWORD) == throttle.THROTTLED
    client = redis.Redis.from_url(TEST_REDIS_URL, decode_responses=True)
    account_key = f"{redis_throttle}:account:{hashlib.sha256(EMAIL.encode()).hexdigest()}"
    assert client.get(account_key) == str(settings.login_max_failures)
    assert client.get(f"{redis_throttle}:address:{ADDRESS}") == str(settings.login_max_failures)
    assert 0 < client.ttl(account_key) <= settings.login_window_minutes * 60
    assert EMAIL not in " ".join(client.scan_iter(f"{redis_throttle}:*"))
    client.close()


@needs_redis
def test_with_redis_the_count_is_redis_not_the_database(db, account, settings, redis_throttle):
    _fail(settings.login_max_failures)
    db.exec(delete(LoginAttempt))
    db.commit()

    assert _attempt(PASSWORD) == throttle.THROTTLED


@needs_redis
def test_with_redis_an_expired_window_lets_the_account_in(db, account, settings, redis_throttle):
    import redis

    _fail(settings.login_max_failures)
    client = redis.Redis.from_url(TEST_REDIS_URL)
    for key in client.scan_iter(f"{redis_throttle}:*"):
        client.delete(key)  # what EXPIRE does when the window ends
    client.close()

    assert _attempt(PASSWORD) == "ok"


@needs_redis
def test_with_redis_the_address_limit_holds_across_accounts(db, account, monkeypatch, redis_throttle):
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", "3")
    get_settings.cache_clear()
    for i in range(3):
        _fail(1, email=f"outro{i}@hotel.com.br")

    assert _attempt(PASSWORD) == throttle.THROTTLED
    assert _attempt(PASSWORD, address=OTHER_ADDRESS) == "ok"


def test_redis_keys_of_two_deployments_differ():
    assert throttle.redis_prefix("postgresql://db:5432/turno") != throttle.redis_prefix("postgresql://db:5432/staging")
    assert throttle.redis_prefix("postgresql://u:a@db:5432/turno") == throttle.redis_prefix(
        "postgresql://v:b@db:5432/turno"
    )
