"""XSS: about a hundred published evasion payloads stored as user content render as text and never run.

The payloads (tests/e2e/data/xss_payloads.txt, source in its header) go straight into the app's
database as job titles, descriptions and required skills, chat messages, freelancer profile fields,
application messages and the company's biography and website; Chromium then opens every page that
shows them. Each payload's alert/prompt/confirm is rewritten into its own marker function
(window.__xss<n>) that reports back to the test, and any dialog fails the test too. On every page
the test asserts that the payloads are there as visible text, that no element carries an inline
event handler, a javascript: URL or a marker (nothing from a payload became markup), and (through
the conftest hook) that the page raised no Content-Security-Policy violation: escaping alone held,
without the CSP having to block anything.
"""

import math
import re
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from sqlmodel import func, select

from core.catalog import JOBS_PAGE_SIZE
from core.db import session_scope
from core.types import utcnow
from models import Application, Chat, Job, Message, Profile
from services.accounts import accounts
from services.common.paging import DASHBOARD_PAGE_SIZE
from services.jobs import jobs
from services.reach import chat_sending, chats
from services.shifts import application_answers
from tests.e2e.conftest import PASSWORD, login

PAYLOADS_FILE = Path(__file__).parent / "data" / "xss_payloads.txt"
DIALOG_CALLS = re.compile(r"\b(alert|prompt|confirm)\b")

VISIBLE_TEXT_HAS = """(needles) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const parts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName) && parent.checkVisibility()) {
      parts.push(node.data);
    }
  }
  const text = parts.join('\\n');
  return needles.every((needle) => text.includes(needle));
}"""

INJECTED_MARKUP = """() => {
  const foreignTags = new Set(['XSS', 'LAYER', 'BGSOUND', 'MARQUEE', 'MARGUEE', 'KEYGEN', 'FRAMESET', 'FRAME',
    'IFRAME', 'OBJECT', 'EMBED', 'XML', 'VALUE', 'AUDIO', 'VIDEO', 'SOURCE']);
  const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'data', 'background', 'dynsrc', 'lowsrc',
    'poster', 'srcdoc', 'xlink:href', 'style']);
  const suspicious = /__xss|javascript:|vbscript:|livescript:|mocha:|ckers\\.org/i;
  // A payload percent-encoded in the query of an http(s) link is text (the WhatsApp share link
  // carries the vaga's title there); the scheme, host and path must still be clean.
  const textInQuery = (value) => {
    try {
      const url = new URL(value, location.href);
      return /^https?:$/.test(url.protocol) && !suspicious.test(url.origin + url.pathname);
    } catch (e) { return false; }
  };
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    if (foreignTags.has(el.tagName.toUpperCase())) found.push(el.tagName);
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const flagged = urlAttributes.has(name) && suspicious.test(attr.value) && !(name === 'href' && textInQuery(attr.value));
      if (name.startsWith('on') || flagged) {
        found.push(`${el.tagName} ${attr.name}=${attr.value.slice(0, 60)}`);
      }
    }
    // A JSON-LD block is data the browser never runs (the job page's JobPosting carries the title as
    // text); it must stay one valid JSON document, or a payload has broken out of it.
    if (el.tagName === 'SCRIPT' && el.type === 'application/ld+json') {
      try { JSON.parse(el.textContent); } catch (e) { found.push(`LD+JSON broken: ${el.textContent.slice(0, 60)}`); }
    } else if (el.tagName === 'SCRIPT' && suspicious.test(el.textContent)) {
      found.push(`SCRIPT ${el.textContent.slice(0, 60)}`);
    }
  }
  return found;
}"""


def marked_payloads() -> list[str]:
    """The payloads of the list, each with its alert/prompt/confirm turned into its own marker __xss<n>."""
    lines = PAYLOADS_FILE.read_text(encoding="utf-8").splitlines()
    payloads = [line for line in lines if line.strip() and not line.startswith("# ")]
    return [DIALOG_CALLS.sub(f"__xss{n}", payload) for n, payload in enumerate(payloads)]


PAYLOADS = marked_payloads()
MARKER_SETUP = f"for (let n = 0; n < {len(PAYLOADS)}; n++) window['__xss' + n] = () => window.__xssRan(n);"
PAYLOADS_PER_FREELANCER = 10
JAVASCRIPT_URL = next(payload for payload in PAYLOADS if payload.startswith("javascript:"))


@dataclass
class World:
    """What the payloads were stored in: one company's jobs, its applicants and one conversation."""

    company_email: str
    company_id: int
    job_ids: list[int]
    freelancer_ids: list[int]
    chat_id: int


@dataclass
class Probe:
    """A page whose marker calls and dialogs are recorded."""

    page: Page
    ran: list[int] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def _confirmed(user) -> int:
    user.email_confirmed_at = utcnow()
    return user.id


def _register(db, role: str, number: int) -> tuple[str, int]:
    email = f"xss-{role}-{number}-{uuid.uuid4().hex[:8]}@teste.com.br"
    common = {"name": "Pessoa Teste", "email": email, "password": PASSWORD, "confirmPassword": PASSWORD}
    if role == "client":
        user = accounts.register_company(
            db, {**common, "location": "São Paulo", "company": "Buffet Teste", "industry": "hotel"}
        )
    else:
        user = accounts.register_freelancer(
            db, {**common, "location": "São Paulo", "profession": "Garçom", "skills": "Atendimento"}
        )
    user_id = _confirmed(user)
    db.add(user)
    db.flush()
    return email, user_id


def _store_company(db) -> tuple[str, int, list[int]]:
    """A company whose biography holds every payload and whose website is a javascript: URL; a job per payload."""
    email, company_id = _register(db, "client", 0)
    profile = db.get(Profile, company_id)
    profile.biografia = "\n".join(PAYLOADS)
    profile.website = JAVASCRIPT_URL
    db.add(profile)
    stored = [
        Job(
            cliente_id=company_id,
            titulo=payload,
            descricao=payload,
            habilidades_necessarias=[payload],
            categoria="eventos",
            localizacao="São Paulo",
            valor_hora=Decimal("30.00"),
            vagas_disponiveis=2,  # hiring the first applicant leaves the job open and listed
        )
        for payload in PAYLOADS
    ]
    db.add_all(stored)
    db.flush()
    return email, company_id, [job.id for job in stored]


def _store_freelancer(db, number: int, payloads: list[str], job_id: int) -> tuple[int, int]:
    """A freelancer whose public fields each hold all `payloads` (one per line), applying to `job_id`."""
    _email, freelancer_id = _register(db, "freelancer", number)
    profile = db.get(Profile, freelancer_id)
    text = "\n".join(payloads)
    profile.nome = profile.profissao = profile.biografia = profile.experiencia_descricao = text
    profile.habilidades = payloads
    profile.website = JAVASCRIPT_URL
    db.add(profile)
    application = Application(vaga_id=job_id, freelancer_id=freelancer_id, mensagem=text)
    db.add(application)
    db.flush()
    return freelancer_id, application.id


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[start : start + PAYLOADS_PER_FREELANCER] for start in range(0, len(items), PAYLOADS_PER_FREELANCER)]


@pytest.fixture(scope="module")
def world(base_url) -> World:
    """Every payload stored in every field, through the models and services the app reads them with."""
    with session_scope() as db:
        company_email, company_id, job_ids = _store_company(db)
        hired = [_store_freelancer(db, n, chunk, job_ids[0]) for n, chunk in enumerate(_chunks(PAYLOADS))]
    with session_scope() as db:
        chat_id = application_answers.accept(db, company_id, hired[0][1])
        chat = db.get(Chat, chat_id)
        for n, payload in enumerate(PAYLOADS):
            chat_sending.post(db, chat, company_id if n % 2 else hired[0][0], payload)
    return World(company_email, company_id, job_ids, [freelancer_id for freelancer_id, _ in hired], chat_id)


@pytest.fixture
def probe(context: BrowserContext) -> Iterator[Probe]:
    """A page with the payload markers installed; after the test, no marker ran and no dialog opened."""
    recorded = Probe(page=context.new_page())
    context.expose_binding("__xssRan", lambda _source, n: recorded.ran.append(n))
    context.add_init_script(MARKER_SETUP)

    def dismiss(dialog) -> None:
        recorded.dialogs.append(dialog.message)
        dialog.dismiss()

    recorded.page.on("dialog", dismiss)
    yield recorded
    assert recorded.ran == [], f"payloads executed: {[PAYLOADS[n] for n in recorded.ran]}"
    assert recorded.dialogs == [], f"dialogs opened: {recorded.dialogs}"


def shows_as_text(probe: Probe, texts: list[str]) -> None:
    """Wait until every text is visible on the page as text; then check nothing became markup or ran."""
    probe.page.wait_for_function(VISIBLE_TEXT_HAS, arg=texts)
    assert probe.page.evaluate(INJECTED_MARKUP) == []
    assert probe.ran == []


def _public_titles(company_id: int, page: int) -> list[str]:
    with session_scope() as db:
        return [job["title"] for job in jobs.list_public_jobs(db, company_id=company_id, page=page).items]


def test_every_answer_carries_the_security_headers(base_url, world):
    for path in ("/", "/jobs", f"/jobs/{world.job_ids[0]}", "/login", "/api/health"):
        with urllib.request.urlopen(f"{base_url}{path}") as response:  # noqa: S310 (the local test server)
            headers = response.headers
        policy = headers["Content-Security-Policy"]
        script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
        assert "'unsafe-inline'" not in script_src, path
        assert "frame-ancestors 'none'" in policy, path
        assert "object-src 'none'" in policy, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin", path
        assert headers["X-Frame-Options"] == "DENY", path


def test_job_titles_on_the_job_list(probe: Probe, world: World):
    for number in range(1, math.ceil(len(PAYLOADS) / JOBS_PAGE_SIZE) + 1):
        probe.page.goto(f"/jobs?empresa={world.company_id}&page={number}")
        shows_as_text(probe, _public_titles(world.company_id, number))


def test_job_titles_descriptions_skills_and_company_on_each_job_page(probe: Probe, world: World):
    for job_id, payload in zip(world.job_ids, PAYLOADS, strict=True):
        probe.page.goto(f"/jobs/{job_id}")
        shows_as_text(probe, [payload])
        assert probe.page.locator("h1").first.text_content() == payload
    shows_as_text(probe, PAYLOADS)  # the company's biography, on the last job's page


def test_freelancer_fields_on_each_public_profile(probe: Probe, world: World):
    login(probe.page, world.company_email)
    for freelancer_id, payloads in zip(world.freelancer_ids, _chunks(PAYLOADS), strict=True):
        probe.page.goto(f"/freelancers/{freelancer_id}")
        shows_as_text(probe, payloads)
        assert probe.page.locator("#profile-website").count() == 0, "a javascript: website is never linked"


def test_job_titles_on_the_company_dashboard(probe: Probe, world: World):
    login(probe.page, world.company_email)
    probe.page.goto("/client-dashboard?tab=jobs")
    rows = probe.page.locator("#active-jobs-table tbody tr")
    for shown in range(DASHBOARD_PAGE_SIZE, len(PAYLOADS), DASHBOARD_PAGE_SIZE):
        expect(rows).to_have_count(shown)
        probe.page.locator("#more-active-jobs-table").click()
    expect(rows).to_have_count(len(PAYLOADS))
    shows_as_text(probe, PAYLOADS)


def test_chat_messages_and_the_freelancer_name_in_the_conversation(probe: Probe, world: World):
    login(probe.page, world.company_email)
    probe.page.goto(f"/client-dashboard/chats/{world.chat_id}")
    bubbles = probe.page.locator("#chat-messages .chat-bubble")
    for shown in range(chats.PAGE_SIZE, len(PAYLOADS), chats.PAGE_SIZE):
        expect(bubbles).to_have_count(shown)
        probe.page.locator("#chat-older").click()
    with session_scope() as db:
        stored = db.exec(select(func.count()).select_from(Message).where(Message.chat_id == world.chat_id)).one()
    expect(bubbles).to_have_count(stored)  # the payloads and the note the app posts when a hire opens a chat
    shows_as_text(probe, [*PAYLOADS, PAYLOADS[0]])
    probe.page.goto("/client-dashboard/chats")
    shows_as_text(probe, [PAYLOADS[0]])
