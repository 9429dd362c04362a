"""The city box benchmark runs end to end in quick mode and measures what it says.

How fast is for docs/performance.md, never asserted here.
"""

from tests.bench.support import run_quick

CITY_SUGGEST = """
from bench import city_suggest

city_suggest.main()
"""


def test_city_suggestions_and_best_matches_are_measured_over_the_whole_list():
    result = run_quick(CITY_SUGGEST)

    assert result["municipalities"] == 5571
    assert result["keystrokes"] > 50 and result["suggested"] > result["keystrokes"]  # every prefix found cities
    assert result["free_texts"] == 40 and 0 < result["matched"] < result["free_texts"]  # 'Remoto' stays
    assert result["suggest_ms"] > 0 and result["bare_scan_ms"] > 0 and result["best_match_ms"] > 0
