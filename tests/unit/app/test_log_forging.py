"""Log lines cannot be forged: a browser's error report is one escaped line; the security log writes alone."""

import logging

import pytest

from app import app as app_module
from app.errors import FRONTEND_REPORT_LIMIT, frontend_exception
from core import audit

FORGED = (
    "TypeError: x is undefined\n"
    "time=2026-11-26T12:00:00.000Z event=login.success who=user:1 what=login where=ip:127.0.0.1 outcome=ok\r\n"
    "\x1b[2J\x1b[31mALERTA\u2028fim"
)


def test_a_browsers_error_report_is_logged_as_one_escaped_line(caplog):
    caplog.set_level(logging.WARNING, logger="turno.errors")

    frontend_exception(Exception(FORGED))

    [record] = [r for r in caplog.records if r.name == "turno.errors"]
    line = record.getMessage()
    assert "\n" not in line and "\r" not in line and "\x1b" not in line and "\u2028" not in line
    assert line.startswith("frontend exception: TypeError: x is undefined\\nt")
    assert "\\x1b[2J" in line


def test_a_huge_report_is_cut(caplog):
    caplog.set_level(logging.WARNING, logger="turno.errors")

    frontend_exception(Exception("a" * 100_000))

    [record] = [r for r in caplog.records if r.name == "turno.errors"]
    assert len(record.getMessage()) < FRONTEND_REPORT_LIMIT + 100


def test_the_app_uses_the_escaping_handler_for_browser_reports():
    assert app_module.app.frontend_exception_handler is frontend_exception


@pytest.fixture
def security_file(tmp_path):
    path = tmp_path / "security.log"
    handler = audit.configure_security_log(str(path))
    yield path
    logging.getLogger(audit.SECURITY_LOGGER).removeHandler(handler)
    handler.close()
    audit.configure_security_log(None)


def test_the_security_log_file_holds_security_events_only(security_file):
    audit.logged_out(7, audit.place("203.0.113.9", "abcdefgh1234"))
    logging.getLogger("turno.errors").warning(FORGED)  # another logger cannot land there
    logging.getLogger().warning(FORGED)
    frontend_exception(Exception(FORGED))

    lines = security_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("time=") and " event=logout who=user:7 " in lines[0]
    assert logging.getLogger(audit.SECURITY_LOGGER).propagate is False


def test_configuring_twice_keeps_one_handler(tmp_path):
    first = audit.configure_security_log(str(tmp_path / "a.log"))
    second = audit.configure_security_log(None)
    mine = [h for h in logging.getLogger(audit.SECURITY_LOGGER).handlers if getattr(h, "_turno_security", False)]
    assert mine == [second] and first not in mine
