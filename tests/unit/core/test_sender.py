"""core/sender.py: the queue sender thread shared by push and WhatsApp."""

import threading

from sqlalchemy import create_engine, text
from sqlmodel import Session

from core.sender import Sender, http_session


def _counting_sender(fail_first: bool = False) -> tuple[Sender, list[int]]:
    drained: list[int] = []

    def drain() -> None:
        drained.append(1)
        if fail_first and len(drained) == 1:
            raise RuntimeError("the push service broke the round")

    return Sender("test-sender", drain), drained


def _session() -> Session:
    return Session(create_engine("sqlite://"))


def test_a_commit_wakes_the_sender_once_however_many_rows_it_queued():
    sender, drained = _counting_sender()
    with _session() as db:
        db.execute(text("SELECT 1"))
        sender.kick_after_commit(db)
        sender.kick_after_commit(db)  # a second notice in the same transaction
        assert drained == []  # nothing before the commit
        db.commit()
    assert sender.wait_idle(5)
    assert drained == [1]


def test_a_rollback_wakes_nothing_and_the_next_commit_still_does():
    sender, drained = _counting_sender()
    with _session() as db:
        db.execute(text("SELECT 1"))
        sender.kick_after_commit(db)
        db.rollback()
        assert sender.wait_idle(5)
        assert drained == []
        db.execute(text("SELECT 1"))
        sender.kick_after_commit(db)
        db.commit()
    assert sender.wait_idle(5)
    assert drained == [1]


def test_a_failed_round_leaves_the_thread_ready_for_the_next_kick(caplog):
    sender, drained = _counting_sender(fail_first=True)
    sender.kick()
    assert sender.wait_idle(5)
    sender.kick()
    assert sender.wait_idle(5)
    assert drained == [1, 1]
    assert "test-sender: round failed" in caplog.text


def test_each_thread_has_its_own_connection_pool_that_ignores_proxy_settings():
    here = http_session()
    there: list = []
    worker = threading.Thread(target=lambda: there.append(http_session()))
    worker.start()
    worker.join()
    assert here is http_session()
    assert there[0] is not here
    assert here.trust_env is False and there[0].trust_env is False
