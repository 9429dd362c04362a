"""Waiting for something outside the browser (a server's health, a Redis record) to become true.

In the browser, Playwright's `expect` waits; this is for what it cannot see. One place polls, so a
wait has a deadline and a failure that says what did not happen, never a bare sleep in a test.
"""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(probe: Callable[[], T], timeout: float, every: float, failure: str | Callable[[], str]) -> T:
    """Call `probe` every `every` seconds until it returns something truthy, and return that.

    Args:
        probe: Checks once; returns a falsy value to go on waiting (an exception it raises ends the wait).
        timeout: Seconds before giving up.
        every: Seconds between two checks.
        failure: The message of the failure (or a function building it when the wait ends).

    Raises:
        AssertionError: `probe` stayed falsy for `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise AssertionError(failure() if callable(failure) else failure)
        time.sleep(every)
