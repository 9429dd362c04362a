"""Thousands of rounds of 32 simultaneous attempts on the four contested writes, on both engines.

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

A pool of 32 worker threads is reused for every round: each worker opens its own
`core.db.session_scope()` and takes a connection, a barrier releases them together, and each
records what the service returned or raised. The database is a real one: a SQLite file in WAL mode
configured as the app configures it, and a PostgreSQL database created for this module on the
server of TEST_DATABASE_URL. Afterwards the invariants are checked in SQL over every round, and
every refusal must be the service's Portuguese message: any other exception (a crash, 'database
is locked', a deadlock) counts as unexpected. The control tests remove one defence at a time and
show the same rounds then break the invariant, so it holds because of that lock or constraint.

CONCURRENCY_ROUNDS sets the number of rounds: 1,000 by default and in `make security-full`, 200 in `make test`
(about 9 minutes for both engines on 2 cores; the full runs are recorded in docs/security.md).
"""

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from sqlalchemy import Engine, insert, text
from sqlmodel import Session

import core.db
from alembic import command
from bench.harness import database, postgres_url
from core.settings import get_settings
from core.types import utcnow
from models import Application, Job, Profile, Role, User
from services import applications, company_jobs, plans
from services.applications import ALREADY_APPLIED, POSITIONS_FILLED
from services.errors import ServiceError
from services.plans import PlanLimitReached
from tests.unit.conftest import alembic_config

ROUNDS = int(os.environ.get("CONCURRENCY_ROUNDS", "1000"))
ATTEMPTS = 32
APPLICANTS = 8
CONTROL_ROUNDS = 100
FREE_LIMIT_MESSAGE = (
    "Seu plano Gratuito permite até 2 vagas ativas. Encerre ou arquive uma vaga, ou conheça os planos pagos."
)
JOB_FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo",
}
ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set"),
    ),
]
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


# --- the database and the bulk setup ----------------------------------------------------------


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine configured as the app's (WAL on SQLite) on a new database at head, ATTEMPTS+1 connections."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APP_ENV", "test")
        patch.setenv("SMTP_HOST", "")
        patch.setenv("SITE_URL", "http://turno.test")
        get_settings.cache_clear()
        with database(request.param, tmp_path_factory.mktemp("concurrency"), "concurrency") as url:
            command.upgrade(alembic_config(url), "head")
            eng = core.db.make_engine(url, connections=ATTEMPTS + 1)
            patch.setattr(core.db, "get_engine", lambda: eng)
            try:
                yield eng
            finally:
                eng.dispose()
        get_settings.cache_clear()


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


def _insert_ids(db: Session, model, rows: list[dict]) -> list[int]:
    """Insert rows in one statement per batch and return their ids in the rows' order."""
    table = model.__table__
    statement = insert(table).returning(
        table.c.id if "id" in table.c else table.c.user_id, sort_by_parameter_order=True
    )
    return list(db.execute(statement, rows).scalars()) if rows else []


def _users(db: Session, role: Role, names: list[str]) -> list[int]:
    tag = f"{time.time_ns()}"
    ids = _insert_ids(
        db,
        User,
        [
            {"email": f"{role.value}{n}.{tag}@concorrencia.turno.test", "password_hash": "x", "role": role}
            for n in range(len(names))
        ],
    )
    _insert_ids(
        db,
        Profile,
        [
            {"user_id": uid, "tipo_usuario": role, "nome": nome, "habilidades": [], "redes_sociais": {}}
            for uid, nome in zip(ids, names, strict=True)
        ],
    )
    return ids


def _jobs(db: Session, company_ids: list[int], title: str) -> list[int]:
    now = utcnow()
    return _insert_ids(
        db,
        Job,
        [
            {
                "cliente_id": company_id,
                "titulo": f"{title} {n}",
                "categoria": "eventos",
                "descricao": "Vaga disputada por tentativas simultâneas.",
                "localizacao": "São Paulo",
                "valor_hora": Decimal("30.00"),
                "vagas_disponiveis": 1,
                "habilidades_necessarias": [],
                "criado_em": now,
                "updated_at": now,
            }
            for n, company_id in enumerate(company_ids)
        ],
    )


def _applications(db: Session, pairs: list[tuple[int, int]]) -> list[int]:
    return _insert_ids(db, Application, [{"vaga_id": job, "freelancer_id": free} for job, free in pairs])


def _scalar(engine: Engine, sql: str, **params) -> list:
    with engine.connect() as conn:
        return list(conn.execute(text(sql), params))


# --- accept-application ----------------------------------------------------------------------


@dataclass(frozen=True)
class Hiring:
    """A job with one position, its company and its pending applications."""

    company_id: int
    job_id: int
    application_ids: list[int]


def hiring_rounds(engine: Engine, rounds: int, applicants: int, title: str) -> list[Hiring]:
    """`rounds` jobs of one company, each with one position and `applicants` pending applications."""
    with core.db.session_scope(engine) as db:
        [company] = _users(db, Role.CLIENT, ["Empresa Disputada"])
        freelancers = _users(db, Role.FREELANCER, [f"Candidata {n}" for n in range(applicants)])
        jobs = _jobs(db, [company] * rounds, title)
        ids = _applications(db, [(job, free) for job in jobs for free in freelancers])
    return [Hiring(company, job, ids[n * applicants : (n + 1) * applicants]) for n, job in enumerate(jobs)]


def accept_targets(hiring: Hiring) -> list[int]:
    """The application each attempt accepts: attempt i takes applicant i modulo the applicants."""
    return [hiring.application_ids[i % len(hiring.application_ids)] for i in range(ATTEMPTS)]


def accept_attempts(hiring: Hiring) -> list[Callable[[Session], object]]:
    """Attempt i accepts `accept_targets(hiring)[i]` as the job's company."""
    return [lambda s, a=target: applications.accept(s, hiring.company_id, a) for target in accept_targets(hiring)]


def hiring_violations(engine: Engine, hirings: list[Hiring], results: list[list]) -> list[str]:
    """Every way a round of accepts went wrong: not exactly one hire, a hire without its chat,
    welcome message or notification, a chat for someone not hired, a job left open, or an attempt
    that reported success for another applicant or another chat."""
    job_ids = [h.job_id for h in hirings]
    facts = {
        row.id: row
        for row in _scalar(
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


@dataclass(frozen=True)
class Opening:
    """An open job and the freelancer who applies to it."""

    freelancer_id: int
    job_id: int


def opening_rounds(engine: Engine, rounds: int) -> list[Opening]:
    """`rounds` open jobs of one company and one freelancer who has applied to none of them."""
    with core.db.session_scope(engine) as db:
        [company] = _users(db, Role.CLIENT, ["Empresa Procurada"])
        [freelancer] = _users(db, Role.FREELANCER, ["Candidata Insistente"])
        jobs = _jobs(db, [company] * rounds, "Vaga candidatura")
    return [Opening(freelancer, job) for job in jobs]


def apply_attempts(opening: Opening) -> list[Callable[[Session], object]]:
    """Every attempt is the same freelancer applying to the same job."""
    return [lambda s: applications.apply(s, opening.freelancer_id, "freelancer", opening.job_id, {})] * ATTEMPTS


def opening_violations(engine: Engine, openings: list[Opening], results: list[list]) -> list[str]:
    """Rounds without exactly one application, one notice of it, and one attempt told it succeeded."""
    job_ids = [o.job_id for o in openings]
    facts = {
        row.id: row
        for row in _scalar(
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


def company_rounds(engine: Engine, rounds: int) -> list[int]:
    """`rounds` free-plan companies, each with one open job: one below the free plan's two."""
    with core.db.session_scope(engine) as db:
        companies = _users(db, Role.CLIENT, [f"Empresa {n}" for n in range(rounds)])
        _jobs(db, companies, "Vaga existente")
    return companies


def publish_attempts(company_id: int) -> list[Callable[[Session], object]]:
    """Every attempt is the company publishing one more job."""
    return [lambda s: company_jobs.create_job(s, company_id, dict(JOB_FORM))] * ATTEMPTS


def plan_violations(engine: Engine, companies: list[int], results: list[list]) -> list[str]:
    """Rounds that did not end with exactly the plan's two active jobs, each new one announced once."""
    facts = {
        row.cliente_id: row
        for row in _scalar(
            engine,
            """
            SELECT j.cliente_id, count(*) AS active,
              sum(CASE WHEN j.titulo = :title THEN 1 ELSE 0 END) AS created,
              max(CASE WHEN j.titulo = :title THEN j.id END) AS created_id,
              sum((SELECT count(*) FROM notifications n
                   WHERE n.type = 'job_created' AND n.link = '/jobs/' || CAST(j.id AS VARCHAR))) AS notices
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


# --- controls: without the defence, the same rounds break the invariant --------------------


def first_broken_round(crowd: Crowd, contested: list, attempts_of: Callable, violations_of: Callable) -> int | None:
    """Play the rounds one by one and return the number of the first whose invariant broke (None if none did)."""
    for number, one in enumerate(contested):
        results = crowd.run(attempts_of(one))
        if violations_of(crowd.engine, [one], [results]):
            return number
    return None


def _unlocked_owned_job(real: Callable) -> Callable:
    def owned_job(session, company_id, job_id, *, lock=False):
        return real(session, company_id, job_id)

    return owned_job


def test_control_accepts_without_the_job_lock_hire_two_for_one_position(engine, crowd, monkeypatch):
    monkeypatch.setattr(applications, "owned_job", _unlocked_owned_job(applications.owned_job))
    hirings = hiring_rounds(engine, CONTROL_ROUNDS, APPLICANTS, "Vaga sem trava")

    broken = first_broken_round(crowd, hirings, accept_attempts, hiring_violations)

    SUMMARY.append(f"{engine.dialect.name:<10} control: accept without the job lock broke round {broken}")
    assert broken is not None


def test_control_publications_without_the_company_lock_exceed_the_plan(engine, crowd, monkeypatch):
    monkeypatch.setattr(plans, "_hold_company", lambda session, company_id: None)
    companies = company_rounds(engine, CONTROL_ROUNDS)

    broken = first_broken_round(crowd, companies, publish_attempts, plan_violations)

    SUMMARY.append(f"{engine.dialect.name:<10} control: publish without the company lock broke round {broken}")
    assert broken is not None


def test_control_applications_without_the_unique_constraint_duplicate(engine, crowd):
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite cannot drop a table's unique constraint in place; shown on PostgreSQL")
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE applications DROP CONSTRAINT uq_applications_vaga_freelancer"))
    openings = opening_rounds(engine, CONTROL_ROUNDS)

    broken = first_broken_round(crowd, openings, apply_attempts, opening_violations)

    SUMMARY.append(f"{engine.dialect.name:<10} control: apply without the unique constraint broke round {broken}")
    assert broken is not None
