"""job state agrees: status, vaga_status and is_archived say the same thing on every row

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 20:10:00.000000

Before services/jobs/job_lifecycle.py became the only writer of a job's state, each service set the
three columns by hand, and closing an archived job (reachable by calling the handler directly) left
`status = 'closed'` with `is_archived` still true. From now on `vaga_status` is the stage (open,
in_progress, closed), `is_archived` the flag, and `status` the stage or 'archived' while the flag is
set. The upgrade brings older rows to that rule (archived wins: a job archived by either column
stays archived, keeping its stage). The downgrade has nothing to undo: the old code reads these rows
as it read them before.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_STAGES = "('open', 'in_progress', 'closed')"


def upgrade() -> None:
    """Archived by either column means archived; the stage comes from whichever column holds one."""
    op.execute(f"UPDATE jobs SET vaga_status = status WHERE status IN {_STAGES} AND vaga_status <> status")
    op.execute(f"UPDATE jobs SET vaga_status = 'open' WHERE vaga_status NOT IN {_STAGES}")
    op.execute("UPDATE jobs SET status = 'archived' WHERE is_archived AND status <> 'archived'")
    op.execute("UPDATE jobs SET is_archived = true WHERE status = 'archived' AND NOT is_archived")


def downgrade() -> None:
    """Nothing to undo: the rows already meant this to the code of revision 0011."""
