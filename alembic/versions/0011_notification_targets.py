"""notification targets: a notice stores what it points at (target, target_id), not a URL

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 18:00:00.000000

Notices kept their in-app address (`link`), so services built or hard-coded paths and chat notices
were found by comparing address strings. They now store a target (core/routes.py NoticeTarget) and
its id; core.routes.notice_path builds the address. The upgrade reads each stored address into its
target (an address no page has any more points nowhere); the downgrade writes the address back.
The address formats below are this revision's frozen copy, as of 2026-11-26.
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WITH_ID = [
    ("client_chat", re.compile(r"^/client-dashboard/chats/(\d+)$"), "/client-dashboard/chats/{}"),
    ("freelancer_chat", re.compile(r"^/freelancer-dashboard/chats/(\d+)$"), "/freelancer-dashboard/chats/{}"),
    ("job", re.compile(r"^/jobs/(\d+)$"), "/jobs/{}"),
]
_PLACES = {
    "company_jobs": "/client-dashboard?tab=jobs",
    "company_hirings": "/client-dashboard?tab=hirings",
    "freelancer_applications": "/freelancer-dashboard?tab=applications",
    "freelancer_home": "/freelancer-dashboard",
}
_NOTICES = sa.table(
    "notifications",
    sa.column("id", sa.Integer),
    sa.column("link", sa.String),
    sa.column("target", sa.String),
    sa.column("target_id", sa.Integer),
)


def target_of(link: str) -> tuple[str, int | None]:
    """The target a stored address names ('', None for none or an unknown one)."""
    for target, pattern, _path in _WITH_ID:
        match = pattern.match(link or "")
        if match and len(match.group(1)) <= 18:
            return target, int(match.group(1))
    for target, path in _PLACES.items():
        if link == path:
            return target, None
    return "", None


def link_of(target: str, target_id: int | None) -> str:
    """The address of a target, as stored before this revision."""
    for name, _pattern, path in _WITH_ID:
        if target == name and target_id:
            return path.format(target_id)
    return _PLACES.get(target, "")


def _rewrite(bind, read: sa.Column, write) -> None:
    """Rewrite every row in batches of 1,000 ids (a notice table can be large)."""
    last = 0
    while True:
        rows = bind.execute(
            sa.select(_NOTICES.c.id, *read).where(_NOTICES.c.id > last).order_by(_NOTICES.c.id).limit(1000)
        ).all()
        if not rows:
            return
        for row in rows:
            values = write(row)
            if values:
                bind.execute(_NOTICES.update().where(_NOTICES.c.id == row.id).values(**values))
        last = rows[-1].id


def upgrade() -> None:
    """Add target and target_id, fill them from each row's address, drop the address."""
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("target", sqlmodel.sql.sqltypes.AutoString(length=30), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("target_id", sa.Integer(), nullable=True))

    def fill(row) -> dict:
        target, target_id = target_of(row.link)
        return {"target": target, "target_id": target_id} if target else {}

    _rewrite(op.get_bind(), [_NOTICES.c.link], fill)
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_column("link")


def downgrade() -> None:
    """Put the address back from each row's target, drop target and target_id."""
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("link", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False, server_default="")
        )

    def fill(row) -> dict:
        link = link_of(row.target, row.target_id)
        return {"link": link} if link else {}

    _rewrite(op.get_bind(), [_NOTICES.c.target, _NOTICES.c.target_id], fill)
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_column("target_id")
        batch_op.drop_column("target")
