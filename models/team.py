"""A company's team ('Minha equipe'), blocks both ways, hidden vagas and private 'Contratar novamente' invites.

services/trust/teams.py, services/trust/blocks.py, services/trust/invite_sending.py and
services/trust/invites.py are their only writers (docs/product/trust.md "Minha equipe").
"""

from datetime import datetime
from enum import StrEnum

from sqlmodel import Field, Index, SQLModel

from models.base import created_at_field, optional_datetime_field, required_datetime_field


class TeamMember(SQLModel, table=True):
    """One freelancer in one company's team (added after a paid shift together)."""

    __tablename__ = "team_members"
    __table_args__ = (Index("ix_team_members_freelancer", "freelancer_id"),)

    company_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    added_at: datetime = created_at_field()


class Block(SQLModel, table=True):
    """One side refuses to work with the other (docs/product/trust.md "Bloqueios").

    A company's 'Bloquear profissional' (blocker: the company) and a freelancer's 'Não quero
    trabalhar com esta empresa' (blocker: the freelancer) are the same row shape. The company's
    block hides all its vagas from that freelancer; the freelancer's own hides the vagas that show
    the company's name, never its anonymous ones (services/jobs/visibility.py). services/trust/blocks.py is the
    only writer.
    """

    __tablename__ = "blocks"
    __table_args__ = (Index("ix_blocks_blocked", "blocked_id"),)

    blocker_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    blocked_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    created_at: datetime = created_at_field()


class HiddenJob(SQLModel, table=True):
    """'Não quero ver esta vaga': one vaga a freelancer asked not to see again (docs/product/trust.md "Bloqueios").

    What an anonymous vaga offers instead of 'Não quero trabalhar com esta empresa': it hides that
    vaga alone and says nothing of its company. services/trust/blocks.py is the only writer.
    """

    __tablename__ = "hidden_jobs"
    __table_args__ = (Index("ix_hidden_jobs_job", "job_id"),)

    freelancer_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    job_id: int = Field(foreign_key="jobs.id", primary_key=True, ondelete="CASCADE")
    created_at: datetime = created_at_field()


class InviteStatus(StrEnum):
    """Where a 'Contratar novamente' invite stands."""

    PENDING = "pendente"
    ACCEPTED = "aceito"
    DECLINED = "recusado"
    EXPIRED = "expirado"
    CANCELLED = "cancelado"


class Invite(SQLModel, table=True):
    """A private invite to one freelancer for a private vaga (a new date), expiring at `expires_at`.

    'Contratar novamente' writes the private vaga (`jobs.privada`) and this row together;
    services/trust/invite_sending.py writes it and services/trust/invites.py answers it (docs/product/trust.md
    "Contratar novamente").
    """

    __tablename__ = "invites"
    __table_args__ = (
        Index("ix_invites_freelancer_status", "freelancer_id", "status"),
        Index("ix_invites_company_created", "company_id", "created_at"),
        Index("ix_invites_expires", "status", "expires_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    job_id: int = Field(foreign_key="jobs.id", ondelete="CASCADE", unique=True)
    company_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    status: str = Field(default=InviteStatus.PENDING, max_length=16)
    mensagem: str = Field(default="", max_length=500)
    created_at: datetime = created_at_field()
    expires_at: datetime = required_datetime_field()
    answered_at: datetime | None = optional_datetime_field()
