"""Turno staff accounts: only `python -m scripts.create_admin` makes one; no registration form can."""

import importlib

import pytest
from sqlmodel import func, select

from core.security import verify_password
from models import AuthSession, Profile, Role, User
from scripts import create_admin as script
from services.accounts import accounts, sessions
from services.common.errors import ServiceError, ValidationFailed
from states.auth import AuthState
from tests.support.factories import make_company, make_freelancer, snapshot
from tests.support.state_harness import cookie_for, run, state_for, toasts

PASSWORD = "Equipe2026"
ADDRESS = "203.0.113.9"
REGISTRATION = {
    "name": "Alguém Esperto",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "location": "São Paulo, SP",
    "company": "Empresa X",
    "industry": "hotel",
    "profession": "Garçom",
    "skills": "Bandeja",
}
ROLE_KEYS = {"role": "admin", "tipo_usuario": "admin", "type": "admin", "tipo": "admin", "is_admin": True}


def _users(db) -> list[User]:
    db.expire_all()
    return db.exec(select(User).order_by(User.id)).all()


def test_create_admin_makes_a_confirmed_staff_account_with_a_bcrypt_hash(db):
    user, created = accounts.create_admin(db, "  Staff@Turno.com.br ", PASSWORD)
    db.commit()

    [stored] = _users(db)
    assert created and stored.id == user.id
    assert (stored.email, stored.role) == ("staff@turno.com.br", Role.ADMIN)
    assert stored.email_confirmed_at is not None and stored.is_active
    assert stored.password_hash.startswith("$2") and verify_password(PASSWORD, stored.password_hash)
    profile = db.get(Profile, stored.id)
    assert (profile.tipo_usuario, profile.nome) == (Role.ADMIN, "Equipe Turno")


def test_a_staff_member_signs_in_and_lands_on_the_back_office(db):
    accounts.create_admin(db, "staff@turno.com.br", PASSWORD)
    db.commit()

    result = accounts.login(db, {"email": "staff@turno.com.br", "password": PASSWORD}, ADDRESS)

    assert (result.role, result.redirect_to) == ("admin", "/admin")


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Curta1", "Senha deve ter pelo menos 8 caracteres"),
        ("semmaiuscula1", "Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número"),
        ("SemNumeroAqui", "Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número"),
        ("", "Senha deve ter pelo menos 8 caracteres"),
    ],
)
def test_a_weak_password_is_refused_and_nothing_is_written(db, password, message):
    with pytest.raises(ValidationFailed) as caught:
        accounts.create_admin(db, "staff@turno.com.br", password)

    assert caught.value.field_errors == {"password": message}
    assert _users(db) == []


def test_a_bad_email_is_refused(db):
    with pytest.raises(ValidationFailed) as caught:
        accounts.create_admin(db, "não-é-email", PASSWORD)

    assert caught.value.field_errors == {"email": "Email inválido"}
    assert _users(db) == []


@pytest.mark.parametrize("make", [make_company, make_freelancer])
def test_the_email_of_a_company_or_freelancer_is_refused_and_the_account_unchanged(db, make):
    person = make(db)
    db.commit()
    before = snapshot(db, User, Profile)

    with pytest.raises(ServiceError) as caught:
        accounts.create_admin(db, person.email.upper(), PASSWORD)
    db.rollback()

    assert caught.value.message == accounts.EMAIL_OF_NON_STAFF
    assert snapshot(db, User, Profile) == before


def test_running_it_again_for_a_staff_email_sets_a_new_password_and_ends_its_sessions(db):
    user, _ = accounts.create_admin(db, "staff@turno.com.br", PASSWORD)
    sessions.create(db, user.id, remember=False)
    db.commit()

    again, created = accounts.create_admin(db, "staff@turno.com.br", "OutraSenha99")
    db.commit()

    [stored] = _users(db)
    assert not created and again.id == stored.id == user.id
    assert verify_password("OutraSenha99", stored.password_hash) and not verify_password(PASSWORD, stored.password_hash)
    assert db.exec(select(func.count()).select_from(AuthSession)).one() == 0


@pytest.mark.parametrize("register", [accounts.register_company, accounts.register_freelancer])
def test_registration_cannot_create_a_staff_account(db, register):
    expected = Role.CLIENT if register is accounts.register_company else Role.FREELANCER

    user = register(db, {**REGISTRATION, **ROLE_KEYS, "email": "esperto@teste.com.br"})
    db.commit()

    [stored] = _users(db)
    assert stored.id == user.id and stored.role == expected
    assert db.get(Profile, stored.id).tipo_usuario == expected
    assert db.exec(select(User).where(User.role == Role.ADMIN)).all() == []


def test_the_script_reads_the_password_from_the_environment(db, monkeypatch, capsys):
    monkeypatch.setenv(script.PASSWORD_ENV, PASSWORD)

    assert script.main(["staff@turno.com.br"]) == 0

    [stored] = _users(db)
    assert stored.role == Role.ADMIN and verify_password(PASSWORD, stored.password_hash)
    assert "criada: staff@turno.com.br" in capsys.readouterr().out


def test_the_script_asks_twice_without_echo_and_reports_a_weak_password(db, monkeypatch, capsys):
    monkeypatch.delenv(script.PASSWORD_ENV, raising=False)
    typed = iter(["fraca", "fraca"])
    monkeypatch.setattr(script.getpass, "getpass", lambda prompt="": next(typed))

    assert script.main(["staff@turno.com.br"]) == 1

    assert "Senha deve ter pelo menos 8 caracteres" in capsys.readouterr().err
    assert _users(db) == []


def test_the_script_refuses_two_different_typed_passwords(db, monkeypatch):
    monkeypatch.delenv(script.PASSWORD_ENV, raising=False)
    typed = iter([PASSWORD, "Diferente123"])
    monkeypatch.setattr(script.getpass, "getpass", lambda prompt="": next(typed))

    with pytest.raises(SystemExit, match="As senhas não coincidem"):
        script.main(["staff@turno.com.br"])
    assert _users(db) == []


def test_the_script_refuses_a_company_email(db, monkeypatch, capsys):
    company = make_company(db)
    db.commit()
    monkeypatch.setenv(script.PASSWORD_ENV, PASSWORD)

    assert script.main([company.email]) == 1

    assert accounts.EMAIL_OF_NON_STAFF in capsys.readouterr().err
    assert [u.role for u in _users(db)] == [Role.CLIENT]


@pytest.mark.parametrize(
    ("state_path", "guard_name", "path"),
    [
        ("app.pages.client_dashboard.ClientDashboardState", "guard_client", "/client-dashboard"),
        ("app.pages.freelancer_dashboard.state.FreelancerDashboardState", "guard_freelancer", "/freelancer-dashboard"),
    ],
)
def test_the_dashboards_refuse_staff_like_the_other_role(db, state_path, guard_name, path):
    module, name = state_path.rsplit(".", 1)
    state_cls = getattr(importlib.import_module(module), name)
    staff, _ = accounts.create_admin(db, "staff@turno.com.br", PASSWORD)
    db.commit()
    cookie = cookie_for(db, staff)

    guard_events = run(state_for(AuthState, cookie, path), getattr(AuthState, guard_name))
    state = state_for(state_cls, cookie, path, {"tab": "messages"})
    run(state, state_cls.load)

    area = "empresas" if "client" in path else "freelancers"
    assert toasts(guard_events) == [f"error: Acesso Restrito | Esta área é exclusiva para {area}."]
    assert any("/admin" in str(event) for event in guard_events)
    assert (state.loaded_tab, state.chats_total) == ("", 0)
