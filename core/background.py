"""Account work done after the answer (registration, recovery e-mails) on a bounded pool of threads.

Registration and recovery answer first and do their work (bcrypt, rows, e-mail) afterwards, so the
answer takes the same time whether or not the e-mail has an account. That work runs here, on at
most WORKERS threads, never one new thread per request: a burst of submissions waits in the queue
instead of starting hundreds of bcrypt threads. A job that raises is tried again after a short
pause, up to ATTEMPTS times; when it still fails, its `on_failure` runs (a registration e-mails the
person that it could not be completed), and the failure is logged.
"""

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

log = logging.getLogger(__name__)

WORKERS = 4
ATTEMPTS = 3
PAUSES = (0.5, 2.0)  # seconds before the second and third attempts

_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="account-work")
_pending: set[Future] = set()
_lock = threading.Lock()


def _run(name: str, job: Callable[[], None], on_failure: Callable[[], None] | None) -> None:
    for attempt in range(1, ATTEMPTS + 1):
        try:
            job()
            return
        except Exception:
            if attempt == ATTEMPTS:
                log.exception("%s failed after %d attempts", name, ATTEMPTS)
                break
            log.warning("%s failed (attempt %d of %d); trying again", name, attempt, ATTEMPTS, exc_info=True)
            time.sleep(PAUSES[attempt - 1])
    if on_failure is not None:
        try:
            on_failure()
        except Exception:
            log.exception("%s: telling the person it failed failed too", name)


def submit(name: str, job: Callable[[], None], on_failure: Callable[[], None] | None = None) -> Future:
    """Queue `job` on the pool (see the module docstring).

    Args:
        name: What the job is, for the log ('registration', 'password reset e-mail').
        job: The work; it opens its own database session.
        on_failure: Runs once when every attempt failed.

    Returns:
        The job's future (tests wait on it, or on `wait_idle`).
    """
    future = _pool.submit(_run, name, job, on_failure)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_forget)
    return future


def _forget(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def wait_idle(timeout: float = 60.0) -> None:
    """Wait until every job submitted so far has finished (tests and benchmarks)."""
    with _lock:
        pending = set(_pending)
    wait(pending, timeout=timeout)
