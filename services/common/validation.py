"""What every form schema shares, with the messages of docs/product/validation.md §3: every form is validated on the server.

The forms themselves live beside this module, one per part of the product (account_forms,
profile_forms, job_forms, hiring_forms); this one keeps what they share: cleaning a typed value
(`clean`, `visible_length`, `min_len`), the `Form` base, the rules several forms use (a website,
a city, an amount in reais, a comma list) and `parse`, which turns a schema's failures into
ValidationFailed with one message per field.
"""

import re
import unicodedata
from datetime import datetime
from decimal import Decimal, InvalidOperation
from numbers import Number
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from core import cities
from core.types import utcnow
from services.common.errors import ValidationFailed

T = TypeVar("T", bound=BaseModel)
URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*\.[^\s]{2,}$", re.IGNORECASE)


def fail(message: str) -> PydanticCustomError:
    """The error a field rule raises: `parse` shows its `message` under the field."""
    return PydanticCustomError("rule", message)


# Control characters (C0 but tab and line breaks, DEL, C1) and lone surrogates (which UTF-8, hence
# no database, can store): dropped from every form value.
UNSTORABLE_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def clean(value: Any) -> str:
    """Coerce a form value to stripped text: numbers become their text, anything else not text ''.

    Control characters (except tab and line breaks) and lone surrogates are dropped.
    """
    if not isinstance(value, str):
        value = str(value) if isinstance(value, Number) else ""
    return UNSTORABLE_RE.sub("", value).strip()


# Characters a reader cannot see on their own: format (U+200B, U+2060, U+FEFF, bidi marks), controls,
# separators (U+00A0 and every space), combining marks (they only decorate the letter before them),
# surrogates, private-use and unassigned code points, and the letters that draw nothing (Hangul
# fillers, the blank Braille pattern).
_UNSEEN_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me", "Mc"})
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible_length(text: object, enough: int | None = None) -> int:
    """How many characters of `text` a reader sees: the measure of every free-text minimum.

    Spaces, invisible format characters (zero-width space, word joiner, BOM, direction marks),
    controls and combining marks standing alone count 0, so a reason of U+200B only is empty.

    Args:
        text: The text (anything else counts 0).
        enough: Stop counting once this many were seen (a minimum needs no more).

    Returns:
        The number of visible characters (at most `enough` when given).
    """
    if not isinstance(text, str):
        return 0
    seen = 0
    for char in text:
        if char not in _BLANK_LETTERS and unicodedata.category(char) not in _UNSEEN_CATEGORIES:
            seen += 1
            if enough is not None and seen >= enough:
                break
    return seen


def min_len(value: str, size: int, message: str) -> str:
    """`value` when it has at least `size` visible characters (`visible_length`), else the form error."""
    if visible_length(value, size) < size:
        raise fail(message)
    return value


def url_or_empty(value: Any) -> str:
    """A website field: empty, or an http(s) URL of at most 300 characters ('URL inválida' otherwise)."""
    text = clean(value)
    if text and (len(text) > 300 or not URL_RE.match(text)):
        raise fail("URL inválida")
    return text


class Form(BaseModel):
    """Base of every form schema: unknown keys are ignored, text is stripped."""

    model_config = ConfigDict(extra="ignore")

    @field_validator("*", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        return clean(value)


CITY_UNKNOWN = "Escolha uma cidade da lista."
CITY_AMBIGUOUS = "Há mais de uma cidade com este nome: escolha uma da lista."


def city_label(value: str) -> str:
    """The municipality a form's city names, as stored and shown ('Curitiba, PR'); docs/product/validation.md, "Cities".

    Raises:
        PydanticCustomError: 'Escolha uma cidade da lista.' for no municipality, or the ambiguous
            message when several states have a city of that name.
    """
    found = cities.resolve(value)
    if isinstance(found, cities.City):
        return found.label
    raise fail(CITY_AMBIGUOUS if found is cities.Unresolved.AMBIGUOUS else CITY_UNKNOWN)


CONFIRM_MISMATCH = "As senhas não conferem"


def parse(schema: type[T], data: Any, now: datetime | None = None) -> T:
    """Validate form data against a schema, raising ValidationFailed with the messages of docs/product/validation.md §3.

    Args:
        schema: The form schema class.
        data: The submitted mapping (any shape; non-mappings are refused).
        now: The instant time rules are judged at (JobForm's shift start); the clock when None.

    Returns:
        The validated, cleaned form.

    Raises:
        ValidationFailed: With one message per failing field.
    """
    if not isinstance(data, dict):
        data = {}
    data = {key: value for key, value in data.items() if isinstance(key, str)}
    try:
        return schema.model_validate(data, context={"now": now or utcnow()})
    except ValidationError as exc:
        errors: dict[str, str] = {}
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else ""
            if not field:
                errors.setdefault("confirmPassword", CONFIRM_MISMATCH)
            elif field == "confirmPassword":
                continue  # a missing confirmation is judged like an empty one, below
            elif error["type"] == "rule":
                errors.setdefault(field, error["msg"])
            else:
                errors.setdefault(field, _required_message(schema, field))
        if not errors.get("password") and "password" in schema.model_fields:
            confirm = clean(data.get("confirmPassword"))
            if "confirmPassword" in schema.model_fields and confirm != clean(data.get("password")):
                errors.setdefault("confirmPassword", CONFIRM_MISMATCH)
        raise ValidationFailed(errors) from None


def _required_message(schema: type[T], field: str) -> str:
    """The message for a missing field: the one its rule gives for empty text."""
    try:
        schema.model_validate({field: ""})
    except ValidationError as exc:
        for error in exc.errors():
            if error["loc"] and error["loc"][0] == field and error["type"] == "rule":
                return error["msg"]
    return "Campo obrigatório"


MAX_MONEY = Decimal("99999999.99")
JOB_SKILLS_MAX = 20  # skills a vaga lists (the default of `comma_list`)
PROFILE_SKILLS_MAX = 30  # skills a freelancer lists


THOUSANDS_RE = re.compile(r"^[1-9]\d{0,2}(\.\d{3})+$")


def parse_money(value: Any, message: str) -> Decimal | None:
    """Read an optional amount in reais ('25', '25.5', '25,50', '1.234,56', '1.234', 25.5); blank means None.

    Typed text is read the Brazilian way: a comma is the decimal mark, and dots before it, or in
    groups of three without a comma ('1.234'), separate thousands; a lone dot otherwise ('25.5') is
    a decimal point. Numbers are taken as they are.

    Raises:
        PydanticCustomError: With `message` when the value is not a non-negative amount.
    """
    text = clean(value).replace("R$", "").replace(" ", "")
    if not text:
        return None
    if "," in text or (isinstance(value, str) and THOUSANDS_RE.match(text)):
        text = text.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise fail(message) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_MONEY:
        raise fail(message)
    return amount.copy_abs().quantize(Decimal("0.01"))


def comma_list(text: str, max_items: int = JOB_SKILLS_MAX, max_length: int = 50) -> list[str]:
    """Split comma-separated text into trimmed items, dropping blanks and repeats."""
    items: list[str] = []
    for part in text.split(","):
        item = part.strip()[:max_length]
        if item and item not in items:
            items.append(item)
    return items[:max_items]
