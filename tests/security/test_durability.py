"""Durability: SIGKILL of the backend in the middle of acceptances and chat sends, then restart.

Each trial: two companies accept their job's pending applications and both participants of two
conversations send messages, all at once over the websocket; at a random moment within that burst
the backend's whole process group gets SIGKILL. Whatever a tab had been shown as done before the
kill (the applicant card reading 'accepted' with its chat, the message in the sender's own
conversation) is an acknowledged write. The backend restarts on the same port, every tab opens
its page again with the same token and cookie and must see its acknowledged writes, and the
database must hold every acknowledged write (0 lost) and no half-written rows: an accepted
application has its chat, welcome message and notification, a job's status agrees with its hired
count, every message belongs to an existing chat whose last activity is not older than it, no
orphans, and SQLite's integrity_check says ok.

DURABILITY_TRIALS (default 100) sets the SQLite trials; DURABILITY_PG_TRIALS (default 10) the
PostgreSQL ones, run when TEST_DATABASE_URL names a PostgreSQL server.
"""

import asyncio
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from bench import harness
from tests.security import durability_support as support

TRIALS = int(os.environ.get("DURABILITY_TRIALS", "100"))
PG_TRIALS = int(os.environ.get("DURABILITY_PG_TRIALS", "10"))
COMPANIES_PER_TRIAL = 2
APPLICANTS_PER_JOB = 2
CHATS = 2
MESSAGES_PER_TAB = 3
VERBOSE = os.environ.get("DURABILITY_VERBOSE", "") not in ("", "0")


@dataclass
class Tally:
    """The figures of a run of trials."""

    engine: str
    trials: int = 0
    fired_accepts: int = 0
    fired_messages: int = 0
    acked_accepts: int = 0
    acked_messages: int = 0
    committed_unacked: int = 0
    lost: list[str] = field(default_factory=list)
    half_written: list[str] = field(default_factory=list)
    reconnects: int = 0
    reconnect_attempts: int = 0
    not_shown_after_reconnect: list[str] = field(default_factory=list)
    kills_mid_burst: int = 0
    kills_before_any_ack: int = 0
    kills_after_all_acks: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    trial_seconds: list[float] = field(default_factory=list)
    window: float = 0.0
    first_ack: float = 0.0

    def line(self) -> str:
        """One line with every figure the issue asks for."""
        restart = sorted(self.restart_seconds)
        median = restart[len(restart) // 2] if restart else 0.0
        return (
            f"[{self.engine}] trials {self.trials}: acknowledged writes {self.acked_accepts + self.acked_messages}"
            f" ({self.acked_accepts} acceptances, {self.acked_messages} messages; fired {self.fired_accepts}"
            f" and {self.fired_messages}), committed but unacknowledged {self.committed_unacked},"
            f" lost {len(self.lost)}, half-written {len(self.half_written)},"
            f" reconnects {self.reconnects}/{self.reconnect_attempts}, not shown after reconnect"
            f" {len(self.not_shown_after_reconnect)}; kills before any ack {self.kills_before_any_ack},"
            f" mid-burst {self.kills_mid_burst}, after the last ack {self.kills_after_all_acks};"
            f" burst {self.window:.2f} s (first ack {self.first_ack:.2f} s), restart median {median:.2f} s,"
            f" trial mean {sum(self.trial_seconds) / max(1, len(self.trial_seconds)):.2f} s"
        )


ENGINES = [
    pytest.param("sqlite", TRIALS, id="sqlite"),
    pytest.param(
        "postgresql",
        PG_TRIALS,
        id="postgresql",
        marks=pytest.mark.skipif(not harness.postgres_url(), reason="TEST_DATABASE_URL is not set"),
    ),
]


@pytest.fixture
def seeding_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process seeds with fast bcrypt; its settings and engine are reset afterwards."""
    from core.db import get_engine
    from core.settings import get_settings

    monkeypatch.setenv("BCRYPT_ROUNDS", "4")
    monkeypatch.setenv("APP_ENV", "test")
    monkeypatch.setenv("DATABASE_URL", os.environ.get("DATABASE_URL", "sqlite:///turno.db"))
    yield
    monkeypatch.undo()
    get_engine().dispose()
    get_settings.cache_clear()
    get_engine.cache_clear()


async def _open_all(tabs: list) -> list:
    """Open every tab's page; the exceptions of the ones that failed."""
    results = await asyncio.gather(*(tab.open() for tab in tabs), return_exceptions=True)
    return [result for result in results if isinstance(result, BaseException)]


async def _close_all(tabs: list) -> None:
    await asyncio.gather(*(tab.close() for tab in tabs))


def _burst(chat_tabs: list, accept_tabs: list) -> asyncio.Future:
    """Every tab fires its writes at once."""
    return asyncio.gather(
        *(tab.fire(MESSAGES_PER_TAB) for tab in chat_tabs), *(tab.fire() for tab in accept_tabs), return_exceptions=True
    )


def _all_acknowledged(chat_tabs: list, accept_tabs: list) -> bool:
    return all(len(tab.acknowledged) == len(tab.fired) for tab in [*chat_tabs, *accept_tabs])


async def _calibrate(chat_tabs: list, accept_tabs: list) -> tuple[float, float]:
    """The first trial lets its whole burst through before the kill.

    Returns:
        When its first and its last write were acknowledged (s after the burst started).
    """
    start = time.perf_counter()
    await _burst(chat_tabs, accept_tabs)
    while not _all_acknowledged(chat_tabs, accept_tabs):
        assert time.perf_counter() - start < 60, "the calibration burst was not acknowledged within 60 s"
        await asyncio.sleep(0.005)
    acks = [moment - start for tab in [*chat_tabs, *accept_tabs] for moment in tab.ack_times]
    return min(acks), max(acks)


def _recalibrate(tally: Tally, tabs: "Tabs", fired_at: float) -> None:
    """A burst that was wholly answered before its kill was faster than the window: shrink the window to it.

    The first trial measures how long a burst takes; when it ran slower than the rest (the machine
    was busier then), every later kill drawn within its window would land after the last answer,
    and the run would have no kill mid-burst at all (the control this test asserts). Each burst
    that ended before its kill brings the window down to its own answer times.
    """
    if not _all_acknowledged(tabs.chats, tabs.accepts):
        return
    acks = [moment - fired_at for tab in tabs.all() for moment in tab.ack_times]
    if acks:
        tally.first_ack = min(tally.first_ack, min(acks))
        tally.window = min(tally.window, max(acks))


def _acknowledged(chat_tabs: list, accept_tabs: list) -> tuple[dict[str, int], dict[int, int]]:
    messages = {content: tab.chat_id for tab in chat_tabs for content in tab.acknowledged}
    accepts = {app_id: chat_id for tab in accept_tabs for app_id, chat_id in tab.acknowledged.items()}
    return messages, accepts


def _check_shown(tally: Tally, tabs: list, messages: dict[str, int], accepts: dict[int, int]) -> None:
    """Every reopened tab shows the acknowledged writes of its page."""
    for tab in tabs:
        if isinstance(tab, support.ChatTab):
            missing = [text for text, chat_id in messages.items() if chat_id == tab.chat_id and text not in tab.shown]
        else:
            missing = [
                str(app_id) for app_id in accepts if app_id in tab.job.application_ids and app_id not in tab.accepted
            ]
        tally.not_shown_after_reconnect += [f"trial {tally.trials}: {tab.path} {item}" for item in missing]


def _check_database(tally: Tally, engine: Engine, messages: dict[str, int], accepts: dict[int, int]) -> None:
    trial = tally.trials
    tally.lost += [f"trial {trial}: application {app_id}" for app_id in support.lost_accepts(engine, accepts)]
    tally.lost += [f"trial {trial}: message {text!r}" for text in support.lost_messages(engine, messages)]
    tally.half_written += [f"trial {trial}: {name} {rows}" for name, rows in support.audit(engine).problems().items()]


@dataclass
class Tabs:
    """The tabs of one trial: both sides of every conversation and the accepting companies."""

    chats: list
    accepts: list

    def all(self) -> list:
        """Every tab."""
        return [*self.chats, *self.accepts]


async def _burst_and_kill(backend: support.Backend, tabs: Tabs, tally: Tally, rng: random.Random) -> None:
    """Fire every write at once and SIGKILL the backend at a random moment within the burst.

    The first trial lets its burst finish before the kill, to measure how long a burst takes.
    """
    burst, delay, fired_at = None, 0.0, time.perf_counter()
    if not tally.window:
        tally.first_ack, tally.window = await _calibrate(tabs.chats, tabs.accepts)
    else:
        burst = _burst(tabs.chats, tabs.accepts)
        delay = support.kill_delay(rng, tally.trials, tally.first_ack, tally.window)
        await asyncio.sleep(delay)
    backend.kill()
    if burst is not None:
        await burst
        _recalibrate(tally, tabs, fired_at)
    assert await support.until_disconnected(tabs.all()), "a tab did not notice the server died"
    if VERBOSE:
        acks = sorted(moment - fired_at for tab in tabs.all() for moment in tab.ack_times)
        print(f"trial {tally.trials}: kill at {delay:.2f} s, acks at {[round(t, 2) for t in acks]}", flush=True)


def _record(tally: Tally, engine: Engine, tabs: Tabs, messages: dict[str, int], accepts: dict[int, int]) -> None:
    """Count the trial's writes: fired, acknowledged, and stored without an acknowledgement."""
    fired = [text for tab in tabs.chats for text in tab.fired]
    fired_accepts = sum(len(tab.fired) for tab in tabs.accepts)
    acked = len(messages) + len(accepts)
    stored = support.stored_messages(engine, fired) + len(support.stored_accepts(engine, tabs.accepts))
    tally.committed_unacked += stored - acked
    tally.fired_messages += len(fired)
    tally.fired_accepts += fired_accepts
    tally.acked_messages += len(messages)
    tally.acked_accepts += len(accepts)
    if acked == 0:
        tally.kills_before_any_ack += 1
    elif acked < len(fired) + fired_accepts:
        tally.kills_mid_burst += 1
    else:
        tally.kills_after_all_acks += 1


async def _trial(backend: support.Backend, engine: Engine, seeded, tabs: Tabs, tally: Tally, rng) -> Tabs:
    """One trial: burst, SIGKILL, restart, every tab reopened and checked, the database audited.

    Returns:
        The next trial's tabs: the reopened conversation tabs and the next companies' tabs
        (opened together with the reopened ones, to keep a trial short).
    """
    started = time.perf_counter()
    await _burst_and_kill(backend, tabs, tally, rng)
    messages, accepts = _acknowledged(tabs.chats, tabs.accepts)
    await _close_all(tabs.all())
    restart = time.perf_counter()
    await asyncio.to_thread(backend.start)
    tally.restart_seconds.append(time.perf_counter() - restart)
    again = Tabs([support.reopened(tab) for tab in tabs.chats], [support.reopened(tab) for tab in tabs.accepts])
    upcoming = seeded.accept_jobs[tally.trials + 1] if tally.trials + 1 < len(seeded.accept_jobs) else []
    following = [support.accept_tab(backend.url, job) for job in upcoming]
    failures, next_failures = await asyncio.gather(_open_all(again.all()), _open_all(following))
    assert not next_failures, f"trial {tally.trials + 1}: a company tab did not open: {next_failures!r}"
    tally.reconnect_attempts += len(again.all())
    tally.reconnects += len(again.all()) - len(failures)
    _check_shown(tally, again.all(), messages, accepts)
    _check_database(tally, engine, messages, accepts)
    _record(tally, engine, tabs, messages, accepts)
    await _close_all(again.accepts)
    tally.trials += 1
    tally.trial_seconds.append(time.perf_counter() - started)
    return Tabs(again.chats, following)


async def _run(backend: support.Backend, engine: Engine, seeded, trials: int, tally: Tally) -> None:
    rng = random.Random(int(os.environ.get("DURABILITY_SEED", "8")))
    chats = [tab for chat in seeded.chats for tab in support.chat_tabs(backend.url, chat)]
    tabs = Tabs(chats, [support.accept_tab(backend.url, job) for job in seeded.accept_jobs[0]])
    failures = await _open_all(tabs.all())
    assert not failures, f"a tab did not open: {failures!r}"
    try:
        while tally.trials < trials:
            tabs = await _trial(backend, engine, seeded, tabs, tally, rng)
            if tally.trials % 10 == 0 or tally.trials == trials:
                print(tally.line(), flush=True)
    finally:
        await _close_all(tabs.all())


@pytest.mark.parametrize(("engine_name", "trials"), ENGINES)
def test_sigkill_during_accepts_and_sends_loses_nothing(
    engine_name: str, trials: int, tmp_path: Path, seeding_env: None
) -> None:
    """N trials of SIGKILL mid-burst: 0 acknowledged writes lost, 0 half-written rows, every tab reconnects."""
    with harness.database(engine_name, tmp_path, "durability") as url:
        env = harness.app_env(url, GRANIAN_WORKERS="1")
        harness.migrate(env)
        seeding = time.perf_counter()
        seeded = support.seed(url, trials, COMPANIES_PER_TRIAL, APPLICANTS_PER_JOB, CHATS)
        print(f"[{engine_name}] seeded {trials} trials in {time.perf_counter() - seeding:.1f} s", flush=True)
        engine = create_engine(url, poolclass=NullPool)
        backend = support.Backend(env, harness.free_port(), tmp_path / "server.log")
        tally = Tally(engine_name)
        backend.start()
        try:
            asyncio.run(_run(backend, engine, seeded, trials, tally))
        finally:
            backend.stop()
            engine.dispose()
        print(tally.line(), flush=True)
        assert tally.trials == trials
        assert tally.acked_accepts > 0 and tally.acked_messages > 0, tally.line()
        assert tally.kills_mid_burst > 0, f"no kill fell within a burst: {tally.line()}"
        assert tally.lost == [], tally.lost[:20]
        assert tally.half_written == [], tally.half_written[:20]
        assert tally.reconnects == tally.reconnect_attempts, tally.line()
        assert tally.not_shown_after_reconnect == [], tally.not_shown_after_reconnect[:20]


def test_sqlite_connections_keep_commits_through_a_crash(tmp_path: Path) -> None:
    """The app's SQLite connections use the write-ahead log and never turn syncing off.

    A process killed mid-transaction then leaves the last committed state (rollback journal modes
    OFF or MEMORY could leave a half-written file), and a commit is in the WAL before it returns.
    """
    from core.db import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'pragmas.db'}")
    try:
        with engine.connect() as conn:
            journal = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
            synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar()
            foreign_keys = conn.exec_driver_sql("PRAGMA foreign_keys").scalar()
    finally:
        engine.dispose()
    assert (journal, foreign_keys) == ("wal", 1)
    assert synchronous >= 1, "synchronous=OFF: an OS crash or power loss could corrupt the database"


def test_audit_names_every_kind_of_half_written_row(tmp_path: Path, seeding_env: None) -> None:
    """The audit is not vacuous: each half-write a crash could leave, made by hand, is reported."""
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    harness.migrate(harness.app_env(url))
    seeded = support.seed(url, 1, 1, 2, 1)
    engine = create_engine(url, poolclass=NullPool)
    job = seeded.accept_jobs[0][0]
    chat_id = seeded.chats[0].chat_id
    try:
        assert support.audit(engine).problems() == {}
        with engine.begin() as conn:  # a plain connection: foreign keys are not enforced on it
            conn.exec_driver_sql("UPDATE applications SET status = 'accepted' WHERE vaga_id = ?", (job.job_id,))
            conn.exec_driver_sql("DELETE FROM notifications WHERE type = 'application_accepted'")
            conn.exec_driver_sql(
                "INSERT INTO messages (chat_id, sender_id, content, created_at)"
                " SELECT id, client_id, 'durável x', '2999-01-01 00:00:00' FROM chats WHERE id = ?",
                (chat_id,),
            )
            conn.exec_driver_sql(
                "INSERT INTO messages (chat_id, content, created_at) VALUES (?, 'durável y', '2000-01-01 00:00:00')",
                (chat_id + 1000,),
            )
        found = support.audit(engine).problems()
        lost = support.lost_messages(engine, {"durável never stored": chat_id})
        lost_accept = support.lost_accepts(engine, {job.application_ids[1]: chat_id})
    finally:
        engine.dispose()
    assert set(found) == {
        "accepted_without_chat",
        "job_count_wrong",
        "accepted_without_notification",
        "chat_behind_last_message",
        "message_orphan",
        "foreign_key_violations",
    }
    assert sorted(found["accepted_without_chat"]) == sorted(job.application_ids)
    assert found["job_count_wrong"] == [job.job_id]
    assert len(found["accepted_without_notification"]) == 1
    assert found["chat_behind_last_message"] == [chat_id]
    assert len(found["message_orphan"]) == 1 and len(found["foreign_key_violations"]) == 1
    assert lost == ["durável never stored"]
    assert lost_accept == [job.application_ids[1]]
