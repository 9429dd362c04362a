"""list indexes: every list a user sees is read one page at a time along an index

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 12:00:00.000000

The lists are paginated (services/common/paging.py) and each page is read along an index that holds both
the filter and the order, so a page costs the same however many rows the list has:
- messages (chat_id, id): a conversation's latest page and the last message of each chat in the
  conversation list (max(id) per chat) without reading the chat's other messages;
- ratings (ratee_id, created_at): a profile's reviews, newest first (replaces the plain ratee_id
  index, which it covers);
- jobs (cliente_id, status, criado_em): the company's Ativas/Arquivadas lists and their counts.
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_index('ix_messages_chat_latest', 'messages', ['chat_id', 'id'], unique=False)
    op.create_index('ix_ratings_ratee_created', 'ratings', ['ratee_id', 'created_at'], unique=False)
    op.drop_index('ix_ratings_ratee', table_name='ratings')
    op.create_index('ix_jobs_cliente_status_criado', 'jobs', ['cliente_id', 'status', 'criado_em'], unique=False)


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index('ix_jobs_cliente_status_criado', table_name='jobs')
    op.create_index('ix_ratings_ratee', 'ratings', ['ratee_id'], unique=False)
    op.drop_index('ix_ratings_ratee_created', table_name='ratings')
    op.drop_index('ix_messages_chat_latest', table_name='messages')
