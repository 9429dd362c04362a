"""Helpers shared by the table models."""

from datetime import datetime
from decimal import Decimal

from sqlalchemy import JSON, Column, Numeric
from sqlmodel import Field

from core.types import UTCDateTime, utcnow


def created_at_field(index: bool = False) -> datetime:
    """A UTC creation timestamp column filled at insert time."""
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False, index=index)


def optional_datetime_field() -> datetime | None:
    """A nullable UTC timestamp column."""
    return Field(default=None, sa_type=UTCDateTime, nullable=True)


def required_datetime_field() -> datetime:
    """A UTC timestamp column the caller always fills."""
    return Field(sa_type=UTCDateTime, nullable=False)


def money_field(nullable: bool = True) -> Decimal | None:
    """A money column: Numeric(10, 2) mapped to Decimal."""
    return Field(default=None, sa_column=Column(Numeric(10, 2), nullable=nullable))


def json_list_field() -> list[str]:
    """A JSON column holding a list of strings."""
    return Field(default_factory=list, sa_column=Column(JSON, nullable=False))
