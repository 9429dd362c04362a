"""A location check-in refuses readings no device sends, and the cards call a reading the device's word.

A scripted `located` with a negative accuracy was recorded as 'até 150 m' (issue 41, point 8). A
browser's GeolocationCoordinates always carry a finite accuracy above 0 and coordinates within
±90/±180; anything else is refused with a plain message and nothing is written. A reading whose
accuracy is wider than 5 km is refused as too imprecise. What is recorded is shown as
'localização informada pelo aparelho', and the company reads that it counts for less than the code.
"""

import math

import pytest
from sqlalchemy import func
from sqlmodel import select

from core import geo
from models import HiringEvent, Notification
from services.common.errors import ServiceError
from services.screens import shift_views
from tests.support.factories import make_cast
from tests.support.shift_helpers import MIN, by_freelancer, hire, hiring

POINT = (-23.5613, -46.6565)  # the shift's point on the map (Av. Paulista)
NEAR = (-23.5604387, -46.6561923)  # about 100 m away
BAD_READING = "Não recebemos uma leitura de localização válida. Tente de novo ou use o código."
TOO_IMPRECISE = "Sua localização veio imprecisa demais (mais de 5 km). Tente de novo ao ar livre ou use o código."
LABEL = "localização informada pelo aparelho"
NOTE = "A localização é informada pelo aparelho do profissional e vale menos que o código de presença."


@pytest.fixture
def cast(db):
    return make_cast(db)


def _frozen(db, hiring_id) -> tuple:
    def count(table) -> int:
        return db.exec(select(func.count()).select_from(table)).one()

    return hiring(db, hiring_id).model_dump(), count(HiringEvent), count(Notification)


def _refused(db, cast, **reading) -> str:
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    before = _frozen(db, s.hiring_id)
    with pytest.raises(ServiceError) as refused:
        by_freelancer(db, s, "chegada", s.start - 5 * MIN, method="local", **reading)
    assert _frozen(db, s.hiring_id) == before
    return refused.value.message


@pytest.mark.parametrize(
    "accuracy",
    [-1, -30.5, -0.0001, 0, 0.0, -math.inf, math.inf, math.nan, None, "20", True, [20], {"metros": 20}],
    ids=repr,
)
def test_an_accuracy_no_device_reports_is_refused_and_nothing_is_written(db, cast, accuracy):
    assert _refused(db, cast, lat=NEAR[0], lng=NEAR[1], accuracy=accuracy) == BAD_READING


def test_a_reading_without_an_accuracy_is_refused(db, cast):
    assert _refused(db, cast, lat=NEAR[0], lng=NEAR[1]) == BAD_READING


@pytest.mark.parametrize("accuracy", [5000.01, 20_000, 1e9, 1e308])
def test_a_reading_wider_than_5_km_is_refused_as_too_imprecise(db, cast, accuracy):
    assert _refused(db, cast, lat=NEAR[0], lng=NEAR[1], accuracy=accuracy) == TOO_IMPRECISE


@pytest.mark.parametrize(
    ("lat", "lng"),
    [
        (90.0001, NEAR[1]),
        (-90.5, NEAR[1]),
        (NEAR[0], 180.0001),
        (NEAR[0], -181),
        (math.nan, NEAR[1]),
        (NEAR[0], math.inf),
        ("-23.56", NEAR[1]),
        (None, NEAR[1]),
        (False, NEAR[1]),
    ],
    ids=repr,
)
def test_coordinates_out_of_range_or_not_numbers_are_refused(db, cast, lat, lng):
    assert _refused(db, cast, lat=lat, lng=lng, accuracy=20) == BAD_READING


@pytest.mark.parametrize("accuracy", [0.5, 20, 5000])
def test_a_plausible_reading_is_recorded(db, cast, accuracy):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    by_freelancer(db, s, "chegada", s.start - 5 * MIN, method="local", lat=NEAR[0], lng=NEAR[1], accuracy=accuracy)
    h = hiring(db, s.hiring_id)
    assert (h.state, h.chegada_metodo, h.chegada_distancia) == ("em_andamento", "local", "ate_150")


def test_the_cards_call_the_reading_the_devices_word_and_tell_the_company_it_counts_less(db, cast):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    arrived = s.start - 5 * MIN
    by_freelancer(db, s, "chegada", arrived, method="local", lat=NEAR[0], lng=NEAR[1], accuracy=20)

    [company_card], _ = shift_views.company_shifts(db, cast.company.id, arrived)
    [freelancer_card], _ = shift_views.freelancer_shifts(db, cast.freelancer.id, arrived)

    assert company_card["arrival"].endswith(f" · {LABEL} · até 150 m")
    assert company_card["location_note"] == NOTE
    assert freelancer_card["arrival"] == company_card["arrival"]
    assert freelancer_card["location_note"] == ""


def test_a_code_check_in_has_no_location_note(db, cast):
    s = hire(db, cast.company, cast.freelancer, point=POINT)
    arrived = s.start - 5 * MIN
    by_freelancer(db, s, "chegada", arrived, method="codigo", code=s.code(arrived))
    [card], _ = shift_views.company_shifts(db, cast.company.id, arrived)
    assert LABEL not in card["arrival"] and card["location_note"] == ""


@pytest.mark.parametrize(
    ("accuracy", "valid"),
    [(0.1, True), (5000, True), (1e9, True), (0, False), (-1, False), (math.nan, False), (True, False), ("5", False)],
)
def test_valid_accuracy(accuracy, valid):
    assert geo.valid_accuracy(accuracy) is valid
    assert not valid or geo.precise_enough(accuracy) is (accuracy <= geo.ACCURACY_MAX_M)
