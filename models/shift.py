"""The shift loop: a hiring per accepted application, its event history, faltas and human reviews.

services/shifts/hiring_lifecycle.py is the only writer of a hiring's state (docs/product/shifts.md "Turnos").
"""

from datetime import datetime
from enum import StrEnum

from sqlmodel import Field, Index, SQLModel

from models.base import created_at_field, optional_datetime_field, required_datetime_field
from models.job import PaymentMode


class HiringState(StrEnum):
    """States of a hiring (docs/product/shifts.md "Turnos", the state table)."""

    AWAITING_PAYMENT = "aguardando_pagamento"
    SCHEDULED = "agendada"
    CONFIRMED = "confirmada"
    UNCONFIRMED = "nao_confirmada"
    IN_PROGRESS = "em_andamento"
    ENDED = "encerrada"
    HOURS_SENT = "horas_enviadas"
    ADJUSTMENT = "ajuste_proposto"
    DISPUTED = "em_disputa"
    APPROVED = "aprovada"
    PAID = "paga"
    CANCELLED_BY_FREELANCER = "cancelada_freelancer"
    CANCELLED_BY_COMPANY = "cancelada_empresa"
    NO_SHOW = "nao_compareceu"
    EXPIRED = "expirada"


class Actor(StrEnum):
    """Who moved a hiring: the company (E), the freelancer (P), the timer (S) or Turno staff (T)."""

    COMPANY = "empresa"
    FREELANCER = "freelancer"
    TIMER = "sistema"
    STAFF = "turno"


class Hiring(SQLModel, table=True):
    """One accepted application's shift: its times, records, hours, money and state.

    The shift's times and rate are copied from the vaga and the proposal when the company accepts,
    so a later edit of the vaga does not move a shift someone agreed to. Money is integer centavos.
    `due_at` is when the timer next has something to do with the row (None when nothing is due);
    `remind_at` when the next reminder goes out. `version` guards every state change.
    """

    __tablename__ = "hirings"
    __table_args__ = (
        Index("ix_hirings_due", "due_at"),
        Index("ix_hirings_remind", "remind_at"),
        Index("ix_hirings_freelancer_start", "freelancer_id", "inicio_em"),
        Index("ix_hirings_company_start", "company_id", "inicio_em"),
        Index("ix_hirings_job", "job_id"),
        Index("ix_hirings_settle", "repasse_em"),
        Index("ix_hirings_company_updated", "company_id", "updated_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    application_id: int = Field(foreign_key="applications.id", ondelete="CASCADE", unique=True)
    job_id: int = Field(foreign_key="jobs.id", ondelete="CASCADE")
    company_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    state: str = Field(default=HiringState.SCHEDULED, max_length=24)
    version: int = 1
    inicio_em: datetime = required_datetime_field()
    fim_em: datetime = required_datetime_field()
    intervalo_min: int = 0
    valor_hora_centavos: int = 0
    pagamento: str = Field(default=PaymentMode.DIRECT, max_length=16)  # the vaga's, when hired (alembic 0028)
    due_at: datetime | None = optional_datetime_field()
    remind_at: datetime | None = optional_datetime_field()
    reminders_sent: int = 0
    confirmed_at: datetime | None = optional_datetime_field()
    chegada_em: datetime | None = optional_datetime_field()
    chegada_metodo: str = Field(default="", max_length=16)
    chegada_distancia: str = Field(default="", max_length=16)
    saida_em: datetime | None = optional_datetime_field()
    saida_metodo: str = Field(default="", max_length=16)
    saida_distancia: str = Field(default="", max_length=16)
    dispensa_motivo: str = Field(default="", max_length=32)
    minutos_enviados: int | None = None
    horas_enviadas_em: datetime | None = optional_datetime_field()
    minutos_ajuste: int | None = None
    ajuste_motivo: str = Field(default="", max_length=500)
    ajuste_em: datetime | None = optional_datetime_field()
    minutos_aprovados: int | None = None
    valor_centavos: int | None = None
    taxa_cancelamento_centavos: int = 0
    pago_em: datetime | None = optional_datetime_field()
    recebido_em: datetime | None = optional_datetime_field()
    terminou_em: datetime | None = optional_datetime_field()
    # 'Pagamento garantido' (services/money/): when the settlement (transfer to the
    # freelancer, refund of the rest) next runs, how many tries failed and the last failure.
    repasse_em: datetime | None = optional_datetime_field()
    repasse_tentativas: int = 0
    repasse_erro: str = Field(default="", max_length=200)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class HiringEvent(SQLModel, table=True):
    """One step of a hiring's 'Linha do tempo': who, when, from, to and why."""

    __tablename__ = "hiring_events"
    __table_args__ = (Index("ix_hiring_events_hiring_at", "hiring_id", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    hiring_id: int = Field(foreign_key="hirings.id", ondelete="CASCADE")
    actor: str = Field(max_length=16)
    actor_id: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    action: str = Field(max_length=32)
    from_state: str = Field(default="", max_length=24)
    to_state: str = Field(default="", max_length=24)
    reason: str = Field(default="", max_length=500)
    at: datetime = created_at_field()


class Falta(SQLModel, table=True):
    """A freelancer's falta (private): its weight, when it lapses and the suspension it started."""

    __tablename__ = "faltas"
    __table_args__ = (Index("ix_faltas_freelancer_expires", "freelancer_id", "expires_at"),)

    id: int | None = Field(default=None, primary_key=True)
    freelancer_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    hiring_id: int | None = Field(default=None, foreign_key="hirings.id", ondelete="SET NULL")
    pontos: int = 1
    motivo: str = Field(default="", max_length=32)
    created_at: datetime = created_at_field()
    expires_at: datetime = required_datetime_field()
    suspende_ate: datetime | None = optional_datetime_field()
    removida_em: datetime | None = optional_datetime_field()
    removida_motivo: str = Field(default="", max_length=500)


class ReviewRequest(SQLModel, table=True):
    """A disputed hiring or a 'Pedir revisão humana' waiting for Turno staff, and its decision."""

    __tablename__ = "review_requests"
    __table_args__ = (Index("ix_review_requests_open", "decided_at", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    hiring_id: int = Field(foreign_key="hirings.id", ondelete="CASCADE")
    requested_by: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    kind: str = Field(max_length=16)  # 'disputa' (a hiring em_disputa) or 'revisao' (a falta)
    falta_id: int | None = Field(default=None, foreign_key="faltas.id", ondelete="SET NULL")
    motivo: str = Field(default="", max_length=1000)
    created_at: datetime = created_at_field()
    decided_at: datetime | None = optional_datetime_field()
    decided_by: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    decisao: str = Field(default="", max_length=32)
    decisao_motivo: str = Field(default="", max_length=1000)
