"""job search columns: folded title/category (busca) and location (cidade_busca)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 02:56:12.341457

The public job list searches case- and accent-insensitively inside the database. SQLite's lower()
folds only ASCII, so the folded text is computed in Python (models.job.Job.refresh_search_fields
on every ORM insert and update) and stored; this revision adds the columns and fills them for the
rows that already exist. The folding code is copied here so the revision never changes meaning.
On PostgreSQL `busca` gets a trigram GIN index (pg_trgm), which serves LIKE '%term%'.
"""
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LABELS = {
    'hotel': 'Hotelaria',
    'gastronomia': 'Gastronomia',
    'restaurante': 'Restaurante',
    'eventos': 'Eventos',
    'musica': 'Música',
    'fotografia': 'Fotografia',
    'design': 'Design',
    'outros': 'Outros',
}
_ALIASES = {'gastronomy': 'gastronomia', 'restaurant': 'restaurante', 'events': 'eventos'}


def _fold(text: str | None) -> str:
    decomposed = unicodedata.normalize('NFKD', text or '')
    without_marks = ''.join(char for char in decomposed if not unicodedata.combining(char))
    return ' '.join(without_marks.casefold().split())


def _busca(titulo: str, categoria: str) -> str:
    slug = (categoria or '').strip().lower()
    slug = _ALIASES.get(slug, slug)
    label = _LABELS.get(slug, slug)
    return f'{_fold(titulo)} | {_fold(label)} {_fold(slug)}'[:400]


def upgrade() -> None:
    """Apply this revision."""
    bind = op.get_bind()
    if bind.dialect.name == 'postgresql':
        op.execute('CREATE EXTENSION IF NOT EXISTS pg_trgm')
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('busca', sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False, server_default='')
        )
        batch_op.add_column(
            sa.Column('cidade_busca', sqlmodel.sql.sqltypes.AutoString(length=160), nullable=False, server_default='')
        )

    jobs = sa.table(
        'jobs',
        sa.column('id', sa.Integer),
        sa.column('titulo', sa.String),
        sa.column('categoria', sa.String),
        sa.column('localizacao', sa.String),
        sa.column('busca', sa.String),
        sa.column('cidade_busca', sa.String),
    )
    rows = bind.execute(sa.select(jobs.c.id, jobs.c.titulo, jobs.c.categoria, jobs.c.localizacao)).all()
    for row in rows:
        bind.execute(
            jobs.update()
            .where(jobs.c.id == row.id)
            .values(busca=_busca(row.titulo, row.categoria), cidade_busca=_fold(row.localizacao)[:160])
        )

    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index(
            'ix_jobs_busca', ['busca'], unique=False, postgresql_using='gin', postgresql_ops={'busca': 'gin_trgm_ops'}
        )
        batch_op.create_index('ix_jobs_public_city', ['status', 'is_archived', 'cidade_busca', 'criado_em'], unique=False)


def downgrade() -> None:
    """Revert this revision (the pg_trgm extension is left installed: other objects may use it)."""
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index('ix_jobs_public_city')
        batch_op.drop_index('ix_jobs_busca', postgresql_using='gin', postgresql_ops={'busca': 'gin_trgm_ops'})
        batch_op.drop_column('cidade_busca')
        batch_op.drop_column('busca')
