"""How the single-port server (`make run`, scripts/serve.py) answers the built pages: no redirect, compressed, cached right."""

import gzip
from pathlib import Path

import pytest
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from app.api import static_cache

PAGE = "<!DOCTYPE html><html><head><title>Vagas</title></head><body>" + "vaga " * 400 + "</body></html>"
ACCEPT = {"Accept-Encoding": "gzip, deflate, br, zstd"}


async def _health(request):
    return JSONResponse({"ok": True})


@pytest.fixture
def build_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A build laid out as Reflex writes it: jobs.html and jobs/index.html, with .gz sidecars."""
    client = tmp_path / "client"
    (client / "jobs").mkdir(parents=True)
    (client / "assets").mkdir()
    for page in (client / "index.html", client / "jobs.html", client / "jobs" / "index.html"):
        page.write_text(PAGE)
        page.with_name(page.name + ".gz").write_bytes(gzip.compress(PAGE.encode()))
    (client / "404.html").write_text("<html><body>404</body></html>")
    (client / "assets" / "root-abc123.js").write_text("console.log(1)")
    monkeypatch.setattr(static_cache, "frontend_build_dir", lambda: client)
    return client


@pytest.fixture
def http(build_dir: Path) -> TestClient:
    """The app's wrappers in app/app.py's order around an API route and the mount Reflex uses."""
    inner = Starlette(
        routes=[
            Route("/api/health", _health),
            Mount("/", PrecompressedStaticFiles(directory=build_dir, html=True, encodings=["brotli", "gzip"])),
        ]
    )
    served = static_cache.cache_static_files(static_cache.serve_pages_in_place(inner))
    return TestClient(served, base_url="http://127.0.0.1:3170", follow_redirects=False)


@pytest.mark.parametrize("path", ["/jobs", "/jobs/", "/jobs?city=Curitiba", "/"])
def test_a_page_is_answered_where_it_is_asked_for_compressed_and_revalidated(http, path):
    response = http.get(path, headers=ACCEPT)
    assert response.status_code == 200, response.headers.get("location")
    assert response.text == PAGE
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "no-cache"


def test_a_head_request_is_answered_in_place_too(http):
    assert http.head("/jobs").status_code == 200


def test_other_paths_are_untouched(http):
    assert http.get("/api/health").json() == {"ok": True}
    asset = http.get("/assets/root-abc123.js")
    assert asset.status_code == 200
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert http.get("/nothing-here").status_code == 404
    assert http.post("/jobs").status_code != 200


@pytest.mark.parametrize(
    "path", ["/", "/jobs/", "/jobs.html", "/assets", "/missing", "/jobs/12", "/../jobs", "/a/../jobs"]
)
def test_only_a_page_directory_without_its_slash_is_rewritten(build_dir, path):
    assert not static_cache.is_page_directory(path)


def test_the_app_serves_pages_in_place_inside_the_public_pages():
    from app.api.public_pages import public_pages
    from app.app import app

    order = list(app.api_transformer)
    assert order.index(static_cache.serve_pages_in_place) < order.index(public_pages), (
        "public_pages reads the path as the browser wrote it"
    )
