"""The shift's .ics file: every field read back, text escaping, folding at 75 octets, CRLF."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from services.shifts.calendar_file import shift_ics

BRASILIA = timezone(timedelta(hours=-3))
START = datetime(2025, 7, 5, 18, 0, tzinfo=BRASILIA)
END = datetime(2025, 7, 6, 2, 30, tzinfo=BRASILIA)
STAMP = datetime(2025, 7, 1, 9, 15, 7, tzinfo=UTC)
LONG_TEXT = (
    "Atenção: chegar 15 minutos antes, uniforme preto, sapato fechado. Serviço de garçom em "
    "recepção de casamento — coquetel, jantar à francesa e açúcar/café no salão São João; "
    "ênfase em pontualidade e simpatia com convidados idosos. Pagamento via Pix após o término."
)


def make(**changes):
    values = {
        "uid": "job-42@turno",
        "start": START,
        "end": END,
        "summary": "Garçom — Casamento",
        "location": "Rua Augusta, 1500; São Paulo",
        "description": "Linha 1\nLinha 2",
        "url": "https://turno.example/vagas/42",
        "stamp": STAMP,
    }
    values.update(changes)
    return shift_ics(**values)


def unfold(text: str) -> list[str]:
    """Content lines of an iCalendar text (RFC 5545 §3.1 unfolding)."""
    assert text.endswith("\r\n")
    return text[: -len("\r\n")].replace("\r\n ", "").replace("\r\n\t", "").split("\r\n")


def unescape(value: str) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars)
            out.append("\n" if following in "nN" else following)
        else:
            out.append(char)
    return "".join(out)


def parse(text: str) -> list[tuple[str, str]]:
    """(name, raw value) of every content line (no parameters are used by the file)."""
    return [tuple(line.split(":", 1)) for line in unfold(text)]


def event_properties(text: str) -> dict[str, str]:
    lines = parse(text)
    begin, end = lines.index(("BEGIN", "VEVENT")), lines.index(("BEGIN", "VALARM"))
    return dict(lines[begin + 1 : end])


def test_structure_and_every_field():
    lines = parse(make())

    assert lines == [
        ("BEGIN", "VCALENDAR"),
        ("VERSION", "2.0"),
        ("PRODID", "-//Turno//Turnos//PT-BR"),
        ("CALSCALE", "GREGORIAN"),
        ("METHOD", "PUBLISH"),
        ("BEGIN", "VEVENT"),
        ("UID", "job-42@turno"),
        ("DTSTAMP", "20250701T091507Z"),
        ("DTSTART", "20250705T210000Z"),
        ("DTEND", "20250706T053000Z"),
        ("SUMMARY", "Garçom — Casamento"),
        ("LOCATION", "Rua Augusta\\, 1500\\; São Paulo"),
        ("DESCRIPTION", "Linha 1\\nLinha 2"),
        ("URL", "https://turno.example/vagas/42"),
        ("BEGIN", "VALARM"),
        ("ACTION", "DISPLAY"),
        ("TRIGGER", "-PT2H"),
        ("DESCRIPTION", "Garçom — Casamento"),
        ("END", "VALARM"),
        ("END", "VEVENT"),
        ("END", "VCALENDAR"),
    ]


def test_crlf_everywhere():
    text = make(description=LONG_TEXT + "\r\nfim\rfim\nfim")

    assert "\n" not in text.replace("\r\n", "")
    assert "\r" not in text.replace("\r\n", "")


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a;b", "a\\;b"),
        ("a,b", "a\\,b"),
        ("a\\b", "a\\\\b"),
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\nb"),
        ("a\rb", "a\\nb"),
        ("C:\\n;,", "C:\\\\n\\;\\,"),
        ("sino\x07 tab\t", "sino tab\t"),
    ],
)
def test_text_values_are_escaped(raw, escaped):
    properties = event_properties(make(summary=raw, location=raw, description=raw))

    assert properties["SUMMARY"] == properties["LOCATION"] == properties["DESCRIPTION"] == escaped


def test_escaped_values_read_back_to_the_original():
    original = 'Bar "do Zé"; mesa 3, 2º andar\\fundos\nLevar RG'

    assert unescape(event_properties(make(description=original))["DESCRIPTION"]) == original


def test_long_accented_text_is_folded_at_75_octets():
    text = make(description=LONG_TEXT, summary="Ação " * 40)
    physical = text.split("\r\n")[:-1]

    assert max(len(line.encode("utf-8")) for line in physical) <= 75
    assert any(len(line.encode("utf-8")) >= 73 for line in physical)
    assert sum(line.startswith(" ") for line in physical) >= 4
    properties = event_properties(text)
    assert unescape(properties["DESCRIPTION"]) == LONG_TEXT
    assert unescape(properties["SUMMARY"]) == "Ação " * 40


def test_folding_never_splits_a_multi_byte_character():
    for prefix in range(4):  # shift the accented characters across the fold point
        text = make(description="x" * prefix + "ção€😀" * 60)

        for line in text.split("\r\n"):
            line.encode("utf-8").decode("utf-8")  # every physical line is valid UTF-8 on its own
            assert len(line.encode("utf-8")) <= 75
        assert unescape(event_properties(text)["DESCRIPTION"]) == "x" * prefix + "ção€😀" * 60


def test_a_line_of_exactly_75_octets_is_not_folded():
    description = "a" * (75 - len("DESCRIPTION:"))
    physical = make(description=description).split("\r\n")

    assert f"DESCRIPTION:{description}" in physical


def test_empty_optional_fields_are_left_out():
    properties = event_properties(make(location="", description="", url=""))

    assert set(properties) == {"UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"}


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError):
        make(start=START.replace(tzinfo=None))
    with pytest.raises(ValueError):
        make(stamp=STAMP.replace(tzinfo=None))


def test_end_must_be_after_start():
    with pytest.raises(ValueError):
        make(end=START)


@pytest.mark.parametrize("url", ["https://x.example/a\r\nX-EVIL:1", "https://x.example/a b"])
def test_url_with_line_breaks_or_spaces_is_refused(url):
    with pytest.raises(ValueError):
        make(url=url)
