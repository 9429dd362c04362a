"""Uploads against the real backend: size cap on /_upload, no listing or traversal, only photos on disk.

One production backend (`reflex run --env prod --backend-only`, bench/harness.py) serves the whole
module, with its own SQLite file and upload folder. A freelancer's browser tab is simulated over
the websocket (bench/wsclient.py) so that uploads go through Reflex's real /_upload endpoint to
ProfileEditState.upload_photo, exactly as the compiled frontend sends them.
"""

import asyncio
import json
import os
import re
import select
import socket
import time
import urllib.error
import urllib.request
import uuid
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from app.api.upload_limit import MAX_BODY_BYTES
from bench.harness import app_env, free_port, group_rss_kb, migrate, serve_app, settled_rss_kb, stop, use_database
from bench.wsclient import AUTH, Tab

ROOT = Path(__file__).resolve().parents[2]
UPLOAD_HANDLER = f"{AUTH}.states___profile____profile_edit_state.upload_photo"
PHOTO_NAME = re.compile(r"profile-photos/[0-9a-f]{32}\.webp")
FIFTY_MB = 50 * 1024 * 1024
CHUNK = 64 * 1024
HTML_PAYLOAD = b"<html><script>alert(document.cookie)</script></html>"


class Server:
    """The running backend, its upload folder and a signed-in freelancer."""

    def __init__(self, port: int, proc, uploads: Path, cookie: str, user_id: int):
        self.port = port
        self.proc = proc
        self.uploads = uploads
        self.cookie = cookie
        self.user_id = user_id

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    workdir = tmp_path_factory.mktemp("uploads_http")
    database_url = f"sqlite:///{workdir / 'uploads.db'}"
    uploads = workdir / "uploaded_files"
    env = app_env(database_url, REFLEX_UPLOADED_FILES_DIR=str(uploads), GRANIAN_WORKERS="1")
    migrate(env)
    saved = os.environ.get("DATABASE_URL")
    use_database(database_url)
    from core.db import session_scope
    from services.accounts import sessions
    from tests.support.factories import make_freelancer

    with session_scope() as db:
        user = make_freelancer(db, nome="Carla Dias")
        user_id = user.id
        token, _ = sessions.create(db, user_id, remember=False)
    port = free_port()
    proc = serve_app(env, port, log=workdir / "server.log")
    try:
        yield Server(port, proc, uploads, f"turno_session={token}", user_id)
    finally:
        stop(proc)
        if saved is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = saved
        from core.db import get_engine
        from core.settings import get_settings

        get_settings.cache_clear()
        get_engine.cache_clear()


def image(fmt: str = "JPEG", size=(300, 200)) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, (30, 160, 90)).save(out, fmt)
    return out.getvalue()


def multipart(filename: str, content: bytes, content_type: str = "image/jpeg") -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{filename}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), boundary


async def upload_as_browser(server: Server, filename: str, content: bytes, content_type: str = "image/jpeg") -> int:
    """Connect a tab with the freelancer's cookie and POST one file to /_upload; the answer's status."""
    tab = Tab(server.url, "/freelancer-dashboard", server.cookie)
    await tab.connect()
    try:
        body, boundary = multipart(filename, content, content_type)
        request = urllib.request.Request(  # noqa: S310 (the local test server)
            f"{server.url}/_upload",
            data=body,
            method="POST",
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "reflex-client-token": tab.token,
                "reflex-event-handler": UPLOAD_HANDLER,
                "Cookie": server.cookie,
            },
        )

        def send() -> tuple[int, bytes]:
            with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
                return response.status, response.read()

        status, answer = await asyncio.to_thread(send)
        assert all(json.loads(line) for line in answer.splitlines() if line.strip())  # NDJSON state updates
        return status
    finally:
        await tab.close()


def photo_url(server: Server) -> str:
    from core.db import session_scope
    from models import Profile

    with session_scope() as db:
        return db.get(Profile, server.user_id).foto_url


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def get(server: Server, path: str) -> tuple[int, bytes]:
    """GET a raw path (sent as written, no client-side normalisation of '..')."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def raw_post_headers(server: Server, extra: str) -> bytes:
    return (
        f"POST /_upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        f"reflex-client-token: {uuid.uuid4().hex}\r\nreflex-event-handler: {UPLOAD_HANDLER}\r\n{extra}\r\n"
    ).encode()


def status_of(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    assert match, answer[:200]
    return int(match.group(1))


PART_HEAD = (
    b'--b\r\nContent-Disposition: form-data; name="files"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
)


def push_until_answered(sock: socket.socket, total: int, chunked: bool) -> tuple[int, bytes]:
    """Send a file part of up to `total` bytes in 64 KB pieces, stopping as soon as the server answers.

    Returns how many body bytes were sent and the start of the answer.
    """
    piece = b"\xff" * CHUNK
    framed = f"{CHUNK:x}\r\n".encode() + piece + b"\r\n" if chunked else piece
    sock.sendall(f"{len(PART_HEAD):x}\r\n".encode() + PART_HEAD + b"\r\n" if chunked else PART_HEAD)
    sent = len(PART_HEAD)
    while sent < total:
        readable, _, _ = select.select([sock], [], [], 0)
        if readable:
            break
        try:
            sock.sendall(framed)
        except (BrokenPipeError, ConnectionResetError):
            break
        sent += CHUNK
    sock.settimeout(30)
    return sent, sock.recv(4096)


# --- the size cap ----------------------------------------------------------------------------------


def test_a_declared_50mb_upload_is_refused_at_once_without_reading_it(server):
    before = settled_rss_kb(server.proc.pid)
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(raw_post_headers(server, f"Content-Length: {FIFTY_MB}\r\n"))
        sent, answer = push_until_answered(sock, FIFTY_MB, chunked=False)
    elapsed = time.perf_counter() - started
    grown_kb = group_rss_kb(server.proc.pid) - before

    assert status_of(answer) == 413
    assert answer.endswith(b"Arquivo muito grande")
    assert sent < FIFTY_MB
    assert grown_kb < 10 * 1024, f"server memory grew by {grown_kb} KB"
    print(f"\ndeclared 50 MB: 413 after {elapsed * 1000:.0f} ms, {sent // 1024} KB sent, RSS +{grown_kb} KB")


def test_a_chunked_50mb_upload_is_cut_off_after_the_cap(server):
    before = settled_rss_kb(server.proc.pid)
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(raw_post_headers(server, "Transfer-Encoding: chunked\r\n"))
        sent, answer = push_until_answered(sock, FIFTY_MB, chunked=True)
    elapsed = time.perf_counter() - started
    grown_kb = group_rss_kb(server.proc.pid) - before

    assert status_of(answer) == 413
    assert sent < FIFTY_MB / 2
    assert grown_kb < 20 * 1024, f"server memory grew by {grown_kb} KB"
    assert files_under(server.uploads) == [] or all(PHOTO_NAME.fullmatch(f) for f in files_under(server.uploads))
    print(f"\nchunked 50 MB: 413 after {elapsed * 1000:.0f} ms, {sent // 1024} KB sent, RSS +{grown_kb} KB")


def test_a_lying_content_length_cannot_smuggle_more_than_the_cap(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(raw_post_headers(server, f"Content-Length: {MAX_BODY_BYTES + 1}\r\n"))
        _, answer = push_until_answered(sock, CHUNK, chunked=False)

    assert status_of(answer) == 413


def test_a_login_body_over_the_cap_is_refused_too(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(
            f"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n".encode()
        )
        _, answer = push_until_answered(sock, CHUNK, chunked=False)

    assert status_of(answer) == 413


# --- real uploads through the endpoint ----------------------------------------------------------------


def test_a_photo_under_the_cap_goes_through_and_is_stored_as_a_fresh_webp(server):
    original = image("JPEG")

    assert asyncio.run(upload_as_browser(server, "../../../etc/passwd.jpg", original)) == 200

    url = photo_url(server)
    assert re.fullmatch(r"/_upload/profile-photos/[0-9a-f]{32}\.webp", url)
    status, body = get(server, url)
    assert status == 200
    assert body[:4] == b"RIFF" and body[8:12] == b"WEBP"
    assert body != original
    assert all(PHOTO_NAME.fullmatch(f) for f in files_under(server.uploads))
    assert not (server.uploads.parent / "etc").exists()


def test_a_polyglot_jpeg_with_html_appended_is_stored_without_the_payload(server):
    polyglot = image("JPEG") + HTML_PAYLOAD + b"PK\x03\x04" + b"\0" * 64

    assert asyncio.run(upload_as_browser(server, "foto.html", polyglot, "text/html")) == 200

    status, body = get(server, photo_url(server))
    assert status == 200
    assert b"<script" not in body and b"<html" not in body and b"PK\x03\x04" not in body


@pytest.mark.parametrize(
    ("filename", "content", "content_type"),
    [
        ("x.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"),
        ("x.html", HTML_PAYLOAD, "text/html"),
        ("x.jpg", image("PNG")[:100] + b"<script>", "image/jpeg"),
    ],
    ids=["svg", "html", "broken-png-named-jpg"],
)
def test_svg_html_and_broken_files_leave_the_folder_and_the_profile_unchanged(server, filename, content, content_type):
    before_url, before_files = photo_url(server), files_under(server.uploads)

    asyncio.run(upload_as_browser(server, filename, content, content_type))

    assert photo_url(server) == before_url
    assert files_under(server.uploads) == before_files


# --- what /_upload serves --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/_upload",
        "/_upload/",
        "/_upload/profile-photos",
        "/_upload/profile-photos/",
        "/_upload/../rxconfig.py",
        "/_upload/../../etc/passwd",
        "/_upload/%2e%2e/rxconfig.py",
        "/_upload/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/_upload/..%2f..%2fuploads.db",
        "/_upload/profile-photos/..%2f..%2fuploads.db",
        "/_upload/%252e%252e/rxconfig.py",
        "/_upload/..\\..\\rxconfig.py",
        "/_upload//etc/passwd",
    ],
)
def test_listings_and_traversal_under_upload_answer_404(server, path):
    status, body = get(server, path)

    assert status in (404, 405), (path, status)
    assert b"app_name" not in body and b"root:" not in body and b"SQLite format" not in body


def test_the_upload_folder_only_ever_holds_profile_photos(server):
    asyncio.run(upload_as_browser(server, "eu.png", image("PNG")))
    export = urllib.request.Request(f"{server.url}/api/account/export", headers={"Cookie": server.cookie})  # noqa: S310
    with urllib.request.urlopen(export, timeout=30) as response:  # noqa: S310
        assert response.status == 200
        assert "attachment" in response.headers["Content-Disposition"]

    stored = files_under(server.uploads)
    assert stored
    assert all(PHOTO_NAME.fullmatch(name) for name in stored), stored


def test_only_the_photo_service_writes_under_the_upload_folder():
    """Every use of rx.get_upload_dir() in the code: the photo handlers, which write only via photos.write_file."""
    users = {}
    for path in ROOT.glob("**/*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in {".venv", ".web", ".tools", "tests", "node_modules"}:
            continue
        text = path.read_text(encoding="utf-8")
        if "get_upload_dir" in text:
            users[str(relative)] = text

    assert set(users) == {"states/profile.py", "states/privacy.py"}
    assert "write_file" not in users["states/privacy.py"]  # account deletion only removes the photo
    for text in users.values():
        assert not re.search(r"\.(write_bytes|write_text|open)\(|shutil\.", text)
