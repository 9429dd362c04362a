"""The public job list's version token: changes in the same commit as anything the list shows.

`job_list_version` holds one row whose `token` every write to `jobs`, every change of what a
job's pages show of its company in `profiles` (name, photo, and on the job page its bio, website
and networks), and every rating written or removed (the company's rating on its vagas) replaces
with a random value, from database triggers (alembic revisions 0007, 0008 and 0014; how version
tokens work: core/version_token.py).
services/jobs/job_list_cache.py keys its cache on it, and so does the public job page's cache.

The trigger text lives here once for code that must put it back (bulk loads drop it, see
`triggers_suspended`); the migration keeps its own frozen copy, and a unit test checks both match.
"""

from core.version_token import VersionToken
from models.job import SEARCH_INDEX_TABLE, JobListVersion

SHOWN_PROFILE_COLUMNS = (  # 0008: biografia, website, redes_sociais; 0022: the punctuality badge
    "empresa",
    "nome",
    "foto_url",
    "biografia",
    "website",
    "redes_sociais",
    "selo_pontual",
    "selo_resumo",
)
_SHOWN_PROFILE_COLUMNS = ", ".join(SHOWN_PROFILE_COLUMNS)
_T = JobListVersion.__tablename__
EVERY_COLUMN = None
# What the triggers below watch, per table: a cached statement (services/jobs/job_detail.py `cached_statements`)
# may read only these, or its entries would outlive a change (tests/unit/jobs/test_list_cache_watch.py).
# Every column of `jobs`; the FTS index, which only the jobs table's own triggers write, in the same
# statement; of `profiles`, the shown columns plus its key `user_id` (inserts and deletes are
# watched, and the key is never updated).
WATCHED_COLUMNS: dict[str, frozenset[str] | None] = {
    "jobs": EVERY_COLUMN,
    SEARCH_INDEX_TABLE: EVERY_COLUMN,
    "profiles": frozenset({*SHOWN_PROFILE_COLUMNS, "user_id"}),
    "ratings": frozenset({"ratee_id", "stars"}),  # 0014: inserts and deletes too
}
TOKEN = VersionToken(
    JobListVersion,
    sqlite_triggers={
        f"{_T}_jobs_ai": "AFTER INSERT ON jobs",
        f"{_T}_jobs_au": "AFTER UPDATE ON jobs",
        f"{_T}_jobs_ad": "AFTER DELETE ON jobs",
        f"{_T}_profiles_ai": "AFTER INSERT ON profiles",
        f"{_T}_profiles_au": f"AFTER UPDATE OF {_SHOWN_PROFILE_COLUMNS} ON profiles",
        f"{_T}_profiles_ad": "AFTER DELETE ON profiles",
        f"{_T}_ratings_ai": "AFTER INSERT ON ratings",
        f"{_T}_ratings_au": "AFTER UPDATE OF stars, ratee_id ON ratings",
        f"{_T}_ratings_ad": "AFTER DELETE ON ratings",
    },
    pg_triggers={
        f"{_T}_jobs": "AFTER INSERT OR UPDATE OR DELETE ON jobs",
        f"{_T}_profiles": f"AFTER INSERT OR UPDATE OF {_SHOWN_PROFILE_COLUMNS} OR DELETE ON profiles",
        f"{_T}_ratings": "AFTER INSERT OR UPDATE OF stars, ratee_id OR DELETE ON ratings",
    },
)
TABLE = TOKEN.table
trigger_ddl = TOKEN.trigger_ddl
drop_ddl = TOKEN.drop_ddl
bump = TOKEN.bump
current = TOKEN.current
triggers_suspended = TOKEN.triggers_suspended
