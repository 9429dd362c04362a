"""The shift timer: one `tick(now)` over a full table of hirings against the bare SQL of the same work.

A throwaway database per engine is filled in bulk with BENCH_HIRINGS hirings (default 200,000;
one application each, on jobs of 10 hirings, from 300 companies and 1,000 freelancers, every user
with a profile and saved preferences, one 'aceitar' event per hiring). 1 % of them are due: hours
sent 49 hours ago ('horas_enviadas', `due_at` an hour or so in the past: the automatic approval);
the rest are 'agendada' or 'confirmada' with every deadline and reminder days ahead.

Two measurements, each against a baseline taken in the same run on the same rows:

- **The due tick**: `services.shifts.clock.tick(now)` (the production batch, its own session per
  hiring through `core.db.session_scope` on the bench database), which moves each due hiring
  through `hiring_lifecycle.move` (one event each) and notifies both sides (a notification and an
  outbox e-mail each). Baseline: the bare `UPDATE hirings SET state='aprovada',
  version=version+1, due_at=NULL WHERE due_at <= :now` of the same rows, in one transaction, run
  first and then undone (the rows restored and the table re-analysed) so the tick meets the same
  due rows. A second tick must move nothing. Budget (the issue): the tick of 1 % of 200,000
  hirings within one minute, on both engines; the script prints PASS or FAIL, nothing asserts it.
- **The reminder burst**: BENCH_REMINDERS hirings (default 1,000, one per freelancer) whose
  24-hour reminder is due; the ticks that send them (a tick sends at most `batch` reminders, so
  1,000 take two ticks) against a bare INSERT of the same number of notification rows.

Engines: SQLite (a temp file) always; PostgreSQL too when BENCH_DATABASE_URL (or
TEST_DATABASE_URL) names a server (a database created for the run and dropped afterwards);
BENCH_ENGINES narrows the list. BENCH_QUICK=1: 2,000 hirings (20 due), 50 reminders.
"""

import json
import os
import random
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from functools import partial
from pathlib import Path

from alembic.config import Config
from sqlalchemy import bindparam, event, func, insert, select, update
from sqlalchemy.engine import Engine

from alembic import command
from bench import harness
from core import shift_rules as rules
from core.db import make_engine, session_scope
from core.types import utcnow
from models import (
    Application,
    Hiring,
    HiringEvent,
    HiringState,
    Job,
    Notification,
    NotificationType,
    OutboxEmail,
    Profile,
    Role,
    User,
    UserPreferences,
)
from services.jobs import shift_pay
from services.jobs.bulk_load import jobs_loading, settle
from services.timer.clock import tick

QUICK = harness.quick()
HIRINGS = 2_000 if QUICK else int(os.environ.get("BENCH_HIRINGS", "200000"))
DUE_SHARE = 0.01
REMINDERS = 50 if QUICK else int(os.environ.get("BENCH_REMINDERS", "1000"))
COMPANIES = 20 if QUICK else 300
FREELANCERS = max(REMINDERS, 100 if QUICK else 1_000)
PER_JOB = 10  # hirings per job (each a different freelancer, so every application is unique)
BATCH = 5_000  # rows per bulk INSERT
BUDGET_SECONDS = 60.0  # the issue: the tick of 1 % of 200,000 hirings within one minute
SENT_AGO = timedelta(hours=49)  # hours sent this long ago are past the 48-hour approval window
MINUTES_SENT = 420  # an 8-hour shift with a 60-minute break
RATE_CENTS = 2_500
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]
_EVENTS = HiringEvent.__table__  # type: ignore[attr-defined]
_NOTICES = Notification.__table__  # type: ignore[attr-defined]
_OUTBOX = OutboxEmail.__table__  # type: ignore[attr-defined]


@dataclass
class Result:
    """One engine's figures: the due tick, its baseline and checks, and the reminder burst.

    Attributes:
        engine: 'SQLite' or 'PostgreSQL'.
        hirings: Rows in `hirings`.
        due: Hirings due at `now` (what both the tick and the bare UPDATE must move).
        seed_s: Seconds to fill and analyse the database.
        tick_s: The due tick.
        bare_s: The bare UPDATE of the same rows, committed.
        moved: What the tick reported moving.
        events: 'aprovacao_automatica' events written, one per moved hiring.
        event_hirings: Distinct hirings among those events.
        notices: Notifications the tick wrote (company and freelancer of each moved hiring).
        outbox: Outbox e-mails the tick wrote.
        statements: SQL statements the tick ran (commits not counted).
        second_moved: What a second tick at the same `now` moved (0: idempotent).
        second_s: That second, empty tick.
        reminders: Hirings whose reminder was due.
        reminded: Reminders the ticks sent.
        remind_ticks: Ticks that sent at least one reminder.
        remind_s: Those ticks, together.
        remind_notices: Reminder notifications written.
        remind_outbox: Reminder e-mails written.
        remind_bare_s: A bare INSERT of `reminders` notification rows, committed.
    """

    engine: str
    hirings: int
    due: int
    seed_s: float
    tick_s: float
    bare_s: float
    moved: int
    events: int
    event_hirings: int
    notices: int
    outbox: int
    statements: int
    second_moved: int
    second_s: float
    reminders: int
    reminded: int
    remind_ticks: int
    remind_s: float
    remind_notices: int
    remind_outbox: int
    remind_bare_s: float

    @property
    def ratio(self) -> float:
        """The tick over the bare UPDATE."""
        return self.tick_s / self.bare_s

    @property
    def per_hiring_ms(self) -> float:
        """The tick's milliseconds per moved hiring."""
        return self.tick_s * 1000 / max(self.moved, 1)

    @property
    def within_budget(self) -> bool:
        """Whether the tick finished within BUDGET_SECONDS."""
        return self.tick_s <= BUDGET_SECONDS

    @property
    def remind_ratio(self) -> float:
        """The reminder ticks over the bare INSERT of as many notifications."""
        return self.remind_s / self.remind_bare_s


def _migrate(url: str) -> None:
    cfg = Config("alembic.ini")
    cfg.attributes["database_url"] = url
    cfg.attributes["skip_logging"] = True
    command.upgrade(cfg, "head")


def _chunks(rows: list[dict], size: int = BATCH):
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _ids(conn, column, *where) -> list[int]:
    return [row[0] for row in conn.execute(select(column).where(*where).order_by(column))]


def _users(conn, now: datetime) -> tuple[list[int], list[int]]:
    """Companies and freelancers, each with a profile and saved preferences (what notify reads)."""
    for role, count in ((Role.CLIENT, COMPANIES), (Role.FREELANCER, FREELANCERS)):
        rows = [
            {
                "email": f"{role.value}{i}@turno-shift.bench",
                "password_hash": "x",
                "role": role,
                "email_confirmed_at": now,
                "is_active": True,
                "created_at": now - timedelta(days=30),
            }
            for i in range(count)
        ]
        for chunk in _chunks(rows):
            conn.execute(insert(User), chunk)
    companies = _ids(conn, User.id, User.role == Role.CLIENT)
    freelancers = _ids(conn, User.id, User.role == Role.FREELANCER)
    profiles = [
        {
            "user_id": uid,
            "tipo_usuario": role,
            "nome": f"Pessoa {uid}",
            "empresa": f"Empresa {uid}" if role == Role.CLIENT else "",
            "habilidades": [],
            "redes_sociais": {},
            "updated_at": now,
        }
        for role, ids in ((Role.CLIENT, companies), (Role.FREELANCER, freelancers))
        for uid in ids
    ]
    for chunk in _chunks(profiles):
        conn.execute(insert(Profile), chunk)
    for chunk in _chunks([{"user_id": uid} for uid in companies + freelancers]):
        conn.execute(insert(UserPreferences), chunk)
    return companies, freelancers


def _jobs(conn, companies: list[int], count: int, now: datetime) -> list[int]:
    rows = [
        {
            "cliente_id": companies[j % len(companies)],
            "titulo": f"Garçom para evento {j}",
            "categoria": "gastronomia",
            "descricao": "Atendimento às mesas em evento.",
            "localizacao": "São Paulo",
            "valor_hora": Decimal(RATE_CENTS) / 100,
            "duracao": "",
            "habilidades_necessarias": [],
            "status": "open",
            "vaga_status": "open",
            "is_archived": False,
            "vagas_disponiveis": PER_JOB,
            "criado_em": now - timedelta(days=10),
            "updated_at": now,
            "vale_transporte": False,
            "refeicao_local": False,
            "possui_intervalo": True,
            "anuncio_anonimo": False,
            "busca": f"garcom para evento {j}",
            "cidade_busca": "sao paulo",
        }
        for j in range(count)
    ]
    for chunk in _chunks(rows):
        conn.execute(insert(Job), chunk)
    return _ids(conn, Job.id)


def _hiring(i: int, application_id: int, job_id: int, company_id: int, freelancer_id: int) -> dict:
    """Every column of a hiring with its default; the caller sets state and times.

    Every row of one bulk INSERT must carry the same keys: SQLAlchemy builds the statement from the
    first row's and ignores the others' extra keys.
    """
    return {
        **dict.fromkeys(c.name for c in _HIRINGS.columns if c.nullable),
        "application_id": application_id,
        "job_id": job_id,
        "company_id": company_id,
        "freelancer_id": freelancer_id,
        "version": 1 + i % 3,
        "intervalo_min": 60,
        "valor_hora_centavos": RATE_CENTS,
        "pagamento": "direto",
        "reminders_sent": 0,
        "chegada_metodo": "",
        "chegada_distancia": "",
        "saida_metodo": "",
        "saida_distancia": "",
        "dispensa_motivo": "",
        "ajuste_motivo": "",
        "taxa_cancelamento_centavos": 0,
    }


def _due_hiring(row: dict, i: int, now: datetime) -> dict:
    """Hours sent 49 h ago (a few seconds apart): due for the automatic approval an hour ago."""
    sent = now - SENT_AGO - timedelta(seconds=i % 3600)
    end = sent - timedelta(hours=1)
    start = end - timedelta(hours=8)
    return {
        **row,
        "state": HiringState.HOURS_SENT,
        "inicio_em": start,
        "fim_em": end,
        "confirmed_at": start - timedelta(hours=30),
        "chegada_em": start,
        "chegada_metodo": "codigo",
        "saida_em": end,
        "saida_metodo": "codigo",
        "terminou_em": end,
        "minutos_enviados": MINUTES_SENT,
        "horas_enviadas_em": sent,
        "due_at": sent + rules.APPROVAL_WINDOW,
        "remind_at": None,  # the 6-hour reminder went out 7 hours ago
        "reminders_sent": len(rules.FREELANCER_REMINDERS),
        "created_at": start - timedelta(days=3),
        "updated_at": sent,
    }


def _future_hiring(row: dict, i: int, now: datetime) -> dict:
    """An 'agendada' or 'confirmada' shift 2 to 32 days ahead: every deadline and reminder ahead too."""
    start = (now + timedelta(days=2 + i % 30, hours=1)).replace(minute=0, second=0, microsecond=0)
    end = start + timedelta(hours=8)
    confirmed = i % 2 == 1
    return {
        **row,
        "state": HiringState.CONFIRMED if confirmed else HiringState.SCHEDULED,
        "inicio_em": start,
        "fim_em": end,
        "confirmed_at": now - timedelta(hours=1) if confirmed else None,
        # hiring_lifecycle.due_at: 'nao_confirmou' at I - 12 h, or 'sem_registro' at F + 12 h
        "due_at": end + rules.NO_RECORD_NO_SHOW if confirmed else start - rules.UNCONFIRMED_AT,
        "remind_at": start - rules.FREELANCER_REMINDERS[0],
        "created_at": now - timedelta(days=1),
        "updated_at": now - timedelta(days=1),
    }


def fill(engine: Engine, count: int, now: datetime, rng: random.Random) -> tuple[list[int], list[int]]:
    """Bulk-load `count` hirings, 1 % due at `now`; return the due hirings' ids and the reminder candidates'.

    The reminder candidates are not-due hirings of distinct freelancers (REMINDERS of them), which
    `arm_reminders` later makes due.
    """
    due_count = max(1, round(count * DUE_SHARE))
    due_index = set(rng.sample(range(count), due_count))
    with engine.begin() as conn:
        with jobs_loading(conn):  # jobs' and profiles' row triggers off, redone once
            companies, freelancers = _users(conn, now)
            job_ids = _jobs(conn, companies, -(-count // PER_JOB), now)
        pairs = [(job_ids[i // PER_JOB], freelancers[i % len(freelancers)]) for i in range(count)]
        applications = [
            {
                "vaga_id": job,
                "freelancer_id": freelancer,
                "status": "accepted",
                "mensagem": "",
                "created_at": now - timedelta(days=5),
                "updated_at": now - timedelta(days=1),
            }
            for job, freelancer in pairs
        ]
        for chunk in _chunks(applications):
            conn.execute(insert(Application), chunk)
        application_ids = _ids(conn, Application.id)
        owner = {job_ids[j]: companies[j % len(companies)] for j in range(len(job_ids))}
        hirings = []
        for i, (job, freelancer) in enumerate(pairs):
            row = _hiring(i, application_ids[i], job, owner[job], freelancer)
            hirings.append(_due_hiring(row, i, now) if i in due_index else _future_hiring(row, i, now))
        for chunk in _chunks(hirings):
            conn.execute(insert(_HIRINGS), chunk)
        hiring_ids = _ids(conn, Hiring.id)
        events = [
            {
                "hiring_id": hiring_id,
                "actor": "empresa",
                "actor_id": owner[pairs[i][0]],
                "action": "aceitar",
                "from_state": "",
                "to_state": HiringState.SCHEDULED,
                "reason": "",
                "at": now - timedelta(days=1),
            }
            for i, hiring_id in enumerate(hiring_ids)
        ]
        for chunk in _chunks(events):
            conn.execute(insert(_EVENTS), chunk)
    settle(engine)
    seen: set[int] = set()
    candidates = []
    for i, (_job, freelancer) in enumerate(pairs):
        if i not in due_index and freelancer not in seen and len(candidates) < REMINDERS:
            seen.add(freelancer)
            candidates.append(hiring_ids[i])
    return sorted(hiring_ids[i] for i in due_index), candidates


def _count(engine: Engine, query) -> int:
    with engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def _bare_update(engine: Engine, now: datetime, due_ids: list[int]) -> float:
    """Time the bare UPDATE of the due rows (committed), then put the rows back as they were."""
    with engine.connect() as conn:
        before = conn.execute(
            select(_HIRINGS.c.id, _HIRINGS.c.state, _HIRINGS.c.version, _HIRINGS.c.due_at).where(
                _HIRINGS.c.id.in_(due_ids)
            )
        ).all()
    start = time.perf_counter()
    with engine.begin() as conn:
        changed = conn.execute(
            update(_HIRINGS)
            .where(_HIRINGS.c.due_at <= now)
            .values(state=HiringState.APPROVED, version=_HIRINGS.c.version + 1, due_at=None)
        ).rowcount
    elapsed = time.perf_counter() - start
    if changed != len(due_ids):
        raise RuntimeError(f"the bare UPDATE changed {changed} rows, {len(due_ids)} are due")
    with engine.begin() as conn:
        conn.execute(
            update(_HIRINGS)
            .where(_HIRINGS.c.id == bindparam("row_id"))
            .values(state=bindparam("old_state"), version=bindparam("old_version"), due_at=bindparam("old_due")),
            [{"row_id": r.id, "old_state": r.state, "old_version": r.version, "old_due": r.due_at} for r in before],
        )
    settle(engine)  # the restore's dead rows vacuumed (PostgreSQL) and statistics fresh, as before the UPDATE
    return elapsed


class StatementCounter:
    """Counts the SQL statements run on an engine while it is listening (commits are not statements)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.count = 0

    def _seen(self, *_args) -> None:
        self.count += 1

    def __enter__(self) -> "StatementCounter":
        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *_exc) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)


def _check_moved(engine: Engine, now: datetime, due_ids: list[int], versions: dict[int, int]) -> None:
    """Every due hiring approved once, with its pay, its deadlines cleared and its version bumped."""
    with engine.connect() as conn:
        rows = conn.execute(select(_HIRINGS).where(_HIRINGS.c.id.in_(due_ids))).all()
        still_due = conn.execute(select(func.count()).where(_HIRINGS.c.due_at <= now)).scalar_one()
    pay = shift_pay.pay(MINUTES_SENT, RATE_CENTS)
    wrong = [
        r.id
        for r in rows
        if (r.state, r.due_at, r.remind_at, r.minutos_aprovados, r.valor_centavos, r.version)
        != (HiringState.APPROVED, None, None, MINUTES_SENT, pay, versions[r.id] + 1)
    ]
    if len(rows) != len(due_ids) or wrong:
        raise RuntimeError(f"{len(wrong)} due hirings not approved as expected, e.g. {wrong[:5]}")
    if still_due:
        raise RuntimeError(f"{still_due} hirings still due after the tick")


def arm_reminders(engine: Engine, ids: list[int], now: datetime) -> None:
    """Make the 24-hour reminder of `ids` due: shifts starting in 20 hours, not yet reminded."""
    start = now + timedelta(hours=20)
    with engine.begin() as conn:
        conn.execute(
            update(_HIRINGS)
            .where(_HIRINGS.c.id == bindparam("row_id"))
            .values(
                state=HiringState.SCHEDULED,
                inicio_em=start,
                fim_em=start + timedelta(hours=8),
                due_at=start - rules.UNCONFIRMED_AT,
                remind_at=start - rules.FREELANCER_REMINDERS[0],
                reminders_sent=0,
            ),
            [{"row_id": hiring_id} for hiring_id in ids],
        )


def _bare_notices(engine: Engine, user_ids: list[int], now: datetime) -> float:
    """Time a bare INSERT of one notification per user (committed), then delete the rows."""
    rows = [
        {
            "user_id": uid,
            "type": NotificationType.SHIFT,
            "message": "Lembrete: seu turno começa amanhã.",
            "target": "freelancer_shifts",
            "target_id": None,
            "read": False,
            "created_at": now,
        }
        for uid in user_ids
    ]
    start = time.perf_counter()
    with engine.begin() as conn:
        conn.execute(insert(_NOTICES), rows)
    elapsed = time.perf_counter() - start
    with engine.begin() as conn:
        conn.execute(_NOTICES.delete().where(_NOTICES.c.created_at == now))
    return elapsed


def measure(engine_name: str, engine: Engine, count: int) -> Result:
    """Fill the database of `engine` and take every figure of one engine."""
    rng = random.Random(42)
    now = utcnow().replace(microsecond=0)
    started = time.perf_counter()
    due_ids, reminder_ids = fill(engine, count, now, rng)
    seed_s = time.perf_counter() - started
    with engine.connect() as conn:
        versions = dict(conn.execute(select(_HIRINGS.c.id, _HIRINGS.c.version).where(_HIRINGS.c.id.in_(due_ids))).all())
    scope = partial(session_scope, engine)

    bare_s = _bare_update(engine, now, due_ids)
    notices_before = _count(engine, select(func.count()).select_from(_NOTICES))
    outbox_before = _count(engine, select(func.count()).select_from(_OUTBOX))
    with StatementCounter(engine) as statements:
        start = time.perf_counter()
        report = tick(now, scope=scope)
        tick_s = time.perf_counter() - start
    start = time.perf_counter()
    second = tick(now, scope=scope)
    second_s = time.perf_counter() - start
    _check_moved(engine, now, due_ids, versions)
    approvals = select(_EVENTS.c.hiring_id).where(_EVENTS.c.action == "aprovacao_automatica")
    events = _count(engine, select(func.count()).select_from(approvals.subquery()))
    event_hirings = _count(engine, select(func.count(func.distinct(approvals.subquery().c.hiring_id))))
    notices = _count(engine, select(func.count()).select_from(_NOTICES)) - notices_before
    outbox = _count(engine, select(func.count()).select_from(_OUTBOX)) - outbox_before
    if report.reminded or second.reminded:
        raise RuntimeError(f"reminders sent with none due: {report.reminded}, {second.reminded}")

    arm_reminders(engine, reminder_ids, now)
    with engine.connect() as conn:
        freelancers = list(
            conn.execute(select(_HIRINGS.c.freelancer_id).where(_HIRINGS.c.id.in_(reminder_ids))).scalars()
        )
    if len(set(freelancers)) != len(reminder_ids):
        raise RuntimeError("the reminder burst must reach as many freelancers as hirings")
    remind_bare_s = _bare_notices(engine, freelancers, now - timedelta(seconds=1))
    notices_before = _count(engine, select(func.count()).select_from(_NOTICES))
    outbox_before = _count(engine, select(func.count()).select_from(_OUTBOX))
    reminded = remind_ticks = 0
    remind_s = 0.0
    while True:
        start = time.perf_counter()
        burst = tick(now, scope=scope)
        elapsed = time.perf_counter() - start
        if not burst.reminded:
            break
        if burst.moved:
            raise RuntimeError(f"the reminder ticks moved {burst.moved} hirings")
        reminded += burst.reminded
        remind_ticks += 1
        remind_s += elapsed
    return Result(
        engine=engine_name,
        hirings=count,
        due=len(due_ids),
        seed_s=seed_s,
        tick_s=tick_s,
        bare_s=bare_s,
        moved=report.moved,
        events=events,
        event_hirings=event_hirings,
        notices=notices,
        outbox=outbox,
        statements=statements.count,
        second_moved=second.moved,
        second_s=second_s,
        reminders=len(reminder_ids),
        reminded=reminded,
        remind_ticks=remind_ticks,
        remind_s=remind_s,
        remind_notices=_count(engine, select(func.count()).select_from(_NOTICES)) - notices_before,
        remind_outbox=_count(engine, select(func.count()).select_from(_OUTBOX)) - outbox_before,
        remind_bare_s=remind_bare_s,
    )


def run() -> list[Result]:
    """Fill a throwaway database per engine and take every figure; print each engine as it is done."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine_name in harness.engines():
            with harness.database(engine_name, Path(tmp), f"shift{HIRINGS}") as url:
                _migrate(url)
                engine = make_engine(url)
                try:
                    result = measure("SQLite" if engine_name == "sqlite" else "PostgreSQL", engine, HIRINGS)
                finally:
                    engine.dispose()
                if not QUICK:
                    _print([result])
                results.append(result)
    return results


def _print(results: list[Result]) -> None:
    print("\nThe shift timer: one tick(now) moving the due hirings vs the bare UPDATE of the same rows (s)")
    print(
        "| engine | hirings | due | tick s | bare UPDATE s | tick / bare | per hiring ms | statements per hiring "
        "| second tick (moved, s) | within 60 s? |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.engine} | {r.hirings:,} | {r.due:,} | {r.tick_s:.2f} | {r.bare_s:.3f} | {r.ratio:.0f}x | "
            f"{r.per_hiring_ms:.2f} | {r.statements / max(r.moved, 1):.1f} | {r.second_moved}, {r.second_s:.3f} | "
            f"{'PASS' if r.within_budget else 'FAIL'} |"
        )
    print("Reminder burst: the ticks that send them vs a bare INSERT of as many notifications (s)")
    print("| engine | reminders (freelancers) | ticks | ticks s | bare INSERT s | ticks / bare | per reminder ms |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.engine} | {r.reminded:,} | {r.remind_ticks} | {r.remind_s:.2f} | {r.remind_bare_s:.3f} | "
            f"{r.remind_ratio:.0f}x | {r.remind_s * 1000 / max(r.reminded, 1):.2f} |"
        )
    for r in results:
        print(
            f"{r.engine}: seeded in {r.seed_s:.0f} s; moved {r.moved} of {r.due} due, {r.events} events on "
            f"{r.event_hirings} hirings, {r.notices} notifications and {r.outbox} e-mails; second tick moved "
            f"{r.second_moved}; reminders {r.reminded} of {r.reminders}, {r.remind_notices} notifications, "
            f"{r.remind_outbox} e-mails"
        )


def main() -> None:
    """Run, print the tables, and print the results as JSON last ('RESULT ...')."""
    results = run()
    if QUICK:
        _print(results)
    print("RESULT " + json.dumps([asdict(r) for r in results]))


if __name__ == "__main__":
    main()
