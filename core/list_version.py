"""The public job list's version token: changes in the same commit as anything the list shows.

`job_list_version` holds one row whose `token` every write to `jobs`, and every change of what a
job's pages show of its company in `profiles` (name, photo, and on the job page its bio, website
and networks), replaces with a random value, from database triggers (alembic revisions 0007 and
0008; how version tokens work: core/version_token.py).
services/job_list_cache.py keys its cache on it, and so does the public job page's cache.

The trigger text lives here once for code that must put it back (bulk loads drop it, see
`triggers_suspended`); the migration keeps its own frozen copy, and a unit test checks both match.
"""

from core.version_token import VersionToken
from models.job import JobListVersion

_SHOWN_PROFILE_COLUMNS = "empresa, nome, foto_url, biografia, website, redes_sociais"  # 0008 added the last three
_T = JobListVersion.__tablename__
TOKEN = VersionToken(
    JobListVersion,
    sqlite_triggers={
        f"{_T}_jobs_ai": "AFTER INSERT ON jobs",
        f"{_T}_jobs_au": "AFTER UPDATE ON jobs",
        f"{_T}_jobs_ad": "AFTER DELETE ON jobs",
        f"{_T}_profiles_ai": "AFTER INSERT ON profiles",
        f"{_T}_profiles_au": f"AFTER UPDATE OF {_SHOWN_PROFILE_COLUMNS} ON profiles",
        f"{_T}_profiles_ad": "AFTER DELETE ON profiles",
    },
    pg_triggers={
        f"{_T}_jobs": "AFTER INSERT OR UPDATE OR DELETE ON jobs",
        f"{_T}_profiles": f"AFTER INSERT OR UPDATE OF {_SHOWN_PROFILE_COLUMNS} OR DELETE ON profiles",
    },
)
TABLE = TOKEN.table
trigger_ddl = TOKEN.trigger_ddl
drop_ddl = TOKEN.drop_ddl
bump = TOKEN.bump
current = TOKEN.current
triggers_suspended = TOKEN.triggers_suspended
