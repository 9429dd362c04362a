"""job list token follows ratings: the list and the job page show each company's rating

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 03:00:00.000000

The public job list and the job page now show the company's rating (average and count of the
stars it received), read in the same cached statements as the rest (services/jobs/jobs.py). So the job
list token (0007) must change in the same commit as any rating that could change those figures: a
new rating, a removed one (an account deleted), or a changed `stars` or `ratee_id`.

The trigger text is frozen here; services/jobs/list_version.py holds the live copy that bulk loads put back,
and tests/unit/jobs/test_list_version.py checks the two agree.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "job_list_version"
NEW_TOKEN = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text || clock_timestamp()::text)"}
SQLITE_TRIGGERS = {
    f"{TABLE}_ratings_ai": "AFTER INSERT ON ratings",
    f"{TABLE}_ratings_au": "AFTER UPDATE OF stars, ratee_id ON ratings",
    f"{TABLE}_ratings_ad": "AFTER DELETE ON ratings",
}
PG_TRIGGER = f"{TABLE}_ratings"
PG_WHEN = "AFTER INSERT OR UPDATE OF stars, ratee_id OR DELETE ON ratings"


def upgrade() -> None:
    """Create the ratings triggers that replace the job list's token (the bump function is 0007's)."""
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        bump = f"UPDATE {TABLE} SET token = {NEW_TOKEN[dialect]} WHERE id = 1"
        for name, when in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} BEGIN {bump}; END")
        return
    op.execute(
        f"CREATE CONSTRAINT TRIGGER {PG_TRIGGER} {PG_WHEN} DEFERRABLE INITIALLY DEFERRED "
        f"FOR EACH ROW EXECUTE FUNCTION {TABLE}_bump()"
    )


def downgrade() -> None:
    """Drop the ratings triggers."""
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        op.execute(f"DROP TRIGGER IF EXISTS {PG_TRIGGER} ON ratings")
