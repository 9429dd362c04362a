"""Text folding for search: lower-case, accent-free, single-spaced."""

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
