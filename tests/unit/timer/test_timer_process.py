"""The timer process: app/timer.py starts and stops it, scripts/tick.py's loop ticks until its parent is gone.

The loop runs with a fake clock and a fake parent; the process tests start the real command line
(`python -m scripts.tick --every ...`) on a throwaway SQLite file and wait for it with a deadline.
"""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from app import timer
from core import shift_rules
from core.types import utcnow
from scripts import tick as tick_script
from services.timer.clock import TickReport
from tests.support.polling import wait_until

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", 1.0),
        ("0.5", 0.5),
        ("", float(shift_rules.TICK_SECONDS)),
        ("0", float(shift_rules.TICK_SECONDS)),
        ("-3", float(shift_rules.TICK_SECONDS)),
        ("inf", float(shift_rules.TICK_SECONDS)),
        ("nan", float(shift_rules.TICK_SECONDS)),
        ("trinta", float(shift_rules.TICK_SECONDS)),
    ],
)
def test_interval_reads_turno_tick_seconds(monkeypatch, value, expected):
    monkeypatch.setenv("TURNO_TICK_SECONDS", value)

    assert timer.interval() == expected


def test_interval_without_the_variable_is_the_rule(monkeypatch):
    monkeypatch.delenv("TURNO_TICK_SECONDS", raising=False)

    assert timer.interval() == shift_rules.TICK_SECONDS == 30


def test_the_command_names_this_process_as_the_parent_and_the_interval(monkeypatch):
    monkeypatch.setenv("TURNO_TICK_SECONDS", "7.5")

    assert timer.command() == [sys.executable, "-m", "scripts.tick", "--every", "7.5", "--parent", str(os.getpid())]


class FakeParent:
    """The parent's pid as the loop sees it: the server's until `alive_for` checks have passed."""

    def __init__(self, pid: int, alive_for: int) -> None:
        self.pid, self.left = pid, alive_for

    def __call__(self) -> int:
        self.left -= 1
        return self.pid if self.left >= 0 else 1


def test_the_loop_ticks_every_interval_and_ends_when_the_parent_is_gone():
    slept: list[float] = []
    ticks: list[int] = []

    def step() -> TickReport:
        ticks.append(len(slept))
        return TickReport(0, 0)

    # Each round: the loop's check, then three 1-second rests of a 2.5-second interval, each after a check.
    ran = tick_script.loop(2.5, 4242, step=step, sleep=slept.append, parent_of_me=FakeParent(4242, 8))

    assert ran == 2
    assert ticks == [0, 3]  # the second tick after the first interval's rests
    assert slept == [1.0, 1.0, 0.5, 1.0, 1.0, 0.5]


def test_a_failed_tick_is_logged_and_the_next_one_runs(caplog):
    calls: list[str] = []

    def step() -> TickReport:
        calls.append("tick")
        if len(calls) == 1:
            raise RuntimeError("database went away")
        return TickReport(2, 1)

    with caplog.at_level("INFO", logger="turno.timer"):
        ran = tick_script.loop(1, 7, step=step, sleep=lambda _s: None, parent_of_me=FakeParent(7, 4))

    assert calls == ["tick", "tick"]
    assert ran == 1
    assert "shift timer tick failed; the next one tries again" in caplog.text
    assert "shift timer: 2 moved, 1 reminders" in caplog.text


def test_a_loop_started_by_someone_else_ends_at_once():
    assert tick_script.loop(1, 4242, step=pytest.fail, sleep=pytest.fail, parent_of_me=lambda: 99) == 0


def _gone(pid: int) -> bool:
    """True once `pid` has exited (a zombie no one reaped counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in state


def _runs_the_timer(pid: int) -> bool:
    """Whether `pid` runs `python -m scripts.tick` (right after the fork it is still this process)."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:3] == [b"-m", b"scripts.tick"]


@pytest.fixture
def throwaway_database(tmp_path, monkeypatch):
    """The timer process's database: a SQLite file nobody migrated (its ticks fail, are logged, go on)."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'timer.db'}")
    monkeypatch.setenv("TURNO_TICK_SECONDS", "3600")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


@pytest.mark.usefixtures("throwaway_database")
def test_the_lifespan_starts_the_timer_process_and_stops_it():
    process = timer.start()
    try:
        wait_until(lambda: _runs_the_timer(process.pid), 30, 0.05, "the timer process never ran scripts.tick")
        assert process.poll() is None  # it keeps running (its first tick failed on the empty file, logged)
    finally:
        timer.stop(process)

    assert process.returncode is not None


@pytest.mark.usefixtures("throwaway_database")
def test_the_timer_process_ends_when_its_server_dies_without_stopping_it():
    server = subprocess.run(
        [sys.executable, "-c", "from app import timer; print(timer.start().pid)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    orphan = int(server.stdout.strip().splitlines()[-1])

    assert wait_until(lambda: _gone(orphan), 30, 0.05, "the timer process outlived its server")


def test_once_by_hand_sends_what_is_due_and_says_so(db, capsys):
    from models import Hiring
    from tests.support.factories import make_cast
    from tests.support.shift_helpers import hire, hiring

    cast = make_cast(db)
    s = hire(db, cast.company, cast.freelancer)  # three days ahead: nothing due yet

    tick_script.main([])
    assert capsys.readouterr().out == "0 turnos movidos, 0 lembretes enviados\n"

    row = db.get(Hiring, s.hiring_id)
    row.remind_at = utcnow() - timedelta(minutes=1)  # as if the 24-hour reminder's time had come
    db.add(row)
    db.commit()

    tick_script.main([])
    assert capsys.readouterr().out == "0 turnos movidos, 1 lembrete enviado\n"
    assert hiring(db, s.hiring_id).reminders_sent == 1
