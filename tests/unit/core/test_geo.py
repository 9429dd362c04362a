"""Distances between points, the check-in pass rule and the stored distance buckets."""

import math

import pytest

from core import geo
from core.geo import bucket, bucket_label, distance_m, passes, valid_point

PRACA_DA_SE = (-23.5503, -46.6339)
MASP = (-23.5614, -46.6559)


def test_one_degree_of_longitude_at_the_equator():
    assert distance_m(0, 0, 0, 1) == pytest.approx(111_195, abs=1)


def test_one_degree_of_latitude_along_a_meridian():
    assert distance_m(0, 10, 1, 10) == pytest.approx(111_195, abs=1)


def test_praca_da_se_to_masp():
    # Computed once: 2,559.68 m (haversine; an equirectangular estimate agrees to the millimetre).
    assert distance_m(*PRACA_DA_SE, *MASP) == pytest.approx(2_560, abs=30)


def test_distance_is_symmetric():
    assert distance_m(*PRACA_DA_SE, *MASP) == pytest.approx(distance_m(*MASP, *PRACA_DA_SE))


def test_same_point_is_zero():
    assert distance_m(*MASP, *MASP) == 0


def test_antipodes_are_half_the_circumference():
    assert distance_m(0, 0, 0, 180) == pytest.approx(math.pi * geo.EARTH_RADIUS_M)


def test_crossing_the_antimeridian():
    assert distance_m(0, 179.5, 0, -179.5) == pytest.approx(111_195, abs=1)


@pytest.mark.parametrize(
    ("distance", "key"),
    [
        (0, "ate_150"),
        (150, "ate_150"),
        (150.01, "150_500"),
        (500, "150_500"),
        (500.01, "500_2000"),
        (2000, "500_2000"),
        (2000.01, "acima_2000"),
        (1e9, "acima_2000"),
        (math.inf, "acima_2000"),
        (None, "sem_leitura"),
        (math.nan, "sem_leitura"),
    ],
)
def test_bucket_boundaries(distance, key):
    assert bucket(distance) == key


def test_bucket_labels():
    assert [bucket_label(key) for key in geo.BUCKETS] == [
        "até 150 m",
        "150–500 m",
        "500 m–2 km",
        "acima de 2 km",
        "sem leitura",
    ]
    assert bucket_label(bucket(None)) == "sem leitura"
    with pytest.raises(KeyError):
        bucket_label("perto")


@pytest.mark.parametrize(
    ("distance", "accuracy", "expected"),
    [
        (150, None, True),
        (150.01, None, False),
        (200, 50, True),
        (200.01, 50, False),
        (250, 500, True),  # the allowance stops at 100 m
        (250.01, 500, False),
        (150, -30, True),  # a negative accuracy counts 0
        (150.01, -30, False),
        (150.01, math.nan, False),
        (150.01, math.inf, False),
        (0, None, True),
    ],
)
def test_passes(distance, accuracy, expected):
    assert passes(distance, accuracy) is expected


def test_pass_constants():
    assert (geo.PASS_RADIUS_M, geo.ACCURACY_ALLOWANCE_MAX_M) == (150, 100)


@pytest.mark.parametrize(
    ("lat", "lng", "expected"),
    [
        (0, 0, True),
        (-23.5503, -46.6339, True),
        (90, 180, True),
        (-90, -180, True),
        (90.0001, 0, False),
        (0, -180.0001, False),
        (math.nan, 0, False),
        (0, math.inf, False),
        (True, 0, False),
        (0, False, False),
        ("-23.5", "-46.6", False),
        (None, None, False),
    ],
)
def test_valid_point(lat, lng, expected):
    assert valid_point(lat, lng) is expected
