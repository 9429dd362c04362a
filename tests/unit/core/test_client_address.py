"""The client's address behind the reverse proxy (core/client_address.py), and the login limit keyed on it."""

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

from app.api import api
from core.client_address import client_address
from core.settings import get_settings
from models import LoginAttempt
from tests.support.factories import register_confirmed_company

PASSWORD = "Segura123"


@pytest.fixture
def proxy(monkeypatch):
    """The app behind deploy/Caddyfile: Caddy on 127.0.0.1 is the one trusted proxy."""
    monkeypatch.setenv("TRUSTED_PROXIES", "127.0.0.1, ::1")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def company(db):
    return register_confirmed_company(db, "ana@empresa.com", PASSWORD)


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("127.0.0.1", "203.0.113.7", "203.0.113.7"),  # through the proxy
        ("127.0.0.1", "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # a client-sent value before the proxy's
        ("127.0.0.1", "203.0.113.7, 127.0.0.1", "203.0.113.7"),  # two trusted hops
        ("::1", "2001:db8::5", "2001:db8::5"),
        ("127.0.0.1", "", "127.0.0.1"),  # the proxy itself (a health check)
        ("203.0.113.9", "10.0.0.1", "203.0.113.9"),  # straight to the app: the header is anyone's
        ("127.0.0.1", "not-an-ip", "not-an-ip"),
        ("", "203.0.113.7", "unknown"),
    ],
)
def test_the_client_is_the_nearest_hop_that_is_not_a_trusted_proxy(proxy, peer, forwarded, client):
    assert client_address(peer, forwarded) == client


def test_without_trusted_proxies_the_header_is_ignored(monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "")
    get_settings.cache_clear()

    assert client_address("127.0.0.1", "203.0.113.7") == "127.0.0.1"
    get_settings.cache_clear()


def _login(client: TestClient, email: str, password: str, forwarded: str):
    client.cookies.clear()
    return client.post(
        "/api/auth/login", json={"email": email, "password": password}, headers={"x-forwarded-for": forwarded}
    )


def test_an_attacker_behind_the_proxy_cannot_lock_out_other_visitors(db, proxy, company, monkeypatch):
    """30 failed logins with random e-mails from one address used to lock every visitor out: all came from 127.0.0.1."""
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", "5")
    get_settings.cache_clear()
    client = TestClient(api, base_url="http://turno.test", client=("127.0.0.1", 40000))
    for n in range(6):
        assert _login(client, f"ninguem{n}@x.com", "Errada123", "203.0.113.66").status_code == 400

    attacker = _login(client, "ana@empresa.com", PASSWORD, "203.0.113.66")
    visitor = _login(client, "ana@empresa.com", PASSWORD, "198.51.100.20")

    assert attacker.json()["message"] == "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
    assert visitor.status_code == 200 and visitor.json()["ok"] is True
    addresses = set(db.exec(select(LoginAttempt.address)).all())
    assert addresses == {"203.0.113.66", "198.51.100.20"}


def test_a_client_cannot_escape_the_address_limit_by_sending_the_header_itself(db, company, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "")
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", "3")
    get_settings.cache_clear()
    client = TestClient(api, base_url="http://turno.test", client=("203.0.113.66", 40000))
    for n in range(3):
        _login(client, f"ninguem{n}@x.com", "Errada123", f"198.51.100.{n}")

    answer = _login(client, "outra@x.com", "Errada123", "198.51.100.99")

    assert answer.json()["message"] == "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
    get_settings.cache_clear()
