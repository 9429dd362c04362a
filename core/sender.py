"""A queue's sender thread, woken after the commit that filled the queue (push, WhatsApp).

services/reach/push.py and services/reach/whatsapp.py each keep an outbox table filled in the notice's own
transaction; a `Sender` drains it on a thread of this process so the request that caused the
notice never waits for a remote service (docs/architecture.md "Reaching people outside the tab").

- `Sender.kick_after_commit(db)` asks for a wake-up once `db` commits (nothing on a rollback).
- `Sender.kick()` wakes the thread now; the thread runs `drain()` until no kick came meanwhile.
- `Sender.wait_idle(timeout)` waits until the thread has nothing in hand (tests, benchmarks).
- `http_session()` is the sending thread's connection pool (WhatsApp).

The timer (services/shifts/shift_timer.py) calls the same `send_due` on every tick, so rows a sender
thread never took (its process ended) and retries go out anyway.
"""

import logging
import threading
from collections.abc import Callable

import requests
from sqlalchemy import event as sa_event
from sqlmodel import Session

logger = logging.getLogger(__name__)
_local = threading.local()


def http_session() -> requests.Session:
    """This thread's connection pool (a requests.Session is not shared across threads).

    Proxy settings from the environment would be read on every request otherwise (0.75 ms of CPU
    per push, measured in docs/performance.md): the WhatsApp API is reached directly. Pushes go
    through services/reach/push_sending.py's own urllib3 pool.
    """
    if getattr(_local, "session", None) is None:
        _local.session = requests.Session()
        _local.session.trust_env = False
    return _local.session


class Sender:
    """One queue's sender thread: woken by `kick()`, runs `drain()`, sleeps again.

    Args:
        name: The thread's name (logs).
        drain: Sends everything due; called with no arguments.
    """

    def __init__(self, name: str, drain: Callable[[], object]) -> None:
        self._name = name
        self._drain = drain
        self._pending_key = f"turno_pending_{name}"
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def kick(self) -> None:
        """Wake the thread (starting it the first time); never blocks the caller."""
        with self._lock:
            self._idle.clear()
            self._wake.set()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()

    def kick_after_commit(self, db: Session) -> None:
        """Kick once `db`'s transaction commits; forget it if the transaction rolls back."""
        if db.info.get(self._pending_key):
            return
        db.info[self._pending_key] = True
        sa_event.listen(db, "after_commit", self._after_commit, once=True)
        sa_event.listen(db, "after_soft_rollback", self._forget, once=True)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until the thread has nothing in hand; False after `timeout` seconds."""
        return self._idle.wait(timeout)

    def _after_commit(self, db: Session) -> None:
        db.info.pop(self._pending_key, None)
        self.kick()

    def _forget(self, db: Session, _previous) -> None:
        db.info.pop(self._pending_key, None)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                self._drain()
            except Exception:  # a broken round must not end the thread: the timer retries the rows
                logger.exception("%s: round failed", self._name)
            with self._lock:
                if not self._wake.is_set():
                    self._idle.set()
