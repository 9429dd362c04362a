"""Jobs (vagas) and applications (candidaturas)."""

from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import event
from sqlmodel import Field, Index, SQLModel, UniqueConstraint

from core.catalog import CATEGORIES, canonical_category
from core.cities import city_code
from core.text import city_key, fold
from models.base import created_at_field, json_list_field, money_field, optional_datetime_field

SEARCH_SEPARATOR = "|"
# SQLite only: the FTS5 trigram index over `busca` (alembic revision 0004), kept in step by triggers.
SEARCH_INDEX_TABLE = "jobs_busca_fts"
SEARCH_MAX = 400
CITY_SEARCH_MAX = 160
BRING_MAX = 200


def search_text(titulo: str, categoria: str, localizacao: str, endereco: str) -> str:
    """What the job search matches (`Job.busca`): title, category, city and address, folded.

    Each part sits after a separator no search term contains, so a term matches inside one part
    ('curitiba', 'paulista', 'garcom'), never across two. The home search promises 'cargo, cidade
    ou endereço' (docs/product/site.md §10); alembic 0015 rewrote the existing rows in this form.

    Args:
        titulo: The title.
        categoria: The category slug (English aliases accepted).
        localizacao: The city as written ('Curitiba, PR').
        endereco: The shift's street address ('' when none).
    """
    slug = canonical_category(categoria) or (categoria or "")
    label = CATEGORIES.get(slug, slug)
    parts = (fold(titulo), f"{fold(label)} {fold(slug)}", fold(localizacao or ""), fold(endereco or ""))
    return f" {SEARCH_SEPARATOR} ".join(part for part in parts if part)[:SEARCH_MAX]


class PaymentMode(StrEnum):
    """How a vaga, and each hiring of it, is paid (docs/product/money.md "Pagamento garantido")."""

    DIRECT = "direto"  # the company pays the freelancer itself
    GUARANTEED = "garantido"  # 'Pagamento garantido pelo Turno': charged at acceptance, paid out after approval


class JobStatus(StrEnum):
    """Job status values (docs/product/jobs.md §4)."""

    OPEN = "open"
    IN_PROGRESS = "in_progress"
    CLOSED = "closed"
    ARCHIVED = "archived"


class Job(SQLModel, table=True):
    """A temporary in-person job (vaga) published by a company (docs/product/jobs.md §4)."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_cliente_criado", "cliente_id", "criado_em"),
        Index("ix_jobs_cliente_status_criado", "cliente_id", "status", "criado_em"),
        # The public list (services/jobs/job_lifecycle.py `public`): equalities on the leading columns, then
        # `criado_em` for the page's order (PostgreSQL does not order past an IS NULL condition, so
        # `equipe_ate` comes after it and is checked inside the index), and `cliente_id` so a
        # freelancer's blocks filter there too: the count reads the index alone (alembic 0021).
        Index("ix_jobs_public_list", "status", "is_archived", "privada", "criado_em", "equipe_ate", "cliente_id"),
        Index("ix_jobs_categoria_status", "categoria", "status", "is_archived", "privada", "equipe_ate"),
        Index("ix_jobs_public_city", "status", "is_archived", "privada", "cidade_busca", "criado_em", "equipe_ate"),
        Index("ix_jobs_team_first", "equipe_ate"),
        Index("ix_jobs_busca", "busca", postgresql_using="gin", postgresql_ops={"busca": "gin_trgm_ops"}),
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
    # The shift (docs/product/shifts.md "Turnos"): start and end in UTC, unpaid break, work address and an
    # optional point set on site; `data_necessaria` and `duracao` are derived from them.
    inicio_em: datetime | None = optional_datetime_field()
    fim_em: datetime | None = optional_datetime_field()
    intervalo_min: int = 0
    endereco: str = Field(default="", max_length=200)
    ponto_lat: float | None = None
    ponto_lng: float | None = None
    serie_id: int | None = None  # 'Duplicar': the first vaga of the series
    codigo_segredo: str = Field(default="", max_length=64)  # the 'Código de presença' secret
    busca: str = Field(default="", max_length=SEARCH_MAX)
    cidade_busca: str = Field(default="", max_length=CITY_SEARCH_MAX)
    cidade_ibge: int | None = None  # the IBGE code of `localizacao` (core.cities; alembic 0017)
    pagamento: str = Field(default=PaymentMode.DIRECT, max_length=16)  # a PaymentMode (alembic 0019)
    # 'Oferecer primeiro à minha equipe' (alembic 0021): until this instant only the company's team
    # sees the vaga; the timer clears it when the window opens (services/jobs/team_first.py).
    equipe_ate: datetime | None = optional_datetime_field()
    privada: bool = False  # a 'Contratar novamente' vaga: only its invited freelancer ever sees it
    # 'Traje e o que levar' (alembic 0027): the attire and items the company expects ('' when not said).
    o_que_levar: str = Field(default="", max_length=BRING_MAX)

    def refresh_search_fields(self) -> None:
        """Recompute `busca` (`search_text`), `cidade_busca` and `cidade_ibge` from the title, category and place."""
        self.busca = search_text(self.titulo, self.categoria, self.localizacao, self.endereco)
        # The city part only ('São Paulo, SP' → 'sao paulo'), as profiles keep theirs (alembic 0016).
        self.cidade_busca = city_key(self.localizacao)[:CITY_SEARCH_MAX]
        self.cidade_ibge = city_code(self.localizacao)


@event.listens_for(Job, "before_insert")
@event.listens_for(Job, "before_update")
def _keep_search_fields(_mapper, _connection, job: Job) -> None:
    """Keep the folded search columns in step with every ORM insert and update of a job."""
    job.refresh_search_fields()


class ApplicationStatus(StrEnum):
    """Application status values (docs/product/shifts.md §5)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Application(SQLModel, table=True):
    """A freelancer's application to a job (candidatura, docs/product/shifts.md §5); one per freelancer and job."""

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
        Index("ix_ratings_ratee_created", "ratee_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    application_id: int = Field(foreign_key="applications.id", ondelete="CASCADE")
    rater_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    ratee_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    stars: int
    comment: str = Field(default="", max_length=1000)
    created_at: datetime = created_at_field()


class JobListVersion(SQLModel, table=True):
    """One row whose token changes with every write the public job list shows (services/jobs/list_version.py).

    Database triggers (alembic revision 0007) replace the token; the app only reads it.
    """

    __tablename__ = "job_list_version"

    id: int = Field(default=1, primary_key=True)
    token: str = Field(max_length=40)
