"""Settling protected payments: the timer's `settle_due` against the bare Stripe calls it makes.

A throwaway database per engine gets BENCH_SETTLEMENTS approved hirings (default 2,000) with
'Pagamento garantido': each has one paid acceptance payment (a charge at the local Stripe fake of
tests/support/fake_stripe.py, which plays Stripe over HTTP) and its charge's ledger line. Two
thirds approved fewer hours than paid (a transfer and a refund each), one third exactly the hours
paid (a transfer only). Measured in the same run, against the same fake:

- **settle**: `services.money.settlement.settle_due(now)` until nothing is due — per hiring a
  lease (conditional UPDATE), one read, the transfer and the refund through the real `stripe`
  library (idempotency keys, source_transaction), a ledger line per step, and the move to 'paga'
  with its event and notification.
- **bare**: the same transfers and refunds sent with the same client, one after the other, with no
  database at all: what talking to Stripe costs by itself.

The ratio settle / bare is what our bookkeeping adds to the Stripe round trips; a correct run also
leaves every hiring 'paga' and every payment's ledger balanced (charged = transferred + refunded +
fee), which the script checks and prints. Engines: SQLite always; PostgreSQL when BENCH_DATABASE_URL
(or TEST_DATABASE_URL) names a server. BENCH_QUICK=1: 100 hirings.
"""

import json
import os
import random
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import timedelta
from functools import partial
from pathlib import Path

from alembic.config import Config
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from alembic import command
from bench import harness
from core.db import make_engine, session_scope
from core.settings import get_settings
from core.types import utcnow
from models import Application, Hiring, Job, MoneyMovement, ProtectedPayment, User
from services.jobs import pricing, shift_pay
from services.money import settlement, stripe_api
from tests.support.fake_stripe import FakeStripe, stripe_env
from tests.support.payouts import ready_payout_account

QUICK = harness.quick()
HIRINGS = 100 if QUICK else int(os.environ.get("BENCH_SETTLEMENTS", "2000"))
FREELANCERS = 50
RATE = 4000  # R$ 40,00 an hour
SCHEDULED = 330  # 5h30 paid at acceptance
NO_LOGIN = "!"  # not a bcrypt hash: nobody signs in to the bench's accounts


@dataclass
class Result:
    """One engine's figures."""

    engine: str
    hirings: int
    settle_s: float
    bare_s: float
    transfers: int
    refunds: int
    paid: int
    balanced: int

    @property
    def ratio(self) -> float:
        """settle / bare."""
        return self.settle_s / self.bare_s if self.bare_s else 0.0

    @property
    def per_hiring_ms(self) -> float:
        """Milliseconds of `settle` per hiring."""
        return self.settle_s * 1000 / max(self.hirings, 1)


def _migrate(url: str) -> None:
    cfg = Config("alembic.ini")
    cfg.attributes["database_url"] = url
    cfg.attributes["skip_logging"] = True
    command.upgrade(cfg, "head")


def fill(engine: Engine, fake: FakeStripe, count: int, rng: random.Random) -> list[tuple[int, int, str]]:
    """The approved hirings and their paid payments; (hiring id, approved minutes, payment intent) each."""
    now = utcnow()
    start = now - timedelta(days=2)
    part = shift_pay.pay(SCHEDULED, RATE)
    fee = pricing.fee(part, 12)
    with Session(engine) as db:
        company = User(email="empresa@bench.turno", password_hash=NO_LOGIN, role="client")
        freelancers = [
            User(email=f"p{n}@bench.turno", password_hash=NO_LOGIN, role="freelancer") for n in range(FREELANCERS)
        ]
        db.add_all([company, *freelancers])
        db.flush()
        for user in freelancers:
            db.add(ready_payout_account(fake, user.id, user.email))
        jobs = [
            Job(
                cliente_id=company.id,
                titulo=f"Garçom {n}",
                categoria="eventos",
                descricao="Bench.",
                localizacao="São Paulo",
                inicio_em=start,
                fim_em=start + timedelta(hours=6),
                intervalo_min=30,
                pagamento="garantido",
            )
            for n in range(count // FREELANCERS + 1)
        ]
        db.add_all(jobs)
        db.flush()
        applications = [
            Application(
                vaga_id=jobs[n // FREELANCERS].id, freelancer_id=freelancers[n % FREELANCERS].id, status="accepted"
            )
            for n in range(count)
        ]
        db.add_all(applications)
        db.flush()
        hirings = []
        for n, application in enumerate(applications):
            approved = SCHEDULED if n % 3 == 0 else rng.randrange(60, SCHEDULED, 15)
            hirings.append(
                Hiring(  # a fixture row already approved (services/shifts/hiring_lifecycle.py moves real ones)
                    application_id=application.id,
                    job_id=application.vaga_id,
                    company_id=company.id,
                    freelancer_id=application.freelancer_id,
                    state="aprovada",
                    inicio_em=start,
                    fim_em=start + timedelta(hours=6),
                    intervalo_min=30,
                    valor_hora_centavos=RATE,
                    pagamento="garantido",
                    minutos_aprovados=approved,
                    valor_centavos=shift_pay.pay(approved, RATE),
                    repasse_em=now - timedelta(seconds=n % 600),
                )
            )
        db.add_all(hirings)
        db.flush()
        payments = []
        for n, hiring in enumerate(hirings):
            intent, charge = fake.paid_charge(part + fee)
            payments.append(
                ProtectedPayment(
                    hiring_id=hiring.id,
                    company_id=company.id,
                    status="pago",
                    freelancer_centavos=part,
                    fee_centavos=fee,
                    fee_percent=12,
                    checkout_session_id=f"cs_bench_{n}",
                    payment_intent_id=intent,
                    charge_id=charge,
                    paid_at=now,
                )
            )
        db.add_all(payments)
        db.flush()
        db.add_all(
            MoneyMovement(
                hiring_id=p.hiring_id,
                payment_id=p.id,
                kind="cobranca",
                amount_centavos=p.amount_centavos,
                stripe_id=p.charge_id,
                key=f"turno-cobranca-{p.id}",
            )
            for p in payments
        )
        created = [(h.id, h.minutos_aprovados, p.payment_intent_id) for h, p in zip(hirings, payments, strict=True)]
        db.commit()
    return created


def _bare(fake: FakeStripe, created: list[tuple[int, int, str]]) -> float:
    """The same transfers and refunds, straight to the fake, no database (on fresh charges)."""
    client = stripe_api.client()
    destination = next(iter(fake.accounts))
    part = shift_pay.pay(SCHEDULED, RATE)
    total = part + pricing.fee(part, 12)
    calls = []
    for n, (_hiring, approved, _intent) in enumerate(created):
        intent, charge = fake.paid_charge(total)
        give = shift_pay.pay(approved, RATE)
        back = total - give - pricing.fee(give, 12)
        calls.append((n, intent, charge, give, back))
    started = time.perf_counter()
    for n, intent, charge, give, back in calls:
        client.v1.transfers.create(
            {"amount": give, "currency": "brl", "destination": destination, "source_transaction": charge},
            {"idempotency_key": f"bare-repasse-{n}"},
        )
        if back > 0:
            client.v1.refunds.create(
                {"payment_intent": intent, "amount": back}, {"idempotency_key": f"bare-estorno-{n}"}
            )
    return time.perf_counter() - started


def measure(engine_name: str, engine: Engine, fake: FakeStripe) -> Result:
    """Fill, settle, take the bare figure, and check the books."""
    created = fill(engine, fake, HIRINGS, random.Random(42))
    scope = partial(session_scope, engine)
    transfers_before, refunds_before = len(fake.transfers), len(fake.refunds)
    started = time.perf_counter()
    now = utcnow()
    while settlement.settle_due(now, scope, limit=500):
        pass
    settle_s = time.perf_counter() - started
    transfers, refunds = len(fake.transfers) - transfers_before, len(fake.refunds) - refunds_before
    bare_s = _bare(fake, created)
    with engine.connect() as conn:
        paid = conn.execute(select(func.count()).select_from(Hiring).where(Hiring.state == "paga")).scalar_one()
        sums = conn.execute(
            select(MoneyMovement.payment_id, MoneyMovement.kind, func.sum(MoneyMovement.amount_centavos)).group_by(
                MoneyMovement.payment_id, MoneyMovement.kind
            )
        ).all()
    books: dict[int, dict[str, int]] = {}
    for payment_id, kind, total in sums:
        books.setdefault(payment_id, {}).update({kind: int(total)})
    balanced = sum(
        1
        for b in books.values()
        if b.get("cobranca", 0) == b.get("repasse", 0) + b.get("estorno", 0) + b.get("taxa", 0)
    )
    return Result(engine_name, HIRINGS, settle_s, bare_s, transfers, refunds, paid, balanced)


def run() -> list[Result]:
    """A fake Stripe and a throwaway database per engine; every figure."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine_name in harness.engines():
            # A fake per engine: each database numbers its payments from 1, and so do the keys.
            with FakeStripe() as fake, harness.database(engine_name, Path(tmp), f"settle{HIRINGS}") as url:
                os.environ.update(stripe_env(fake))
                get_settings.cache_clear()
                _migrate(url)
                engine = make_engine(url)
                try:
                    results.append(measure("SQLite" if engine_name == "sqlite" else "PostgreSQL", engine, fake))
                finally:
                    engine.dispose()
    return results


def _print(results: list[Result]) -> None:
    print("\nSettling protected payments: settle_due vs the bare Stripe calls it makes (s)")
    print("| engine | hirings | transfers | refunds | settle s | bare Stripe calls s | settle / bare | per hiring ms |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.engine} | {r.hirings:,} | {r.transfers:,} | {r.refunds:,} | {r.settle_s:.2f} | {r.bare_s:.2f} | "
            f"{r.ratio:.1f}x | {r.per_hiring_ms:.1f} |"
        )
    for r in results:
        print(f"{r.engine}: {r.paid:,} of {r.hirings:,} hirings 'paga'; {r.balanced:,} payments balanced")


def main() -> None:
    """Run, print the table, and print the results as JSON last ('RESULT ...')."""
    results = run()
    _print(results)
    print("RESULT " + json.dumps([{**asdict(r), "ratio": r.ratio} for r in results]))


if __name__ == "__main__":
    main()
