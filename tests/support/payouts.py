"""A freelancer ready to receive protected payments, for tests and benchmarks (a fixture row).

The onboarding round trip itself is tested in tests/unit/money/test_payouts.py and tests/e2e/test_earnings.py.
"""

from models import CpfStatus, PayoutAccount
from tests.support.fake_stripe import FakeStripe


def ready_payout_account(fake: FakeStripe, user_id: int, email: str) -> PayoutAccount:
    """The freelancer's payout row on a connected account at `fake` that finished onboarding, CPF verified (not added)."""
    return PayoutAccount(
        user_id=user_id,
        cpf=f"{user_id:011d}",
        cpf_status=CpfStatus.VERIFIED,
        stripe_account_id=fake.ready_account(email),
        details_submitted=True,
        payouts_enabled=True,
    )
