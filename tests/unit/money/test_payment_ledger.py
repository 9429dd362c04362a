"""The ledger adds up: for every hiring, charged = transferred + refunded + Turno's fee (a property test).

A seeded generator makes 1,000 hirings with protected payments in every ending a hiring can have —
hours approved below, at or above what was paid (with the top-up paid or still owed), a company's
early or late cancellation, a freelancer's cancellation, a no-show, money that arrived after the
Checkout expired and the company accepted again — on the three plans, with Stripe refusing some
transfers and refunds on the way. The timer settles them all (retrying what failed) against the
local Stripe fake, which plays the bank. Then, for every hiring: the ledger balances per payment,
Stripe's own transfers and refunds match the ledger line by line, the freelancer got exactly what
the rules owe (capped by what was paid), Turno kept its percentage of it and nothing else, and an
approved hiring paid in full is 'paga'. Runs on both databases.
"""

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import insert, select
from sqlmodel import Session

from core.db import session_scope
from core.types import utcnow
from models import Application, Hiring, Job, MoneyMovement, ProtectedPayment
from services.jobs import pricing, shift_pay
from services.money import receipts, settlement
from tests.support.factories import make_company, make_freelancer, make_job, make_subscription
from tests.support.payouts import ready_payout_account

HIRINGS = 1000
SEED = 20261128
ENDINGS = (
    "aprovada_menos",
    "aprovada_igual",
    "aprovada_mais_pago",
    "aprovada_mais_devendo",
    "cancelada_cedo",
    "cancelada_tarde",
    "cancelada_freelancer",
    "nao_compareceu",
    "expirada_paga_depois",
    "aceita_de_novo",
)
STATE_OF = {
    "cancelada_cedo": "cancelada_empresa",
    "cancelada_tarde": "cancelada_empresa",
    "cancelada_freelancer": "cancelada_freelancer",
    "nao_compareceu": "nao_compareceu",
    "expirada_paga_depois": "expirada",
}


@dataclass
class Case:
    """One generated hiring: how it ended and what the rules say the freelancer is owed."""

    hiring_id: int
    ending: str
    percent: int
    owed: int
    paid_parts: int  # the hours' parts of the payments that count (acceptance + top-up)


def _people(db: Session, fake) -> tuple[list, list, list[Job]]:
    companies = [make_company(db) for _ in range(3)]
    for company, tier in zip(companies[1:], ("premium", "enterprise"), strict=True):
        make_subscription(db, company, tier=tier)
    freelancers = [make_freelancer(db) for _ in range(20)]
    for freelancer in freelancers:
        db.add(ready_payout_account(fake, freelancer.id, freelancer.email))
    jobs = [make_job(db, companies[n % 3], f"Vaga {n}", pagamento="garantido") for n in range(50)]
    db.commit()
    return companies, freelancers, jobs


def _generate(db: Session, fake, rng: random.Random) -> list[Case]:
    """Insert the hirings, their paid payments and charge ledger lines; what each one is owed."""
    companies, freelancers, jobs = _people(db, fake)
    percent_of = {c.id: pricing.fee_percent(db, c.id) for c in companies}
    now = utcnow()
    cases = []
    for n in range(HIRINGS):
        job, freelancer = jobs[n % len(jobs)], freelancers[n // len(jobs)]
        ending = rng.choice(ENDINGS)
        rate = rng.randrange(1500, 9001, 5)
        scheduled = rng.randrange(120, 721, 15)
        percent = percent_of[job.cliente_id]
        part = shift_pay.pay(scheduled, rate)
        approved = {
            "aprovada_menos": rng.randrange(0, scheduled),
            "aprovada_igual": scheduled,
            "aprovada_mais_pago": scheduled + rng.randrange(15, 240, 15),
            "aprovada_mais_devendo": scheduled + rng.randrange(15, 240, 15),
            "aceita_de_novo": rng.randrange(60, scheduled + 1),
        }.get(ending)
        value = shift_pay.pay(approved, rate) if approved is not None else None
        fee_owed = shift_pay.pay(min(240, scheduled), rate) if ending == "cancelada_tarde" else 0
        application_id = db.execute(
            insert(Application)
            .values(vaga_id=job.id, freelancer_id=freelancer.id, status="accepted")
            .returning(Application.id)
        ).scalar_one()
        hiring = Hiring(  # a fixture row in its final state (the paths there are tested elsewhere)
            application_id=application_id,
            job_id=job.id,
            company_id=job.cliente_id,
            freelancer_id=freelancer.id,
            state=STATE_OF.get(ending, "aprovada"),
            inicio_em=now - timedelta(days=3),
            fim_em=now - timedelta(days=3) + timedelta(minutes=scheduled),
            valor_hora_centavos=rate,
            pagamento="garantido",
            minutos_aprovados=approved,
            valor_centavos=value,
            taxa_cancelamento_centavos=fee_owed,
            repasse_em=now - timedelta(minutes=rng.randrange(0, 600)),
            created_at=now - timedelta(days=5),
            updated_at=now - timedelta(days=1),
        )
        db.add(hiring)
        db.flush()
        hiring_id = hiring.id
        payments = [("aceite", part)]
        if ending == "aceita_de_novo":  # an older acceptance paid late: refunded whole, never counted
            payments.insert(0, ("aceite", part))
        if ending == "aprovada_mais_pago":
            payments.append(("complemento", value - part))
        for kind, freelancer_part in payments:
            _pay(db, fake, hiring_id, job.cliente_id, kind, freelancer_part, percent)
        counted = sum(p for _k, p in payments[1:] if ending == "aceita_de_novo") or sum(p for _k, p in payments)
        owed = {"aprovada": value, "cancelada_empresa": fee_owed}.get(STATE_OF.get(ending, "aprovada"), 0)
        cases.append(Case(hiring_id, ending, percent, owed, counted))
    db.commit()
    return cases


def _pay(db: Session, fake, hiring_id: int, company_id: int, kind: str, part: int, percent: int) -> None:
    fee = pricing.fee(part, percent)
    intent_id, charge_id = fake.paid_charge(part + fee, f"turno-contratacao-{hiring_id}")
    now = utcnow()
    payment_id = db.execute(
        insert(ProtectedPayment)
        .values(
            hiring_id=hiring_id,
            company_id=company_id,
            kind=kind,
            status="pago",
            freelancer_centavos=part,
            fee_centavos=fee,
            fee_percent=percent,
            checkout_session_id=f"cs_{intent_id}",
            payment_intent_id=intent_id,
            charge_id=charge_id,
            paid_at=now,
            created_at=now,
            updated_at=now,
        )
        .returning(ProtectedPayment.id)
    ).scalar_one()
    db.execute(
        insert(MoneyMovement).values(
            hiring_id=hiring_id,
            payment_id=payment_id,
            kind="cobranca",
            amount_centavos=part + fee,
            stripe_id=charge_id,
            key=f"turno-cobranca-{payment_id}",
            created_at=now,
        )
    )


def _settle_all(fake, rng: random.Random) -> int:
    """The timer, tick after tick (100 hirings per batch), with Stripe refusing now and then.

    Returns:
        How many ticks it took for nothing to be due.
    """
    now = utcnow()
    for ticks in range(1, 40):
        while True:
            for _ in range(rng.randrange(0, 3)):
                fake.fail(rng.choice(("/v1/transfers", "/v1/refunds")), rng.choice((402, 500)), "Falha simulada.")
            if not settlement.settle_due(now, limit=100) and not _due(now):
                break
        now += timedelta(hours=7)  # past the longest backoff
        if not _due(now):
            return ticks
    raise AssertionError("settlements still due after 40 ticks")


def _due(now) -> bool:
    with session_scope() as db:
        return bool(settlement.due_hirings(db, now, 1))


def test_every_hiring_balances_and_stripe_agrees_with_the_ledger(db, fake):
    rng = random.Random(SEED)
    cases = _generate(db, fake, rng)
    assert {c.ending for c in cases} == set(ENDINGS)
    ticks = _settle_all(fake, rng)
    assert ticks > 1  # some steps were refused and retried
    assert len(fake.transfers) > HIRINGS // 2 and len(fake.refunds) > HIRINGS // 4

    lines = defaultdict(lambda: defaultdict(int))
    for movement in db.exec(select(MoneyMovement)).scalars():
        lines[movement.payment_id][movement.kind] += movement.amount_centavos
    at_stripe = defaultdict(lambda: defaultdict(int))
    for transfer in fake.transfers.values():
        at_stripe[int(transfer["metadata"]["hiring_id"])]["repasse"] += transfer["amount"]
    for refund in fake.refunds.values():
        at_stripe[int(refund["metadata"]["hiring_id"])]["estorno"] += refund["amount"]

    for payment in db.exec(select(ProtectedPayment)).scalars():
        got = lines[payment.id]
        assert got["cobranca"] == got["repasse"] + got["estorno"] + got["taxa"], payment
        assert got["taxa"] == min(pricing.fee(got["repasse"], payment.fee_percent), payment.fee_centavos)
    states = dict(db.exec(select(Hiring.id, Hiring.state)).all())
    for case in cases:
        totals = receipts.ledger_totals(db, case.hiring_id)
        assert totals["cobranca"] == totals["repasse"] + totals["estorno"] + totals["taxa"], case
        assert at_stripe[case.hiring_id]["repasse"] == totals["repasse"], case
        assert at_stripe[case.hiring_id]["estorno"] == totals["estorno"], case
        assert totals["repasse"] == min(case.owed, case.paid_parts), case
        if case.ending.startswith("aprovada") or case.ending == "aceita_de_novo":
            expected = "aprovada" if case.owed > case.paid_parts else "paga"
            assert states[case.hiring_id] == expected, case
    assert len(fake.transfers) == len({t["metadata"]["payment_id"] for t in fake.transfers.values()})
