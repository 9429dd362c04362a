"""The server's VAPID key pair (RFC 8292): how push services know our pushes come from us.

The private key comes from settings (`VAPID_PRIVATE_KEY`, base64url of the raw 32-byte P-256
scalar, as `python -m scripts.vapid_keys` prints it). Outside production, without one, a key is
made once and kept in `var/vapid_private_key.txt` (ignored by git), so `make run` works with
push out of the box and the browsers' subscriptions survive a restart. In production without a
key, push is off and 'Ativar notificações neste aparelho' does not appear.
"""

import base64
import os
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from core.settings import get_settings

DEV_KEY_FILE = Path(__file__).resolve().parents[1] / "var" / "vapid_private_key.txt"


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Decode base64url with or without padding (raises ValueError on anything else)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    """A new P-256 private key as base64url of its 32-byte scalar."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(private_key: str) -> str:
    """The browser's `applicationServerKey`: base64url of the uncompressed public point (65 bytes)."""
    scalar = int.from_bytes(b64url_decode(private_key), "big")
    point = ec.derive_private_key(scalar, ec.SECP256R1()).public_key()
    return b64url(point.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def _dev_key() -> str:
    """The development key, made on first use and kept in var/ (an atomic write: workers may race)."""
    if DEV_KEY_FILE.exists():
        return DEV_KEY_FILE.read_text().strip()
    DEV_KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
    temporary = DEV_KEY_FILE.with_name(f".{DEV_KEY_FILE.name}.{os.getpid()}")
    temporary.write_text(new_private_key())
    try:
        os.link(temporary, DEV_KEY_FILE)  # fails if another process made it first: theirs wins
    except FileExistsError:
        pass
    finally:
        temporary.unlink()
    return DEV_KEY_FILE.read_text().strip()


@lru_cache
def private_key() -> str | None:
    """The VAPID private key in use, or None when push is off (production without a key)."""
    settings = get_settings()
    if settings.vapid_private_key:
        return settings.vapid_private_key.strip()
    if settings.is_production:
        return None
    return _dev_key()


@lru_cache
def public_key() -> str:
    """The public key browsers subscribe with ('' when push is off)."""
    key = private_key()
    return public_key_of(key) if key else ""


def subject() -> str:
    """The VAPID `sub` claim: how a push service can reach us (the contact address)."""
    settings = get_settings()
    return settings.vapid_subject or f"mailto:{settings.contact_email}"
