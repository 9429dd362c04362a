"""What Stripe reports about a freelancer's connected account, and whose a CPF is.

Stripe's answers (`refresh_account`, on the way back from onboarding) and its verified
`account.updated` webhook (`on_account_updated`) are the only source of the account's state. When
Stripe reports that account's individual verified, the account holds the CPF
(`CpfStatus.VERIFIED`, one per CPF by a partial unique index) and every other claim on it is
released (`settle_claim`); support can take a CPF away (`release_claim`). Every decision on a claim
is written to the security log.
"""

import logging

import stripe
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core import audit
from core.types import utcnow
from models import CpfStatus, PayoutAccount
from services.jobs.pricing import configured
from services.money import stripe_api
from services.money.payouts import account_of

log = logging.getLogger(__name__)


def _apply(row: PayoutAccount, account: dict) -> None:
    requirements = account.get("requirements") or {}
    row.details_submitted = bool(account.get("details_submitted"))
    row.payouts_enabled = bool(account.get("payouts_enabled"))
    row.requirements_due = len(requirements.get("currently_due") or [])
    row.updated_at = utcnow()


def individual_verified(account: dict) -> bool:
    """Whether Stripe reports the connected account's individual verified, with the id number we sent.

    Stripe's Account object: `individual.verification.status` is 'verified' and
    `individual.id_number_provided` is true. Where Stripe leaves `individual` out (it returns only a
    subset of the person of an account whose requirements Stripe collects, once onboarding began),
    the account's `requirements` decide: payouts enabled and nothing about the individual still
    due, past due or pending verification.
    """
    individual = account.get("individual")
    if isinstance(individual, dict) and isinstance(individual.get("verification"), dict):
        return individual["verification"].get("status") == "verified" and individual.get("id_number_provided") is True
    requirements = account.get("requirements") or {}
    lists = ("currently_due", "past_due", "eventually_due", "pending_verification")
    open_items = [item for key in lists for item in requirements.get(key) or []]
    return bool(account.get("payouts_enabled")) and not any(str(i).startswith("individual.") for i in open_items)


def _claim_event(row: PayoutAccount, outcome: str, reason: str, **details: object) -> None:
    audit.log_event(
        "payout.cpf_claim",
        who=audit.user_ref(row.user_id),
        what=f"payout_account:{row.stripe_account_id or row.user_id}",
        where="stripe",
        outcome=outcome,
        reason=reason,
        **details,
    )


def _verified_holder(session: Session, row: PayoutAccount) -> int | None:
    return session.exec(
        select(PayoutAccount.user_id).where(
            PayoutAccount.cpf == row.cpf,
            PayoutAccount.cpf_status == CpfStatus.VERIFIED,
            PayoutAccount.user_id != row.user_id,
        )
    ).first()


def _hold(session: Session, row: PayoutAccount) -> bool:
    """Mark the row's CPF verified; False when the unique index says another account holds it."""
    try:
        with session.begin_nested():  # flushes the earlier changes first, so only this one can roll back
            row.cpf_status = CpfStatus.VERIFIED
            session.add(row)
            session.flush()
    except IntegrityError:
        return False
    return True


def settle_claim(session: Session, row: PayoutAccount, account: dict) -> None:
    """Stripe verified the row's individual: the row holds its CPF and other claims on it are released.

    A row whose claim was released stays released (its holder talks to support), and a row whose
    CPF another account already holds verified goes to CONFLICT until support releases that
    account (`release_claim`; the next read of this account then settles it). The partial unique
    index keeps one verified account per CPF even when two verifications arrive at once.
    """
    if row.cpf_status == CpfStatus.VERIFIED or not individual_verified(account):
        return
    if row.cpf_status == CpfStatus.RELEASED:
        _claim_event(row, "denied", "verified after its claim was released")
        return
    holder = _verified_holder(session, row)
    if holder is None and not _hold(session, row):  # another account's verification of the CPF won the race
        holder = _verified_holder(session, row) or 0
    if holder is not None:
        row.cpf_status = CpfStatus.CONFLICT
        session.add(row)
        _claim_event(row, "denied", "cpf already verified on another account", holder=audit.user_ref(holder))
        return
    _release_others(session, row)
    _claim_event(row, "ok", "verified by stripe")


def _release_others(session: Session, row: PayoutAccount) -> None:
    claims = session.exec(
        select(PayoutAccount).where(
            PayoutAccount.cpf == row.cpf,
            PayoutAccount.user_id != row.user_id,
            PayoutAccount.cpf_status == CpfStatus.PENDING,
        )
    ).all()
    for claim in claims:
        claim.cpf_status = CpfStatus.RELEASED
        claim.updated_at = utcnow()
        session.add(claim)
        _claim_event(
            claim, "denied", "claim released: cpf verified on another account", holder=audit.user_ref(row.user_id)
        )


def release_claim(session: Session, user_id: int) -> bool:
    """Support's tool: take a CPF away from an account (verified or not), after checking who owns it.

    The account then sees that its CPF must be verified again and cannot receive; the CPF's owner
    is free to hold it once Stripe verifies them. Returns False when the account has no payout row.
    """
    row = account_of(session, user_id)
    if row is None:
        return False
    row.cpf_status = CpfStatus.RELEASED
    row.updated_at = utcnow()
    session.add(row)
    _claim_event(row, "ok", "claim released by support")
    return True


def refresh_account(session: Session, user_id: int) -> PayoutAccount | None:
    """Read the freelancer's connected account from Stripe (back from onboarding, before the webhook).

    A failed read changes nothing: the webhook brings the same state later.
    """
    row = account_of(session, user_id)
    if row is None or not row.stripe_account_id or not configured():
        return row
    try:
        account = stripe_api.client().v1.accounts.retrieve(row.stripe_account_id).to_dict()
    except stripe.StripeError as exc:
        log.warning("Could not read connected account %s: %s", row.stripe_account_id, exc)
        return row
    _apply(row, account)
    session.add(row)
    settle_claim(session, row, account)
    return row


def on_account_updated(session: Session, account: dict) -> None:
    """`account.updated` (a verified webhook): keep our copy of the account's state and settle its CPF."""
    account_id = account.get("id")
    if not isinstance(account_id, str) or not account_id:
        return
    row = session.exec(select(PayoutAccount).where(PayoutAccount.stripe_account_id == account_id)).first()
    if row is None:
        log.info("account.updated for an account we do not know: %s", account_id)
        return
    _apply(row, account)
    session.add(row)
    settle_claim(session, row, account)
