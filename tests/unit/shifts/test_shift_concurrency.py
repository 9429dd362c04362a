"""Many requests and timer workers at once on one hiring: each step happens once (SQLite and PostgreSQL).

As in tests/unit/shifts/test_hiring_concurrency.py, 32 threads line up on a barrier, each in its own
session (`session_scope` on an engine with a connection for every thread), then act together. The
`version` condition of services/shifts/hiring_lifecycle.py lets exactly one of them move the hiring; the
others are refused (or find nothing left to do) and leave no event, notice or falta behind.
"""

import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlmodel import Session, select

import core.db
from models import Falta, Notification
from services.common.errors import ServiceError
from services.shifts import shifts
from services.shifts.hiring_lifecycle import STALE
from services.shifts.shifts import Outcome
from services.timer import clock
from tests.support.factories import make_cast, make_freelancer
from tests.support.shift_helpers import MIN, H, by_freelancer, events, hire, hiring, notices, shift_start

THREADS = 32
NOT_NOW = "Esta ação não está disponível para este turno agora."


@pytest.fixture
def cast(db):
    return make_cast(db)


@pytest.fixture
def wide(db):
    """An engine on the test database with a connection for each thread."""
    engine = core.db.make_engine(db.get_bind().url.render_as_string(hide_password=False), connections=THREADS + 2)
    yield engine
    engine.dispose()


def at_once(engine, calls: list[Callable[[Session], object]]) -> list[object]:
    """Run each call in its own thread and session at the same moment; results or exceptions, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            with core.db.session_scope(engine) as session:
                session.connection()
                barrier.wait(timeout=60)
                results[index] = calls[index](session)
        except Exception as exc:  # noqa: BLE001  (the test inspects what each request got)
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return results


def act(user_id: int, role: str, hiring_id: int, action: str, now, **data) -> Callable[[Session], object]:
    return lambda session: shifts.act(session, user_id, role, hiring_id, action, data, now)


def refusals(results: list[object]) -> list[object]:
    return [r for r in results if not isinstance(r, Outcome)]


def test_thirty_two_confirmations_at_once_confirm_once(db, cast, wide):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 30 * H

    results = at_once(wide, [act(cast.freelancer.id, "freelancer", s.hiring_id, "confirmar", now)] * THREADS)

    assert [r for r in results if isinstance(r, Outcome)] == [Outcome(True, "Presença confirmada")]
    assert all(isinstance(r, ServiceError) and r.message in (STALE, NOT_NOW) for r in refusals(results)), results
    db.expire_all()
    h = hiring(db, s.hiring_id)
    assert (h.state, h.version) == ("confirmada", 2)
    assert [e[0] for e in events(db, s.hiring_id)] == ["aceitar", "confirmar"]
    assert len(notices(db, cast.company.id)) == 1


def test_the_company_approving_while_the_timer_approves_at_the_deadline_approves_once(db, cast, wide):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")
    deadline = s.end + H + 48 * H

    def ticker(session):
        return clock.tick(deadline, scope=lambda: core.db.session_scope(wide))

    calls = [act(cast.company.id, "client", s.hiring_id, "aprovar", deadline), ticker] * (THREADS // 2)
    results = at_once(wide, calls)

    approvals = [e for e in events(db, s.hiring_id) if e[4] == "aprovada"]
    assert len(approvals) == 1
    assert approvals[0][0] in ("aprovar", "aprovacao_automatica")
    company_wins = [r for r in results if isinstance(r, Outcome)]
    timer_moves = sum(r.moved for r in results if isinstance(r, clock.TickReport))
    assert len(company_wins) + timer_moves == 1
    assert all(isinstance(r, ServiceError | clock.TickReport) for r in refusals(results)), results
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos, h.version) == ("aprovada", 420, 21000, 5)
    assert [n for n in notices(db, cast.freelancer.id) if "aprovadas" in n] == [
        'Horas do turno "Garçom" aprovadas: 7h00 = R$ 210,00.'
    ]
    assert [n for n in notices(db, cast.company.id) if n.startswith("Faltam 6 horas")] == []


def test_a_cancellation_and_an_arrival_at_once_leave_exactly_one_of_them(db, cast, wide):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 30 * MIN

    calls = [
        act(cast.company.id, "client", s.hiring_id, "cancelar", now),
        act(cast.freelancer.id, "freelancer", s.hiring_id, "chegada", now, method="manual"),
    ] * (THREADS // 2)
    results = at_once(wide, calls)

    assert len([r for r in results if isinstance(r, Outcome)]) == 1
    steps = events(db, s.hiring_id)[1:]
    assert len(steps) == 1
    h = hiring(db, s.hiring_id)
    assert (steps[0][0], h.state) in {("cancelar", "cancelada_empresa"), ("chegada", "em_andamento")}
    assert h.version == 2
    if h.state == "cancelada_empresa":
        assert (h.taxa_cancelamento_centavos, h.chegada_em) == (12000, None)
    else:
        assert (h.taxa_cancelamento_centavos, h.chegada_metodo) == (0, "manual")
    told = notices(db, cast.freelancer.id) + notices(db, cast.company.id)
    assert len(told) == 1


def test_thirty_two_ticks_at_once_move_each_due_hiring_once(db, cast, wide):
    start = shift_start()
    end = start + 8 * H
    now = end + timedelta(days=3)
    missed = hire(db, cast.company, cast.freelancer, start=start)  # agendada: 2 steps, a no-show
    forgotten = hire(db, cast.company, cast.other, start=start)  # in progress without exit: 3 steps
    by_freelancer(db, forgotten, "confirmar", start - 40 * H)
    by_freelancer(db, forgotten, "chegada", start, method="manual")
    sent = hire(db, cast.company, make_freelancer(db, nome="Bia Lima"), start=start)  # hours sent: 1 step
    by_freelancer(db, sent, "chegada", start, method="manual")
    by_freelancer(db, sent, "saida", end, method="manual")
    by_freelancer(db, sent, "enviar_horas", end + H, hours="6:45")  # within the schedule: the timer may approve
    later = hire(db, cast.company, make_freelancer(db, nome="Caio Reis"), start=now + 20 * H)  # a reminder only
    before = {s.hiring_id: len(events(db, s.hiring_id)) for s in (missed, forgotten, sent, later)}

    def ticker(session):
        return clock.tick(now, scope=lambda: core.db.session_scope(wide))

    results = at_once(wide, [ticker] * THREADS)

    assert all(isinstance(r, clock.TickReport) for r in results), results
    assert sum(r.moved for r in results) == 6
    assert sum(r.reminded for r in results) == 1
    added = {
        s.hiring_id: [e[0] for e in events(db, s.hiring_id)[before[s.hiring_id] :]]
        for s in (missed, forgotten, sent, later)
    }
    assert added == {
        missed.hiring_id: ["nao_confirmou", "sem_registro"],
        forgotten.hiring_id: ["saida_nao_registrada", "horas_pelos_registros", "aprovacao_automatica"],
        sent.hiring_id: ["aprovacao_automatica"],
        later.hiring_id: [],
    }
    assert [hiring(db, s.hiring_id).state for s in (missed, forgotten, sent, later)] == [
        "nao_compareceu",
        "aprovada",
        "aprovada",
        "agendada",
    ]
    assert db.exec(select(Falta.hiring_id, Falta.pontos)).all() == [(missed.hiring_id, 3)]
    messages = db.exec(select(Notification.user_id, Notification.message).where(Notification.type == "shift")).all()
    assert [m for m, n in Counter(messages).items() if n > 1] == []
    assert hiring(db, forgotten.hiring_id).minutos_aprovados == 420
    assert clock.tick(now) == clock.TickReport(0, 0)
