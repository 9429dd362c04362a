"""The security log (core/audit.py): logins, logouts and denials, one clean line each, no secrets.

Logins go through the real HTTP route (app/api/auth.py); denials through real state handlers
driven with a session cookie (tests/support/state_harness.py). Each test reads what an operator would
read: the lines of the `turno.security` logger.
"""

import importlib
import logging
import re

import pytest
from starlette.testclient import TestClient

from app.api import api
from app.pages.company_jobs.state import CompanyJobsState
from core import audit
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from services.common import throttle
from states.auth import AuthState
from states.profile import ProfileEditState
from tests.support.factories import make_company, make_freelancer, make_job
from tests.support.state_harness import cookie_for, run, state_for, toasts

PASSWORD = "Segura123"
WRONG = "Errada999"
EMAIL = "ana@empresa.com"
AGENT = "Mozilla/5.0 (X11; Linux x86_64) Teste/1.0"
LINE = re.compile(
    r"^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z event=\S+ who=\S+ what=.+ where=\S+ outcome=(ok|denied)"
)
CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


@pytest.fixture
def security(caplog, monkeypatch):
    """The security log lines written during the test."""
    caplog.set_level(logging.INFO, logger=audit.SECURITY_LOGGER)
    # The app gives the security log a handler of its own and stops propagation (core/audit.py);
    # caplog listens on the root logger.
    monkeypatch.setattr(logging.getLogger(audit.SECURITY_LOGGER), "propagate", True)

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == audit.SECURITY_LOGGER]

    return lines


@pytest.fixture
def client(db):
    return TestClient(api, base_url="http://turno.test")


@pytest.fixture
def company(db):
    user = make_company(db)
    user.email = EMAIL
    user.password_hash = hash_password(PASSWORD)
    user.email_confirmed_at = utcnow()
    db.add(user)
    db.commit()
    return user


def login(client, email=EMAIL, password=PASSWORD, agent=AGENT):
    header = agent.encode("utf-8")  # raw bytes: the server reads them as Latin-1, C1 controls included
    return client.post("/api/auth/login", json={"email": email, "password": password}, headers={"user-agent": header})


def fields(line: str) -> dict[str, str]:
    """The key=value fields of one line (quoted values unquoted, escapes kept)."""
    return {k: v[1:-1] if v.startswith('"') else v for k, v in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', line)}


def only_event(lines: list[str], event: str) -> dict[str, str]:
    found = [fields(line) for line in lines if f" event={event} " in line]
    assert len(found) == 1, lines
    return found[0]


def assert_well_formed(lines: list[str]) -> None:
    assert lines
    for line in lines:
        assert LINE.match(line), line
        assert not CONTROL.search(line), line


# --- logins -------------------------------------------------------------------------------------


def test_a_login_success_names_the_user_the_place_and_the_agent(client, company, security):
    response = login(client)

    assert response.status_code == 200
    event = only_event(security(), "login.success")
    assert event["who"] == f"user:{company.id}"
    assert event["what"] == "login"
    assert event["where"] == "ip:testclient"
    assert event["outcome"] == "ok"
    assert event["agent"] == AGENT
    assert_well_formed(security())


@pytest.mark.parametrize(
    ("email", "password", "reason"),
    [(EMAIL, WRONG, "wrong password"), ("ninguem@empresa.com", PASSWORD, "unknown account")],
    ids=["wrong-password", "unknown-email"],
)
def test_a_failed_login_is_logged_with_a_hashed_email_and_never_the_password(
    client, company, security, email, password, reason
):
    response = login(client, email, password)

    assert response.status_code == 400
    assert response.json()["message"] == "Email ou senha incorretos."  # the user sees one answer for both
    event = only_event(security(), "login.failure")
    assert event["who"] == audit.email_ref(email)
    assert re.fullmatch(r"email:[0-9a-f]{12}", event["who"])
    assert event["reason"] == reason
    assert event["outcome"] == "denied"
    text = "\n".join(security())
    assert email not in text
    assert email.split("@")[0] not in text
    assert password not in text
    assert_well_formed(security())


def test_the_same_account_gets_the_same_pseudonym_and_another_key_changes_it(monkeypatch):
    first = audit.email_ref(" Ana@Empresa.com ")

    assert first == audit.email_ref(EMAIL)
    assert first != audit.email_ref("bia@empresa.com")
    monkeypatch.setenv("SECURITY_LOG_KEY", "outra-chave-secreta")
    get_settings.cache_clear()
    assert audit.email_ref(EMAIL) != first


def test_a_throttled_login_is_logged_as_throttled(client, company, security, settings):
    for _ in range(settings.login_max_failures):
        login(client, password=WRONG)

    response = login(client)

    assert response.json()["message"] == throttle.THROTTLED
    failures = [fields(line) for line in security() if "event=login.failure" in line]
    assert [f["reason"] for f in failures] == ["wrong password"] * settings.login_max_failures + ["throttled"]
    assert all(f["who"] == audit.email_ref(EMAIL) for f in failures)
    assert "event=login.success" not in "\n".join(security())


def test_an_unconfirmed_account_and_a_cross_site_post_are_logged(client, company, db, security):
    company.email_confirmed_at = None
    db.add(company)
    db.commit()

    assert login(client).status_code == 400
    cross = client.post(
        "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}, headers={"origin": "https://x.example"}
    )

    assert cross.status_code == 403
    reasons = [fields(line)["reason"] for line in security() if "event=login.failure" in line]
    assert reasons == ["e-mail not confirmed", "cross-site origin"]


def test_no_line_carries_the_session_token_the_cookie_or_the_password(client, company, security):
    response = login(client)
    token = response.cookies.get(get_settings().session_cookie_name)
    assert token
    client.post("/api/auth/logout")
    login(client, password=WRONG)

    text = "\n".join(security())
    assert token not in text
    assert token[:8] not in text
    assert PASSWORD not in text and WRONG not in text
    assert EMAIL not in text
    assert "event=logout" in text


# --- log injection ----------------------------------------------------------------------------------


FORGED = "\n2030-01-01T00:00:00Z event=login.success who=user:1 outcome=ok"
ANSI = "\x1b[2J\x1b[31mroot\x1b[0m"


def test_newlines_and_ansi_escapes_in_the_email_and_agent_cannot_forge_or_repaint_lines(client, company, security):
    login(client, email=f"ana@empresa.com{FORGED}{ANSI}", password=WRONG, agent=f"curl/8{FORGED}\r{ANSI}\u2028x")
    login(client, email=EMAIL, password=WRONG, agent=f"{ANSI}{FORGED}")

    lines = security()
    assert len(lines) == 2
    assert_well_formed(lines)
    assert all("\x1b" not in line for line in lines)
    assert [fields(line)["event"] for line in lines] == ["login.failure", "login.failure"]
    assert "\\n2030-01-01" in lines[0] and "\\x1b[2J" in lines[0] and "\\x80" in lines[0]  # U+2028 as Latin-1
    assert "root" not in lines[0].split(" who=")[1].split(" ")[0]  # the e-mail is only ever its hash


def test_clean_escapes_controls_quotes_and_caps_length():
    assert audit.clean('a\nb\rc\td"e\\f\x1b[0m\x00\u2029') == 'a\\nb\\rc\\td\\"e\\\\f\\x1b[0m\\x00\\u2029'
    capped = audit.clean("x" * 5000)
    assert len(capped) == audit.MAX_FIELD + 1 and capped.endswith("…")
    assert audit.clean("Ação é ñ 😀") == "Ação é ñ 😀"  # printable text is kept as is


# --- authorization denials ------------------------------------------------------------------------


def test_a_foreign_job_id_is_logged_with_the_caller_the_handler_and_the_object(db, security):
    owner, rival = make_company(db), make_company(db, empresa="Rival")
    job = make_job(db, owner)
    db.commit()
    state = state_for(
        CompanyJobsState, cookie_for(db, rival), "/client-dashboard", {"tab": "jobs"}, token="abcdef0123456789"
    )

    shown = toasts(run(state, CompanyJobsState.archive, job.id))

    assert shown == ["error: Erro | Vaga não encontrada."]  # the answer is unchanged
    event = only_event(security(), "authz.denied")
    assert event["who"] == f"user:{rival.id}"
    assert event["what"] == f"CompanyJobsState.archive(job_id={job.id})"
    assert event["where"].endswith("/tab:abcdef01")
    assert event["reason"] == "Vaga não encontrada."
    assert "abcdef0123456789" not in security()[0]
    assert_well_formed(security())


def test_a_crafted_id_sent_by_a_visitor_is_logged_cleaned_and_capped(db, security):
    crafted = "1\nevent=login.success who=user:1 " + ANSI + "9" * 5000

    run(state_for(CompanyJobsState, "", "/client-dashboard"), CompanyJobsState.archive, crafted)

    lines = security()
    assert len(lines) == 1
    assert_well_formed(lines)
    assert "\x1b" not in lines[0]
    event = fields(lines[0])
    assert event["who"] == "anon"
    assert event["what"].startswith(r"CompanyJobsState.archive(job_id='1\\nevent=login.success")
    assert event["what"].endswith("…")
    assert len(lines[0]) < 3 * audit.MAX_FIELD + 200


@pytest.mark.parametrize("who", ["visitor", "freelancer"])
def test_a_visitor_or_the_wrong_role_calling_a_company_handler_is_logged(db, security, who):
    owner = make_company(db)
    job = make_job(db, owner)
    caller = make_freelancer(db) if who == "freelancer" else None
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, caller), "/client-dashboard", {"tab": "jobs"})

    shown = toasts(run(state, CompanyJobsState.archive, job.id))

    assert shown == ["error: Erro | Vaga não encontrada."]
    event = only_event(security(), "authz.denied")
    assert event["who"] == (f"user:{caller.id}" if caller else "anon")
    assert event["what"] == f"CompanyJobsState.archive(job_id={job.id})"


def test_a_visitor_uploading_a_photo_is_logged(db, security):
    state = state_for(ProfileEditState, "turno_session=forjado", "/freelancer-dashboard")

    run(state, ProfileEditState.upload_photo, [])

    event = only_event(security(), "authz.denied")
    assert event["who"] == "anon"
    assert event["what"] == "ProfileEditState.upload_photo()"


def test_a_page_guard_refusal_is_logged(db, security):
    freelancer = make_freelancer(db)
    db.commit()
    state = state_for(AuthState, cookie_for(db, freelancer), "/client-dashboard")

    run(state, AuthState.guard_client)

    event = only_event(security(), "authz.denied")
    assert event["who"] == f"user:{freelancer.id}"
    assert event["what"] == "AuthState.guard_client()"
    assert event["reason"] == "page for client"


def test_a_signed_in_owner_doing_their_own_work_logs_no_denial(db, security):
    owner = make_company(db)
    job = make_job(db, owner)
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, owner), "/client-dashboard", {"tab": "jobs"})

    assert toasts(run(state, CompanyJobsState.archive, job.id)) == ["success: Vaga arquivada"]
    assert security() == []


def test_a_logout_from_the_app_is_logged_once(db, security):
    freelancer = make_freelancer(db)
    db.commit()
    state = state_for(AuthState, cookie_for(db, freelancer), "/freelancer-dashboard")

    run(state, AuthState.logout)

    event = only_event(security(), "logout")
    assert event["who"] == f"user:{freelancer.id}"


def test_an_export_without_a_session_is_logged(client, security):
    response = client.get("/api/account/export", headers={"cookie": "turno_session=forjado"})

    assert response.status_code == 401
    event = only_event(security(), "authz.denied")
    assert (event["who"], event["what"]) == ("anon", "account export")
    assert "forjado" not in security()[0]


MEMBER_HANDLERS = [
    ("states.settings", "SettingsState", "change_password", [{"senha_atual": "x"}], None),
    ("states.settings", "SettingsState", "save_theme", ["dark"], None),
    ("states.privacy", "PrivacyState", "delete_account", [{"password": "x"}], None),
    ("states.dashboard", "DashboardState", "mark_notification_read", [1], None),
    ("states.billing", "BillingState", "load_subscription", [], "freelancer"),
    ("app.pages.client_dashboard", "ClientDashboardState", "load", [], "freelancer"),
    ("app.pages.client_dashboard", "ClientDashboardState", "open_rating", [1], None),
    ("app.pages.freelancer_dashboard.state", "FreelancerDashboardState", "load", [], "company"),
    ("app.pages.freelancer_dashboard.state", "FreelancerDashboardState", "withdraw_application", [1], "company"),
]


@pytest.mark.parametrize(
    ("module", "class_name", "handler", "args", "who"),
    MEMBER_HANDLERS,
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_members_only_handlers_log_a_visitor_or_the_wrong_role(db, security, module, class_name, handler, args, who):
    caller = {"freelancer": make_freelancer, "company": make_company}[who](db) if who else None
    db.commit()
    state_cls = getattr(importlib.import_module(module), class_name)
    state = state_for(state_cls, cookie_for(db, caller), "/client-dashboard")

    run(state, getattr(state_cls, handler), *args)

    event = only_event(security(), "authz.denied")
    assert event["who"] == (f"user:{caller.id}" if caller else "anon")
    assert event["what"].startswith(f"{class_name}.{handler}(")
