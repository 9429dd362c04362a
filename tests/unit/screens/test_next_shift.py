"""Issue 42 point 11 on the server: the 'Próximo turno' card of both overviews (services/screens/next_shift.py).

Which shift it is (the soonest one still to work, never a cancelled or an ended one, only the
viewer's own), what it says (when, where, pay, who) and its one large button at each moment:
'Confirmar presença', 'Registrar chegada', 'Registrar saída', or when the check-in opens; the
company's 'Código de presença'. Each test runs on SQLite and on PostgreSQL.
"""

from decimal import Decimal

import pytest
from sqlmodel import select

from core.formatting import local
from models import Hiring, Job
from services.screens import next_shift, shift_views
from services.shifts import application_answers
from tests.support.factories import make_application, make_cast, make_freelancer
from tests.support.shift_helpers import MIN, H, by_company, by_freelancer, hire, shift_start


@pytest.fixture
def cast(db):
    return make_cast(db)


def _mine(db, cast, now) -> list:
    return next_shift.for_freelancer(db, cast.freelancer.id, now)[0]


def test_nobody_hired_has_no_next_shift(db, cast):
    now = shift_start(0)
    assert next_shift.for_freelancer(db, cast.freelancer.id, now) == ([], [])
    assert next_shift.for_company(db, cast.company.id, now) == []


def test_the_freelancers_next_shift_is_the_soonest_and_says_when_where_pay_and_who(db, cast):
    hire(db, cast.company, cast.freelancer, start=shift_start(5), title="Bartender", rate=Decimal("40"))
    soon = hire(db, cast.company, cast.freelancer, start=shift_start(3), hours=6, break_min=30, rate=Decimal("30"))
    now = soon.start - 3 * 24 * H

    [card] = _mine(db, cast, now)

    assert (card["hiring_id"], card["title"], card["people_label"], card["people"]) == (
        soon.hiring_id,
        "Garçom",
        "Empresa",
        "Hotel Atlântico",
    )
    start = local(soon.start)
    assert card["when"] == f"{shift_views.day_text(soon.start)} · {start:%H:%M}–{local(soon.end):%H:%M}"
    assert card["pay"] == "R$ 165,00 pelo turno"  # 5h30 x R$ 30
    assert card["soon"] == ""  # three days away
    assert card["bring"] == ""  # the vaga says nothing


def test_the_card_says_what_to_bring_and_when_it_is_today_or_tomorrow(db, cast):
    start = shift_start(3).replace(hour=17, minute=0)  # 14:00 in São Paulo
    s = hire(db, cast.company, cast.freelancer, start=start)
    job = db.get(Job, s.job_id)
    job.o_que_levar = "Camisa branca, calça preta"
    db.add(job)
    db.commit()

    assert [_mine(db, cast, start - hours * H)[0]["soon"] for hours in (2, 24, 48)] == ["Hoje", "Amanhã", ""]
    assert _mine(db, cast, start - 2 * H)[0]["bring"] == "Camisa branca, calça preta"
    [company_card] = next_shift.for_company(db, cast.company.id, start - 2 * H)
    assert company_card["bring"] == "Camisa branca, calça preta"


def test_the_large_button_is_the_step_the_shift_needs_now(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    opens = local(s.start - 60 * MIN)

    far = _mine(db, cast, s.start - 72 * H)[0]
    assert (far["action"], far["action_label"]) == ("", "")
    assert far["hint"] == (
        f"A chegada pode ser registrada a partir de {shift_views.day_text(s.start - 60 * MIN)} às {opens:%H:%M}."
    )

    day_before = _mine(db, cast, s.start - 24 * H)[0]
    assert (day_before["action"], day_before["action_label"]) == ("confirmar", "Confirmar presença")
    by_freelancer(db, s, "confirmar", s.start - 24 * H)
    assert _mine(db, cast, s.start - 24 * H)[0]["action"] == ""

    arriving = _mine(db, cast, s.start - 30 * MIN)[0]
    assert (arriving["action"], arriving["action_label"]) == ("chegada", "Registrar chegada")
    by_freelancer(db, s, "chegada", s.start - 30 * MIN, code=s.code(s.start - 30 * MIN), method="codigo")

    working = _mine(db, cast, s.start + H)[0]
    assert (working["action"], working["action_label"], working["state_label"]) == (
        "saida",
        "Registrar saída",
        "Em andamento",
    )
    assert _mine(db, cast, s.end + 2 * H)[0]["action"] == "saida"  # still working past the end: still its step


def test_the_check_in_hint_names_only_the_time_on_the_day_it_opens(db, cast):
    s = hire(db, cast.company, cast.freelancer, start=shift_start(3).replace(hour=23))
    card = _mine(db, cast, s.start - 3 * H)[0]
    if card["action"] == "confirmar":  # the day before: confirm first
        by_freelancer(db, s, "confirmar", s.start - 3 * H)
        card = _mine(db, cast, s.start - 3 * H)[0]
    assert card["hint"] == f"A chegada pode ser registrada a partir das {local(s.start - 60 * MIN):%H:%M}."


def test_a_finished_or_cancelled_shift_gives_way_to_the_next(db, cast):
    first = hire(db, cast.company, cast.freelancer, start=shift_start(3))
    second = hire(db, cast.company, cast.freelancer, start=shift_start(6), title="Bartender")
    now = first.start - 72 * H

    by_company(db, first, "cancelar", now, reason="Evento adiado")

    [card] = _mine(db, cast, now)
    assert card["hiring_id"] == second.hiring_id
    assert _mine(db, cast, second.end + MIN) == []  # ended without a check-in: not a shift to work any more


def test_the_companys_card_names_everyone_coming_and_its_button_is_the_attendance_code(db, cast):
    start = shift_start(2)
    one = hire(db, cast.company, cast.freelancer, start=start, hours=6, break_min=30, rate=Decimal("30"))
    two = hire(db, cast.company, cast.other, start=start, hours=6, break_min=30, rate=Decimal("30"))
    now = start - 48 * H

    [card] = next_shift.for_company(db, cast.company.id, now)

    assert card["job_id"] == one.job_id  # the soonest vaga (the second hiring is of another vaga)
    assert (card["people_label"], card["people"]) == ("Profissional", "João Silva")
    assert (card["action"], card["action_label"]) == ("codigo", "Código de presença")
    assert card["pay"] == "R$ 165,00 pelo turno"
    assert two.job_id != one.job_id


def test_several_professionals_of_one_vaga_are_named_and_their_pay_summed(db, cast):
    s = hire(db, cast.company, cast.freelancer, hours=6, break_min=30, rate=Decimal("30"))
    job = db.get(Job, s.job_id)
    job.vagas_disponiveis = 5
    db.add(job)
    db.commit()
    extra = [cast.other, *(make_freelancer(db, nome=f"Pessoa {n}") for n in range(3))]
    for person in extra:
        application = make_application(db, job, person)
        db.commit()
        application_answers.accept(db, cast.company.id, application.id)
        db.commit()
    assert len(db.exec(select(Hiring).where(Hiring.job_id == job.id)).all()) == 5

    [card] = next_shift.for_company(db, cast.company.id, s.start - 48 * H)

    assert card["people_label"] == "Profissionais"
    assert card["people"] == "João Silva, Ana Souza, Pessoa 0 e mais 2"
    assert card["pay"] == "R$ 825,00 pelo turno (5 profissionais)"


def test_only_the_viewers_own_shifts_are_ever_shown(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 24 * H
    assert next_shift.for_company(db, cast.rival.id, now) == []
    assert next_shift.for_freelancer(db, cast.other.id, now) == ([], [])
    assert next_shift.for_company(db, cast.freelancer.id, now) == []  # a freelancer's id read as a company's
