"""The shift loop's timed steps: `move_due` moves every hiring whose deadline has passed, `remind_due` reminds.

Each hiring stores when the timer next has work with it (`due_at`) and when its next reminder goes
out (`remind_at`). `move_due` moves what is due, in chunks (a savepoint per hiring), through the same
`hiring_lifecycle.move` as the people do: its `version` condition lets exactly one of any number
of workers running the tick at once (or a person clicking at the same moment) move a hiring; the
others find it moved and go on. A hiring overdue by several steps (the server was down) takes them
one after the other, each at its own deadline, so a missed minute is caught up and never skipped.
Reminders are claimed the same way, a chunk at a time, by one conditional update of `remind_at`.

Both run in every tick of the timer (services/timer/clock.py), beside the other domains' steps.
"""

import logging
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from typing import NamedTuple, TypeVar

from sqlalchemy import case, literal, tuple_, update
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from core import routes
from core import shift_rules as rules
from core.formatting import money_cents
from models import Actor, Hiring, HiringState, Job, NotificationType
from services.jobs import shift_pay
from services.reach.notifications import Notice, notify, notify_many
from services.shifts import faltas, hiring_lifecycle, hiring_rules
from services.shifts.hiring_actions import CATALOG, HOURS_APPROVED
from services.shifts.hiring_lifecycle import HiringMoveRefused
from services.shifts.shifts import approved_values, prefilled_minutes, when

log = logging.getLogger(__name__)
T = TypeVar("T")
_HIRINGS = Hiring.__table__  # type: ignore[attr-defined]
MAX_ROUNDS = 20  # a hiring moves at most 6 times by the timer; the rest is headroom
CHUNK = 50  # hirings per transaction on PostgreSQL (row locks: other requests wait only for those rows)
SQLITE_CHUNK = 5  # on SQLite a transaction holds the one write lock: keep each short (docs/performance.md)
WAITING_WHY = {"agendado": "acima do agendado", "registros": "acima dos registros de chegada e saída"}


class Pace(NamedTuple):
    """How the chunks run: threads, hirings per transaction, and the rest after each chunk."""

    workers: int
    chunk: int
    pace: float  # after a chunk, sleep `pace` times as long as it took
    sleep: Callable[[float], None]


def paced(scope: Callable, how: Pace) -> Callable:
    """`scope`, resting after each transaction `how.pace` times as long as it took (`scope` when unpaced).

    The chunks of due hirings open their transactions through it, and so do the trust steps: their
    work has no deadline to the second (a badge, a window of hours), and the daily refresh of every
    company's badge (services/trust/punctuality.py) runs 100 transactions a tick otherwise.
    """
    if how.pace <= 0:
        return scope

    @contextmanager
    def paced() -> Iterator[Session]:
        started = time.perf_counter()
        with scope() as db:
            yield db
        how.sleep((time.perf_counter() - started) * how.pace)

    return paced


def _drain(scope: Callable, column, now: datetime, batch: int, how: Pace, step: Callable) -> int:
    """Run the chunk `step` over every hiring whose `column` is due, round after round, skipping the ones that failed."""
    done, failed = 0, set()
    each_chunk = paced(scope, how)  # each chunk's transaction, then the rest its time asks for
    for _ in range(MAX_ROUNDS):
        with scope() as db:
            query = select(Hiring.id).where(column <= now)
            if failed:
                query = query.where(Hiring.id.not_in(failed))
            due = db.exec(query.order_by(column, Hiring.id).limit(batch)).all()
        if not due:
            break
        chunks = [due[i : i + how.chunk] for i in range(0, len(due), how.chunk)]
        if how.workers > 1 and len(chunks) > 1:
            with ThreadPoolExecutor(max_workers=how.workers, thread_name_prefix="shift-tick") as pool:
                results = list(pool.map(lambda ids: _chunk(each_chunk, ids, now, step), chunks))
        else:
            results = [_chunk(each_chunk, ids, now, step) for ids in chunks]
        round_done = 0
        for outcome in results:
            round_done += sum(outcome.values())
            failed |= {hiring_id for hiring_id, ok in outcome.items() if not ok}
        done += round_done
    return done


def _chunk(scope: Callable, ids: list[int], now: datetime, step: Callable) -> dict[int, bool]:
    """One transaction over `ids` running a chunk step; whether each hiring was done."""
    with scope() as db:
        return step(db, ids, now, {})


def _each(step: Callable, failure: str = "could not move") -> Callable:
    """A chunk step that runs `step` on each hiring in a savepoint of its own.

    A hiring another worker (or a person) moved first is skipped alone; one that fails for any other
    reason is logged (`failure` says what it could not do) and left for the next tick, and does not
    hold back the others.
    """

    def each(db: Session, ids: list[int], now: datetime, titles: dict[int, str]) -> dict[int, bool]:
        outcome: dict[int, bool] = {}
        for hiring_id in ids:
            try:
                with db.begin_nested():
                    outcome[hiring_id] = step(db, hiring_id, now, titles)
            except HiringMoveRefused:
                outcome[hiring_id] = False  # another worker or a person moved it first
            except Exception as exc:
                outcome[hiring_id] = False
                if _sqlite_busy(exc):
                    log.warning(_WAITS, f"hiring {hiring_id}")
                else:
                    log.exception("shift timer: hiring %s %s; the next tick tries again", hiring_id, failure)
        return outcome

    return each


# A request held SQLite's one write lock: the timer yields and retries (a chunk that took the lock up
# front made other users' p95 6.5x, docs/performance.md).
_WAITS = "shift timer: %s waits for SQLite's write lock; the next tick tries again"


def _sqlite_busy(exc: Exception) -> bool:
    """Whether `exc` is SQLite's answer to a write while another connection writes."""
    return isinstance(exc, OperationalError) and "database is locked" in str(exc.orig if exc.orig is not None else exc)


def _advance(db: Session, hiring_id: int, now: datetime, titles: dict[int, str]) -> bool:
    """Run the timer's action of one due hiring, at its deadline; True when it moved."""
    h = db.get(Hiring, hiring_id, populate_existing=True)
    if h is None or h.due_at is None or h.due_at > now:
        return False
    action = hiring_rules.timer_action(h.state, h)
    if action is None:  # e.g. hours above the schedule, due before that rule: they wait for the company
        _forget_due(db, h)
        return False
    at = h.due_at
    moved = hiring_lifecycle.move(
        db, h, action, Actor.TIMER, at, reason=CATALOG[action].timer_reason, values=_values(h, action, at)
    )
    _after(db, moved.hiring, action, at, titles)
    return True


def _forget_due(db: Session, h: Hiring) -> None:
    """Clear the deadline of a hiring the timer has nothing to do with (unless a person moved it meanwhile)."""
    db.execute(
        update(_HIRINGS)
        .where(_HIRINGS.c.id == h.id, _HIRINGS.c.version == h.version)
        .values(due_at=None)
        .execution_options(synchronize_session=False)
    )


def _values(h: Hiring, action: str, at: datetime) -> dict:
    if action == "sem_registro":
        return {"terminou_em": at}
    if action == "saida_nao_registrada":
        return {"terminou_em": h.fim_em}
    if action == "horas_pelos_registros":
        return {"minutos_enviados": prefilled_minutes(h), "horas_enviadas_em": at}
    if action == "aprovacao_automatica":
        return approved_values(h, h.minutos_enviados or 0)
    if action == "ajuste_aceito_automaticamente":
        return approved_values(h, h.minutos_ajuste or 0)
    return {}


def _title(db: Session, h: Hiring, titles: dict[int, str]) -> str:
    """The vaga's title, read once per chunk."""
    if h.job_id not in titles:
        titles[h.job_id] = db.exec(select(Job.titulo).where(Job.id == h.job_id)).first() or ""
    return titles[h.job_id]


def _after(db: Session, h: Hiring, action: str, at: datetime, titles: dict[int, str]) -> None:
    """The falta and the notices of a timer step (their texts: services/shifts/hiring_actions.py)."""
    if action == "sem_registro":
        faltas.add(db, h.freelancer_id, h.id, rules.FALTAS_FOR_NO_SHOW, "nao_compareceu", at)
    row = CATALOG[action]  # 'pagamento_expirado': services/money/expiry.py hears the move and tells the company
    if not (row.to_company or row.to_freelancer):
        return
    hours = h.minutos_aprovados if row.to_freelancer == HOURS_APPROVED else h.minutos_enviados
    words = {
        "titulo": _title(db, h, titles),
        "quando": when(h),
        "horas": shift_pay.hours_text(hours),
        "valor": money_cents(h.valor_centavos),
    }
    if row.to_company:
        notify(
            db, h.company_id, NotificationType.SHIFT, row.to_company.format(**words), routes.NoticeTarget.COMPANY_SHIFTS
        )
    if row.to_freelancer:
        notify(
            db,
            h.freelancer_id,
            NotificationType.SHIFT,
            row.to_freelancer.format(**words),
            routes.NoticeTarget.FREELANCER_SHIFTS,
        )


def _remind_chunk(db: Session, ids: list[int], now: datetime, titles: dict[int, str]) -> dict[int, bool]:
    """Send the reminders due of a chunk in a few statements; hiring by hiring if that fails.

    A failure other than SQLite's write lock (which the next tick waits out) is retried one hiring
    at a time, so one hiring that cannot be reminded does not hold back the chunk's others.
    """
    try:
        with db.begin_nested():
            return _remind_all(db, ids, now, titles)
    except Exception as exc:
        if _sqlite_busy(exc):
            log.warning(_WAITS, f"a chunk of {len(ids)} reminders")
            return dict.fromkeys(ids, False)
        log.exception("shift timer: a chunk of %s reminders failed; trying them one at a time", len(ids))
    return _each(_remind_one, "could not be reminded")(db, ids, now, titles)


def _remind_one(db: Session, hiring_id: int, now: datetime, titles: dict[int, str]) -> bool:
    """One hiring's reminder on its own (a failed chunk's fallback); whether it was sent."""
    return _remind_all(db, [hiring_id], now, titles)[hiring_id]


def _remind_all(db: Session, ids: list[int], now: datetime, titles: dict[int, str]) -> dict[int, bool]:
    """Send the latest reminder due of each hiring in `ids`; whether each one was sent.

    One read (with the vaga's title), one claim and the notices of `notify_many`: about six
    statements for a chunk of 50, where a savepoint and eight statements per reminder made a
    burst's statements the database's work (docs/performance.md). The claim is one conditional
    UPDATE of the hirings still at the `remind_at` read, RETURNING the ones it changed: a person who
    moved a hiring meanwhile, or another worker that claimed it first, changed that value, so its
    reminder is neither claimed nor sent here.
    """
    outcome = dict.fromkeys(ids, False)
    read = db.exec(
        select(Hiring, Job.titulo)
        .join(Job, Job.id == Hiring.job_id)
        .where(Hiring.id.in_(ids), Hiring.remind_at <= now)
        .execution_options(populate_existing=True)
    ).all()
    if not read:
        return outcome
    titles.update({h.job_id: titulo for h, titulo in read})
    plans = {h.id: (h, *_next_reminder(h, now)) for h, _ in read}
    remind_type = _HIRINGS.c.remind_at.type
    claimed = (
        db.execute(
            update(_HIRINGS)
            .where(tuple_(_HIRINGS.c.id, _HIRINGS.c.remind_at).in_([(h.id, h.remind_at) for h, _, _ in plans.values()]))
            .values(
                remind_at=case(
                    {hiring_id: literal(following, remind_type) for hiring_id, (_, _, following) in plans.items()},
                    value=_HIRINGS.c.id,
                ),
                reminders_sent=case(
                    {hiring_id: sent for hiring_id, (_, sent, _) in plans.items()}, value=_HIRINGS.c.id
                ),
            )
            .returning(_HIRINGS.c.id)
            .execution_options(synchronize_session=False)
        )
        .scalars()
        .all()
    )  # read to the end: SQLite keeps a RETURNING statement open until then
    notices = {}
    for hiring_id in claimed:
        h = plans[hiring_id][0]
        if (notice := _reminder(h, now, titles[h.job_id])) is not None:
            notices[hiring_id] = notice
    notify_many(db, list(notices.values()))
    outcome.update(dict.fromkeys(notices, True))
    return outcome


def _next_reminder(h: Hiring, now: datetime) -> tuple[int, datetime | None]:
    """The `reminders_sent` and `remind_at` of a hiring once its reminder due now is claimed.

    Only the latest reminder due is sent: after a downtime the earlier ones are pointless.
    """
    if h.state == HiringState.HOURS_SENT:
        return h.reminders_sent + 1, None
    sent = max(h.reminders_sent + 1, hiring_lifecycle.reminders_passed(h.inicio_em, h.reminders_sent, now))
    after = Hiring.model_construct(**{**h.model_dump(), "reminders_sent": sent})
    return sent, hiring_lifecycle.remind_at(h.state, after)


def _reminder(h: Hiring, now: datetime, title: str) -> Notice | None:
    """The notice of a claimed reminder; None when a downtime made it come after what it warns about."""
    if h.state == HiringState.HOURS_SENT:
        if why := hiring_rules.hours_need_company(h):
            text = f'As horas do turno "{title}" estão {WAITING_WHY[why]} e aguardam sua aprovação: aprove ou ajuste.'
            return Notice(h.company_id, NotificationType.SHIFT, text, routes.NoticeTarget.COMPANY_SHIFTS)
        if h.due_at is not None and h.due_at <= now:
            return None
        return Notice(
            h.company_id,
            NotificationType.SHIFT,
            f'Faltam 6 horas para a aprovação automática das horas do turno "{title}".',
            routes.NoticeTarget.COMPANY_SHIFTS,
        )
    if h.inicio_em <= now:
        return None
    return Notice(
        h.freelancer_id,
        NotificationType.SHIFT,
        f'Lembrete: seu turno "{title}" começa {when(h)}.',
        routes.NoticeTarget.FREELANCER_SHIFTS,
    )


def move_due(now: datetime, scope: Callable, batch: int, how: Pace) -> int:
    """The tick's first step: move every hiring whose deadline is at or before `now`; how many moved."""
    return _drain(scope, Hiring.due_at, now, batch, how, _each(_advance))


def remind_due(now: datetime, scope: Callable, batch: int, how: Pace) -> int:
    """The tick's second step: send the reminders due at `now`; how many went out."""
    return _drain(scope, Hiring.remind_at, now, batch, how, _remind_chunk)
