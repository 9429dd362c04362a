"""One row per hiring action (services/shifts/hiring_actions.py), in step with the state table."""

import re
from collections import defaultdict

from core import shift_rules as rules
from models import Actor, HiringState
from services.shifts import hiring_rules, shifts
from services.shifts.hiring_actions import (
    BUTTONS,
    CATALOG,
    STATE_ROWS,
    WHO,
    HiringAction,
    done_text,
    state_label,
    state_tone,
)


def _rule_actors() -> dict[str, set]:
    found = defaultdict(set)
    for rule in hiring_rules.RULES:
        found[rule.action] |= set(rule.actors)
    return found


def test_every_action_of_the_state_table_has_a_row_naming_the_same_actors():
    table = _rule_actors()

    assert {action: set(CATALOG[HiringAction(action)].actors) for action in table} == table


def test_every_action_a_person_asks_for_has_a_handler_and_a_toast():
    asked = set(shifts._HANDLERS)

    assert asked == {a for a, row in CATALOG.items() if row.button} | {HiringAction.DECIDE}
    assert all(CATALOG[HiringAction(a)].success for a in asked)


def test_the_timer_has_a_reason_for_each_deadline_step_and_only_for_its_own_steps():
    timer_only = {a for a, actors in _rule_actors().items() if actors == {Actor.TIMER}}
    deadline_steps = set(hiring_rules.TIMER_ACTIONS.values()) | {"sem_registro"}
    with_reason = {a for a, row in CATALOG.items() if row.timer_reason}

    assert deadline_steps <= with_reason <= timer_only


def test_deadlines_in_texts_come_from_the_rules():
    texts = [t for row in CATALOG.values() for t in (row.to_company, row.to_freelancer, row.timer_reason)]
    hours = {f"{int(w.total_seconds() // 3600)} horas" for w in (rules.CONTEST_WINDOW, rules.ADJUSTMENT_WINDOW)}

    assert [t for t in texts if "em até" in t and not any(h in t for h in hours)] == []
    assert "{titulo}" in CATALOG[HiringAction.NO_SHOW].to_freelancer  # the f-string kept the word


def test_one_name_for_each_actor_on_every_timeline():
    assert WHO[Actor.TIMER] == "Turno (automático)"
    assert set(WHO) == set(Actor)


def test_an_acceptance_waiting_for_payment_says_so_and_unknown_actions_are_blank():
    assert done_text("aceitar", HiringState.AWAITING_PAYMENT) == "Candidatura aceita: aguardando pagamento"
    assert done_text("aceitar", HiringState.SCHEDULED) == "Candidatura aceita: turno agendado"
    assert done_text("nada") == ""


def test_buttons_are_the_card_labels_people_click():
    assert BUTTONS[HiringAction.APPROVE] == "Aprovar horas"
    assert all(re.match(r"^[A-ZÁÉÍÓÚÂÊÔÃÕÇ]", label) for label in BUTTONS.values())


def test_every_state_has_one_row_with_its_label_and_badge_colour():
    assert set(STATE_ROWS) == set(HiringState)
    assert (state_label(HiringState.DISPUTED), state_tone(HiringState.DISPUTED)) == ("Em disputa", "red")
    assert (state_label("nada"), state_tone("nada")) == ("nada", "gray")
