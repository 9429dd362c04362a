"""Input schemas with the exact messages of docs/product.md §3; every form is validated here, on the server."""

import math
import re
import unicodedata
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from numbers import Number
from typing import Any, TypeVar

from email_validator import EmailNotValidError, validate_email
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from core import cities, shift_rules
from core.catalog import BRING_LABEL, CATEGORIES, CONTACT_SUBJECTS, INDUSTRIES, PASSWORD_MIN
from core.geo import valid_point
from core.shift_format import duration_text
from core.types import utcnow
from models.job import BRING_MAX
from services.common.errors import ValidationFailed

T = TypeVar("T", bound=BaseModel)
PAYMENT_MODE_INVALID = "Escolha a forma de pagamento."
EMAIL_INVALID = "Email inválido"
URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*\.[^\s]{2,}$", re.IGNORECASE)


def _fail(message: str) -> PydanticCustomError:
    return PydanticCustomError("rule", message)


# Control characters (C0 but tab and line breaks, DEL, C1) and lone surrogates (which UTF-8, hence
# no database, can store): dropped from every form value.
UNSTORABLE_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean(value: Any) -> str:
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


def _min_len(value: str, size: int, message: str) -> str:
    """`value` when it has at least `size` visible characters (`visible_length`), else the form error."""
    if visible_length(value, size) < size:
        raise _fail(message)
    return value


def _min_chars(value: str, size: int, message: str) -> str:
    """`value` when it has at least `size` characters of any kind (passwords: every character counts)."""
    if len(value) < size:
        raise _fail(message)
    return value


def normalize_email(value: Any, message: str = EMAIL_INVALID) -> str:
    """Validate an e-mail address syntactically and return it lower-cased.

    Args:
        value: The raw form value.
        message: The message when invalid.

    Returns:
        The normalized address.
    """
    text = _clean(value)
    if len(text) > 254:
        raise _fail(message)
    try:
        return validate_email(text, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise _fail(message) from None


def _url_or_empty(value: Any) -> str:
    text = _clean(value)
    if text and (len(text) > 300 or not URL_RE.match(text)):
        raise _fail("URL inválida")
    return text


class _Form(BaseModel):
    """Base of every form schema: unknown keys are ignored, text is stripped."""

    model_config = ConfigDict(extra="ignore")

    @field_validator("*", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        return _clean(value)


def _password_rules(value: str) -> str:
    if len(value) < PASSWORD_MIN:
        raise _fail("Senha deve ter pelo menos 8 caracteres")
    if len(value) > 200 or not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) and re.search(r"\d", value)):
        raise _fail("Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número")
    return value


class _Registration(_Form):
    name: str
    email: str
    password: str
    confirmPassword: str  # noqa: N815  (the registration form's field name, docs/product.md §3)
    location: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _min_len(v, 2, "Nome deve ter pelo menos 2 caracteres")[:120]

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return normalize_email(v)

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        return _password_rules(v)

    @field_validator("location")
    @classmethod
    def _location(cls, v: str) -> str:
        return city_label(_min_len(v, 2, "Localização é obrigatória"))

    @model_validator(mode="after")
    def _confirm(self) -> "_Registration":
        if self.confirmPassword != self.password:
            raise ValueError("confirm")
        return self


class CompanyRegistration(_Registration):
    """Company sign-up payload (docs/product.md §2)."""

    company: str
    industry: str
    description: str = ""
    website: str = ""

    @field_validator("company")
    @classmethod
    def _company(cls, v: str) -> str:
        return _min_len(v, 2, "Nome da empresa deve ter pelo menos 2 caracteres")[:160]

    @field_validator("industry")
    @classmethod
    def _industry(cls, v: str) -> str:
        if v not in INDUSTRIES:
            raise _fail("Indústria deve ser selecionada")
        return v

    @field_validator("description")
    @classmethod
    def _description(cls, v: str) -> str:
        return v[:2000]

    @field_validator("website")
    @classmethod
    def _website(cls, v: str) -> str:
        return _url_or_empty(v)


class FreelancerRegistration(_Registration):
    """Freelancer sign-up payload (docs/product.md §2)."""

    profession: str
    skills: str
    experience: str = ""

    @field_validator("profession")
    @classmethod
    def _profession(cls, v: str) -> str:
        return _min_len(v, 2, "Profissão deve ter pelo menos 2 caracteres")[:120]

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: str) -> str:
        message = "Habilidades devem ter pelo menos 2 caracteres"
        v = _min_len(v, 2, message)[:1000]
        _min_len(", ".join(comma_list(v)), 2, message)  # judged as stored: ', ,' or '0,' is too short
        return v

    @property
    def skill_list(self) -> list[str]:
        """Habilidades as stored: comma-separated, blanks and repeats dropped, as the profile form does."""
        return comma_list(self.skills, max_items=PROFILE_SKILLS_MAX)

    @field_validator("experience")
    @classmethod
    def _experience(cls, v: str) -> str:
        return v[:4000]


class LoginForm(_Form):
    """Login payload."""

    email: str
    password: str
    remember: str = ""

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return normalize_email(v)

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        if not v:
            raise _fail("Senha é obrigatória")
        return v[:200]

    @property
    def remember_me(self) -> bool:
        """Whether 'Lembrar de mim' was ticked."""
        return self.remember.lower() in {"on", "true", "1", "yes"}


class EmailForm(_Form):
    """Password recovery payload."""

    email: str

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return normalize_email(v)


class StaffAccountForm(_Form):
    """A Turno staff account typed at the command line (scripts/create_admin.py): e-mail and password."""

    email: str
    password: str

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return normalize_email(v)

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        return _password_rules(v)


class ResetPasswordForm(_Form):
    """New password chosen through a reset link."""

    password: str
    confirmPassword: str  # noqa: N815

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        return _password_rules(v)

    @model_validator(mode="after")
    def _confirm(self) -> "ResetPasswordForm":
        if self.confirmPassword != self.password:
            raise ValueError("confirm")
        return self


class ContactForm(_Form):
    """Contact form payload (docs/product.md §3 and §10)."""

    name: str
    email: str
    phone: str = ""
    subject: str
    message: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _min_len(v, 3, "O nome deve ter pelo menos 3 caracteres")[:120]

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return normalize_email(v, "Por favor, insira um email válido")

    @field_validator("phone")
    @classmethod
    def _phone(cls, v: str) -> str:
        return v[:30]

    @field_validator("subject")
    @classmethod
    def _subject(cls, v: str) -> str:
        if v not in CONTACT_SUBJECTS:
            raise _fail("Por favor, selecione um assunto")
        return v

    @field_validator("message")
    @classmethod
    def _message(cls, v: str) -> str:
        return _min_len(v, 10, "A mensagem deve ter pelo menos 10 caracteres")[:5000]


PHONE_CHARS_RE = re.compile(r"^[0-9 ()+.\-]+$")


def _phone(value: str) -> str:
    """A Brazilian phone number as typed: 10 to 13 digits, with spaces, brackets, dots, dashes or +."""
    digits = sum(ch in "0123456789" for ch in value)
    if len(value) < 10 or len(value) > 30 or not PHONE_CHARS_RE.match(value) or not 10 <= digits <= 13:
        raise _fail("Telefone inválido")
    return value


CITY_UNKNOWN = "Escolha uma cidade da lista."
CITY_AMBIGUOUS = "Há mais de uma cidade com este nome: escolha uma da lista."


def city_label(value: str) -> str:
    """The municipality a form's city names, as stored and shown ('Curitiba, PR'); docs/product.md, "Cities".

    Raises:
        PydanticCustomError: 'Escolha uma cidade da lista.' for no municipality, or the ambiguous
            message when several states have a city of that name.
    """
    found = cities.resolve(value)
    if isinstance(found, cities.City):
        return found.label
    raise _fail(CITY_AMBIGUOUS if found is cities.Unresolved.AMBIGUOUS else CITY_UNKNOWN)


def _max_len(value: str, size: int, message: str) -> str:
    if len(value) > size:
        raise _fail(message)
    return value


SOCIAL_HANDLE_RE = re.compile(r"^@?[\w.\-]{1,60}$")


def _social(value: str) -> str:
    """A social network entry: empty, an http(s) URL, or a handle such as @hotelatlantico."""
    if value and (len(value) > 200 or not (SOCIAL_HANDLE_RE.match(value) or URL_RE.match(value))):
        raise _fail("URL inválida")
    return value


class CompanyProfileForm(_Form):
    """Company profile completion (/company-profile-setup; docs/product.md §3)."""

    empresa: str
    biografia: str
    endereco: str
    telefone: str
    website: str = ""
    instagram: str = ""
    facebook: str = ""
    linkedin: str = ""

    @field_validator("empresa")
    @classmethod
    def _empresa(cls, v: str) -> str:
        return _min_len(v, 2, "Nome da empresa deve ter pelo menos 2 caracteres")[:160]

    @field_validator("biografia")
    @classmethod
    def _biografia(cls, v: str) -> str:
        return _min_len(v, 10, "A biografia deve ter pelo menos 10 caracteres")[:2000]

    @field_validator("endereco")
    @classmethod
    def _endereco(cls, v: str) -> str:
        return _min_len(v, 5, "Endereço é obrigatório")[:200]

    @field_validator("telefone")
    @classmethod
    def _telefone(cls, v: str) -> str:
        return _phone(v)

    @field_validator("website")
    @classmethod
    def _website(cls, v: str) -> str:
        return _url_or_empty(v)

    @field_validator("instagram", "facebook", "linkedin")
    @classmethod
    def _networks(cls, v: str) -> str:
        return _social(v)


class FreelancerProfileForm(_Form):
    """The freelancer's 'Meu Perfil' form (docs/product.md §3: nome required, website a URL or empty)."""

    nome: str
    telefone: str = ""
    endereco: str = ""
    localizacao: str = ""
    profissao: str = ""
    habilidades: str = ""
    biografia: str = ""
    experiencia: str = ""
    website: str = ""

    @field_validator("nome")
    @classmethod
    def _nome(cls, v: str) -> str:
        return _min_len(v, 2, "Nome deve ter pelo menos 2 caracteres")[:120]

    @field_validator("telefone")
    @classmethod
    def _telefone(cls, v: str) -> str:
        return _phone(v) if v else ""

    @field_validator("endereco")
    @classmethod
    def _endereco(cls, v: str) -> str:
        return _max_len(v, 200, "Endereço deve ter no máximo 200 caracteres")

    @field_validator("localizacao")
    @classmethod
    def _localizacao(cls, v: str) -> str:
        return city_label(v) if v.strip() else ""

    @field_validator("profissao")
    @classmethod
    def _short(cls, v: str) -> str:
        return _max_len(v, 120, "Use no máximo 120 caracteres")

    @field_validator("habilidades")
    @classmethod
    def _habilidades(cls, v: str) -> str:
        return _max_len(v, 1000, "Habilidades devem ter no máximo 1.000 caracteres")

    @field_validator("biografia")
    @classmethod
    def _biografia(cls, v: str) -> str:
        return _max_len(v, 2000, "A biografia deve ter no máximo 2.000 caracteres")

    @field_validator("experiencia")
    @classmethod
    def _experiencia(cls, v: str) -> str:
        return _max_len(v, 4000, "A experiência deve ter no máximo 4.000 caracteres")

    @field_validator("website")
    @classmethod
    def _website(cls, v: str) -> str:
        return _url_or_empty(v)

    @property
    def skills(self) -> list[str]:
        """Habilidades as a list: comma-separated, blanks and repeats dropped (docs/product.md §3)."""
        return comma_list(self.habilidades, max_items=PROFILE_SKILLS_MAX)


NEW_PASSWORD_SAME = "A nova senha deve ser diferente da atual."
PASSWORD_MISMATCH = "As senhas não coincidem."


class PasswordChangeForm(_Form):
    """Settings > Segurança (docs/product.md §3: each field at least 8 characters, confirmation equal to the new one).

    The new password also follows the registration rule (upper case, lower case and a digit), so
    changing a password never weakens it below what sign-up demands.
    """

    current: str
    new: str
    confirm: str

    @field_validator("current")
    @classmethod
    def _current(cls, v: str) -> str:
        return _min_chars(v, PASSWORD_MIN, "A senha atual deve ter pelo menos 8 caracteres.")[:200]

    @field_validator("new")
    @classmethod
    def _new(cls, v: str) -> str:
        _min_chars(v, PASSWORD_MIN, "A senha deve ter pelo menos 8 caracteres.")
        return _password_rules(v)

    @field_validator("confirm")
    @classmethod
    def _confirm(cls, v: str) -> str:
        return _min_chars(v, PASSWORD_MIN, "A confirmação deve ter pelo menos 8 caracteres.")[:200]

    @model_validator(mode="after")
    def _matches(self) -> "PasswordChangeForm":
        if self.confirm != self.new:
            raise ValidationFailed({"confirm": PASSWORD_MISMATCH})
        if self.new == self.current:
            raise ValidationFailed({"new": NEW_PASSWORD_SAME})
        return self


THEMES = ("light", "dark", "system")
PROFILE_SKILLS_MAX = 30


class AppearanceForm(_Form):
    """Settings > Aparência (docs/product.md §3: theme one of light, dark, system)."""

    theme: str

    @field_validator("theme")
    @classmethod
    def _theme(cls, v: str) -> str:
        if v not in THEMES:
            raise _fail("Por favor selecione um tema.")
        return v


CONFIRM_MISMATCH = "As senhas não conferem"


def parse(schema: type[T], data: Any, now: datetime | None = None) -> T:
    """Validate form data against a schema, raising ValidationFailed with the messages of docs/product.md §3.

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
            confirm = _clean(data.get("confirmPassword"))
            if "confirmPassword" in schema.model_fields and confirm != _clean(data.get("password")):
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
JOB_SKILLS_MAX = 20


THOUSANDS_RE = re.compile(r"^[1-9]\d{0,2}(\.\d{3})+$")


def parse_money(value: Any, message: str) -> Decimal | None:
    """Read an optional amount in reais ('25', '25.5', '25,50', '1.234,56', '1.234', 25.5); blank means None.

    Typed text is read the Brazilian way: a comma is the decimal mark, and dots before it, or in
    groups of three without a comma ('1.234'), separate thousands; a lone dot otherwise ('25.5') is
    a decimal point. Numbers are taken as they are.

    Raises:
        PydanticCustomError: With `message` when the value is not a non-negative amount.
    """
    text = _clean(value).replace("R$", "").replace(" ", "")
    if not text:
        return None
    if "," in text or (isinstance(value, str) and THOUSANDS_RE.match(text)):
        text = text.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise _fail(message) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_MONEY:
        raise _fail(message)
    return amount.copy_abs().quantize(Decimal("0.01"))


def comma_list(text: str, max_items: int = JOB_SKILLS_MAX, max_length: int = 50) -> list[str]:
    """Split comma-separated text into trimmed items, dropping blanks and repeats."""
    items: list[str] = []
    for part in text.split(","):
        item = part.strip()[:max_length]
        if item and item not in items:
            items.append(item)
    return items[:max_items]


def _checked(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return _clean(value).lower() in {"on", "true", "1", "yes", "sim"}


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
        text = _clean(value)
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
        raise _fail(SHIFT_TOO_SOON)
    if start > now + shift_rules.MAX_LEAD:
        raise _fail(SHIFT_TOO_LATE)


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
    text = value if isinstance(value, int | float) else _clean(value)
    if text == "":
        return None
    try:
        number = float(text)
    except (ValueError, OverflowError):
        return "bad"
    return number if math.isfinite(number) else "bad"


class JobForm(BaseModel):
    """'Publicar Nova Vaga' payload (docs/product.md §3 job form, §4 jobs, "Turnos").

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
    pagamento: str = "direto"  # 'direto' or 'garantido' (docs/product.md "Pagamento garantido")
    o_que_levar: str = ""  # 'Traje e o que levar': optional attire and items

    @field_validator("titulo", "categoria", "descricao", "localizacao", "endereco", "o_que_levar", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return _clean(value)

    @field_validator("titulo")
    @classmethod
    def _titulo(cls, v: str) -> str:
        return _min_len(v, 2, "Título deve ter pelo menos 2 caracteres.")[:120]

    @field_validator("categoria")
    @classmethod
    def _categoria(cls, v: str) -> str:
        if v not in CATEGORIES:
            raise _fail("Por favor, selecione uma categoria.")
        return v

    @field_validator("descricao")
    @classmethod
    def _descricao(cls, v: str) -> str:
        return _min_len(v, 10, "Descrição deve ter pelo menos 10 caracteres.")[:5000]

    @field_validator("localizacao")
    @classmethod
    def _localizacao(cls, v: str) -> str:
        return city_label(_min_len(v, 2, "Localização deve ter pelo menos 2 caracteres."))

    @field_validator("valor_hora", mode="before")
    @classmethod
    def _valor(cls, value: Any) -> Decimal | None:
        return parse_money(value, "Informe um valor por hora válido.")

    @field_validator("inicio_em", mode="before")
    @classmethod
    def _inicio(cls, value: Any, info: ValidationInfo) -> datetime:
        start = local_datetime(value)
        if start is None:
            raise _fail(SHIFT_START_MISSING)
        check_shift_start(start, _now(info))
        return start

    @field_validator("fim_em", mode="before")
    @classmethod
    def _fim(cls, value: Any, info: ValidationInfo) -> datetime:
        end = local_datetime(value)
        if end is None:
            raise _fail(SHIFT_END_MISSING)
        start = info.data.get("inicio_em")
        if start is not None and not shift_length_ok(start, end):
            raise _fail(SHIFT_LENGTH)
        return end

    @field_validator("intervalo_min", mode="before")
    @classmethod
    def _intervalo(cls, value: Any) -> int:
        text = _clean(value)
        if not text:
            return 0
        if not (text.isascii() and text.isdigit() and len(text) <= 4) or int(text) > shift_rules.MAX_BREAK_MIN:
            raise _fail(SHIFT_BREAK)
        return int(text)

    @field_validator("endereco")
    @classmethod
    def _endereco(cls, v: str) -> str:
        if len(v) > ADDRESS_MAX or visible_length(v, ADDRESS_MIN) < ADDRESS_MIN:
            raise _fail(SHIFT_ADDRESS)
        return v

    @field_validator("o_que_levar")
    @classmethod
    def _o_que_levar(cls, v: str) -> str:
        """At most BRING_MAX characters, every one counted (what the column holds); nothing visible is blank."""
        if len(v) > BRING_MAX:
            raise _fail(BRING_TOO_LONG)
        return v if visible_length(v, 1) else ""

    @field_validator("ponto_lat", mode="before")
    @classmethod
    def _lat(cls, value: Any) -> float | None:
        lat = _coordinate(value)
        if lat == "bad":
            raise _fail(SHIFT_POINT)
        return lat

    @field_validator("ponto_lng", mode="before")
    @classmethod
    def _lng(cls, value: Any, info: ValidationInfo) -> float | None:
        lng = _coordinate(value)
        if "ponto_lat" not in info.data:
            return None  # the latitude failed: its message stands alone
        lat = info.data["ponto_lat"]
        if lng == "bad" or (lat is None) != (lng is None) or (lat is not None and not valid_point(lat, lng)):
            raise _fail(SHIFT_POINT)
        return lng

    @field_validator("habilidades_necessarias", mode="before")
    @classmethod
    def _skills(cls, value: Any) -> list[str]:
        if isinstance(value, list):
            value = ",".join(_clean(item) for item in value)
        return comma_list(_clean(value))

    @field_validator("pagamento", mode="before")
    @classmethod
    def _payment(cls, value: Any) -> str:
        text = _clean(value) or "direto"
        if text not in ("direto", "garantido"):
            raise ValueError(PAYMENT_MODE_INVALID)
        return text

    @field_validator("vale_transporte", "refeicao_local", "possui_intervalo", "anuncio_anonimo", mode="before")
    @classmethod
    def _bool(cls, value: Any) -> bool:
        return _checked(value)

    @field_validator("vagas_disponiveis", mode="before")
    @classmethod
    def _positions(cls, value: Any) -> int:
        text = _clean(value)
        if not text:
            return 1
        if not text.isdigit() or not 1 <= int(text) <= 100:
            raise _fail("O número de vagas deve estar entre 1 e 100.")
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
        text = _clean(value)
        if len(text) > 2000:
            raise _fail("A mensagem deve ter no máximo 2000 caracteres.")
        return text


class RatingForm(BaseModel):
    """A 1-5 star rating with an optional comment."""

    model_config = ConfigDict(extra="ignore")

    stars: int
    comment: str = ""

    @field_validator("stars", mode="before")
    @classmethod
    def _stars(cls, value: Any) -> int:
        text = _clean(value)
        if not text.isdigit() or not 1 <= int(text) <= 5:
            raise _fail("Escolha de 1 a 5 estrelas.")
        return int(text)

    @field_validator("comment", mode="before")
    @classmethod
    def _comment(cls, value: Any) -> str:
        return _clean(value)[:1000]
