"""Password hashing and random tokens."""

import hashlib
import secrets

import bcrypt

from core.settings import get_settings

_DUMMY_HASHES: dict[int, bytes] = {}


def hash_password(password: str) -> str:
    """Hash a password with bcrypt at the configured cost.

    Args:
        password: The plain password (at most 72 bytes are significant to bcrypt).

    Returns:
        The bcrypt hash as text.
    """
    salt = bcrypt.gensalt(rounds=get_settings().bcrypt_rounds)
    return bcrypt.hashpw(_password_bytes(password), salt).decode()


def verify_password(password: str, password_hash: str | None) -> bool:
    """Check a password against a stored hash in constant time.

    When there is no stored hash (unknown e-mail), a dummy hash of the configured cost is checked
    so the answer takes the same time as for a real account.

    Args:
        password: The plain password offered.
        password_hash: The stored hash, or None when the account does not exist.

    Returns:
        True when the password matches the hash.
    """
    if password_hash is None:
        bcrypt.checkpw(_password_bytes(password), _dummy_hash())
        return False
    try:
        return bcrypt.checkpw(_password_bytes(password), password_hash.encode())
    except ValueError:
        return False


def _dummy_hash() -> bytes:
    """A hash of the configured bcrypt cost for unknown accounts (one per cost, made once)."""
    rounds = get_settings().bcrypt_rounds
    if rounds not in _DUMMY_HASHES:
        _DUMMY_HASHES[rounds] = hash_password("dummy-password-for-timing").encode()
    return _DUMMY_HASHES[rounds]


def _password_bytes(password: str) -> bytes:
    """Encode a password for bcrypt, pre-hashing long ones so no byte is silently ignored."""
    raw = password.encode("utf-8")
    if len(raw) > 72:
        raw = hashlib.sha256(raw).hexdigest().encode()
    return raw


def new_token() -> str:
    """Return a URL-safe random token with 256 bits of entropy."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """Return the SHA-256 hex digest under which a token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()
