"""Password hashing, pt-BR formatting, the UTC column type and the category catalogue."""

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import StatementError
from sqlmodel import select

from core import formatting
from core.catalog import CATEGORIES, canonical_category
from core.security import hash_password, new_token, token_digest, verify_password
from core.types import UTCDateTime, utcnow
from models import OutboxEmail

# Passwords


def test_hash_and_verify(settings):
    hashed = hash_password("Segura123")

    assert hashed != "Segura123"
    assert hashed.startswith(f"$2b${settings.bcrypt_rounds:02d}$")
    assert verify_password("Segura123", hashed)
    assert not verify_password("segura123", hashed)
    assert not verify_password("", hashed)


def test_same_password_gets_a_different_salt():
    assert hash_password("Segura123") != hash_password("Segura123")


def test_passwords_longer_than_72_bytes_differ_after_byte_72():
    prefix = "A1b" * 30  # 90 bytes
    hashed = hash_password(prefix + "x")

    assert verify_password(prefix + "x", hashed)
    assert not verify_password(prefix + "y", hashed)
    assert not verify_password(prefix[:72], hashed)


def test_multibyte_passwords_over_72_bytes_are_distinguished():
    prefix = "ç" * 40  # 80 bytes in UTF-8
    hashed = hash_password(prefix + "a")

    assert verify_password(prefix + "a", hashed)
    assert not verify_password(prefix + "b", hashed)


def test_unknown_user_path_returns_false():
    assert verify_password("Segura123", None) is False


@pytest.mark.parametrize("stored", ["", "not-a-bcrypt-hash", "$2b$04$short"])
def test_corrupt_stored_hash_returns_false(stored):
    assert verify_password("Segura123", stored) is False


def test_token_digest_is_sha256_hex():
    token = new_token()

    assert len(token_digest(token)) == 64
    assert token_digest(token) == token_digest(token)
    assert token_digest(token) != token_digest(new_token())


# pt-BR formatting


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Decimal("25"), "R$ 25,00"),
        (Decimal("25.5"), "R$ 25,50"),
        (Decimal("1234.56"), "R$ 1.234,56"),
        (Decimal("0"), "R$ 0,00"),
        (None, ""),
    ],
)
def test_money(value, expected):
    assert formatting.money(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(Decimal("25"), "R$ 25,00/hora"), (Decimal("18.75"), "R$ 18,75/hora"), (None, "A combinar")],
)
def test_hourly_pay(value, expected):
    assert formatting.hourly_pay(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (date(2026, 11, 22), "22 de novembro de 2026"),
        (date(2026, 3, 1), "1 de março de 2026"),
        (datetime(2026, 11, 22, 15, 0, tzinfo=UTC), "22 de novembro de 2026"),
        # 02:30 UTC is still the evening before in São Paulo
        (datetime(2026, 11, 22, 2, 30, tzinfo=UTC), "21 de novembro de 2026"),
    ],
)
def test_long_date(value, expected):
    assert formatting.long_date(value) == expected


def test_short_date_time_and_clock_are_in_sao_paulo_time():
    moment = datetime(2026, 11, 22, 2, 30, tzinfo=UTC)

    assert formatting.short_date(moment) == "21/11/2026"
    assert formatting.date_time(moment) == "21/11/2026 23:30"
    assert formatting.clock(moment) == "23:30"


def test_short_date_of_a_plain_date():
    assert formatting.short_date(date(2026, 1, 5)) == "05/01/2026"


def test_local_converts_from_any_zone():
    moment = datetime(2026, 6, 1, 12, 0, tzinfo=timezone(timedelta(hours=2)))

    assert formatting.local(moment).strftime("%d/%m/%Y %H:%M") == "01/06/2026 07:00"


# UTCDateTime


@pytest.mark.parametrize("dialect", [sqlite.dialect(), postgresql.dialect()], ids=["sqlite", "postgresql"])
def test_utc_datetime_refuses_naive_values(dialect):
    with pytest.raises(ValueError, match="Naive"):
        UTCDateTime().process_bind_param(datetime(2026, 11, 22, 12, 0), dialect)


def test_utc_datetime_stores_utc_without_zone_on_sqlite():
    moment = datetime(2026, 11, 22, 9, 30, tzinfo=timezone(timedelta(hours=-3)))

    stored = UTCDateTime().process_bind_param(moment, sqlite.dialect())

    assert stored == datetime(2026, 11, 22, 12, 30)
    assert UTCDateTime().process_result_value(stored, sqlite.dialect()) == datetime(2026, 11, 22, 12, 30, tzinfo=UTC)


def test_utc_datetime_keeps_none():
    assert UTCDateTime().process_bind_param(None, sqlite.dialect()) is None
    assert UTCDateTime().process_result_value(None, sqlite.dialect()) is None


def test_utc_datetime_round_trip_returns_aware_utc(db):
    moment = datetime(2026, 11, 22, 9, 30, 15, tzinfo=timezone(timedelta(hours=-3)))
    db.add(OutboxEmail(to_email="a@b.com", subject="s", body="b", created_at=moment))
    db.commit()
    db.expire_all()

    stored = db.exec(select(OutboxEmail)).one().created_at

    assert stored == moment
    assert stored.utcoffset() == timedelta(0)
    assert stored.tzinfo is not None
    assert (stored.hour, stored.minute, stored.second) == (12, 30, 15)


def test_utc_datetime_refuses_naive_values_on_insert(db):
    db.add(OutboxEmail(to_email="a@b.com", subject="s", body="b", created_at=datetime(2026, 11, 22, 12, 0)))

    with pytest.raises(StatementError, match="Naive"):
        db.commit()
    db.rollback()


def test_utcnow_is_aware_utc():
    assert utcnow().tzinfo is UTC


# Categories


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("gastronomy", "gastronomia"),
        ("restaurant", "restaurante"),
        ("events", "eventos"),
        (" Events ", "eventos"),
        ("GASTRONOMIA", "gastronomia"),
        ("hotel", "hotel"),
        ("outros", "outros"),
        ("desconhecida", None),
        ("", None),
        (None, None),
    ],
)
def test_canonical_category(slug, expected):
    assert canonical_category(slug) == expected


@pytest.mark.parametrize("slug", list(CATEGORIES))
def test_every_category_is_its_own_canonical_slug(slug):
    assert canonical_category(slug) == slug
