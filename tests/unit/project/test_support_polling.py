"""tests/support/polling.py: the one wait for what a browser's `expect` cannot see."""

import pytest

from tests.support.polling import wait_until


def test_it_returns_what_the_probe_found_once_it_finds_it():
    answers = iter([None, "", "pronto"])

    assert wait_until(lambda: next(answers), 1, 0, "nunca") == "pronto"


def test_it_fails_with_the_message_built_when_time_runs_out():
    with pytest.raises(AssertionError, match="o app não respondeu em 0s"):
        wait_until(lambda: False, 0, 0, lambda: "o app não respondeu em 0s")


def test_an_error_of_the_probe_ends_the_wait():
    def probe():
        raise RuntimeError("o app saiu")

    with pytest.raises(RuntimeError, match="o app saiu"):
        wait_until(probe, 5, 0, "nunca")
