"""Control tests: each defence of a contested write removed, and the bad interleaving forced every time.

A control proves that an invariant of tests/security/test_concurrency_rounds.py holds because of a
given lock or constraint: without it, the same service breaks the invariant. The rounds there rely
on the scheduler to interleave 32 attempts; a control must not, or it fails whenever a machine is
faster or slower than the one it was tuned on (it did once in CI). Here two attempts run in their
own sessions and the second is held just past its check until the first has committed
(tests/security/interleaving.py), so the bad interleaving happens on every run, on both engines.

Where the defence is a constraint, the same forced interleaving also runs with the defence in place
and must keep the invariant: the constraint alone refuses the second attempt.

Each test gets a new database at head, so dropping a constraint touches nothing else.
"""

import re
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session

from models import Application, ApplicationStatus, Job
from services.accounts import accounts
from services.accounts.accounts import INVALID_LINK
from services.common.errors import ServiceError
from services.jobs import company_jobs, plans
from services.shifts import application_answers, applications
from services.shifts.application_answers import POSITIONS_FILLED
from services.shifts.applications import ALREADY_APPLIED
from tests.security.contested import (
    ENGINES,
    JOB_FORM,
    NEW_PASSWORD,
    company_rounds,
    hiring_rounds,
    links,
    migrated_engine,
    opening_rounds,
    rows,
)
from tests.security.interleaving import Hold, race


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A new database at head for each control, on SQLite and PostgreSQL."""
    with migrated_engine(request.param, tmp_path_factory.mktemp("interleaving"), "interleaving", 4) as eng:
        yield eng


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def drop_unique(engine: Engine, table: str, columns: str, postgres_name: str) -> None:
    """Remove a table's unique constraint on `columns` (SQLite rebuilds the table without it)."""
    if not _is_sqlite(engine):
        with engine.begin() as conn:
            conn.execute(text(f"ALTER TABLE {table} DROP CONSTRAINT {postgres_name}"))
        return
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        create = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
        loose, found = re.subn(rf",\s*(CONSTRAINT \w+ )?UNIQUE \({columns}\)", "", create.scalar_one())
        assert found == 1, f"no UNIQUE ({columns}) in {table}"
        conn.exec_driver_sql(loose.replace(f"CREATE TABLE {table} ", f"CREATE TABLE {table}_loose ", 1))
        conn.exec_driver_sql(f"INSERT INTO {table}_loose SELECT * FROM {table}")  # noqa: S608  (names are the test's own)
        conn.exec_driver_sql(f"DROP TABLE {table}")
        conn.exec_driver_sql(f"ALTER TABLE {table}_loose RENAME TO {table}")
        conn.commit()
        conn.exec_driver_sql("PRAGMA foreign_keys=ON")


def _count(engine: Engine, sql: str, **params) -> int:
    [[value]] = rows(engine, sql, **params)
    return value


# --- accept: the job lock ------------------------------------------------------------------------


def _unlocked_owned_job(real: Callable) -> Callable:
    def owned_job(session, company_id, job_id, *, lock=False):
        return real(session, company_id, job_id)

    return owned_job


def test_control_accepting_without_the_job_lock_breaks_the_hire(engine, monkeypatch):
    """SQLite: a second tab accepting the same applicant is told every position is filled by its own hire.
    PostgreSQL: two applicants are hired for one position."""
    hiring = hiring_rounds(engine, 1, 2, "Vaga sem trava")[0]
    first_choice, second_choice = hiring.application_ids
    monkeypatch.setattr(application_answers, "owned_job", _unlocked_owned_job(application_answers.owned_job))
    hold = Hold()
    if _is_sqlite(engine):
        # SQLite takes its write lock at the first write, so the held tab stops before its count:
        # it read the application as pending, and counts after the other tab's hire is committed.
        monkeypatch.setattr(application_answers, "_accepted_count", hold.before(application_answers._accepted_count))
        second_choice = first_choice
    else:
        # PostgreSQL: the held tab has written its acceptance and recounted (its own only).
        monkeypatch.setattr(
            application_answers, "_accepted_count", hold.after(application_answers._accepted_count, nth=2)
        )

    first, second = race(
        engine,
        hold,
        lambda s: application_answers.accept(s, hiring.company_id, first_choice),
        lambda s: application_answers.accept(s, hiring.company_id, second_choice),
    )

    hired = _count(
        engine, "SELECT count(*) FROM applications WHERE vaga_id = :job AND status = 'accepted'", job=hiring.job_id
    )
    assert isinstance(first, int)
    if _is_sqlite(engine):
        assert hired == 1
        assert isinstance(second, ServiceError) and second.message == POSITIONS_FILLED
    else:
        assert isinstance(second, int)
        assert hired == 2


# --- publish at the plan limit: the company lock -------------------------------------------------


def test_control_publishing_without_the_company_lock_exceeds_the_plan(engine, monkeypatch):
    [company_id] = company_rounds(engine, 1)  # one active job: one below the free plan's two
    monkeypatch.setattr(plans, "_hold_company", lambda session, company_id: None)
    hold = Hold()
    monkeypatch.setattr(plans, "usage", hold.after(plans.usage))

    results = race(engine, hold, *[lambda s: company_jobs.create_job(s, company_id, dict(JOB_FORM))] * 2)

    assert all(isinstance(result, int) for result in results), results
    active = "SELECT count(*) FROM jobs WHERE cliente_id = :company AND status IN ('open', 'in_progress')"
    assert _count(engine, active, company=company_id) == 3


# --- apply: the unique (job, freelancer) constraint ----------------------------------------------


def _apply_race(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> tuple[list, int]:
    """The same freelancer applies twice, the second held after it read 'not applied yet'."""
    opening = opening_rounds(engine, 1)[0]
    if _is_sqlite(engine):
        # SQLite's write lock would make the two applications run one after the other: it is a
        # defence of its own, so these tests leave only the constraint.
        monkeypatch.setattr(applications, "lock_for_write", lambda session: None)
    hold = Hold()
    monkeypatch.setattr(applications, "_open_job_for", hold.after(applications._open_job_for))
    results = race(
        engine, hold, *[lambda s: applications.apply(s, opening.freelancer_id, "freelancer", opening.job_id, {})] * 2
    )
    return results, _count(engine, "SELECT count(*) FROM applications WHERE vaga_id = :job", job=opening.job_id)


def test_the_unique_constraint_alone_refuses_a_second_application_past_the_check(engine, monkeypatch):
    (first, second), applied = _apply_race(engine, monkeypatch)

    assert isinstance(first, int)
    assert isinstance(second, ServiceError) and second.message == ALREADY_APPLIED
    assert applied == 1


def test_control_applying_without_the_unique_constraint_duplicates(engine, monkeypatch):
    drop_unique(engine, "applications", "vaga_id, freelancer_id", "uq_applications_vaga_freelancer")

    results, applied = _apply_race(engine, monkeypatch)

    assert all(isinstance(result, int) for result in results), results
    assert applied == 2


# --- the chat of an accepted application: the unique application_id ----------------------------


def _chat_race(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> tuple[list, int, int]:
    """Two transactions open the chat of one accepted application, the second held after it found none."""
    hiring = hiring_rounds(engine, 1, 1, "Vaga conversa")[0]
    [application_id] = hiring.application_ids
    with engine.begin() as conn:
        conn.execute(text("UPDATE applications SET status = 'accepted' WHERE id = :id"), {"id": application_id})

    def open_chat(session: Session) -> int:
        application = session.get(Application, application_id)
        assert application is not None and application.status == ApplicationStatus.ACCEPTED
        return application_answers._chat_for(session, application, session.get(Job, hiring.job_id))

    hold = Hold()
    monkeypatch.setattr(application_answers, "_existing_chat", hold.after(application_answers._existing_chat))
    results = race(engine, hold, open_chat, open_chat)
    chats = _count(engine, "SELECT count(*) FROM chats WHERE application_id = :id", id=application_id)
    welcomes = _count(engine, "SELECT count(*) FROM messages")
    return results, chats, welcomes


def test_the_unique_application_id_alone_keeps_one_chat_past_the_check(engine, monkeypatch):
    (first, second), chats, welcomes = _chat_race(engine, monkeypatch)

    assert isinstance(first, int)
    assert second == first
    assert (chats, welcomes) == (1, 1)


def test_control_opening_chats_without_the_unique_application_id_duplicates(engine, monkeypatch):
    drop_unique(engine, "chats", "application_id", "chats_application_id_key")

    (first, second), chats, welcomes = _chat_race(engine, monkeypatch)

    assert isinstance(first, int) and isinstance(second, int) and first != second
    assert (chats, welcomes) == (2, 2)


# --- single-use links: the conditional UPDATE ------------------------------------------------------


def _consume_by_read_then_write(session: Session, token: str, purpose) -> int:
    """How a token was used before: read it, check it, then write used_at (the shape the UPDATE replaced)."""
    row = accounts._find_token(session, token, purpose)
    if row is None:
        raise ServiceError(INVALID_LINK)
    row.used_at = row.expires_at
    session.add(row)
    session.flush()
    return row.user_id


@pytest.mark.parametrize("kind", ["reset", "confirmation"])
def test_control_using_a_link_by_read_then_write_uses_it_twice(engine, monkeypatch, kind):
    reset, confirmation = links(engine, 2)
    link = reset if kind == "reset" else confirmation
    monkeypatch.setattr(accounts, "_consume_token", _consume_by_read_then_write)
    hold = Hold()
    monkeypatch.setattr(accounts, "_find_token", hold.after(accounts._find_token))

    def use(session: Session) -> int:
        if kind == "reset":
            return accounts.reset_password(session, link.token, dict(NEW_PASSWORD)).id
        return accounts.confirm_email(session, link.token).id

    results = race(engine, hold, use, use)

    assert all(isinstance(result, int) for result in results), results
