"""Jobs (vagas) and applications (candidaturas)."""

from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum

from sqlmodel import Field, Index, SQLModel, UniqueConstraint

from models.base import created_at_field, json_list_field, money_field


class JobStatus(StrEnum):
    """Job status values (SPEC section 4)."""

    OPEN = "open"
    IN_PROGRESS = "in_progress"
    CLOSED = "closed"
    ARCHIVED = "archived"


class Job(SQLModel, table=True):
    """A temporary in-person job published by a company (SPEC: vagas)."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_cliente_criado", "cliente_id", "criado_em"),
        Index("ix_jobs_public_list", "status", "is_archived", "criado_em"),
        Index("ix_jobs_categoria_status", "categoria", "status", "is_archived"),
    )

    id: int | None = Field(default=None, primary_key=True)
    cliente_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    titulo: str = Field(max_length=120)
    categoria: str = Field(max_length=32)
    descricao: str = Field(max_length=5000)
    localizacao: str = Field(max_length=120)
    valor_hora: Decimal | None = money_field()
    duracao: str = Field(default="", max_length=120)
    data_necessaria: date | None = None
    habilidades_necessarias: list[str] = json_list_field()
    vale_transporte: bool = False
    refeicao_local: bool = False
    possui_intervalo: bool = False
    anuncio_anonimo: bool = False
    status: str = Field(default=JobStatus.OPEN, max_length=16)
    vaga_status: str = Field(default=JobStatus.OPEN, max_length=16)
    vagas_disponiveis: int = 1
    is_archived: bool = False
    criado_em: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class ApplicationStatus(StrEnum):
    """Application status values (SPEC section 4)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Application(SQLModel, table=True):
    """A freelancer's application to a job (SPEC: candidaturas); one per freelancer and job."""

    __tablename__ = "applications"
    __table_args__ = (
        UniqueConstraint("vaga_id", "freelancer_id", name="uq_applications_vaga_freelancer"),
        Index("ix_applications_vaga_status", "vaga_id", "status"),
        Index("ix_applications_freelancer_created", "freelancer_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    vaga_id: int = Field(foreign_key="jobs.id", ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    status: str = Field(default=ApplicationStatus.PENDING, max_length=16)
    valor_proposto: Decimal | None = money_field()
    mensagem: str = Field(default="", max_length=2000)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class Rating(SQLModel, table=True):
    """A 1-5 star rating one side of an accepted application gives the other, once."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("application_id", "rater_id", name="uq_ratings_application_rater"),
        Index("ix_ratings_ratee", "ratee_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    application_id: int = Field(foreign_key="applications.id", ondelete="CASCADE")
    rater_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    ratee_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    stars: int
    comment: str = Field(default="", max_length=1000)
    created_at: datetime = created_at_field()
