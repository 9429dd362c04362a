"""a job's city is the part before the state: 'São Paulo, SP' lists under São Paulo

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 03:25:00.000000

The job form's own placeholder is 'São Paulo, SP', but `cidade_busca` held the whole folded text
('sao paulo, sp'), so such a vaga was missing from /jobs?city=São Paulo and from the header's city
picker. A job's `cidade_busca` is now the city part only, as profiles have kept theirs since 0001
(core.text.city_key: the text before a comma or ' - '). This revision rewrites the existing rows;
the downgrade writes back the whole folded location. The folding is copied here so the revision
never changes meaning.
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000
_JOBS = sa.table("jobs", sa.column("id", sa.Integer), sa.column("localizacao", sa.String), sa.column("cidade_busca", sa.String))


def _fold(text: str | None) -> str:
    decomposed = unicodedata.normalize("NFKD", text or "")
    without_marks = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(without_marks.casefold().split())


def city_0016(location: str | None) -> str:
    """The folded city part of a location ('São Paulo, SP' → 'sao paulo')."""
    return _fold((location or "").split(",")[0].split(" - ")[0])[:120]


def city_0002(location: str | None) -> str:
    """The whole folded location, as revision 0002 wrote it."""
    return _fold(location)[:160]


def _rewrite(form) -> None:
    """Write every job's `cidade_busca` in `form`, BATCH rows per statement (deferred triggers fired at the end)."""
    bind = op.get_bind()
    last = 0
    try:
        while True:
            rows = bind.execute(
                sa.select(_JOBS.c.id, _JOBS.c.localizacao).where(_JOBS.c.id > last).order_by(_JOBS.c.id).limit(BATCH)
            ).all()
            if not rows:
                return
            bind.execute(
                _JOBS.update().where(_JOBS.c.id == sa.bindparam("job_id")).values(cidade_busca=sa.bindparam("city")),
                [{"job_id": row.id, "city": form(row.localizacao)} for row in rows],
            )
            last = rows[-1].id
    finally:
        if bind.dialect.name == "postgresql":
            op.execute("SET CONSTRAINTS ALL IMMEDIATE")
            op.execute("SET CONSTRAINTS ALL DEFERRED")


def upgrade() -> None:
    """Keep only the city part in `cidade_busca`."""
    _rewrite(city_0016)


def downgrade() -> None:
    """Write the whole folded location back."""
    _rewrite(city_0002)
