"""Profile photos: checked by content, re-encoded, stored under a fresh random name.

An upload is accepted only when its bytes decode as a JPEG, PNG or WebP image of at most 5 MB
(docs/product/accounts.md §8), whatever its file name or declared type says. The accepted image is re-encoded as a
WebP of at most 512×512 pixels: the stored file never carries the uploader's bytes (no polyglot
file, no EXIF location data) and every avatar loads fast.

Decoding is bounded before it starts (docs/security.md, uploads): the pixel count is read from the
header and checked first, so a small file declaring a huge image is refused in microseconds. A
JPEG is decoded directly at the smallest 1/2, 1/4 or 1/8 scale still larger than 512 pixels (the
codec's own DCT scaling), so even a 40-megapixel JPEG costs a few MB; PNG and WebP have no such
scaling and are decoded whole, so they are held to 8.4 megapixels (a 4K screenshot is 8.3), and the
image is shrunk before any colour conversion, so one upload holds at most two full-size copies.

Files live in the upload folder the caller passes (Reflex serves it at /_upload); the database
keeps the public path. The caller commits, then removes the replaced file (`remove_file`), so a
failed save never leaves a profile pointing at a missing file.
"""

import re
import secrets
import warnings
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError
from sqlmodel import Session, select

from core.types import utcnow
from models import Profile, User
from services.accounts.profiles import PROFILE_LOAD_FAILED
from services.common.errors import NotAllowed, ServiceError

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
MAX_DECODED_PIXELS = 4096 * 2048
SHRINK_FIRST = frozenset({"RGB", "RGBA", "L", "LA"})
SIDE = 512
ALLOWED_FORMATS = frozenset({"JPEG", "PNG", "WEBP"})
FOLDER = "profile-photos"
URL_PREFIX = f"/_upload/{FOLDER}/"
NAME_RE = re.compile(r"^[0-9a-f]{32}\.webp$")
PHOTO_ERROR_TITLE = "Erro ao atualizar foto"
WRONG_TYPE_TITLE = "Tipo de arquivo inválido"
WRONG_TYPE = "Por favor, selecione apenas arquivos JPEG, PNG ou WebP."
TOO_LARGE_TITLE = "Arquivo muito grande"
TOO_LARGE = "O arquivo deve ter no máximo 5MB."
UNREADABLE = "Não foi possível ler a imagem. Escolha outro arquivo."
NO_FILE = "Selecione uma imagem."


class PhotoRejected(ServiceError):
    """An upload that is not an acceptable photo; `title` is the toast's heading (docs/product/accounts.md §8)."""

    def __init__(self, title: str, message: str):
        super().__init__(message)
        self.title = title


def reencode(data: bytes) -> bytes:
    """Check that `data` is a real JPEG, PNG or WebP of at most 5 MB and re-encode it as WebP.

    Args:
        data: The uploaded bytes.

    Returns:
        The WebP bytes to store (at most 512 pixels on each side, orientation applied, no metadata).

    Raises:
        PhotoRejected: Empty, over 5 MB, not one of the three formats, or not decodable.
    """
    if not data:
        raise PhotoRejected(PHOTO_ERROR_TITLE, NO_FILE)
    if len(data) > MAX_BYTES:
        raise PhotoRejected(TOO_LARGE_TITLE, TOO_LARGE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(BytesIO(data)) as probe:
                kind = probe.format
                if kind not in ALLOWED_FORMATS:
                    raise PhotoRejected(WRONG_TYPE_TITLE, WRONG_TYPE)
                if probe.width * probe.height > (MAX_PIXELS if kind == "JPEG" else MAX_DECODED_PIXELS):
                    raise PhotoRejected(PHOTO_ERROR_TITLE, UNREADABLE)
                probe.verify()
            with Image.open(BytesIO(data), formats=[kind]) as image:
                if kind == "JPEG":
                    image.draft(None, (SIDE, SIDE))
                image.load()
                return _small_webp(image)
    except PhotoRejected:
        raise
    except UnidentifiedImageError:
        raise PhotoRejected(WRONG_TYPE_TITLE, WRONG_TYPE) from None
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRejected(PHOTO_ERROR_TITLE, UNREADABLE) from None


def _small_webp(image: Image.Image) -> bytes:
    """The decoded image upright, at most SIDE pixels a side, as WebP without metadata.

    Modes with a good resampling filter are shrunk before the colour conversion, so the full-size
    pixels are copied as few times as possible.
    """
    upright = ImageOps.exif_transpose(image)
    target = "RGBA" if upright.mode in {"RGBA", "LA", "P", "PA"} else "RGB"
    if upright.mode in SHRINK_FIRST:
        upright.thumbnail((SIDE, SIDE))
        upright = upright.convert(target)
    else:
        upright = upright.convert(target)
        upright.thumbnail((SIDE, SIDE))
    out = BytesIO()
    upright.save(out, "WEBP", quality=85, method=4)
    return out.getvalue()


def _path_of(upload_dir: Path, url: str) -> Path | None:
    """The file behind one of our photo URLs; None for anything else (seed URLs, foreign links)."""
    if not url.startswith(URL_PREFIX):
        return None
    name = url[len(URL_PREFIX) :]
    return upload_dir / FOLDER / name if NAME_RE.match(name) else None


def write_file(upload_dir: Path, content: bytes) -> str:
    """Store re-encoded photo bytes under a fresh random name.

    Args:
        upload_dir: The folder served at /_upload.
        content: The bytes from `reencode`.

    Returns:
        The public URL of the new file.
    """
    folder = upload_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{secrets.token_hex(16)}.webp"
    partial = folder / f".{name}.part"
    partial.write_bytes(content)
    partial.replace(folder / name)
    return URL_PREFIX + name


def remove_file(upload_dir: Path, url: str) -> None:
    """Delete a stored photo by its URL; URLs that are not ours are left alone."""
    path = _path_of(upload_dir, url or "")
    if path is not None:
        path.unlink(missing_ok=True)


def set_photo(session: Session, user_id: int, url: str) -> str:
    """Point the acting user's profile at a stored photo.

    Args:
        session: Open database session (the caller commits, then removes the returned old file).
        user_id: The acting user (from the server-side session).
        url: The URL `write_file` returned, or '' to remove the photo.

    Returns:
        The URL the profile had before ('' when none).

    Raises:
        NotAllowed: When the user has no profile (a removed account).
    """
    profile = session.exec(
        select(Profile)
        .join(User, User.id == Profile.user_id)
        .where(Profile.user_id == user_id, User.deleted_at.is_(None))
    ).first()
    if profile is None:
        raise NotAllowed(PROFILE_LOAD_FAILED)
    old = profile.foto_url
    profile.foto_url = url
    profile.updated_at = utcnow()
    session.add(profile)
    session.flush()
    return old
