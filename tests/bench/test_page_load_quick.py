"""The page-load benchmark still runs: quick mode (route /, mobile preset, one Lighthouse run).

Reuses the frontend build in .web when there is one (the e2e tests make it); no thresholds on
scores or timings, only that a score and byte counts came out.
"""

import pytest

from bench import page_load


@pytest.fixture
def quick_mode(monkeypatch):
    monkeypatch.setenv("BENCH_QUICK", "1")


def test_quick_page_load_reports_score_and_bytes(quick_mode, capsys):
    result = page_load.main()

    (measured,) = result["measurements"]
    assert (measured.site, measured.route, measured.preset) == ("app", "/", "mobile")
    assert 0 <= measured.score <= 100
    assert measured.lcp_ms > 0
    (counted,) = result["bytes"]
    assert counted.route == "/"
    assert counted.scripts > 0
    assert 0 < counted.js_gzip < counted.js_raw
    assert counted.text_resources > 0
    assert "Goals (app):" in capsys.readouterr().out
    assert 0 < measured.seo <= 100
    assert 0 < measured.accessibility <= 100
