"""The state table of a hiring (services/shifts/hiring_lifecycle.py): every allowed move, every refused one.

Hirings are written in a given state straight into the table (as the migration or an earlier step
would have left them) and moved with `hiring_lifecycle.move` at explicit times (a fake clock). Each
test runs on SQLite and on PostgreSQL (the `db` fixture). The allowed moves are written out here
by hand from docs/product/shifts.md "Turnos" (the state table) and compared with `RULES`, so a change of
the table shows up as a failing test, not as a silently different product.
"""

import ast
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, func, select

import core.db
from models import Actor, Hiring, HiringEvent, HiringState
from services.shifts import hiring_lifecycle, hiring_rules
from services.shifts.hiring_lifecycle import STALE, HiringMoveRefused, move
from services.shifts.hiring_rules import RULES, TIMER_ACTIONS
from tests.support.factories import make_application, make_company, make_freelancer, make_job

ROOT = Path(__file__).resolve().parents[3]
S = HiringState
E, P, T, TIMER = Actor.COMPANY, Actor.FREELANCER, Actor.STAFF, Actor.TIMER
H = timedelta(hours=1)
MIN = timedelta(minutes=1)
SEC = timedelta(seconds=1)

START = datetime(2031, 5, 12, 13, 0, tzinfo=UTC)  # I
END = START + 8 * H  # F
HIRED = START - timedelta(days=5)
SCHEDULED = (S.SCHEDULED, S.CONFIRMED, S.UNCONFIRMED)

# docs/product/shifts.md "Turnos", §2, as (action, from, actor, to): what each side may do in each state.
SPEC = {
    ("confirmar", S.SCHEDULED, P, S.CONFIRMED),
    ("confirmar", S.UNCONFIRMED, P, S.CONFIRMED),  # a late confirmation is still welcome
    ("nao_confirmou", S.SCHEDULED, TIMER, S.UNCONFIRMED),
    ("cancelar_sem_custo", S.UNCONFIRMED, E, S.CANCELLED_BY_COMPANY),
    *{("cancelar", state, P, S.CANCELLED_BY_FREELANCER) for state in SCHEDULED},
    *{("cancelar", state, E, S.CANCELLED_BY_COMPANY) for state in SCHEDULED},
    *{("chegada", state, actor, S.IN_PROGRESS) for state in SCHEDULED for actor in (P, E)},
    ("saida", S.IN_PROGRESS, P, S.ENDED),
    ("dispensar", S.IN_PROGRESS, E, S.ENDED),
    ("saida_nao_registrada", S.IN_PROGRESS, TIMER, S.ENDED),
    ("enviar_horas", S.ENDED, P, S.HOURS_SENT),
    ("horas_pelos_registros", S.ENDED, TIMER, S.HOURS_SENT),
    ("aprovar", S.HOURS_SENT, E, S.APPROVED),
    ("aprovacao_automatica", S.HOURS_SENT, TIMER, S.APPROVED),
    ("ajustar", S.HOURS_SENT, E, S.ADJUSTMENT),
    ("aceitar_ajuste", S.ADJUSTMENT, P, S.APPROVED),
    ("contestar_ajuste", S.ADJUSTMENT, P, S.DISPUTED),
    ("ajuste_aceito_automaticamente", S.ADJUSTMENT, TIMER, S.APPROVED),
    *{("nao_compareceu", state, E, S.NO_SHOW) for state in SCHEDULED},
    *{("sem_registro", state, TIMER, S.NO_SHOW) for state in SCHEDULED},
    ("contestar_falta", S.NO_SHOW, P, S.DISPUTED),
    ("decidir_aprovar", S.DISPUTED, T, S.APPROVED),
    ("decidir_falta", S.DISPUTED, T, S.NO_SHOW),
    ("marcar_pago", S.APPROVED, E, S.PAID),
    ("confirmar_recebimento", S.APPROVED, P, S.PAID),
    ("marcar_pago", S.PAID, E, S.PAID),  # the other side's confirmation of a payment: recorded
    ("confirmar_recebimento", S.PAID, P, S.PAID),
    ("marcar_pago", S.CANCELLED_BY_COMPANY, E, S.CANCELLED_BY_COMPANY),  # a late cancellation's fee, settled
    ("confirmar_recebimento", S.CANCELLED_BY_COMPANY, P, S.CANCELLED_BY_COMPANY),
    # 'Pagamento garantido' (docs/product/money.md "Pagamento garantido"): the Checkout's outcome and the transfer.
    ("pagamento_confirmado", S.AWAITING_PAYMENT, TIMER, S.SCHEDULED),
    ("pagamento_expirado", S.AWAITING_PAYMENT, TIMER, S.EXPIRED),
    ("pagamento_nao_concluido", S.AWAITING_PAYMENT, TIMER, S.EXPIRED),
    ("desistir", S.AWAITING_PAYMENT, E, S.EXPIRED),
    ("aceitar_novamente", S.EXPIRED, E, S.AWAITING_PAYMENT),
    ("repasse", S.APPROVED, TIMER, S.PAID),
}
ALLOWED = {(action, source, actor): target for action, source, actor, target in SPEC}
ACTIONS = sorted({rule.action for rule in RULES})
CASES = sorted((action, str(source), str(actor)) for action, source, actor in ALLOWED)

# What a hiring in each state already recorded when it got there (as the steps before would have).
REACHED = {
    S.IN_PROGRESS: {"chegada_em": START},
    S.ENDED: {"chegada_em": START, "saida_em": END, "terminou_em": END},
    S.HOURS_SENT: {"terminou_em": END, "minutos_enviados": 420, "horas_enviadas_em": END + H},
    S.ADJUSTMENT: {
        "terminou_em": END,
        "minutos_enviados": 420,
        "horas_enviadas_em": END + H,
        "minutos_ajuste": 390,
        "ajuste_em": END + 2 * H,
    },
    S.DISPUTED: {"terminou_em": END + 12 * H},
    S.APPROVED: {"terminou_em": END, "minutos_aprovados": 420, "valor_centavos": 21000},
    S.PAID: {"terminou_em": END, "minutos_aprovados": 420, "valor_centavos": 21000, "pago_em": END + 30 * H},
    S.NO_SHOW: {"terminou_em": END + 12 * H},
    S.CANCELLED_BY_COMPANY: {"terminou_em": START - 6 * H, "taxa_cancelamento_centavos": 12000},  # late: a fee
    S.CANCELLED_BY_FREELANCER: {"terminou_em": START - 30 * H},
}


def step_values(action: str, now: datetime) -> dict:
    """The columns services/shifts/shifts.py and services/shifts/shift_timer.py record with each step."""
    return {
        "confirmar": {"confirmed_at": now},
        "cancelar": {"terminou_em": now},
        "cancelar_sem_custo": {"terminou_em": now},
        "chegada": {"chegada_em": now, "chegada_metodo": "manual", "chegada_distancia": "sem_leitura"},
        "saida": {"saida_em": now, "terminou_em": now},
        "dispensar": {"saida_em": now, "terminou_em": now, "dispensa_motivo": "atraso", "minutos_enviados": 60},
        "saida_nao_registrada": {"terminou_em": END},
        "enviar_horas": {"minutos_enviados": 420, "horas_enviadas_em": now},  # as scheduled: the timer may approve
        "horas_pelos_registros": {"minutos_enviados": 420, "horas_enviadas_em": now},
        "ajustar": {"minutos_ajuste": 390, "ajuste_motivo": "Saiu mais cedo.", "ajuste_em": now},
        "nao_compareceu": {"terminou_em": now},
        "sem_registro": {"terminou_em": now},
        "marcar_pago": {"pago_em": now},
        "confirmar_recebimento": {"recebido_em": now},
    }.get(action, {})


def new_hiring_values(application, job) -> dict:
    """What services/shifts/application_answers.py passes to `hiring_lifecycle.create` for an accepted application."""
    return {
        "application_id": application.id,
        "job_id": job.id,
        "company_id": job.cliente_id,
        "freelancer_id": application.freelancer_id,
        "inicio_em": START,
        "fim_em": END,
        "intervalo_min": 60,
        "valor_hora_centavos": 3000,
    }


def hiring_in(db: Session, state: str, **fields) -> Hiring:
    """A stored hiring of a new company and freelancer in `state`, hired five days before START."""
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company, inicio_em=START)
    application = make_application(db, job, freelancer, status="accepted")
    values = {**new_hiring_values(application, job), "created_at": HIRED, "updated_at": HIRED}
    hiring = Hiring(state=state, **{**values, **REACHED.get(state, {}), **fields})
    db.add(hiring)
    db.commit()
    return hiring


def fresh(db: Session, hiring_id: int) -> Hiring:
    return hiring_lifecycle.reread(db, hiring_id)


def events(db: Session, hiring_id: int) -> list[tuple]:
    rows = db.exec(select(HiringEvent).where(HiringEvent.hiring_id == hiring_id).order_by(HiringEvent.id)).all()
    return [(e.action, e.actor, e.actor_id, e.from_state, e.to_state, e.at) for e in rows]


def event_count(db: Session) -> int:
    return db.exec(select(func.count()).select_from(HiringEvent)).one()


def row(db: Session, hiring_id: int) -> dict:
    return fresh(db, hiring_id).model_dump()


def inside(rule: hiring_rules.Rule, h: Hiring) -> datetime:
    """A moment inside the rule's window: its opening, else a second before it closes."""
    if rule.window.opens is not None:
        return rule.window.opens(h)
    if rule.window.closes is not None:
        return rule.window.closes(h) - SEC
    return END + H


def expected_due(h: Hiring) -> datetime | None:
    """When the timer next has work with `h` (docs/product/shifts.md "Turnos", the S rows)."""
    return {
        S.AWAITING_PAYMENT: h.updated_at + 60 * MIN,
        S.SCHEDULED: h.inicio_em - 12 * H,
        S.CONFIRMED: h.fim_em + 12 * H,
        S.UNCONFIRMED: h.fim_em + 12 * H,
        S.IN_PROGRESS: h.fim_em + 4 * H,
        S.ENDED: h.fim_em + 12 * H,
        S.HOURS_SENT: h.horas_enviadas_em + 48 * H if h.horas_enviadas_em else None,
        S.ADJUSTMENT: h.ajuste_em + 48 * H if h.ajuste_em else None,
    }.get(h.state)


def expected_reminder(h: Hiring) -> datetime | None:
    """The freelancer at I - 24 h and I - 2 h; the company 6 h before the automatic approval."""
    if h.state in SCHEDULED:
        left = (24 * H, 2 * H)[h.reminders_sent :]
        return h.inicio_em - left[0] if left else None
    if h.state == S.HOURS_SENT:
        return h.horas_enviadas_em + 42 * H
    return None


# --- the table ---------------------------------------------------------------------------------


def test_the_rules_are_the_state_table_of_the_product():
    in_code = {(r.action, source, actor, r.target) for r in RULES for source in r.sources for actor in r.actors}

    assert in_code == SPEC
    # one target per (action, state, actor): nothing is ambiguous
    assert len(ALLOWED) == len(SPEC)


def test_a_company_cancellation_without_a_fee_has_nothing_to_settle(db):
    free = hiring_in(db, S.CANCELLED_BY_COMPANY, taxa_cancelamento_centavos=0)
    assert hiring_rules.allowed_actions(free, E, END) == []
    assert hiring_rules.allowed_actions(free, P, END) == []
    with pytest.raises(hiring_lifecycle.HiringMoveRefused):
        move(db, free, "marcar_pago", E, END)
    db.rollback()
    owed = hiring_in(db, S.CANCELLED_BY_COMPANY)
    assert hiring_rules.allowed_actions(owed, E, END) == ["marcar_pago"]


def test_the_timer_has_one_action_in_each_state_where_a_deadline_runs():
    assert TIMER_ACTIONS == {
        S.AWAITING_PAYMENT: "pagamento_expirado",
        S.SCHEDULED: "nao_confirmou",
        S.CONFIRMED: "sem_registro",
        S.UNCONFIRMED: "sem_registro",
        S.IN_PROGRESS: "saida_nao_registrada",
        S.ENDED: "horas_pelos_registros",
        S.HOURS_SENT: "aprovacao_automatica",
        S.ADJUSTMENT: "ajuste_aceito_automaticamente",
    }
    for state, action in TIMER_ACTIONS.items():
        assert (action, state, TIMER) in ALLOWED


@pytest.mark.parametrize(("action", "source", "actor"), CASES)
def test_each_allowed_move_reaches_its_state_once_with_one_event(db, action, source, actor):
    h = hiring_in(db, source)
    rule = hiring_rules.rule_for(action, source, actor)
    now = inside(rule, h)
    others = event_count(db)

    moved = move(db, h, action, actor, now, actor_id=h.company_id, reason="motivo", values=step_values(action, now))
    db.commit()

    after = fresh(db, h.id)
    assert moved.from_state == source
    assert after.state == ALLOWED[(action, source, actor)]
    assert after.version == 2
    assert after.updated_at == now
    assert events(db, h.id) == [(action, actor, h.company_id, source, after.state, now)]
    assert event_count(db) == others + 1
    assert after.due_at == expected_due(after)
    if after.state != source:
        assert after.remind_at == expected_reminder(after)
    for column, value in step_values(action, now).items():
        assert getattr(after, column) == value


@pytest.mark.parametrize("state", list(S))
def test_every_move_the_table_does_not_allow_is_refused_and_changes_nothing(db, state):
    h = hiring_in(db, state)
    before, count = row(db, h.id), event_count(db)
    refused = 0

    for action in ACTIONS:
        for actor in Actor:
            if (action, state, actor) in ALLOWED:
                continue
            for now in (HIRED, START - 30 * H, START, END + H, END + timedelta(days=30)):
                with pytest.raises(HiringMoveRefused) as caught:
                    move(db, h, action, actor, now, actor_id=h.company_id, values={"minutos_enviados": 1})
                assert caught.value.message == hiring_rules.NOT_NOW
                refused += 1
    db.commit()

    assert refused >= 5 * (len(ACTIONS) * len(Actor) - 9)
    assert row(db, h.id) == before
    assert event_count(db) == count


def test_an_unknown_action_is_refused(db):
    h = hiring_in(db, S.SCHEDULED)

    with pytest.raises(HiringMoveRefused):
        move(db, h, "apagar", E, START - 30 * H)
    assert events(db, h.id) == []


# --- windows -----------------------------------------------------------------------------------

CONFIRM_EARLY = "Você poderá confirmar presença a partir de 48 horas antes do início do turno."
SHIFT_STARTED = "O turno já começou: não é mais possível cancelar."
CHECK_IN_EARLY = "O registro de chegada abre 60 minutos antes do início do turno."
CHECK_IN_LATE = "O turno já terminou: use 'Não consigo registrar' ou fale com a empresa."
NO_SHOW_EARLY = "Você poderá marcar 'Não compareceu' 30 minutos após o início do turno."
HOURS_LATE = "O prazo para enviar as horas terminou; elas foram enviadas a partir dos registros."
ADJUST_LATE = "O prazo de 48 horas para ajustar estas horas terminou."
CONTEST_LATE = "O prazo de 48 horas para contestar terminou."
NOT_NOW = "Esta ação não está disponível para este turno agora."

# (state, action, actor, first allowed moment, message a second earlier)
OPENS = [
    (S.SCHEDULED, "confirmar", P, START - 48 * H, CONFIRM_EARLY),
    (S.SCHEDULED, "chegada", P, START - 60 * MIN, CHECK_IN_EARLY),
    (S.CONFIRMED, "chegada", E, START - 60 * MIN, CHECK_IN_EARLY),
    (S.CONFIRMED, "nao_compareceu", E, START + 30 * MIN, NO_SHOW_EARLY),
    (S.SCHEDULED, "nao_confirmou", TIMER, START - 12 * H, NOT_NOW),
    (S.CONFIRMED, "sem_registro", TIMER, END + 12 * H, NOT_NOW),
    (S.IN_PROGRESS, "saida_nao_registrada", TIMER, END + 4 * H, NOT_NOW),
    (S.ENDED, "horas_pelos_registros", TIMER, END + 12 * H, NOT_NOW),
    (S.HOURS_SENT, "aprovacao_automatica", TIMER, END + H + 48 * H, NOT_NOW),
    (S.ADJUSTMENT, "ajuste_aceito_automaticamente", TIMER, END + 2 * H + 48 * H, NOT_NOW),
]
# (state, action, actor, first refused moment, its message)
CLOSES = [
    (S.SCHEDULED, "confirmar", P, START, SHIFT_STARTED),
    (S.SCHEDULED, "cancelar", P, START, SHIFT_STARTED),
    (S.CONFIRMED, "cancelar", E, START, SHIFT_STARTED),
    (S.UNCONFIRMED, "cancelar_sem_custo", E, START, SHIFT_STARTED),
    (S.CONFIRMED, "chegada", P, END, CHECK_IN_LATE),
    (S.ENDED, "enviar_horas", P, END + 12 * H, HOURS_LATE),
    (S.HOURS_SENT, "ajustar", E, END + H + 48 * H, ADJUST_LATE),
    (S.ADJUSTMENT, "contestar_ajuste", P, END + 2 * H + 48 * H, CONTEST_LATE),
    (S.NO_SHOW, "contestar_falta", P, END + 12 * H + 48 * H, CONTEST_LATE),
]


@pytest.mark.parametrize(("state", "action", "actor", "opens", "message"), OPENS)
def test_a_window_opens_at_its_exact_second(db, state, action, actor, opens, message):
    h = hiring_in(db, state)

    with pytest.raises(HiringMoveRefused) as caught:
        move(db, h, action, actor, opens - SEC)
    assert caught.value.message == message
    assert events(db, h.id) == []

    moved = move(db, h, action, actor, opens, values=step_values(action, opens))
    assert moved.hiring.state == ALLOWED[(action, state, actor)]


@pytest.mark.parametrize(("state", "action", "actor", "closes", "message"), CLOSES)
def test_a_window_closes_at_its_exact_second(db, state, action, actor, closes, message):
    h = hiring_in(db, state)

    with pytest.raises(HiringMoveRefused) as caught:
        move(db, h, action, actor, closes)
    assert caught.value.message == message
    assert events(db, h.id) == []

    moved = move(db, h, action, actor, closes - SEC, values=step_values(action, closes - SEC))
    assert moved.hiring.state == ALLOWED[(action, state, actor)]


def test_the_hours_deadline_runs_from_the_scheduled_end_even_after_an_early_exit(db):
    # an exit (or a dismissal) at F - 2 h does not shorten the freelancer's window: F + 12 h
    h = hiring_in(db, S.ENDED, saida_em=END - 2 * H, terminou_em=END - 2 * H)

    assert hiring_lifecycle.due_at(S.ENDED, h) == END + 12 * H
    move(
        db,
        hiring_in(db, S.ENDED, saida_em=END - 2 * H, terminou_em=END - 2 * H),
        "enviar_horas",
        P,
        END + 10 * H,
        values={"minutos_enviados": 300, "horas_enviadas_em": END + 10 * H},
    )
    with pytest.raises(HiringMoveRefused) as caught:
        move(db, h, "enviar_horas", P, END + 12 * H)
    assert caught.value.message == HOURS_LATE


# --- deadlines and reminders along a whole loop ------------------------------------------------

LOOP = [
    ("confirmar", P, START - 30 * H),
    ("chegada", P, START - 10 * MIN),
    ("saida", P, END + 5 * MIN),
    ("enviar_horas", P, END + H),
    ("ajustar", E, END + 3 * H),
    ("aceitar_ajuste", P, END + 5 * H),
    ("marcar_pago", E, END + 30 * H),
    ("confirmar_recebimento", P, END + 31 * H),
]


def test_due_at_and_remind_at_follow_every_step_of_a_loop(db):
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company, inicio_em=START)
    application = make_application(db, job, freelancer, status="accepted")
    created = hiring_lifecycle.create(db, new_hiring_values(application, job), HIRED, company.id)
    db.commit()
    h = fresh(db, created.id)
    assert (h.state, h.version, h.due_at, h.remind_at) == (S.SCHEDULED, 1, START - 12 * H, START - 24 * H)
    assert events(db, h.id) == [("aceitar", E, company.id, "", S.SCHEDULED, HIRED)]
    seen = [(h.state, h.due_at, h.remind_at)]

    for action, actor, now in LOOP:
        h = move(db, h, action, actor, now, values=step_values(action, now)).hiring
        db.commit()
        seen.append((h.state, h.due_at, h.remind_at))
        assert h.due_at == expected_due(h)

    sent, adjusted = END + H, END + 3 * H
    assert seen == [
        (S.SCHEDULED, START - 12 * H, START - 24 * H),
        (S.CONFIRMED, END + 12 * H, START - 24 * H),
        (S.IN_PROGRESS, END + 4 * H, None),
        (S.ENDED, END + 12 * H, None),
        (S.HOURS_SENT, sent + 48 * H, sent + 42 * H),
        (S.ADJUSTMENT, adjusted + 48 * H, None),
        (S.APPROVED, None, None),
        (S.PAID, None, None),
        (S.PAID, None, None),
    ]
    assert [e[0] for e in events(db, h.id)] == ["aceitar"] + [action for action, _a, _n in LOOP]
    assert h.version == 1 + len(LOOP)


@pytest.mark.parametrize(
    ("hired_before", "reminders_sent", "remind_at", "due"),
    [
        (timedelta(days=5), 0, START - 24 * H, START - 12 * H),
        (12 * H, 1, START - 2 * H, START - 12 * H),  # hired exactly at I - 12 h: still asked to confirm
        (10 * H, 1, START - 2 * H, END + 12 * H),  # hired after I - 12 h: never 'nao_confirmada'
        (H, 2, None, END + 12 * H),
    ],
)
def test_a_hiring_created_late_skips_the_reminders_already_past(db, hired_before, reminders_sent, remind_at, due):
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company, inicio_em=START)
    values = new_hiring_values(make_application(db, job, freelancer, status="accepted"), job)

    h = hiring_lifecycle.create(db, values, START - hired_before, company.id)
    db.commit()

    h = fresh(db, h.id)
    assert (h.reminders_sent, h.remind_at, h.due_at) == (reminders_sent, remind_at, due)


# --- versions ----------------------------------------------------------------------------------


def test_a_move_on_a_stale_copy_is_refused_as_stale(db):
    h = hiring_in(db, S.SCHEDULED)
    stale = Hiring.model_construct(**h.model_dump())
    move(db, h, "confirmar", P, START - 30 * H)
    db.commit()
    before, count = row(db, h.id), event_count(db)

    with pytest.raises(HiringMoveRefused) as caught:
        move(db, stale, "cancelar", E, START - 29 * H, values={"terminou_em": START - 29 * H})
    db.rollback()

    assert caught.value.message == STALE
    assert caught.value.message == "Este turno acabou de mudar. Atualize a página e tente de novo."
    assert row(db, h.id) == before
    assert event_count(db) == count


def test_a_move_after_another_session_moved_the_hiring_is_refused_as_stale(db):
    h = hiring_in(db, S.SCHEDULED)
    mine = fresh(db, h.id)
    db.commit()

    with core.db.session_scope() as other:
        move(other, hiring_lifecycle.reread(other, h.id), "cancelar", P, START - 60 * H)

    with pytest.raises(HiringMoveRefused) as caught:
        move(db, Hiring.model_construct(**mine.model_dump()), "confirmar", P, START - 30 * H)
    db.rollback()

    assert caught.value.message == STALE
    after = fresh(db, h.id)
    assert (after.state, after.version) == (S.CANCELLED_BY_FREELANCER, 2)
    assert [e[0] for e in events(db, h.id)] == ["cancelar"]


# --- the only writer -----------------------------------------------------------------------------

SKIPPED_DIRS = {".venv", ".tools", ".web", "node_modules", ".git", "__pycache__", ".mirror"}
HIRING_TABLE = re.compile(r"\bHiring\b|_HIRINGS\b|\bhirings\b")
RAW_SQL = re.compile(r"\bupdate\s+\"?hirings\"?\b.*\bset\b.*\bstate\b", re.IGNORECASE | re.DOTALL)


def _source(node: ast.AST, _text: str = "") -> str:
    return ast.unparse(node)


def _chain(node: ast.AST):
    """The calls of a method chain, outermost first: `update(X).where(...).values(...)`."""
    while True:
        if isinstance(node, ast.Call):
            yield node
            node = node.func
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            return


def _names_state(node: ast.AST, text: str) -> bool:
    """A key or keyword that is the state column: `state=`, `"state":`, `Hiring.state:`."""
    if isinstance(node, ast.Constant):
        return node.value == "state"
    return _source(node, text).replace(" ", "") in ("Hiring.state", "_HIRINGS.c.state", "Hiring.__table__.c.state")


def _sets_state(call: ast.Call, text: str) -> bool:
    if any(kw.arg == "state" for kw in call.keywords):
        return True
    dicts = [a for a in call.args if isinstance(a, ast.Dict)]
    dicts += [kw.value for kw in call.keywords if kw.arg is None and isinstance(kw.value, ast.Dict)]
    return any(key is not None and _names_state(key, text) for d in dicts for key in d.keys)


def state_writes(text: str) -> list[tuple[int, str]]:
    """Lines of `text` that write the state of a hiring; see the test below for what counts."""
    found = []
    tree = ast.parse(text)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            parts = target.elts if isinstance(target, ast.Tuple) else [target]
            for part in parts:
                # `<hiring>.state = ...` on anything but a Reflex state's own var (`self.state`)
                if isinstance(part, ast.Attribute) and part.attr == "state" and _source(part.value, text) != "self":
                    found.append((node.lineno, _source(node, text)))
                # `values["state"] = ...` building a dict for an update
                if isinstance(part, ast.Subscript) and _names_state(part.slice, text):
                    found.append((node.lineno, _source(node, text)))
        if not isinstance(node, ast.Call):
            continue
        name = _source(node.func, text)
        if name in ("setattr", "object.__setattr__") and len(node.args) > 1 and _names_state(node.args[1], text):
            found.append((node.lineno, _source(node, text)))
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("values", "update") and _sets_state(node, text):
            calls = list(_chain(node))[1:]
            on_hirings = any(
                (_source(c.func, text).split(".")[-1] in ("update", "query") and HIRING_TABLE.search(_source(c, text)))
                for c in calls
            ) or bool(HIRING_TABLE.search(_source(node.func, text)))
            # a bare dict's `.update(state=...)` is flagged too: it is how a hand-made update is built
            if on_hirings or node.func.attr == "update":
                found.append((node.lineno, _source(node, text)))
        if isinstance(node.func, ast.Attribute) and node.func.attr == "model_copy":
            update = [kw.value for kw in node.keywords if kw.arg == "update" and isinstance(kw.value, ast.Dict)]
            if any(key is not None and _names_state(key, text) for d in update for key in d.keys):
                found.append((node.lineno, _source(node, text)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and RAW_SQL.search(node.value):
            found.append((node.lineno, node.value))
    return sorted(set(found))


WRITERS = [
    "h.state = HiringState.PAID",
    "h.version, h.state = 2, 'paga'",
    "hiring.state: str = 'paga'",
    "party.hiring.state = S.APPROVED",
    "setattr(h, 'state', 'paga')",
    "session.execute(update(Hiring).where(Hiring.id == 1).values(state='paga'))",
    "db.exec(update(Hiring).where(Hiring.id == 1).values({Hiring.state: 'paga'}))",
    "db.execute(\n    update(_HIRINGS)\n    .where(_HIRINGS.c.id == 1)\n    .values(version=2, state=target)\n)",
    "db.execute(Hiring.__table__.update().values(**{'state': 'paga'}))",
    "db.query(Hiring).filter(Hiring.id == 1).update({Hiring.state: 'paga'})",
    "db.execute(text('UPDATE " + "hirings SET version = 2, state = :s WHERE id = :i'))",  # noqa: S608 (split: the scan of this file must not see it)
    "fields['state'] = 'paga'",
    "fields.update(state='paga')",
    "h = h.model_copy(update={'state': 'paga'})",
]
NOT_WRITERS = [
    "if h.state == HiringState.PAID: pass",
    "db.exec(select(Hiring).where(Hiring.state == 'paga'))",
    "db.execute(update(Hiring).where(Hiring.state == 'agendada').values(remind_at=None))",
    "db.execute(update(_HIRINGS).values(reminders_sent=2).where(_HIRINGS.c.state == 'agendada'))",
    "draft = Hiring(state=S.SCHEDULED)",
    "self.state = 'x'",
    "reader.state['room']['status'] = 'found'",
    "row = {'state_label': 'Pago'}",
]


@pytest.mark.parametrize("code", WRITERS)
def test_the_scan_finds_each_way_of_writing_a_hiring_state(code):
    assert state_writes(code), code


@pytest.mark.parametrize("code", NOT_WRITERS)
def test_the_scan_leaves_reads_and_creation_alone(code):
    assert state_writes(code) == [], code


def python_files() -> list[Path]:
    """Every .py file of the project but the lifecycle itself, the migrations and the benchmarks."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".")]
        relative = Path(folder).relative_to(ROOT)
        if relative.parts[:2] == ("alembic", "versions"):
            continue
        if relative.parts[:1] == ("bench",):  # bulk seeding, and the bare UPDATE the tick is measured against
            continue
        found += [Path(folder) / name for name in files if name.endswith(".py")]
    return [path for path in found if path != ROOT / "services" / "shifts" / "hiring_lifecycle.py"]


def test_only_the_lifecycle_writes_a_hiring_state():
    writers, scanned = [], 0
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        scanned += 1
        if "state" not in text:
            continue
        relative = path.relative_to(ROOT)
        writers += [f"{relative}:{line}: {code.splitlines()[0]}" for line, code in state_writes(text)]

    assert scanned > 100
    assert writers == []


def test_the_lifecycle_itself_is_seen_writing_the_state():
    # the scan would see the one legitimate writer: it is skipped, not invisible
    text = (ROOT / "services" / "shifts" / "hiring_lifecycle.py").read_text(encoding="utf-8")
    assert state_writes(text)
