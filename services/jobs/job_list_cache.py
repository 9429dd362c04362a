"""A process-wide cache of the public job list's counts and pages, and of job pages, valid while the list's token holds.

Every visitor of /jobs (and every freelancer searching the dashboard) asks the same few questions:
the first pages, with or without a city, a category or a common search term. Counting the matching
jobs is the costly part (docs/performance-log.md, "Job search and listing"), and before this cache it
ran on every page load.

Each entry is stored with the list token (services/jobs/list_version.py) read before its query ran. A read
first fetches the current token (one indexed single-row SELECT) and uses an entry only if its token
equals it: any committed write to jobs, or to a company's shown name or photo, in any process,
changes the token in the same commit, so a cached page is never older than the reader's own view
of the database. Entries are bounded (least recently used go first); nothing expires by time,
because nothing the list shows changes with time alone.
"""

from core.token_cache import TokenCache

COUNT_ENTRIES = 4096
PAGE_ENTRIES = 1024
DETAIL_ENTRIES = 4096

counts = TokenCache(COUNT_ENTRIES)
pages = TokenCache(PAGE_ENTRIES)
details = TokenCache(DETAIL_ENTRIES)  # the public job pages (/jobs/{id}): a job and its company's shown profile


def clear() -> None:
    """Empty every cache (tests and benchmarks that must reach the database)."""
    counts.clear()
    pages.clear()
    details.clear()
