"""Brazilian tax ids: CPF for freelancers, CNPJ for companies (docs/product/money.md "Meus Ganhos").

Check digits are verified by validate-docbr, which also accepts the alphanumeric CNPJ valid from
July 2026 ('12.ABC.345/01DE-35'). Ids are stored bare (digits, and for a CNPJ upper-case letters)
and shown formatted; a CPF is shown masked ('***.456.789-**') everywhere except to its owner's
data export.
"""

import re

from validate_docbr import CNPJ, CPF

CPF_INVALID = "CPF inválido. Confira os números."
CNPJ_INVALID = "CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras."
CPF_LENGTH, CNPJ_LENGTH = 11, 14
_SEPARATORS = re.compile(r"[\s./-]")
_CPF_CHECK, _CNPJ_CHECK = CPF(), CNPJ()


def bare_cpf(text: object) -> str:
    """The CPF's 11 digits from what was typed ('529.982.247-25' → '52998224725'); '' when malformed."""
    bare = _SEPARATORS.sub("", str(text or ""))
    return bare if len(bare) == CPF_LENGTH and bare.isdigit() else ""


def valid_cpf(text: object) -> str | None:
    """The bare CPF when `text` is a valid one (check digits, not all digits equal), else None."""
    bare = bare_cpf(text)
    return bare if bare and _CPF_CHECK.validate(bare) else None


def masked_cpf(bare: str) -> str:
    """How a stored CPF is shown: its middle six digits only ('***.456.789-**')."""
    if len(bare) != CPF_LENGTH:
        return ""
    return f"***.{bare[3:6]}.{bare[6:9]}-**"


def bare_cnpj(text: object) -> str:
    """The CNPJ's 14 characters, letters upper-cased, from what was typed; '' when malformed.

    The first 12 characters may be digits or letters (the alphanumeric CNPJ); the last two, the
    check digits, are always digits.
    """
    bare = _SEPARATORS.sub("", str(text or "")).upper()
    if len(bare) != CNPJ_LENGTH or not bare[:12].isalnum() or not bare[:12].isascii() or not bare[12:].isdigit():
        return ""
    return bare


def valid_cnpj(text: object) -> str | None:
    """The bare CNPJ when `text` is a valid one (numeric or alphanumeric), else None."""
    bare = bare_cnpj(text)
    return bare if bare and _CNPJ_CHECK.validate(bare) else None


def formatted_cnpj(bare: str) -> str:
    """A stored CNPJ as written on documents: '12.ABC.345/01DE-35'."""
    if len(bare) != CNPJ_LENGTH:
        return ""
    return f"{bare[:2]}.{bare[2:5]}.{bare[5:8]}/{bare[8:12]}-{bare[12:]}"
