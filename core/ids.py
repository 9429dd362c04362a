"""Row ids that arrive from browsers: only positive integers that fit the database's id column."""

MAX_ID = 2**31 - 1


def valid_id(value: object) -> int | None:
    """The id when `value` is a positive int within range, else None (bools, strings and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value
