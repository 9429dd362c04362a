"""The shift loop's two small forms: a freelancer's application and the rating after a shift."""

from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from services.common.validation import clean, fail, parse_money


class ApplicationForm(BaseModel):
    """A freelancer's application: optional proposed hourly value and message."""

    model_config = ConfigDict(extra="ignore")

    valor_proposto: Decimal | None = None
    mensagem: str = ""

    @field_validator("valor_proposto", mode="before")
    @classmethod
    def _valor(cls, value: Any) -> Decimal | None:
        return parse_money(value, "Informe um valor por hora válido.")

    @field_validator("mensagem", mode="before")
    @classmethod
    def _mensagem(cls, value: Any) -> str:
        text = clean(value)
        if len(text) > 2000:
            raise fail("A mensagem deve ter no máximo 2000 caracteres.")
        return text


class RatingForm(BaseModel):
    """A 1-5 star rating with an optional comment."""

    model_config = ConfigDict(extra="ignore")

    stars: int
    comment: str = ""

    @field_validator("stars", mode="before")
    @classmethod
    def _stars(cls, value: Any) -> int:
        text = clean(value)
        if not text.isdigit() or not 1 <= int(text) <= 5:
            raise fail("Escolha de 1 a 5 estrelas.")
        return int(text)

    @field_validator("comment", mode="before")
    @classmethod
    def _comment(cls, value: Any) -> str:
        return clean(value)[:1000]
