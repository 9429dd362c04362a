"""The rotating attendance code: RFC 6238 test vectors, the accepted window and input checks."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from services.jobs import attendance_code
from services.jobs.attendance_code import code_at, new_secret, seconds_left, verify

RFC_SECRET = b"12345678901234567890".hex()
# RFC 6238 Appendix B, SHA1 column.
RFC_VECTORS = [
    (59, "94287082"),
    (1111111109, "07081804"),
    (1111111111, "14050471"),
    (1234567890, "89005924"),
    (2000000000, "69279037"),
    (20000000000, "65353130"),
]
NOW = datetime(2025, 3, 14, 12, 0, 10, tzinfo=UTC)  # 10 s into a step


def at(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def test_constants():
    assert (attendance_code.STEP_SECONDS, attendance_code.DIGITS, attendance_code.PREVIOUS_STEPS_ACCEPTED) == (30, 6, 2)


def test_new_secret_is_40_hex_characters_and_random():
    secret = new_secret()

    assert len(secret) == 40
    assert len(bytes.fromhex(secret)) == 20
    assert secret != new_secret()


@pytest.mark.parametrize(("seconds", "expected"), RFC_VECTORS)
def test_rfc_6238_sha1_vectors_with_8_digits(seconds, expected):
    assert code_at(RFC_SECRET, at(seconds), digits=8) == expected


@pytest.mark.parametrize(("seconds", "expected"), RFC_VECTORS)
def test_six_digit_codes_are_the_last_six_digits(seconds, expected):
    assert code_at(RFC_SECRET, at(seconds)) == expected[-6:]


def test_code_is_zero_padded():
    assert code_at(RFC_SECRET, at(1111111109), digits=8) == "07081804"
    assert len(code_at(RFC_SECRET, at(1111111109), digits=10)) == 10


def test_same_code_within_a_step_and_a_new_one_after():
    start = at(1_700_000_010)  # a multiple of 30, not of 60

    assert code_at(RFC_SECRET, start) == code_at(RFC_SECRET, start + timedelta(seconds=29.9))
    assert code_at(RFC_SECRET, start) != code_at(RFC_SECRET, start + timedelta(seconds=30))
    assert code_at(RFC_SECRET, start, step=60) == code_at(RFC_SECRET, start + timedelta(seconds=29), step=60)
    assert code_at(RFC_SECRET, start, step=60) != code_at(RFC_SECRET, start + timedelta(seconds=30), step=60)


def test_other_time_zones_give_the_same_code():
    brasilia = NOW.astimezone(timezone(timedelta(hours=-3)))

    assert code_at(RFC_SECRET, brasilia) == code_at(RFC_SECRET, NOW)


def test_naive_datetime_is_refused():
    with pytest.raises(ValueError):
        code_at(RFC_SECRET, datetime(2025, 1, 1))
    with pytest.raises(ValueError):
        verify(RFC_SECRET, "123456", datetime(2025, 1, 1))


@pytest.mark.parametrize("seconds_ago", [0, 30, 60])
def test_verify_accepts_the_current_and_two_previous_steps(seconds_ago):
    secret = new_secret()
    code = code_at(secret, NOW - timedelta(seconds=seconds_ago))

    assert verify(secret, code, NOW)


@pytest.mark.parametrize("offset", [-90, -120, 30, 60])
def test_verify_refuses_older_and_future_steps(offset):
    secret = new_secret()
    code = code_at(secret, NOW + timedelta(seconds=offset))

    assert not verify(secret, code, NOW)


def test_window_is_counted_in_steps_not_seconds():
    secret = new_secret()
    step_start = at(1_700_000_010)

    # 89 s before the end of the current step is still two steps back.
    assert verify(secret, code_at(secret, step_start - timedelta(seconds=60)), step_start + timedelta(seconds=29))
    assert not verify(secret, code_at(secret, step_start - timedelta(seconds=61)), step_start)


def test_verify_ignores_spaces():
    code = code_at(RFC_SECRET, NOW)

    assert verify(RFC_SECRET, f" {code[:3]} {code[3:]} ", NOW)
    assert verify(RFC_SECRET, f"{code}\n", NOW)


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        123456,
        12.5,
        b"123456",
        [],
        "",
        "      ",
        "12345",
        "1234567",
        "12a456",
        "-12345",
        "+12345",
        "１２３４５６",
        "١٢٣٤٥٦",
    ],
)
def test_verify_refuses_garbage(garbage):
    assert not verify(RFC_SECRET, garbage, NOW)


def test_verify_refuses_a_code_of_another_secret():
    assert not verify(new_secret(), code_at(RFC_SECRET, NOW), NOW)


@pytest.mark.parametrize(
    ("seconds", "left"),
    [(1_700_000_010, 30), (1_700_000_011, 29), (1_700_000_039, 1), (1_700_000_040, 30), (59, 1), (60, 30)],
)
def test_seconds_left(seconds, left):
    assert seconds_left(at(seconds)) == left


def test_seconds_left_with_fractions_stays_in_range():
    assert seconds_left(at(1_700_000_039) + timedelta(microseconds=999_999)) == 1
    assert seconds_left(at(1_700_000_010) + timedelta(microseconds=1)) == 30
