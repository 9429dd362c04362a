"""The timer process's pings, relayed to its server (core/signals.py across a pipe).

The timer (scripts/tick.py, started by app/timer.py) commits notices in a process of its own: the
2-hour reminder, automatic approvals, 'não confirmou'. No tab is connected to that process, so
its pings reached no one and an open bell only showed those notices on the next page load.

The server gives the timer the write end of a pipe (`--pings-fd`): `send_to(fd)` subscribes a
listener that writes each committed batch as one JSON line, and `receive(fd)`, a daemon thread of
the server, hands every line to core.signals' listeners as if the commit had been the server's.
states/live.py then refreshes the open tabs of those users (with Redis, on every worker).
A ping carries no data, only whom to refresh, so a lost line costs a refresh, never a wrong view.
"""

import json
import logging
import os
import threading
from collections.abc import Iterable

from core import signals
from core.signals import Ping

logger = logging.getLogger(__name__)


def encode(pings: Iterable[Ping]) -> bytes:
    """One batch as a JSON line: ``[[user_id, chat_id], ...]``."""
    return json.dumps(sorted([p.user_id, p.chat_id] for p in pings), separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> frozenset[Ping]:
    """The batch of one line; empty when the line is not a list of two-integer pairs."""
    try:
        pairs = json.loads(line)
        return frozenset(Ping(user_id, chat_id) for user_id, chat_id in pairs if _ints(user_id, chat_id))
    except (ValueError, TypeError):
        logger.warning("ping relay: a line that is not a batch of pings was ignored")
        return frozenset()


def _ints(*values: object) -> bool:
    return all(isinstance(value, int) and not isinstance(value, bool) for value in values)


class _Writer:
    """The timer side: each committed batch written whole, one thread at a time."""

    def __init__(self, fd: int) -> None:
        self._pipe = os.fdopen(fd, "wb")
        self._lock = threading.Lock()

    def __call__(self, pings: frozenset[Ping]) -> None:
        try:
            with self._lock:
                self._pipe.write(encode(pings))
                self._pipe.flush()
        except (OSError, ValueError):  # the server is gone (the timer ends with it): stop writing
            signals.unsubscribe(self)
            logger.warning("ping relay: the server stopped reading; open tabs refresh on their next load")


def send_to(fd: int) -> None:
    """In the timer process: write every committed batch of pings to the pipe `fd`."""
    signals.subscribe(_Writer(fd))


def receive(fd: int) -> threading.Thread:
    """In the server: read batches from the pipe `fd` and hand them to core.signals' listeners.

    The thread ends when the timer process closes its end (it ended).
    """

    def run() -> None:
        with os.fdopen(fd, "rb") as pipe:
            for line in pipe:
                pings = decode(line)
                if pings:
                    signals.publish(pings)

    thread = threading.Thread(target=run, name="timer-pings", daemon=True)
    thread.start()
    return thread
