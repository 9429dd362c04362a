"""job search matches city and address: busca gets the folded location and street address

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 03:10:00.000000

The home search box says 'Digite um cargo, cidade ou endereço', but `busca` held only the title and
the category, so 'Curitiba' found nothing. `busca` now also holds the folded city and address, each
after the separator no search term contains (models.job.search_text). This revision rewrites the
existing rows; the downgrade writes them back in the 0002 form. Both forms are copied here so the
revision never changes meaning. On SQLite the FTS index follows through its update trigger (0004);
on PostgreSQL the trigram index follows by itself.
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000
_LABELS = {
    "hotel": "Hotelaria",
    "gastronomia": "Gastronomia",
    "restaurante": "Restaurante",
    "eventos": "Eventos",
    "musica": "Música",
    "fotografia": "Fotografia",
    "design": "Design",
    "outros": "Outros",
}
_ALIASES = {"gastronomy": "gastronomia", "restaurant": "restaurante", "events": "eventos"}
_JOBS = sa.table(
    "jobs",
    sa.column("id", sa.Integer),
    sa.column("titulo", sa.String),
    sa.column("categoria", sa.String),
    sa.column("localizacao", sa.String),
    sa.column("endereco", sa.String),
    sa.column("busca", sa.String),
)


def _fold(text: str | None) -> str:
    decomposed = unicodedata.normalize("NFKD", text or "")
    without_marks = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(without_marks.casefold().split())


def _category(categoria: str | None) -> str:
    slug = (categoria or "").strip().lower()
    slug = _ALIASES.get(slug, slug)
    return f"{_fold(_LABELS.get(slug, slug))} {_fold(slug)}"


def busca_0015(titulo: str, categoria: str, localizacao: str, endereco: str) -> str:
    """Title | category | city | address (empty parts left out), at most 400 characters."""
    parts = (_fold(titulo), _category(categoria), _fold(localizacao), _fold(endereco))
    return " | ".join(part for part in parts if part)[:400]


def busca_0002(titulo: str, categoria: str, localizacao: str, endereco: str) -> str:
    """Title | category, as revision 0002 wrote it."""
    return f"{_fold(titulo)} | {_category(categoria)}"[:400]


def _rewrite(form) -> None:
    """Write every job's `busca` in `form`, BATCH rows per statement, by id.

    On PostgreSQL the job list token's triggers (0007) are deferred to the commit; their events are
    fired at the end, so a later revision in the same transaction may ALTER `jobs`.
    """
    bind = op.get_bind()
    try:
        _rewrite_rows(bind, form)
    finally:
        if bind.dialect.name == "postgresql":
            op.execute("SET CONSTRAINTS ALL IMMEDIATE")
            op.execute("SET CONSTRAINTS ALL DEFERRED")


def _rewrite_rows(bind, form) -> None:
    last = 0
    while True:
        rows = bind.execute(
            sa.select(_JOBS.c.id, _JOBS.c.titulo, _JOBS.c.categoria, _JOBS.c.localizacao, _JOBS.c.endereco)
            .where(_JOBS.c.id > last)
            .order_by(_JOBS.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        bind.execute(
            _JOBS.update().where(_JOBS.c.id == sa.bindparam("job_id")).values(busca=sa.bindparam("new_busca")),
            [
                {"job_id": row.id, "new_busca": form(row.titulo, row.categoria, row.localizacao, row.endereco)}
                for row in rows
            ],
        )
        last = rows[-1].id


def upgrade() -> None:
    """Rewrite `busca` with the city and the address."""
    _rewrite(busca_0015)


def downgrade() -> None:
    """Rewrite `busca` as title and category only."""
    _rewrite(busca_0002)
