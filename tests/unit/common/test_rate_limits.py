"""Limits on what a visitor repeats without signing in (services/common/rate_limits.py), and the bounded work after the answer (core/background.py)."""

import threading
from datetime import timedelta

import pytest
from sqlmodel import select, update

from app.pages import register as register_page
from app.pages.recovery import RECOVERY_SENT, ForgotPasswordState
from app.pages.register import RegisterState
from core import background
from core.settings import get_settings
from core.types import utcnow
from models import OutboxEmail, RateEvent, User
from services.common import rate_limits
from services.common.rate_limits import TOO_MANY_REQUESTS, Kind
from tests.support.state_harness import run, state_for, toasts

PASSWORD = "Segura123"


def _company_form(email: str) -> dict:
    return {
        "name": "Ana Souza",
        "email": email,
        "password": PASSWORD,
        "confirmPassword": PASSWORD,
        "company": "Hotel Central",
        "industry": "hotel",
        "location": "São Paulo, SP",
    }


def _register(email: str) -> list[str]:
    state = state_for(RegisterState, "", "/register")
    shown = toasts(run(state, RegisterState.submit_company, _company_form(email)))
    background.wait_idle()
    return shown


def _recover(email: str) -> list[str]:
    state = state_for(ForgotPasswordState, "", "/forgot-password")
    shown = toasts(run(state, ForgotPasswordState.submit, {"email": email}))
    background.wait_idle()
    return shown


@pytest.fixture
def limits(monkeypatch):
    """Small limits, so a test reaches them in a few requests."""
    monkeypatch.setenv("REGISTRATIONS_PER_ADDRESS_HOUR", "3")
    monkeypatch.setenv("RECOVERIES_PER_ADDRESS_HOUR", "2")
    monkeypatch.setenv("ACCOUNT_MAILS_PER_RECIPIENT_HOUR", "2")
    get_settings.cache_clear()


def test_a_key_may_act_up_to_its_limit_in_an_hour_and_again_after_it(db, limits):
    assert [rate_limits.allow(db, Kind.RECOVERY, "203.0.113.7") for _ in range(3)] == [True, True, False]
    assert rate_limits.allow(db, Kind.RECOVERY, "198.51.100.1") is True  # another address
    assert rate_limits.allow(db, Kind.REGISTRATION, "203.0.113.7") is True  # another action
    db.exec(update(RateEvent).values(created_at=utcnow() - timedelta(hours=1, seconds=1)))

    assert rate_limits.allow(db, Kind.RECOVERY, "203.0.113.7") is True
    stored = db.exec(select(RateEvent.key_hash)).all()
    assert all(len(key) == 64 and "203.0.113.7" not in key for key in stored)
    assert len(stored) == 3  # the rows past the window were dropped


def test_registrations_from_one_address_stop_at_the_limit_alike_for_known_and_new_emails(db, limits):
    for n in range(3):
        assert toasts_are_success(_register(f"nova{n}@hotel.com.br"))

    over_new = _register("outra@hotel.com.br")
    over_known = _register("nova0@hotel.com.br")

    assert over_new == over_known == [f"error: Erro no cadastro | {TOO_MANY_REQUESTS}"]
    assert db.exec(select(User.email).where(User.email == "outra@hotel.com.br")).first() is None


def toasts_are_success(shown: list[str]) -> bool:
    return bool(shown) and all(toast.startswith("success:") for toast in shown)


def test_recovery_requests_from_one_address_stop_at_the_limit_alike_for_any_email(db, limits):
    assert _recover("ninguem@hotel.com.br") == ["success: Email enviado com sucesso!"]
    assert _recover("alguem@hotel.com.br") == ["success: Email enviado com sucesso!"]

    assert _recover("ninguem@hotel.com.br") == _recover("terceiro@hotel.com.br")
    assert _recover("x@hotel.com.br") == [f"error: Erro ao enviar email | {TOO_MANY_REQUESTS}"]
    assert RECOVERY_SENT  # the success state's text is unchanged


def test_one_address_gets_at_most_the_hourly_account_emails(db, limits, monkeypatch):
    monkeypatch.setenv("RECOVERIES_PER_ADDRESS_HOUR", "100")
    get_settings.cache_clear()
    _register("ana@hotel.com.br")  # the confirmation: one e-mail
    for _ in range(3):
        _recover("ana@hotel.com.br")

    mails = db.exec(
        select(OutboxEmail.subject).where(OutboxEmail.to_email == "ana@hotel.com.br").order_by(OutboxEmail.id)
    ).all()
    assert len(mails) == 2
    assert mails[0].startswith("Confirme seu email")


def test_a_registration_that_fails_once_is_tried_again_and_the_account_exists(db, monkeypatch):
    monkeypatch.setattr(background, "PAUSES", (0, 0))
    real, calls = register_page._KINDS["client"][1], []

    def flaky(session, data):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("database went away")
        return real(session, data)

    monkeypatch.setitem(
        register_page._KINDS, "client", (*register_page._KINDS["client"][:1], flaky, register_page._KINDS["client"][2])
    )

    _register("persistente@hotel.com.br")

    assert len(calls) == 2
    assert db.exec(select(User.id).where(User.email == "persistente@hotel.com.br")).first() is not None


def test_a_registration_that_keeps_failing_is_reported_to_the_person_by_email(db, monkeypatch):
    monkeypatch.setattr(background, "PAUSES", (0, 0))

    def broken(session, data):
        raise RuntimeError("database went away")

    monkeypatch.setitem(
        register_page._KINDS, "client", (*register_page._KINDS["client"][:1], broken, register_page._KINDS["client"][2])
    )

    assert toasts_are_success(_register("azarada@hotel.com.br"))

    [subject] = db.exec(select(OutboxEmail.subject).where(OutboxEmail.to_email == "azarada@hotel.com.br")).all()
    assert subject == "Não conseguimos concluir seu cadastro no Turno"
    assert db.exec(select(User.id).where(User.email == "azarada@hotel.com.br")).first() is None


def test_a_burst_of_work_runs_on_a_bounded_pool(monkeypatch):
    release, seen, lock = threading.Event(), set(), threading.Lock()

    def slow() -> None:
        with lock:
            seen.add(threading.current_thread().name)
        release.wait(5)

    futures = [background.submit("test", slow) for _ in range(40)]
    alive = [t for t in threading.enumerate() if t.name.startswith("account-work")]
    release.set()
    for future in futures:
        future.result(timeout=10)

    assert len(alive) <= background.WORKERS
    assert len(seen) <= background.WORKERS
