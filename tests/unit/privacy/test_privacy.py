"""LGPD self-service (services/privacy/data_export.py and privacy.py): data export and account deletion, with its route and handler."""

import asyncio
import json
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlmodel import func, select, update
from starlette.testclient import TestClient

from app.api import api
from app.api.account import export_filename
from components.privacy import privacy_section
from core import routes
from core.db import session_scope
from core.formatting import local
from core.presence import get_presence
from core.security import hash_password, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import (
    Application,
    AuthSession,
    ContactMessage,
    EmailToken,
    Job,
    JobStatus,
    LoginAttempt,
    Message,
    Notification,
    NotificationType,
    OutboxEmail,
    Profile,
    Rating,
    Subscription,
    TokenPurpose,
    User,
    UserPreferences,
)
from services.accounts import accounts, photos, sessions
from services.common.errors import NotAllowed, ServiceError
from services.jobs import job_detail, jobs
from services.privacy import data_export, privacy
from services.reach import chat_sending, chats
from services.screens import company_dashboard, freelancer_dashboard
from services.shifts import applicant_list, application_answers
from states.auth import AuthState
from states.privacy import SIGN_IN_AGAIN, TRY_AGAIN, PrivacyState
from tests.support.factories import (
    make_application,
    make_cast,
    make_chat,
    make_job,
    make_message,
    make_notification,
    make_rating,
    make_subscription,
    snapshot,
)
from tests.support.state_harness import cookie_for, run, state_for, toasts

PASSWORD = "Segura123"
WRONG = "Errada123"
EXPORT_KEYS = {
    "produto",
    "gerado_em",
    "conta",
    "perfil",
    "preferencias",
    "sessoes",
    "dispositivos_confiaveis",
    "vagas",
    "candidaturas",
    "conversas",
    "notificacoes",
    "avaliacoes",
    "turnos",
    "faltas",
    "assinatura",
    "recebimento",
    "pagamentos_garantidos",
    "equipe",
    "bloqueios",
    "vagas_ocultas",
    "convites",
    "aparelhos_com_notificacoes",
    "whatsapp",
    "consentimentos",
    "mensagens_de_contato",
    "tentativas_de_login",
}
ALL_TABLES = (
    User,
    Profile,
    UserPreferences,
    AuthSession,
    EmailToken,
    Job,
    Application,
    Message,
    Notification,
    Rating,
    Subscription,
    OutboxEmail,
)


class World:
    """A company and a freelancer with a shared history, plus a rival company and another freelancer.

    - 'Garçom para evento' (open, the company's): João accepted (chat with two messages), Ana pending.
    - 'Recepcionista' (closed, the company's): João accepted, rated both ways.
    - 'Bartender' (open, the rival's): João pending.
    Both main users have password PASSWORD, a session, a confirmation token, a notification, a
    contact message and a login attempt; the rival has private data that must never leak.
    """

    def __init__(self, db):
        self.cast = make_cast(db)
        self.company, self.rival = self.cast.company, self.cast.rival
        self.freelancer, self.other = self.cast.freelancer, self.cast.other
        for user in (self.company, self.freelancer, self.rival, self.other):
            user.password_hash = hash_password(PASSWORD)
            db.add(user)
        company_profile = db.get(Profile, self.company.id)
        company_profile.telefone = "(11) 98888-7777"
        company_profile.endereco = "Rua das Flores, 10"
        company_profile.redes_sociais = {"instagram": "@hotelatlantico"}
        db.add(company_profile)
        rival_profile = db.get(Profile, self.rival.id)
        rival_profile.telefone = "(21) 95555-1111"
        db.add(rival_profile)
        self.event_job = make_job(db, self.company, "Garçom para evento", valor_hora=Decimal("35.50"))
        self.hired = make_application(
            db, self.event_job, self.freelancer, status="accepted", valor_proposto=Decimal("40.00"), mensagem="Topo!"
        )
        self.pending_other = make_application(db, self.event_job, self.other, mensagem="Tenho experiência.")
        self.chat = make_chat(db, self.hired, self.company, self.freelancer)
        make_message(db, self.chat, self.company, "Bem-vindo à equipe!", minutes_ago=10)
        make_message(db, self.chat, self.freelancer, "Obrigado, chego às 18h.", minutes_ago=5)
        self.closed_job = make_job(
            db, self.company, "Recepcionista", status=JobStatus.CLOSED, vaga_status=JobStatus.CLOSED
        )
        self.closed_hire = make_application(db, self.closed_job, self.freelancer, status="accepted")
        make_rating(db, self.closed_hire, self.company, self.freelancer, 5)
        make_rating(db, self.closed_hire, self.freelancer, self.company, 4)
        self.rival_job = make_job(db, self.rival, "Bartender")
        self.pending_rival = make_application(db, self.rival_job, self.freelancer, mensagem="Sei fazer drinks.")
        for user in (self.company, self.freelancer, self.rival):
            make_notification(db, user, f"Aviso para {user.email}")
            db.add(
                EmailToken(
                    user_id=user.id,
                    purpose=TokenPurpose.CONFIRM_EMAIL,
                    token_hash=token_digest(f"token-{user.id}"),
                    expires_at=utcnow() + timedelta(hours=1),
                )
            )
            db.add(ContactMessage(name="Contato", email=user.email, subject="duvida", message=f"Oi de {user.email}"))
            db.add(LoginAttempt(email=user.email, address="198.51.100.7", succeeded=True))
            db.add(OutboxEmail(to_email=user.email, subject="Bem-vindo", body="Olá"))
        self.tokens = {}
        for user in (self.company, self.freelancer, self.rival):
            token, _ = sessions.create(db, user.id, remember=True)
            self.tokens[user.id] = token
        db.commit()


@pytest.fixture
def world(db) -> World:
    return World(db)


def _dump(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


def _secrets(db, world: World) -> list[str]:
    """Every password hash and token hash stored for the world's users."""
    hashes = [u.password_hash for u in db.exec(select(User)).all()]
    hashes += [s.token_hash for s in db.exec(select(AuthSession)).all()]
    hashes += [t.token_hash for t in db.exec(select(EmailToken)).all()]
    return hashes + list(world.tokens.values())


# --- export ----------------------------------------------------------------------------------


def test_company_export_holds_its_own_rows_and_no_secret(db, world):
    data = data_export.export_user_data(db, world.company.id)
    dump = _dump(data)

    assert set(data) == EXPORT_KEYS
    assert json.loads(dump) == data
    assert data["produto"] == get_settings().product_name
    assert data["conta"]["email"] == world.company.email
    assert data["conta"]["tipo"] == "client"
    assert data["conta"]["email_confirmado_em"] is not None
    assert data["perfil"]["empresa"] == "Hotel Atlântico"
    assert data["perfil"]["telefone"] == "(11) 98888-7777"
    assert data["perfil"]["redes_sociais"] == {"instagram": "@hotelatlantico"}
    assert data["preferencias"]["tema"] == "system"
    assert len(data["sessoes"]) == 1
    assert data["sessoes"][0]["lembrar"] is True
    assert set(data["sessoes"][0]) == {"criada_em", "expira_em", "lembrar"}
    vagas = {job["titulo"]: job for job in data["vagas"]}
    assert set(vagas) == {"Garçom para evento", "Recepcionista"}
    assert vagas["Garçom para evento"]["candidaturas"] == 2
    assert vagas["Garçom para evento"]["valor_hora"] == "35.50"
    assert vagas["Recepcionista"]["status"] == "closed"
    received = {(row["vaga"], row["freelancer"]): row for row in data["candidaturas"]}
    assert set(received) == {
        ("Garçom para evento", "João Silva"),
        ("Garçom para evento", "Ana Souza"),
        ("Recepcionista", "João Silva"),
    }
    assert received[("Garçom para evento", "João Silva")]["valor_proposto"] == "40.00"
    assert received[("Garçom para evento", "Ana Souza")]["mensagem"] == "Tenho experiência."
    [conversation] = data["conversas"]
    assert conversation["com"] == "João Silva"
    assert conversation["vaga"] == "Garçom para evento"
    assert [(m["autor"], m["conteudo"]) for m in conversation["mensagens"]] == [
        ("você", "Bem-vindo à equipe!"),
        ("João Silva", "Obrigado, chego às 18h."),
    ]
    assert [n["mensagem"] for n in data["notificacoes"]] == [f"Aviso para {world.company.email}"]
    assert [(r["avaliado"], r["estrelas"]) for r in data["avaliacoes"]["dadas"]] == [("João Silva", 5)]
    assert [(r["avaliador"], r["estrelas"]) for r in data["avaliacoes"]["recebidas"]] == [("João Silva", 4)]
    assert data["assinatura"] is None
    assert [m["mensagem"] for m in data["mensagens_de_contato"]] == [f"Oi de {world.company.email}"]
    assert [a["sucesso"] for a in data["tentativas_de_login"]] == [True]
    assert set(data["tentativas_de_login"][0]) == {"data", "sucesso"}
    for secret in _secrets(db, world):
        assert secret not in dump
    for private in (world.freelancer.email, world.rival.email, world.other.email, "(21) 95555-1111", "Bartender"):
        assert private not in dump
    assert "hash" not in dump
    assert "198.51.100.7" not in dump


def test_freelancer_export_lists_own_applications_and_default_preferences(db, world):
    db.delete(db.get(UserPreferences, world.freelancer.id))
    make_subscription(db, world.company, status="canceled")
    db.commit()

    data = data_export.export_user_data(db, world.freelancer.id)
    dump = _dump(data)

    assert set(data) == EXPORT_KEYS
    assert data["conta"]["tipo"] == "freelancer"
    assert data["perfil"]["profissao"] == "Garçom"
    assert data["perfil"]["habilidades"] == ["Bandeja", "Inglês", "Vinhos", "Drinks", "Caixa"]
    assert data["preferencias"] == {
        "tema": "system",
        "idioma": "pt_BR",
        "notificacoes_por_email": True,
        "notificacoes_push": True,
        "emails_de_marketing": False,
        "alertas_de_novas_vagas": True,
        "atualizacoes_de_candidaturas": True,
    }
    assert data["vagas"] == []
    own = {row["vaga"]: row for row in data["candidaturas"]}
    assert set(own) == {"Garçom para evento", "Recepcionista", "Bartender"}
    assert own["Bartender"] == {
        "vaga": "Bartender",
        "status": "pending",
        "valor_proposto": None,
        "mensagem": "Sei fazer drinks.",
        "data": own["Bartender"]["data"],
    }
    assert own["Garçom para evento"]["valor_proposto"] == "40.00"
    [conversation] = data["conversas"]
    assert conversation["com"] == "Hotel Atlântico"
    assert [m["autor"] for m in conversation["mensagens"]] == ["Hotel Atlântico", "você"]
    assert [r["avaliado"] for r in data["avaliacoes"]["dadas"]] == ["Hotel Atlântico"]
    assert [r["estrelas"] for r in data["avaliacoes"]["recebidas"]] == [5]
    assert data["assinatura"] is None
    for secret in _secrets(db, world):
        assert secret not in dump
    for private in (
        world.company.email,
        world.rival.email,
        "(11) 98888-7777",
        "Rua das Flores",
        "Tenho experiência.",
        "Ana Souza",
    ):
        assert private not in dump


def test_company_export_includes_its_subscription(db, world):
    make_subscription(db, world.company, tier="premium", status="canceled")
    db.commit()

    subscription = data_export.export_user_data(db, world.company.id)["assinatura"]

    assert subscription["plano"] == "premium"
    assert subscription["status"] == "canceled"


STRIPE_ID = re.compile(r"\b(?:acct|cus|sub|pi|ch|cs_test|cs_live|tr|re|si|in|price|prod)_[A-Za-z0-9]{6,}")


def test_the_export_holds_no_stripe_id_of_the_company_or_the_freelancer(db, world):
    """docs/security.md: Stripe ids stay on the server. The export used to carry the freelancer's own
    connected account ('acct_...') and the company's customer and subscription ids."""
    from models import PayoutAccount, ProtectedPayment
    from tests.support.factories import make_hiring

    subscription = make_subscription(db, world.company)
    subscription.stripe_customer_id, subscription.stripe_subscription_id = "cus_Q8fExport1234", "sub_1PExport5678"
    db.add(PayoutAccount(user_id=world.freelancer.id, cpf="52998224725", stripe_account_id="acct_1PExportAbcd"))
    db.flush()
    db.exec(update(PayoutAccount).values(payouts_enabled=True, details_submitted=True))
    hiring = make_hiring(db, world.company, world.freelancer, utcnow() - timedelta(days=1))
    db.add(
        ProtectedPayment(
            hiring_id=hiring.id,
            company_id=world.company.id,
            status="paid",
            freelancer_centavos=16500,
            checkout_session_id="cs_test_a1Export9876",
            payment_intent_id="pi_3PExport4321",
            charge_id="ch_3PExport8765",
            receipt_url="https://pay.stripe.com/receipts/payment/CAcaFwoVYWNjdF8xUEV4cG9ydA",
            paid_at=utcnow(),
        )
    )
    db.commit()

    company = _dump(data_export.export_user_data(db, world.company.id))
    freelancer = data_export.export_user_data(db, world.freelancer.id)

    assert STRIPE_ID.findall(company) == []
    assert STRIPE_ID.findall(_dump(freelancer)) == []
    assert freelancer["recebimento"]["conta_de_recebimento"] == "Conectada ao Stripe"
    assert json.loads(company)["assinatura"]["plano"] == "premium"


def test_export_of_a_deleted_account_is_refused(db, world):
    privacy.delete_account(db, world.freelancer.id, PASSWORD)
    db.commit()

    with pytest.raises(ServiceError):
        data_export.export_user_data(db, world.freelancer.id)


# --- deletion: refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("password", [WRONG, "", None, 123, ["Segura123"], {"password": PASSWORD}])
def test_wrong_or_blank_password_changes_nothing(db, world, password):
    before = snapshot(db, *ALL_TABLES)

    with pytest.raises(ServiceError) as refused:
        privacy.delete_account(db, world.company.id, password)
    db.rollback()

    assert refused.value.message == "Senha incorreta."
    assert refused.value.field_errors == {"password": "Senha incorreta."}
    assert snapshot(db, *ALL_TABLES) == before


def test_wrong_passwords_count_towards_the_login_throttle(db, world):
    for _ in range(get_settings().login_max_failures):
        with pytest.raises(ServiceError):
            privacy.delete_account(db, world.company.id, WRONG, "198.51.100.20")
        db.rollback()
    before = snapshot(db, *ALL_TABLES)

    with pytest.raises(ServiceError) as throttled:
        privacy.delete_account(db, world.company.id, PASSWORD, "198.51.100.20")
    db.rollback()
    with pytest.raises(ServiceError) as login:
        accounts.login(db, {"email": world.company.email, "password": PASSWORD}, "198.51.100.21")
    db.rollback()

    assert throttled.value.field_errors == {"password": privacy.TOO_MANY_ATTEMPTS}
    assert login.value.message == "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
    assert snapshot(db, *ALL_TABLES) == before


@pytest.mark.parametrize("status", ["active", "trialing", "past_due"])
def test_company_with_a_live_subscription_is_refused(db, world, status):
    row = make_subscription(db, world.company, status=status)
    row.stripe_subscription_id = "sub_123"
    db.commit()
    before = snapshot(db, *ALL_TABLES)

    with pytest.raises(ServiceError) as refused:
        privacy.delete_account(db, world.company.id, PASSWORD)
    db.rollback()

    assert refused.value.message == "Cancele sua assinatura antes de excluir a conta."
    assert snapshot(db, *ALL_TABLES) == before


def test_company_with_a_canceled_subscription_can_delete(db, world):
    row = make_subscription(db, world.company, status="canceled")
    row.stripe_subscription_id = "sub_123"
    db.commit()

    privacy.delete_account(db, world.company.id, PASSWORD)
    db.commit()

    assert db.get(User, world.company.id).deleted_at is not None


# --- deletion: what goes and what stays ------------------------------------------------------


def _delete(db, user, password=PASSWORD):
    with session_scope() as own:
        privacy.delete_account(own, user.id, password)
    db.expire_all()


def test_deleted_company_loses_personal_data_and_every_session(db, world):
    email = world.company.email
    _delete(db, world.company)

    user = db.get(User, world.company.id)
    assert user.deleted_at is not None
    assert user.is_active is False
    assert user.email == privacy.removed_email(world.company.id) == f"removido-{world.company.id}@removido.invalid"
    profile = db.get(Profile, world.company.id)
    assert profile.nome == "Usuário removido"
    assert profile.empresa == profile.telefone == profile.endereco == profile.descricao == ""
    assert profile.redes_sociais == {}
    assert profile.habilidades == []
    assert sessions.resolve(db, world.tokens[world.company.id]) is None
    assert db.exec(select(AuthSession).where(AuthSession.user_id == world.company.id)).all() == []
    assert db.exec(select(EmailToken).where(EmailToken.user_id == world.company.id)).all() == []
    assert db.get(UserPreferences, world.company.id) is None
    assert db.exec(select(Notification).where(Notification.user_id == world.company.id)).all() == []
    assert db.exec(select(OutboxEmail).where(OutboxEmail.to_email == email)).all() == []
    assert sessions.resolve(db, world.tokens[world.rival.id]) is not None
    assert db.exec(select(OutboxEmail).where(OutboxEmail.to_email == world.rival.email)).all()


def test_deleted_account_cannot_log_in_and_its_email_can_register_again(db, world):
    email = world.company.email
    _delete(db, world.company)

    with pytest.raises(ServiceError) as old:
        accounts.login(db, {"email": email, "password": PASSWORD}, "198.51.100.30")
    db.rollback()
    with pytest.raises(ServiceError):
        accounts.login(db, {"email": privacy.removed_email(world.company.id), "password": PASSWORD}, "198.51.100.30")
    db.rollback()
    again = accounts.register_company(
        db,
        {
            "name": "Mariana Costa",
            "email": email,
            "password": PASSWORD,
            "confirmPassword": PASSWORD,
            "company": "Hotel Atlântico Novo",
            "industry": "hotel",
            "location": "Recife",
        },
    )
    db.commit()

    assert old.value.message == accounts.INVALID_CREDENTIALS
    assert again.id != world.company.id


def test_a_later_account_with_the_same_email_never_receives_the_deleted_ones_contact_messages_or_logins(db, world):
    email = world.company.email
    db.add(ContactMessage(name="Ana", email=email, subject="suporte", message="Dúvida sobre minha conta"))
    db.add(LoginAttempt(email=email, address="198.51.100.7", succeeded=True))
    db.commit()
    _delete(db, world.company)

    assert db.exec(select(ContactMessage).where(ContactMessage.email == email)).all() == []
    assert db.exec(select(LoginAttempt).where(LoginAttempt.email == email)).all() == []
    again = accounts.register_company(
        db,
        {
            "name": "Outra Pessoa",
            "email": email,
            "password": PASSWORD,
            "confirmPassword": PASSWORD,
            "company": "Outro Hotel",
            "industry": "hotel",
            "location": "Recife",
        },
    )
    db.commit()
    data = data_export.export_user_data(db, again.id)
    assert data["mensagens_de_contato"] == []
    assert data["tentativas_de_login"] == []


def test_login_refuses_a_deleted_account_even_with_its_old_credentials(db, world):
    user = db.get(User, world.freelancer.id)
    user.deleted_at = utcnow()
    db.add(user)
    db.commit()

    with pytest.raises(ServiceError) as refused:
        accounts.login(db, {"email": world.freelancer.email, "password": PASSWORD}, "198.51.100.31")

    assert refused.value.message == accounts.INVALID_CREDENTIALS


def test_deleted_company_shows_as_removed_and_keeps_the_freelancers_history(db, world):
    messages_before = [m.content for m in db.exec(select(Message).order_by(Message.id)).all()]
    _delete(db, world.company)

    [summary] = chats.list_for(db, world.freelancer.id).items
    detail = chats.open_chat(db, world.freelancer.id, world.chat.id)
    rows = {
        row["job_title"]: row for row in freelancer_dashboard.freelancer_applications(db, world.freelancer.id).items
    }

    assert summary["other_name"] == "Usuário removido"
    assert detail["other_name"] == "Usuário removido"
    assert [m["content"] for m in detail["messages"]] == messages_before
    assert [m.content for m in db.exec(select(Message).order_by(Message.id)).all()] == messages_before
    assert rows["Garçom para evento"]["company"] == "Usuário removido"
    assert db.exec(select(func.count()).select_from(Rating)).one() == 2


def test_deleted_company_jobs_leave_the_public_site_and_applicants_are_told(db, world):
    _delete(db, world.company)

    assert job_detail.get_public_job(db, world.event_job.id) is None
    assert all(item["id"] != world.event_job.id for item in jobs.list_public_jobs(db).items)
    assert db.get(Job, world.event_job.id).status == JobStatus.CLOSED
    assert db.get(Application, world.pending_other.id).status == "rejected"
    assert db.get(Application, world.hired.id).status == "accepted"
    closed = db.exec(select(Notification).where(Notification.type == NotificationType.JOB_CLOSED)).all()
    assert {n.user_id for n in closed} == {world.freelancer.id, world.other.id}
    assert job_detail.get_public_job(db, world.rival_job.id) is not None


def test_nobody_can_write_to_a_deleted_participant(db, world):
    _delete(db, world.company)

    with pytest.raises(NotAllowed) as refused:
        chat_sending.send(db, world.freelancer.id, world.chat.id, "Ainda está aí?")
    db.rollback()

    assert refused.value.message == chats.CANNOT_SEND
    assert db.exec(select(func.count()).select_from(Message)).one() == 2


def test_deleted_freelancer_leaves_answered_applications_for_the_company(db, world):
    pending_id = world.pending_rival.id
    _delete(db, world.freelancer)

    assert db.get(Application, pending_id) is None
    assert db.get(Application, world.hired.id).status == "accepted"
    assert db.get(Application, world.closed_hire.id).status == "accepted"
    assert db.get(Application, world.pending_other.id).status == "pending"
    cards = applicant_list.list_for_job(db, world.company.id, world.event_job.id).cards
    names = {card["id"]: card["name"] for card in cards}
    assert names[world.hired.id] == "Usuário removido"
    assert names[world.pending_other.id] == "Ana Souza"
    rival_cards = applicant_list.list_for_job(db, world.rival.id, world.rival_job.id).cards
    assert rival_cards == []
    [summary] = chats.list_for(db, world.company.id).items
    assert summary["other_name"] == "Usuário removido"
    assert chats.open_chat(db, world.company.id, world.chat.id)["other_name"] == "Usuário removido"
    hirings = {row["id"]: row for row in company_dashboard.company_hirings(db, world.company.id).items}
    assert hirings[world.hired.id]["freelancer_name"] == "Usuário removido"
    assert job_detail.get_public_job(db, world.event_job.id) is not None
    with pytest.raises(NotAllowed):
        chat_sending.send(db, world.company.id, world.chat.id, "Olá?")
    db.rollback()


def test_deleting_twice_is_refused(db, world):
    _delete(db, world.freelancer)

    with pytest.raises(ServiceError) as again:
        privacy.delete_account(db, world.freelancer.id, PASSWORD)

    assert again.value.message == privacy.ACCOUNT_NOT_FOUND


def test_deletion_hands_back_the_former_photo_for_removal_after_the_commit(db, world):
    profile = db.get(Profile, world.freelancer.id)
    profile.foto_url = photos.URL_PREFIX + "ab" * 16 + ".webp"
    db.add(profile)
    db.commit()

    with session_scope() as own:
        former = privacy.delete_account(own, world.freelancer.id, PASSWORD)
    with session_scope() as own:
        without = privacy.delete_account(own, world.company.id, PASSWORD)

    assert former == photos.URL_PREFIX + "ab" * 16 + ".webp"
    assert without == ""
    db.expire_all()
    assert db.get(Profile, world.freelancer.id).foto_url == ""


# --- the export route ------------------------------------------------------------------------


@pytest.fixture
def client(db):
    return TestClient(api, base_url="http://turno.test")


def test_export_route_answers_the_signed_in_users_data_as_an_attachment(db, world, client):
    cookie = cookie_for(db, world.company)

    response = client.get(routes.API_ACCOUNT_EXPORT, headers={"cookie": cookie})

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.headers["cache-control"] == "no-store"
    day = local(utcnow()).date().isoformat()
    assert response.headers["content-disposition"] == f'attachment; filename="turno-meus-dados-{day}.json"'
    assert "Hotel Atlântico" in response.content.decode("utf-8")
    assert "\n  " in response.text
    data = response.json()
    assert data["conta"]["email"] == world.company.email
    assert world.freelancer.email not in response.text
    for secret in _secrets(db, world):
        assert secret not in response.text


@pytest.mark.parametrize("cookie", ["", "turno_session=forjado", "outro=1"])
def test_export_route_refuses_visitors_with_401(db, world, client, cookie):
    response = client.get(routes.API_ACCOUNT_EXPORT, headers={"cookie": cookie} if cookie else {})

    assert response.status_code == 401
    assert response.json()["ok"] is False
    assert "content-disposition" not in response.headers


def test_export_route_refuses_a_deleted_accounts_old_cookie(db, world, client):
    cookie = cookie_for(db, world.freelancer)
    _delete(db, world.freelancer)

    response = client.get(routes.API_ACCOUNT_EXPORT, headers={"cookie": cookie})

    assert response.status_code == 401


def test_export_filename_is_a_safe_slug_of_the_product_name():
    day = local(utcnow()).date().isoformat()
    assert export_filename("Turno") == f"turno-meus-dados-{day}.json"
    assert export_filename('Turnô "Já"') == f"turno-ja-meus-dados-{day}.json"


# --- the 'Excluir conta' handler -------------------------------------------------------------


@pytest.fixture
def presence():
    get_presence.cache_clear()
    yield get_presence()
    get_presence.cache_clear()


def _privacy_state(db, user, tab="tab-1"):
    return state_for(PrivacyState, cookie_for(db, user), "/client-dashboard", {"tab": "settings"}, token=tab)


def _scripts(events) -> list[str]:
    return [
        arg._var_value
        for spec in events
        for _name, arg in getattr(spec, "args", ())
        if isinstance(getattr(arg, "_var_value", None), str)
    ]


def test_the_handler_deletes_the_callers_account_signs_out_and_goes_home(db, world, presence):
    asyncio.run(presence.enter(world.company.id, "tab-1", "dash"))
    asyncio.run(presence.enter(world.company.id, "tab-2", "site"))
    state = _privacy_state(db, world.company)
    run(state, PrivacyState.open_delete)
    auth = state._get_root_state().get_substate(AuthState.get_full_name().split(".")[1:])
    auth.signed_in, auth.user_name = True, "Mariana Costa"

    events = run(state, PrivacyState.delete_account, {"password": PASSWORD})

    db.expire_all()
    assert db.get(User, world.company.id).deleted_at is not None
    assert db.exec(select(AuthSession).where(AuthSession.user_id == world.company.id)).all() == []
    assert toasts(events) == []
    [script] = _scripts(events)
    assert script.startswith(f"fetch('{routes.API_LOGOUT}', {{method: 'POST'")
    assert "'Conta excluída'" in script
    assert "window.location.assign('/')" in script
    assert asyncio.run(presence.tabs(world.company.id)) == {}
    assert (state.deleting, state.delete_open, state.delete_error) == (False, False, "")
    assert (auth.signed_in, auth.user_name) == (False, "")


@pytest.fixture
def photo_file(db, world, tmp_path, monkeypatch):
    """The freelancer's stored photo, in an upload folder of its own."""
    monkeypatch.setenv("REFLEX_UPLOADED_FILES_DIR", str(tmp_path))
    name = "cd" * 16 + ".webp"
    path = tmp_path / photos.FOLDER / name
    path.parent.mkdir(parents=True)
    path.write_bytes(b"webp")
    profile = db.get(Profile, world.freelancer.id)
    profile.foto_url = photos.URL_PREFIX + name
    db.add(profile)
    db.commit()
    return path


def test_the_handler_removes_the_photo_file_once_the_account_is_deleted(db, world, photo_file):
    state = _privacy_state(db, world.freelancer)

    run(state, PrivacyState.delete_account, {"password": WRONG})
    assert photo_file.exists()

    run(state, PrivacyState.delete_account, {"password": PASSWORD})
    assert not photo_file.exists()


def test_a_visitor_is_refused_and_nothing_changes(db, world):
    before = snapshot(db, *ALL_TABLES)
    state = state_for(PrivacyState, "", "/client-dashboard")

    events = run(state, PrivacyState.delete_account, {"password": PASSWORD})

    assert toasts(events) == [f"error: Erro ao excluir conta | {SIGN_IN_AGAIN}"]
    assert not any("fetch" in script for script in _scripts(events))
    assert snapshot(db, *ALL_TABLES) == before


@pytest.mark.parametrize("form_data", [{}, {"password": ""}, {"password": None}, {"password": 5}, "x", None])
def test_a_blank_password_is_refused_under_the_field(db, world, form_data):
    state = _privacy_state(db, world.company)
    before = snapshot(db, *ALL_TABLES)

    events = run(state, PrivacyState.delete_account, form_data)

    assert state.delete_error == "Senha é obrigatória"
    assert events == []
    assert snapshot(db, *ALL_TABLES) == before


def test_a_wrong_password_shows_under_the_field_and_changes_nothing(db, world):
    state = _privacy_state(db, world.freelancer)
    run(state, PrivacyState.open_delete)
    before = snapshot(db, *ALL_TABLES)

    events = run(state, PrivacyState.delete_account, {"password": WRONG})

    assert state.delete_error == "Senha incorreta."
    assert (state.deleting, state.delete_open) == (False, True)
    assert toasts(events) == []
    assert snapshot(db, *ALL_TABLES) == before


def test_a_live_subscription_is_a_toast_and_changes_nothing(db, world):
    row = make_subscription(db, world.company, status="active")
    row.stripe_subscription_id = "sub_live"
    db.commit()
    state = _privacy_state(db, world.company)
    before = snapshot(db, *ALL_TABLES)

    events = run(state, PrivacyState.delete_account, {"password": PASSWORD})

    assert toasts(events) == ["error: Erro ao excluir conta | Cancele sua assinatura antes de excluir a conta."]
    assert state.delete_error == ""
    assert snapshot(db, *ALL_TABLES) == before


def test_an_unexpected_failure_is_a_generic_toast(db, world, monkeypatch):
    def _boom(*_args, **_kwargs):
        raise RuntimeError("database exploded")

    monkeypatch.setattr(privacy, "delete_account", _boom)
    state = _privacy_state(db, world.company)

    events = run(state, PrivacyState.delete_account, {"password": PASSWORD})

    assert toasts(events) == [f"error: Erro ao excluir conta | {TRY_AGAIN}"]
    assert state.deleting is False
    assert "exploded" not in repr(events)


def test_a_submit_while_deleting_is_ignored(db, world):
    state = _privacy_state(db, world.company)
    state.deleting = True

    assert run(state, PrivacyState.delete_account, {"password": PASSWORD}) == []
    db.expire_all()
    assert db.get(User, world.company.id).deleted_at is None


def test_the_dialog_stays_open_while_deleting(db, world):
    state = _privacy_state(db, world.company)
    run(state, PrivacyState.open_delete)
    state.deleting = True
    run(state, PrivacyState.set_delete_open, False)
    assert state.delete_open is True
    state.deleting = False
    state.delete_error = "Senha incorreta."
    run(state, PrivacyState.set_delete_open, False)
    assert (state.delete_open, state.delete_error) == (False, "")


def test_the_section_renders_with_its_stable_ids():
    rendered = str(privacy_section())

    for element_id in (
        "export-data-link",
        "delete-account-button",
        "delete-account-password",
        "confirm-delete-account",
    ):
        assert f'"{element_id}"' in rendered
    assert f'to:"{routes.API_ACCOUNT_EXPORT}"' in rendered
    assert "download:true" in rendered
    assert "reloadDocument:true" in rendered
    assert "Privacidade e dados" in rendered


def test_the_export_holds_the_shifts_with_their_timeline_and_the_freelancers_faltas(db):
    from models import Hiring
    from services.shifts import faltas
    from tests.support.factories import make_application, make_company, make_freelancer, make_job

    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company, "Garçom de gala")
    application = make_application(db, job, freelancer)
    application_answers.accept(db, company.id, application.id)
    hiring_id = db.exec(select(Hiring.id)).one()
    faltas.add(db, freelancer.id, hiring_id, 2, "cancelamento", utcnow())
    db.commit()

    mine = data_export.export_user_data(db, freelancer.id)
    theirs = data_export.export_user_data(db, company.id)

    [shift] = mine["turnos"]
    assert (shift["vaga_id"], shift["estado"]) == (job.id, "agendada")
    assert [step["acao"] for step in shift["linha_do_tempo"]] == ["aceitar"]
    assert [(f["pontos"], f["motivo"]) for f in mine["faltas"]] == [(2, "cancelamento")]
    assert [s["vaga_id"] for s in theirs["turnos"]] == [job.id]
    assert theirs["faltas"] == []  # private to the freelancer
    assert theirs["vagas"][0]["endereco"] == job.endereco


def test_removing_an_account_cancels_its_shifts_ahead_and_tells_the_other_side(db):
    from datetime import timedelta as delta

    from models import Hiring
    from tests.support.factories import make_application, make_company, make_freelancer, make_job

    company, freelancer = make_company(db), make_freelancer(db)
    soon = make_job(db, company, "Turno amanhã", inicio_em=utcnow() + delta(hours=10))
    later = make_job(db, company, "Turno em uma semana", inicio_em=utcnow() + delta(days=7))
    for job in (soon, later):
        application_answers.accept(db, company.id, make_application(db, job, freelancer).id)
    db.commit()

    privacy._remove(db, db.get(User, company.id))
    db.commit()

    states = dict(db.exec(select(Hiring.job_id, Hiring.state)).all())
    assert states == {soon.id: "cancelada_empresa", later.id: "cancelada_empresa"}
    fees = dict(db.exec(select(Hiring.job_id, Hiring.taxa_cancelamento_centavos)).all())
    assert fees[later.id] == 0 and fees[soon.id] == 12000  # 4 h at R$ 30,00: left within 24 h
    told = db.exec(select(Notification.message).where(Notification.user_id == freelancer.id)).all()
    assert sum("A empresa cancelou o turno" in message for message in told) == 2
