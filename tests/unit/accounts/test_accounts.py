"""Registration, e-mail confirmation, login and password recovery (services/accounts/accounts.py)."""

import re
from datetime import timedelta

import pytest
from sqlmodel import func, select

from core.types import utcnow
from models import AuthSession, EmailToken, OutboxEmail, Profile, Role, TokenPurpose, User, UserPreferences
from services.accounts import accounts, sessions
from services.common.errors import ServiceError, ValidationFailed

PASSWORD = "Segura123"
NEW_PASSWORD = "NovaSenha456"
ADDRESS = "203.0.113.7"
COMPANY = {
    "name": "Ana Souza",
    "email": "ana@hotel.com.br",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "company": "Hotel Central",
    "industry": "hotel",
    "location": "São Paulo, SP",
    "description": "Hotel no centro.",
    "website": "https://hotelcentral.com.br",
}
FREELANCER = {
    "name": "João Lima",
    "email": "joao@exemplo.com",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "profession": "Garçom",
    "skills": "atendimento, , organização ",
    "location": "Rio de Janeiro, RJ",
    "experience": "Cinco anos em eventos.",
}


def _count(db, model) -> int:
    return db.exec(select(func.count()).select_from(model)).one()


def _link_token(db, path: str, to: str) -> str:
    """The token of the newest e-mailed link to `path` sent to `to`."""
    mail = db.exec(select(OutboxEmail).where(OutboxEmail.to_email == to).order_by(OutboxEmail.id.desc())).first()
    assert mail is not None
    match = re.search(rf"http://turno\.test{re.escape(path)}\?token=([A-Za-z0-9_-]+)", mail.body)
    assert match, mail.body
    return match.group(1)


def _register(db, payload=COMPANY, confirm=True) -> User:
    register = accounts.register_company if "company" in payload else accounts.register_freelancer
    user = register(db, dict(payload))
    db.commit()
    if confirm:
        accounts.confirm_email(db, _link_token(db, "/confirm-email", user.email))
        db.commit()
    return user


def _login(db, email=COMPANY["email"], password=PASSWORD, **extra) -> accounts.LoginResult:
    result = accounts.login(db, {"email": email, "password": password, **extra}, ADDRESS)
    db.commit()
    return result


def _expire_tokens(db, purpose: TokenPurpose) -> None:
    for row in db.exec(select(EmailToken).where(EmailToken.purpose == purpose)).all():
        row.expires_at = utcnow() - timedelta(seconds=1)
        db.add(row)
    db.commit()


# Registration


def test_register_company_creates_user_profile_preferences_and_one_confirmation_mail(db):
    user = _register(db, COMPANY, confirm=False)

    assert user.role == Role.CLIENT
    assert user.email_confirmed_at is None
    assert user.password_hash != PASSWORD
    profile = db.get(Profile, user.id)
    assert (profile.tipo_usuario, profile.nome, profile.empresa, profile.industria) == (
        Role.CLIENT,
        "Ana Souza",
        "Hotel Central",
        "hotel",
    )
    assert (profile.localizacao, profile.website) == ("São Paulo, SP", "https://hotelcentral.com.br")
    assert db.get(UserPreferences, user.id) is not None
    mails = db.exec(select(OutboxEmail)).all()
    assert [m.to_email for m in mails] == ["ana@hotel.com.br"]
    assert "/confirm-email?token=" in mails[0].body


def test_register_freelancer_creates_user_profile_preferences_and_one_confirmation_mail(db):
    user = _register(db, FREELANCER, confirm=False)

    assert user.role == Role.FREELANCER
    profile = db.get(Profile, user.id)
    assert (profile.tipo_usuario, profile.nome, profile.profissao) == (Role.FREELANCER, "João Lima", "Garçom")
    assert profile.habilidades == ["atendimento", "organização"]
    assert profile.experiencia_descricao == "Cinco anos em eventos."
    assert db.get(UserPreferences, user.id) is not None
    assert _count(db, OutboxEmail) == 1
    assert _link_token(db, "/confirm-email", "joao@exemplo.com")


def test_registration_ignores_a_role_sent_by_the_caller(db):
    user = _register(db, {**FREELANCER, "role": "client", "tipo_usuario": "client"}, confirm=False)

    assert user.role == Role.FREELANCER
    assert db.get(Profile, user.id).tipo_usuario == Role.FREELANCER


def test_registration_stores_the_email_lower_cased(db):
    user = _register(db, {**COMPANY, "email": "  Ana@Hotel.COM.BR "}, confirm=False)

    assert user.email == "ana@hotel.com.br"


@pytest.mark.parametrize("email", ["ana@hotel.com.br", "ANA@Hotel.com.br"])
@pytest.mark.parametrize("second", [COMPANY, FREELANCER], ids=["company", "freelancer"])
def test_known_email_answers_like_a_new_one_creates_nothing_and_mails_the_owner(db, email, second):
    owner = _register(db, COMPANY)
    counts = {model: _count(db, model) for model in (User, Profile, UserPreferences, EmailToken)}
    mails_before = _count(db, OutboxEmail)

    register = accounts.register_company if "company" in second else accounts.register_freelancer
    got = register(db, {**second, "email": email, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    db.commit()

    assert got is None
    assert {model: _count(db, model) for model in counts} == {**counts, EmailToken: counts[EmailToken] + 1}
    assert _count(db, OutboxEmail) == mails_before + 1
    notice = db.exec(select(OutboxEmail).order_by(OutboxEmail.id.desc())).first()
    assert notice.to_email == owner.email
    assert notice.subject == "Tentativa de cadastro no Turno"
    assert notice.body.startswith("Olá!\n\nAlguém tentou criar uma conta com este e-mail no Turno")
    assert "http://turno.test/login\n" in notice.body
    assert _login(db).redirect_to == "/client-dashboard"
    with pytest.raises(ServiceError):
        _login(db, password=NEW_PASSWORD)


def test_the_known_email_notice_carries_a_working_reset_link(db):
    owner = _register(db, COMPANY)
    accounts.register_freelancer(db, {**FREELANCER, "email": COMPANY["email"]})
    db.commit()

    token = _link_token(db, "/reset-password", owner.email)
    accounts.reset_password(db, token, {"password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    db.commit()

    assert _login(db, password=NEW_PASSWORD).redirect_to == "/client-dashboard"


def test_known_email_registration_hashes_the_password_like_a_new_one(db, monkeypatch):
    _register(db, COMPANY)
    hashed: list[str] = []
    monkeypatch.setattr(accounts, "hash_password", lambda password: hashed.append(password) or "x")

    accounts.register_company(db, {**COMPANY, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    accounts.register_company(
        db, {**COMPANY, "email": "nova@hotel.com.br", "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD}
    )

    assert hashed == [NEW_PASSWORD, NEW_PASSWORD]


def test_invalid_registration_creates_nothing(db):
    with pytest.raises(ValidationFailed) as caught:
        accounts.register_company(db, {**COMPANY, "industry": ""})
    db.rollback()

    assert caught.value.field_errors == {"industry": "Indústria deve ser selecionada"}
    assert _count(db, User) == 0
    assert _count(db, OutboxEmail) == 0


def test_registration_stores_skills_as_the_profile_form_does(db):
    """Found by tests/unit/common/test_fuzz_forms.py: one 1,000-character skill (or hundreds of them) was stored."""
    skills = ", ".join(["Bandeja", "bandeja", "Bandeja"] + [f"h{n}" for n in range(40)] + ["x" * 900])
    user = _register(db, {**FREELANCER, "skills": skills})

    stored = db.get(Profile, user.id).habilidades
    assert stored == ["Bandeja", "bandeja"] + [f"h{n}" for n in range(28)]


def test_a_lone_surrogate_in_the_password_does_not_break_registration(db):
    """Found by tests/unit/common/test_fuzz_forms.py: bcrypt could not encode '\\ud800' and the sign-up failed."""
    odd = PASSWORD + "\ud800\x1b"
    user = _register(db, {**FREELANCER, "password": odd, "confirmPassword": odd, "name": "João\udfff Lima"})

    assert db.get(Profile, user.id).nome == "João Lima"
    assert _login(db, email=FREELANCER["email"], password=odd).role == Role.FREELANCER
    assert _login(db, email=FREELANCER["email"], password=PASSWORD).role == Role.FREELANCER


# E-mail confirmation


def test_login_is_refused_before_confirmation(db):
    _register(db, COMPANY, confirm=False)

    with pytest.raises(ServiceError) as caught:
        _login(db)

    assert caught.value.message == "Por favor, confirme seu email antes de fazer login."
    assert caught.value.message == accounts.NOT_CONFIRMED
    assert _count(db, AuthSession) == 0


def test_confirmation_link_works_once(db):
    user = _register(db, COMPANY, confirm=False)
    token = _link_token(db, "/confirm-email", user.email)

    confirmed = accounts.confirm_email(db, token)
    db.commit()
    assert confirmed.id == user.id
    db.refresh(user)
    assert user.email_confirmed_at is not None

    with pytest.raises(ServiceError) as caught:
        accounts.confirm_email(db, token)
    assert caught.value.message == accounts.INVALID_LINK


def test_expired_confirmation_link_is_refused(db):
    user = _register(db, COMPANY, confirm=False)
    token = _link_token(db, "/confirm-email", user.email)
    _expire_tokens(db, TokenPurpose.CONFIRM_EMAIL)

    with pytest.raises(ServiceError) as caught:
        accounts.confirm_email(db, token)

    assert caught.value.message == accounts.INVALID_LINK
    db.refresh(user)
    assert user.email_confirmed_at is None


def test_confirmation_link_expires_after_the_configured_hours(db, settings):
    user = _register(db, COMPANY, confirm=False)

    row = db.exec(select(EmailToken).where(EmailToken.user_id == user.id)).one()

    expected = utcnow() + timedelta(hours=settings.confirm_token_hours)
    assert abs(row.expires_at - expected) < timedelta(minutes=1)


@pytest.mark.parametrize("token", ["", "nao-existe", "x" * 500, None, 123])
def test_unknown_confirmation_tokens_are_refused(db, token):
    with pytest.raises(ServiceError) as caught:
        accounts.confirm_email(db, token)

    assert caught.value.message == accounts.INVALID_LINK


def test_reset_token_does_not_confirm_and_confirm_token_does_not_reset(db):
    user = _register(db, COMPANY, confirm=False)
    confirm_token = _link_token(db, "/confirm-email", user.email)
    accounts.request_password_reset(db, {"email": user.email})
    db.commit()
    reset_token = _link_token(db, "/reset-password", user.email)

    with pytest.raises(ServiceError):
        accounts.confirm_email(db, reset_token)
    with pytest.raises(ServiceError):
        accounts.reset_password(db, confirm_token, {"password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})


# Login


@pytest.mark.parametrize(
    ("email", "password"),
    [("ana@hotel.com.br", "Errada123"), ("ninguem@hotel.com.br", PASSWORD), ("ninguem@hotel.com.br", "Errada123")],
    ids=["wrong-password", "unknown-email", "both"],
)
def test_wrong_password_and_unknown_email_get_the_same_message(db, email, password):
    _register(db, COMPANY)

    with pytest.raises(ServiceError) as caught:
        _login(db, email, password)

    assert caught.value.message == "Email ou senha incorretos."
    assert caught.value.field_errors == {}


def test_login_of_a_deleted_account_is_refused(db):
    user = _register(db, COMPANY)
    user.deleted_at = utcnow()
    db.add(user)
    db.commit()

    with pytest.raises(ServiceError) as caught:
        _login(db)

    assert caught.value.message == accounts.INVALID_CREDENTIALS


def test_login_of_an_inactive_account_is_refused(db):
    user = _register(db, COMPANY)
    user.is_active = False
    db.add(user)
    db.commit()

    with pytest.raises(ServiceError) as caught:
        _login(db)

    assert caught.value.message == accounts.INVALID_CREDENTIALS


@pytest.mark.parametrize(
    ("payload", "role", "redirect"),
    [(COMPANY, Role.CLIENT, "/client-dashboard"), (FREELANCER, Role.FREELANCER, "/freelancer-dashboard")],
    ids=["client", "freelancer"],
)
def test_login_returns_a_session_token_and_the_dashboard_of_the_role(db, payload, role, redirect):
    user = _register(db, payload)

    result = _login(db, payload["email"].upper())

    assert result.redirect_to == redirect
    assert result.role == role
    current = sessions.resolve(db, result.token)
    assert current is not None
    assert (current.id, current.role, current.email, current.name) == (user.id, role, user.email, payload["name"])


def test_dashboard_for_unknown_role_is_the_freelancer_dashboard():
    assert accounts.dashboard_for(None) == "/freelancer-dashboard"
    assert accounts.dashboard_for("client") == "/client-dashboard"


def test_remember_me_gives_a_persistent_cookie_and_a_longer_session(db, settings):
    _register(db, COMPANY)

    remembered = _login(db, remember="on")
    browser_only = _login(db)

    assert remembered.max_age == settings.remember_days * 24 * 3600
    assert browser_only.max_age is None
    rows = {row.remember: row for row in db.exec(select(AuthSession)).all()}
    assert rows[True].expires_at > rows[False].expires_at
    assert abs(rows[True].expires_at - (utcnow() + timedelta(days=settings.remember_days))) < timedelta(minutes=1)
    assert abs(rows[False].expires_at - (utcnow() + timedelta(hours=settings.session_hours))) < timedelta(minutes=1)


def test_login_validates_the_form(db):
    with pytest.raises(ValidationFailed) as caught:
        _login(db, "não é email", "")

    assert caught.value.field_errors == {"email": "Email inválido", "password": "Senha é obrigatória"}


# Password recovery


def test_recovery_for_an_unknown_email_sends_nothing_and_raises_nothing(db):
    _register(db, COMPANY)
    before = _count(db, OutboxEmail)

    accounts.request_password_reset(db, {"email": "ninguem@hotel.com.br"})
    db.commit()

    assert _count(db, OutboxEmail) == before
    assert _count(db, EmailToken) == 1  # only the confirmation token


def test_recovery_sends_a_reset_link_valid_for_the_configured_minutes(db, settings):
    user = _register(db, COMPANY)

    accounts.request_password_reset(db, {"email": " ANA@hotel.com.br "})
    db.commit()

    token = _link_token(db, "/reset-password", user.email)
    assert accounts.reset_token_is_valid(db, token)
    row = db.exec(select(EmailToken).where(EmailToken.purpose == TokenPurpose.RESET_PASSWORD)).one()
    expected = utcnow() + timedelta(minutes=settings.reset_token_minutes)
    assert abs(row.expires_at - expected) < timedelta(minutes=1)
    assert row.token_hash != token


def test_recovery_refuses_an_invalid_email(db):
    with pytest.raises(ValidationFailed) as caught:
        accounts.request_password_reset(db, {"email": "ana"})

    assert caught.value.field_errors == {"email": "Email inválido"}


def _reset_token(db) -> str:
    accounts.request_password_reset(db, {"email": COMPANY["email"]})
    db.commit()
    return _link_token(db, "/reset-password", COMPANY["email"])


def _reset(db, token: str, password: str = NEW_PASSWORD) -> User:
    user = accounts.reset_password(db, token, {"password": password, "confirmPassword": password})
    db.commit()
    return user


def test_reset_changes_the_password_and_ends_every_session(db):
    _register(db, COMPANY)
    first = _login(db)
    second = _login(db, remember="on")
    token = _reset_token(db)

    _reset(db, token)

    assert sessions.resolve(db, first.token) is None
    assert sessions.resolve(db, second.token) is None
    assert _count(db, AuthSession) == 0
    with pytest.raises(ServiceError) as caught:
        _login(db, password=PASSWORD)
    assert caught.value.message == accounts.INVALID_CREDENTIALS
    assert sessions.resolve(db, _login(db, password=NEW_PASSWORD).token) is not None


def test_reset_link_works_once(db):
    _register(db, COMPANY)
    token = _reset_token(db)
    _reset(db, token)

    assert not accounts.reset_token_is_valid(db, token)
    with pytest.raises(ServiceError) as caught:
        _reset(db, token, "Terceira789")
    assert caught.value.message == accounts.INVALID_LINK
    assert _login(db, password=NEW_PASSWORD).redirect_to == "/client-dashboard"


def test_expired_reset_link_is_refused(db):
    _register(db, COMPANY)
    token = _reset_token(db)
    _expire_tokens(db, TokenPurpose.RESET_PASSWORD)

    assert not accounts.reset_token_is_valid(db, token)
    with pytest.raises(ServiceError) as caught:
        _reset(db, token)
    assert caught.value.message == accounts.INVALID_LINK
    assert _login(db).role == Role.CLIENT


def test_reset_with_a_weak_password_keeps_the_link_usable(db):
    _register(db, COMPANY)
    token = _reset_token(db)

    with pytest.raises(ValidationFailed) as caught:
        _reset(db, token, "fraca")
    db.rollback()

    assert caught.value.field_errors == {"password": "Senha deve ter pelo menos 8 caracteres"}
    assert accounts.reset_token_is_valid(db, token)


def test_reset_confirms_an_unconfirmed_email(db):
    user = _register(db, COMPANY, confirm=False)
    token = _reset_token(db)

    _reset(db, token)

    db.refresh(user)
    assert user.email_confirmed_at is not None
    assert _login(db, password=NEW_PASSWORD).role == Role.CLIENT


@pytest.mark.parametrize("token", ["", "nao-existe", "x" * 500, None, 42])
def test_unknown_reset_tokens_are_invalid(db, token):
    assert accounts.reset_token_is_valid(db, token) is False
    with pytest.raises(ServiceError) as caught:
        accounts.reset_password(db, token, {"password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    assert caught.value.message == accounts.INVALID_LINK
