"""The settlement benchmark runs end to end in quick mode and settles every hiring correctly.

100 approved hirings with a paid protected payment each: every one ends 'paga' with one transfer,
the two thirds that worked fewer hours than paid get a refund, and every payment's ledger balances.
How fast is for docs/performance.md, never asserted here.
"""

from bench import harness
from tests.bench.support import run_quick

ENGINES = ["SQLite", "PostgreSQL"] if harness.postgres_url() else ["SQLite"]

SETTLEMENT = """
from bench import settlement

settlement.main()
"""


def test_settlement_pays_every_hiring_once_and_the_books_balance_on_every_engine():
    rows = run_quick(SETTLEMENT)
    assert [row["engine"] for row in rows] == ENGINES
    for row in rows:
        assert row["hirings"] == row["paid"] == row["transfers"] == row["balanced"] == 100
        assert row["refunds"] == 66  # every hiring but each third one (those worked exactly what was paid)
        assert row["settle_s"] > 0 and row["bare_s"] > 0
