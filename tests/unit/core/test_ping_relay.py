"""core/ping_relay.py: the timer process's pings reach the server's listeners through a pipe."""

import contextlib
import os
from datetime import timedelta
from pathlib import Path

import pytest

from app import timer
from core import ping_relay, signals
from core.signals import BELL_ONLY, Ping
from core.types import utcnow
from models import Hiring
from tests.support.factories import make_cast
from tests.support.polling import wait_until
from tests.support.shift_helpers import hire

ROOT = Path(__file__).resolve().parents[3]


def test_a_batch_survives_the_line_it_is_written_as():
    batch = frozenset({Ping(7), Ping(7, 12), Ping(9, BELL_ONLY)})

    line = ping_relay.encode(batch)

    assert line == b"[[7,0],[7,12],[9,-1]]\n"
    assert ping_relay.decode(line) == batch


@pytest.mark.parametrize("line", [b"", b"nada\n", b"{}\n", b"[[1]]\n", b"[[1,2,3]]\n", b"[1,2]\n", b"[null]\n"])
def test_a_line_that_is_not_a_batch_is_ignored(line):
    assert ping_relay.decode(line) == frozenset()


def test_pairs_that_are_not_two_integers_are_left_out():
    assert ping_relay.decode(b'[[1,0],["2",0],[3,true],[4.5,0],[5,-1]]\n') == {Ping(1), Ping(5, BELL_ONLY)}


def test_batches_written_to_the_pipe_reach_the_listeners_in_order(heard):
    read, write = os.pipe()
    reader = ping_relay.receive(read)
    writer = ping_relay._Writer(write)  # the timer side, without subscribing it in this process

    writer(frozenset({Ping(1)}))
    writer(frozenset({Ping(2, 5)}))
    writer._pipe.close()  # the timer ended

    reader.join(10)
    assert not reader.is_alive()
    assert heard == [frozenset({Ping(1)}), frozenset({Ping(2, 5)})]


def test_a_writer_whose_server_is_gone_stops_and_the_commit_stands(caplog):
    read, write = os.pipe()
    os.close(read)
    ping_relay.send_to(write)
    (writer,) = [listener for listener in signals._listeners if isinstance(listener, ping_relay._Writer)]
    try:
        signals.publish(frozenset({Ping(1)}))  # BrokenPipeError inside, handled there

        assert writer not in signals._listeners
        assert "the server stopped reading" in caplog.text
    finally:
        signals.unsubscribe(writer)
        with contextlib.suppress(OSError):
            writer._pipe.close()


def test_the_timer_process_pings_reach_the_server_that_started_it(db, heard, monkeypatch):
    """The 24-hour reminder the timer process sends pings the freelancer here, in the server's process."""
    cast = make_cast(db)
    shift = hire(db, cast.company, cast.freelancer)
    row = db.get(Hiring, shift.hiring_id)
    row.remind_at = utcnow() - timedelta(minutes=1)
    db.add(row)
    db.commit()
    monkeypatch.setenv("TURNO_TICK_SECONDS", "3600")  # the first tick runs at once, the next not in this test
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    heard.clear()  # the hiring's own notices pinged here already

    process = timer.start()
    try:
        assert wait_until(
            lambda: any(Ping(cast.freelancer.id) in batch for batch in heard),
            60,
            0.05,
            "the reminder's ping never reached this process",
        )
    finally:
        timer.stop(process)
