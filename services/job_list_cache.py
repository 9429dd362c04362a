"""A process-wide cache of the public job list's counts and pages, valid while the list's token holds.

Every visitor of /jobs (and every freelancer searching the dashboard) asks the same few questions:
the first pages, with or without a city, a category or a common search term. Counting the matching
jobs is the costly part (at 200,000 jobs, 14 ms on SQLite and 45-60 ms on PostgreSQL for the
unfiltered list, docs/performance.md), and before this cache it ran on every page load.

Each entry is stored with the list token (core/list_version.py) read before its query ran. A read
first fetches the current token (one indexed single-row SELECT) and uses an entry only if its token
equals it: any committed write to jobs, or to a company's shown name or photo, in any process,
changes the token in the same commit, so a cached page is never older than the reader's own view
of the database. Entries are bounded (least recently used go first); nothing expires by time,
because nothing the list shows changes with time alone.
"""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import TypeVar

T = TypeVar("T")

COUNT_ENTRIES = 4096
PAGE_ENTRIES = 1024


class TokenCache:
    """A bounded LRU mapping whose entries are valid only under the token they were stored with."""

    def __init__(self, entries: int) -> None:
        """Create an empty cache.

        Args:
            entries: The most entries kept; the least recently used go first.
        """
        self._entries = entries
        self._data: OrderedDict[Hashable, tuple[str, object]] = OrderedDict()
        self._lock = Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: Hashable, token: str | None, compute: Callable[[], T]) -> T:
        """The value stored for `key` under `token`, or `compute()`'s result, stored under `token`.

        Args:
            key: What the value answers (engine, filters, page...).
            token: The list token read before `compute` would run; None disables caching.
            compute: Produces the value from the database.

        Returns:
            The cached or freshly computed value.
        """
        if token is None:
            return compute()
        with self._lock:
            entry = self._data.get(key)
            if entry is not None and entry[0] == token:
                self._data.move_to_end(key)
                self.hits += 1
                return entry[1]  # type: ignore[return-value]
            self.misses += 1
        value = compute()
        with self._lock:
            self._data[key] = (token, value)
            self._data.move_to_end(key)
            while len(self._data) > self._entries:
                self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry and the hit counts."""
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        """The number of entries held."""
        return len(self._data)


counts = TokenCache(COUNT_ENTRIES)
pages = TokenCache(PAGE_ENTRIES)


def clear() -> None:
    """Empty both caches (tests and benchmarks that must reach the database)."""
    counts.clear()
    pages.clear()
