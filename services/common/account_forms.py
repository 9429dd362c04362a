"""The account forms: sign-up, login, password recovery and reset, a new password in Settings, the staff account, the contact form.

Each rule of an account is written once: `Email` (a syntactically valid address, lower-cased),
`NewPassword` (the strength rule) and `_PasswordTwice` (the confirmation must repeat it).
"""

import re
from typing import Annotated, Any, Self

from email_validator import EmailNotValidError, validate_email
from pydantic import AfterValidator, field_validator, model_validator

from core.catalog import CONTACT_SUBJECTS, INDUSTRIES, PASSWORD_MIN
from services.common.errors import ValidationFailed
from services.common.validation import (
    PROFILE_SKILLS_MAX,
    Form,
    city_label,
    clean,
    comma_list,
    fail,
    min_len,
    url_or_empty,
)

EMAIL_INVALID = "Email inválido"
NEW_PASSWORD_SAME = "A nova senha deve ser diferente da atual."
PASSWORD_MISMATCH = "As senhas não coincidem."


def normalize_email(value: Any, message: str = EMAIL_INVALID) -> str:
    """Validate an e-mail address syntactically and return it lower-cased.

    Args:
        value: The raw form value.
        message: The message when invalid.

    Returns:
        The normalized address.
    """
    text = clean(value)
    if len(text) > 254:
        raise fail(message)
    try:
        return validate_email(text, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        raise fail(message) from None


def _password_rules(value: str) -> str:
    """A new password: at least PASSWORD_MIN characters, at most 200, with upper case, lower case and a digit."""
    if len(value) < PASSWORD_MIN:
        raise fail("Senha deve ter pelo menos 8 caracteres")
    if len(value) > 200 or not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) and re.search(r"\d", value)):
        raise fail("Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número")
    return value


def _min_chars(value: str, size: int, message: str) -> str:
    """`value` when it has at least `size` characters of any kind (passwords: every character counts)."""
    if len(value) < size:
        raise fail(message)
    return value


# An e-mail field with the sign-up message ('Email inválido'), stored lower-cased.
Email = Annotated[str, AfterValidator(normalize_email)]
# A password being chosen (sign-up, reset, staff account): the strength rule.
NewPassword = Annotated[str, AfterValidator(_password_rules)]


class _PasswordTwice(Form):
    """A form whose `password` is typed again in `confirmPassword`; the subclass declares both fields."""

    @model_validator(mode="after")
    def _confirm(self) -> Self:
        if self.confirmPassword != self.password:
            raise ValueError("confirm")  # `parse` shows CONFIRM_MISMATCH under confirmPassword
        return self


class _Registration(_PasswordTwice):
    name: str
    email: Email
    password: NewPassword
    confirmPassword: str  # noqa: N815  (the registration form's field name, docs/product/validation.md §3)
    location: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return min_len(v, 2, "Nome deve ter pelo menos 2 caracteres")[:120]

    @field_validator("location")
    @classmethod
    def _location(cls, v: str) -> str:
        return city_label(min_len(v, 2, "Localização é obrigatória"))


class CompanyRegistration(_Registration):
    """Company sign-up payload (docs/product/accounts.md §2)."""

    company: str
    industry: str
    description: str = ""
    website: str = ""

    @field_validator("company")
    @classmethod
    def _company(cls, v: str) -> str:
        return min_len(v, 2, "Nome da empresa deve ter pelo menos 2 caracteres")[:160]

    @field_validator("industry")
    @classmethod
    def _industry(cls, v: str) -> str:
        if v not in INDUSTRIES:
            raise fail("Indústria deve ser selecionada")
        return v

    @field_validator("description")
    @classmethod
    def _description(cls, v: str) -> str:
        return v[:2000]

    @field_validator("website")
    @classmethod
    def _website(cls, v: str) -> str:
        return url_or_empty(v)


class FreelancerRegistration(_Registration):
    """Freelancer sign-up payload (docs/product/accounts.md §2)."""

    profession: str
    skills: str
    experience: str = ""

    @field_validator("profession")
    @classmethod
    def _profession(cls, v: str) -> str:
        return min_len(v, 2, "Profissão deve ter pelo menos 2 caracteres")[:120]

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: str) -> str:
        message = "Habilidades devem ter pelo menos 2 caracteres"
        v = min_len(v, 2, message)[:1000]
        min_len(", ".join(comma_list(v)), 2, message)  # judged as stored: ', ,' or '0,' is too short
        return v

    @property
    def skill_list(self) -> list[str]:
        """Habilidades as stored: comma-separated, blanks and repeats dropped, as the profile form does."""
        return comma_list(self.skills, max_items=PROFILE_SKILLS_MAX)

    @field_validator("experience")
    @classmethod
    def _experience(cls, v: str) -> str:
        return v[:4000]


class LoginForm(Form):
    """Login payload."""

    email: Email
    password: str
    remember: str = ""

    @field_validator("password")
    @classmethod
    def _password(cls, v: str) -> str:
        if not v:
            raise fail("Senha é obrigatória")
        return v[:200]

    @property
    def remember_me(self) -> bool:
        """Whether 'Lembrar de mim' was ticked."""
        return self.remember.lower() in {"on", "true", "1", "yes"}


class EmailForm(Form):
    """Password recovery payload."""

    email: Email


class StaffAccountForm(Form):
    """A Turno staff account typed at the command line (scripts/create_admin.py): e-mail and password."""

    email: Email
    password: NewPassword


class ResetPasswordForm(_PasswordTwice):
    """New password chosen through a reset link."""

    password: NewPassword
    confirmPassword: str  # noqa: N815


class ContactForm(Form):
    """Contact form payload (docs/product/validation.md §3 and docs/product/site.md §10)."""

    name: str
    email: str
    phone: str = ""
    subject: str
    message: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return min_len(v, 3, "O nome deve ter pelo menos 3 caracteres")[:120]

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
            raise fail("Por favor, selecione um assunto")
        return v

    @field_validator("message")
    @classmethod
    def _message(cls, v: str) -> str:
        return min_len(v, 10, "A mensagem deve ter pelo menos 10 caracteres")[:5000]


class PasswordChangeForm(Form):
    """Settings > Segurança (docs/product/validation.md §3: each field at least 8 characters, confirmation equal to the new one).

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
