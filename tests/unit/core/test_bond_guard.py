"""The 'Termômetro de vínculo' rule (core/bond_guard.py) at every threshold edge.

W: weeks with a shift among the last 8 (São Paulo weeks, Monday to Sunday, the new shift's week
last); S: the most shifts on one weekday in them; N: shifts in the 28 days ending at the new shift.
Yellow at W ≥ 5 or N ≥ 8; red at W ≥ 7, S ≥ 6 or N ≥ 12.
"""

from datetime import datetime, timedelta

import pytest

from core.bond_guard import RED, YELLOW, level, reading
from core.shift_rules import LOCAL_TZ

DECIDED = datetime(2026, 12, 28, 19, 0, tzinfo=LOCAL_TZ)  # a Monday evening in São Paulo
WEEK = timedelta(weeks=1)
DAY = timedelta(days=1)


def _weekly(count: int, step: timedelta = WEEK) -> list[datetime]:
    """`count` earlier shifts, one per `step`, ending one `step` before the decided shift."""
    return [DECIDED - step * n for n in range(1, count + 1)]


@pytest.mark.parametrize(
    ("weeks", "weekday_max", "shifts", "expected"),
    [
        (4, 4, 7, ""),
        (5, 1, 5, YELLOW),  # W 5
        (4, 1, 8, YELLOW),  # N 8
        (4, 1, 7, ""),  # N 7
        (6, 5, 11, YELLOW),  # everything one below red
        (7, 1, 7, RED),  # W 7
        (4, 6, 6, RED),  # S 6
        (4, 5, 11, YELLOW),  # S 5 and N 11: yellow by N, below red
        (4, 1, 12, RED),  # N 12
    ],
)
def test_the_levels_at_each_threshold(weeks, weekday_max, shifts, expected):
    assert level(weeks, weekday_max, shifts) == expected


@pytest.mark.parametrize(
    ("earlier", "expected_level", "weeks", "same_weekday"),
    [
        (3, "", 4, 4),  # the 4th weekly shift: nothing shown
        (4, YELLOW, 5, 5),  # the 5th (4th rebook): yellow
        (5, RED, 6, 6),  # the 6th on the same weekday: red by S
        (7, RED, 8, 8),  # the 7th rebook: red
    ],
)
def test_a_weekly_rebook_on_the_same_weekday(earlier, expected_level, weeks, same_weekday):
    found = reading(_weekly(earlier), DECIDED)
    assert (found.level, found.weeks, found.weekday_max) == (expected_level, weeks, same_weekday)


def test_weekly_on_different_weekdays_reaches_red_by_weeks_alone():
    # One shift a week, each on another weekday: S stays low, W climbs.
    earlier = [DECIDED - WEEK * n + DAY * (n % 3 + 1) for n in range(1, 7)]
    found = reading(earlier, DECIDED)
    assert found.weekday_max < 6 and found.weeks == 7 and found.level == RED
    assert reading(earlier[:5], DECIDED).level == YELLOW  # W 6
    assert reading(earlier[:3], DECIDED).level == ""  # W 4


def test_only_the_last_eight_weeks_count():
    old = [DECIDED - WEEK * n for n in range(8, 14)]  # weeks 9 to 14 back: outside
    assert reading(old, DECIDED).weeks == 1
    just_inside = [DECIDED - WEEK * 7]  # the Monday 7 weeks back starts the window
    assert reading(just_inside, DECIDED).weeks == 2


def test_weeks_are_sao_paulo_weeks():
    sunday_night = DECIDED - timedelta(hours=19, minutes=30)  # Sunday 23:30 in São Paulo (02:30 UTC Monday)
    found = reading([sunday_night], DECIDED)
    assert found.weeks == 2  # Sunday belongs to the week before, though it is Monday in UTC
    monday_morning = DECIDED - timedelta(hours=18)  # Monday 01:00 in São Paulo
    assert reading([monday_morning], DECIDED).weeks == 1


def test_the_28_day_edge_and_daily_shifts():
    at_edge = DECIDED - timedelta(days=28)  # exactly 28 days before: outside (at − 28 d < start)
    assert reading([at_edge], DECIDED).shifts_28d == 1
    inside = DECIDED - timedelta(days=28) + timedelta(minutes=1)
    assert reading([inside], DECIDED).shifts_28d == 2
    daily = [DECIDED - DAY * n for n in range(1, 7)]
    assert (reading(daily, DECIDED).shifts_28d, reading(daily, DECIDED).level) == (7, "")
    assert reading([*daily, DECIDED - DAY * 7], DECIDED).level == YELLOW  # N 8
    eleven = [DECIDED - DAY * n for n in range(1, 12)]
    assert reading(eleven, DECIDED).level == RED  # N 12 (and W 2)


def test_later_shifts_and_the_decided_one_itself_count_once():
    later = [DECIDED + WEEK, DECIDED + 2 * WEEK]
    assert reading(later, DECIDED).shifts_28d == 1
    assert reading([DECIDED, DECIDED], DECIDED).shifts_28d == 1


def test_the_explanation_says_the_counts():
    found = reading(_weekly(4), DECIDED)
    assert found.explanation == (
        "Vocês trabalharam juntos em 5 das últimas 8 semanas, 5 vezes no mesmo dia da semana e "
        "4 vezes em 28 dias (contando este turno)."
    )
