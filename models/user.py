"""Accounts and profiles."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, Column, event
from sqlmodel import Field, SQLModel

from core.cities import city_code
from core.text import city_key
from models.base import created_at_field, json_list_field, optional_datetime_field


class Role(StrEnum):
    """The kinds of user (profiles.tipo_usuario; docs/product/site.md §1).

    ADMIN is Turno staff: created only from the command line (`python -m scripts.create_admin`),
    never by a registration form; it has no profile dashboard, only the back office (/admin).
    """

    CLIENT = "client"
    FREELANCER = "freelancer"
    ADMIN = "admin"


class User(SQLModel, table=True):
    """A login identity: e-mail, password hash and role."""

    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)
    password_hash: str = Field(max_length=100)
    role: str = Field(max_length=16)
    email_confirmed_at: datetime | None = optional_datetime_field()
    is_active: bool = Field(default=True)
    created_at: datetime = created_at_field()
    deleted_at: datetime | None = optional_datetime_field()


class Profile(SQLModel, table=True):
    """Public and personal data of a user, one row per user (docs/product/accounts.md §8)."""

    __tablename__ = "profiles"

    user_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    tipo_usuario: str = Field(max_length=16)
    nome: str = Field(default="", max_length=120)
    telefone: str = Field(default="", max_length=30)
    endereco: str = Field(default="", max_length=200)
    localizacao: str = Field(default="", max_length=120)
    biografia: str = Field(default="", max_length=2000)
    foto_url: str = Field(default="", max_length=300)
    website: str = Field(default="", max_length=300)
    profissao: str = Field(default="", max_length=120)
    habilidades: list[str] = json_list_field()
    experiencia_descricao: str = Field(default="", max_length=4000)
    redes_sociais: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    empresa: str = Field(default="", max_length=160)
    industria: str = Field(default="", max_length=32)
    descricao: str = Field(default="", max_length=2000)
    cnpj: str = Field(default="", max_length=14)  # a company's, before its first protected payment (0019)
    updated_at: datetime = created_at_field()
    cidade_busca: str = Field(default="", max_length=120, index=True)
    cidade_ibge: int | None = Field(
        default=None, index=True
    )  # IBGE code of `localizacao` (core.cities; 0017, index 0018)
    # 'Selo Empresa Pontual' (alembic 0022, services/trust/punctuality.py): the badge and its one-line figures
    # (shown on vagas), the figures and what is missing (the company's panel), and when computed.
    selo_pontual: bool = False
    selo_resumo: str = Field(default="", max_length=200)
    selo_dados: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    selo_em: datetime | None = optional_datetime_field()


@event.listens_for(Profile, "before_insert")
@event.listens_for(Profile, "before_update")
def _keep_city_key(_mapper, _connection, profile: Profile) -> None:
    """Keep the folded city (core.text.city_key, for new-job alerts) and its IBGE code in step with the location."""
    profile.cidade_busca = city_key(profile.localizacao)
    profile.cidade_ibge = city_code(profile.localizacao)


class UserPreferences(SQLModel, table=True):
    """Settings of a user (theme and notification switches, docs/product/accounts.md §8), persisted."""

    __tablename__ = "user_preferences"

    user_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    theme: str = Field(default="system", max_length=8)
    language: str = Field(default="pt_BR", max_length=8)
    email_notifications: bool = True
    push_notifications: bool = True
    marketing_emails: bool = False
    new_job_alerts: bool = True
    application_updates: bool = True
