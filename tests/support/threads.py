"""Requests released at the same instant, each with its own database session (the race tests)."""

import threading
from collections.abc import Callable

from sqlmodel import Session

import core.db


def at_once(calls: list[Callable[[Session], object]]) -> list[object]:
    """Run each call in its own thread and session at the same moment; results or exceptions, in order.

    Each thread opens its connection first and waits at a barrier, so the calls really overlap.
    """
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            with core.db.session_scope() as session:
                session.connection()
                barrier.wait(timeout=30)
                results[index] = calls[index](session)
        except Exception as exc:  # noqa: BLE001  (the test inspects what each request got)
            results[index] = exc

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results
