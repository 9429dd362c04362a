"""The 'Publicar Nova Vaga' form (`JobForm`) and the shift time rules it applies: start, end, break and place.

The rules are also used alone where a shift's times are typed outside the form (duplicating a
vaga, an invite for a new date).
"""

import math
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from core import shift_rules
from core.catalog import BRING_LABEL, CATEGORIES
from core.geo import valid_point
from core.shift_format import duration_text
from core.types import utcnow
from models import PaymentMode
from models.job import BRING_MAX
from services.common.validation import city_label, clean, comma_list, fail, min_len, parse_money, visible_length

PAYMENT_MODE_INVALID = "Escolha a forma de pagamento."
SHIFT_START_MISSING = "Informe o início do turno."
SHIFT_END_MISSING = "Informe o fim do turno."
SHIFT_LENGTH = "O turno deve durar entre 2 e 12 horas."
SHIFT_TOO_SOON = "O turno deve começar pelo menos 2 horas a partir de agora."
SHIFT_TOO_LATE = "O turno deve começar em até 60 dias."
SHIFT_BREAK = "O intervalo deve ser de 0 a 120 minutos."
SHIFT_ADDRESS = "Informe o endereço do turno."
SHIFT_POINT = "Localização marcada inválida."
ADDRESS_MIN, ADDRESS_MAX = 5, 200
BRING_TOO_LONG = f"{BRING_LABEL}: no máximo {BRING_MAX} caracteres."


def local_datetime(value: Any) -> datetime | None:
    """Read a 'datetime-local' value ('2026-12-05T18:00') as São Paulo time, returned in UTC.

    An aware datetime is taken as it is; a naive one, like the text, is local time.

    Returns:
        The instant in UTC, or None when the value is blank or not a date and time.
    """
    if isinstance(value, datetime):
        moment = value
    else:
        text = clean(value)
        if not text or ("T" not in text and " " not in text):
            return None
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=shift_rules.LOCAL_TZ)
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError):  # the first or last day a datetime can hold
        return None


def check_shift_start(start: datetime, now: datetime) -> None:
    """Refuse a start before now + 2 h or after now + 60 days (core/shift_rules.py).

    Raises:
        PydanticCustomError: SHIFT_TOO_SOON or SHIFT_TOO_LATE.
    """
    if start < now + shift_rules.MIN_LEAD:
        raise fail(SHIFT_TOO_SOON)
    if start > now + shift_rules.MAX_LEAD:
        raise fail(SHIFT_TOO_LATE)


def shift_length_ok(start: datetime, end: datetime) -> bool:
    """Whether the shift lasts from 2 to 12 hours (end after start; it may cross midnight)."""
    return shift_rules.MIN_DURATION <= end - start <= shift_rules.MAX_DURATION


def _now(info: ValidationInfo) -> datetime:
    """The instant the shift rules are judged at: `now` of the validation context, else the clock."""
    context = info.context if isinstance(info.context, dict) else {}
    now = context.get("now")
    return now if isinstance(now, datetime) else utcnow()


def _coordinate(value: Any) -> float | str | None:
    """A hidden lat/lng field: None when blank, a float, or 'bad' when it is not a number."""
    if isinstance(value, bool):
        return "bad"
    text = value if isinstance(value, int | float) else clean(value)
    if text == "":
        return None
    try:
        number = float(text)
    except (ValueError, OverflowError):
        return "bad"
    return number if math.isfinite(number) else "bad"


def _checked(value: Any) -> bool:
    """A checkbox's value: True for a ticked box however the browser spells it."""
    if isinstance(value, bool):
        return value
    return clean(value).lower() in {"on", "true", "1", "yes", "sim"}


class JobForm(BaseModel):
    """'Publicar Nova Vaga' payload (docs/product/validation.md §3 job form, docs/product/jobs.md §4 jobs, docs/product/shifts.md "Turnos").

    The shift: `inicio_em` and `fim_em` arrive as 'datetime-local' text in São Paulo time and are
    kept in UTC; `data_necessaria` and `duracao` are no longer typed but derived (`job_values`).
    Validate with `parse(JobForm, data, now=...)` to judge the start against another instant.
    """

    model_config = ConfigDict(extra="ignore")

    titulo: str
    categoria: str
    descricao: str
    localizacao: str
    valor_hora: Decimal | None = None
    inicio_em: datetime
    fim_em: datetime
    intervalo_min: int = 0
    endereco: str
    ponto_lat: float | None = None
    # Validated even when the form leaves it out, so a latitude never stands without its longitude.
    ponto_lng: float | None = Field(default=None, validate_default=True)
    habilidades_necessarias: list[str] = []
    vale_transporte: bool = False
    refeicao_local: bool = False
    possui_intervalo: bool = False
    anuncio_anonimo: bool = False
    vagas_disponiveis: int = 1
    pagamento: str = PaymentMode.DIRECT  # 'direto' or 'garantido' (docs/product/money.md "Pagamento garantido")
    o_que_levar: str = ""  # 'Traje e o que levar': optional attire and items

    @field_validator("titulo", "categoria", "descricao", "localizacao", "endereco", "o_que_levar", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return clean(value)

    @field_validator("titulo")
    @classmethod
    def _titulo(cls, v: str) -> str:
        return min_len(v, 2, "Título deve ter pelo menos 2 caracteres.")[:120]

    @field_validator("categoria")
    @classmethod
    def _categoria(cls, v: str) -> str:
        if v not in CATEGORIES:
            raise fail("Por favor, selecione uma categoria.")
        return v

    @field_validator("descricao")
    @classmethod
    def _descricao(cls, v: str) -> str:
        return min_len(v, 10, "Descrição deve ter pelo menos 10 caracteres.")[:5000]

    @field_validator("localizacao")
    @classmethod
    def _localizacao(cls, v: str) -> str:
        return city_label(min_len(v, 2, "Localização deve ter pelo menos 2 caracteres."))

    @field_validator("valor_hora", mode="before")
    @classmethod
    def _valor(cls, value: Any) -> Decimal | None:
        return parse_money(value, "Informe um valor por hora válido.")

    @field_validator("inicio_em", mode="before")
    @classmethod
    def _inicio(cls, value: Any, info: ValidationInfo) -> datetime:
        start = local_datetime(value)
        if start is None:
            raise fail(SHIFT_START_MISSING)
        check_shift_start(start, _now(info))
        return start

    @field_validator("fim_em", mode="before")
    @classmethod
    def _fim(cls, value: Any, info: ValidationInfo) -> datetime:
        end = local_datetime(value)
        if end is None:
            raise fail(SHIFT_END_MISSING)
        start = info.data.get("inicio_em")
        if start is not None and not shift_length_ok(start, end):
            raise fail(SHIFT_LENGTH)
        return end

    @field_validator("intervalo_min", mode="before")
    @classmethod
    def _intervalo(cls, value: Any) -> int:
        text = clean(value)
        if not text:
            return 0
        if not (text.isascii() and text.isdigit() and len(text) <= 4) or int(text) > shift_rules.MAX_BREAK_MIN:
            raise fail(SHIFT_BREAK)
        return int(text)

    @field_validator("endereco")
    @classmethod
    def _endereco(cls, v: str) -> str:
        if len(v) > ADDRESS_MAX or visible_length(v, ADDRESS_MIN) < ADDRESS_MIN:
            raise fail(SHIFT_ADDRESS)
        return v

    @field_validator("o_que_levar")
    @classmethod
    def _o_que_levar(cls, v: str) -> str:
        """At most BRING_MAX characters, every one counted (what the column holds); nothing visible is blank."""
        if len(v) > BRING_MAX:
            raise fail(BRING_TOO_LONG)
        return v if visible_length(v, 1) else ""

    @field_validator("ponto_lat", mode="before")
    @classmethod
    def _lat(cls, value: Any) -> float | None:
        lat = _coordinate(value)
        if lat == "bad":
            raise fail(SHIFT_POINT)
        return lat

    @field_validator("ponto_lng", mode="before")
    @classmethod
    def _lng(cls, value: Any, info: ValidationInfo) -> float | None:
        lng = _coordinate(value)
        if "ponto_lat" not in info.data:
            return None  # the latitude failed: its message stands alone
        lat = info.data["ponto_lat"]
        if lng == "bad" or (lat is None) != (lng is None) or (lat is not None and not valid_point(lat, lng)):
            raise fail(SHIFT_POINT)
        return lng

    @field_validator("habilidades_necessarias", mode="before")
    @classmethod
    def _skills(cls, value: Any) -> list[str]:
        if isinstance(value, list):
            value = ",".join(clean(item) for item in value)
        return comma_list(clean(value))

    @field_validator("pagamento", mode="before")
    @classmethod
    def _payment(cls, value: Any) -> str:
        text = clean(value) or PaymentMode.DIRECT
        if text not in tuple(PaymentMode):
            raise ValueError(PAYMENT_MODE_INVALID)
        return text

    @field_validator("vale_transporte", "refeicao_local", "possui_intervalo", "anuncio_anonimo", mode="before")
    @classmethod
    def _bool(cls, value: Any) -> bool:
        return _checked(value)

    @field_validator("vagas_disponiveis", mode="before")
    @classmethod
    def _positions(cls, value: Any) -> int:
        text = clean(value)
        if not text:
            return 1
        if not text.isdigit() or not 1 <= int(text) <= 100:
            raise fail("O número de vagas deve estar entre 1 e 100.")
        return int(text)

    def job_values(self) -> dict[str, Any]:
        """The job's columns: every field plus the derived `data_necessaria` and `duracao`."""
        values = self.model_dump()
        values.update(shift_derived(self.inicio_em, self.fim_em))
        values["possui_intervalo"] = self.intervalo_min > 0  # the minutes decide (issue 42 point 13)
        return values


def shift_derived(start: datetime, end: datetime) -> dict[str, Any]:
    """The old columns a shift now sets: the local date of its start and its length as text."""
    return {
        "data_necessaria": start.astimezone(shift_rules.LOCAL_TZ).date(),
        "duracao": duration_text(end - start),
    }
