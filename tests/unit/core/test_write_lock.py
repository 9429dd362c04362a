"""core.db.lock_for_write: on SQLite, writers of one process queue on a lock held until their transaction ends.

SQLite's own busy handler polls with sleeps of up to 100 ms; the queue wakes the next writer as soon as
the previous one commits or rolls back, and must never stay held after a transaction ends, whichever way.
"""

import threading

import pytest
from sqlmodel import select

from core import db as core_db
from core.db import lock_for_write, session_scope
from models import Profile
from tests.support.factories import make_company


@pytest.fixture
def sqlite_only(engine):
    if engine.dialect.name != "sqlite":
        pytest.skip("the queue exists on SQLite only (PostgreSQL locks rows)")
    return core_db._writer_lock(engine.url.render_as_string())


def _rename(company_id: int, name: str, holding: threading.Event | None = None, go: threading.Event | None = None):
    with session_scope() as db:
        lock_for_write(db)
        if holding is not None:
            holding.set()
            assert go is not None and go.wait(10)
        profile = db.get(Profile, company_id)
        profile.empresa = name
        db.add(profile)


def test_a_second_writer_waits_for_the_first_to_commit_then_goes(db, sqlite_only):
    company = make_company(db)
    db.commit()
    holding, go, second_done = threading.Event(), threading.Event(), threading.Event()
    first = threading.Thread(target=_rename, args=(company.id, "Primeiro", holding, go))
    first.start()
    assert holding.wait(10)

    second = threading.Thread(target=lambda: (_rename(company.id, "Segundo"), second_done.set()))
    second.start()
    assert not second_done.wait(0.3), "the second writer went while the first held the write lock"
    go.set()
    first.join(10)
    assert second_done.wait(10)
    second.join(10)
    db.commit()
    assert db.exec(select(Profile.empresa).where(Profile.user_id == company.id)).one() == "Segundo"
    assert not sqlite_only.locked()


def test_the_queue_is_free_after_a_rollback_an_error_or_a_second_call(db, sqlite_only):
    company = make_company(db)
    db.commit()
    with pytest.raises(RuntimeError), session_scope() as failed:
        lock_for_write(failed)
        raise RuntimeError("falhou")
    assert not sqlite_only.locked()

    with session_scope() as twice:
        lock_for_write(twice)
        lock_for_write(twice)  # already the writer: no second acquire (it would wait for itself)
        assert sqlite_only.locked()
    assert not sqlite_only.locked()

    _rename(company.id, "Depois")  # would wait forever if the lock had leaked
    assert not sqlite_only.locked()
