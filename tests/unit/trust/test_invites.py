"""'Contratar novamente' (services/trust/invite_sending.py, invites.py, invite_views.py and their handlers), on both databases.

Who may invite, the private vaga and its checks, the expiry, each answer moving once (32 racing
answers make one hiring), strangers refused, the timer, the export.
"""

import threading
from collections.abc import Callable
from datetime import date, datetime, time, timedelta

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from app.pages.client_dashboard import ClientDashboardState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.shift_rules import LOCAL_TZ
from core.types import utcnow
from models import Application, Block, Falta, Hiring, Invite, Job, Profile, Role, TeamMember, User
from services.common.errors import NotAllowed, ServiceError, ValidationFailed
from services.jobs import job_detail, jobs
from services.privacy import data_export
from services.shifts import application_answers, applications, bond
from services.timer import trust_steps
from services.trust import invite_sending, invite_views, invites
from tests.support.factories import (
    make_application,
    make_company,
    make_freelancer,
    make_job,
    make_subscription,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts
from tests.unit.trust.test_trust_visibility import _scope

H = timedelta(hours=1)


def _paid_shift(db: Session, company: User, freelancer: User, start=None, cents: int = 0) -> Job:
    start = start or utcnow() - timedelta(days=6)
    job = make_job(
        db,
        company,
        "Bartender",
        inicio_em=start,
        fim_em=start + 6 * H,
        endereco="Av. Paulista, 1578 - Bela Vista, São Paulo",
        valor_hora=40,
        status="closed",
    )
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
            valor_hora_centavos=cents,
        )
    )
    db.commit()
    return job


def _form(days: int = 5, start: str = "18:00", end: str = "23:30", **changes) -> dict:
    day = (utcnow().astimezone(LOCAL_TZ) + timedelta(days=days)).date().isoformat()
    return {"data": day, "inicio": start, "fim": end, "valor_hora": "45,00", "mensagem": "Volta sábado?", **changes}


def _pair(db: Session) -> tuple[User, User]:
    company, freelancer = make_company(db, empresa="Bar do Zé"), make_freelancer(db, nome="Rita Souza")
    _paid_shift(db, company, freelancer)
    return company, freelancer


def _invite(db: Session, company: User, freelancer: User, **form) -> Invite:
    invite_id = invite_sending.send(db, company.id, freelancer.id, _form(**form), False)
    db.commit()
    return db.get(Invite, invite_id)


def test_an_invite_makes_a_private_vaga_seen_by_the_invited_freelancer_alone(db):
    company, freelancer = _pair(db)
    outsider = make_freelancer(db)
    db.commit()
    now = utcnow()
    invite = _invite(db, company, freelancer)
    job = db.get(Job, invite.job_id)
    assert job.privada and job.vagas_disponiveis == 1 and job.titulo == "Bartender"
    assert str(job.valor_hora) == "45.00"
    assert job.inicio_em.astimezone(LOCAL_TZ).strftime("%H:%M") == "18:00"
    assert 23 * H < invite.expires_at - now <= 24 * H + timedelta(seconds=5)
    assert job.id not in [item["id"] for item in jobs.list_public_jobs(db).items]
    assert job_detail.job_for_viewer(db, job.id, outsider.id) is None
    with pytest.raises(NotAllowed):  # nobody applies to a private vaga: it is answered by its invite
        applications.apply(db, freelancer.id, "freelancer", job.id, {})
    db.rollback()
    (shown,) = invite_views.pending_for(db, freelancer.id)
    assert (shown.company, shown.title, shown.message, shown.pay) == (
        "Bar do Zé",
        "Bartender",
        "Volta sábado?",
        "R$ 45,00/hora",
    )
    assert invite_views.pending_for(db, outsider.id) == []


def test_the_expiry_is_24_hours_or_12_hours_before_the_shift(db):
    company, freelancer = _pair(db)
    now = utcnow()
    at = (now + 20 * H).astimezone(LOCAL_TZ)
    soon = _invite(
        db,
        company,
        freelancer,
        data=at.date().isoformat(),
        start=at.strftime("%H:%M"),
        end=(at + 5 * H).strftime("%H:%M"),
    )
    job = db.get(Job, soon.job_id)
    assert abs((soon.expires_at - (job.inicio_em - 12 * H)).total_seconds()) < 1
    too_soon = _form(days=0, start=(now + 11 * H).astimezone(LOCAL_TZ).strftime("%H:%M"))
    too_soon["data"] = (now + 11 * H).astimezone(LOCAL_TZ).date().isoformat()
    too_soon["fim"] = (now + 16 * H).astimezone(LOCAL_TZ).strftime("%H:%M")
    with pytest.raises(ServiceError) as refused:
        invite_sending.send(db, company.id, freelancer.id, too_soon, False)
    db.rollback()
    assert refused.value.message == invite_sending.TOO_SOON


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"data": ""}, "data", None),
        ({"valor_hora": "abc"}, "valor_hora", "Informe um valor por hora válido."),
        ({"fim": "18:30"}, "fim", None),
        ({"mensagem": "x" * 501}, "mensagem", invite_sending.MESSAGE_TOO_LONG),
    ],
)
def test_bad_fields_get_the_publish_forms_messages_and_write_nothing(db, changes, field, message):
    company, freelancer = _pair(db)
    with pytest.raises(ValidationFailed) as refused:
        invite_sending.send(db, company.id, freelancer.id, _form(**changes), False)
    db.rollback()
    assert field in refused.value.field_errors
    if message:
        assert refused.value.field_errors[field] == message
    assert db.exec(select(Invite)).all() == [] and db.exec(select(Job).where(Job.privada)).all() == []


def test_only_a_company_that_worked_with_the_freelancer_and_no_block_may_invite(db):
    company, freelancer = _pair(db)
    stranger_company, stranger = make_company(db), make_freelancer(db)
    db.commit()
    for who, whom in ((stranger_company, freelancer), (company, stranger), (freelancer, freelancer)):
        with pytest.raises(NotAllowed):
            invite_sending.send(db, who.id, whom.id, _form(), False)
        db.rollback()
    db.add(Block(blocker_id=freelancer.id, blocked_id=company.id, created_at=utcnow()))
    db.commit()
    with pytest.raises(NotAllowed) as refused:
        invite_sending.send(db, company.id, freelancer.id, _form(), False)
    db.rollback()
    assert refused.value.message == invite_sending.BLOCKED
    assert db.exec(select(Invite)).all() == []


def test_a_red_thermometer_needs_the_box_to_send(db):
    company, freelancer = _pair(db)
    target = utcnow() + timedelta(days=5)
    for weeks in range(1, 7):
        _paid_shift(db, company, freelancer, start=target - timedelta(weeks=weeks))
    with pytest.raises(ServiceError) as refused:
        invite_sending.send(db, company.id, freelancer.id, _form(), False)
    db.rollback()
    assert refused.value.message == bond.ACK_REQUIRED
    invite_sending.send(db, company.id, freelancer.id, _form(), True)
    db.commit()


def test_accepting_hires_once_and_the_shift_is_a_normal_hiring(db):
    company, freelancer = _pair(db)
    invite = _invite(db, company, freelancer)
    invites.accept(db, freelancer.id, invite.id)
    db.commit()
    hiring = db.exec(select(Hiring).where(Hiring.job_id == invite.job_id)).one()
    assert (hiring.freelancer_id, hiring.state) == (freelancer.id, "agendada")
    db.refresh(invite)
    assert invite.status == "aceito"
    for again in (
        lambda: invites.accept(db, freelancer.id, invite.id),
        lambda: invites.decline(db, freelancer.id, invite.id),
        lambda: invites.cancel(db, company.id, invite.id),
    ):
        with pytest.raises(ServiceError) as refused:
            again()
        db.rollback()
        assert refused.value.message == invites.GONE


def test_declining_cancelling_and_expiring_close_the_private_vaga(db):
    company, freelancer = _pair(db)
    make_subscription(db, company, tier="premium")  # three open vagas at once: above the free plan's two
    declined, cancelled, expiring = (_invite(db, company, freelancer) for _ in range(3))
    invites.decline(db, freelancer.id, declined.id)
    invites.cancel(db, company.id, cancelled.id)
    db.commit()
    scope = _scope(db)
    assert invites.expire_due(expiring.expires_at - timedelta(seconds=1), scope) == 0
    assert trust_steps.run(expiring.expires_at, scope) >= 1
    assert invites.expire_due(expiring.expires_at, scope) == 0
    db.expire_all()
    statuses = {db.get(Invite, i.id).status for i in (declined, cancelled, expiring)}
    assert statuses == {"recusado", "cancelado", "expirado"}
    for invite in (declined, cancelled, expiring):
        assert db.get(Job, invite.job_id).vaga_status == "closed"
    with pytest.raises(ServiceError):  # an expired invite cannot be accepted
        invites.accept(db, freelancer.id, expiring.id)
    db.rollback()


def test_strangers_cannot_answer_or_cancel_an_invite(db):
    company, freelancer = _pair(db)
    other_company, other_freelancer = make_company(db), make_freelancer(db)
    db.commit()
    invite = _invite(db, company, freelancer)
    for call in (
        lambda: invites.accept(db, other_freelancer.id, invite.id),
        lambda: invites.decline(db, other_freelancer.id, invite.id),
        lambda: invites.cancel(db, other_company.id, invite.id),
        lambda: invites.accept(db, company.id, invite.id),
        lambda: invites.cancel(db, freelancer.id, invite.id),
        lambda: invites.accept(db, freelancer.id, 987654),
    ):
        with pytest.raises(NotAllowed):
            call()
        db.rollback()
    db.refresh(invite)
    assert invite.status == "pendente"
    assert db.exec(select(Application).where(Application.vaga_id == invite.job_id)).all() == []


def _together(answer, count: int) -> None:
    """Run `answer(0)` ... `answer(count - 1)` on as many threads at once and wait for them all."""
    threads = [threading.Thread(target=answer, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_32_racing_answers_make_one_hiring(db):
    """Several tabs accepting, one declining, the company cancelling and the timer expiring: one outcome."""
    company, freelancer = _pair(db)
    invite = _invite(db, company, freelancer)
    engine = db.get_bind()
    scope = _scope(db)
    outcomes: list[str] = []
    barrier = threading.Barrier(32)
    moves = {
        0: ("cancelado", lambda session: invites.cancel(session, company.id, invite.id)),
        1: ("recusado", lambda session: invites.decline(session, freelancer.id, invite.id)),
        2: ("expirado", None),
    }
    accept = ("aceito", lambda session: invites.accept(session, freelancer.id, invite.id))

    def answer(n: int) -> None:
        status, move = moves.get(n % 8, accept)
        try:
            if move is None:  # the timer, at the invite's expiry (the accepts run before it)
                barrier.wait()
                outcomes.append(status if invites.expire_due(invite.expires_at, scope) else "refused")
                return
            with Session(engine) as session:
                barrier.wait()
                try:
                    move(session)
                    session.commit()
                    outcomes.append(status)
                except (ServiceError, OperationalError):  # SQLite: a writer finding the database locked
                    session.rollback()
                    outcomes.append("refused")
        except OperationalError:
            outcomes.append("refused")

    _together(answer, 32)
    assert len(outcomes) == 32
    (won,) = [o for o in outcomes if o != "refused"]
    db.expire_all()
    hirings = db.exec(select(Hiring).where(Hiring.job_id == invite.job_id)).all()
    final = db.get(Invite, invite.id)
    job = db.get(Job, invite.job_id)
    assert final.status == won and final.answered_at is not None
    if won == "aceito":
        assert len(hirings) == 1 and hirings[0].freelancer_id == freelancer.id
        assert job.vaga_status == "in_progress"  # its one position is filled
    else:
        assert hirings == [] and job.vaga_status == "closed"
    assert len(db.exec(select(Application).where(Application.vaga_id == invite.job_id)).all()) == len(hirings)


def test_32_racing_invite_accepts_and_public_applications_make_one_hiring(db):
    """The invitee accepting in many tabs while others try the public path to the same private vaga.

    Half the threads accept the invite; the rest apply to its vaga as strangers (some in the
    company's team, which opens team-first vagas but never a private one), as the invitee, or are
    the company accepting whatever application it finds there. One hiring, the invitee's, and no
    application but theirs.
    """
    company, freelancer = _pair(db)
    strangers = [make_freelancer(db, nome=f"Estranho {n}") for n in range(8)]
    for stranger in strangers[::2]:  # team members and people who worked for the company: still strangers here
        _paid_shift(db, company, stranger)
        db.add(TeamMember(company_id=company.id, freelancer_id=stranger.id, added_at=utcnow()))
    db.commit()
    invite = _invite(db, company, freelancer)
    engine = db.get_bind()
    outcomes: list[tuple[str, str]] = []  # (who, what happened)
    chats: list[int] = []
    barrier = threading.Barrier(32)

    def company_accepts(session: Session) -> str:
        found = session.exec(select(Application.id).where(Application.vaga_id == invite.job_id)).all()
        for application_id in found:
            chats.append(application_answers.accept(session, company.id, application_id, True))
        return "accepted again" if found else "nothing to accept"

    def invitee_accepts(session: Session) -> str:
        chats.append(invites.accept(session, freelancer.id, invite.id))
        return "hired"

    def move_of(n: int) -> tuple[str, Callable[[Session], str]]:
        if n % 2 == 0:
            return "invite", invitee_accepts
        if n % 8 in (1, 5):
            stranger = strangers[n // 4]
            return "stranger", lambda session: str(
                applications.apply(session, stranger.id, "freelancer", invite.job_id, {})
            )
        if n % 8 == 3:
            return "invitee applies", lambda session: str(
                applications.apply(session, freelancer.id, "freelancer", invite.job_id, {})
            )
        return "company", company_accepts

    def answer(n: int) -> None:
        who, move = move_of(n)
        try:
            with Session(engine) as session:
                barrier.wait()
                try:
                    outcome = move(session)
                    session.commit()
                except ServiceError as exc:
                    session.rollback()
                    outcome = f"refused: {exc.message}"
                except OperationalError:  # SQLite: a writer finding the database locked
                    session.rollback()
                    outcome = "locked"
        except OperationalError:
            outcome = "locked"
        outcomes.append((who, outcome))

    _together(answer, 32)
    assert len(outcomes) == 32
    by_who: dict[str, list[str]] = {}
    for who, outcome in outcomes:
        by_who.setdefault(who, []).append(outcome)
    assert by_who["invite"].count("hired") == 1  # the invite moves once; the other tabs find it answered
    assert set(by_who["invite"]) <= {"hired", f"refused: {invites.GONE}", "locked"}
    for who in ("stranger", "invitee applies"):  # nobody applies to a private vaga, before or after the hiring
        assert set(by_who[who]) <= {f"refused: {applications.JOB_UNAVAILABLE}", "locked"}, by_who[who]
    assert set(by_who["company"]) <= {"accepted again", "nothing to accept", "locked"}
    assert len(set(chats)) == 1  # the company accepting the invitee's application again reopens nothing

    db.expire_all()
    (hiring,) = db.exec(select(Hiring).where(Hiring.job_id == invite.job_id)).all()
    assert hiring.freelancer_id == freelancer.id
    (application,) = db.exec(select(Application).where(Application.vaga_id == invite.job_id)).all()
    assert (application.freelancer_id, application.status, application.id) == (
        freelancer.id,
        "accepted",
        hiring.application_id,
    )
    assert db.get(Invite, invite.id).status == "aceito"
    assert db.get(Job, invite.job_id).vaga_status == "in_progress"


def test_the_export_holds_the_invites_of_both_sides(db):
    company, freelancer = _pair(db)
    _invite(db, company, freelancer)
    for user in (company, freelancer):
        (row,) = data_export.export_user_data(db, user.id)["convites"]
        assert (row["empresa"], row["profissional"], row["situacao"]) == (
            "Bar do Zé",
            "Rita Souza",
            "Aguardando resposta",
        )


# --- the handlers -------------------------------------------------------------------------------------


def test_the_dialog_sends_and_the_freelancer_accepts(db):
    company, freelancer = _pair(db)
    db.add(TeamMember(company_id=company.id, freelancer_id=freelancer.id, added_at=utcnow()))
    db.commit()
    tab = state_for(ClientDashboardState, cookie_for(db, company), "/client-dashboard", {"tab": "team"})
    run(tab, ClientDashboardState.load)
    run(tab, ClientDashboardState.open_invite, freelancer.id)
    assert tab.invite_open and tab.invite_name == "Rita Souza" and tab.invite_values["valor_hora"] == "40,00"
    assert toasts(run(tab, ClientDashboardState.send_invite, _form())) == [f"success: {invite_sending.SENT}"]
    assert [sent.status_label for sent in tab.sent_invites] == ["Aguardando resposta"]
    home = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {})
    run(home, FreelancerDashboardState.load)
    (shown,) = home.open_invites
    assert toasts(run(home, FreelancerDashboardState.accept_invite, shown.id)) == [f"success: {invites.ACCEPTED}"]
    assert home.open_invites == []


def test_strangers_handlers_write_nothing(db):
    company, freelancer = _pair(db)
    invite = _invite(db, company, freelancer)
    stranger = make_company(db)
    other = make_freelancer(db)
    db.commit()
    as_stranger = state_for(ClientDashboardState, cookie_for(db, stranger), "/client-dashboard", {"tab": "team"})
    assert toasts(run(as_stranger, ClientDashboardState.open_invite, freelancer.id)) == [
        f"error: Não foi possível enviar o convite | {invite_sending.NOT_ELIGIBLE}"
    ]
    run(as_stranger, ClientDashboardState.cancel_invite, invite.id)
    as_other = state_for(FreelancerDashboardState, cookie_for(db, other), "/freelancer-dashboard", {})
    run(as_other, FreelancerDashboardState.accept_invite, invite.id)
    run(as_other, FreelancerDashboardState.decline_invite, invite.id)
    visitor = state_for(FreelancerDashboardState, cookie_for(db, None), "/freelancer-dashboard", {})
    run(visitor, FreelancerDashboardState.accept_invite, invite.id)
    db.refresh(invite)
    assert invite.status == "pendente"
    assert db.exec(select(Hiring).where(Hiring.job_id == invite.job_id)).all() == []


def test_a_paid_shift_card_offers_contratar_novamente_to_the_company_only(db):
    company, freelancer = _pair(db)
    tab = state_for(ClientDashboardState, cookie_for(db, company), "/client-dashboard", {"tab": "shifts"})
    run(tab, ClientDashboardState.load)
    (card,) = tab.shifts_upcoming + tab.shifts_history  # a paid shift whose payment no side recorded yet
    assert card["rebook"] == freelancer.id
    run(tab, ClientDashboardState.open_invite, card["rebook"])
    assert tab.invite_open and tab.invite_name == "Rita Souza"
    home = state_for(FreelancerDashboardState, cookie_for(db, freelancer), "/freelancer-dashboard", {"tab": "shifts"})
    run(home, FreelancerDashboardState.load)
    assert [card["rebook"] for card in home.shifts_upcoming + home.shifts_history] == [0]


def test_the_thermometer_follows_the_date_picked_in_the_dialog(db):
    company, freelancer = _pair(db)
    target = (utcnow() + timedelta(days=5)).astimezone(LOCAL_TZ).replace(hour=18, minute=0, second=0, microsecond=0)
    for weeks in range(1, 7):
        _paid_shift(db, company, freelancer, start=target - timedelta(weeks=weeks))
    tab = state_for(ClientDashboardState, cookie_for(db, company), "/client-dashboard", {"tab": "team"})
    run(tab, ClientDashboardState.open_invite, freelancer.id)
    run(tab, ClientDashboardState.change_invite_start, "data", (target + timedelta(days=60)).date().isoformat())
    assert tab.invite_bond["level"] == ""
    run(tab, ClientDashboardState.change_invite_start, "data", target.date().isoformat())
    run(tab, ClientDashboardState.change_invite_start, "inicio", "18:00")
    assert tab.invite_bond["level"] == "vermelho" and tab.invite_bond["needs_ack"]
    sent = _form(data=target.date().isoformat(), start="18:00", end="23:00")
    assert toasts(run(tab, ClientDashboardState.send_invite, sent)) == [
        f"error: Não foi possível enviar o convite | {bond.ACK_REQUIRED}"
    ]
    run(tab, ClientDashboardState.acknowledge_invite_bond, True)
    run(tab, ClientDashboardState.change_invite_start, "data", "não é data")
    assert tab.invite_bond["level"] == "" and tab.invite_ack is False
    run(tab, ClientDashboardState.change_invite_start, "valor_hora", "1")  # not a field it follows
    assert tab.invite_values["valor_hora"] == "45,00"  # what was sent last


def test_a_stranger_reads_no_thermometer_and_writes_nothing(db):
    company, freelancer = _pair(db)
    for weeks in range(1, 7):
        _paid_shift(db, company, freelancer, start=utcnow() + timedelta(days=5) - timedelta(weeks=weeks))
    stranger = make_company(db)
    db.commit()
    for user in (stranger, None, freelancer):
        tab = state_for(ClientDashboardState, cookie_for(db, user), "/client-dashboard", {"tab": "team"})
        run(tab, ClientDashboardState.open_invite, freelancer.id)
        run(tab, ClientDashboardState.change_invite_start, "data", _form()["data"])
        assert (tab.invite_open, tab.invite_bond["level"]) == (False, "")
        run(tab, ClientDashboardState.send_invite, _form())
    assert db.exec(select(Invite)).all() == [] and db.exec(select(Job).where(Job.privada)).all() == []


def test_the_dialog_starts_a_week_after_the_last_shift_at_its_agreed_rate(db):
    company, freelancer = make_company(db), make_freelancer(db, nome="Rita Souza")
    start = (utcnow() - timedelta(days=3)).astimezone(LOCAL_TZ).replace(hour=19, minute=30, second=0, microsecond=0)
    _paid_shift(db, company, freelancer, start=start, cents=4250)  # a proposal of R$ 42,50 was accepted
    first = invite_sending.draft(db, company.id, freelancer.id)
    assert (first.name, first.data, first.inicio, first.fim, first.valor_hora) == (
        "Rita Souza",
        (start + timedelta(weeks=1)).date().isoformat(),
        "19:30",
        "01:30",
        "42,50",
    )


def test_a_suspended_freelancer_cannot_accept_and_the_invite_stays_open(db):
    company, freelancer = _pair(db)
    invite = _invite(db, company, freelancer)
    now = utcnow()
    db.add(Falta(freelancer_id=freelancer.id, pontos=3, expires_at=now + timedelta(days=60), suspende_ate=now + H * 72))
    db.commit()
    with pytest.raises(ServiceError) as refused:
        invites.accept(db, freelancer.id, invite.id)
    db.rollback()
    assert refused.value.message.startswith("Você está com 3 faltas ativas")
    db.refresh(invite)
    assert invite.status == "pendente"
    assert db.exec(select(Hiring).where(Hiring.job_id == invite.job_id)).all() == []


def test_a_closed_freelancer_account_cannot_be_invited(db):
    company = make_company(db)
    freelancer = User(email="encerrada@teste.com.br", password_hash="x", role=Role.FREELANCER, is_active=False)
    db.add(freelancer)
    db.flush()
    db.add(Profile(user_id=freelancer.id, tipo_usuario=Role.FREELANCER, nome="Conta Encerrada"))
    _paid_shift(db, company, freelancer)
    with pytest.raises(NotAllowed):
        invite_sending.draft(db, company.id, freelancer.id)
    db.rollback()


# --- 'Contratar novamente' copies the pressed card's shift (issue 42 point 5) ----------------------------


def _two_shifts(db: Session) -> tuple[User, User, Hiring, Hiring]:
    """A paid Sunday lunch (R$ 30, 10:57-16:57) and a later cancelled dinner (R$ 22, 11:12-15:12)."""
    company, freelancer = make_company(db, empresa="Bar do Zé"), make_freelancer(db, nome="Rita Souza")
    day = (utcnow() - timedelta(days=9)).astimezone(LOCAL_TZ).replace(second=0, microsecond=0)
    lunch = _paid_shift(db, company, freelancer, start=day.replace(hour=10, minute=57), cents=3000)
    lunch.titulo = "Garçom para almoço de domingo"
    dinner = make_job(
        db,
        company,
        "Auxiliar de cozinha - jantar",
        inicio_em=day.replace(hour=11, minute=12) + 2 * H * 12,
        fim_em=day.replace(hour=15, minute=12) + 2 * H * 12,
        valor_hora=22,
        status="closed",
    )
    application = make_application(db, dinner, freelancer, status="accepted")
    db.add(
        Hiring(
            state="cancelada_empresa",
            application_id=application.id,
            job_id=dinner.id,
            company_id=company.id,
            freelancer_id=freelancer.id,
            inicio_em=dinner.inicio_em,
            fim_em=dinner.fim_em,
            valor_hora_centavos=2200,
        )
    )
    db.commit()
    paid = db.exec(select(Hiring).where(Hiring.job_id == lunch.id)).one()
    cancelled = db.exec(select(Hiring).where(Hiring.job_id == dinner.id)).one()
    return company, freelancer, paid, cancelled


def test_the_pressed_card_is_copied_not_the_latest_shift(db):
    company, _freelancer, paid, _cancelled = _two_shifts(db)
    tab = state_for(ClientDashboardState, cookie_for(db, company), "/client-dashboard", {"tab": "shifts"})
    run(tab, ClientDashboardState.rebook_shift, paid.id)
    assert tab.invite_open and tab.invite_name == "Rita Souza"
    values = tab.invite_values
    assert (values["inicio"], values["fim"], values["valor_hora"]) == ("10:57", "16:57", "30,00")
    assert tab.invite_copied == "Copiado de: Garçom para almoço de domingo · 10:57–16:57 · R$ 30,00/hora"
    assert toasts(run(tab, ClientDashboardState.send_invite, {**values, "mensagem": ""})) == [
        f"success: {invite_sending.SENT}"
    ]
    (invite,) = db.exec(select(Invite)).all()
    job = db.get(Job, invite.job_id)
    assert (job.titulo, str(job.valor_hora)) == ("Garçom para almoço de domingo", "30.00")
    assert job.inicio_em.astimezone(LOCAL_TZ).strftime("%H:%M %a") == paid.inicio_em.astimezone(LOCAL_TZ).strftime(
        "%H:%M %a"
    )


def test_minha_equipe_copies_the_latest_paid_shift_never_a_cancelled_one(db):
    company, freelancer, _paid, _cancelled = _two_shifts(db)
    start = invite_sending.draft(db, company.id, freelancer.id)
    assert (start.inicio, start.fim, start.valor_hora) == ("10:57", "16:57", "30,00")
    assert start.title == "Garçom para almoço de domingo"


def test_another_companys_shift_card_is_refused_like_a_missing_one(db):
    _company, freelancer, paid, _cancelled = _two_shifts(db)
    stranger = make_company(db)
    db.add(TeamMember(company_id=stranger.id, freelancer_id=freelancer.id, added_at=utcnow()))
    db.commit()
    tab = state_for(ClientDashboardState, cookie_for(db, stranger), "/client-dashboard", {"tab": "shifts"})
    refused = toasts(run(tab, ClientDashboardState.rebook_shift, paid.id))
    missing = toasts(run(tab, ClientDashboardState.rebook_shift, 987654))
    assert refused == missing == [f"error: Não foi possível enviar o convite | {invite_sending.NO_SHIFT}"]
    assert not tab.invite_open
    with pytest.raises(NotAllowed):
        invite_sending.send(db, stranger.id, freelancer.id, _form(), False, hiring_id=paid.id)
    db.rollback()
    assert db.exec(select(Invite)).all() == []


def test_the_prefilled_date_skips_a_week_the_freelancer_already_holds(db):
    company, freelancer, paid, _cancelled = _two_shifts(db)
    first = invite_sending.draft(db, company.id, freelancer.id, hiring_id=paid.id)
    held_start = datetime.combine(date.fromisoformat(first.data), time(10, 57), tzinfo=LOCAL_TZ)
    job = make_job(db, company, "Outro turno", inicio_em=held_start, fim_em=held_start + 6 * H, valor_hora=30)
    application = make_application(db, job, freelancer)
    db.commit()
    application_answers.accept(db, company.id, application.id)
    db.commit()
    later = invite_sending.draft(db, company.id, freelancer.id, hiring_id=paid.id)
    assert date.fromisoformat(later.data) == date.fromisoformat(first.data) + timedelta(weeks=1)
