"""What each side does with a hiring, through services.shifts.act (docs/product/shifts.md "Turnos").

Every hiring here comes from services.shifts.application_answers.accept, as in production, and every action gets
an explicit `now` (a fake clock; the shift starts three days after the real time of the acceptance).
Each test runs on SQLite and on PostgreSQL.
"""

import logging
import math
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select
from sqlmodel import SQLModel, func

from core.formatting import local
from models import Falta, Hiring, HiringEvent, Job, Notification, ReviewRequest
from services.common.errors import NotAllowed, ServiceError
from services.screens import shift_views
from services.shifts import application_answers, applications, hiring_rules, ratings, shifts
from services.shifts.shifts import Outcome, when
from services.timer import clock
from tests.support.factories import make_application, make_cast, make_company, make_job, unusable_ids
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
    make_staff,
    notices,
    run,
)

NOT_FOUND = "Turno não encontrado."
NOT_NOW = "Esta ação não está disponível para este turno agora."
WRONG_CODE = "Código incorreto. Confira o código na tela da empresa."
TOO_MANY_CODES = "Muitas tentativas com código incorreto. Aguarde 10 minutos ou use 'Não consigo registrar'."
POINT = (-23.5613, -46.6565)  # the shift's point on the map (Av. Paulista)
# One reading ~100 m away, with digits that appear nowhere else.
NEAR = (-23.5604387, -46.6561923)
FAR = (-23.5438, -46.6571)  # ~1.95 km north
START = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


@pytest.fixture
def cast(db):
    return make_cast(db)


def count(db, table, *where) -> int:
    return db.exec(select(func.count()).select_from(table).where(*where)).scalar_one()


# --- the whole loop ------------------------------------------------------------------------------


def test_the_loop_from_confirmation_to_payment_moves_records_and_tells_the_other_side(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    company, freelancer = cast.company.id, cast.freelancer.id
    start, end = s.start, s.end
    h = hiring(db, s.hiring_id)
    assert (h.state, h.valor_hora_centavos, h.inicio_em, h.fim_em, h.intervalo_min) == (
        "agendada",
        3000,
        start,
        end,
        60,
    )
    shown = when(h)

    assert by_freelancer(db, s, "confirmar", start - 47 * H) == Outcome(True, "Presença confirmada")
    h = hiring(db, s.hiring_id)
    assert (h.state, h.confirmed_at, h.version) == ("confirmada", start - 47 * H, 2)

    arrived = start - 10 * MIN
    assert by_freelancer(db, s, "chegada", arrived, method="codigo", code=s.code(arrived)).ok
    h = hiring(db, s.hiring_id)
    assert (h.state, h.chegada_em, h.chegada_metodo, h.chegada_distancia) == (
        "em_andamento",
        arrived,
        "codigo",
        "sem_leitura",
    )

    assert by_freelancer(db, s, "saida", end, method="codigo", code=s.code(end)).ok
    h = hiring(db, s.hiring_id)
    assert (h.state, h.saida_em, h.saida_metodo, h.terminou_em) == ("encerrada", end, "codigo", end)
    assert shifts.prefilled_minutes(h) == 420

    assert by_freelancer(db, s, "enviar_horas", end + H, hours="7:00").ok
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_enviados, h.horas_enviadas_em) == ("horas_enviadas", 420, end + H)

    reason = "Saiu 30 minutos antes do combinado."
    assert by_company(db, s, "ajustar", end + 3 * H, hours="6h30", reason=reason).ok
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_ajuste, h.ajuste_motivo, h.ajuste_em) == ("ajuste_proposto", 390, reason, end + 3 * H)

    assert by_freelancer(db, s, "aceitar_ajuste", end + 5 * H).ok
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 390, 19500)

    assert by_company(db, s, "marcar_pago", end + 30 * H) == Outcome(True, "Pagamento marcado como feito")
    assert by_freelancer(db, s, "confirmar_recebimento", end + 31 * H) == Outcome(True, "Recebimento confirmado")
    h = hiring(db, s.hiring_id)
    assert (h.state, h.pago_em, h.recebido_em, h.version) == ("paga", end + 30 * H, end + 31 * H, 9)
    assert (h.due_at, h.remind_at) == (None, None)

    assert events(db, s.hiring_id) == [
        ("aceitar", "empresa", company, "", "agendada"),
        ("confirmar", "freelancer", freelancer, "agendada", "confirmada"),
        ("chegada", "freelancer", freelancer, "confirmada", "em_andamento"),
        ("saida", "freelancer", freelancer, "em_andamento", "encerrada"),
        ("enviar_horas", "freelancer", freelancer, "encerrada", "horas_enviadas"),
        ("ajustar", "empresa", company, "horas_enviadas", "ajuste_proposto"),
        ("aceitar_ajuste", "freelancer", freelancer, "ajuste_proposto", "aprovada"),
        ("marcar_pago", "empresa", company, "aprovada", "paga"),
        ("confirmar_recebimento", "freelancer", freelancer, "paga", "paga"),
    ]
    assert [e.at for e in event_rows(db, s.hiring_id)][1:] == [
        start - 47 * H,
        arrived,
        end,
        end + H,
        end + 3 * H,
        end + 5 * H,
        end + 30 * H,
        end + 31 * H,
    ]
    assert event_rows(db, s.hiring_id)[4].reason == "Horas enviadas: 7h00."
    assert event_rows(db, s.hiring_id)[5].reason == reason
    assert notices(db, company) == [
        f'João Silva confirmou presença no turno "Garçom" de {shown}.',
        'João Silva registrou chegada no turno "Garçom".',
        'João Silva registrou saída do turno "Garçom". Aguarde o envio das horas.',
        'Horas do turno "Garçom" enviadas para aprovação: 7h00.',
        'O ajuste de horas do turno "Garçom" foi aceito: R$ 195,00.',
        'João Silva confirmou o recebimento do pagamento do turno "Garçom".',
    ]
    assert notices(db, freelancer) == [
        f'A empresa propôs 6h30 para o turno "Garçom": "{reason}". Aceite ou conteste em até 48 horas.',
        'A empresa marcou como pago o turno "Garçom" (R$ 195,00). Confirme o recebimento.',
    ]
    local_start = local(start)
    assert shown == f"{local_start:%d/%m} às {local_start:%H:%M}"


def test_the_company_approves_the_hours_sent_and_the_freelancer_is_told_the_amount(db, cast):
    s = hire(db, cast.company, cast.freelancer, rate=Decimal("25.55"), hours=9, break_min=60)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_company(db, s, "dispensar", s.end - 30 * MIN, reason="atraso")
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_enviados, h.dispensa_motivo, h.saida_metodo) == ("encerrada", 510, "atraso", "empresa")

    by_freelancer(db, s, "enviar_horas", s.end, hours="7h30")
    assert by_company(db, s, "aprovar", s.end + H) == Outcome(True, "Horas aprovadas")

    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 450, 19163)
    assert notices(db, cast.freelancer.id)[-1] == 'Horas do turno "Garçom" aprovadas: 7h30 = R$ 191,63.'
    assert (
        notices(db, cast.freelancer.id)[0]
        == 'A empresa encerrou seu turno "Garçom" (Atraso > 15 min). Envie suas horas.'
    )


def test_not_needed_anymore_after_one_hour_of_eight_pays_four_hours(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start - 5 * MIN, method="manual")

    by_company(db, s, "dispensar", s.start + H, reason="nao_precisamos")

    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_enviados, h.terminou_em) == ("encerrada", 240, s.start + H)
    assert shifts.prefilled_minutes(h) == 240
    with pytest.raises(ServiceError) as caught:
        by_company(db, s, "dispensar", s.start + 2 * H, reason="nao_precisamos")
    assert caught.value.message == NOT_NOW


# --- who may act ---------------------------------------------------------------------------------


def _frozen(db, hiring_id):
    return (
        hiring(db, hiring_id).model_dump(),
        count(db, HiringEvent),
        count(db, Notification),
        count(db, Falta),
        count(db, ReviewRequest),
    )


def test_strangers_and_the_wrong_role_are_refused_and_nothing_changes(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    staff = make_staff(db)
    db.commit()
    now = s.start - 30 * H
    before = _frozen(db, s.hiring_id)

    strangers = [
        (cast.rival.id, "client"),  # another company
        (cast.other.id, "freelancer"),  # another freelancer
        (cast.freelancer.id, "client"),  # the freelancer hired, claiming the company's role
        (cast.company.id, "freelancer"),  # the company, claiming the freelancer's role
        (staff.id, "freelancer"),
    ]
    for user_id, role in strangers:
        for action in ("confirmar", "cancelar", "aprovar", "decidir", "nao_compareceu"):
            with pytest.raises(NotAllowed) as caught:
                run(db, user_id, role, s.hiring_id, action, now, reason="Quero mexer neste turno.")
            assert caught.value.message == NOT_FOUND
    for bad_id in unusable_ids(s.hiring_id):
        with pytest.raises(NotAllowed):
            run(db, cast.freelancer.id, "freelancer", bad_id, "confirmar", now)

    # the other side's actions, and 'decidir' by either side or anything else by staff
    refused = [
        (cast.company.id, "client", "confirmar", {}),
        (cast.company.id, "client", "enviar_horas", {"hours": "7:00"}),
        (cast.freelancer.id, "freelancer", "cancelar_sem_custo", {}),
        (cast.freelancer.id, "freelancer", "nao_compareceu", {}),
        (cast.freelancer.id, "freelancer", "decidir", {"decision": "aprovar", "reason": "Eu mesmo decido isto."}),
        (cast.company.id, "client", "decidir", {"decision": "falta", "reason": "A empresa decide isto."}),
        (staff.id, "admin", "confirmar", {}),
        (staff.id, "admin", "cancelar", {}),
        (cast.freelancer.id, "freelancer", "apagar", {}),
    ]
    for user_id, role, action, data in refused:
        with pytest.raises(ServiceError) as caught:
            run(db, user_id, role, s.hiring_id, action, now, **data)
        assert not isinstance(caught.value, NotAllowed)
        assert caught.value.message == NOT_NOW, (role, action)

    assert _frozen(db, s.hiring_id) == before


def test_the_company_cannot_approve_or_adjust_for_a_rival_and_the_freelancer_cannot_approve(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")
    before = _frozen(db, s.hiring_id)
    now = s.end + 2 * H

    with pytest.raises(NotAllowed):
        run(db, cast.rival.id, "client", s.hiring_id, "aprovar", now)
    with pytest.raises(NotAllowed):
        run(db, cast.rival.id, "client", s.hiring_id, "ajustar", now, hours="1:00", reason="Não trabalhou direito.")
    for action in ("aprovar", "ajustar", "marcar_pago", "decidir"):
        with pytest.raises(ServiceError) as caught:
            by_freelancer(db, s, action, now, hours="9:00", reason="Quero aprovar sozinho.", decision="aprovar")
        assert caught.value.message == NOT_NOW

    assert _frozen(db, s.hiring_id) == before


# --- attendance ----------------------------------------------------------------------------------


def test_five_wrong_codes_lock_the_code_for_ten_minutes_even_the_right_one(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    first = s.start - 30 * MIN
    right = s.code(first)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"

    for n in range(5):
        outcome = by_freelancer(db, s, "chegada", first + n * SEC, method="codigo", code=wrong)
        assert outcome == Outcome(False, WRONG_CODE)
    sixth = first + 10 * SEC
    assert by_freelancer(db, s, "chegada", sixth, method="codigo", code=s.code(sixth)) == Outcome(False, TOO_MANY_CODES)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.version, h.chegada_em) == ("agendada", 1, None)
    assert [e[0] for e in events(db, s.hiring_id)] == ["aceitar"] + ["codigo_incorreto"] * 5
    assert notices(db, cast.company.id) == []

    later = first + 10 * MIN + 5 * SEC  # the fifth wrong code is now more than 10 minutes old
    assert by_freelancer(db, s, "chegada", later, method="codigo", code=s.code(later)).ok
    assert hiring(db, s.hiring_id).state == "em_andamento"


def test_a_code_of_the_two_previous_steps_still_works_and_an_older_one_does_not(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 20 * MIN

    stale = by_freelancer(db, s, "chegada", now, method="codigo", code=s.code(now - 90 * SEC))
    assert stale == Outcome(False, WRONG_CODE)
    assert by_freelancer(db, s, "chegada", now, method="codigo", code=s.code(now - 60 * SEC)).ok


def test_one_location_reading_within_150_m_registers_the_arrival_with_its_bucket(db, cast):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    now = s.start - 5 * MIN

    by_freelancer(db, s, "chegada", now, method="local", lat=NEAR[0], lng=NEAR[1], accuracy=20)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.chegada_metodo, h.chegada_distancia, h.chegada_em) == ("em_andamento", "local", "ate_150", now)


@pytest.mark.parametrize(
    ("reading", "label"),
    [(FAR, "500 m–2 km"), ((-23.5313, -46.6565), "acima de 2 km"), ((-23.5583, -46.6565), "150–500 m")],
)
def test_a_reading_too_far_is_refused_with_its_distance_bucket(db, cast, reading, label):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    before = _frozen(db, s.hiring_id)

    with pytest.raises(ServiceError) as caught:
        by_freelancer(db, s, "chegada", s.start, method="local", lat=reading[0], lng=reading[1], accuracy=5)

    assert caught.value.message == (
        f"Sua localização está a {label} do local do turno. Use o código da empresa ou 'Não consigo registrar'."
    )
    assert _frozen(db, s.hiring_id) == before


def test_the_accuracy_of_the_reading_widens_the_radius_by_at_most_100_m(db, cast):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    about_220_m = (POINT[0] + 0.00198, POINT[1])
    about_270_m = (POINT[0] + 0.00243, POINT[1])

    for (lat, lng), accuracy in [(about_220_m, 50), (about_270_m, 500), (about_220_m, None)]:
        with pytest.raises(ServiceError):
            by_freelancer(db, s, "chegada", s.start, method="local", lat=lat, lng=lng, accuracy=accuracy)
    by_freelancer(db, s, "chegada", s.start, method="local", lat=about_220_m[0], lng=about_220_m[1], accuracy=500)

    assert hiring(db, s.hiring_id).chegada_distancia == "150_500"


def test_a_reading_is_refused_without_a_point_or_without_numbers(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    with pytest.raises(ServiceError) as caught:
        by_freelancer(db, s, "chegada", s.start, method="local", lat=NEAR[0], lng=NEAR[1])
    assert caught.value.message.startswith("Este turno não tem um local marcado no mapa.")

    located = hire(db, cast.company, cast.other, point=POINT)
    for lat, lng in [("-23.56", "-46.65"), (None, None), (True, False), (float("nan"), 0.0), (91.0, 0.0)]:
        with pytest.raises(ServiceError) as caught:
            by_freelancer(db, located, "chegada", located.start, method="local", lat=lat, lng=lng)
        assert caught.value.message.startswith("Não recebemos uma leitura de localização válida.")
    assert hiring(db, located.hiring_id).state == "agendada"


def test_no_raw_coordinates_are_stored_or_logged(db, cast, caplog):
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger="sqlalchemy.engine")  # every statement with its parameters
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    by_freelancer(db, s, "chegada", s.start - 5 * MIN, method="local", lat=NEAR[0], lng=NEAR[1], accuracy=12.5)
    with pytest.raises(ServiceError):
        by_freelancer(db, s, "saida", s.end, method="local", lat=FAR[0], lng=FAR[1], accuracy=12.5)
    leaving = (NEAR[0] + 0.0000011, NEAR[1] - 0.0000013)
    by_freelancer(db, s, "saida", s.end, method="local", lat=leaving[0], lng=leaving[1], accuracy=8)
    h = hiring(db, s.hiring_id)
    assert (h.chegada_distancia, h.saida_distancia, h.saida_metodo) == ("ate_150", "ate_150", "local")

    readings = [NEAR[0], NEAR[1], FAR[0], FAR[1], *leaving]
    digits = {f"{abs(value):.7f}".rstrip("0")[-6:] for value in readings} | {"23.56043", "46.65619", "23.5438"}
    scanned, found = 0, []
    conn = db.connection()
    for table in SQLModel.metadata.sorted_tables:
        for row in conn.execute(select(table)).all():
            for column, value in zip(table.columns, row, strict=True):
                if isinstance(value, float | Decimal):  # every float and numeric column
                    scanned += 1
                    if any(math.isclose(float(value), r, abs_tol=1e-5) for r in readings):
                        found.append((table.name, column.name, value))
                elif isinstance(value, str | dict | list):  # every text and JSON column
                    scanned += 1
                    if any(d in str(value) for d in digits):
                        found.append((table.name, column.name, value))
    logged = caplog.text + "".join(repr(r.args) for r in caplog.records)

    assert scanned > 100
    assert found == []
    assert [d for d in digits if d in logged] == []
    assert "UPDATE hirings" in caplog.text  # the statements were captured, with their parameters


def test_cannot_register_records_a_manual_arrival_for_the_company_to_see(db, cast):
    s = hire(db, cast.company, cast.freelancer)

    by_freelancer(db, s, "chegada", s.start + 7 * MIN, method="manual")

    h = hiring(db, s.hiring_id)
    assert (h.state, h.chegada_metodo, h.chegada_distancia, h.chegada_em) == (
        "em_andamento",
        "manual",
        "sem_leitura",
        s.start + 7 * MIN,
    )
    assert event_rows(db, s.hiring_id)[-1].reason == "Registro manual (sem código nem localização)."


def test_the_company_registers_the_arrival_for_the_freelancer(db, cast):
    s = hire(db, cast.company, cast.freelancer)

    by_company(db, s, "chegada", s.start)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.chegada_metodo) == ("em_andamento", "empresa")
    assert notices(db, cast.freelancer.id) == ['A empresa registrou sua chegada no turno "Garçom".']


# --- cancellations, faltas, suspension -----------------------------------------------------------


def test_a_company_that_cancels_late_owes_four_hours_and_the_freelancer_is_told(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    early = hire(db, cast.company, cast.other)

    by_company(db, s, "cancelar", s.start - 6 * H)
    by_company(db, early, "cancelar", early.start - 24 * H - SEC)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.taxa_cancelamento_centavos, h.terminou_em) == ("cancelada_empresa", 12000, s.start - 6 * H)
    assert event_rows(db, s.hiring_id)[-1].reason == "Cancelado pela empresa. Valor devido ao profissional: R$ 120,00."
    assert notices(db, cast.freelancer.id) == [
        f'A empresa cancelou o turno "Garçom" de {when(h)}. Você receberá R$ 120,00 pelo cancelamento tardio.'
    ]
    free = hiring(db, early.hiring_id)
    assert (free.state, free.taxa_cancelamento_centavos) == ("cancelada_empresa", 0)
    assert notices(db, cast.other.id) == [f'A empresa cancelou o turno "Garçom" de {when(free)}.']
    assert count(db, Falta) == 0


def test_a_late_cancellation_fee_is_settled_by_each_side_and_the_cards_offer_it_until_then(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    free = hire(db, cast.company, cast.other)
    by_company(db, s, "cancelar", s.start - 6 * H)
    by_company(db, free, "cancelar", free.start - 30 * H)
    later = s.start + 2 * H

    upcoming, _ = shift_views.company_shifts(db, cast.company.id, later)
    assert [(c["id"], [a["action"] for a in c["actions"]], c["fee"]) for c in upcoming] == [
        (s.hiring_id, ["marcar_pago"], "R$ 120,00")
    ]
    with pytest.raises(ServiceError, match=NOT_NOW):  # nothing is owed there
        by_company(db, free, "marcar_pago", later)
    with pytest.raises(ServiceError, match=NOT_NOW):
        by_freelancer(db, free, "confirmar_recebimento", later)

    assert by_company(db, s, "marcar_pago", later) == Outcome(True, "Pagamento marcado como feito")
    h = hiring(db, s.hiring_id)
    assert (h.state, h.pago_em) == ("cancelada_empresa", later)
    assert notices(db, cast.freelancer.id)[-1] == (
        'A empresa marcou como pago o turno "Garçom" (R$ 120,00). Confirme o recebimento.'
    )
    assert shift_views.company_shifts(db, cast.company.id, later)[0] == []
    with pytest.raises(ServiceError, match=NOT_NOW):  # once
        by_company(db, s, "marcar_pago", later + H)

    [card], _ = shift_views.freelancer_shifts(db, cast.freelancer.id, later)
    assert [a["action"] for a in card["actions"]] == ["confirmar_recebimento"]
    assert by_freelancer(db, s, "confirmar_recebimento", later + H) == Outcome(True, "Recebimento confirmado")
    assert hiring(db, s.hiring_id).state == "cancelada_empresa"
    assert shift_views.freelancer_shifts(db, cast.freelancer.id, later + H)[0] == []


def test_a_freelancer_who_cancels_late_gets_two_faltas_and_the_company_is_told(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    now = s.start - 6 * H

    by_freelancer(db, s, "cancelar", now)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.taxa_cancelamento_centavos) == ("cancelada_freelancer", 0)
    [falta] = db.exec(select(Falta)).scalars().all()
    assert (falta.freelancer_id, falta.hiring_id, falta.pontos, falta.motivo) == (
        cast.freelancer.id,
        s.hiring_id,
        2,
        "cancelamento",
    )
    assert (falta.created_at, falta.expires_at, falta.suspende_ate) == (now, now + timedelta(days=90), None)
    assert notices(db, cast.company.id) == [f'João Silva cancelou o turno "Garçom" de {when(h)}.']
    assert event_rows(db, s.hiring_id)[-1].reason.startswith("Este cancelamento conta 2 faltas.")


def test_three_falta_points_suspend_new_applications_for_fourteen_days(db, cast):
    first = hire(db, cast.company, cast.freelancer)
    second = hire(db, cast.rival, cast.freelancer, start=first.end)  # one place at a time: the next shift
    by_freelancer(db, first, "cancelar", first.start - 30 * H)  # 1 falta
    now = second.start - 6 * H
    by_freelancer(db, second, "cancelar", now)  # 2 faltas
    open_job = make_job(db, make_company(db), "Recepcionista")
    db.commit()

    with pytest.raises(ServiceError) as caught:
        applications.apply(db, cast.freelancer.id, "freelancer", open_job.id, {})
    db.rollback()

    until = local(now + timedelta(days=14))
    assert caught.value.message == (
        f"Você está com 3 faltas ativas e não pode se candidatar a novas vagas até {until:%d/%m/%Y}."
    )
    assert sorted(db.exec(select(Falta.pontos)).scalars().all()) == [1, 2]
    # a freelancer without faltas still applies
    assert applications.apply(db, cast.other.id, "freelancer", open_job.id, {})


def test_an_unconfirmed_shift_is_cancelled_at_no_cost_with_one_falta(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    with pytest.raises(ServiceError):
        by_company(db, s, "cancelar_sem_custo", s.start - 13 * H)  # still 'agendada'
    clock.tick(s.start - 12 * H)
    by_company(db, s, "cancelar_sem_custo", s.start - 11 * H)

    h = hiring(db, s.hiring_id)
    assert (h.state, h.taxa_cancelamento_centavos) == ("cancelada_empresa", 0)
    assert db.exec(select(Falta.pontos, Falta.motivo)).all() == [(1, "nao_confirmou")]
    assert notices(db, cast.freelancer.id)[-1] == (
        f'A empresa cancelou o turno "Garçom" de {when(h)}, que não foi confirmado. Isso conta 1 falta.'
    )


# --- no-show, disputes, staff decisions ------------------------------------------------------------


def _no_show_contested(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_company(db, s, "nao_compareceu", s.start + 30 * MIN)
    reason = "Eu estava lá, a portaria não me deixou entrar."
    by_freelancer(db, s, "contestar_falta", s.start + 2 * H, reason=reason)
    return s, reason


def test_a_no_show_contested_goes_to_turno_staff_who_approve_and_lift_the_falta(db, cast):
    s, reason = _no_show_contested(db, cast)
    h = hiring(db, s.hiring_id)
    assert h.state == "em_disputa"
    [review] = db.exec(select(ReviewRequest)).scalars().all()
    assert (review.hiring_id, review.kind, review.requested_by, review.motivo, review.decided_at) == (
        s.hiring_id,
        "disputa",
        cast.freelancer.id,
        reason,
        None,
    )
    [falta] = db.exec(select(Falta)).scalars().all()
    assert (falta.pontos, falta.motivo, falta.suspende_ate) == (3, "nao_compareceu", s.start + 30 * MIN + 14 * 24 * H)
    job = make_job(db, make_company(db), "Copeiro")
    db.commit()
    with pytest.raises(ServiceError):
        applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})
    db.rollback()

    staff = make_staff(db)
    db.commit()
    decided = s.start + 20 * H
    decision = "Portaria confirmou a presença pelo registro de visitantes."
    outcome = run(
        db, staff.id, "admin", s.hiring_id, "decidir", decided, decision="aprovar", hours="7:00", reason=decision
    )

    assert outcome == Outcome(True, "Decisão registrada")
    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados, h.valor_centavos) == ("aprovada", 420, 21000)
    db.refresh(falta)
    assert (falta.removida_em, falta.removida_motivo, falta.suspende_ate) == (decided, decision, None)
    db.refresh(review)
    assert (review.decided_at, review.decided_by, review.decisao, review.decisao_motivo) == (
        decided,
        staff.id,
        "aprovar",
        decision,
    )
    assert events(db, s.hiring_id)[-1] == ("decidir_aprovar", "turno", staff.id, "em_disputa", "aprovada")
    told = f'A equipe Turno decidiu a disputa do turno "Garçom": horas aprovadas. Motivo: {decision}'
    assert notices(db, cast.freelancer.id)[-1] == told
    assert notices(db, cast.company.id)[-1] == told
    assert applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})


def test_a_no_show_kept_by_staff_cannot_be_contested_again(db, cast):
    s, _reason = _no_show_contested(db, cast)
    staff = make_staff(db)
    db.commit()
    run(
        db,
        staff.id,
        "admin",
        s.hiring_id,
        "decidir",
        s.start + 5 * H,
        decision="falta",
        reason="A empresa mostrou o registro da portaria.",
    )
    assert hiring(db, s.hiring_id).state == "nao_compareceu"
    before = _frozen(db, s.hiring_id)

    with pytest.raises(ServiceError):
        by_freelancer(db, s, "contestar_falta", s.start + 6 * H, reason="Discordo da decisão da equipe.")

    assert _frozen(db, s.hiring_id) == before


def test_a_decision_needs_a_reason_and_a_known_outcome(db, cast):
    s, _reason = _no_show_contested(db, cast)
    staff = make_staff(db)
    db.commit()
    before = _frozen(db, s.hiring_id)

    for data in (
        {"decision": "aprovar", "reason": "curto"},
        {"decision": "talvez", "reason": "Motivo longo o bastante."},
    ):
        with pytest.raises(ServiceError):
            run(db, staff.id, "admin", s.hiring_id, "decidir", s.start + 5 * H, **data)

    assert _frozen(db, s.hiring_id) == before


# --- ratings ---------------------------------------------------------------------------------------


def test_ratings_open_once_the_hours_are_approved_while_the_job_is_still_open(db, cast):
    s = hire(db, cast.company, cast.freelancer, title="Garçom")
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7")
    assert ratings.can_rate(db, cast.company.id, s.application_id) is False
    with pytest.raises(ServiceError):
        ratings.rate(db, cast.company.id, s.application_id, {"stars": "5", "comment": ""})
    db.rollback()

    by_company(db, s, "aprovar", s.end + 2 * H)

    job = db.get(Job, s.job_id)
    assert job.status in ("open", "in_progress")
    assert ratings.can_rate(db, cast.company.id, s.application_id) is True
    assert ratings.can_rate(db, cast.freelancer.id, s.application_id) is True
    ratings.rate(db, cast.company.id, s.application_id, {"stars": "5", "comment": "Pontual e atencioso."})
    ratings.rate(db, cast.freelancer.id, s.application_id, {"stars": "4", "comment": ""})
    db.commit()
    assert ratings.can_rate(db, cast.company.id, s.application_id) is False


def test_hours_are_checked_before_they_are_sent(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="manual")
    by_freelancer(db, s, "saida", s.end, method="manual")
    before = _frozen(db, s.hiring_id)

    for hours in ("abc", "7:75", "17"):
        with pytest.raises(ServiceError) as caught:
            by_freelancer(db, s, "enviar_horas", s.end + H, hours=hours)
        assert caught.value.message == "Informe as horas no formato 7:30 (horas:minutos)."
    for hours in ("", "0", "0:00"):
        with pytest.raises(ServiceError) as caught:
            by_freelancer(db, s, "enviar_horas", s.end + H, hours=hours)
        assert caught.value.message == "Informe as horas trabalhadas."
    with pytest.raises(ServiceError) as caught:
        by_freelancer(db, s, "enviar_horas", s.end + 12 * H, hours="7:00")
    assert caught.value.message == (
        "O prazo para enviar as horas terminou; elas foram enviadas a partir dos registros."
    )

    assert _frozen(db, s.hiring_id) == before
    assert hiring_rules.allowed_actions(hiring(db, s.hiring_id), "freelancer", s.end + H) == ["enviar_horas"]


def test_staff_approving_a_contested_no_show_without_hours_pays_the_schedule(db, cast):
    s, _reason = _no_show_contested(db, cast)
    staff = make_staff(db)
    db.commit()

    run(db, staff.id, "admin", s.hiring_id, "decidir", s.start + 20 * H, decision="aprovar",
        reason="A empresa confirmou a presença por telefone.")  # fmt: skip

    h = hiring(db, s.hiring_id)
    assert (h.state, h.minutos_aprovados) == ("aprovada", 7 * 60)  # 8 h minus the 60-minute break


def test_staff_cannot_turn_an_hours_dispute_into_a_no_show(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="codigo", code=s.code(s.start))
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")
    by_company(db, s, "ajustar", s.end + 2 * H, hours="5:00", reason="Saiu duas horas antes do fim.")
    by_freelancer(db, s, "contestar_ajuste", s.end + 3 * H, reason="Fiquei até o fim, a gerente viu.")
    staff = make_staff(db)
    db.commit()
    before = (hiring(db, s.hiring_id).version, len(events(db, s.hiring_id)))

    with pytest.raises(ServiceError) as refused:
        run(db, staff.id, "admin", s.hiring_id, "decidir", s.end + 5 * H, decision="falta",
            reason="Decidindo pela ausência por engano.")  # fmt: skip

    assert refused.value.message == "Este turno tem registro de chegada: decida as horas, não a ausência."
    assert (hiring(db, s.hiring_id).version, len(events(db, s.hiring_id))) == before


def test_accepting_a_vaga_written_without_shift_times_gives_it_the_legacy_shift(db, cast):
    from datetime import date

    from core.formatting import LOCAL_TZ

    job = make_job(db, cast.company, "Copeiro", inicio_em=None, fim_em=None, data_necessaria=date(2031, 3, 7),
                   duracao="5 horas", possui_intervalo=True, codigo_segredo="")  # fmt: skip
    job.inicio_em = job.fim_em = None  # as a bulk load or a row inserted by hand leaves it
    db.add(job)
    application = make_application(db, job, cast.freelancer)
    db.commit()

    application_answers.accept(db, cast.company.id, application.id)
    db.commit()

    db.refresh(job)
    h = db.exec(select(Hiring).where(Hiring.application_id == application.id)).scalars().one()
    assert job.inicio_em.astimezone(LOCAL_TZ).replace(tzinfo=None).isoformat() == "2031-03-07T09:00:00"
    assert (job.fim_em - job.inicio_em, job.intervalo_min, len(job.codigo_segredo)) == (5 * H, 60, 40)
    assert (h.inicio_em, h.fim_em, h.intervalo_min) == (job.inicio_em, job.fim_em, 60)


@pytest.mark.parametrize(
    ("actor", "mode", "received", "label"),
    [
        ("freelancer", "direto", False, "Marcado como pago pela empresa"),
        ("freelancer", "direto", True, "Pago"),
        ("empresa", "direto", False, "Pago"),
        ("freelancer", "garantido", False, "Pago"),  # Turno transferred it: nothing to confirm
    ],
)
def test_the_freelancer_reads_pago_only_once_the_receipt_is_confirmed(actor, mode, received, label):
    paid = Hiring(state="paga", pagamento=mode, recebido_em=START if received else None)

    assert shifts.state_label(paid, actor) == label
