"""Profile, photo, settings and push handlers called as a browser would (real session cookies).

The photo handler stores files in a temporary upload folder (`rx.get_upload_dir` is pointed at it).
Live delivery (states/live.py) is driven with a stand-in for the Reflex app that records the
pop-ups it would emit, as in test_chat_state.py.
"""

import asyncio
import contextlib
import time
from datetime import timedelta
from io import BytesIO

import pytest
import reflex as rx
from PIL import Image
from sqlmodel import select

import core.db
from core import signals
from core.db import session_scope
from core.presence import get_presence
from core.routes import NoticeTarget
from core.security import hash_password, verify_password
from core.signals import Ping
from core.types import utcnow
from models import AuthSession, LoginAttempt, Notification, NotificationType, Profile, User, UserPreferences
from services.accounts import photos, profiles, sessions
from services.jobs import job_alerts
from services.reach import notifications
from states import live
from states.dashboard import DashboardState, apply_theme_script
from states.profile import ProfileEditState
from states.settings import SettingsState
from tests.support.factories import make_company, make_freelancer, make_notification
from tests.support.sql_log import sent_statements
from tests.support.state_harness import cookie_for, run, state_for, toasts

NOT_SIGNED_IN = "error: Não autenticado | Você precisa estar logado para atualizar seu perfil."
SETTINGS_NOT_SIGNED_IN = "error: Não autenticado | Você precisa estar logado para alterar suas configurações."
SAVED = "success: Perfil atualizado com sucesso!"
PHOTO_SAVED = "success: Foto atualizada com sucesso!"
WRONG_TYPE = "error: Tipo de arquivo inválido | Por favor, selecione apenas arquivos JPEG, PNG ou WebP."
TOO_LARGE = "error: Arquivo muito grande | O arquivo deve ter no máximo 5MB."
CURRENT, NEW = "Atual1234", "NovaSenha456"

COMPANY_FORM = {
    "empresa": "Pousada Mar Azul",
    "biografia": "Pousada pé na areia em Ubatuba.",
    "endereco": "Av. Beira Mar, 500",
    "telefone": "(12) 3456-7890",
    "website": "https://pousadamarazul.com.br",
    "instagram": "@marazul",
    "facebook": "",
    "linkedin": "",
}
FREELANCER_FORM = {
    "nome": "João Pedro Silva",
    "telefone": "(11) 98765-4321",
    "endereco": "Rua Augusta, 100",
    "localizacao": "São Paulo, SP",
    "profissao": "Bartender",
    "habilidades": "Drinks, Inglês, Drinks, ",
    "biografia": "Bartender com 8 anos de experiência.",
    "experiencia": "Hotel Atlântico (2018-2024).",
    "website": "https://joao.com.br",
}


@pytest.fixture
def people(db):
    company = make_company(db, nome="Mariana Costa", empresa="Hotel Atlântico", foto_url="/assets/hotel.png")
    freelancer = make_freelancer(db, nome="João Silva", profissao="Garçom", localizacao="São Paulo")
    for user in (company, freelancer):
        user.password_hash = hash_password(CURRENT)
        db.add(user)
    db.commit()
    return company, freelancer


@pytest.fixture
def uploads(tmp_path, monkeypatch):
    folder = tmp_path / "uploaded_files"
    folder.mkdir()
    monkeypatch.setattr(rx, "get_upload_dir", lambda: folder)
    return folder


@pytest.fixture(autouse=True)
def memory_presence():
    get_presence.cache_clear()
    yield
    get_presence.cache_clear()


class FakeUpload:
    """What the photo handler uses of rx.UploadFile: an async read(size)."""

    def __init__(self, data: bytes, filename: str = "foto.png") -> None:
        self._data = data
        self.filename = filename
        self.sizes: list[int] = []

    async def read(self, size: int = -1) -> bytes:
        self.sizes.append(size)
        return self._data if size is None or size < 0 else self._data[:size]


def image_bytes(fmt: str = "PNG", size=(800, 600), color=(10, 120, 200)) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, color).save(out, fmt)
    return out.getvalue()


def chrome_of(state) -> DashboardState:
    return state._get_root_state().get_substate(DashboardState.get_full_name().split(".")[1:])


def stored_files(folder) -> list[str]:
    photos_dir = folder / "profile-photos"
    return sorted(p.name for p in photos_dir.iterdir()) if photos_dir.exists() else []


def profile_of(user) -> Profile:
    with session_scope() as fresh:
        return fresh.get(Profile, user.id)


def profile_tuple(user) -> tuple:
    p = profile_of(user)
    return (p.nome, p.empresa, p.biografia, p.endereco, p.telefone, p.website, p.profissao, p.habilidades, p.foto_url)


def prefs_of(user) -> UserPreferences:
    with session_scope() as fresh:
        return fresh.get(UserPreferences, user.id)


def password_hash_of(user) -> str:
    with session_scope() as fresh:
        return fresh.get(User, user.id).password_hash


# --- ProfileEditState: saving the forms ----------------------------------------------------------


def test_a_company_saves_its_profile_and_the_dashboard_shows_it(db, people):
    company, _ = people
    state = state_for(ProfileEditState, cookie_for(db, company), "/client-dashboard")

    events = run(state, ProfileEditState.save_company, COMPANY_FORM)

    assert toasts(events) == [SAVED]
    stored = profile_of(company)
    assert (stored.empresa, stored.biografia, stored.telefone) == (
        "Pousada Mar Azul",
        "Pousada pé na areia em Ubatuba.",
        "(12) 3456-7890",
    )
    assert stored.redes_sociais == {"instagram": "@marazul", "facebook": "", "linkedin": ""}
    me = chrome_of(state).me
    assert (me["empresa"], me["endereco"], me["instagram"], me["email"]) == (
        "Pousada Mar Azul",
        "Av. Beira Mar, 500",
        "@marazul",
        company.email,
    )
    assert state.saving is False
    assert set(state.errors.values()) == {""}


def test_a_freelancer_saves_its_profile_and_the_dashboard_shows_it(db, people):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")

    events = run(state, ProfileEditState.save_freelancer, FREELANCER_FORM)

    assert toasts(events) == [SAVED]
    stored = profile_of(freelancer)
    assert (stored.nome, stored.profissao, stored.habilidades) == (
        "João Pedro Silva",
        "Bartender",
        ["Drinks", "Inglês"],
    )
    assert stored.experiencia_descricao == "Hotel Atlântico (2018-2024)."
    me = chrome_of(state).me
    assert (me["nome"], me["initials"], me["habilidades"]) == ("João Pedro Silva", "JS", ["Drinks", "Inglês"])


@pytest.mark.parametrize(
    ("handler", "form", "who"),
    [
        pytest.param(ProfileEditState.save_company, COMPANY_FORM, "visitor", id="company-form-visitor"),
        pytest.param(ProfileEditState.save_company, COMPANY_FORM, "bogus-cookie", id="company-form-bogus-cookie"),
        pytest.param(ProfileEditState.save_company, COMPANY_FORM, "freelancer", id="company-form-freelancer"),
        pytest.param(ProfileEditState.save_freelancer, FREELANCER_FORM, "visitor", id="freelancer-form-visitor"),
        pytest.param(
            ProfileEditState.save_freelancer, FREELANCER_FORM, "bogus-cookie", id="freelancer-form-bogus-cookie"
        ),
        pytest.param(ProfileEditState.save_freelancer, FREELANCER_FORM, "company", id="freelancer-form-company"),
    ],
)
def test_a_visitor_or_the_other_role_is_refused_and_nothing_changes(db, people, handler, form, who):
    company, freelancer = people
    cookie = {
        "visitor": "",
        "bogus-cookie": "turno_session=nao-existe-este-token",
        "company": cookie_for(db, company),
        "freelancer": cookie_for(db, freelancer),
    }[who]
    before = (profile_tuple(company), profile_tuple(freelancer))
    state = state_for(ProfileEditState, cookie, "/client-dashboard")

    events = run(state, handler, form)

    assert toasts(events) == [NOT_SIGNED_IN]
    assert (profile_tuple(company), profile_tuple(freelancer)) == before
    assert chrome_of(state).me["nome"] == ""
    assert state.saving is False


def test_a_removed_accounts_cookie_is_refused(db, people):
    company, _ = people
    cookie = cookie_for(db, company)
    company.deleted_at = utcnow()
    db.add(company)
    db.commit()
    state = state_for(ProfileEditState, cookie, "/client-dashboard")

    assert toasts(run(state, ProfileEditState.save_company, COMPANY_FORM)) == [NOT_SIGNED_IN]
    assert profile_of(company).empresa == "Hotel Atlântico"


def test_company_field_errors_go_to_errors_and_nothing_is_saved(db, people):
    company, _ = people
    state = state_for(ProfileEditState, cookie_for(db, company), "/client-dashboard")
    before = profile_tuple(company)

    events = run(
        state, ProfileEditState.save_company, {**COMPANY_FORM, "empresa": "P", "telefone": "123", "website": "x"}
    )

    assert toasts(events) == []
    assert {k: v for k, v in state.errors.items() if v} == {
        "empresa": "Nome da empresa deve ter pelo menos 2 caracteres",
        "telefone": "Telefone inválido",
        "website": "URL inválida",
    }
    assert profile_tuple(company) == before
    assert state.saving is False


def test_freelancer_field_errors_go_to_errors_and_clear_after_a_good_save(db, people):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")

    run(state, ProfileEditState.save_freelancer, {**FREELANCER_FORM, "nome": "J", "website": "joao"})
    assert {k: v for k, v in state.errors.items() if v} == {
        "nome": "Nome deve ter pelo menos 2 caracteres",
        "website": "URL inválida",
    }
    assert profile_of(freelancer).nome == "João Silva"

    assert toasts(run(state, ProfileEditState.save_freelancer, FREELANCER_FORM)) == [SAVED]
    assert set(state.errors.values()) == {""}


@pytest.mark.parametrize("payload", [None, "nome=João", ["João"], 42])
def test_a_malformed_payload_is_a_field_error(db, people, payload):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")

    assert toasts(run(state, ProfileEditState.save_freelancer, payload)) == []
    assert state.errors["nome"] == "Nome deve ter pelo menos 2 caracteres"
    assert profile_of(freelancer).nome == "João Silva"


def test_a_second_submit_while_saving_is_ignored(db, people):
    company, _ = people
    state = state_for(ProfileEditState, cookie_for(db, company), "/client-dashboard")
    state.saving = True

    assert run(state, ProfileEditState.save_company, COMPANY_FORM) == []
    assert profile_of(company).empresa == "Hotel Atlântico"


# --- ProfileEditState: the photo ---------------------------------------------------------------------


def test_upload_stores_a_webp_shows_it_and_removes_the_replaced_file(db, people, uploads):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")

    first = FakeUpload(image_bytes("PNG"))
    assert toasts(run(state, ProfileEditState.upload_photo, [first])) == [PHOTO_SAVED]
    first_url = profile_of(freelancer).foto_url
    assert first_url.startswith("/_upload/profile-photos/") and first_url.endswith(".webp")
    assert stored_files(uploads) == [first_url.rsplit("/", 1)[1]]
    assert chrome_of(state).me["foto_url"] == first_url
    assert first.sizes == [photos.MAX_BYTES + 1]

    assert toasts(run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("JPEG"), "eu.jpg")])) == [
        PHOTO_SAVED
    ]
    second_url = profile_of(freelancer).foto_url
    assert second_url != first_url
    assert stored_files(uploads) == [second_url.rsplit("/", 1)[1]]
    assert chrome_of(state).me["foto_url"] == second_url
    stored = Image.open(uploads / "profile-photos" / second_url.rsplit("/", 1)[1])
    assert stored.format == "WEBP"
    assert max(stored.size) <= 512
    assert state.photo_busy is False


def test_a_company_replaces_a_seed_photo_without_touching_other_files(db, people, uploads):
    company, _ = people
    outside = uploads / "keep.png"
    outside.write_bytes(b"not ours")
    state = state_for(ProfileEditState, cookie_for(db, company), "/client-dashboard")

    assert toasts(run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("WEBP"))])) == [PHOTO_SAVED]

    assert profile_of(company).foto_url.startswith("/_upload/profile-photos/")
    assert outside.read_bytes() == b"not ours"


@pytest.mark.parametrize(
    ("data", "toast"),
    [
        (image_bytes("GIF"), WRONG_TYPE),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", WRONG_TYPE),
        (b"texto qualquer renomeado para .png", WRONG_TYPE),
        (b"\x89PNG" + b"\x00" * (6 * 1024 * 1024), TOO_LARGE),
        (b"", "error: Erro ao atualizar foto | Selecione uma imagem."),
        (image_bytes("PNG")[:200], None),
    ],
    ids=["gif", "svg", "text", "over-5mb", "empty", "truncated"],
)
def test_a_rejected_upload_leaves_the_profile_and_the_folder_unchanged(db, people, uploads, data, toast):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")
    run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("PNG"))])
    url, files = profile_of(freelancer).foto_url, stored_files(uploads)
    upload = FakeUpload(data)

    events = run(state, ProfileEditState.upload_photo, [upload])

    shown = toasts(events)
    assert len(shown) == 1 and shown[0].startswith("error: ")
    if toast is not None:
        assert shown == [toast]
    assert profile_of(freelancer).foto_url == url
    assert stored_files(uploads) == files
    assert chrome_of(state).me["foto_url"] == url
    assert upload.sizes == [photos.MAX_BYTES + 1]  # an oversized file is never read whole
    assert state.photo_busy is False


@pytest.mark.parametrize("cookie", ["", "turno_session=forjado"])
def test_a_visitor_cannot_upload(db, people, uploads, cookie):
    state = state_for(ProfileEditState, cookie, "/freelancer-dashboard")
    upload = FakeUpload(image_bytes("PNG"))

    assert toasts(run(state, ProfileEditState.upload_photo, [upload])) == [NOT_SIGNED_IN]
    assert upload.sizes == []
    assert stored_files(uploads) == []


def test_an_upload_without_a_file_is_refused(db, people, uploads):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")

    assert toasts(run(state, ProfileEditState.upload_photo, [])) == [
        "error: Erro ao atualizar foto | Selecione uma imagem."
    ]
    assert stored_files(uploads) == []


def test_a_failed_save_removes_the_new_file_and_keeps_the_old_photo(db, people, uploads, monkeypatch):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")
    run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("PNG"))])
    url, files = profile_of(freelancer).foto_url, stored_files(uploads)

    def broken(*_args, **_kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(profiles, "get_own_profile", broken)
    events = run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("JPEG"))])

    assert toasts(events) == ["error: Erro ao atualizar foto | Não foi possível salvar a foto. Tente novamente."]
    assert profile_of(freelancer).foto_url == url  # the transaction was rolled back
    assert stored_files(uploads) == files  # the new file is gone, the old one kept


def test_a_second_upload_while_busy_is_ignored(db, people, uploads):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")
    state.photo_busy = True

    assert run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("PNG"))]) == []
    assert stored_files(uploads) == []


def test_remove_photo_clears_the_profile_and_deletes_the_file(db, people, uploads):
    _, freelancer = people
    state = state_for(ProfileEditState, cookie_for(db, freelancer), "/freelancer-dashboard")
    run(state, ProfileEditState.upload_photo, [FakeUpload(image_bytes("PNG"))])

    events = run(state, ProfileEditState.remove_photo)

    assert toasts(events) == ["success: Foto removida"]
    assert profile_of(freelancer).foto_url == ""
    assert stored_files(uploads) == []
    assert chrome_of(state).me["foto_url"] == ""


def test_a_visitor_cannot_remove_a_photo(db, people, uploads):
    company, _ = people
    state = state_for(ProfileEditState, "", "/client-dashboard")

    assert run(state, ProfileEditState.remove_photo) == []
    assert profile_of(company).foto_url == "/assets/hotel.png"


@pytest.mark.parametrize(
    ("rejections", "toast"),
    [
        ([{"file": "big.jpg", "errors": [{"code": "file-too-large", "message": "x"}]}], TOO_LARGE),
        ([{"file": "a.gif", "errors": [{"code": "file-invalid-type"}]}], WRONG_TYPE),
        ([{"errors": [{"code": "file-invalid-type"}, {"code": "file-too-large"}]}], TOO_LARGE),
        ([], WRONG_TYPE),
        ("garbage", WRONG_TYPE),
        ([{"errors": "file-too-large"}, 3, None], WRONG_TYPE),
    ],
)
def test_photo_rejected_in_the_browser_shows_the_spec_toast(db, rejections, toast):
    state = state_for(ProfileEditState, "", "/client-dashboard")

    assert toasts(run(state, ProfileEditState.photo_rejected, rejections)) == [toast]


# --- SettingsState -----------------------------------------------------------------------------------


def test_load_shows_the_saved_settings(db, people):
    company, _ = people
    prefs = db.get(UserPreferences, company.id)
    prefs.theme = "dark"
    prefs.marketing_emails = True
    db.add(prefs)
    db.commit()
    state = state_for(SettingsState, cookie_for(db, company), "/client-dashboard")

    assert run(state, SettingsState.load) == []

    assert (state.loaded, state.theme, state.language, state.active_sessions) == (True, "dark", "Português (Brasil)", 1)
    assert {s["name"]: s["enabled"] for s in state.switches} == {
        "email_notifications": True,
        "push_notifications": True,
        "marketing_emails": True,
        "application_updates": True,
    }


def test_load_for_a_visitor_loads_nothing(db, people):
    state = state_for(SettingsState, "", "/freelancer-dashboard")

    assert run(state, SettingsState.load) == []
    assert (state.loaded, state.switches) == (False, [])


def test_save_theme_persists_and_refuses_anything_else(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")

    assert toasts(run(state, SettingsState.save_theme, "dark")) == ["success: Aparência atualizada!"]
    assert (state.theme, prefs_of(freelancer).theme) == ("dark", "dark")

    assert toasts(run(state, SettingsState.save_theme, "neon")) == [
        "error: Erro ao salvar configurações | Por favor selecione um tema."
    ]
    assert (state.theme, prefs_of(freelancer).theme) == ("dark", "dark")


def test_a_visitor_cannot_save_a_theme(db, people):
    state = state_for(SettingsState, "", "/freelancer-dashboard")

    assert toasts(run(state, SettingsState.save_theme, "dark")) == [SETTINGS_NOT_SIGNED_IN]


def test_save_notifications_persists_the_switches(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")

    events = run(state, SettingsState.save_notifications, {"push_notifications": "on", "new_job_alerts": "true"})

    assert toasts(events) == ["success: Preferências de notificação salvas!"]
    prefs = prefs_of(freelancer)
    assert (prefs.email_notifications, prefs.push_notifications, prefs.new_job_alerts) == (False, True, True)
    assert (prefs.marketing_emails, prefs.application_updates) == (False, False)
    assert {s["name"]: s["enabled"] for s in state.switches} == {
        "email_notifications": False,
        "push_notifications": True,
        "marketing_emails": False,
        "new_job_alerts": True,
        "application_updates": False,
    }
    assert state.saving_notifications is False


def test_a_companys_notifications_save_keeps_its_job_alert_setting(db, people):
    company, _ = people
    state = state_for(SettingsState, cookie_for(db, company), "/client-dashboard")

    run(state, SettingsState.save_notifications, {"new_job_alerts": ""})

    assert prefs_of(company).new_job_alerts is True
    assert "new_job_alerts" not in [s["name"] for s in state.switches]


@pytest.mark.parametrize("cookie", ["", "turno_session=forjado"])
def test_a_visitor_cannot_save_notifications(db, people, cookie):
    company, freelancer = people
    state = state_for(SettingsState, cookie, "/client-dashboard")

    assert toasts(run(state, SettingsState.save_notifications, {})) == [SETTINGS_NOT_SIGNED_IN]
    assert prefs_of(company).email_notifications is True
    assert prefs_of(freelancer).email_notifications is True


def _password_form(current=CURRENT, new=NEW, confirm=None) -> dict:
    return {"current": current, "new": new, "confirm": new if confirm is None else confirm}


def test_change_password_keeps_this_session_and_ends_the_others(db, people):
    company, _ = people
    other_browser, _ = sessions.create(db, company.id, remember=True)
    db.commit()
    cookie = cookie_for(db, company)
    state = state_for(SettingsState, cookie, "/client-dashboard")
    form_key = state.password_form_key

    events = run(state, SettingsState.change_password, _password_form())

    assert toasts(events) == ["success: Senha alterada! | A outra sessão aberta foi encerrada."]
    assert verify_password(NEW, password_hash_of(company))
    with session_scope() as fresh:
        assert sessions.resolve(fresh, cookie.split("=", 1)[1]).id == company.id
        assert sessions.resolve(fresh, other_browser) is None
        assert len(fresh.exec(select(AuthSession).where(AuthSession.user_id == company.id)).all()) == 1
    assert (state.active_sessions, state.password_form_key, state.changing_password) == (1, form_key + 1, False)
    assert set(state.password_errors.values()) == {""}


def test_change_password_wrong_current_is_a_field_error(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")
    before = password_hash_of(freelancer)

    events = run(state, SettingsState.change_password, _password_form(current="Errada999"))

    assert toasts(events) == []
    assert state.password_errors == {"current": "Senha atual incorreta.", "new": "", "confirm": ""}
    assert password_hash_of(freelancer) == before
    with session_scope() as fresh:
        attempts = fresh.exec(select(LoginAttempt).where(LoginAttempt.email == freelancer.email)).all()
    assert [(a.succeeded, a.address) for a in attempts] == [(False, "unknown")]
    assert state.changing_password is False


def test_change_password_mismatch_is_shown_on_confirm(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")

    run(state, SettingsState.change_password, _password_form(confirm="NovaSenha999"))

    assert state.password_errors == {"current": "", "new": "", "confirm": "As senhas não coincidem."}
    assert verify_password(CURRENT, password_hash_of(freelancer))


def test_change_password_is_throttled_after_too_many_failures(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")
    for attempt in range(5):
        run(state, SettingsState.change_password, _password_form(current=f"Errada{attempt:04d}"))

    events = run(state, SettingsState.change_password, _password_form())

    assert toasts(events) == [
        "error: Erro ao alterar senha | Muitas tentativas de login. Aguarde 15 minutos e tente novamente."
    ]
    assert verify_password(CURRENT, password_hash_of(freelancer))


@pytest.mark.parametrize("who", ["visitor", "bogus-cookie", "ended-session", "removed-account"])
def test_change_password_of_a_stranger_is_refused(db, people, who):
    company, _ = people
    forged = {"visitor": "", "bogus-cookie": "turno_session=forjado"}
    cookie = forged[who] if who in forged else cookie_for(db, company)
    if who == "ended-session":
        with session_scope() as fresh:
            sessions.revoke_all(fresh, company.id)
    if who == "removed-account":
        company.deleted_at = utcnow()
        db.add(company)
        db.commit()
    before = password_hash_of(company)
    state = state_for(SettingsState, cookie, "/client-dashboard")

    events = run(state, SettingsState.change_password, _password_form())

    assert toasts(events) == [SETTINGS_NOT_SIGNED_IN]
    assert password_hash_of(company) == before
    assert state.changing_password is False


def test_a_second_password_submit_while_changing_is_ignored(db, people):
    _, freelancer = people
    state = state_for(SettingsState, cookie_for(db, freelancer), "/freelancer-dashboard")
    state.changing_password = True

    assert run(state, SettingsState.change_password, _password_form()) == []
    assert verify_password(CURRENT, password_hash_of(freelancer))


# --- DashboardState: theme and push ------------------------------------------------------------------


def test_load_chrome_applies_the_saved_theme(db, people):
    _, freelancer = people
    prefs = db.get(UserPreferences, freelancer.id)
    prefs.theme = "dark"
    db.add(prefs)
    db.commit()
    state = state_for(DashboardState, cookie_for(db, freelancer), "/freelancer-dashboard")

    events = run(state, DashboardState.load_chrome)

    assert any(apply_theme_script("dark") in str(event) for event in events)


@pytest.mark.parametrize(
    ("theme", "applied"),
    [("light", "light"), ("dark", "dark"), ("system", "system"), ("neon", "system"), ("'; alert(1); '", "system")],
)
def test_apply_theme_script_only_ever_applies_a_known_theme(theme, applied):
    script = apply_theme_script(theme)

    assert script.startswith(f"window.__turnoTheme = '{applied}';")
    assert "alert" not in script


class RecordingApp:
    """What states.live uses of rx.App, recording the pop-ups it emits per tab."""

    def __init__(self) -> None:
        self.roots: dict[str, object] = {}
        self.emitted: list[tuple[str, str]] = []
        app = self

        class Tokens:
            async def is_token_connected(self, token: str) -> bool:
                return token in app.roots

        class Namespace:
            _token_manager = Tokens()

            async def emit_update(self, update, token: str) -> None:
                for sent in update.events:
                    script = sent.payload.get("function", "")
                    app.emitted.append((token, script.encode("ascii").decode("unicode_escape")))

        self.event_namespace = Namespace()

    @contextlib.asynccontextmanager
    async def modify_state(self, token):
        yield self.roots[token.ident]


@pytest.fixture
def live_app():
    app = RecordingApp()
    live._runtime["app"] = app
    yield app
    live._runtime.clear()


def open_dashboard(db, app, user, token) -> DashboardState:
    state = state_for(DashboardState, cookie_for(db, user), "/freelancer-dashboard", token=token)
    run(state, DashboardState.load_chrome)
    app.roots[token] = state._get_root_state()
    return state


def set_prefs(user, **values) -> None:
    with session_scope() as fresh:
        prefs = fresh.get(UserPreferences, user.id)
        for name, value in values.items():
            setattr(prefs, name, value)
        fresh.add(prefs)


def notify(user, kind, message, target=NoticeTarget.FREELANCER_HOME):
    with session_scope() as fresh:
        notifications.notify(fresh, user.id, kind, message, target)


def refresh(state) -> str:
    """What a live delivery does for a notification: recount, then take the pop-up."""
    with session_scope() as fresh:
        state._refresh_counts(fresh, state._live_user_id, notices=True)
    return state._take_push()


def test_a_first_load_never_pops_up_old_notifications(db, people, live_app):
    _, freelancer = people
    make_notification(db, freelancer, "Antiga", kind="application_accepted")
    db.commit()

    state = open_dashboard(db, live_app, freelancer, "tab-1")

    assert state.unread == 1
    assert state._take_push() == ""


@pytest.mark.parametrize(
    ("switches", "kind", "pops"),
    [
        ({}, NotificationType.APPLICATION_ACCEPTED, True),
        ({"push_notifications": False}, NotificationType.APPLICATION_ACCEPTED, False),
        ({"application_updates": False}, NotificationType.APPLICATION_ACCEPTED, False),
        ({"application_updates": False}, NotificationType.JOB_CLOSED, False),
        ({"email_notifications": False}, NotificationType.APPLICATION_REJECTED, True),
        ({"new_job_alerts": False}, NotificationType.JOB_ALERT, False),
        ({"application_updates": False}, NotificationType.JOB_ALERT, True),
        ({"application_updates": False, "new_job_alerts": False}, NotificationType.MESSAGE, True),
        ({"push_notifications": False}, NotificationType.MESSAGE, False),
    ],
)
def test_a_new_notification_pops_up_only_when_the_switches_allow(db, people, live_app, switches, kind, pops):
    _, freelancer = people
    state = open_dashboard(db, live_app, freelancer, "tab-1")
    set_prefs(freelancer, **switches)

    notify(freelancer, kind, "Sua candidatura foi aceita!")
    push = refresh(state)

    assert push == ("Sua candidatura foi aceita!" if pops else "")
    assert state.unread == 1  # the bell counts it either way
    assert state.notifications[0]["message"] == "Sua candidatura foi aceita!"
    assert state._take_push() == ""  # a pop-up is taken once


def test_a_read_or_already_shown_notification_does_not_pop_up(db, people, live_app):
    _, freelancer = people
    state = open_dashboard(db, live_app, freelancer, "tab-1")
    make_notification(db, freelancer, "Já lida", read=True, kind="other")
    db.commit()

    assert refresh(state) == ""

    notify(freelancer, NotificationType.OTHER, "Nova")
    assert refresh(state) == "Nova"
    assert refresh(state) == ""  # nothing newer than what is shown now


def test_live_delivery_emits_the_pop_up_only_when_allowed(db, people, live_app):
    company, freelancer = people
    freelancer_tab = open_dashboard(db, live_app, freelancer, "tab-f")
    company_tab = open_dashboard(db, live_app, company, "tab-c")
    set_prefs(company, push_notifications=False)

    for user in (freelancer, company):
        notify(user, NotificationType.APPLICATION_ACCEPTED, f"Aviso para {user.id}")

    refreshed = asyncio.run(live.deliver({Ping(freelancer.id), Ping(company.id)}))

    assert refreshed == 2
    assert (freelancer_tab.unread, company_tab.unread) == (1, 1)  # both bells count it
    assert [token for token, _ in live_app.emitted] == ["tab-f"]
    emitted = live_app.emitted[0][1]
    assert "__toast" in emitted
    assert (
        f'("Nova notificação", ({{ ["description"] : "Aviso para {freelancer.id}", ["id"] : "push-notice" }}))'
        in emitted
    )


def test_an_allowed_notification_pops_up_even_when_a_newer_one_may_not(db, people, live_app):
    _, freelancer = people
    state = open_dashboard(db, live_app, freelancer, "tab-1")
    set_prefs(freelancer, application_updates=False)
    with session_scope() as fresh:
        fresh.add(
            Notification(
                user_id=freelancer.id,
                type=NotificationType.MESSAGE,
                message="Nova mensagem de Mariana Costa",
                created_at=utcnow() - timedelta(seconds=5),
            )
        )
        fresh.add(
            Notification(
                user_id=freelancer.id, type=NotificationType.JOB_CLOSED, message='A vaga "Garçom" foi encerrada.'
            )
        )

    assert refresh(state) == "Nova mensagem de Mariana Costa"


# --- a new-job alert to many open dashboards ----------------------------------------------------


def alert_city(db, company, city: str, count: int, live_app) -> tuple[list[DashboardState], list[str]]:
    """`count` freelancers of `city` with a dashboard open, alerted of a new job there.

    Returns:
        Their tabs, and the statements the live delivery ran.
    """
    people = [make_freelancer(db, nome=f"Pessoa {n}", localizacao=city) for n in range(count)]
    db.commit()
    tabs = [open_dashboard(db, live_app, person, f"tab-{person.id}") for person in people]
    with session_scope() as fresh:
        job_alerts.alert_new_job(fresh, 77, "Garçom para casamento", city, company.id)
        pings = signals.pending(fresh)
    assert len(pings) == count
    with sent_statements(core.db.get_engine()) as seen:
        refreshed = asyncio.run(live.deliver(pings))
    assert refreshed == count
    return tabs, seen


def test_a_job_alert_reaches_every_open_dashboard_from_one_read_of_the_bells(db, people, live_app):
    company, _ = people
    few, few_statements = alert_city(db, company, "Recife", 2, live_app)
    many, many_statements = alert_city(db, company, "Olinda", 6, live_app)

    for tab in few + many:
        assert (tab.unread, tab.notifications_total, tab.unread_badge) == (1, 1, "1")
        assert tab.notifications[0]["message"] == 'Nova vaga na sua cidade: "Garçom para casamento".'
        assert tab.notifications[0]["link"] == "/jobs/77"
    assert sorted(token for token, _ in live_app.emitted) == sorted(f"tab-{tab._live_user_id}" for tab in few + many)
    if db.get_bind().dialect.name == "postgresql":  # SQLite reads each user's newest page with its own statement
        assert len(few_statements) == len(many_statements) == 4  # none per tab: the bells and the session version


def test_a_bell_read_before_the_tab_last_read_it_is_not_shown_and_the_tab_reads_again(db, people, live_app):
    _, freelancer = people
    make_notification(db, freelancer, "Primeira", kind="other")
    db.commit()
    state = open_dashboard(db, live_app, freelancer, "tab-1")
    read_at = time.time_ns()
    with session_scope() as fresh:
        stale = notifications.bells(fresh, [freelancer.id])[freelancer.id]  # still counts it unread
    run(state, DashboardState.mark_notification_read, state.notifications[0]["id"])
    assert state.unread == 0

    assert state._show_prefetched_bell(stale, read_at) is False
    assert asyncio.run(live._refresh_tab(live_app, "tab-1", freelancer.id, {signals.BELL_ONLY}, (stale, read_at)))

    assert state.unread == 0  # the read made after the stale one stands
    assert state.notifications[0]["read"] is True
    assert state._show_prefetched_bell(stale, time.time_ns()) is True  # a later read is shown
