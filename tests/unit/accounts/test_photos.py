"""Profile photos (services/accounts/photos.py): checked by content, re-encoded to WebP, stored under random names."""

import re
import struct
import zlib
from io import BytesIO

import pytest
from PIL import Image

from core.types import utcnow
from models import Profile
from services.accounts import photos
from services.common.errors import NotAllowed
from tests.support.factories import make_company, make_freelancer

WRONG_TYPE = ("Tipo de arquivo inválido", "Por favor, selecione apenas arquivos JPEG, PNG ou WebP.")
TOO_LARGE = ("Arquivo muito grande", "O arquivo deve ter no máximo 5MB.")
UNREADABLE = ("Erro ao atualizar foto", "Não foi possível ler a imagem. Escolha outro arquivo.")
NO_FILE = ("Erro ao atualizar foto", "Selecione uma imagem.")
RED, BLUE = (255, 0, 0), (0, 0, 255)
GPS_IFD = 0x8825
ORIENTATION = 0x0112


def encode(image: Image.Image, fmt: str, **options) -> bytes:
    out = BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def photo(size=(1200, 800), mode="RGB", color=(200, 40, 40)) -> Image.Image:
    return Image.new(mode, size, color)


def exif_with_gps(orientation: int | None = None) -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "Canon"
    exif[0x0110] = "EOS 5D"
    if orientation is not None:
        exif[ORIENTATION] = orientation
    exif.get_ifd(GPS_IFD).update({1: "S", 2: (23.0, 33.0, 1.0), 3: "W", 4: (46.0, 38.0, 2.0)})
    return exif.tobytes()


def rejection(data: bytes) -> tuple[str, str]:
    with pytest.raises(photos.PhotoRejected) as error:
        photos.reencode(data)
    return error.value.title, error.value.message


def png_header_only(width: int, height: int, payload: bytes = b"\x00" * 64) -> bytes:
    """A well-formed PNG claiming `width`×`height` pixels but carrying a few bytes of image data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(payload, 9)) + chunk(b"IEND", b"")
    )


def assert_clean_webp(data: bytes) -> Image.Image:
    """The stored bytes are a WebP of at most 512 px a side, carrying no metadata of the upload."""
    assert data[:4] == b"RIFF"
    assert data[8:12] == b"WEBP"
    image = Image.open(BytesIO(data))
    assert image.format == "WEBP"
    assert max(image.size) <= photos.SIDE
    assert len(image.getexif()) == 0
    assert "exif" not in image.info
    assert "icc_profile" not in image.info
    assert "xmp" not in image.info
    for marker in (b"EXIF", b"Exif", b"XMP ", b"ICCP", b"Canon", b"EOS 5D"):
        assert marker not in data
    return image


# --- accepted images ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_real_image_of_each_allowed_type_comes_back_as_a_small_webp(fmt):
    original = encode(photo((1200, 800)), fmt)

    image = assert_clean_webp(photos.reencode(original))

    assert image.size == (512, 341)
    red, green, blue = image.convert("RGB").getpixel((256, 170))
    assert abs(red - 200) <= 8 and abs(green - 40) <= 8 and abs(blue - 40) <= 8


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_metadata_of_the_upload_is_dropped(fmt):
    original = encode(photo((640, 480)), fmt, exif=exif_with_gps())
    assert len(Image.open(BytesIO(original)).getexif()) > 0  # the upload really carries camera and GPS data

    assert_clean_webp(photos.reencode(original))


def test_a_small_image_is_not_enlarged():
    image = assert_clean_webp(photos.reencode(encode(photo((64, 40)), "PNG")))

    assert image.size == (64, 40)


def test_a_tall_image_is_bounded_by_its_height():
    image = assert_clean_webp(photos.reencode(encode(photo((300, 3000)), "JPEG")))

    assert image.size == (51, 512)


def test_a_transparent_png_keeps_its_transparency():
    original = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    original.paste((0, 128, 0, 255), (25, 25, 75, 75))

    image = assert_clean_webp(photos.reencode(encode(original, "PNG")))

    assert image.mode == "RGBA"
    assert image.getpixel((5, 5))[3] == 0
    assert image.getpixel((50, 50))[3] == 255


@pytest.mark.parametrize(("mode", "fmt"), [("L", "PNG"), ("P", "PNG"), ("1", "PNG"), ("I;16", "PNG"), ("CMYK", "JPEG")])
def test_other_pixel_modes_of_allowed_types_are_accepted(mode, fmt):
    assert_clean_webp(photos.reencode(encode(Image.new(mode, (40, 30)), fmt)))


def test_a_jpeg_with_exif_orientation_6_comes_back_upright():
    # Stored 200×100 with red on the left and blue on the right; orientation 6 means the camera was
    # turned, so the picture is shown rotated 90° clockwise: 100×200 with red on top, blue below.
    sideways = Image.new("RGB", (200, 100), RED)
    sideways.paste(BLUE, (100, 0, 200, 100))
    original = encode(sideways, "JPEG", quality=95, exif=exif_with_gps(orientation=6))
    assert Image.open(BytesIO(original)).getexif()[ORIENTATION] == 6

    image = assert_clean_webp(photos.reencode(original)).convert("RGB")

    assert image.size == (100, 200)
    top, bottom = image.getpixel((50, 40)), image.getpixel((50, 160))
    assert top[0] > 200 and top[2] < 60
    assert bottom[2] > 200 and bottom[0] < 60


def test_the_type_is_judged_by_content_not_by_name():
    jpeg_named_png = encode(photo((50, 50)), "JPEG")

    assert_clean_webp(photos.reencode(jpeg_named_png))


def test_exactly_5mb_is_accepted():
    image = encode(photo((80, 80)), "JPEG")
    padded = image + b"\x00" * (photos.MAX_BYTES - len(image))
    assert len(padded) == 5 * 1024 * 1024

    assert_clean_webp(photos.reencode(padded))


def test_the_stored_bytes_are_never_the_uploaded_bytes():
    original = encode(photo((100, 100)), "WEBP")

    assert photos.reencode(original) != original


# --- refused uploads ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"Isto nao e uma imagem, so texto com nome .png\n", id="text-renamed-png"),
        pytest.param(encode(photo((40, 40)), "GIF"), id="gif"),
        pytest.param(encode(photo((40, 40)), "BMP"), id="bmp"),
        pytest.param(encode(photo((40, 40)), "TIFF"), id="tiff"),
        pytest.param(
            b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
            id="svg",
        ),
        pytest.param(b"<html><body><img src=x onerror=alert(1)></body></html>", id="html"),
        pytest.param(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n", id="pdf"),
    ],
)
def test_anything_but_jpeg_png_or_webp_is_an_invalid_type(data):
    assert rejection(data) == WRONG_TYPE


def test_an_empty_file_is_refused():
    assert rejection(b"") == NO_FILE


def test_one_byte_over_5mb_is_too_large():
    oversized = b"\xff" * (5 * 1024 * 1024 + 1)

    assert rejection(oversized) == TOO_LARGE


def test_a_real_image_over_5mb_is_too_large_too():
    image = encode(photo((80, 80)), "JPEG")

    assert rejection(image + b"\x00" * (photos.MAX_BYTES + 1 - len(image))) == TOO_LARGE


def test_a_truncated_png_is_refused():
    whole = encode(Image.effect_noise((300, 300), 64).convert("RGB"), "PNG")

    assert rejection(whole[: len(whole) // 2]) == UNREADABLE


def test_a_png_with_broken_image_data_is_refused():
    broken = bytearray(encode(Image.effect_noise((300, 300), 64).convert("RGB"), "PNG"))
    start = broken.index(b"IDAT") + 40
    for at in range(start, start + 200):
        broken[at] ^= 0xA5

    assert rejection(bytes(broken)) == UNREADABLE


def test_a_jpeg_cut_after_its_header_is_refused():
    whole = encode(Image.effect_noise((400, 400), 64).convert("RGB"), "JPEG")

    title, _ = rejection(whole[:700])

    assert title in {UNREADABLE[0], WRONG_TYPE[0]}


@pytest.mark.parametrize(
    ("width", "height"),
    [(10_000, 5_000), (20_000, 20_000), (60_000, 60_000), (1_000_000, 10)],
    ids=["50-megapixels", "400-megapixels", "3.6-gigapixels", "one-million-wide"],
)
def test_a_decompression_bomb_is_refused_before_decoding(width, height):
    bomb = png_header_only(width, height)
    assert len(bomb) < 200

    assert rejection(bomb) == UNREADABLE


# --- files on disk -----------------------------------------------------------------------------


def test_write_file_stores_the_bytes_under_a_fresh_random_name(tmp_path):
    content = photos.reencode(encode(photo((60, 60)), "PNG"))

    first = photos.write_file(tmp_path, content)
    second = photos.write_file(tmp_path, content)

    assert first != second
    for url in (first, second):
        assert re.fullmatch(r"/_upload/profile-photos/[0-9a-f]{32}\.webp", url)
        assert (tmp_path / "profile-photos" / url.rsplit("/", 1)[1]).read_bytes() == content
    assert sorted(p.name for p in (tmp_path / "profile-photos").iterdir()) == sorted(
        u.rsplit("/", 1)[1] for u in (first, second)
    )  # no partial files left behind


def test_remove_file_removes_our_photo(tmp_path):
    url = photos.write_file(tmp_path, b"webp bytes")
    other = photos.write_file(tmp_path, b"other bytes")

    photos.remove_file(tmp_path, url)

    assert [p.name for p in (tmp_path / "profile-photos").iterdir()] == [other.rsplit("/", 1)[1]]


def test_remove_file_of_a_missing_photo_is_harmless(tmp_path):
    photos.remove_file(tmp_path, "/_upload/profile-photos/" + "a" * 32 + ".webp")


@pytest.mark.parametrize(
    "url",
    [
        "/_upload/profile-photos/../../x",
        "/_upload/profile-photos/../secret.txt",
        "/_upload/profile-photos/..%2F..%2Fsecret.txt",
        "/_upload/profile-photos/sub/" + "a" * 32 + ".webp",
        "/_upload/secret.txt",
        "/_upload/profile-photos/secret.txt",
        "https://example.com/_upload/profile-photos/" + "a" * 32 + ".webp",
        "https://images.unsplash.com/photo-1.jpg",
        "/assets/avatar.png",
        "",
        None,
    ],
)
def test_remove_file_ignores_foreign_urls_and_path_traversal(tmp_path, url):
    uploads = tmp_path / "uploads"
    (uploads / "profile-photos" / "sub").mkdir(parents=True)
    keep = [
        tmp_path / "x",
        tmp_path / "secret.txt",
        uploads / "secret.txt",
        uploads / "profile-photos" / "secret.txt",
        uploads / "profile-photos" / "sub" / ("a" * 32 + ".webp"),
    ]
    for path in keep:
        path.write_bytes(b"keep me")

    photos.remove_file(uploads, url)

    assert all(path.read_bytes() == b"keep me" for path in keep)


# --- the profile's photo -----------------------------------------------------------------------


def test_set_photo_returns_the_previous_url_and_stores_the_new_one(db):
    freelancer = make_freelancer(db, foto_url="/_upload/profile-photos/" + "b" * 32 + ".webp")
    before = db.get(Profile, freelancer.id).updated_at
    new_url = "/_upload/profile-photos/" + "c" * 32 + ".webp"

    old = photos.set_photo(db, freelancer.id, new_url)

    assert old == "/_upload/profile-photos/" + "b" * 32 + ".webp"
    stored = db.get(Profile, freelancer.id)
    assert stored.foto_url == new_url
    assert stored.updated_at >= before


def test_set_photo_without_a_previous_photo_returns_blank_and_blank_removes(db):
    company = make_company(db)
    url = "/_upload/profile-photos/" + "d" * 32 + ".webp"

    assert photos.set_photo(db, company.id, url) == ""
    assert photos.set_photo(db, company.id, "") == url
    assert db.get(Profile, company.id).foto_url == ""


def test_set_photo_touches_only_the_acting_users_profile(db):
    owner, other = make_freelancer(db), make_freelancer(db, nome="Ana Souza", foto_url="/assets/ana.png")

    photos.set_photo(db, owner.id, "/_upload/profile-photos/" + "e" * 32 + ".webp")

    assert db.get(Profile, other.id).foto_url == "/assets/ana.png"


def test_set_photo_refuses_a_removed_user(db):
    removed = make_freelancer(db, foto_url="/assets/old.png")
    removed.deleted_at = utcnow()
    db.add(removed)
    db.flush()

    with pytest.raises(NotAllowed) as error:
        photos.set_photo(db, removed.id, "/_upload/profile-photos/" + "f" * 32 + ".webp")

    assert error.value.message == "Não foi possível carregar suas informações."
    db.expire_all()
    assert db.get(Profile, removed.id).foto_url == "/assets/old.png"


def test_set_photo_refuses_a_missing_user(db):
    with pytest.raises(NotAllowed):
        photos.set_photo(db, 987_654, "/_upload/profile-photos/" + "f" * 32 + ".webp")
