"""A company's team ('Minha equipe'): freelancers it worked with and wants to call first.

services/teams.py is the only writer (docs/product.md "Minha equipe").
"""

from datetime import datetime

from sqlmodel import Field, Index, SQLModel

from models.base import created_at_field


class TeamMember(SQLModel, table=True):
    """One freelancer in one company's team (added after a paid shift together)."""

    __tablename__ = "team_members"
    __table_args__ = (Index("ix_team_members_freelancer", "freelancer_id"),)

    company_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    freelancer_id: int = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    added_at: datetime = created_at_field()
