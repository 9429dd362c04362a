"""pt-BR formatting of money, dates (shown in America/Sao_Paulo) and counted nouns."""

from datetime import date, datetime
from decimal import Decimal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.numbers import format_currency

LOCAL_TZ = ZoneInfo("America/Sao_Paulo")
PROFESSIONAL = ("profissional", "profissionais")  # a noun's singular and plural, for `counted`


def money(value: Decimal | None) -> str:
    """Format an amount as Brazilian reais, e.g. 'R$ 25,00'."""
    if value is None:
        return ""
    return format_currency(value, "BRL", locale="pt_BR").replace("\xa0", " ")


def money_cents(centavos: int | None) -> str:
    """Centavos as 'R$ 1.234,56' (None reads as zero)."""
    return money(Decimal(centavos or 0) / 100)


def hourly_pay(value: Decimal | None) -> str:
    """Format an hourly rate: 'R$ 25,00/hora', or 'A combinar' when absent."""
    if value is None:
        return "A combinar"
    return f"{money(value)}/hora"


def local(value: datetime) -> datetime:
    """Convert an aware UTC datetime to São Paulo time."""
    return value.astimezone(LOCAL_TZ)


def long_date(value: datetime | date) -> str:
    """Long pt-BR date, e.g. '22 de novembro de 2026'."""
    if isinstance(value, datetime):
        value = local(value).date()
    return format_date(value, format="long", locale="pt_BR")


def short_date(value: datetime | date) -> str:
    """dd/MM/yyyy."""
    if isinstance(value, datetime):
        value = local(value)
    return value.strftime("%d/%m/%Y")


def date_time(value: datetime) -> str:
    """dd/MM/yyyy HH:mm in São Paulo time (notifications)."""
    return local(value).strftime("%d/%m/%Y %H:%M")


def clock(value: datetime) -> str:
    """HH:mm in São Paulo time (chat)."""
    return local(value).strftime("%H:%M")


def initials(name: str) -> str:
    """Up to two upper-case initials of a name, e.g. 'Mariana Costa' -> 'MC' ('' when blank)."""
    parts = [part for part in (name or "").split() if part[:1].isalpha()]
    if not parts:
        return ""
    return (parts[0][0] + (parts[-1][0] if len(parts) > 1 else "")).upper()


def counted(count: int, one: str, many: str) -> str:
    """The count with its noun in agreement: '1 profissional', '0 profissionais', '3 profissionais'.

    Args:
        count: How many.
        one: The noun's singular (only 1 takes it; zero is plural in Portuguese).
        many: The noun's plural.
    """
    return f"{count} {one if count == 1 else many}"


def safe_website(url: str) -> str:
    """The URL when it is an absolute http(s) address with a host, else '' (never a javascript: link)."""
    text = (url or "").strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(c.isspace() for c in text):
        return ""
    return text
