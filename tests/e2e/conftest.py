"""Browser tests: the real app served by `reflex run --env prod` on a free port, driven by Chromium.

The server gets its own SQLite file, migrated and seeded, and keeps e-mails in the dev mailbox.
Tests that need accounts create them through the same services the app uses (`accounts` fixture)
or through the UI when the UI is what they test.
"""

import os
import shutil
import signal
import socket
import subprocess
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright

from tests.support import leak_scan
from tests.support.fake_stripe import FakeStripe, stripe_env
from tests.support.fake_whatsapp import FakeWhatsApp
from tests.support.polling import wait_until

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
PASSWORD = "Senha1234"
START_TIMEOUT = 600

expect.set_options(timeout=15_000)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    def healthy() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"app exited early:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=2) as response:  # noqa: S310
                return response.status == 200
        except OSError:
            return False

    wait_until(healthy, START_TIMEOUT, 1, lambda: f"app did not start in {START_TIMEOUT}s:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def fake_stripe() -> Iterator[FakeStripe]:
    """A local stand-in for Stripe's API (tests/support/fake_stripe.py) that the app talks to."""
    with FakeStripe() as server:
        yield server


@pytest.fixture(scope="session")
def fake_whatsapp() -> Iterator[FakeWhatsApp]:
    """A local stand-in for the WhatsApp Cloud API (tests/support/fake_whatsapp.py) that the app talks to."""
    with FakeWhatsApp() as server:
        yield server


@pytest.fixture(scope="session")
def app_env(tmp_path_factory, fake_stripe: FakeStripe, fake_whatsapp: FakeWhatsApp) -> dict[str, str]:
    """Environment of the app under test (also applied to this process for direct DB access)."""
    workdir = tmp_path_factory.mktemp("app")
    port = _free_port()
    env = {
        "DATABASE_URL": f"sqlite:///{workdir / 'e2e.db'}",
        "APP_ENV": "test",
        "SITE_URL": f"http://localhost:{port}",
        "BCRYPT_ROUNDS": "4",
        "LOGIN_MAX_FAILURES_PER_ADDRESS": "100000",
        # Every browser test signs people up and asks for links from this one address.
        "REGISTRATIONS_PER_ADDRESS_HOUR": "100000",
        "RECOVERIES_PER_ADDRESS_HOUR": "100000",
        "ACCOUNT_MAILS_PER_RECIPIENT_HOUR": "100000",
        "FISCAL_SAVES_PER_ADDRESS_HOUR": "100000",  # every browser test's fiscal data come from this address
        "PORT": str(port),
        "REFLEX_UPLOADED_FILES_DIR": str(workdir / "uploads"),
        **stripe_env(fake_stripe),
        **fake_whatsapp.env(),
    }
    os.environ.update({k: v for k, v in env.items() if k != "PORT"})
    from core.db import get_engine
    from core.settings import get_settings

    get_settings.cache_clear()
    get_engine.cache_clear()
    return env


@pytest.fixture(scope="session")
def base_url(app_env, tmp_path_factory) -> Iterator[str]:
    """Migrate, seed and serve the app; yield its URL."""
    env = {**os.environ, **app_env, "REFLEX_TELEMETRY_ENABLED": "false", "PYTHONPATH": str(ROOT)}
    env.pop("REFLEX_REDIS_URL", None)
    bin_dir = ROOT / ".venv" / "bin"
    env["PATH"] = f"{ROOT / '.tools/node_modules/.bin'}:{bin_dir}:{env['PATH']}"
    subprocess.run([str(bin_dir / "alembic"), "upgrade", "head"], cwd=ROOT, env=env, check=True)
    subprocess.run([str(bin_dir / "python"), "-m", "scripts.seed"], cwd=ROOT, env=env, check=True)
    port = app_env["PORT"]
    log = tmp_path_factory.mktemp("log") / "app.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                str(bin_dir / "reflex"),
                "run",
                "--env",
                "prod",
                "--single-port",
                "--frontend-port",
                port,
                "--backend-port",
                port,
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://localhost:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def chromium_path() -> str | None:
    """Debian's Chromium when present (None: Playwright's own browser)."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole run."""
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


CSP_VIOLATION_LISTENER = """
document.addEventListener('securitypolicyviolation', (event) => window.__reportCspViolation({
  directive: event.violatedDirective, blocked: event.blockedURI, page: document.location.pathname,
  source: `${event.sourceFile}:${event.lineNumber}`, sample: event.sample,
}));
"""


@pytest.fixture(autouse=True)
def csp_violations(request, monkeypatch) -> Iterator[list[dict]]:
    """Every page a test opens reports Content-Security-Policy violations; the test fails on any.

    Each context the session browser makes (the `context` fixture, `mobile_page`, chat helpers)
    gets a listener for 'securitypolicyviolation' that calls back into Python at once, so a
    blocked script, style, image or connection is pinned to the test whose page caused it.
    """
    violations: list[dict] = []
    if "browser" not in request.fixturenames:
        yield violations
        return
    browser: Browser = request.getfixturevalue("browser")

    def new_context_reporting_violations(*args, **kwargs) -> BrowserContext:
        # The class's method, looked up now: the leak scan (leak_watch) wraps it on the class.
        ctx = type(browser).new_context(browser, *args, **kwargs)
        ctx.expose_binding("__reportCspViolation", lambda _source, violation: violations.append(violation))
        ctx.add_init_script(CSP_VIOLATION_LISTENER)
        return ctx

    monkeypatch.setattr(browser, "new_context", new_context_reporting_violations)
    yield violations
    if violations:
        pytest.fail(f"Content-Security-Policy violations: {violations}")


@pytest.fixture
def context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """A fresh browser profile (no cookies) at desktop size."""
    ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, locale="pt-BR")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A page in a fresh desktop profile."""
    return context.new_page()


@pytest.fixture
def mobile_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A page in a fresh profile 375 px wide."""
    ctx = browser.new_context(
        base_url=base_url, viewport={"width": 375, "height": 812}, locale="pt-BR", is_mobile=True, has_touch=True
    )
    yield ctx.new_page()
    ctx.close()


def goto_ready(page: Page, path: str) -> None:
    """Open `path` and wait until the app has taken over the page: hydrated, and its websocket has answered.

    Pages whose first HTML already shows their content (the job page, /register?type=…) can be
    clicked before React has attached any handler; a test that clicks at once waits for this.
    """
    with page.expect_websocket() as opened:
        page.goto(path)
    opened.value.wait_for_event("framereceived")
    # The socket can answer before React has hydrated the whole page (a button clicked then does
    # nothing): wait until every element of the page's content with an id is React's.
    page.wait_for_function(
        "() => { const main = document.querySelector('main'); if (!main) return true;"
        " const hydrated = (el) => Object.keys(el).some((key) => key.startsWith('__reactFiber'));"
        " return hydrated(main) && [...main.querySelectorAll('[id]')].every(hydrated); }"
    )


def wait_hydrated(page: Page, selector: str) -> None:
    """Wait until React has taken over the element at `selector` (it carries React's own fiber key).

    With the websocket held back a page still hydrates; what it shows after that is what a person
    keeps seeing until the page connects.
    """
    page.wait_for_function(
        "(selector) => { const el = document.querySelector(selector);"
        " return !!el && Object.keys(el).some((key) => key.startsWith('__reactFiber')); }",
        arg=selector,
    )


def unique_email(prefix: str) -> str:
    """An e-mail address no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}@teste.com.br"


@pytest.fixture
def make_account(base_url):
    """Create a confirmed account directly through the services; returns its e-mail."""
    from core.db import session_scope
    from services.accounts import accounts

    def _make(role: str = "client", confirmed: bool = True, name: str = "Pessoa Teste") -> str:
        email = unique_email(role)
        common = {
            "name": name,
            "email": email,
            "password": PASSWORD,
            "confirmPassword": PASSWORD,
            "location": "São Paulo, SP",
        }
        with session_scope() as db:
            if role == "client":
                user = accounts.register_company(db, {**common, "company": "Empresa Teste", "industry": "hotel"})
            else:
                user = accounts.register_freelancer(db, {**common, "profession": "Garçom", "skills": "Atendimento"})
            if confirmed:
                from core.types import utcnow

                user.email_confirmed_at = utcnow()
                db.add(user)
        return email

    return _make


def login(page: Page, email: str, password: str = PASSWORD) -> None:
    """Sign in through the login form and wait for the dashboard."""
    page.goto("/login")
    form = page.locator("#login-form")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Senha").fill(password)
    form.get_by_role("button", name="Entrar").click()
    page.wait_for_url("**/*-dashboard**")


def toast(page: Page, text: str) -> Locator:
    """The toast that says `text`."""
    return page.locator("[data-sonner-toast]").filter(has_text=text).first


def signed_in(browser: Browser, base_url: str, email: str, **options) -> tuple[BrowserContext, Page]:
    """A browser context of its own (1280 x 900 unless `options` say otherwise) with `email` signed in."""
    options.setdefault("viewport", {"width": 1280, "height": 900})
    context = browser.new_context(base_url=base_url, locale="pt-BR", **options)
    page = context.new_page()
    login(page, email)
    return context, page


@pytest.fixture(scope="session")
def leak_scanner(app_env, fake_stripe: FakeStripe) -> leak_scan.LeakScan:
    """The run's leak scanner (tests/support/leak_scan.py); its totals are printed at the end."""
    scanner = leak_scan.LeakScan(fake_stripe)
    leak_scan.RUNS.append(scanner)
    return scanner


@pytest.fixture(autouse=True)
def leak_watch(monkeypatch, leak_scanner: leak_scan.LeakScan, app_env) -> Iterator[leak_scan.Watch]:
    """Follow every browser profile the test opens; what arrives after the test body is scanned here."""
    watch = leak_scan.Watch(leak_scanner, app_env["SITE_URL"])
    new_context, close = Browser.new_context, BrowserContext.close

    def watched_new_context(self, *args, **kwargs):
        ctx = new_context(self, *args, **kwargs)
        watch.attach(ctx)
        return ctx

    def watched_close(self, *args, **kwargs):
        watch.before_close(self)
        return close(self, *args, **kwargs)

    monkeypatch.setattr(Browser, "new_context", watched_new_context)
    monkeypatch.setattr(BrowserContext, "close", watched_close)
    yield watch
    leaks = watch.finish()
    if leaks:
        pytest.fail("leak scan, after the test:\n" + "\n".join(leaks), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Scan what the test's browsers received when its body ends, and fail the test on a leak."""
    watch = item.funcargs.get("leak_watch")
    if watch is None:
        return (yield)
    try:
        result = yield
    except BaseException:
        leaks = watch.finish()
        if leaks:
            item.add_report_section("call", "leak scan", "\n".join(leaks))
        raise
    leaks = watch.finish()
    if leaks:
        pytest.fail("leak scan:\n" + "\n".join(leaks), pytrace=False)
    return result


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the leak scan's totals (frames, bytes, leaks) at the end of the run."""
    for scanner in leak_scan.RUNS:
        terminalreporter.write_line(scanner.summary())
