"""Row ids that arrive from browsers: only positive integers that fit the database's id column."""

MAX_ID = 2**31 - 1


def valid_id(value: object) -> int | None:
    """The id when `value` is a positive int within range, else None (bools, strings and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value


def id_from_text(raw: object) -> int | None:
    """An id from a URL segment ('12') or a handler argument (12); None unless it is a valid id."""
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_ID)):
        raw = int(raw)
    return valid_id(raw)
