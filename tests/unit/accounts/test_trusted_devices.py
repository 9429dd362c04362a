"""Trusted devices (services/accounts/devices.py): strangers' failures cannot lock out a browser that signed in before.

Each lockout a stranger can trigger (five failures on the account, thirty from one shared address)
is first shown to refuse an unknown browser with the right password (the control), and then shown
not to refuse the browser holding the account's device cookie. The trusted browser still has a
limit of its own. Counting runs on both stores: the database and Redis (TEST_REDIS_URL).
"""

import hashlib
from datetime import timedelta

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

from app.api import api
from core.db import session_scope
from core.settings import get_settings
from core.types import utcnow
from models import LoginAttempt, TokenPurpose, TrustedDevice, User
from services.accounts import accounts, devices
from services.common import throttle
from services.common.errors import ServiceError, ValidationFailed
from services.privacy import data_export, privacy
from tests.support.factories import register_confirmed_company
from tests.unit.conftest import needs_redis

EMAIL = "ana@bistro.com.br"
OTHER_EMAIL = "bia@bistro.com.br"
PASSWORD = "Segura123"
WRONG = "Errada123"
SHARED = "198.51.100.30"  # a hotel's Wi-Fi: the user and the attacker come from one address
ELSEWHERE = "203.0.113.40"


@pytest.fixture(params=["database", pytest.param("redis", marks=needs_redis)])
def store(request, db) -> str:
    """Where failures are counted: the database, or Redis when the test runs with TEST_REDIS_URL."""
    if request.param == "redis":
        request.getfixturevalue("redis_throttle")
    return request.param


@pytest.fixture
def account(db) -> User:
    return register_confirmed_company(db, EMAIL, PASSWORD)


def _login(
    password: str, device: str | None = None, email: str = EMAIL, address: str = SHARED
) -> accounts.LoginResult | str:
    """Log in as the route does: the result, or the refusal's message."""
    try:
        with session_scope() as session:
            return accounts.login(session, {"email": email, "password": password}, address, "", device)
    except ServiceError as exc:
        return exc.message


def _device_of(email: str = EMAIL) -> str:
    """Sign in once from a new browser and return the device token it was given."""
    result = _login(PASSWORD, email=email, address=ELSEWHERE)
    assert isinstance(result, accounts.LoginResult), result
    return result.device_token


def _strangers_fail(times: int, email_of=lambda n: f"chute{n}@exemplo.com", address: str = SHARED) -> None:
    for n in range(times):
        assert _login(WRONG, email=email_of(n), address=address) == accounts.INVALID_CREDENTIALS


def test_a_login_gives_a_device_token_that_is_stored_only_as_its_hash(db, account, settings):
    token = _device_of()

    row = db.exec(select(TrustedDevice)).one()
    assert len(token) >= 43
    assert row.user_id == account.id
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {row.token_hash, str(row.id)}
    assert (
        timedelta(days=settings.device_trust_days - 1)
        < row.expires_at - utcnow()
        <= timedelta(days=settings.device_trust_days)
    )


def test_signing_in_again_from_the_same_browser_renews_its_device(db, account):
    token = _device_of()
    first = db.exec(select(TrustedDevice)).one()
    first.expires_at = utcnow() + timedelta(days=1)
    db.add(first)
    db.commit()

    again = _login(PASSWORD, token)

    db.expire_all()
    row = db.exec(select(TrustedDevice)).one()
    assert again.device_token == token
    assert row.expires_at > utcnow() + timedelta(days=2)


def test_thirty_strangers_on_the_shared_address_cannot_lock_out_a_browser_that_signed_in_before(
    account, store, settings
):
    token = _device_of()
    _strangers_fail(settings.login_max_failures_per_address)

    assert _login(PASSWORD) == throttle.THROTTLED  # control: an unknown browser at the address is locked out
    assert isinstance(_login(PASSWORD, token), accounts.LoginResult)


def test_five_failures_on_the_account_cannot_lock_out_a_browser_that_signed_in_before(account, store, settings):
    token = _device_of()
    _strangers_fail(settings.login_max_failures, email_of=lambda _n: EMAIL, address=ELSEWHERE)

    assert _login(PASSWORD) == throttle.THROTTLED  # control: the account is locked for unknown browsers
    assert isinstance(_login(PASSWORD, token), accounts.LoginResult)


def test_a_trusted_browser_has_its_own_limit_and_its_failures_lock_unknown_browsers_too(account, store, settings):
    token = _device_of()
    for _ in range(settings.login_max_failures):
        assert _login(WRONG, token) == accounts.INVALID_CREDENTIALS

    assert _login(PASSWORD, token) == throttle.THROTTLED
    assert _login(PASSWORD, address=ELSEWHERE) == throttle.THROTTLED  # no extra guesses from another browser


def test_a_trusted_browsers_failures_do_not_count_against_its_address(account, store, settings, monkeypatch):
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", str(settings.login_max_failures - 1))
    get_settings.cache_clear()
    token = _device_of()
    for _ in range(settings.login_max_failures - 1):
        assert _login(WRONG, token) == accounts.INVALID_CREDENTIALS

    assert (
        _login(WRONG, email=OTHER_EMAIL) == accounts.INVALID_CREDENTIALS
    )  # the address has room: trusted failures were not its


def test_a_device_of_another_account_exempts_nothing(db, account, store, settings):
    register_confirmed_company(db, OTHER_EMAIL, PASSWORD)
    others = _device_of(OTHER_EMAIL)
    _strangers_fail(settings.login_max_failures, email_of=lambda _n: EMAIL, address=ELSEWHERE)

    assert _login(PASSWORD, others) == throttle.THROTTLED


@pytest.mark.parametrize("case", ["forged", "expired", "oversized", "deleted account"])
def test_a_forged_expired_oversized_or_orphaned_device_token_exempts_nothing(db, account, store, settings, case):
    token = _device_of()
    if case == "forged":
        token = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    elif case == "expired":
        row = db.exec(select(TrustedDevice)).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        db.add(row)
        db.commit()
    elif case == "oversized":
        token = token * 10
    else:
        user = db.get(User, account.id)
        user.deleted_at = utcnow()
        db.add(user)
        db.commit()
    _strangers_fail(settings.login_max_failures, email_of=lambda _n: EMAIL, address=ELSEWHERE)

    assert _login(PASSWORD, token) == throttle.THROTTLED


def test_a_password_reset_ends_the_trust_of_every_browser(db, account, settings):
    token = _device_of()
    reset = accounts._issue_token(db, account, TokenPurpose.RESET_PASSWORD, timedelta(hours=1))
    db.commit()

    accounts.reset_password(db, reset, {"password": "Nova12345", "confirmPassword": "Nova12345"})
    db.commit()
    _strangers_fail(settings.login_max_failures, email_of=lambda _n: EMAIL, address=ELSEWHERE)

    assert db.exec(select(TrustedDevice)).all() == []
    assert _login("Nova12345", token) == throttle.THROTTLED


def test_deleting_the_account_deletes_its_devices_and_the_export_lists_them_without_tokens(db, account):
    token = _device_of()
    exported = data_export.export_user_data(db, account.id)["dispositivos_confiaveis"]
    assert len(exported) == 1 and set(exported[0]) == {"criado_em", "usado_em", "expira_em"}
    assert token not in str(exported) and hashlib.sha256(token.encode()).hexdigest() not in str(exported)

    privacy.delete_account(db, account.id, PASSWORD, ELSEWHERE)
    db.commit()

    assert db.exec(select(TrustedDevice)).all() == []


def test_strangers_cannot_lock_a_signed_in_user_out_of_changing_the_password_or_deleting_the_account(
    db, account, store, settings
):
    _strangers_fail(settings.login_max_failures_per_address)
    _strangers_fail(settings.login_max_failures, email_of=lambda _n: EMAIL, address=ELSEWHERE)
    assert _login(PASSWORD) == throttle.THROTTLED  # control

    with session_scope() as session:
        accounts.change_password(
            session, account.id, {"current": PASSWORD, "new": "Nova12345", "confirm": "Nova12345"}, None, SHARED
        )
    db.expire_all()
    privacy.delete_account(db, account.id, "Nova12345", SHARED)
    db.commit()
    assert db.get(User, account.id).deleted_at is not None


def test_a_signed_in_session_still_has_a_limit_on_the_current_password(db, account, store, settings):
    form = {"current": WRONG, "new": "Nova12345", "confirm": "Nova12345"}
    for _ in range(settings.login_max_failures):
        with pytest.raises(ValidationFailed), session_scope() as session:
            accounts.change_password(session, account.id, form, None, SHARED)

    with pytest.raises(ServiceError) as refused, session_scope() as session:
        accounts.change_password(session, account.id, {**form, "current": PASSWORD}, None, SHARED)
    assert refused.value.message == throttle.THROTTLED
    assert db.exec(select(LoginAttempt.trusted).where(LoginAttempt.succeeded.is_(False))).all() == [True] * 5


# Over HTTP, as a browser does: the cookie is set by the login route and sent back by the browser.


def _set_cookie(response, name: str) -> str:
    found = [h for h in response.headers.get_list("set-cookie") if h.startswith(f"{name}=")]
    assert len(found) == 1, response.headers.get_list("set-cookie")
    return found[0]


def test_the_login_route_sets_an_httponly_device_cookie_sent_back_only_to_the_auth_routes(db, account, settings):
    response = TestClient(api, base_url="http://turno.test").post(
        "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}
    )

    name_value, *attributes = [part.strip() for part in _set_cookie(response, settings.device_cookie_name).split(";")]
    flags = {attribute.split("=")[0].lower(): attribute for attribute in attributes}
    assert name_value.split("=", 1)[1] and flags["httponly"] == "HttpOnly"
    assert flags["path"] == "Path=/api/auth"
    assert flags["samesite"].lower() == "samesite=lax"
    assert flags["max-age"] == f"Max-Age={settings.device_trust_days * 86400}"


def test_through_the_routes_the_browser_that_signed_in_before_gets_in_and_a_new_one_is_locked_out(
    db, account, settings
):
    own_browser = TestClient(api, base_url="http://turno.test")
    assert own_browser.post("/api/auth/login", json={"email": EMAIL, "password": PASSWORD}).json()["ok"]
    own_browser.post("/api/auth/logout")
    attacker = TestClient(api, base_url="http://turno.test")  # same address: the test client's
    for n in range(settings.login_max_failures_per_address):
        attacker.post("/api/auth/login", json={"email": f"chute{n}@exemplo.com", "password": WRONG})
    for _ in range(settings.login_max_failures):
        attacker.post("/api/auth/login", json={"email": EMAIL, "password": WRONG})

    new_browser = TestClient(api, base_url="http://turno.test").post(
        "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}
    )
    returning = own_browser.post("/api/auth/login", json={"email": EMAIL, "password": PASSWORD})

    assert new_browser.json()["message"] == throttle.THROTTLED
    assert returning.json() == {"ok": True, "redirect": "/client-dashboard"}


def test_the_device_helpers_ignore_what_is_not_a_token(db, account):
    assert devices.trusted_for(db, None, EMAIL) is None
    assert devices.trusted_for(db, "", EMAIL) is None
    assert devices.trusted_for(db, 12345, EMAIL) is None
