"""profile city key: the folded city of a profile's location, for new-job alerts

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 12:00:00.000000

'Alertas de novas vagas' match a job's city with the freelancer's city ignoring case and accents.
SQLite's lower() folds only ASCII, so the folded city (the text before the first comma, as
core.text.city_key computes it) is stored and indexed; models.user keeps it in step on every
ORM insert and update. The folding code is copied here so the revision never changes meaning.
"""
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _city_key(location: str | None) -> str:
    city = (location or '').split(',')[0].split(' - ')[0]
    decomposed = unicodedata.normalize('NFKD', city)
    without_marks = ''.join(char for char in decomposed if not unicodedata.combining(char))
    return ' '.join(without_marks.casefold().split())[:120]


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table('profiles', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('cidade_busca', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False, server_default='')
        )
        batch_op.create_index(batch_op.f('ix_profiles_cidade_busca'), ['cidade_busca'], unique=False)
    profiles = sa.table(
        'profiles',
        sa.column('user_id', sa.Integer),
        sa.column('localizacao', sa.String),
        sa.column('cidade_busca', sa.String),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(profiles.c.user_id, profiles.c.localizacao)).all()
    for user_id, location in rows:
        key = _city_key(location)
        if key:
            bind.execute(profiles.update().where(profiles.c.user_id == user_id).values(cidade_busca=key))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table('profiles', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_profiles_cidade_busca'))
        batch_op.drop_column('cidade_busca')
