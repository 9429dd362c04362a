"""Issue 42 points 8 and 10 on the server: what the shift dialogs say, and what the card shows after a decision.

Leaving and sending hours before the shift begins are refused; '0:00' asks for the hours worked; the
'Aprovar horas' dialog's lines (hours, amount, records, the records flag); the cancel dialogs name the
shift; after Turno staff decides, the card shows the decided hours and the reason, not the old
'Ajuste proposto'. Each test runs on SQLite and on PostgreSQL.
"""

import pytest

from core.types import utcnow
from services.common.errors import ServiceError
from services.screens import shift_views
from tests.support.factories import make_cast
from tests.support.shift_helpers import MIN, H, by_company, by_freelancer, hire, hiring, make_staff, run


@pytest.fixture
def cast(db):
    return make_cast(db)


def _company_card(db, cast, hiring_id: int, now) -> dict:
    upcoming, history = shift_views.company_shifts(db, cast.company.id, now)
    return next(card for card in upcoming + history if card["id"] == hiring_id)


def _freelancer_card(db, cast, hiring_id: int, now) -> dict:
    upcoming, history = shift_views.freelancer_shifts(db, cast.freelancer.id, now)
    return next(card for card in upcoming + history if card["id"] == hiring_id)


def test_leaving_before_the_shift_begins_is_refused_in_plain_words_and_changes_nothing(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start - 3 * MIN, method="manual")
    before = hiring(db, s.hiring_id)
    version = before.version

    with pytest.raises(ServiceError) as refused:
        by_freelancer(db, s, "saida", s.start - 3 * MIN, method="manual")

    start = shift_views.local(s.start)
    assert refused.value.message == (
        f"O turno ainda não começou: a saída pode ser registrada a partir do início ({start:%d/%m} às {start:%H:%M})."
    )
    after = hiring(db, s.hiring_id)
    assert (after.state, after.saida_em, after.version) == ("em_andamento", None, version)
    assert by_freelancer(db, s, "saida", s.start, method="manual").ok  # from the start on, it is taken


def test_hours_sent_before_the_shift_begins_are_refused(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start - 30 * MIN, method="manual")
    by_company(db, s, "dispensar", s.start - 20 * MIN, reason="traje")  # ended before it began

    with pytest.raises(ServiceError) as refused:
        by_freelancer(db, s, "enviar_horas", s.start - 10 * MIN, hours="4:00")

    assert refused.value.message.startswith("O turno ainda não começou: as horas podem ser enviadas a partir do início")
    assert hiring(db, s.hiring_id).state == "encerrada"


def test_the_records_prefill_the_hours_and_0_00_asks_for_the_hours_worked(db, cast):
    s = hire(db, cast.company, cast.freelancer)  # 8 h with a 60-minute break
    by_freelancer(db, s, "chegada", s.start - 3 * MIN, method="manual")
    by_freelancer(db, s, "saida", s.start, method="manual")  # left the minute the shift began

    assert _freelancer_card(db, cast, s.hiring_id, s.start + MIN)["prefill"] == "0:00"
    with pytest.raises(ServiceError) as refused:
        by_freelancer(db, s, "enviar_horas", s.start + MIN, hours="0:00")
    assert refused.value.message == "Informe as horas trabalhadas."


def test_the_approval_dialog_shows_hours_amount_records_and_flags_hours_above_the_records(db, cast):
    s = hire(db, cast.company, cast.freelancer)  # R$ 30,00 an hour
    by_freelancer(db, s, "chegada", s.start - 3 * MIN, method="manual")
    by_freelancer(db, s, "saida", s.start, method="manual")
    by_freelancer(db, s, "enviar_horas", s.start + H, hours="5:30")

    card = _company_card(db, cast, s.hiring_id, s.start + 2 * H)

    lines = {line["label"]: line["value"] for line in card["approval"]}
    assert lines["Horas enviadas"] == "5h30"
    assert lines["Valor"] == "R$ 165,00 (5h30 × R$ 30,00)"
    arrival = shift_views.local(s.start - 3 * MIN)
    assert lines["Chegada"] == f"{arrival:%d/%m %H:%M} · registro manual"
    assert lines["Saída"].endswith("registro manual")
    assert "Repasse ao profissional" not in lines  # a direct payment: the company pays the freelancer
    assert card["approval_flag"] == "As horas enviadas (5h30) são maiores que o registrado (0h00)."
    assert _freelancer_card(db, cast, s.hiring_id, s.start + 2 * H)["approval"] == []  # only the company approves


def test_hours_within_the_tolerance_of_the_records_raise_no_flag_and_no_records_read_sem_registro(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:15")  # the records pay 7:00; 15 min tolerance

    assert _company_card(db, cast, s.hiring_id, s.end + 2 * H)["approval_flag"] == ""

    other = hire(db, cast.company, cast.freelancer, start=s.start + 24 * H)
    by_company(db, other, "chegada", other.start)
    by_company(db, other, "dispensar", other.start + 2 * H, reason="atraso")
    by_freelancer(db, other, "enviar_horas", other.start + 3 * H, hours="2:00")
    lines = {line["label"]: line["value"] for line in _company_card(db, cast, other.hiring_id, other.start)["approval"]}
    assert lines["Chegada"].endswith("pela empresa")


def test_cancel_dialogs_name_the_shift(db, cast):
    s = hire(db, cast.company, cast.freelancer, title="Garçom para almoço")
    now = utcnow()

    for card in (_company_card(db, cast, s.hiring_id, now), _freelancer_card(db, cast, s.hiring_id, now)):
        start, end = shift_views.local(s.start), shift_views.local(s.end)
        assert card["subject"] == (f"Garçom para almoço · {shift_views.day_text(s.start)} · {start:%H:%M}–{end:%H:%M}")
        assert card["cancel_money"] == ""  # a direct payment moves no money through Turno


def test_after_staff_decides_the_card_shows_the_decided_hours_and_the_reason_not_the_adjustment(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")
    by_company(db, s, "ajustar", s.end + 2 * H, hours="5:00", reason="Saiu duas horas antes do fim.")
    disputed = _company_card(db, cast, s.hiring_id, s.end + 3 * H)
    assert disputed["adjustment"] == "5h00: Saiu duas horas antes do fim."  # the question, while it is open
    by_freelancer(db, s, "contestar_ajuste", s.end + 3 * H, reason="Fiquei até o fim, a gerente viu.")
    staff = make_staff(db)
    db.commit()
    reason = "A gerente confirmou seis horas de trabalho."
    run(db, staff.id, "admin", s.hiring_id, "decidir", s.end + 5 * H, decision="aprovar", hours="6:00", reason=reason)

    for card in (
        _company_card(db, cast, s.hiring_id, s.end + 6 * H),
        _freelancer_card(db, cast, s.hiring_id, s.end + 6 * H),
    ):
        assert card["hours"] == "6h00"
        assert card["adjustment"] == ""
        assert card["decision"] == f"Decisão da equipe Turno: 6h00 aprovadas. Motivo: {reason}"
        assert card["amount"] == "R$ 180,00"
