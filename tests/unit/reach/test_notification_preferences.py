"""Notification settings honoured: e-mail copies, new-job alerts and push pop-ups (services/reach/notifications.py).

E-mail copies land in the OutboxEmail table (no SMTP in the test settings, services.common.email).
"""

import smtplib
from typing import ClassVar

import pytest
from sqlmodel import select

from core.routes import NoticeTarget
from core.settings import get_settings
from core.types import utcnow
from models import Message, Notification, NotificationType, OutboxEmail, Profile, Role, User, UserPreferences
from services.common import email
from services.common.errors import NotAllowed
from services.jobs import company_jobs, job_alerts
from services.reach import chat_read_marks, chat_sending, notifications
from services.shifts import application_answers, applications
from tests.support.factories import (
    make_application,
    make_cast,
    make_chat,
    make_company,
    make_freelancer,
    make_job,
    make_user,
)
from tests.support.shift_form import shift_fields

JOB_FORM = {
    "titulo": "Garçom para evento",
    "categoria": "eventos",
    "descricao": "Evento corporativo no centro, traje social.",
    "localizacao": "São Paulo, SP",
    **shift_fields(),
}
APPLICATION_KINDS = [
    NotificationType.NEW_APPLICATION,
    NotificationType.APPLICATION_ACCEPTED,
    NotificationType.APPLICATION_REJECTED,
    NotificationType.JOB_CLOSED,
]
SWITCH_CASES = [
    pytest.param(True, True, 1, id="email-on-topic-on"),
    pytest.param(True, False, 0, id="email-on-topic-off"),
    pytest.param(False, True, 0, id="email-off-topic-on"),
    pytest.param(False, False, 0, id="email-off-topic-off"),
]


@pytest.fixture
def cast(db):
    return make_cast(db)


def set_prefs(db, user, **values) -> None:
    prefs = db.get(UserPreferences, user.id)
    for name, value in values.items():
        setattr(prefs, name, value)
    db.add(prefs)
    db.flush()


def emails_to(db, user) -> list[OutboxEmail]:
    return db.exec(select(OutboxEmail).where(OutboxEmail.to_email == user.email).order_by(OutboxEmail.id)).all()


def notices_of(db, user, kind=None) -> list[Notification]:
    query = select(Notification).where(Notification.user_id == user.id)
    if kind is not None:
        query = query.where(Notification.type == kind)
    return db.exec(query.order_by(Notification.id)).all()


def remove(db, user) -> None:
    user.deleted_at = utcnow()
    db.add(user)
    db.flush()


def deactivate(db, user) -> None:
    user.is_active = False
    db.add(user)
    db.flush()


def assert_copy_of(mail: OutboxEmail, user: User, message: str, link: str) -> None:
    assert mail.to_email == user.email
    assert mail.subject == f"{get_settings().product_name}: {message}"
    assert mail.body.startswith(f"{message}\n\nVeja no {get_settings().product_name}: http://turno.test{link}\n")
    assert "Configurações > Notificações" in mail.body


# --- notify: the switches -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", APPLICATION_KINDS)
@pytest.mark.parametrize(("email_on", "topic_on", "copies"), SWITCH_CASES)
def test_an_application_update_is_emailed_only_with_both_switches_on(db, kind, email_on, topic_on, copies):
    user = make_freelancer(db)
    set_prefs(db, user, email_notifications=email_on, application_updates=topic_on)

    notifications.notify(db, user.id, kind, "Sua candidatura mudou.", NoticeTarget.FREELANCER_APPLICATIONS)
    db.flush()

    assert len(notices_of(db, user, kind)) == 1  # the notice itself is always created
    mails = emails_to(db, user)
    assert len(mails) == copies
    if copies:
        assert_copy_of(mails[0], user, "Sua candidatura mudou.", "/freelancer-dashboard?tab=applications")


@pytest.mark.parametrize(("email_on", "alerts_on", "copies"), SWITCH_CASES)
def test_a_job_alert_is_emailed_only_with_both_switches_on(db, email_on, alerts_on, copies):
    user = make_freelancer(db)
    set_prefs(db, user, email_notifications=email_on, new_job_alerts=alerts_on)

    notifications.notify(db, user.id, NotificationType.JOB_ALERT, "Nova vaga.", NoticeTarget.JOB, 1)
    db.flush()

    assert len(emails_to(db, user)) == copies


@pytest.mark.parametrize("kind", [NotificationType.MESSAGE, NotificationType.OTHER])
@pytest.mark.parametrize("email_on", [True, False])
def test_kinds_without_a_topic_follow_only_the_email_switch(db, kind, email_on):
    user = make_freelancer(db)
    set_prefs(db, user, email_notifications=email_on, application_updates=False, new_job_alerts=False)

    notifications.notify(db, user.id, kind, "Aviso.")
    db.flush()

    assert len(emails_to(db, user)) == int(email_on)


def test_the_other_topics_switch_does_not_matter(db):
    user = make_freelancer(db)
    set_prefs(db, user, new_job_alerts=False, marketing_emails=False, push_notifications=False)

    notifications.notify(db, user.id, NotificationType.APPLICATION_ACCEPTED, "Aceita!", NoticeTarget.FREELANCER_HOME)
    db.flush()

    assert len(emails_to(db, user)) == 1


def test_job_created_is_never_emailed(db):
    company = make_company(db)

    notifications.notify(
        db, company.id, NotificationType.JOB_CREATED, 'Sua vaga "Garçom" foi publicada.', NoticeTarget.JOB, 1
    )
    db.flush()

    assert len(notices_of(db, company, NotificationType.JOB_CREATED)) == 1
    assert emails_to(db, company) == []


def test_defaults_apply_when_the_settings_were_never_saved(db):
    user = User(email="sem-prefs@teste.com.br", password_hash="x", role=Role.FREELANCER, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=Role.FREELANCER, nome="Sem Prefs"))
    db.flush()

    notifications.notify(db, user.id, NotificationType.APPLICATION_REJECTED, "Recusada.")
    db.flush()

    assert len(emails_to(db, user)) == 1


@pytest.mark.parametrize("gone", [remove, deactivate], ids=["removed", "inactive"])
@pytest.mark.parametrize("kind", [*APPLICATION_KINDS, NotificationType.JOB_ALERT, NotificationType.OTHER])
def test_a_removed_or_inactive_user_gets_nothing_at_all(db, gone, kind):
    user = make_freelancer(db)
    gone(db, user)

    notifications.notify(db, user.id, kind, "Aviso.")
    db.flush()

    assert notices_of(db, user) == []
    assert emails_to(db, user) == []


def test_a_missing_user_gets_nothing(db):
    notifications.notify(db, 987_654, NotificationType.OTHER, "Aviso.")
    db.flush()

    assert db.exec(select(Notification)).all() == []
    assert db.exec(select(OutboxEmail)).all() == []


def test_a_long_message_is_cut_in_the_notice_and_the_email(db):
    user = make_freelancer(db)

    notifications.notify(db, user.id, NotificationType.OTHER, "x" * 800, NoticeTarget.FREELANCER_HOME)
    db.flush()

    assert notices_of(db, user)[0].message == "x" * 500
    mail = emails_to(db, user)[0]
    assert mail.subject == f"{get_settings().product_name}: " + "x" * 120
    assert mail.body.startswith("x" * 500 + "\n\n")


# --- notify through the real services -------------------------------------------------------------


@pytest.mark.parametrize(("email_on", "topic_on", "copies"), SWITCH_CASES)
def test_a_new_application_emails_the_company_per_its_switches(db, cast, email_on, topic_on, copies):
    job = make_job(db, cast.company, "Garçom")
    set_prefs(db, cast.company, email_notifications=email_on, application_updates=topic_on)

    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {"mensagem": "Tenho experiência."})
    db.flush()

    assert len(notices_of(db, cast.company, NotificationType.NEW_APPLICATION)) == 1
    mails = emails_to(db, cast.company)
    assert len(mails) == copies
    if copies:
        assert_copy_of(
            mails[0], cast.company, 'João Silva se candidatou à vaga "Garçom".', "/client-dashboard?tab=jobs"
        )
    assert emails_to(db, cast.freelancer) == []


@pytest.mark.parametrize(("email_on", "topic_on", "copies"), SWITCH_CASES)
def test_an_acceptance_emails_the_freelancer_per_its_switches(db, cast, email_on, topic_on, copies):
    application = make_application(db, make_job(db, cast.company, "Garçom"), cast.freelancer)
    set_prefs(db, cast.freelancer, email_notifications=email_on, application_updates=topic_on)

    chat_id = application_answers.accept(db, cast.company.id, application.id)
    db.flush()

    assert len(notices_of(db, cast.freelancer, NotificationType.APPLICATION_ACCEPTED)) == 1
    mails = emails_to(db, cast.freelancer)
    assert len(mails) == copies  # the welcome chat message adds no second e-mail
    if copies:
        assert_copy_of(
            mails[0],
            cast.freelancer,
            'Sua candidatura para a vaga "Garçom" foi aceita!',
            f"/freelancer-dashboard/chats/{chat_id}",
        )
    assert emails_to(db, cast.company) == []


@pytest.mark.parametrize(("email_on", "topic_on", "copies"), SWITCH_CASES)
def test_a_rejection_emails_the_freelancer_per_its_switches(db, cast, email_on, topic_on, copies):
    application = make_application(db, make_job(db, cast.company, "Garçom"), cast.freelancer)
    set_prefs(db, cast.freelancer, email_notifications=email_on, application_updates=topic_on)

    application_answers.reject(db, cast.company.id, application.id)
    db.flush()

    assert len(notices_of(db, cast.freelancer, NotificationType.APPLICATION_REJECTED)) == 1
    mails = emails_to(db, cast.freelancer)
    assert len(mails) == copies
    if copies:
        assert mails[0].subject.endswith('Sua candidatura para a vaga "Garçom" não foi selecionada desta vez.')


def test_closing_a_job_emails_each_applicant_per_their_own_switches(db, cast):
    job = make_job(db, cast.company, "Garçom")
    make_application(db, job, cast.freelancer)
    make_application(db, job, cast.other, status="accepted")
    quiet = make_freelancer(db, nome="Bia Lima")
    make_application(db, job, quiet)
    set_prefs(db, quiet, application_updates=False)
    gone = make_freelancer(db, nome="Caio Removido")
    make_application(db, job, gone)
    remove(db, gone)

    company_jobs.close_job(db, cast.company.id, job.id)
    db.flush()

    for applicant in (cast.freelancer, cast.other):
        [mail] = emails_to(db, applicant)
        assert_copy_of(mail, applicant, 'A vaga "Garçom" foi encerrada.', "/freelancer-dashboard?tab=applications")
    assert len(notices_of(db, quiet, NotificationType.JOB_CLOSED)) == 1
    assert emails_to(db, quiet) == []
    assert notices_of(db, gone) == []
    assert emails_to(db, gone) == []
    assert emails_to(db, cast.company) == []


def test_publishing_a_job_emails_nobody_but_alerted_freelancers(db, cast):
    set_prefs(db, cast.company, email_notifications=True, application_updates=True)

    company_jobs.create_job(db, cast.company.id, JOB_FORM)
    db.flush()

    assert len(notices_of(db, cast.company, NotificationType.JOB_CREATED)) == 1
    assert emails_to(db, cast.company) == []


# --- new-job alerts ------------------------------------------------------------------------------


@pytest.fixture
def city(db):
    """Freelancers and companies around a job published in São Paulo."""
    people = {
        "alerted": make_freelancer(db, nome="Ana Alerta", localizacao="São Paulo"),
        "case": make_freelancer(db, nome="Bruno Caixa", localizacao="  são paulo "),
        "no_email": make_freelancer(db, nome="Carla Sem Email", localizacao="São Paulo"),
        "alerts_off": make_freelancer(db, nome="Davi Sem Alerta", localizacao="São Paulo"),
        "other_city": make_freelancer(db, nome="Eva Rio", localizacao="Rio de Janeiro"),
        "near_city": make_freelancer(db, nome="Fábio Perto", localizacao="São Paulo, SP"),
        "no_city": make_freelancer(db, nome="Gil Sem Cidade", localizacao=""),
        "removed": make_freelancer(db, nome="Hugo Removido", localizacao="São Paulo"),
        "inactive": make_freelancer(db, nome="Iara Inativa", localizacao="São Paulo"),
        "unconfirmed": make_freelancer(db, nome="Jonas Sem Confirmar", localizacao="São Paulo"),
        "company": make_company(db, nome="Rui Rival", empresa="Outro Hotel", localizacao="São Paulo"),
        "publisher": make_company(db, nome="Mariana Costa", empresa="Hotel Atlântico", localizacao="São Paulo"),
    }
    set_prefs(db, people["no_email"], email_notifications=False)
    set_prefs(db, people["alerts_off"], new_job_alerts=False)
    remove(db, people["removed"])
    deactivate(db, people["inactive"])
    people["unconfirmed"].email_confirmed_at = None  # signed up, never opened the confirmation link
    db.flush()
    return people


def alerts_of(db, user) -> list[Notification]:
    return notices_of(db, user, NotificationType.JOB_ALERT)


def test_publishing_alerts_only_matching_freelancers_with_alerts_on(db, city):
    job_id = company_jobs.create_job(db, city["publisher"].id, {**JOB_FORM, "localizacao": "São Paulo"})
    db.flush()

    alerted = {name for name, user in city.items() if alerts_of(db, user)}
    assert alerted == {"alerted", "case", "no_email", "near_city"}
    for name in ("alerted", "case", "no_email", "near_city"):
        [notice] = alerts_of(db, city[name])
        assert notice.message == 'Nova vaga na sua cidade: "Garçom para evento".'
        assert notice.link == f"/jobs/{job_id}"
        assert notice.read is False
    assert {name for name, user in city.items() if emails_to(db, user)} == {"alerted", "case", "near_city"}
    assert_copy_of(
        emails_to(db, city["alerted"])[0],
        city["alerted"],
        'Nova vaga na sua cidade: "Garçom para evento".',
        f"/jobs/{job_id}",
    )
    assert [n.type for n in notices_of(db, city["publisher"])] == [NotificationType.JOB_CREATED]


@pytest.mark.parametrize("typed", ["são paulo", "SÃO PAULO", "  Sao Paulo  ", "São paulo, SP", "São Paulo - SP"])
def test_the_jobs_city_is_compared_ignoring_case_accents_blanks_and_state(db, city, typed):
    count = job_alerts.alert_new_job(db, 1, "Garçom", typed, city["publisher"].id)

    assert count == 4


def test_alert_new_job_returns_how_many_were_alerted(db, city):
    job = make_job(db, city["publisher"], "Copeiro", localizacao="Rio de Janeiro")

    assert job_alerts.alert_new_job(db, job.id, job.titulo, job.localizacao, city["publisher"].id) == 1
    db.flush()

    [notice] = alerts_of(db, city["other_city"])
    assert notice.message == 'Nova vaga na sua cidade: "Copeiro".'
    assert len(emails_to(db, city["other_city"])) == 1


@pytest.mark.parametrize("where", ["", "   ", None, "Curitiba"])
def test_no_city_or_an_empty_city_alerts_nobody(db, city, where):
    assert job_alerts.alert_new_job(db, 1, "Garçom", where, city["publisher"].id) == 0
    db.flush()

    assert db.exec(select(Notification).where(Notification.type == NotificationType.JOB_ALERT)).all() == []


def test_a_freelancer_without_saved_settings_gets_the_alert_and_the_email(db, city):
    user = User(email="novo@teste.com.br", password_hash="x", role=Role.FREELANCER, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=Role.FREELANCER, nome="Novo", localizacao="São Paulo"))
    db.flush()

    assert job_alerts.alert_new_job(db, 1, "Garçom", "São Paulo", city["publisher"].id) == 5
    db.flush()

    assert len(alerts_of(db, user)) == 1
    assert len(emails_to(db, user)) == 1


def test_a_user_with_a_freelancer_profile_but_the_company_role_is_not_alerted(db, city):
    odd = make_user(db, "perfil-trocado@teste.com.br", Role.CLIENT, localizacao="São Paulo")
    db.get(Profile, odd.id).tipo_usuario = Role.FREELANCER
    db.flush()

    job_alerts.alert_new_job(db, 1, "Garçom", "São Paulo", city["publisher"].id)
    db.flush()

    assert alerts_of(db, odd) == []


def test_a_job_alert_is_created_once_per_freelancer_per_job(db, city):
    company_jobs.create_job(db, city["publisher"].id, JOB_FORM)
    company_jobs.create_job(db, city["publisher"].id, {**JOB_FORM, "titulo": "Bartender"})
    db.flush()

    assert [n.message for n in alerts_of(db, city["alerted"])] == [
        'Nova vaga na sua cidade: "Garçom para evento".',
        'Nova vaga na sua cidade: "Bartender".',
    ]
    assert len(emails_to(db, city["alerted"])) == 2


# --- push -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", APPLICATION_KINDS)
@pytest.mark.parametrize(
    ("push_on", "topic_on", "allowed"),
    [(True, True, True), (True, False, False), (False, True, False), (False, False, False)],
)
def test_push_of_application_updates_needs_both_switches(db, kind, push_on, topic_on, allowed):
    user = make_freelancer(db)
    set_prefs(db, user, push_notifications=push_on, application_updates=topic_on)

    assert notifications.push_allowed(db, user.id, kind) is allowed


@pytest.mark.parametrize(
    ("push_on", "alerts_on", "allowed"), [(True, True, True), (True, False, False), (False, True, False)]
)
def test_push_of_job_alerts_needs_both_switches(db, push_on, alerts_on, allowed):
    user = make_freelancer(db)
    set_prefs(db, user, push_notifications=push_on, new_job_alerts=alerts_on)

    assert notifications.push_allowed(db, user.id, NotificationType.JOB_ALERT) is allowed


@pytest.mark.parametrize("kind", ["message", "other", "job_created", "nonsense"])
@pytest.mark.parametrize("push_on", [True, False])
def test_push_of_kinds_without_a_topic_follows_the_push_switch(db, kind, push_on):
    user = make_company(db)
    set_prefs(db, user, push_notifications=push_on, application_updates=False, new_job_alerts=False)

    assert notifications.push_allowed(db, user.id, kind) is push_on


def test_push_ignores_the_email_switch(db):
    user = make_freelancer(db)
    set_prefs(db, user, email_notifications=False)

    assert notifications.push_allowed(db, user.id, NotificationType.APPLICATION_ACCEPTED) is True


@pytest.mark.parametrize("gone", [remove, deactivate], ids=["removed", "inactive"])
def test_no_push_for_a_removed_or_inactive_user(db, gone):
    user = make_freelancer(db)
    gone(db, user)

    assert notifications.push_allowed(db, user.id, NotificationType.OTHER) is False
    assert notifications.push_allowed(db, 987_654, NotificationType.OTHER) is False


# --- chat messages --------------------------------------------------------------------------------


@pytest.fixture
def chat(db, cast):
    application = make_application(db, make_job(db, cast.company, "Bartender"), cast.freelancer, status="accepted")
    return make_chat(db, application, cast.company, cast.freelancer)


def message_notices(db, user) -> list[Notification]:
    db.expire_all()
    return notices_of(db, user, NotificationType.MESSAGE)


def test_a_chat_message_emails_once_per_unread_notice(db, cast, chat):
    chat_sending.send(db, cast.freelancer.id, chat.id, "Oi, Mariana!")
    chat_sending.send(db, cast.freelancer.id, chat.id, "Chego às 18h.")
    chat_sending.send(db, cast.freelancer.id, chat.id, "Levo o avental?")
    db.flush()

    [notice] = message_notices(db, cast.company)
    assert notice.message == 'Nova mensagem de João Silva sobre a vaga "Bartender"'
    [mail] = emails_to(db, cast.company)
    assert_copy_of(mail, cast.company, 'Nova mensagem de João Silva sobre a vaga "Bartender"', notice.link)
    assert notice.link == f"/client-dashboard/chats/{chat.id}"

    chat_read_marks.mark_read(db, db.get(type(chat), chat.id), cast.company.id)
    db.flush()
    chat_sending.send(db, cast.freelancer.id, chat.id, "Confirmado?")
    db.flush()

    assert [n.read for n in message_notices(db, cast.company)] == [True, False]
    assert len(emails_to(db, cast.company)) == 2
    assert emails_to(db, cast.freelancer) == []


def test_a_chat_message_is_not_emailed_with_email_notifications_off(db, cast, chat):
    set_prefs(db, cast.company, email_notifications=False)

    chat_sending.send(db, cast.freelancer.id, chat.id, "Oi, Mariana!")
    db.flush()

    assert len(message_notices(db, cast.company)) == 1
    assert emails_to(db, cast.company) == []


def test_a_chat_message_ignores_the_topic_switches(db, cast, chat):
    set_prefs(db, cast.freelancer, application_updates=False, new_job_alerts=False)

    chat_sending.send(db, cast.company.id, chat.id, "Bem-vindo!")
    db.flush()

    [mail] = emails_to(db, cast.freelancer)
    assert mail.subject.endswith('Nova mensagem de Mariana Costa sobre a vaga "Bartender"')


def test_a_chat_message_to_a_reader_in_the_conversation_sends_nothing(db, cast, chat):
    chat_sending.send(db, cast.freelancer.id, chat.id, "Oi, Mariana!", recipient_viewing=True)
    db.flush()

    assert message_notices(db, cast.company) == []
    assert emails_to(db, cast.company) == []


def test_a_chat_message_to_a_removed_participant_is_refused_and_sends_nothing(db, cast, chat):
    remove(db, cast.company)

    with pytest.raises(NotAllowed) as error:
        chat_sending.send(db, cast.freelancer.id, chat.id, "Oi, Mariana!")
    db.flush()

    assert error.value.message == "Não é possível enviar mensagem."
    assert message_notices(db, cast.company) == []
    assert emails_to(db, cast.company) == []
    assert db.exec(select(Message).where(Message.content == "Oi, Mariana!")).all() == []


@pytest.mark.parametrize(("profile_city", "job_city"), [("SÃO PAULO", "São Paulo"), ("BRASÍLIA", "Brasília")])
def test_a_profile_city_typed_in_capitals_with_accents_matches(db, profile_city, job_city):
    company = make_company(db)
    freelancer = make_freelancer(db, localizacao=profile_city)

    assert job_alerts.alert_new_job(db, 1, "Garçom", job_city, company.id) == 1
    db.flush()

    assert len(alerts_of(db, freelancer)) == 1


# --- e-mail through an SMTP server ----------------------------------------------------------------


class FakeSMTP:
    """A stand-in for smtplib.SMTP: records what would be sent, or refuses to connect when `down`."""

    sent: ClassVar[list] = []
    down: ClassVar[bool] = False

    def __init__(self, host, port, timeout=None) -> None:
        if FakeSMTP.down:
            raise ConnectionRefusedError(111, "Connection refused")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def starttls(self) -> None:
        return None

    def login(self, user, password) -> None:
        return None

    def send_message(self, message) -> None:
        FakeSMTP.sent.append(message)


@pytest.fixture
def smtp(monkeypatch):
    monkeypatch.setenv("SMTP_HOST", "smtp.turno.test")
    get_settings.cache_clear()
    monkeypatch.setattr(smtplib, "SMTP", FakeSMTP)
    FakeSMTP.sent, FakeSMTP.down = [], False
    yield FakeSMTP
    FakeSMTP.sent, FakeSMTP.down = [], False


def test_with_smtp_the_copy_is_sent_and_not_kept_in_the_outbox(db, cast, smtp):
    job = make_job(db, cast.company, "Garçom")

    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})
    db.flush()
    assert smtp.sent == []
    db.commit()
    email.drain()

    [message] = smtp.sent
    assert message["To"] == cast.company.email
    assert message["Subject"] == 'Turno: João Silva se candidatou à vaga "Garçom".'
    assert db.exec(select(OutboxEmail)).all() == []


def test_an_unreachable_mail_server_does_not_undo_the_application(db, cast, smtp):
    job = make_job(db, cast.company, "Garçom")
    db.commit()
    smtp.down = True

    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})
    db.commit()
    email.drain()

    assert len(notices_of(db, cast.company, NotificationType.NEW_APPLICATION)) == 1
    assert smtp.sent == []


def test_a_rolled_back_operation_sends_no_email(db, cast, smtp):
    job = make_job(db, cast.company, "Garçom")
    db.commit()

    applications.apply(db, cast.freelancer.id, "freelancer", job.id, {})
    db.rollback()
    db.commit()
    email.drain()

    assert smtp.sent == []


def test_a_job_title_with_a_line_break_does_not_break_the_email_copy(db, cast, smtp):
    job_id = company_jobs.create_job(db, cast.company.id, {**JOB_FORM, "titulo": "Garçom\nBcc: todos@evil.example"})
    db.commit()

    applications.apply(db, cast.freelancer.id, "freelancer", job_id, {})
    db.commit()
    email.drain()

    [message] = smtp.sent
    assert "\n" not in message["Subject"]
    assert message["Bcc"] is None


def test_a_job_alert_goes_to_the_same_municipality_not_a_namesake(db):
    """'Bonito, MS' and 'Bonito, PE' share a name; an older profile without a code is matched by name."""
    publisher = make_company(db, nome="Mariana Costa", empresa="Pousada Rio da Prata", localizacao="Bonito, MS")
    in_ms = make_freelancer(db, nome="Ana Pantanal", localizacao="Bonito, MS")
    in_pe = make_freelancer(db, nome="Bia Agreste", localizacao="Bonito, PE")
    uncoded = make_freelancer(db, nome="Caio Antigo", localizacao="Bonito")  # ambiguous: no code, only a name
    db.flush()
    assert db.get(Profile, uncoded.id).cidade_ibge is None

    job = make_job(db, publisher, "Guia de flutuação", localizacao="Bonito, MS")
    count = job_alerts.alert_new_job(db, job.id, job.titulo, job.localizacao, publisher.id)
    db.flush()

    assert count == 2
    assert [len(alerts_of(db, user)) for user in (in_ms, in_pe, uncoded)] == [1, 0, 1]
