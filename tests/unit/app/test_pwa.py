"""app/api/pwa.py: the manifest, the service worker that keeps only an offline page, /offline and /app."""

import json
from pathlib import Path

import pytest
from PIL import Image

from app.api import pwa
from core.settings import get_settings
from tests.support.factories import make_company, make_freelancer
from tests.support.state_harness import cookie_for

ASSETS = Path(__file__).resolve().parents[3] / "assets"


def test_the_manifest_names_the_app_from_settings_in_portuguese(api_client, monkeypatch):
    monkeypatch.setenv("PRODUCT_NAME", "Escala")
    get_settings.cache_clear()
    pwa._cached.cache_clear()

    answer = api_client.get("/manifest.webmanifest")

    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    data = json.loads(answer.content)
    assert (data["name"], data["short_name"], data["lang"]) == ("Escala", "Escala", "pt-BR")
    assert (data["start_url"], data["scope"], data["display"]) == ("/app", "/", "standalone")
    assert data["theme_color"] == "#3e63dd"
    pwa._cached.cache_clear()


@pytest.mark.parametrize("icon", pwa.ICONS)
def test_every_icon_of_the_manifest_exists_with_its_size(icon):
    path = ASSETS / icon["src"].lstrip("/")
    width, height = (int(n) for n in icon["sizes"].split("x"))
    with Image.open(path) as image:
        assert image.size == (width, height) and image.format == "PNG"


def test_the_service_worker_keeps_only_the_offline_page_and_its_icons(api_client):
    answer = api_client.get("/sw.js")

    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    script = answer.text
    assert 'const KEPT = ["/offline", "/icons/icon-192.png", "/favicon.svg"];' in script
    assert script.count("cache.addAll(") == 1 and "cache.put(" not in script  # nothing else is ever stored
    assert 'if (event.request.mode !== "navigate") return;' in script


def test_the_worker_changes_when_the_offline_page_does(monkeypatch):
    first = pwa.service_worker_js("Turno")
    assert pwa.service_worker_js("Turno") == first
    assert pwa.service_worker_js("Escala") != first  # a new name, a new cache: the old one is dropped


def test_the_offline_page_says_so_and_runs_no_script(api_client):
    answer = api_client.get("/offline")

    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert "<h1>Você está sem conexão</h1>" in answer.text
    assert '<a href="">Tentar novamente</a>' in answer.text
    assert "<script" not in answer.text and 'lang="pt-BR"' in answer.text


def test_the_product_name_is_escaped_in_the_offline_page():
    assert "&lt;b&gt;" in pwa.offline_html("<b>") and "<b>" not in pwa.offline_html("<b>")


def test_the_installed_app_opens_where_each_person_works(db, api_client):
    company, freelancer = make_company(db), make_freelancer(db)
    db.commit()

    def start(user, header: str | None = None) -> str:
        headers = {"Cookie": header if header is not None else cookie_for(db, user)}
        answer = api_client.get("/app", headers=headers, follow_redirects=False)
        assert answer.status_code == 302 and answer.headers["cache-control"] == "no-store"
        return answer.headers["location"]

    assert start(company) == "/client-dashboard"
    assert start(freelancer) == "/freelancer-dashboard"
    assert start(None) == "/"
    assert start(None, f"{get_settings().session_cookie_name}=forged") == "/"
