"""The profile forms: a company's profile, the freelancer's 'Meu Perfil', and Settings > Aparência (docs/product/validation.md §3)."""

import re

from pydantic import field_validator

from services.common.validation import (
    PROFILE_SKILLS_MAX,
    URL_RE,
    Form,
    city_label,
    comma_list,
    fail,
    min_len,
    url_or_empty,
)

PHONE_CHARS_RE = re.compile(r"^[0-9 ()+.\-]+$")


def _phone(value: str) -> str:
    """A Brazilian phone number as typed: 10 to 13 digits, with spaces, brackets, dots, dashes or +."""
    digits = sum(ch in "0123456789" for ch in value)
    if len(value) < 10 or len(value) > 30 or not PHONE_CHARS_RE.match(value) or not 10 <= digits <= 13:
        raise fail("Telefone inválido")
    return value


def _max_len(value: str, size: int, message: str) -> str:
    if len(value) > size:
        raise fail(message)
    return value


SOCIAL_HANDLE_RE = re.compile(r"^@?[\w.\-]{1,60}$")


def _social(value: str) -> str:
    """A social network entry: empty, an http(s) URL, or a handle such as @hotelatlantico."""
    if value and (len(value) > 200 or not (SOCIAL_HANDLE_RE.match(value) or URL_RE.match(value))):
        raise fail("URL inválida")
    return value


class CompanyProfileForm(Form):
    """Company profile completion (/company-profile-setup; docs/product/validation.md §3)."""

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
        return min_len(v, 2, "Nome da empresa deve ter pelo menos 2 caracteres")[:160]

    @field_validator("biografia")
    @classmethod
    def _biografia(cls, v: str) -> str:
        return min_len(v, 10, "A biografia deve ter pelo menos 10 caracteres")[:2000]

    @field_validator("endereco")
    @classmethod
    def _endereco(cls, v: str) -> str:
        return min_len(v, 5, "Endereço é obrigatório")[:200]

    @field_validator("telefone")
    @classmethod
    def _telefone(cls, v: str) -> str:
        return _phone(v)

    @field_validator("website")
    @classmethod
    def _website(cls, v: str) -> str:
        return url_or_empty(v)

    @field_validator("instagram", "facebook", "linkedin")
    @classmethod
    def _networks(cls, v: str) -> str:
        return _social(v)


class FreelancerProfileForm(Form):
    """The freelancer's 'Meu Perfil' form (docs/product/validation.md §3: nome required, website a URL or empty)."""

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
        return min_len(v, 2, "Nome deve ter pelo menos 2 caracteres")[:120]

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
        return url_or_empty(v)

    @property
    def skills(self) -> list[str]:
        """Habilidades as a list: comma-separated, blanks and repeats dropped (docs/product/validation.md §3)."""
        return comma_list(self.habilidades, max_items=PROFILE_SKILLS_MAX)


THEMES = ("light", "dark", "system")


class AppearanceForm(Form):
    """Settings > Aparência (docs/product/validation.md §3: theme one of light, dark, system)."""

    theme: str

    @field_validator("theme")
    @classmethod
    def _theme(cls, v: str) -> str:
        if v not in THEMES:
            raise fail("Por favor selecione um tema.")
        return v
