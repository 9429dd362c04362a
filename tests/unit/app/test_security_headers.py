"""The security-headers middleware: CSP with the build's inline-script hashes, nosniff, referrer, framing."""

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from app.api import security_headers as sh

BUILT_SCRIPT = "window.__built = 1;"
MODULE_SCRIPT = 'import "/assets/root.js";'
INJECTED_SCRIPT = "alert(document.cookie)"
PAGE = (
    "<!DOCTYPE html><html><head>"
    f"<script>{BUILT_SCRIPT}</script>"
    f'<script type="module" async="">{MODULE_SCRIPT}</script>'
    '<script src="/assets/app.js"></script>'
    "</head><body></body></html>"
)


def _hash(script: str) -> str:
    return sh.inline_script_hashes_of(f"<script>{script}</script>").pop()


def _directives(policy: str) -> dict[str, list[str]]:
    parts = (directive.split() for directive in policy.split(";"))
    return {words[0]: words[1:] for words in parts if words}


async def _injected_page(request):
    return HTMLResponse(f"<html><body><script>{INJECTED_SCRIPT}</script></body></html>")


async def _api(request):
    return JSONResponse({"ok": True}, headers={"X-Frame-Options": "SAMEORIGIN"})


async def _echo(websocket: WebSocket):
    await websocket.accept()
    await websocket.send_text("ok")
    await websocket.close()


@pytest.fixture
def build_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake frontend build with one page, read as the app's build."""
    client = tmp_path / "client"
    (client / "jobs").mkdir(parents=True)
    (client / "index.html").write_text(PAGE)
    (client / "jobs" / "index.html").write_text(PAGE.replace(BUILT_SCRIPT, "window.__jobs = 1;"))
    (client / "app.js").write_text("console.log(1)")
    (client / "assets").mkdir()
    (client / "assets" / "root-abc123.js").write_text("console.log(2)")
    (client / "assets" / "styles-abc123.css").write_text("body{margin:0}")
    monkeypatch.setattr(sh, "frontend_build_dir", lambda: client)
    sh.build_script_hashes.cache_clear()
    yield client
    sh.build_script_hashes.cache_clear()


@pytest.fixture
def http(build_dir: Path) -> TestClient:
    """The middleware around API routes, an HTML route, a websocket and the mounted build."""
    inner = Starlette(
        routes=[
            Route("/api/thing", _api),
            Route("/api/text", lambda request: PlainTextResponse("plain")),
            Route("/injected", _injected_page),
            WebSocketRoute("/_event", _echo),
            Mount("/", StaticFiles(directory=build_dir, html=True)),
        ]
    )
    return TestClient(sh.security_headers(inner), base_url="http://turno.test")


def test_a_built_page_allows_its_own_inline_scripts_and_nothing_else_inline(http):
    response = http.get("/")
    policy = _directives(response.headers["content-security-policy"])
    scripts = policy["script-src"]
    assert f"'{_hash(BUILT_SCRIPT)}'" in scripts
    assert f"'{_hash('window.__jobs = 1;')}'" in scripts, "hashes of every built page"
    assert sh.inline_script_hashes_of(f'<script type="module" async="">{MODULE_SCRIPT}</script>') <= {
        source.strip("'") for source in scripts
    }
    assert "'unsafe-inline'" not in scripts
    assert f"'{_hash(INJECTED_SCRIPT)}'" not in scripts


def test_a_page_carrying_a_script_the_build_did_not_write_gets_no_hash_for_it(http):
    response = http.get("/injected")
    scripts = _directives(response.headers["content-security-policy"])["script-src"]
    assert f"'{_hash(INJECTED_SCRIPT)}'" not in scripts
    assert f"'{_hash(BUILT_SCRIPT)}'" in scripts


def test_the_policy_confines_everything_to_the_site(http):
    policy = _directives(http.get("/").headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["connect-src"] == ["'self'", "ws://turno.test"]
    assert policy["img-src"] == ["'self'", "data:", "blob:"]
    assert "'unsafe-inline'" in policy["style-src"]


@pytest.mark.parametrize("path", ["/", "/jobs/", "/app.js", "/api/thing", "/api/text", "/missing"])
def test_every_http_answer_carries_the_headers_once(http, path):
    response = http.get(path)
    raw = [name.decode().lower() for name, _ in response.headers.raw]
    for header in ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"):
        assert raw.count(header) == 1, header
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", ["/assets/root-abc123.js", "/assets/styles-abc123.css"])
def test_the_builds_scripts_and_stylesheets_go_without_the_policy_but_with_the_other_headers(http, path):
    # A CSP applies to documents and workers only; on each of a page's 25-50 asset answers it was
    # ~2.2 KB of headers for a phone to download (docs/performance.md, 2026-12-07).
    response = http.get(path)
    assert response.status_code == 200
    assert "content-security-policy" not in response.headers
    raw = [name.decode().lower() for name, _ in response.headers.raw]
    for header in ("x-content-type-options", "referrer-policy", "x-frame-options"):
        assert raw.count(header) == 1, header
    revalidated = http.get(path, headers={"If-None-Match": response.headers["etag"]})
    assert revalidated.status_code == 304
    assert "content-security-policy" not in revalidated.headers


@pytest.mark.parametrize("path", ["/assets/page.html", "/assets/../app.js", "/_upload/assets/x.js", "/assets"])
def test_anything_else_under_assets_keeps_the_policy(path):
    assert not sh.is_build_asset(path)


def test_answers_that_are_not_pages_and_revalidated_pages_carry_the_same_policy(http):
    page_policy = http.get("/").headers["content-security-policy"]
    assert http.get("/api/thing").headers["content-security-policy"] == page_policy
    etag = http.get("/jobs/").headers["etag"]
    revalidated = http.get("/jobs/", headers={"If-None-Match": etag})
    assert revalidated.status_code == 304
    assert revalidated.headers["content-security-policy"] == page_policy, "a 304 replaces the cached page's headers"


def test_the_websocket_passes_through_untouched(http):
    with http.websocket_connect("/_event") as websocket:
        assert websocket.receive_text() == "ok"


def test_without_a_build_pages_get_the_policy_without_hashes(tmp_path, monkeypatch):
    monkeypatch.setattr(sh, "frontend_build_dir", lambda: tmp_path / "absent")
    sh.build_script_hashes.cache_clear()
    client = TestClient(sh.security_headers(Starlette(routes=[Route("/", _injected_page)])))
    scripts = _directives(client.get("/").headers["content-security-policy"])["script-src"]
    assert scripts == ["'self'", "'unsafe-eval'"]
    sh.build_script_hashes.cache_clear()


def test_hashes_follow_the_csp_specification_example():
    # https://www.w3.org/TR/CSP3/#grammardef-hash-source ("Hello, world." example).
    assert _hash("alert('Hello, world.');") == "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="


def test_scripts_with_a_src_are_not_hashed():
    assert sh.inline_script_hashes_of('<script src="/a.js"></script><SCRIPT>x()</SCRIPT>') == {_hash("x()")}


@pytest.mark.parametrize(
    ("site_url", "origin"),
    [
        ("https://turno.example.com.br", "wss://turno.example.com.br"),
        ("http://localhost:3000", "ws://localhost:3000"),
        ("", ""),
    ],
)
def test_the_websocket_origin_follows_the_site_url(site_url, origin):
    assert sh.websocket_origin(site_url) == origin


def test_the_app_wraps_everything_it_serves_in_the_middleware():
    from app.app import app

    assert app.api_transformer[-1] is sh.security_headers, "outermost, so the frontend mount is wrapped too"
