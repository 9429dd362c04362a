"""Thousands of rounds of 32 simultaneous attempts on the five contested writes, on both engines.

Each round has its own fresh contested object (created in bulk before the rounds start):
- accept-application: a job with one position and eight pending applicants; the 32 attempts accept
  them (four attempts per applicant). Exactly one applicant is hired; the other attempts on the
  winner get its chat, the rest get POSITIONS_FILLED.
- create-chat: one pending application; the 32 attempts accept it (32 tabs, double clicks). One
  chat, one welcome message, one notification; every attempt gets that chat.
- apply: an open job and one freelancer; the 32 attempts apply. One application, one notice to the
  company; the rest get ALREADY_APPLIED.
- publish-at-plan-limit: a free-plan company one active job below its limit; the 32 attempts
  publish. One job is created; the rest get the plan's PlanLimitReached message.
- single-use-link: one unused reset link (even rounds) or confirmation link (odd rounds); the 32
  attempts submit it. One succeeds; the rest get 'Este link é inválido ou expirou. Solicite um novo.'.

A pool of 32 worker threads is reused for every round: each worker opens its own
`core.db.session_scope()` and takes a connection, a barrier releases them together, and each
records what the service returned or raised. The database is a real one: a SQLite file in WAL mode
configured as the app configures it, and a PostgreSQL database created for this module on the
server of TEST_DATABASE_URL. Afterwards the invariants are checked in SQL over every round, and
every refusal must be the service's Portuguese message: any other exception (a crash, 'database
is locked', a deadlock) counts as unexpected. The controls, which remove one defence at a time and
show that the invariant then breaks, are in tests/security/test_forced_interleavings.py: they force
the bad interleaving instead of hoping that a round produces it.

CONCURRENCY_ROUNDS sets the number of rounds: 1,000 by default and in `make security-full`, fewer in
`make test` (the Makefile's CI_CONCURRENCY_ROUNDS; the full runs are recorded in docs/security.md).
"""

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

import core.db
from models import TokenPurpose
from services.accounts import accounts
from services.accounts.accounts import INVALID_LINK
from services.common.errors import ServiceError
from services.jobs import company_jobs
from services.jobs.plans import PlanLimitReached
from services.shifts import application_answers, applications
from services.shifts.application_answers import POSITIONS_FILLED
from services.shifts.applications import ALREADY_APPLIED
from tests.security.contested import (
    ENGINES,
    FREE_LIMIT_MESSAGE,
    JOB_FORM,
    NEW_PASSWORD,
    Hiring,
    Link,
    Opening,
    company_rounds,
    hiring_rounds,
    links,
    migrated_engine,
    opening_rounds,
    rows,
)

ROUNDS = int(os.environ.get("CONCURRENCY_ROUNDS", "1000"))
ATTEMPTS = 32
APPLICANTS = 8
SUMMARY: list[str] = []


class Crowd:
    """ATTEMPTS worker threads, reused round after round, that start each round's attempts together.

    A worker waits for the round, opens its own session and connection, waits at the barrier until
    every other worker holds theirs, runs its attempt and records the result or the exception.
    """

    def __init__(self, engine: Engine, size: int = ATTEMPTS) -> None:
        self.engine = engine
        self.size = size
        self._attempts: list[Callable[[Session], object]] = []
        self._results: list[object] = []
        self._stopping = False
        self._handed_out = threading.Barrier(size + 1)
        self._together = threading.Barrier(size)
        self._finished = threading.Barrier(size + 1)
        self._threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(size)]
        for thread in self._threads:
            thread.start()

    def _work(self, index: int) -> None:
        while True:
            self._handed_out.wait()
            if self._stopping:
                return
            try:
                with core.db.session_scope(self.engine) as session:
                    session.connection()
                    self._together.wait(timeout=60)
                    self._results[index] = self._attempts[index](session)
            except Exception as exc:  # noqa: BLE001  (every outcome is classified by the round)
                self._results[index] = exc
            self._finished.wait()

    def run(self, attempts: list[Callable[[Session], object]]) -> list[object]:
        """Run one round: attempt i in worker i, all released at once; results (or exceptions) in order."""
        assert len(attempts) == self.size
        self._attempts = attempts
        self._results = [None] * self.size
        self._handed_out.wait(timeout=60)
        self._finished.wait(timeout=120)
        return list(self._results)

    def close(self) -> None:
        """Let the workers end."""
        self._stopping = True
        self._handed_out.wait(timeout=60)
        for thread in self._threads:
            thread.join(timeout=10)


@dataclass
class Tally:
    """What the attempts of every round got, and the rounds whose invariant broke."""

    operation: str
    rounds: int = 0
    attempts: int = 0
    outcomes: Counter = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def line(self, engine: str) -> str:
        """One line of the module's summary."""
        return (
            f"{engine:<10} {self.operation:<22} rounds={self.rounds} attempts={self.attempts} "
            f"violations={len(self.violations)} unexpected={len(self.unexpected)} "
            f"{dict(self.outcomes)} {self.seconds:.1f} s ({1000 * self.seconds / max(self.rounds, 1):.0f} ms/round, "
            f"test process CPU {1000 * self.cpu_seconds / max(self.attempts, 1):.2f} ms/attempt)"
        )


def classify(result: object, refusals: set[str]) -> str:
    """'ok' for a returned id, 'refused: …' for an expected Portuguese refusal, '' for anything else."""
    if isinstance(result, int) and not isinstance(result, bool):
        return "ok"
    if isinstance(result, ServiceError) and result.message in refusals:
        return f"refused: {result.message}"
    return ""


def play(crowd: Crowd, tally: Tally, rounds: list, attempts_of: Callable, refusals: set[str]) -> list[list]:
    """Run every round; tally the outcomes; return each round's results."""
    started, cpu_started = time.perf_counter(), time.process_time()
    every: list[list] = []
    for number, contested in enumerate(rounds):
        results = crowd.run(attempts_of(contested))
        every.append(results)
        for result in results:
            kind = classify(result, refusals)
            tally.outcomes[kind or "unexpected"] += 1
            if not kind:
                tally.unexpected.append(f"round {number}: {result!r}")
        tally.rounds += 1
        tally.attempts += len(results)
        if (number + 1) % 250 == 0:
            print(f"  {tally.operation}: {number + 1} rounds", flush=True)
    tally.seconds = time.perf_counter() - started
    tally.cpu_seconds = time.process_time() - cpu_started
    return every


# --- the database -------------------------------------------------------------------------


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine configured as the app's (WAL on SQLite) on a new database at head, ATTEMPTS+1 connections."""
    with migrated_engine(request.param, tmp_path_factory.mktemp("concurrency"), "concurrency", ATTEMPTS + 1) as eng:
        yield eng


@pytest.fixture(scope="module")
def crowd(engine: Engine) -> Iterator[Crowd]:
    """The pool of ATTEMPTS workers on `engine`."""
    pool = Crowd(engine)
    yield pool
    pool.close()


@pytest.fixture(scope="module", autouse=True)
def summary(engine: Engine) -> Iterator[None]:
    """Print the rounds, attempts and violations of every operation when the engine's tests end."""
    yield
    print("\n" + "\n".join(SUMMARY), flush=True)
    SUMMARY.clear()


# --- accept-application ----------------------------------------------------------------------


def accept_targets(hiring: Hiring) -> list[int]:
    """The application each attempt accepts: attempt i takes applicant i modulo the applicants."""
    return [hiring.application_ids[i % len(hiring.application_ids)] for i in range(ATTEMPTS)]


def accept_attempts(hiring: Hiring) -> list[Callable[[Session], object]]:
    """Attempt i accepts `accept_targets(hiring)[i]` as the job's company."""
    return [
        lambda s, a=target: application_answers.accept(s, hiring.company_id, a) for target in accept_targets(hiring)
    ]


def hiring_violations(engine: Engine, hirings: list[Hiring], results: list[list]) -> list[str]:
    """Every way a round of accepts went wrong: not exactly one hire, a hire without its chat,
    welcome message or notification, a chat for someone not hired, a job left open, or an attempt
    that reported success for another applicant or another chat."""
    job_ids = [h.job_id for h in hirings]
    facts = {
        row.id: row
        for row in rows(
            engine,
            """
            SELECT j.id, j.status, j.vagas_disponiveis,
              (SELECT count(*) FROM applications a WHERE a.vaga_id = j.id AND a.status = 'accepted') AS hired,
              (SELECT min(a.id) FROM applications a WHERE a.vaga_id = j.id AND a.status = 'accepted') AS hired_id,
              (SELECT count(*) FROM chats c JOIN applications a ON a.id = c.application_id WHERE a.vaga_id = j.id) AS chats,
              (SELECT min(c.id) FROM chats c JOIN applications a ON a.id = c.application_id WHERE a.vaga_id = j.id) AS chat_id,
              (SELECT count(*) FROM messages m JOIN chats c ON c.id = m.chat_id
                 JOIN applications a ON a.id = c.application_id WHERE a.vaga_id = j.id) AS messages,
              (SELECT count(*) FROM notifications n
                 WHERE n.type = 'application_accepted' AND n.message LIKE '%"' || j.titulo || '"%') AS notices
            FROM jobs j WHERE j.id BETWEEN :first AND :last
            """,
            first=min(job_ids),
            last=max(job_ids),
        )
    }
    problems = []
    for number, (hiring, outcome) in enumerate(zip(hirings, results, strict=True)):
        row = facts[hiring.job_id]
        expected = (1, 1, 1, 1, "in_progress")
        if (row.hired, row.chats, row.messages, row.notices, row.status) != expected:
            problems.append(f"round {number}: hired/chats/messages/notices/status = {tuple(row[3:])} {row.status}")
            continue
        for result, target in zip(outcome, accept_targets(hiring), strict=True):
            won = isinstance(result, int)
            if won != (target == row.hired_id) or (won and result != row.chat_id):
                problems.append(f"round {number}: attempt on {target} got {result!r}, hired {row.hired_id}")
                break
    return problems


def test_accepting_one_of_eight_applicants_32_times_at_once_hires_exactly_one(engine, crowd):
    hirings = hiring_rounds(engine, ROUNDS, APPLICANTS, "Vaga aceite")
    tally = Tally("accept-application")

    results = play(crowd, tally, hirings, accept_attempts, {POSITIONS_FILLED})
    tally.violations = hiring_violations(engine, hirings, results)

    SUMMARY.append(tally.line(engine.dialect.name))
    assert tally.unexpected == []
    assert tally.violations == []
    assert tally.outcomes["ok"] == ROUNDS * ATTEMPTS // APPLICANTS
    assert tally.rounds >= ROUNDS and tally.attempts == ROUNDS * ATTEMPTS


# --- create-chat -----------------------------------------------------------------------------


def test_accepting_one_application_32_times_at_once_opens_exactly_one_chat(engine, crowd):
    hirings = hiring_rounds(engine, ROUNDS, 1, "Vaga conversa")
    tally = Tally("create-chat")

    results = play(crowd, tally, hirings, accept_attempts, set())
    tally.violations = hiring_violations(engine, hirings, results)

    SUMMARY.append(tally.line(engine.dialect.name))
    assert tally.unexpected == []
    assert tally.violations == []
    assert tally.outcomes["ok"] == ROUNDS * ATTEMPTS


# --- apply -----------------------------------------------------------------------------------


def apply_attempts(opening: Opening) -> list[Callable[[Session], object]]:
    """Every attempt is the same freelancer applying to the same job."""
    return [lambda s: applications.apply(s, opening.freelancer_id, "freelancer", opening.job_id, {})] * ATTEMPTS


def opening_violations(engine: Engine, openings: list[Opening], results: list[list]) -> list[str]:
    """Rounds without exactly one application, one notice of it, and one attempt told it succeeded."""
    job_ids = [o.job_id for o in openings]
    facts = {
        row.id: row
        for row in rows(
            engine,
            """
            SELECT j.id,
              (SELECT count(*) FROM applications a WHERE a.vaga_id = j.id) AS applied,
              (SELECT min(a.id) FROM applications a WHERE a.vaga_id = j.id) AS application_id,
              (SELECT count(*) FROM notifications n
                 WHERE n.type = 'new_application' AND n.message LIKE '%"' || j.titulo || '"%') AS notices
            FROM jobs j WHERE j.id BETWEEN :first AND :last
            """,
            first=min(job_ids),
            last=max(job_ids),
        )
    }
    problems = []
    for number, (opening, outcome) in enumerate(zip(openings, results, strict=True)):
        row = facts[opening.job_id]
        winners = [r for r in outcome if isinstance(r, int)]
        if (row.applied, row.notices) != (1, 1) or winners != [row.application_id]:
            problems.append(f"round {number}: applications={row.applied} notices={row.notices} winners={winners}")
    return problems


def test_applying_32_times_at_once_makes_exactly_one_application(engine, crowd):
    openings = opening_rounds(engine, ROUNDS)
    tally = Tally("apply")

    results = play(crowd, tally, openings, apply_attempts, {ALREADY_APPLIED})
    tally.violations = opening_violations(engine, openings, results)

    SUMMARY.append(tally.line(engine.dialect.name))
    assert tally.unexpected == []
    assert tally.violations == []
    assert tally.outcomes[f"refused: {ALREADY_APPLIED}"] == ROUNDS * (ATTEMPTS - 1)


# --- publish-at-plan-limit -------------------------------------------------------------------


def publish_attempts(company_id: int) -> list[Callable[[Session], object]]:
    """Every attempt is the company publishing one more job."""
    return [lambda s: company_jobs.create_job(s, company_id, dict(JOB_FORM))] * ATTEMPTS


def plan_violations(engine: Engine, companies: list[int], results: list[list]) -> list[str]:
    """Rounds that did not end with exactly the plan's two active jobs, each new one announced once."""
    facts = {
        row.cliente_id: row
        for row in rows(
            engine,
            """
            SELECT j.cliente_id, count(*) AS active,
              sum(CASE WHEN j.titulo = :title THEN 1 ELSE 0 END) AS created,
              max(CASE WHEN j.titulo = :title THEN j.id END) AS created_id,
              sum((SELECT count(*) FROM notifications n
                   WHERE n.type = 'job_created' AND n.target = 'job' AND n.target_id = j.id)) AS notices
            FROM jobs j
            WHERE j.cliente_id BETWEEN :first AND :last AND j.status IN ('open', 'in_progress')
            GROUP BY j.cliente_id
            """,
            title=JOB_FORM["titulo"],
            first=min(companies),
            last=max(companies),
        )
    }
    problems = []
    for number, (company_id, outcome) in enumerate(zip(companies, results, strict=True)):
        row = facts[company_id]
        winners = [r for r in outcome if isinstance(r, int)]
        if (row.active, row.created, row.notices) != (2, 1, 1) or winners != [row.created_id]:
            problems.append(f"round {number}: active={row.active} created={row.created} winners={winners}")
    return problems


def test_publishing_32_times_at_once_one_below_the_plan_limit_publishes_exactly_one(engine, crowd):
    companies = company_rounds(engine, ROUNDS)
    tally = Tally("publish-at-plan-limit")

    results = play(crowd, tally, companies, publish_attempts, {FREE_LIMIT_MESSAGE})
    tally.violations = plan_violations(engine, companies, results)

    SUMMARY.append(tally.line(engine.dialect.name))
    assert tally.unexpected == []
    assert all(isinstance(r, PlanLimitReached) for outcome in results for r in outcome if not isinstance(r, int))
    assert tally.violations == []


# --- single-use links ------------------------------------------------------------------------


def use_link(session: Session, link: Link) -> int:
    """Submit the link as the browser does: a new password for a reset link, a visit for a confirmation."""
    if link.purpose == TokenPurpose.RESET_PASSWORD:
        return accounts.reset_password(session, link.token, dict(NEW_PASSWORD)).id
    return accounts.confirm_email(session, link.token).id


def link_attempts(link: Link) -> list[Callable[[Session], object]]:
    """Every attempt submits the same link (32 tabs, double clicks, a mail scanner and the person)."""
    return [lambda s: use_link(s, link)] * ATTEMPTS


def test_submitting_one_link_32_times_at_once_uses_it_exactly_once(engine, crowd):
    contested = links(engine, ROUNDS)
    tally = Tally("single-use-link")

    results = play(crowd, tally, contested, link_attempts, {INVALID_LINK})

    SUMMARY.append(tally.line(engine.dialect.name))
    assert tally.unexpected == []
    winners = [[r for r in outcome if isinstance(r, int)] for outcome in results]
    assert [n for n, won in enumerate(winners) if len(won) != 1] == []
    assert tally.outcomes[f"refused: {INVALID_LINK}"] == ROUNDS * (ATTEMPTS - 1)
    [[used]] = rows(engine, "SELECT count(*) FROM email_tokens WHERE used_at IS NOT NULL")
    assert used == ROUNDS
