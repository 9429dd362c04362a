"""Forced interleavings of two transactions, for control tests that must not depend on the scheduler.

A race is two attempts in their own sessions where the second stops at a chosen point of the
service (after its check, before its write) and waits there until the first has run to its commit;
then the second goes on. The bad interleaving of a check-then-write therefore happens every time,
on any machine, however slow or busy: no rounds, no luck.

The point is chosen by wrapping one service function with `Hold.after(...)` (stop once the held
attempt's n-th call of it has returned) or `Hold.before(...)` (stop before its n-th call). Only the
held attempt's thread stops; the first attempt calls the same function freely.

A hold point must come before the held attempt takes a lock the first attempt needs (on SQLite,
before its first write, since a write takes the database's write lock until the commit): otherwise
the first attempt waits for the held one, which waits for the first, until `WAIT_SECONDS` end the
race with a clear failure instead of a hang.
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps

from sqlalchemy import Engine
from sqlmodel import Session

import core.db

WAIT_SECONDS = 20


class RaceFailed(AssertionError):
    """The interleaving could not be forced (the held attempt never reached its hold point, or a side hung)."""


@dataclass
class Hold:
    """Where the second attempt stops, and the events that hold and release it."""

    reached: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    held_thread: int | None = None
    _calls: int = 0

    def _count_and_check(self, nth: int) -> bool:
        if threading.get_ident() != self.held_thread or self.reached.is_set():
            return False
        self._calls += 1
        return self._calls == nth

    def _stop_here(self) -> None:
        self.reached.set()
        if not self.released.wait(WAIT_SECONDS):
            raise RaceFailed("the first attempt did not commit while the second was held")

    def after(self, real: Callable, nth: int = 1) -> Callable:
        """`real`, wrapped so that the held attempt stops once its `nth` call has returned."""

        @wraps(real)
        def wrapper(*args, **kwargs):
            result = real(*args, **kwargs)
            if self._count_and_check(nth):
                self._stop_here()
            return result

        return wrapper

    def before(self, real: Callable, nth: int = 1) -> Callable:
        """`real`, wrapped so that the held attempt stops just before its `nth` call."""

        @wraps(real)
        def wrapper(*args, **kwargs):
            if self._count_and_check(nth):
                self._stop_here()
            return real(*args, **kwargs)

        return wrapper


def _attempt(engine: Engine, work: Callable[[Session], object], results: list, index: int, hold: Hold | None) -> None:
    if hold is not None:
        hold.held_thread = threading.get_ident()
    try:
        with core.db.session_scope(engine) as session:
            results[index] = work(session)
    except Exception as exc:  # noqa: BLE001  (the test classifies every outcome)
        results[index] = exc


def race(engine: Engine, hold: Hold, first: Callable[[Session], object], second: Callable[[Session], object]) -> list:
    """Run `second` until its hold point, then `first` to its commit, then the rest of `second`.

    Args:
        engine: The database both attempts use, each in its own `core.db.session_scope`.
        hold: The hold point, already wrapped into the service by the test.
        first: The attempt that runs start to commit while the other is held.
        second: The held attempt.

    Returns:
        [what first returned or raised, what second returned or raised].

    Raises:
        RaceFailed: The second attempt ended without reaching its hold point, or a side hung.
    """
    results: list = [None, None]
    held = threading.Thread(target=_attempt, args=(engine, second, results, 1, hold), daemon=True)
    held.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not hold.reached.wait(0.01) and held.is_alive() and time.monotonic() < deadline:
        pass
    if not hold.reached.is_set():
        held.join(WAIT_SECONDS)
        raise RaceFailed(f"the held attempt never reached its hold point: it returned {results[1]!r}")
    runner = threading.Thread(target=_attempt, args=(engine, first, results, 0, None), daemon=True)
    runner.start()
    runner.join(WAIT_SECONDS)
    hold.released.set()
    held.join(WAIT_SECONDS)
    if runner.is_alive() or held.is_alive():
        raise RaceFailed("an attempt is still running: the hold point waits on a lock the first attempt needs")
    return results
