"""The shift loop's timer (services/shifts/shift_timer.py `tick`) with a fake clock, on SQLite and PostgreSQL.

Each hiring comes from services.shifts.application_answers.accept; the clock is the `now` passed to each tick
(never a sleep). A deadline is met at its exact second, not one before; a second tick at the same
moment does nothing; a tick after a downtime takes every missed step at its own deadline.
"""

from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlmodel import select

import core.db
from core.db import get_engine
from models import Falta
from services.shifts.shift_timer import CHUNK, SQLITE_CHUNK
from services.shifts.shifts import when
from services.timer import trust_steps
from services.timer.clock import TIMER_LOCK_KEY, TickReport, tick, tick_alone
from tests.support.factories import make_cast, make_freelancer
from tests.support.shift_helpers import (
    MIN,
    SEC,
    H,
    by_company,
    by_freelancer,
    event_rows,
    events,
    hire,
    hiring,
    notices,
    shift_start,
)


@pytest.fixture
def cast(db):
    return make_cast(db)


def steps(db, hiring_id) -> list[tuple]:
    """(action, actor, from, to, at) of each event after the acceptance."""
    return [(e.action, e.actor, e.from_state, e.to_state, e.at) for e in event_rows(db, hiring_id)[1:]]


def test_an_unconfirmed_shift_is_marked_at_i_minus_12_hours_not_a_second_before(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    deadline = s.start - 12 * H

    assert tick(deadline - SEC).moved == 0
    assert hiring(db, s.hiring_id).state == "agendada"

    assert tick(deadline) == TickReport(1, 0)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.version, h.due_at) == ("nao_confirmada", 2, s.end + 12 * H)
    assert steps(db, s.hiring_id) == [("nao_confirmou", "sistema", "agendada", "nao_confirmada", deadline)]
    assert event_rows(db, s.hiring_id)[-1].actor_id is None
    assert notices(db, cast.company.id) == [
        f'O turno "Garçom" de {when(h)} ainda não foi confirmado. Você pode cancelar sem custo.'
    ]
    assert notices(db, cast.freelancer.id)[-1] == f'Confirme sua presença no turno "Garçom" de {when(h)}.'
    assert tick(deadline) == TickReport(0, 0)


@pytest.mark.parametrize("confirmed", [True, False])
def test_no_record_at_f_plus_12_hours_is_a_no_show_with_three_falta_points(db, cast, confirmed):
    s = hire(db, cast.company, cast.freelancer)
    if confirmed:
        by_freelancer(db, s, "confirmar", s.start - 40 * H)
    tick(s.start - 12 * H)
    deadline = s.end + 12 * H

    assert tick(deadline - SEC).moved == 0
    assert tick(deadline).moved == 1

    h = hiring(db, s.hiring_id)
    assert (h.state, h.terminou_em, h.due_at, h.remind_at) == ("nao_compareceu", deadline, None, None)
    left = "confirmada" if confirmed else "nao_confirmada"
    assert steps(db, s.hiring_id)[-1] == ("sem_registro", "sistema", left, "nao_compareceu", deadline)
    [falta] = db.exec(select(Falta)).all()
    assert (falta.freelancer_id, falta.hiring_id, falta.pontos, falta.motivo, falta.created_at) == (
        cast.freelancer.id,
        s.hiring_id,
        3,
        "nao_compareceu",
        deadline,
    )
    assert falta.suspende_ate == deadline + timedelta(days=14)
    assert (
        notices(db, cast.company.id)[-1] == 'Nenhum registro de chegada no turno "Garçom": marcado como não compareceu.'
    )
    assert notices(db, cast.freelancer.id)[-1] == (
        'Sem registro de chegada no turno "Garçom": marcado como não compareceu. Você pode contestar em até 48 horas.'
    )
    assert tick(deadline + H).moved == 0


def test_a_shift_without_exit_ends_at_f_plus_4_hours_and_its_hours_go_from_the_records_at_f_plus_12(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "confirmar", s.start - 40 * H)
    by_freelancer(db, s, "chegada", s.start + 10 * MIN, method="manual")

    assert tick(s.end + 4 * H - SEC).moved == 0
    assert tick(s.end + 4 * H).moved == 1
    h = hiring(db, s.hiring_id)
    assert (h.state, h.terminou_em, h.saida_em, h.due_at) == ("encerrada", s.end, None, s.end + 12 * H)
    assert notices(db, cast.freelancer.id)[-1] == 'Sua saída do turno "Garçom" não foi registrada. Envie suas horas.'

    assert tick(s.end + 12 * H - SEC).moved == 0
    assert tick(s.end + 12 * H).moved == 1
    h = hiring(db, s.hiring_id)
    sent = s.end + 12 * H
    assert (h.state, h.minutos_enviados, h.horas_enviadas_em) == ("horas_enviadas", 410, sent)  # 8 h - 10 min - break
    assert (h.due_at, h.remind_at) == (sent + 48 * H, sent + 42 * H)
    assert notices(db, cast.company.id)[-1] == 'Horas do turno "Garçom" enviadas a partir dos registros: 6h50.'

    assert tick(sent + 48 * H - SEC) == TickReport(0, 1)  # the company reminder went at +42 h
    assert tick(sent + 48 * H) == TickReport(1, 0)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos, h.due_at, h.remind_at) == (
        "aprovada",
        410,
        20500,
        None,
        None,
    )
    assert [step[0] for step in steps(db, s.hiring_id)] == [
        "confirmar",
        "chegada",
        "saida_nao_registrada",
        "horas_pelos_registros",
        "aprovacao_automatica",
    ]
    assert [step[4] for step in steps(db, s.hiring_id)][2:] == [s.end + 4 * H, sent, sent + 48 * H]
    assert notices(db, cast.freelancer.id)[-1] == 'Horas do turno "Garçom" aprovadas: 6h50 = R$ 205,00.'
    assert notices(db, cast.company.id)[-1] == 'As horas do turno "Garçom" foram aprovadas automaticamente: R$ 205,00.'


def _hours_sent(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "confirmar", s.start - 40 * H)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")  # 8 h less the 1 h break, as scheduled
    return s, s.end + H


def test_hours_sent_are_approved_48_hours_after_sending(db, cast):
    s, sent = _hours_sent(db, cast)

    assert tick(sent + 48 * H - SEC).moved == 0
    assert tick(sent + 48 * H).moved == 1

    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 420, 21000)
    assert steps(db, s.hiring_id)[-1] == (
        "aprovacao_automatica",
        "sistema",
        "horas_enviadas",
        "aprovada",
        sent + 48 * H,
    )


def test_an_adjustment_is_accepted_48_hours_after_it_was_proposed(db, cast):
    s, sent = _hours_sent(db, cast)
    adjusted = sent + 10 * H
    by_company(db, s, "ajustar", adjusted, hours="7:30", reason="Intervalo maior que o combinado.")

    assert tick(sent + 48 * H).moved == 0  # the approval deadline of the hours sent no longer counts
    assert tick(adjusted + 48 * H - SEC).moved == 0
    assert tick(adjusted + 48 * H).moved == 1

    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 450, 22500)
    assert steps(db, s.hiring_id)[-1] == (
        "ajuste_aceito_automaticamente",
        "sistema",
        "ajuste_proposto",
        "aprovada",
        adjusted + 48 * H,
    )
    assert notices(db, cast.freelancer.id)[-1] == 'Horas do turno "Garçom" aprovadas: 7h30 = R$ 225,00.'


def test_a_second_tick_at_the_same_moment_moves_and_reminds_nothing(db, cast):
    hirings = [hire(db, cast.company, cast.freelancer), hire(db, cast.company, cast.other)]
    now = hirings[0].start - 12 * H

    first = tick(now)
    assert first.moved == 2
    assert first.reminded == 2  # the I - 24 h reminders
    before = [(events(db, s.hiring_id), hiring(db, s.hiring_id).version) for s in hirings]
    told = notices(db, cast.freelancer.id) + notices(db, cast.company.id)

    assert tick(now) == TickReport(0, 0)
    assert tick(now - H) == TickReport(0, 0)
    assert [(events(db, s.hiring_id), hiring(db, s.hiring_id).version) for s in hirings] == before
    assert notices(db, cast.freelancer.id) + notices(db, cast.company.id) == told


def test_after_a_downtime_every_missed_step_is_taken_at_its_own_deadline(db, cast):
    s = hire(db, cast.company, cast.freelancer)

    report = tick(s.end + timedelta(days=3))

    assert report == TickReport(2, 0)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.version, h.terminou_em, h.due_at, h.remind_at) == (
        "nao_compareceu",
        3,
        s.end + 12 * H,
        None,
        None,
    )
    assert steps(db, s.hiring_id) == [
        ("nao_confirmou", "sistema", "agendada", "nao_confirmada", s.start - 12 * H),
        ("sem_registro", "sistema", "nao_confirmada", "nao_compareceu", s.end + 12 * H),
    ]
    assert db.exec(select(Falta.pontos, Falta.created_at)).all() == [(3, s.end + 12 * H)]
    assert notices(db, cast.freelancer.id) == [
        f'Confirme sua presença no turno "Garçom" de {when(h)}.',
        'Sem registro de chegada no turno "Garçom": marcado como não compareceu. Você pode contestar em até 48 horas.',
    ]


def test_the_freelancer_is_reminded_at_i_minus_24_and_i_minus_2_hours_once_each(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "confirmar", s.start - 40 * H)
    reminder = f'Lembrete: seu turno "Garçom" começa {when(hiring(db, s.hiring_id))}.'

    assert tick(s.start - 24 * H - SEC).reminded == 0
    assert tick(s.start - 24 * H).reminded == 1
    assert tick(s.start - 24 * H).reminded == 0
    assert tick(s.start - 2 * H - SEC).reminded == 0
    assert tick(s.start - 2 * H).reminded == 1
    assert tick(s.start - H).reminded == 0

    assert notices(db, cast.freelancer.id) == [reminder, reminder]
    h = hiring(db, s.hiring_id)
    assert (h.reminders_sent, h.remind_at, h.state) == (2, None, "confirmada")


def test_after_a_downtime_only_the_latest_reminder_goes(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "confirmar", s.start - 40 * H)

    assert tick(s.start - H) == TickReport(0, 1)
    assert tick(s.start - H) == TickReport(0, 0)

    assert len(notices(db, cast.freelancer.id)) == 1
    h = hiring(db, s.hiring_id)
    assert (h.reminders_sent, h.remind_at) == (2, None)


def test_the_company_is_reminded_six_hours_before_the_automatic_approval(db, cast):
    s, sent = _hours_sent(db, cast)
    before = len(notices(db, cast.company.id))

    assert tick(sent + 42 * H - SEC) == TickReport(0, 0)
    assert tick(sent + 42 * H) == TickReport(0, 1)
    assert tick(sent + 43 * H) == TickReport(0, 0)

    assert notices(db, cast.company.id)[before:] == [
        'Faltam 6 horas para a aprovação automática das horas do turno "Garçom".'
    ]
    assert hiring(db, s.hiring_id).remind_at is None


def test_an_approval_before_the_reminder_cancels_it(db, cast):
    s, sent = _hours_sent(db, cast)
    by_company(db, s, "aprovar", sent + 5 * H)
    before = len(notices(db, cast.company.id))

    assert tick(sent + 50 * H) == TickReport(0, 0)
    assert len(notices(db, cast.company.id)) == before


def test_a_paced_tick_rests_after_each_chunk_as_long_as_it_took(db, cast, monkeypatch):
    monkeypatch.setattr(trust_steps, "STEPS", ())  # their rests are the next test's
    start = shift_start()
    shifts = [hire(db, cast.company, make_freelancer(db), start=start) for _ in range(8)]  # one shift each
    per_chunk = CHUNK if db.get_bind().dialect.name == "postgresql" else SQLITE_CHUNK
    rests: list[float] = []

    report = tick(shifts[0].start - 12 * H, pace=1.0, sleep=rests.append, workers=1)

    assert report == TickReport(8, 8)  # 'nao_confirmou' and the I - 24 h reminder of each
    assert len(rests) == 2 * -(-8 // per_chunk)  # one rest per chunk, moves and reminders
    assert all(rest > 0 for rest in rests)
    assert {hiring(db, s.hiring_id).state for s in shifts} == {"nao_confirmada"}


def test_a_paced_tick_rests_after_each_transaction_of_the_trust_steps(db, cast, monkeypatch):
    def three_transactions(now, scope) -> int:
        for _ in range(3):
            with scope() as session:
                session.execute(text("SELECT 1"))
        return 3

    monkeypatch.setattr(trust_steps, "STEPS", (three_transactions,))
    db.commit()  # the cast's rows: the tick's own transactions write beside this session
    rests: list[float] = []

    assert tick(shift_start(), pace=2.0, sleep=rests.append) == TickReport(0, 0)  # no hiring is due
    assert len(rests) == 3 and all(rest > 0 for rest in rests)
    rests.clear()
    assert tick(shift_start(), sleep=rests.append) == TickReport(0, 0)
    assert rests == []  # unpaced: the steps get the plain scope


def test_an_unpaced_tick_never_rests(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    rests: list[float] = []

    assert tick(s.start - 12 * H, sleep=rests.append) == TickReport(1, 1)
    assert rests == []


def test_tick_alone_waits_for_no_one_on_sqlite_and_skips_while_another_timer_holds_postgresql(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 12 * H
    engine = get_engine()
    if engine.dialect.name != "postgresql":
        assert tick_alone(now, pace=0) == TickReport(1, 1)
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as other:
        other.execute(text("SELECT pg_advisory_lock(:key)"), {"key": TIMER_LOCK_KEY})
        assert tick_alone(now, pace=0) is None  # another server's timer process is ticking
        assert hiring(db, s.hiring_id).state == "agendada"
        other.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": TIMER_LOCK_KEY})

    assert tick_alone(now, pace=0) == TickReport(1, 1)
    assert hiring(db, s.hiring_id).state == "nao_confirmada"
    assert tick_alone(now, pace=0) == TickReport(0, 0)  # the lock was released after the tick


def test_a_hiring_that_meets_a_busy_database_waits_for_the_next_tick_with_a_one_line_warning(db, cast, caplog):
    """SQLite answers 'database is locked' to a write while a request writes: the timer yields, no traceback."""
    from sqlalchemy.exc import OperationalError

    from services.shifts import shift_timer

    def step(_db, hiring_id, _now, _titles) -> bool:
        if hiring_id == 1:
            raise OperationalError("UPDATE hirings", {}, Exception("database is locked"))
        if hiring_id == 2:
            raise OperationalError("UPDATE hirings", {}, Exception("disk I/O error"))
        return True

    db.commit()
    with caplog.at_level("WARNING", logger="services.shifts.shift_timer"):
        outcome = shift_timer._chunk(core.db.session_scope, [1, 2, 3], shift_start(), shift_timer._each(step))

    assert outcome == {1: False, 2: False, 3: True}
    busy, failed = caplog.records
    assert (busy.levelname, busy.getMessage(), busy.exc_info) == (
        "WARNING",
        "shift timer: hiring 1 waits for SQLite's write lock; the next tick tries again",
        None,
    )
    assert failed.levelname == "ERROR" and failed.exc_info is not None  # any other failure keeps its traceback
    assert failed.getMessage() == "shift timer: hiring 2 could not move; the next tick tries again"


def _due_reminders(db, cast, count: int) -> list:
    """`count` hirings of `count` freelancers (the cast's two first) whose I - 24 h reminder is due at start - 24 h.

    One hiring each: a freelancer holds one shift at a time (services/shifts/overlaps.py).
    """
    start = shift_start()
    people = [cast.freelancer, cast.other, *(make_freelancer(db) for _ in range(count - 2))]
    return [hire(db, cast.company, f, start=start) for f in people]


@pytest.mark.parametrize("count", [2, 8])
def test_a_chunk_of_reminders_takes_the_same_statements_whatever_its_size(db, cast, count):
    """Read, claim and notices: a chunk of 8 sends what a chunk of 2 sends (not a savepoint and 8 statements each)."""
    from services.shifts import shift_timer
    from tests.support.sql_log import sent_statements

    shifts = _due_reminders(db, cast, count)
    db.commit()
    with sent_statements(db.get_bind()) as sent:
        outcome = shift_timer._chunk(
            core.db.session_scope,
            [s.hiring_id for s in shifts],
            shifts[0].start - 24 * H,
            shift_timer._remind_chunk,
        )

    assert outcome == dict.fromkeys((s.hiring_id for s in shifts), True)
    work = [s for s in sent if not s.startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
    assert [s.split()[0] for s in work] == [
        "SELECT",
        "UPDATE",
        "SELECT",
        "INSERT",
        "INSERT",
    ]  # read, claim, recipients, notices, e-mails
    assert [len(notices(db, s.freelancer.id)) for s in shifts] == [1] * count


def test_a_reminder_that_fails_is_retried_alone_and_the_chunk_s_others_go(db, cast, monkeypatch, caplog):
    from services.shifts import shift_timer

    shifts = _due_reminders(db, cast, 4)
    broken = shifts[1].hiring_id
    made = shift_timer._reminder

    def reminder(h, now, title):
        if h.id == broken:
            raise RuntimeError("a notice that cannot be written")
        return made(h, now, title)

    monkeypatch.setattr(shift_timer, "_reminder", reminder)
    with caplog.at_level("WARNING", logger="services.shifts.shift_timer"):
        report = tick(shifts[0].start - 24 * H, workers=1)

    assert report.reminded == 3
    h = hiring(db, broken)
    assert (h.reminders_sent, h.remind_at) == (0, shifts[1].start - 24 * H)  # its claim was rolled back
    assert all(hiring(db, s.hiring_id).reminders_sent == 1 for s in shifts if s.hiring_id != broken)
    assert [r.getMessage() for r in caplog.records] == [
        "shift timer: a chunk of 4 reminders failed; trying them one at a time",
        f"shift timer: hiring {broken} could not be reminded; the next tick tries again",
    ]


def test_a_hiring_changed_after_the_chunk_read_it_is_not_claimed_nor_reminded(db, cast, monkeypatch):
    """The claim holds only where `remind_at` is still what was read (a person's move in between changes it)."""
    from sqlalchemy import update
    from sqlalchemy.orm import object_session

    from models import Hiring
    from services.shifts import shift_timer

    shifts = _due_reminders(db, cast, 2)
    moved, kept = shifts[0].hiring_id, shifts[1].hiring_id
    now = shifts[0].start - 24 * H
    planned = shift_timer._next_reminder

    def next_reminder(h, when_):
        if h.id == moved:  # a person's step lands between the read and the claim
            object_session(h).execute(
                update(Hiring)
                .where(Hiring.id == moved)
                .values(remind_at=now + MIN)
                .execution_options(synchronize_session=False)
            )
        return planned(h, when_)

    monkeypatch.setattr(shift_timer, "_next_reminder", next_reminder)
    db.commit()
    outcome = shift_timer._chunk(core.db.session_scope, [moved, kept], now, shift_timer._remind_chunk)

    assert outcome == {moved: False, kept: True}
    assert (hiring(db, moved).reminders_sent, hiring(db, moved).remind_at) == (0, now + MIN)
    assert len(notices(db, cast.freelancer.id)) == 0
    assert len(notices(db, cast.other.id)) == 1
