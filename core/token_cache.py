"""A bounded, thread-safe LRU mapping whose entries are valid only under the version token they were stored with.

Used for the public job list and job pages (services/jobs/job_list_cache.py, keyed on the list token of
services/jobs/list_version.py) and for session lookups (services/accounts/session_cache.py, keyed on the session
token of services/accounts/session_version.py). A reader fetches the current token *before* it would query, and
stores what it computed under that token: a write committed in between can only make the entry
miss later, never make a stale entry look current.
"""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import TypeVar

T = TypeVar("T")


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

    def get(self, key: Hashable, token: str | None) -> object | None:
        """The value stored for `key` under `token`, or None (a miss; also when `token` is None).

        Args:
            key: What the value answers.
            token: The version token read just now.

        Returns:
            The cached value, or None.
        """
        if token is None:
            return None
        with self._lock:
            entry = self._data.get(key)
            if entry is not None and entry[0] == token:
                self._data.move_to_end(key)
                self.hits += 1
                return entry[1]
            self.misses += 1
            return None

    def put(self, key: Hashable, token: str | None, value: object) -> None:
        """Store `value` for `key` under `token` (nothing when `token` is None), dropping the oldest beyond the bound.

        Args:
            key: What the value answers.
            token: The version token read before the value was computed.
            value: The value; never None (None reads as a miss).
        """
        if token is None:
            return
        with self._lock:
            self._data[key] = (token, value)
            self._data.move_to_end(key)
            while len(self._data) > self._entries:
                self._data.popitem(last=False)

    def get_or_compute(self, key: Hashable, token: str | None, compute: Callable[[], T]) -> T:
        """The value stored for `key` under `token`, or `compute()`'s result, stored under `token`.

        Args:
            key: What the value answers (engine, filters, page...).
            token: The version token read before `compute` would run; None disables caching.
            compute: Produces the value from the database (a None result is not stored).

        Returns:
            The cached or freshly computed value.
        """
        cached = self.get(key, token)
        if cached is not None:
            return cached  # type: ignore[return-value]
        value = compute()
        if value is not None:
            self.put(key, token, value)
        return value

    def discard(self, key: Hashable) -> None:
        """Forget the entry of `key`, if any."""
        with self._lock:
            self._data.pop(key, None)

    def clear(self) -> None:
        """Forget every entry and the hit counts."""
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __contains__(self, key: Hashable) -> bool:
        """Whether an entry for `key` is held, under any token."""
        return key in self._data

    def __len__(self) -> int:
        """The number of entries held."""
        return len(self._data)
