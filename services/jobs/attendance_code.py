"""The rotating 'Código de presença' of a shift: a TOTP code (RFC 6238, HMAC-SHA1).

Each job stores one secret (`new_secret`). The company shows the code of the current 30-second
step (`code_at`, `seconds_left`); the worker types it and `verify` accepts the current step and the
two previous ones, so a code read just before it changed still works for about a minute.
"""

import hashlib
import hmac
import math
import secrets
import struct
from datetime import datetime

STEP_SECONDS = 30
DIGITS = 6
PREVIOUS_STEPS_ACCEPTED = 2
SECRET_BYTES = 20


def new_secret() -> str:
    """A new random secret for a job.

    Returns:
        20 random bytes from `secrets`, hex-encoded (40 lower-case characters).
    """
    return secrets.token_bytes(SECRET_BYTES).hex()


def _unix_seconds(at: datetime) -> int:
    """Whole seconds since the Unix epoch of the aware datetime `at` (rounded down)."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("at must be an aware datetime")
    return math.floor(at.timestamp())


def _code_for_counter(key: bytes, counter: int, digits: int) -> str:
    """HOTP value (RFC 4226) of `counter`, zero-padded to `digits` digits."""
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    binary = int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF
    return str(binary % 10**digits).zfill(digits)


def code_at(secret_hex: str, at: datetime, digits: int = DIGITS, step: int = STEP_SECONDS) -> str:
    """The code of the time step that contains `at`.

    Args:
        secret_hex: The job's secret, hex-encoded (see `new_secret`).
        at: An aware datetime.
        digits: Number of digits of the code.
        step: Length of a time step in seconds.

    Returns:
        The code as a zero-padded string of `digits` digits (RFC 4226 dynamic truncation).

    Raises:
        ValueError: If `secret_hex` is not hex, `at` is naive or before the epoch, or
            `digits`/`step` is not positive.
    """
    if digits < 1 or step < 1:
        raise ValueError("digits and step must be positive")
    counter = _unix_seconds(at) // step
    if counter < 0:
        raise ValueError("at must not be before the Unix epoch")
    return _code_for_counter(bytes.fromhex(secret_hex), counter, digits)


def verify(secret_hex: str, code: object, at: datetime) -> bool:
    """Whether `code` is the code of the step containing `at` or of one of the two steps before it.

    Spaces in the typed code are ignored. Anything that is not a string of `DIGITS` ASCII digits
    is refused. Every accepted step is compared with `hmac.compare_digest`.

    Args:
        secret_hex: The job's secret, hex-encoded (see `new_secret`).
        code: What the worker typed.
        at: An aware datetime (the moment of the check-in).

    Returns:
        True if the code is valid at `at`.

    Raises:
        ValueError: If `secret_hex` is not hex or `at` is naive.
    """
    if not isinstance(code, str):
        return False
    typed = "".join(code.split())
    if len(typed) != DIGITS or not (typed.isascii() and typed.isdigit()):
        return False
    key = bytes.fromhex(secret_hex)
    counter = _unix_seconds(at) // STEP_SECONDS
    matched = False
    for back in range(PREVIOUS_STEPS_ACCEPTED + 1):
        if counter - back >= 0:
            matched |= hmac.compare_digest(_code_for_counter(key, counter - back, DIGITS), typed)
    return matched


def seconds_left(at: datetime) -> int:
    """Seconds until the code shown at `at` changes.

    Args:
        at: An aware datetime.

    Returns:
        A whole number from 1 to `STEP_SECONDS`.

    Raises:
        ValueError: If `at` is naive.
    """
    return STEP_SECONDS - _unix_seconds(at) % STEP_SECONDS
