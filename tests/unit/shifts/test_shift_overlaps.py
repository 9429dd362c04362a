"""One freelancer, one place at a time (services/shifts/overlaps.py), on SQLite and PostgreSQL.

Accepting ('Aceitar', 'Aceitar e pagar', 'Aceitar convite') and sending 'Contratar novamente' refuse a
shift that overlaps one the freelancer holds, naming the held shift's time and never its company.
Touching shifts are fine; cancelled and expired ones hold no time. Two accepts of overlapping vagas
for one freelancer at the same instant hire once (PostgreSQL, many rounds).
"""

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from sqlmodel import Session, func, select

from core.shift_rules import LOCAL_TZ
from core.types import utcnow
from models import Actor, Application, Hiring, Invite, Job, Profile, User
from services.common.errors import ServiceError
from services.shifts import application_answers, hiring_lifecycle
from services.trust import invite_sending, invites
from tests.support.factories import make_application, make_company, make_freelancer, make_job
from tests.support.payouts import ready_payout_account
from tests.support.threads import at_once

H = timedelta(hours=1)
HELD = "das 10:57 às 16:57 em {day}"
OVERLAP = "Este profissional já tem um turno das "


def _day(days: int = 10) -> datetime:
    """A local day `days` ahead at 00:00 (São Paulo)."""
    return (utcnow().astimezone(LOCAL_TZ) + timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0)


def _at(day: datetime, hour: int, minute: int = 0) -> datetime:
    return day.replace(hour=hour, minute=minute)


def _vaga(db: Session, company: User, title: str, start: datetime, end: datetime, **fields) -> Job:
    return make_job(db, company, title, inicio_em=start, fim_em=end, valor_hora=30, **fields)


def _hired(db: Session, company: User, freelancer: User, start: datetime, end: datetime, title: str = "Garçom"):
    """A vaga and the freelancer's application to it, accepted (committed)."""
    job = _vaga(db, company, title, start, end)
    application = make_application(db, job, freelancer)
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    return db.exec(select(Hiring).where(Hiring.application_id == application.id)).one()


def _refused(db: Session, call: Callable[[], object]) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        call()
    db.rollback()
    return refused.value


def _hirings(db: Session, freelancer: User) -> int:
    db.expire_all()
    return db.exec(select(func.count()).select_from(Hiring).where(Hiring.freelancer_id == freelancer.id)).one()


def test_accepting_an_overlapping_shift_is_refused_naming_the_held_time(db):
    day = _day()
    first, second = make_company(db, empresa="Bar do Zé"), make_company(db, empresa="Hotel Sol")
    freelancer = make_freelancer(db)
    _hired(db, first, freelancer, _at(day, 10, 57), _at(day, 16, 57))
    job = _vaga(db, second, "Auxiliar de cozinha", _at(day, 11, 12), _at(day, 15, 12))
    application = make_application(db, job, freelancer)
    db.commit()

    refusal = _refused(db, lambda: application_answers.accept(db, second.id, application.id, False))

    assert refusal.message == f"Este profissional já tem um turno {HELD.format(day=day.strftime('%d/%m'))}."
    assert "Bar do Zé" not in refusal.message
    assert db.get(Application, application.id, populate_existing=True).status == "pending"
    assert _hirings(db, freelancer) == 1


def test_touching_shifts_are_allowed_and_cancelled_or_expired_ones_hold_no_time(db):
    day = _day()
    company = make_company(db)
    freelancer = make_freelancer(db)
    morning = _hired(db, company, freelancer, _at(day, 8), _at(day, 12))
    _hired(db, company, freelancer, _at(day, 12), _at(day, 16))  # starts as the morning ends
    assert _hirings(db, freelancer) == 2
    held = db.get(Hiring, morning.id)
    hiring_lifecycle.move(db, held, "cancelar", Actor.FREELANCER, utcnow(), actor_id=freelancer.id, reason="Imprevisto")
    db.commit()
    _hired(db, company, freelancer, _at(day, 9), _at(day, 11))  # inside the cancelled one's time
    assert _hirings(db, freelancer) == 3


def test_an_overlap_across_midnight_is_refused(db):
    day = _day()
    company = make_company(db)
    freelancer = make_freelancer(db)
    _hired(db, company, freelancer, _at(day, 22), _at(day, 22) + 6 * H)
    job = _vaga(db, company, "Copa", _at(day, 22) + 5 * H, _at(day, 22) + 9 * H)
    application = make_application(db, job, freelancer)
    db.commit()
    refusal = _refused(db, lambda: application_answers.accept(db, company.id, application.id))
    assert refusal.message == f"Este profissional já tem um turno das 22:00 às 04:00 em {day:%d/%m}."


def test_aceitar_e_pagar_is_refused_while_an_unpaid_shift_holds_the_time_and_after_it_expired(db, fake):
    """The guaranteed path: the hiring is made by the acceptance, 'aguardando_pagamento' while paid."""
    day = _day()
    company = make_company(db)
    db.get(Profile, company.id).cnpj = "12ABC34501DE35"
    other = make_company(db)
    freelancer = make_freelancer(db)
    db.add(ready_payout_account(fake, freelancer.id, freelancer.email))
    db.commit()
    guaranteed = _vaga(db, company, "Garçom", _at(day, 10, 57), _at(day, 16, 57), pagamento="garantido")
    paid_application = make_application(db, guaranteed, freelancer)
    db.commit()
    application_answers.accept(db, company.id, paid_application.id)
    db.commit()
    waiting = db.exec(select(Hiring).where(Hiring.application_id == paid_application.id)).one()
    assert waiting.state == "aguardando_pagamento"

    direct = _vaga(db, other, "Copa", _at(day, 11, 12), _at(day, 15, 12))
    direct_application = make_application(db, direct, freelancer)
    db.commit()
    refusal = _refused(db, lambda: application_answers.accept(db, other.id, direct_application.id))
    assert refusal.message == f"Este profissional já tem um turno das 10:57 às 16:57 em {day:%d/%m}."

    # Unpaid, it expires (the time is free again); the other company hires; accepting again is refused.
    hiring_lifecycle.move(  # money hears the move and returns the application to pending (money/expiry.py)
        db, hiring_lifecycle.reread(db, waiting.id), "pagamento_nao_concluido", hiring_lifecycle.TIMER, utcnow()
    )
    db.commit()
    application_answers.accept(db, other.id, direct_application.id)
    db.commit()
    refusal = _refused(db, lambda: application_answers.accept(db, company.id, paid_application.id))
    assert refusal.message == f"Este profissional já tem um turno das 11:12 às 15:12 em {day:%d/%m}."
    assert db.get(Hiring, waiting.id, populate_existing=True).state == "expirada"


def _paid_together(db: Session, company: User, freelancer: User) -> None:
    start = utcnow() - timedelta(days=6)
    job = make_job(db, company, "Bartender", inicio_em=start, fim_em=start + 6 * H, valor_hora=40, status="closed")
    application = make_application(db, job, freelancer, status="accepted")
    db.add(
        Hiring(
            state="paga",
            application_id=application.id,
            job_id=job.id,
            company_id=company.id,
            freelancer_id=freelancer.id,
            inicio_em=start,
            fim_em=start + 6 * H,
            valor_hora_centavos=4000,
        )
    )
    db.commit()


def _invite_form(day: datetime, start: str, end: str) -> dict:
    return {"data": day.date().isoformat(), "inicio": start, "fim": end, "valor_hora": "30,00", "mensagem": ""}


def test_contratar_novamente_is_refused_when_sent_and_when_accepted_over_a_held_shift(db):
    day = _day()
    company, other = make_company(db, empresa="Bar do Zé"), make_company(db, empresa="Hotel Sol")
    freelancer = make_freelancer(db)
    _paid_together(db, company, freelancer)

    # Sent over a shift already held: the company reads the held time.
    _hired(db, other, freelancer, _at(day, 10, 57), _at(day, 16, 57))
    refusal = _refused(
        db, lambda: invite_sending.send(db, company.id, freelancer.id, _invite_form(day, "11:12", "15:12"), False)
    )
    assert refusal.message == f"Este profissional já tem um turno das 10:57 às 16:57 em {day:%d/%m}."
    assert db.exec(select(Invite)).all() == []

    # Sent while free, then the time was taken: accepting tells the freelancer, and the invite stays open.
    later = _day(12)
    invite_id = invite_sending.send(db, company.id, freelancer.id, _invite_form(later, "11:12", "15:12"), False)
    db.commit()
    _hired(db, other, freelancer, _at(later, 10, 57), _at(later, 16, 57))
    refusal = _refused(db, lambda: invites.accept(db, freelancer.id, invite_id))
    assert refusal.message == f"Você já tem um turno das 10:57 às 16:57 em {later:%d/%m}."
    assert db.get(Invite, invite_id, populate_existing=True).status == "pendente"
    assert _hirings(db, freelancer) == 3


# --- two simultaneous accepts (PostgreSQL) -------------------------------------------------------------

ROUNDS = 20


def test_two_companies_accepting_overlapping_shifts_at_once_hire_once(db):
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("simultaneous requests are raced on PostgreSQL (SQLite has one writer)")
    first, second = make_company(db), make_company(db)
    day = _day()
    for round_number in range(ROUNDS):
        freelancer = make_freelancer(db)
        start = _at(day, 10, 57) + timedelta(days=round_number % 5)
        one = _vaga(db, first, "Garçom", start, start + 6 * H)
        two = _vaga(db, second, "Copa", start + 15 * timedelta(minutes=1), start + 4 * H + 15 * timedelta(minutes=1))
        a, b = make_application(db, one, freelancer), make_application(db, two, freelancer)
        db.commit()
        ids = (first.id, a.id), (second.id, b.id)

        results = at_once([lambda s, c=c, i=i: application_answers.accept(s, c, i) for c, i in ids])

        won = [result for result in results if isinstance(result, int)]
        lost = [result for result in results if isinstance(result, ServiceError) and OVERLAP in result.message]
        assert (len(won), len(lost)) == (1, 1), (round_number, results)
        assert _hirings(db, freelancer) == 1, round_number
        accepted = db.exec(
            select(func.count())
            .select_from(Application)
            .where(Application.freelancer_id == freelancer.id, Application.status == "accepted")
        ).one()
        assert accepted == 1, round_number
