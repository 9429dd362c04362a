"""Text helpers: folding for search (lower-case, accent-free, single-spaced) and reading query values."""

import re
import unicodedata


def fold(text: str | None) -> str:
    """Fold text for accent- and case-insensitive comparison.

    'Garçom  de Café' becomes 'garcom de cafe': the text is decomposed (NFKD), combining marks
    are dropped, the rest is case-folded and runs of whitespace become one space.

    Args:
        text: Any text (None is treated as empty).

    Returns:
        The folded text.
    """
    decomposed = unicodedata.normalize("NFKD", text or "")
    without_marks = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(without_marks.casefold().split())


# Control characters and lone surrogates: a URL cannot encode a lone surrogate (UTF-8 has none).
_UNSTORABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def clipped(value: object, limit: int) -> str:
    """A query or form value as stripped text of at most `limit` characters ('' for non-text).

    Control characters and lone surrogates are dropped.
    """
    return _UNSTORABLE.sub("", value).strip()[:limit] if isinstance(value, str) else ""


def positive_int(value: object, default: int) -> int:
    """A query value holding a small positive integer (e.g. ?page=3), or `default`."""
    text = clipped(value, 12)
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 10**9 else default


def city_key(location: str | None) -> str:
    """The folded city of a location as typed: 'São Paulo, SP' and 'SAO PAULO' both give 'sao paulo'."""
    return fold((location or "").split(",")[0].split(" - ")[0])[:120]
