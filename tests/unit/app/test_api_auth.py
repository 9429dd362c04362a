"""The HTTP login/logout routes: cookie flags, same-origin check, answers and session revocation."""

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

from app.api import api
from core.settings import get_settings
from models import AuthSession
from tests.support.factories import register_confirmed_company

PASSWORD = "Segura123"


def set_cookie(response, name: str) -> str:
    """The Set-Cookie header of one cookie (a login sets two: the session and the trusted device)."""
    found = [h for h in response.headers.get_list("set-cookie") if h.startswith(f"{name}=")]
    assert len(found) == 1, response.headers.get_list("set-cookie")
    return found[0]


@pytest.fixture
def client(db):
    return TestClient(api, base_url="http://turno.test")


@pytest.fixture
def company(db):
    return register_confirmed_company(db, "ana@empresa.com", PASSWORD)


def test_login_sets_an_httponly_lax_cookie_and_redirects_by_role(client, company, db):
    response = client.post("/api/auth/login", json={"email": "ana@empresa.com", "password": PASSWORD})
    assert response.status_code == 200
    assert response.json() == {"ok": True, "redirect": "/client-dashboard"}
    cookie = set_cookie(response, get_settings().session_cookie_name)
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    assert "Secure" not in cookie
    assert "Max-Age" not in cookie
    assert db.exec(select(AuthSession)).all()


def test_remember_me_makes_the_cookie_persistent(client, company):
    response = client.post("/api/auth/login", json={"email": "ana@empresa.com", "password": PASSWORD, "remember": "on"})
    assert f"Max-Age={get_settings().remember_days * 86400}" in set_cookie(response, "turno_session")


@pytest.mark.parametrize(("app_env", "secure"), [("development", False), ("test", False), ("production", True)])
def test_cookie_attributes_from_the_set_cookie_header(client, company, monkeypatch, app_env, secure):
    monkeypatch.setenv("APP_ENV", app_env)
    get_settings.cache_clear()
    response = client.post("/api/auth/login", json={"email": "ana@empresa.com", "password": PASSWORD})

    name_value, *attributes = [part.strip() for part in set_cookie(response, "turno_session").split(";")]
    flags = {attribute.split("=")[0].lower(): attribute for attribute in attributes}
    assert name_value.split("=", 1)[0] == "turno_session"
    assert len(name_value.split("=", 1)[1]) >= 43  # 32 random bytes, URL-safe base64
    assert flags["httponly"] == "HttpOnly"
    assert flags["samesite"].lower() == "samesite=lax"
    assert flags["path"] == "Path=/"
    assert ("secure" in flags) is secure


def test_wrong_password_answers_400_with_the_spec_message_and_no_cookie(client, company):
    response = client.post("/api/auth/login", json={"email": "ana@empresa.com", "password": "Errada123"})
    assert response.status_code == 400
    assert response.json()["message"] == "Email ou senha incorretos."
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"", b'{"email": 5, "password": null}'])
def test_malformed_bodies_get_field_messages_not_errors(client, body):
    response = client.post("/api/auth/login", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"email": "Email inválido", "password": "Senha é obrigatória"}


def test_cross_site_post_is_refused(client, company, db):
    response = client.post(
        "/api/auth/login",
        json={"email": "ana@empresa.com", "password": PASSWORD},
        headers={"origin": "https://evil.example"},
    )
    assert response.status_code == 403
    assert db.exec(select(AuthSession)).all() == []


def test_logout_revokes_the_session_and_deletes_the_cookie(client, company, db):
    client.post("/api/auth/login", json={"email": "ana@empresa.com", "password": PASSWORD})
    response = client.post("/api/auth/logout")
    assert response.status_code == 200
    assert 'turno_session=""' in response.headers["set-cookie"] or "Max-Age=0" in response.headers["set-cookie"]
    db.expire_all()
    assert db.exec(select(AuthSession)).all() == []


def test_lone_surrogates_in_the_password_are_dropped_as_at_registration(client, company):
    """JSON's '\\udfff' escapes reach the route as unencodable text; they are dropped like control characters."""
    body = b'{"email": "ana@empresa.com", "password": "Segura123\\ud800"}'
    response = client.post("/api/auth/login", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert response.json()["redirect"] == "/client-dashboard"

    body = b'{"email": "ana@empresa.com", "password": "\\udfff\\ud800"}'
    response = client.post("/api/auth/login", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"password": "Senha é obrigatória"}
