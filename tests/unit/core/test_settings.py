"""Settings services: theme, notification switches (services/accounts/profiles.py) and the password change
(services/accounts/accounts.py with services/accounts/sessions.py and services/common/throttle.py)."""

import pytest
from sqlmodel import func, select

from core.security import hash_password, verify_password
from core.settings import get_settings
from core.types import utcnow
from models import AuthSession, LoginAttempt, Profile, Role, User, UserPreferences
from services.accounts import accounts, profiles, sessions
from services.common.errors import NotAllowed, ServiceError, ValidationFailed
from tests.support.factories import make_company, make_freelancer

CURRENT = "Atual1234"
NEW = "NovaSenha456"
ADDRESS = "198.51.100.23"
THROTTLED = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
FREELANCER_SWITCHES = [
    "email_notifications",
    "push_notifications",
    "marketing_emails",
    "new_job_alerts",
    "application_updates",
]
COMPANY_SWITCHES = ["email_notifications", "push_notifications", "marketing_emails", "application_updates"]
ALL_ON = dict.fromkeys(FREELANCER_SWITCHES, "on")


def prefs_of(db, user) -> UserPreferences:
    db.expire_all()
    return db.get(UserPreferences, user.id)


def switches_of(db, user) -> dict[str, bool]:
    prefs = prefs_of(db, user)
    return {name: getattr(prefs, name) for name in FREELANCER_SWITCHES}


def user_without_preferences(db, role=Role.FREELANCER) -> User:
    user = User(email=f"semprefs-{role}@teste.com.br", password_hash="x", role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, nome="Sem Preferências"))
    db.flush()
    return user


def remove(db, user) -> None:
    user.deleted_at = utcnow()
    db.add(user)
    db.flush()


# --- theme ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark", "system"])
def test_save_theme_stores_each_valid_theme(db, theme):
    user = make_freelancer(db)

    assert profiles.save_theme(db, user.id, {"theme": theme}) == theme
    db.commit()

    assert prefs_of(db, user).theme == theme
    assert profiles.theme_of(db, user.id) == theme
    assert profiles.get_preferences(db, user.id)["theme"] == theme


@pytest.mark.parametrize("theme", ["", "Dark", "blue", "auto", None, 1, ["dark"], "dark; DROP TABLE users"])
def test_save_theme_refuses_anything_else(db, theme):
    user = make_company(db)
    profiles.save_theme(db, user.id, {"theme": "dark"})

    with pytest.raises(ValidationFailed) as error:
        profiles.save_theme(db, user.id, {"theme": theme})

    assert error.value.field_errors == {"theme": "Por favor selecione um tema."}
    assert prefs_of(db, user).theme == "dark"


@pytest.mark.parametrize("data", [{}, None, "dark", ["dark"]])
def test_save_theme_without_a_theme_is_refused(db, data):
    user = make_freelancer(db)

    with pytest.raises(ValidationFailed) as error:
        profiles.save_theme(db, user.id, data)

    assert error.value.field_errors == {"theme": "Por favor selecione um tema."}


def test_save_theme_creates_the_settings_row_when_missing(db):
    user = user_without_preferences(db)

    profiles.save_theme(db, user.id, {"theme": "light"})

    prefs = prefs_of(db, user)
    assert prefs.theme == "light"
    assert (prefs.email_notifications, prefs.marketing_emails, prefs.language) == (True, False, "pt_BR")


def test_save_theme_touches_only_the_acting_user(db):
    user, other = make_freelancer(db), make_freelancer(db)

    profiles.save_theme(db, user.id, {"theme": "dark", "user_id": other.id})

    assert prefs_of(db, other).theme == "system"


def test_save_theme_refuses_a_removed_user(db):
    user = make_freelancer(db)
    remove(db, user)

    with pytest.raises(NotAllowed):
        profiles.save_theme(db, user.id, {"theme": "dark"})
    assert prefs_of(db, user).theme == "system"


def test_theme_of_defaults_to_system(db):
    saved = make_freelancer(db)
    never_saved = user_without_preferences(db)
    odd = make_company(db)
    prefs_of(db, odd).theme = "neon"
    db.flush()

    assert profiles.theme_of(db, saved.id) == "system"
    assert profiles.theme_of(db, never_saved.id) == "system"
    assert profiles.theme_of(db, odd.id) == "system"
    assert profiles.theme_of(db, 987_654) == "system"


def test_preferences_show_the_theme_label(db):
    user = make_freelancer(db)
    profiles.save_theme(db, user.id, {"theme": "dark"})

    view = profiles.get_preferences(db, user.id)

    assert (view["theme"], view["theme_label"], view["language"]) == ("dark", "Escuro", "Português (Brasil)")


# --- notification switches ---------------------------------------------------------------------


def test_preferences_defaults_follow_the_spec(db):
    user = user_without_preferences(db)

    view = profiles.get_preferences(db, user.id)

    assert {s["name"]: s["enabled"] for s in view["switches"]} == {
        "email_notifications": True,
        "push_notifications": True,
        "marketing_emails": False,
        "new_job_alerts": True,
        "application_updates": True,
    }
    assert (view["theme"], view["theme_label"]) == ("system", "Padrão do sistema")


def test_a_freelancer_sees_every_switch_and_a_company_no_job_alerts(db):
    freelancer, company = make_freelancer(db), make_company(db)

    assert [s["name"] for s in profiles.get_preferences(db, freelancer.id)["switches"]] == FREELANCER_SWITCHES
    company_switches = profiles.get_preferences(db, company.id)["switches"]
    assert [s["name"] for s in company_switches] == COMPANY_SWITCHES
    assert "Alertas de novas vagas" not in [s["label"] for s in company_switches]


@pytest.mark.parametrize("value", ["on", "true", "TRUE", "On", "1", True])
def test_a_checked_switch_is_saved_on(db, value):
    user = make_freelancer(db)
    prefs_of(db, user).marketing_emails = False
    db.flush()

    profiles.save_notifications(db, user.id, {"marketing_emails": value})

    assert prefs_of(db, user).marketing_emails is True


@pytest.mark.parametrize("value", ["off", "false", "0", "", "no", None, False, 1, ["on"], {"on": True}])
def test_anything_else_is_saved_off(db, value):
    user = make_freelancer(db)

    profiles.save_notifications(db, user.id, {**ALL_ON, "email_notifications": value})

    assert switches_of(db, user)["email_notifications"] is False


def test_a_missing_switch_is_off(db):
    user = make_freelancer(db)

    view = profiles.save_notifications(db, user.id, {"push_notifications": "on", "new_job_alerts": "on"})

    assert switches_of(db, user) == {
        "email_notifications": False,
        "push_notifications": True,
        "marketing_emails": False,
        "new_job_alerts": True,
        "application_updates": False,
    }
    assert {s["name"]: s["enabled"] for s in view["switches"]} == switches_of(db, user)


@pytest.mark.parametrize("data", [{}, None, "on", ["email_notifications"]])
def test_an_empty_or_malformed_form_turns_everything_off(db, data):
    user = make_freelancer(db)

    profiles.save_notifications(db, user.id, data)

    assert switches_of(db, user) == dict.fromkeys(FREELANCER_SWITCHES, False)


def test_saving_all_on_turns_everything_on(db):
    user = make_freelancer(db)
    profiles.save_notifications(db, user.id, {})

    profiles.save_notifications(db, user.id, ALL_ON)
    db.commit()

    assert switches_of(db, user) == dict.fromkeys(FREELANCER_SWITCHES, True)


@pytest.mark.parametrize(("stored", "sent"), [(True, {}), (True, {"new_job_alerts": ""}), (False, ALL_ON)])
def test_a_companys_save_never_touches_new_job_alerts(db, stored, sent):
    company = make_company(db)
    prefs_of(db, company).new_job_alerts = stored
    db.flush()

    view = profiles.save_notifications(db, company.id, sent)

    assert prefs_of(db, company).new_job_alerts is stored
    assert [s["name"] for s in view["switches"]] == COMPANY_SWITCHES


def test_a_company_saves_its_own_switches(db):
    company = make_company(db)

    profiles.save_notifications(db, company.id, {"email_notifications": "on", "marketing_emails": "true"})

    assert switches_of(db, company) == {
        "email_notifications": True,
        "push_notifications": False,
        "marketing_emails": True,
        "new_job_alerts": True,
        "application_updates": False,
    }


def test_unknown_keys_are_ignored(db):
    user, other = make_freelancer(db), make_freelancer(db)
    profiles.save_theme(db, user.id, {"theme": "dark"})

    profiles.save_notifications(
        db,
        user.id,
        {
            **ALL_ON,
            "theme": "light",
            "language": "en_US",
            "user_id": other.id,
            "is_admin": "on",
            "__class__": "on",
            "role": "client",
        },
    )

    prefs = prefs_of(db, user)
    assert (prefs.theme, prefs.language) == ("dark", "pt_BR")
    assert switches_of(db, user) == dict.fromkeys(FREELANCER_SWITCHES, True)
    assert db.get(User, user.id).role == "freelancer"
    assert switches_of(db, other)["marketing_emails"] is False


def test_save_notifications_creates_the_settings_row_when_missing(db):
    user = user_without_preferences(db, Role.CLIENT)

    profiles.save_notifications(db, user.id, {"push_notifications": "on"})

    prefs = prefs_of(db, user)
    assert (prefs.push_notifications, prefs.email_notifications, prefs.new_job_alerts) == (True, False, True)


def test_save_notifications_refuses_a_removed_user(db):
    user = make_freelancer(db)
    remove(db, user)

    with pytest.raises(NotAllowed):
        profiles.save_notifications(db, user.id, {})
    assert switches_of(db, user)["email_notifications"] is True


# --- password change -----------------------------------------------------------------------------


@pytest.fixture
def account(db):
    """A confirmed freelancer whose password is CURRENT, committed (throttling writes on its own)."""
    user = make_freelancer(db)
    user.password_hash = hash_password(CURRENT)
    db.add(user)
    db.commit()
    return user


def change(db, user, data, keep=None, address=ADDRESS) -> int:
    ended = accounts.change_password(db, user.id, data, keep, address)
    db.commit()
    return ended


def refused(db, user, data, keep=None) -> dict[str, str]:
    with pytest.raises(ValidationFailed) as error:
        accounts.change_password(db, user.id, data, keep, ADDRESS)
    db.rollback()
    return error.value.field_errors


def password_hash(db, user) -> str:
    db.expire_all()
    return db.get(User, user.id).password_hash


def failures(db, email) -> list[tuple[str, str, bool]]:
    db.expire_all()
    rows = db.exec(select(LoginAttempt).where(LoginAttempt.email == email)).all()
    return [(row.email, row.address, row.succeeded) for row in rows]


def login(db, user, password):
    result = accounts.login(db, {"email": user.email, "password": password}, "192.0.2.1")
    db.commit()
    return result


def form(current=CURRENT, new=NEW, confirm=None) -> dict[str, str]:
    return {"current": current, "new": new, "confirm": new if confirm is None else confirm}


def test_a_wrong_current_password_is_a_field_error_and_a_failed_attempt(db, account):
    before = password_hash(db, account)

    assert refused(db, account, form(current="Errada999")) == {"current": "Senha atual incorreta."}

    assert password_hash(db, account) == before
    assert verify_password(CURRENT, password_hash(db, account))
    assert failures(db, account.email) == [(account.email, ADDRESS, False)]


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        (
            {"current": "curta", "new": NEW, "confirm": NEW},
            {"current": "A senha atual deve ter pelo menos 8 caracteres."},
        ),
        (
            {"current": CURRENT, "new": "Nova1", "confirm": "Nova1"},
            {
                "new": "A senha deve ter pelo menos 8 caracteres.",
                "confirm": "A confirmação deve ter pelo menos 8 caracteres.",
            },
        ),
        (
            {"current": CURRENT, "new": NEW, "confirm": "Nova"},
            {"confirm": "A confirmação deve ter pelo menos 8 caracteres."},
        ),
        (
            {},
            {
                "current": "A senha atual deve ter pelo menos 8 caracteres.",
                "new": "A senha deve ter pelo menos 8 caracteres.",
                "confirm": "A confirmação deve ter pelo menos 8 caracteres.",
            },
        ),
        ({"current": CURRENT, "new": NEW, "confirm": "NovaSenha457"}, {"confirm": "As senhas não coincidem."}),
        (
            {"current": CURRENT, "new": CURRENT, "confirm": CURRENT},
            {"new": "A nova senha deve ser diferente da atual."},
        ),
        (
            {"current": CURRENT, "new": "semmaiuscula1", "confirm": "semmaiuscula1"},
            {"new": "Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número"},
        ),
    ],
    ids=["short-current", "short-new", "short-confirm", "empty", "mismatch", "same-as-current", "weak-new"],
)
def test_spec_messages_and_nothing_changes(db, account, data, errors):
    before = password_hash(db, account)

    assert refused(db, account, data) == errors

    assert password_hash(db, account) == before
    assert failures(db, account.email) == []


def test_success_sets_the_new_password(db, account):
    change(db, account, form())

    assert verify_password(NEW, password_hash(db, account))
    result = login(db, account, NEW)
    assert result.redirect_to == "/freelancer-dashboard"
    assert sessions.resolve(db, result.token).id == account.id
    with pytest.raises(ServiceError) as error:
        login(db, account, CURRENT)
    assert error.value.message == "Email ou senha incorretos."


def test_success_ends_the_other_sessions_and_keeps_the_current_one(db, account):
    other_user = make_freelancer(db)
    db.commit()
    kept, _ = sessions.create(db, account.id, remember=False)
    phone, _ = sessions.create(db, account.id, remember=True)
    laptop, _ = sessions.create(db, account.id, remember=False)
    strangers, _ = sessions.create(db, other_user.id, remember=False)
    db.commit()

    assert change(db, account, form(), keep=kept) == 2

    assert sessions.resolve(db, kept).id == account.id
    assert sessions.resolve(db, phone) is None
    assert sessions.resolve(db, laptop) is None
    assert sessions.resolve(db, strangers).id == other_user.id
    count = db.exec(select(func.count()).select_from(AuthSession).where(AuthSession.user_id == account.id)).one()
    assert count == 1


def test_success_without_other_sessions_ends_none(db, account):
    kept, _ = sessions.create(db, account.id, remember=False)
    db.commit()

    assert change(db, account, form(), keep=kept) == 0
    assert sessions.resolve(db, kept).id == account.id


def test_revoke_others_without_a_token_to_keep_ends_every_session(db, account):
    first, _ = sessions.create(db, account.id, remember=False)
    second, _ = sessions.create(db, account.id, remember=False)
    db.commit()

    assert sessions.revoke_others(db, account.id, None) == 2
    db.commit()

    assert (sessions.resolve(db, first), sessions.resolve(db, second)) == (None, None)


def test_revoke_others_never_touches_another_users_sessions(db, account):
    other_user = make_freelancer(db)
    db.commit()
    theirs, _ = sessions.create(db, other_user.id, remember=False)
    db.commit()

    assert sessions.revoke_others(db, account.id, theirs) == 0
    db.commit()

    assert sessions.resolve(db, theirs).id == other_user.id


def test_a_removed_account_cannot_change_its_password(db, account):
    remove(db, account)
    db.commit()

    with pytest.raises(ServiceError) as error:
        accounts.change_password(db, account.id, form(), None, ADDRESS)

    assert error.value.message == "Não foi possível carregar suas informações."


def test_too_many_wrong_current_passwords_are_throttled(db, account):
    settings = get_settings()
    for attempt in range(settings.login_max_failures):
        assert refused(db, account, form(current=f"Errada{attempt:04d}")) == {"current": "Senha atual incorreta."}
    assert len(failures(db, account.email)) == settings.login_max_failures

    with pytest.raises(ServiceError) as error:
        accounts.change_password(db, account.id, form(), None, ADDRESS)
    db.rollback()

    assert error.value.message == THROTTLED
    assert verify_password(CURRENT, password_hash(db, account))
    assert len(failures(db, account.email)) == settings.login_max_failures  # the refusal is not a new guess


def test_wrong_current_passwords_count_as_failed_logins_of_the_account(db, account):
    settings = get_settings()
    for attempt in range(settings.login_max_failures):
        refused(db, account, form(current=f"Errada{attempt:04d}"))

    with pytest.raises(ServiceError) as error:
        login(db, account, CURRENT)

    assert error.value.message == THROTTLED


def test_strangers_failures_from_the_address_do_not_lock_the_signed_in_user_out_of_the_password_change(
    db, account, monkeypatch
):
    monkeypatch.setenv("LOGIN_MAX_FAILURES_PER_ADDRESS", "3")
    get_settings.cache_clear()
    assert get_settings().login_max_failures_per_address == 3
    for attempt in range(3):
        with pytest.raises(ServiceError):
            accounts.login(db, {"email": f"ninguem{attempt}@x.com", "password": "Qualquer1"}, ADDRESS)
        db.rollback()
    with pytest.raises(ServiceError) as locked:  # control: the address is locked for unknown browsers
        accounts.login(db, {"email": account.email, "password": CURRENT}, ADDRESS)
    db.rollback()

    accounts.change_password(db, account.id, form(), None, ADDRESS)
    db.commit()

    assert locked.value.message == THROTTLED
    assert verify_password(NEW, password_hash(db, account))
