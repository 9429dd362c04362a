"""SITE_URL: set, it is the origin of every link; unset, links follow the port the app is served on.

`PORT=8080 make run` without SITE_URL used to mail links to :3000, so the confirmation link was dead.
"""

import pytest
from sqlmodel import select

from core.settings import Settings, get_settings
from models import OutboxEmail
from services.accounts import accounts
from tests.support.factories import make_freelancer


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"PORT": "8080"}, "http://localhost:8080"),
        ({}, "http://localhost:3000"),
        ({"PORT": "8080", "SITE_URL": "https://turno.example.com.br"}, "https://turno.example.com.br"),
        ({"PORT": "8080", "SITE_URL": "   "}, "http://localhost:8080"),
    ],
)
def test_the_site_url_is_set_or_follows_the_port(monkeypatch, environment, expected):
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)

    settings = Settings(_env_file=None)

    assert settings.site_url == expected
    assert expected in settings.cors_origins


def test_a_confirmation_mailed_by_an_app_on_port_8080_links_to_port_8080(db, monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setenv("PORT", "8080")
    get_settings.cache_clear()
    user = make_freelancer(db)

    accounts.send_confirmation(db, user)
    db.commit()

    body = db.exec(select(OutboxEmail.body).where(OutboxEmail.to_email == user.email)).all()[-1]
    assert "http://localhost:8080/confirm-email?token=" in body
    assert ":3000" not in body
