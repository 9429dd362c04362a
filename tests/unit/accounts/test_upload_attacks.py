"""Hostile uploads against services/accounts/photos.py and ProfileEditState.upload_photo, with real rx.UploadFile objects.

Each vector is sent the way Reflex hands a file to the handler (an rx.UploadFile built from the
multipart part, with the client's file name and declared type). What the attacker must never get:
a stored file carrying their bytes, a file under a name or folder they chose, or a server busy
decoding a bomb. What the user sees is the toast of docs/product/accounts.md §8.
"""

import io
import re
import struct
import time
import zipfile
import zlib
from io import BytesIO
from pathlib import Path

import pytest
import reflex as rx
from PIL import Image
from starlette.datastructures import Headers

from core.db import session_scope
from models import Profile
from services.accounts import photos
from states.profile import ProfileEditState
from tests.support.factories import make_freelancer
from tests.support.state_harness import cookie_for, run, state_for, toasts

PHOTO_SAVED = "success: Foto atualizada com sucesso!"
WRONG_TYPE = "error: Tipo de arquivo inválido | Por favor, selecione apenas arquivos JPEG, PNG ou WebP."
TOO_LARGE = "error: Arquivo muito grande | O arquivo deve ter no máximo 5MB."
UNREADABLE = "error: Erro ao atualizar foto | Não foi possível ler a imagem. Escolha outro arquivo."
STORED_NAME = re.compile(r"[0-9a-f]{32}\.webp")
HTML = b"<html><body><script>alert(document.cookie)</script></body></html>"
JS = b"/*\xff\xd8*/=1;alert(document.domain)//"
MARKERS = (b"<script", b"<html", b"alert(", b"PK\x03\x04", b"Payload.class", b"<svg", b"<?php")


def encode(fmt: str, size=(320, 240), color=(180, 60, 30), **options) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, color).save(out, fmt, **options)
    return out.getvalue()


def jpeg_with_comment(comment: bytes) -> bytes:
    """A valid JPEG whose COM segment (right after SOI) carries `comment`."""
    jpeg = encode("JPEG")
    segment = b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment
    return jpeg[:2] + segment + jpeg[2:]


def png_with_text(text: bytes) -> bytes:
    """A valid PNG with a tEXt chunk holding `text` before the image data."""
    png = encode("PNG")
    body = b"Comment\x00" + text
    chunk = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body) & 0xFFFFFFFF)
    at = png.index(b"IDAT") - 4
    return png[:at] + chunk + png[at:]


def gifar() -> bytes:
    """A JPEG with a Java archive appended: valid as an image and as a zip (the GIFAR trick)."""
    archive = BytesIO()
    with zipfile.ZipFile(archive, "w") as jar:
        jar.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: Payload\n")
        jar.writestr("Payload.class", b"\xca\xfe\xba\xbe" + b"\x00" * 32)
    return encode("JPEG") + archive.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 1024, 9))
        + chunk(b"IEND", b"")
    )


def flat(fmt: str, width: int, height: int) -> bytes:
    """A real, fully decodable image of one colour: a few KB on the wire, width×height pixels once decoded."""
    return encode(fmt, (width, height), (0, 0, 0))


POLYGLOTS = {
    "jpeg+html": encode("JPEG") + HTML,
    "jpeg+js": encode("JPEG") + JS,
    "jpeg-comment-html": jpeg_with_comment(HTML),
    "png+html": encode("PNG") + HTML,
    "png-text-chunk-script": png_with_text(HTML),
    "webp+php": encode("WEBP") + b"<?php system($_GET['c']); ?>",
    "gifar": gifar(),
}


def upload(data: bytes, filename: str = "foto.jpg", content_type: str = "image/jpeg") -> rx.UploadFile:
    """An rx.UploadFile as Reflex builds it from a multipart part (file name and declared type kept)."""
    return rx.UploadFile(
        file=io.BytesIO(data),
        path=Path(filename) if filename else None,
        size=len(data),
        headers=Headers({"content-type": content_type}),
    )


@pytest.fixture
def uploads(tmp_path, monkeypatch):
    folder = tmp_path / "site" / "uploaded_files"
    folder.mkdir(parents=True)
    monkeypatch.setattr(rx, "get_upload_dir", lambda: folder)
    return folder


@pytest.fixture
def tab(db):
    """A signed-in freelancer's tab on the profile page, and the freelancer."""
    user = make_freelancer(db, nome="Carla Dias")
    db.commit()
    return state_for(ProfileEditState, cookie_for(db, user), "/freelancer-dashboard"), user


def send(tab, data: bytes, filename: str = "foto.jpg", content_type: str = "image/jpeg") -> list[str]:
    state, _ = tab
    return toasts(run(state, ProfileEditState.upload_photo, [upload(data, filename, content_type)]))


def photo_url(user) -> str:
    with session_scope() as fresh:
        return fresh.get(Profile, user.id).foto_url


def every_file(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def stored_bytes(uploads: Path, user) -> bytes:
    url = photo_url(user)
    assert re.fullmatch(r"/_upload/profile-photos/[0-9a-f]{32}\.webp", url)
    return (uploads / "profile-photos" / url.rsplit("/", 1)[1]).read_bytes()


def assert_clean_webp(data: bytes) -> None:
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    assert Image.open(BytesIO(data)).format == "WEBP"
    for marker in MARKERS:
        assert marker not in data


# --- wrong magic bytes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "filename", "content_type"),
    [
        (b"apenas texto, nada de imagem\n", "foto.png", "image/png"),
        (b"\xff\xd8\xff\xe0" + HTML, "foto.jpg", "image/jpeg"),
        (b"\x89PNG\r\n\x1a\n" + HTML, "foto.png", "image/png"),
        (b"RIFF\x10\x00\x00\x00WEBP" + HTML, "foto.webp", "image/webp"),
        (encode("GIF"), "foto.png", "image/png"),
        (encode("BMP"), "foto.jpg", "image/jpeg"),
        (encode("TIFF"), "foto.webp", "image/webp"),
        (b"MZ\x90\x00" + b"\x00" * 60 + b"PE\x00\x00", "foto.jpg", "image/jpeg"),
    ],
    ids=[
        "text-as-png",
        "jpeg-magic-then-html",
        "png-magic-then-html",
        "webp-magic-then-html",
        "gif",
        "bmp",
        "tiff",
        "exe",
    ],
)
def test_content_that_is_not_a_jpeg_png_or_webp_is_refused_whatever_its_name(
    tab, uploads, data, filename, content_type
):
    _, user = tab

    shown = send(tab, data, filename, content_type)

    assert shown in ([WRONG_TYPE], [UNREADABLE])
    assert photo_url(user) == ""
    assert every_file(uploads) == []


@pytest.mark.parametrize(("fmt", "filename"), [("PNG", "foto.jpg"), ("JPEG", "foto.png"), ("WEBP", "foto.gif")])
def test_a_real_image_under_the_wrong_name_is_judged_by_content_and_stored_as_webp(tab, uploads, fmt, filename):
    _, user = tab

    assert send(tab, encode(fmt), filename, "application/octet-stream") == [PHOTO_SAVED]

    assert_clean_webp(stored_bytes(uploads, user))


# --- polyglots --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(POLYGLOTS))
def test_a_polyglot_is_stored_as_a_clean_re_encode_without_the_payload(tab, uploads, name):
    _, user = tab
    polyglot = POLYGLOTS[name]
    assert any(marker in polyglot for marker in MARKERS)  # the upload really carries a payload
    if name == "gifar":
        assert zipfile.is_zipfile(BytesIO(polyglot))

    assert send(tab, polyglot, f"{name}.jpg") == [PHOTO_SAVED]

    stored = stored_bytes(uploads, user)
    assert_clean_webp(stored)
    assert not zipfile.is_zipfile(BytesIO(stored))
    assert [p.name for p in every_file(uploads)] == [photo_url(user).rsplit("/", 1)[1]]


# --- SVG and HTML -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "filename", "content_type"),
    [
        (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "a.svg", "image/svg+xml"),
        (
            b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "a.png",
            "image/png",
        ),
        (b"\xef\xbb\xbf<!DOCTYPE html>" + HTML, "a.jpg", "image/jpeg"),
        (HTML, "a.html", "text/html"),
        (
            b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
            "a.webp",
            "image/webp",
        ),
    ],
    ids=["svg", "svg-as-png", "html-bom-as-jpg", "html", "xxe-as-webp"],
)
def test_svg_html_and_xml_are_refused(tab, uploads, data, filename, content_type):
    _, user = tab

    assert send(tab, data, filename, content_type) == [WRONG_TYPE]

    assert photo_url(user) == ""
    assert every_file(uploads) == []


# --- decompression bombs ----------------------------------------------------------------------------------


BOMBS = {
    "png-header-30000x30000": lambda: png_declaring(30_000, 30_000),
    "png-header-max-int": lambda: png_declaring(2**31 - 1, 2**31 - 1),
    "png-flat-4096x4096": lambda: flat("PNG", 4096, 4096),
    "webp-flat-4096x4096": lambda: flat("WEBP", 4096, 4096),
    "png-flat-20000x1000": lambda: flat("PNG", 20_000, 1_000),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_decompression_bomb_is_refused_before_it_is_decoded(tab, uploads, name):
    _, user = tab
    bomb = BOMBS[name]()
    assert len(bomb) < 200 * 1024  # a few KB on the wire

    started = time.perf_counter()
    shown = send(tab, bomb, "bomba.png", "image/png")
    elapsed = time.perf_counter() - started

    assert shown == [UNREADABLE]
    assert elapsed < 1.0, f"refusing took {elapsed:.2f} s"  # the issue asks for a quick refusal: no decoding
    assert photo_url(user) == ""
    assert every_file(uploads) == []


def test_a_flat_4k_screenshot_png_is_still_accepted(tab, uploads):
    _, user = tab

    assert send(tab, flat("PNG", 3840, 2160), "tela.png", "image/png") == [PHOTO_SAVED]

    assert Image.open(BytesIO(stored_bytes(uploads, user))).size == (512, 288)


def test_a_40_megapixel_jpeg_is_decoded_at_a_reduced_scale(tab, uploads, monkeypatch):
    _, user = tab
    decoded: list[tuple[int, int]] = []
    shrink = photos._small_webp

    def recording(image):
        decoded.append(image.size)
        return shrink(image)

    monkeypatch.setattr(photos, "_small_webp", recording)

    assert send(tab, flat("JPEG", 7300, 5400), "camera.jpg") == [PHOTO_SAVED]

    assert decoded == [(913, 675)]  # 1/8 scale straight from the codec, never 39 megapixels in memory
    assert Image.open(BytesIO(stored_bytes(uploads, user))).size == (512, 379)


def test_pillow_keeps_its_own_bomb_limit():
    assert Image.MAX_IMAGE_PIXELS is not None
    assert photos.MAX_PIXELS < Image.MAX_IMAGE_PIXELS
    assert photos.MAX_DECODED_PIXELS < photos.MAX_PIXELS


# --- client file names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "filename",
    [
        "../../../../etc/cron.d/pwn.jpg",
        "..\\..\\windows\\system32\\x.jpg",
        "/etc/passwd",
        "/tmp/absolute.jpg",
        "C:\\Users\\x\\foto.jpg",
        "foto.jpg\x00.html",
        "foto.html",
        ".htaccess",
        "profile-photos/../../escape.webp",
        "a" * 5000 + ".jpg",
        "名前\u202egpj.html",
        "",
    ],
    ids=[
        "dotdot",
        "backslash-dotdot",
        "etc-passwd",
        "absolute",
        "windows-drive",
        "nul",
        "html-name",
        "htaccess",
        "into-photo-folder",
        "5000-chars",
        "rtl-override",
        "none",
    ],
)
def test_the_client_file_name_is_never_used_for_storage(tab, uploads, filename):
    _, user = tab
    root = uploads.parent

    assert send(tab, encode("JPEG"), filename) == [PHOTO_SAVED]

    stored = every_file(root)
    assert len(stored) == 1
    assert stored[0].parent == uploads / "profile-photos"
    assert STORED_NAME.fullmatch(stored[0].name)
    assert photo_url(user) == f"/_upload/profile-photos/{stored[0].name}"


# --- size -------------------------------------------------------------------------------------------------


def test_an_oversized_file_is_refused_after_reading_one_byte_past_the_limit(tab, uploads):
    _, user = tab
    data = encode("JPEG") + b"\0" * (photos.MAX_BYTES * 2)
    file = upload(data)

    shown = toasts(run(tab[0], ProfileEditState.upload_photo, [file]))

    assert shown == [TOO_LARGE]
    assert file.file.tell() == photos.MAX_BYTES + 1  # the rest of the upload is never read
    assert photo_url(user) == ""
    assert every_file(uploads) == []


def test_exactly_5mb_is_accepted_and_one_byte_more_is_not(tab, uploads):
    jpeg = encode("JPEG")
    at_limit = jpeg + b"\0" * (photos.MAX_BYTES - len(jpeg))

    assert send(tab, at_limit) == [PHOTO_SAVED]
    assert send(tab, at_limit + b"\0") == [TOO_LARGE]


# --- the request body cap (app/api/upload_limit.py), in process ------------------------------------------


def _echo_length_app():
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def echo(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(len(await request.body())))

    return Starlette(routes=[Route("/_upload", echo, methods=["POST"])])


@pytest.fixture
def capped():
    from starlette.testclient import TestClient

    from app.api.upload_limit import limit_request_bodies

    return TestClient(limit_request_bodies(_echo_length_app(), max_bytes=1000))


def test_a_body_under_the_cap_reaches_the_route(capped):
    response = capped.post("/_upload", content=b"x" * 1000)

    assert (response.status_code, response.text) == (200, "1000")


def test_a_declared_length_over_the_cap_is_answered_413_unread(capped):
    response = capped.post("/_upload", content=b"x" * 1001)

    assert (response.status_code, response.text) == (413, "Arquivo muito grande")


def test_a_chunked_body_is_counted_and_cut_at_the_cap(capped):
    pieces: list[int] = []

    def stream():
        for _ in range(100):
            pieces.append(1)
            yield b"x" * 300

    response = capped.post("/_upload", content=stream())

    assert response.status_code == 413
    assert "Arquivo muito grande" in response.text


def test_a_malformed_content_length_is_a_bad_request(capped):
    response = capped.post("/_upload", content=b"x", headers={"content-length": "12abc"})

    assert response.status_code == 400


def test_the_cap_is_one_of_the_apps_api_transformers():
    """Every transformer wraps the app Reflex built, /_upload included (tests/security proves it live)."""
    from app.api.upload_limit import MAX_BODY_BYTES, limit_request_bodies
    from app.app import app

    assert limit_request_bodies in app.api_transformer
    assert photos.MAX_BYTES < MAX_BODY_BYTES <= photos.MAX_BYTES + 1024 * 1024
