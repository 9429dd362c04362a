"""After-commit signals: which users must see fresh data because a transaction changed it for them.

Services call `ping(session, user_id)` (a notification) or `ping(session, user_id, chat_id)` (a chat
message) inside their transaction. Only when that transaction commits are the pings handed to the
subscribed listeners (the realtime layer in states/live.py); a rollback drops them, so nobody is
told about a change that did not happen. The database stays the record: a ping carries no data,
it only says whom to refresh.
"""

import logging
from collections.abc import Callable
from typing import NamedTuple

from sqlalchemy import event
from sqlalchemy.orm import Session

logger = logging.getLogger(__name__)
PINGS_KEY = "turno_pings"


# A notification only the bell shows (a new-job alert): the dashboards' lists and counters stay as
# they are, so a live refresh updates the bell and skips reloading the open tab.
BELL_ONLY = -1


class Ping(NamedTuple):
    """One user to refresh; `chat_id` is the conversation that changed (0: notifications, BELL_ONLY)."""

    user_id: int
    chat_id: int = 0


Listener = Callable[[frozenset[Ping]], None]
_listeners: list[Listener] = []


def ping(session: Session, user_id: int, chat_id: int = 0) -> None:
    """Record that `user_id` must be refreshed once `session`'s transaction commits.

    Args:
        session: The session of the transaction that makes the change.
        user_id: Who sees the change.
        chat_id: The conversation that changed, when it is a chat message; BELL_ONLY for a
            notification no dashboard tab lists (0 for any other notification).
    """
    session.info.setdefault(PINGS_KEY, set()).add(Ping(user_id, chat_id))


def pending(session: Session) -> frozenset[Ping]:
    """The pings recorded in `session` and not yet committed (for tests and diagnostics)."""
    return frozenset(session.info.get(PINGS_KEY, ()))


def discard(session: Session) -> None:
    """Drop the pings recorded so far in `session` (their users are being refreshed already)."""
    session.info.pop(PINGS_KEY, None)


def subscribe(listener: Listener) -> None:
    """Call `listener` with the pings of every committed transaction (idempotent)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    """Stop calling `listener`."""
    if listener in _listeners:
        _listeners.remove(listener)


def publish(batch: frozenset[Ping]) -> None:
    """Hand a committed batch to every listener (a commit here, or the timer's, core/ping_relay.py)."""
    for listener in list(_listeners):
        try:
            listener(batch)
        except Exception:  # the commit stands; a failed refresh must not turn it into an error
            logger.exception("realtime listener failed")


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    pings = session.info.pop(PINGS_KEY, None)
    if pings:
        publish(frozenset(pings))


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(PINGS_KEY, None)
