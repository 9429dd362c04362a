"""The shift of a vaga (docs/product/shifts.md "Turnos"): the form's rules, its text, publish, edit and 'Duplicar'."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from core.shift_format import duration_text, map_url, shift_text
from models import Hiring, Job, JobStatus
from services.common.errors import NotAllowed, ValidationFailed
from services.common.job_forms import (
    SHIFT_ADDRESS,
    SHIFT_BREAK,
    SHIFT_END_MISSING,
    SHIFT_LENGTH,
    SHIFT_POINT,
    SHIFT_START_MISSING,
    SHIFT_TOO_LATE,
    SHIFT_TOO_SOON,
    JobForm,
)
from services.common.validation import parse
from services.jobs import company_jobs, job_detail, jobs
from services.jobs.company_jobs import (
    JOB_NOT_FOUND,
    NO_DATES,
    REPEATED_DATES,
    TOO_MANY_DATES,
)
from services.jobs.plans import PlanLimitReached
from services.shifts import application_answers
from tests.support.factories import make_application, make_cast, make_job, snapshot
from tests.support.shift_form import ADDRESS, local_input, shift_day, shift_fields

# 2026-11-01 12:00 in São Paulo (UTC-3): every rule below is judged at this instant.
NOW = datetime(2026, 11, 1, 15, 0, tzinfo=UTC)
BASE = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    "endereco": ADDRESS,
}
FREE_LIMIT = "Seu plano Gratuito permite até 2 vagas ativas. Encerre ou arquive uma vaga, ou conheça os planos pagos."


def _shift(start: datetime, hours: float = 8, **fields) -> dict:
    return {**BASE, "inicio_em": local_input(start), "fim_em": local_input(start + timedelta(hours=hours)), **fields}


def _errors(data: dict) -> dict[str, str]:
    with pytest.raises(ValidationFailed) as caught:
        parse(JobForm, data, now=NOW)
    return caught.value.field_errors


def _form(data: dict) -> JobForm:
    return parse(JobForm, data, now=NOW)


# --- the form ----------------------------------------------------------------------------------


def test_a_local_start_is_stored_in_utc_and_the_old_columns_are_derived():
    form = _form({**BASE, "inicio_em": "2026-12-05T18:00", "fim_em": "2026-12-06T02:00", "intervalo_min": "60"})

    assert form.inicio_em == datetime(2026, 12, 5, 21, 0, tzinfo=UTC)
    assert form.fim_em == datetime(2026, 12, 6, 5, 0, tzinfo=UTC)  # crosses midnight: 8 hours
    values = form.job_values()
    assert (values["data_necessaria"], values["duracao"], values["intervalo_min"]) == (date(2026, 12, 5), "8 horas", 60)


def test_a_shift_of_seven_and_a_half_hours_reads_7h30():
    form = _form({**BASE, "inicio_em": "2026-12-05T09:00", "fim_em": "2026-12-05T16:30"})

    assert form.job_values()["duracao"] == "7h30"


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"inicio_em": ""}, {"inicio_em": SHIFT_START_MISSING}),
        ({"inicio_em": "amanhã"}, {"inicio_em": SHIFT_START_MISSING}),
        ({"inicio_em": "2026-12-05"}, {"inicio_em": SHIFT_START_MISSING}),
        ({"fim_em": ""}, {"fim_em": SHIFT_END_MISSING}),
        ({"fim_em": "2026-13-05T10:00"}, {"fim_em": SHIFT_END_MISSING}),
        ({"endereco": ""}, {"endereco": SHIFT_ADDRESS}),
        ({"endereco": "Rua"}, {"endereco": SHIFT_ADDRESS}),
        ({"endereco": "R" * 201}, {"endereco": SHIFT_ADDRESS}),
        ({"intervalo_min": "121"}, {"intervalo_min": SHIFT_BREAK}),
        ({"intervalo_min": "-1"}, {"intervalo_min": SHIFT_BREAK}),
        ({"intervalo_min": "meia hora"}, {"intervalo_min": SHIFT_BREAK}),
        ({"ponto_lat": "-23.56", "ponto_lng": ""}, {"ponto_lng": SHIFT_POINT}),
        ({"ponto_lat": "", "ponto_lng": "-46.65"}, {"ponto_lng": SHIFT_POINT}),
        ({"ponto_lat": "91", "ponto_lng": "-46.65"}, {"ponto_lng": SHIFT_POINT}),
        ({"ponto_lat": "-23.56", "ponto_lng": "181"}, {"ponto_lng": SHIFT_POINT}),
        ({"ponto_lat": "nan", "ponto_lng": "-46.65"}, {"ponto_lat": SHIFT_POINT}),
        ({"ponto_lat": "-23.56", "ponto_lng": "1e400"}, {"ponto_lng": SHIFT_POINT}),
        ({"ponto_lat": "abc", "ponto_lng": "-46.65"}, {"ponto_lat": SHIFT_POINT}),
    ],
)
def test_each_shift_field_gives_its_message(fields, errors):
    assert _errors({**_shift(NOW + timedelta(days=3)), **fields}) == errors


def test_a_latitude_sent_without_its_longitude_field_is_refused():
    """A hostile form may leave `ponto_lng` out altogether (the fuzzer found half a point stored)."""
    data = {**_shift(NOW + timedelta(days=3)), "ponto_lat": "-23.56"}
    data.pop("ponto_lng", None)
    assert _errors(data) == {"ponto_lng": SHIFT_POINT}


def test_a_missing_shift_lists_the_three_messages():
    assert _errors({k: v for k, v in BASE.items() if k != "endereco"}) == {
        "inicio_em": SHIFT_START_MISSING,
        "fim_em": SHIFT_END_MISSING,
        "endereco": SHIFT_ADDRESS,
    }


@pytest.mark.parametrize("break_min", ["", "0", "120"])
def test_a_break_from_0_to_120_minutes_is_accepted(break_min):
    assert _form(_shift(NOW + timedelta(days=3), intervalo_min=break_min)).intervalo_min == int(break_min or 0)


@pytest.mark.parametrize(
    ("hours", "ok"),
    [(2, True), (12, True), (1, False), (2 - 1 / 60, False), (12 + 1 / 60, False), (0, False), (-3, False)],
)
def test_the_shift_lasts_from_2_to_12_hours(hours, ok):
    data = _shift(NOW + timedelta(days=3), hours=hours)
    if ok:
        assert _form(data).fim_em - _form(data).inicio_em == timedelta(hours=hours)
    else:
        assert _errors(data) == {"fim_em": SHIFT_LENGTH}


@pytest.mark.parametrize(
    ("lead", "error"),
    [
        (timedelta(hours=2), None),
        (timedelta(hours=2) - timedelta(minutes=1), SHIFT_TOO_SOON),
        (timedelta(hours=-5), SHIFT_TOO_SOON),
        (timedelta(days=60), None),
        (timedelta(days=60, minutes=1), SHIFT_TOO_LATE),
    ],
)
def test_the_start_is_from_now_plus_2_hours_to_now_plus_60_days(lead, error):
    data = _shift(NOW + lead)
    if error is None:
        assert _form(data).inicio_em == NOW + lead
    else:
        assert _errors(data) == {"inicio_em": error}


def test_a_marked_point_is_kept_and_a_blank_one_is_none():
    form = _form(_shift(NOW + timedelta(days=3), ponto_lat="-23.561414", ponto_lng="-46.655881"))
    assert (form.ponto_lat, form.ponto_lng) == (-23.561414, -46.655881)
    form = _form(_shift(NOW + timedelta(days=3), ponto_lat="", ponto_lng=""))
    assert (form.ponto_lat, form.ponto_lng) == (None, None)


def test_typed_date_and_duration_are_ignored():
    values = _form(
        {**_shift(NOW + timedelta(days=3)), "data_necessaria": "2030-01-01", "duracao": "1 ano"}
    ).job_values()

    assert values["data_necessaria"] == date(2026, 11, 4)
    assert values["duracao"] == "8 horas"


# --- the text people read -----------------------------------------------------------------------


def test_shift_text_in_sao_paulo_time_across_midnight():
    start = datetime(2026, 11, 28, 21, 0, tzinfo=UTC)  # sábado 18:00 local

    assert shift_text(start, start + timedelta(hours=8), 60) == "sáb., 28/11 · 18:00–02:00 (8h, intervalo 60 min)"
    assert (
        shift_text(start, start + timedelta(hours=7, minutes=30), 0)
        == "sáb., 28/11 · 18:00–01:30 (7h30, sem intervalo)"
    )
    assert shift_text(None, start, 0) == ""


@pytest.mark.parametrize(
    ("length", "text"),
    [(timedelta(hours=8), "8 horas"), (timedelta(hours=1), "1 hora"), (timedelta(hours=7, minutes=30), "7h30")],
)
def test_duration_text(length, text):
    assert duration_text(length) == text


def test_map_url_uses_the_point_or_the_address():
    assert map_url("Av. Paulista, 1578 - São Paulo") == (
        "https://www.google.com/maps/search/?api=1&query=Av.%20Paulista%2C%201578%20-%20S%C3%A3o%20Paulo"
    )
    assert map_url("Av. Paulista", -23.5614, -46.6558) == (
        "https://www.google.com/maps/search/?api=1&query=-23.561400%2C-46.655800"
    )
    assert map_url("  ") == ""


# --- publish and edit ----------------------------------------------------------------------------


@pytest.fixture
def cast(db):
    return make_cast(db)


def test_publishing_stores_the_shift_and_the_job_page_shows_it(db, cast):
    data = {
        **BASE,
        **shift_fields(days=4, hour=18, hours=8, break_min=60),
        "ponto_lat": "-23.5614",
        "ponto_lng": "-46.6558",
    }
    job_id = company_jobs.create_job(db, cast.company.id, data)
    db.commit()
    db.expire_all()

    job = db.get(Job, job_id)
    assert job.inicio_em.tzinfo is not None and job.fim_em - job.inicio_em == timedelta(hours=8)
    assert (job.endereco, job.intervalo_min, job.ponto_lat, job.ponto_lng) == (ADDRESS, 60, -23.5614, -46.6558)
    assert (job.data_necessaria, job.duracao) == (shift_day(4), "8 horas")
    assert len(job.codigo_segredo) == 40
    detail = job_detail.get_public_job(db, job_id)
    assert detail["shift"] == shift_text(job.inicio_em, job.fim_em, 60)
    assert detail["shift"].endswith("· 18:00–02:00 (8h, intervalo 60 min)")
    assert detail["address"] == ADDRESS
    assert detail["map_url"].endswith("query=-23.561400%2C-46.655800")
    assert jobs.list_public_jobs(db).items[0]["shift"] == detail["shift"]


def test_each_new_job_gets_its_own_secret(db, cast):
    first = company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields()})
    second = company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields(days=4)})

    assert db.get(Job, first).codigo_segredo != db.get(Job, second).codigo_segredo


def test_a_bad_shift_publishes_nothing(db, cast):
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields(hours=1)})

    assert caught.value.field_errors == {"fim_em": SHIFT_LENGTH}
    assert snapshot(db) == before


def test_editing_changes_the_job_but_not_the_accepted_hiring(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields(days=3)})
    job = db.get(Job, job_id)
    application = make_application(db, job, cast.freelancer)
    application_answers.accept(db, cast.company.id, application.id)
    db.commit()
    hiring_before = snapshot(db, Hiring)
    secret, status = job.codigo_segredo, job.status

    company_jobs.update_job(
        db,
        cast.company.id,
        job_id,
        {**BASE, "titulo": "Garçom (novo horário)", **shift_fields(days=5, hour=10, hours=6)},
    )
    db.commit()
    db.expire_all()

    job = db.get(Job, job_id)
    assert job.titulo == "Garçom (novo horário)"
    assert (job.data_necessaria, job.duracao) == (shift_day(5), "6 horas")
    assert (job.codigo_segredo, job.status) == (secret, status)
    assert snapshot(db, Hiring) == hiring_before
    [hiring] = db.exec(select(Hiring).where(Hiring.job_id == job_id)).all()
    assert hiring.inicio_em != job.inicio_em


def test_editing_with_a_bad_shift_changes_nothing(db, cast):
    job_id = company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields()})
    db.commit()
    before = snapshot(db)

    with pytest.raises(ValidationFailed):
        company_jobs.update_job(db, cast.company.id, job_id, {**BASE, **shift_fields(days=90)})

    db.rollback()
    assert snapshot(db) == before


# --- Duplicar ------------------------------------------------------------------------------------


def _dates(*days: int) -> list[str]:
    return [shift_day(day).isoformat() for day in days]


def test_duplicating_to_dates_makes_independent_open_jobs_of_one_series(db, cast, monkeypatch):
    monkeypatch.setattr(company_jobs.plans, "ensure_can_publish", lambda *args, **kwargs: None)
    original_id = company_jobs.create_job(db, cast.company.id, {**BASE, **shift_fields(days=3, hour=18, hours=8)})

    copies = company_jobs.duplicate_job(db, cast.company.id, original_id, _dates(10))
    db.commit()
    db.expire_all()

    original = db.get(Job, original_id)
    [copy] = [db.get(Job, copy_id) for copy_id in copies]
    assert copy.serie_id == original.id
    assert copy.status == JobStatus.OPEN
    assert copy.data_necessaria == shift_day(10)
    assert copy.inicio_em - original.inicio_em == timedelta(days=7)
    assert copy.fim_em - copy.inicio_em == timedelta(hours=8)
    assert (copy.titulo, copy.endereco, copy.intervalo_min) == (
        original.titulo,
        original.endereco,
        original.intervalo_min,
    )
    assert copy.codigo_segredo != original.codigo_segredo
    # A copy of the copy stays in the original's series.
    [again] = company_jobs.duplicate_job(db, cast.company.id, copy.id, _dates(11))
    assert db.get(Job, again).serie_id == original.id


def test_duplicating_up_to_8_dates_within_the_plan(db, cast, monkeypatch):
    monkeypatch.setattr(company_jobs.plans, "ensure_can_publish", lambda *args, **kwargs: None)
    original = make_job(db, cast.company, "Garçom")

    copies = company_jobs.duplicate_job(db, cast.company.id, original.id, _dates(*range(5, 13)))

    assert len(copies) == 8
    assert sorted(db.get(Job, copy_id).data_necessaria for copy_id in copies) == [shift_day(d) for d in range(5, 13)]


@pytest.mark.parametrize(
    ("dates", "message"),
    [
        ([], NO_DATES),
        (["", " "], NO_DATES),
        ("2026-12-01", NO_DATES),
        (_dates(*range(5, 14)), TOO_MANY_DATES),
        (["05/12/2026"], "Informe uma data válida."),
        (_dates(5, 6, 5), REPEATED_DATES),
    ],
)
def test_duplicating_refuses_bad_dates_and_writes_nothing(db, cast, dates, message):
    original = make_job(db, cast.company, "Garçom")
    db.commit()
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        company_jobs.duplicate_job(db, cast.company.id, original.id, dates)

    assert caught.value.field_errors == {"datas": message}
    assert snapshot(db) == before


@pytest.mark.parametrize(("day", "message"), [(0, SHIFT_TOO_SOON), (-1, SHIFT_TOO_SOON), (61, SHIFT_TOO_LATE)])
def test_one_date_out_of_the_window_refuses_all(db, cast, day, message):
    original = make_job(db, cast.company, "Garçom", inicio_em=datetime.now(UTC) + timedelta(hours=1))
    db.commit()
    before = snapshot(db)

    with pytest.raises(ValidationFailed) as caught:
        company_jobs.duplicate_job(db, cast.company.id, original.id, _dates(5, day))

    assert caught.value.field_errors["datas"].endswith(message)
    assert snapshot(db) == before


def test_copies_beyond_the_plan_are_all_refused(db, cast):
    original = make_job(db, cast.company, "Garçom")  # the free plan allows 2 active jobs
    db.commit()
    before = snapshot(db)

    with pytest.raises(PlanLimitReached) as caught:
        company_jobs.duplicate_job(db, cast.company.id, original.id, _dates(5, 6))

    assert caught.value.message == FREE_LIMIT
    assert snapshot(db) == before
    assert len(company_jobs.duplicate_job(db, cast.company.id, original.id, _dates(5))) == 1


@pytest.mark.parametrize("who", ["rival", "freelancer"])
def test_a_stranger_cannot_duplicate_and_nothing_changes(db, cast, who):
    original = make_job(db, cast.company, "Garçom")
    db.commit()
    before = snapshot(db)
    stranger = cast.rival if who == "rival" else cast.freelancer

    with pytest.raises(NotAllowed) as caught:
        company_jobs.duplicate_job(db, stranger.id, original.id, _dates(5))

    assert caught.value.message == JOB_NOT_FOUND
    assert snapshot(db) == before
