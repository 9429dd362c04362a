"""The 'Adicionar à agenda' file of a shift: one iCalendar event (RFC 5545) with a reminder."""

import re
from datetime import UTC, datetime

CRLF = "\r\n"
LINE_OCTETS = 75
PRODID = "-//Turno//Turnos//PT-BR"
REMINDER = "-PT2H"

_NEWLINE = re.compile(r"\r\n|\r|\n")
# Control characters other than HTAB are not allowed in TEXT values (RFC 5545 §3.3.11).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def escape_text(value: str) -> str:
    r"""A TEXT value escaped for iCalendar.

    Backslash, semicolon and comma are escaped with a backslash, every line break becomes ``\n``
    and other control characters (except tab) are dropped.
    """
    escaped = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return _CONTROL.sub("", _NEWLINE.sub("\\\\n", escaped))


def fold(line: str) -> str:
    """A content line folded into physical lines of at most 75 octets (UTF-8), joined by CRLF + space.

    A multi-byte character is never split; the leading space of a continuation line counts
    towards its 75 octets.
    """
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for char in line:
        width = len(char.encode("utf-8"))
        limit = LINE_OCTETS if not parts else LINE_OCTETS - 1
        if size + width > limit:
            parts.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    parts.append("".join(current))
    return (CRLF + " ").join(parts)


def _utc(moment: datetime) -> str:
    """An aware datetime as a UTC DATE-TIME value (YYYYMMDDTHHMMSSZ)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("datetimes must be aware")
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def shift_ics(
    uid: str,
    start: datetime,
    end: datetime,
    summary: str,
    location: str,
    description: str,
    url: str,
    stamp: datetime,
) -> str:
    """An iCalendar file with one event for a shift and a display reminder two hours before it.

    Args:
        uid: Globally unique, stable id of the event (e.g. 'job-42@turno'), so that importing the
            file again updates the same event.
        start: Start of the shift (aware datetime; written in UTC).
        end: End of the shift (aware datetime, after `start`).
        summary: Title of the event.
        location: Address of the shift ('' leaves LOCATION out).
        description: Free text ('' leaves DESCRIPTION out).
        url: Link back to the job ('' leaves URL out).
        stamp: When the file was made (aware datetime; DTSTAMP).

    Returns:
        The file's text: CRLF line endings, text values escaped, lines folded at 75 octets.

    Raises:
        ValueError: If a datetime is naive, `end` is not after `start`, or `url` contains
            control characters or spaces.
    """
    if _utc(end) <= _utc(start):
        raise ValueError("end must be after start")
    if re.search(r"[\x00-\x20\x7f]", url):
        raise ValueError("url must not contain control characters or spaces")
    event = [
        f"UID:{escape_text(uid)}",
        f"DTSTAMP:{_utc(stamp)}",
        f"DTSTART:{_utc(start)}",
        f"DTEND:{_utc(end)}",
        f"SUMMARY:{escape_text(summary)}",
    ]
    if location:
        event.append(f"LOCATION:{escape_text(location)}")
    if description:
        event.append(f"DESCRIPTION:{escape_text(description)}")
    if url:
        event.append(f"URL:{url}")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        *event,
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        f"TRIGGER:{REMINDER}",
        f"DESCRIPTION:{escape_text(summary)}",
        "END:VALARM",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "".join(fold(line) + CRLF for line in lines)
