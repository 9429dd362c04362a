"""The team-first and blocks benchmark runs end to end in quick mode, and each list holds what it must.

2,000 jobs, 2% held for a team and 0.5% private: the visitor's list leaves out exactly those, the
blocked freelancer's list also the hidden companies' public vagas, the member sees their teams'
held vagas and a held vaga's page, visitors do not. How fast is for docs/performance.md, never
asserted here.
"""

from bench import harness
from tests.bench.support import run_quick

ENGINES = {"SQLite", "PostgreSQL"} if harness.postgres_url() else {"SQLite"}

TEAM_VISIBILITY = """
from bench import team_visibility

team_visibility.main()
"""


def test_every_list_holds_what_the_visibility_rule_says_on_every_engine():
    rows = run_quick(TEAM_VISIBILITY)
    assert {row["engine"] for row in rows} == ENGINES
    for row in rows:
        assert row["held"] > 0 and row["private"] > 0 and row["hidden_public"] > 0 and row["team_total"] > 0
        assert row["visitor_total"] == row["before_total"] - row["held"] - row["private"]
        assert row["blocked_total"] == row["visitor_total"] - row["hidden_public"]
        assert row["team_items"] == min(row["team_total"], 10)
        assert row["team_page_seen"] and row["team_page_hidden_from_visitors"]
        assert row["p50"] > 0
