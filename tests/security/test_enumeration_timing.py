"""Login, registration and password reset do not tell whether an e-mail has an account.

For each flow, trials with a registered e-mail and with an unknown one, interleaved (the order
alternates in every pair, so load drifts hit both sides alike), with a realistic bcrypt cost
(BCRYPT_ROUNDS=8). Every answer must be identical (HTTP status and body; the handler's toasts,
redirects and form state): `make test` checks that over 20 trials of each side. Only `make
security-full` (STRICT_TIMING=1, tests/support/timing.py) also times 200 trials of each side and holds their
medians within 5 ms of each other: a busy CI machine cannot keep a 5 ms promise. The
throttle limits are lifted so both sides do the full work on every trial (a throttled answer is
the same for known and unknown e-mails anyway). Medians are printed (`-s` shows them).

- login: the HTTP route the login form posts to (starlette TestClient), wrong password vs unknown;
- registration: RegisterState.submit_company, the handler the browser calls (a new account vs an
  e-mail that has one: the owner is e-mailed instead);
- reset: ForgotPasswordState.submit, the handler the browser calls.

Registration and reset answer first and do their work (bcrypt, rows, e-mail) in a background
thread; each trial waits for that work outside the timed part, and the tests check it was done.
"""

import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import pytest
from sqlmodel import select
from starlette.testclient import TestClient

import core.db
from alembic import command
from app.api import api
from app.pages.recovery import ForgotPasswordState
from app.pages.register import RegisterState
from core import background
from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import OutboxEmail, Profile, Role, User
from tests.support.state_harness import run, state_for
from tests.support.timing import only_when_strict
from tests.unit.conftest import alembic_config

TRIALS = 200
ANSWER_TRIALS = 20
TIMEOUT = 30
MAX_MEDIAN_GAP_MS = 5.0
BCRYPT_ROUNDS = "8"
KNOWN = "ana@hotel.com.br"
PASSWORD = "Segura123"
COMPANY_FORM = {
    "name": "Ana Souza",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "company": "Hotel Central",
    "industry": "hotel",
    "location": "São Paulo, SP",
}
_unknown = count()


def _unknown_email() -> str:
    return f"ninguem{next(_unknown)}-{uuid.uuid4().hex[:6]}@hotel.com.br"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A migrated SQLite database with one confirmed company (KNOWN), and the app's settings for timing."""
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('enumeration')) / 'timing.db'}"
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {
            "APP_ENV": "test",
            "DATABASE_URL": url,
            "SITE_URL": "http://turno.test",
            "SMTP_HOST": "",
            "BCRYPT_ROUNDS": BCRYPT_ROUNDS,
            "LOGIN_MAX_FAILURES": "1000000",
            "LOGIN_MAX_FAILURES_PER_ADDRESS": "1000000",
            "REGISTRATIONS_PER_ADDRESS_HOUR": "1000000",
            "RECOVERIES_PER_ADDRESS_HOUR": "1000000",
            "ACCOUNT_MAILS_PER_RECIPIENT_HOUR": "1000000",
        }.items():
            patch.setenv(name, value)
        patch.delenv("REFLEX_REDIS_URL", raising=False)
        get_settings.cache_clear()
        command.upgrade(alembic_config(url), "head")
        engine = core.db.make_engine(url)
        patch.setattr(core.db, "get_engine", lambda: engine)
        with session_scope() as db:
            user = User(
                email=KNOWN, password_hash=hash_password(PASSWORD), role=Role.CLIENT, email_confirmed_at=utcnow()
            )
            db.add(user)
            db.flush()
            db.add(Profile(user_id=user.id, tipo_usuario=Role.CLIENT, nome="Ana Souza"))
        try:
            yield
        finally:
            engine.dispose()
            get_settings.cache_clear()


@dataclass
class Medians:
    """Median milliseconds of each side, by wall clock and by the process's CPU time."""

    wall_known: float
    wall_unknown: float
    cpu_known: float
    cpu_unknown: float

    @property
    def wall_gap(self) -> float:
        """|median(known) - median(unknown)| of wall-clock time."""
        return abs(self.wall_known - self.wall_unknown)

    @property
    def cpu_gap(self) -> float:
        """|median(known) - median(unknown)| of CPU time."""
        return abs(self.cpu_known - self.cpu_unknown)


def _compare(flow: str, known: Callable[[], object], unknown: Callable[[], object], trials: int) -> Medians:
    """Run both sides `trials` times, interleaved; check every answer is the same; return the medians."""
    wall: dict[str, list[float]] = {"known": [], "unknown": []}
    cpu: dict[str, list[float]] = {"known": [], "unknown": []}
    answers: set[str] = set()
    sides = [("known", known), ("unknown", unknown)]
    for trial in range(trials):
        for side, call in sides if trial % 2 == 0 else sides[::-1]:
            start, start_cpu = time.perf_counter(), time.process_time()
            answer = call()
            cpu[side].append((time.process_time() - start_cpu) * 1000)
            wall[side].append((time.perf_counter() - start) * 1000)
            answers.add(repr(answer))
            _finish_background_work()
    assert len(answers) == 1, f"{flow}: the answers differ: {sorted(answers)}"
    medians = Medians(*(statistics.median(samples[side]) for samples in (wall, cpu) for side in ("known", "unknown")))
    print(
        f"\n{flow}: {trials} trials each, bcrypt cost {BCRYPT_ROUNDS}; median wall known {medians.wall_known:.2f} ms, "
        f"unknown {medians.wall_unknown:.2f} ms (gap {medians.wall_gap:.2f}); median CPU known "
        f"{medians.cpu_known:.2f} ms, unknown {medians.cpu_unknown:.2f} ms (gap {medians.cpu_gap:.2f})"
    )
    return medians


def _finish_background_work() -> None:
    """Wait for the registrations and reset e-mails the handlers left running after their answer."""
    background.wait_idle(TIMEOUT)


def _login_answer(client: TestClient, email: str) -> tuple:
    client.cookies.clear()
    response = client.post("/api/auth/login", json={"email": email, "password": "Errada123"})
    return response.status_code, response.json(), "set-cookie" in response.headers


def _handler_answer(state, events: list) -> tuple:
    """What the browser gets from a handler: its events (toasts, redirects) and the form's state."""
    sent = [(event.handler.fn.__name__, [(str(name), str(value)) for name, value in event.args]) for event in events]
    return sent, state.get_delta()


def _register_answer(email: str) -> tuple:
    state = state_for(RegisterState, "", "/register")
    events = run(state, RegisterState.submit_company, {**COMPANY_FORM, "email": email})
    return _handler_answer(state, events)


def _reset_answer(email: str) -> tuple:
    state = state_for(ForgotPasswordState, "", "/forgot-password")
    events = run(state, ForgotPasswordState.submit, {"email": email})
    return _handler_answer(state, events)


def _login_sides() -> tuple[Callable[[], object], Callable[[], object]]:
    client = TestClient(api, base_url="http://turno.test")
    return lambda: _login_answer(client, KNOWN), lambda: _login_answer(client, _unknown_email())


def _register_sides() -> tuple[Callable[[], object], Callable[[], object]]:
    return lambda: _register_answer(KNOWN), lambda: _register_answer(_unknown_email())


def _reset_sides() -> tuple[Callable[[], object], Callable[[], object]]:
    return lambda: _reset_answer(KNOWN), lambda: _reset_answer(_unknown_email())


def test_login_answers_known_and_unknown_emails_alike(database):
    client = TestClient(api, base_url="http://turno.test")
    assert _login_answer(client, KNOWN) == (
        400,
        {"ok": False, "message": "Email ou senha incorretos.", "errors": {}},
        False,
    )

    _compare("login", *_login_sides(), ANSWER_TRIALS)


def test_registration_answers_known_and_unknown_emails_alike(database):
    with session_scope() as db:
        users_before = len(db.exec(select(User.id)).all())
    notices_before = _mails_to(KNOWN, "Tentativa de cadastro")

    _compare("registration", *_register_sides(), ANSWER_TRIALS)

    with session_scope() as db:
        assert len(db.exec(select(User.id)).all()) == users_before + ANSWER_TRIALS
    assert _mails_to(KNOWN, "Tentativa de cadastro") == notices_before + ANSWER_TRIALS


def _mails_to(email: str, subject: str = "") -> int:
    with session_scope() as db:
        mails = db.exec(select(OutboxEmail.subject).where(OutboxEmail.to_email == email)).all()
    return sum(subject in mail for mail in mails)


def test_reset_answers_known_and_unknown_emails_alike(database):
    _compare("reset", *_reset_sides(), ANSWER_TRIALS)
    _finish_background_work()


@only_when_strict
@pytest.mark.parametrize("flow", ["login", "registration", "reset"])
def test_known_and_unknown_emails_take_the_same_time(database, flow):
    sides = {"login": _login_sides, "registration": _register_sides, "reset": _reset_sides}[flow]()

    medians = _compare(flow, *sides, TRIALS)
    _finish_background_work()

    assert medians.wall_gap <= MAX_MEDIAN_GAP_MS


def test_reset_answers_before_its_work_and_only_a_known_email_gets_a_link(database):
    known_before, stranger = _mails_to(KNOWN), _unknown_email()

    assert _reset_answer(KNOWN) == _reset_answer(stranger)
    _finish_background_work()

    assert _mails_to(KNOWN) == known_before + 1
    assert _mails_to(stranger) == 0
