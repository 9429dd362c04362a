"""One location reading compared with the shift's point, and the distance bucket that is stored.

Only the bucket of a check-in's distance is kept (`bucket`), never the worker's coordinates.
"""

import math

EARTH_RADIUS_M = 6_371_008.8
PASS_RADIUS_M = 150
ACCURACY_ALLOWANCE_MAX_M = 100
# A reading whose accuracy radius is wider than this says nothing about where the device is (a
# coarse network fix covers a neighbourhood): it is refused as too imprecise, not compared.
ACCURACY_MAX_M = 5000

BUCKETS = {
    "ate_150": "até 150 m",
    "150_500": "150–500 m",
    "500_2000": "500 m–2 km",
    "acima_2000": "acima de 2 km",
    "sem_leitura": "sem leitura",
}


def distance_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance between two points (haversine, mean Earth radius 6,371,008.8 m).

    Args:
        lat1: Latitude of the first point, in degrees.
        lng1: Longitude of the first point, in degrees.
        lat2: Latitude of the second point, in degrees.
        lng2: Longitude of the second point, in degrees.

    Returns:
        The distance in metres.
    """
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    half_dphi = (phi2 - phi1) / 2
    half_dlambda = math.radians(lng2 - lng1) / 2
    h = math.sin(half_dphi) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(half_dlambda) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(min(1.0, max(0.0, h))))


def passes(distance: float, accuracy: float | None) -> bool:
    """Whether a reading is close enough to the shift's point.

    The reading passes within `PASS_RADIUS_M` plus the reading's accuracy, the accuracy counting
    for at most `ACCURACY_ALLOWANCE_MAX_M` (a missing, negative or non-finite accuracy counts 0).

    Args:
        distance: Distance from the shift's point, in metres.
        accuracy: Accuracy radius reported by the device, in metres, or None.

    Returns:
        True if `distance` ≤ 150 + min(max(accuracy, 0), 100).
    """
    allowance = accuracy if accuracy is not None and math.isfinite(accuracy) else 0
    return distance <= PASS_RADIUS_M + min(max(allowance, 0), ACCURACY_ALLOWANCE_MAX_M)


def bucket(distance: float | None) -> str:
    """The stored bucket (a key of `BUCKETS`) of a distance.

    Args:
        distance: Distance in metres, or None when there was no reading.

    Returns:
        'ate_150' (≤ 150 m), '150_500' (≤ 500 m), '500_2000' (≤ 2 km), 'acima_2000', or
        'sem_leitura' for None (or NaN).
    """
    if distance is None or math.isnan(distance):
        return "sem_leitura"
    if distance <= 150:
        return "ate_150"
    if distance <= 500:
        return "150_500"
    if distance <= 2000:
        return "500_2000"
    return "acima_2000"


def bucket_label(key: str) -> str:
    """The Portuguese label of a bucket key (e.g. 'ate_150' → 'até 150 m').

    Raises:
        KeyError: If `key` is not a key of `BUCKETS`.
    """
    return BUCKETS[key]


def _coordinate(value: object, limit: float) -> bool:
    """Whether `value` is a finite int or float (not a bool) within ±`limit`."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and -limit <= value <= limit
    )


def valid_point(lat: object, lng: object) -> bool:
    """Whether (`lat`, `lng`) is a usable point: finite numbers within ±90 and ±180 (bools refused)."""
    return _coordinate(lat, 90) and _coordinate(lng, 180)


def valid_accuracy(accuracy: object) -> bool:
    """Whether `accuracy` is a radius a device can report: a finite number of metres above 0 (bools refused).

    A browser always sends one (GeolocationCoordinates.accuracy is never missing, negative or
    zero); anything else was written by a script. Too wide a radius is `precise_enough`'s question.
    """
    return (
        isinstance(accuracy, int | float)
        and not isinstance(accuracy, bool)
        and math.isfinite(accuracy)
        and accuracy > 0
    )


def precise_enough(accuracy: float) -> bool:
    """Whether a valid accuracy radius is at most ACCURACY_MAX_M (5 km): wider says nothing about the place."""
    return accuracy <= ACCURACY_MAX_M
