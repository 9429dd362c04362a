"""What the durability test drives and checks: the seed, the killable backend, the tabs, the audit.

The backend is the real one (`bench.harness.serve_app`: `reflex run --env prod --backend-only` in
its own process group), so SIGKILL of the group kills the CLI, Granian and its worker at once, as
a crashed machine or an OOM kill would. The tabs are `bench.wsclient.Tab`s with real session
cookies; they record a write as acknowledged only when the delta that shows it arrived (the
application's card reading 'accepted' with its chat, the message in the sender's conversation),
which the handlers send after their transaction committed. The audit reads the database directly.
"""

import asyncio
import itertools
import os
import random
import signal
import subprocess
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from bench import harness
from bench.wsclient import AUTH, CHROME, TIMEOUT, Delta, Tab
from tests.support.shift_form import shift_fields

ROOM = f"{AUTH}.app___pages___chats___state____chat_room_state"
COMPANY_JOBS = f"{AUTH}.app___pages___company_jobs___state____company_jobs_state"
PASSWORD = "Durable1234"
MESSAGE_TAG = "durável"


def _var(delta: Delta, state: str, name: str, default=None):
    """The value a delta sets for `name` of `state` (`default` when it does not set it)."""
    return (delta.get(state) or {}).get(f"{name}_rx_state_", default)


@dataclass(frozen=True)
class AcceptJob:
    """One company's job with pending applications, to be accepted in one trial."""

    company_id: int
    cookie: str
    job_id: int
    application_ids: tuple[int, ...]


@dataclass(frozen=True)
class SeedChat:
    """A conversation of an accepted application: its id and both participants' cookies."""

    chat_id: int
    company_cookie: str
    freelancer_cookie: str


@dataclass
class Seeded:
    """The jobs to accept (a list per trial) and the conversations to chat in."""

    accept_jobs: list[list[AcceptJob]] = field(default_factory=list)
    chats: list[SeedChat] = field(default_factory=list)


def _person(db: Session, role: str, index: int, tag: str):
    from core.types import utcnow
    from services.accounts import accounts

    common = {"password": PASSWORD, "confirmPassword": PASSWORD, "location": "Recife"}
    email = f"{role[0]}{index}-{tag}@durable.turno.com.br"
    if role == "client":
        data = {**common, "name": f"Empresa {index}", "email": email, "company": "Durável", "industry": "events"}
        user = accounts.register_company(db, data)
    else:
        data = {**common, "name": f"Pessoa {index}", "email": email, "profession": "Garçom", "skills": "Atendimento"}
        user = accounts.register_freelancer(db, data)
    user.email_confirmed_at = utcnow()
    db.add(user)
    db.flush()
    return user


def _cookie(db: Session, user_id: int) -> str:
    from core.settings import get_settings
    from services.accounts import sessions

    token, _ = sessions.create(db, user_id, remember=True)
    return f"{get_settings().session_cookie_name}={token}"


def _job(db: Session, company_id: int, positions: int, title: str, day: int) -> int:
    """A vaga of `company_id` on its own day (`day` days ahead): a freelancer holds one shift at a time."""
    from services.jobs import company_jobs

    data = {
        "titulo": title,
        "categoria": "eventos",
        "descricao": "Vaga do teste de durabilidade. " * 2,
        "localizacao": "Recife",
        "vagas_disponiveis": positions,
        **shift_fields(days=day),
    }
    return company_jobs.create_job(db, company_id, data)


def seed(database_url: str, trials: int, companies_per_trial: int, applicants: int, chats: int) -> Seeded:
    """Create, through the services, everything the trials act on.

    Args:
        database_url: The migrated database (this process's core.db is pointed at it).
        trials: How many trials need fresh pending applications.
        companies_per_trial: Companies accepting at once in each trial (one job each; the free
            plan allows two active jobs, so every job has its own company).
        applicants: Pending applications per job (and positions: every acceptance succeeds).
        chats: Conversations (accepted applications) whose participants send messages.

    Returns:
        What was created, with a session cookie for every person who acts.
    """
    harness.use_database(database_url)
    from core.db import get_engine, session_scope
    from services.shifts import application_answers, applications

    tag = uuid.uuid4().hex[:6]
    seeded = Seeded()
    days = itertools.count(3)  # every vaga its own day: the same freelancers are hired for many of them
    with session_scope() as db:
        freelancers = [_person(db, "freelancer", i, tag) for i in range(max(applicants, chats))]
        for trial in range(trials):
            jobs = []
            for slot in range(companies_per_trial):
                company = _person(db, "client", trial * companies_per_trial + slot, tag)
                job_id = _job(db, company.id, applicants, f"Garçom {trial}-{slot}", next(days))
                ids = tuple(applications.apply(db, f.id, "freelancer", job_id, {}) for f in freelancers[:applicants])
                jobs.append(AcceptJob(company.id, _cookie(db, company.id), job_id, ids))
            seeded.accept_jobs.append(jobs)
        for index in range(chats):
            company = _person(db, "client", trials * companies_per_trial + index, tag)
            freelancer = freelancers[index]
            job_id = _job(db, company.id, 1, f"Conversa {index}", next(days))
            application_id = applications.apply(db, freelancer.id, "freelancer", job_id, {})
            chat_id = application_answers.accept(db, company.id, application_id)
            seeded.chats.append(SeedChat(chat_id, _cookie(db, company.id), _cookie(db, freelancer.id)))
    get_engine().dispose()  # no pooled connection of this process stays open on the database
    return seeded


@dataclass
class Backend:
    """The app's backend on a fixed port, started, SIGKILLed and restarted as one process group."""

    env: dict[str, str]
    port: int
    log: Path
    proc: subprocess.Popen | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        """The websocket's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the backend and wait until /api/health answers."""
        self.proc = harness.serve_app(self.env, self.port, self.log)
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL the whole process group (the CLI, Granian and its worker) and reap the leader."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        """Stop it normally (end of the test)."""
        if self.proc is not None:
            harness.stop(self.proc)


@dataclass
class ChatTab(Tab):
    """A participant's conversation page: sends messages, records those its own page showed as sent."""

    chat_id: int = 0
    shown: set[str] = field(default_factory=set)
    fired: list[str] = field(default_factory=list)
    ack_times: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Watch every delta for the messages the room shows."""
        self.on_delta.append(self._watch)

    def _watch(self, delta: Delta) -> None:
        before = len(self.acknowledged)
        for key in ("recent", "history"):
            for message in _var(delta, ROOM, key) or []:
                self.shown.add(message.get("content", ""))
        self.ack_times += [time.perf_counter()] * (len(self.acknowledged) - before)

    @property
    def acknowledged(self) -> set[str]:
        """Messages this tab sent and then saw in its conversation (stored, as the page tells the user)."""
        return self.shown.intersection(self.fired)

    async def open(self) -> None:
        """Connect and run the conversation page's load handlers, as the browser does on page load."""
        await self.connect()
        handler = "load_client" if self.path.startswith("/client") else "load_freelancer"
        await self.call(f"{CHROME}.load_chrome", done=lambda delta: CHROME in delta)
        await self.call(f"{ROOM}.{handler}", done=lambda delta: _var(delta, ROOM, "status") == "found")

    async def fire(self, count: int) -> None:
        """Type and send `count` messages as fast as Enter can be pressed (no waiting for answers)."""
        for _ in range(count):
            content = f"{MESSAGE_TAG} {self.chat_id} {uuid.uuid4().hex[:12]}"
            self.fired.append(content)
            await self.emit(f"{ROOM}.send_message", {"form_data": {"message": content}})


@dataclass
class AcceptTab(Tab):
    """A company's 'Minhas Vagas' with a job's applications open: accepts them all at once."""

    job: AcceptJob | None = None
    accepted: dict[int, int] = field(default_factory=dict)
    fired: list[int] = field(default_factory=list)
    ack_times: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Watch every delta for applicant cards reading 'accepted' with their chat."""
        self.on_delta.append(self._watch)

    def _watch(self, delta: Delta) -> None:
        before = len(self.acknowledged)
        for card in _var(delta, COMPANY_JOBS, "applicants") or []:
            if card.get("status") == "accepted" and card.get("chat_id"):
                self.accepted[card["id"]] = card["chat_id"]
        self.ack_times += [time.perf_counter()] * (len(self.acknowledged) - before)

    @property
    def acknowledged(self) -> dict[int, int]:
        """Applications this tab accepted and then saw accepted, with their chat ids."""
        return {app_id: chat for app_id, chat in self.accepted.items() if app_id in self.fired}

    async def open(self) -> None:
        """Connect, load the dashboard chrome and open the job's 'Ver candidaturas' dialog."""
        await self.connect()
        await self.call(f"{CHROME}.load_chrome", done=lambda delta: CHROME in delta)
        listed = lambda delta: _var(delta, COMPANY_JOBS, "applications_loading") is False  # noqa: E731
        await self.call(f"{COMPANY_JOBS}.open_applications", {"job_id": self.job.job_id}, done=listed)

    async def fire(self) -> None:
        """Click 'Aceitar' on every pending applicant, one right after the other."""
        for application_id in self.job.application_ids:
            self.fired.append(application_id)
            await self.emit(f"{COMPANY_JOBS}.accept_application", {"application_id": application_id})


def chat_tabs(url: str, chat: SeedChat) -> list[ChatTab]:
    """Both participants' tabs on the conversation page."""
    return [
        ChatTab(url, f"/client-dashboard/chats/{chat.chat_id}", chat.company_cookie, chat_id=chat.chat_id),
        ChatTab(url, f"/freelancer-dashboard/chats/{chat.chat_id}", chat.freelancer_cookie, chat_id=chat.chat_id),
    ]


def accept_tab(url: str, job: AcceptJob) -> AcceptTab:
    """The company's tab on its jobs page."""
    return AcceptTab(url, "/client-dashboard?tab=jobs", job.cookie, job=job)


def reopened(tab: Tab) -> Tab:
    """The same browser tab after the server came back: a new socket with the same token and cookie."""
    again = type(tab)(tab.url, tab.path, tab.cookie, token=tab.token)
    for name in ("chat_id", "job"):
        if hasattr(tab, name):
            setattr(again, name, getattr(tab, name))
    return again


async def until_disconnected(tabs: Iterable[Tab], timeout: float = TIMEOUT) -> bool:
    """Wait until every tab's socket noticed the server is gone (the frames before it are handled)."""
    tabs = list(tabs)
    deadline = asyncio.get_running_loop().time() + timeout
    while any(tab.client.connected for tab in tabs):
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def kill_delay(rng: random.Random, trial: int, first_ack: float, last_ack: float) -> float:
    """A random moment within the burst, by the acknowledgement times of a whole burst.

    Even trials draw it over the whole burst (so some kills land before anything was answered,
    while the first transactions run); odd trials over the span in which the answers arrived, so
    that every run has kills between acknowledged and unacknowledged writes.
    """
    low = 0.0 if trial % 2 == 0 else first_ack
    return rng.uniform(low, last_ack)


@dataclass
class Audit:
    """What the database holds that it should not: each list names the offending rows."""

    accepted_without_chat: list[int] = field(default_factory=list)
    chat_without_accepted_application: list[int] = field(default_factory=list)
    chat_participants_wrong: list[int] = field(default_factory=list)
    chat_without_welcome: list[int] = field(default_factory=list)
    accepted_without_notification: list[int] = field(default_factory=list)
    job_count_wrong: list[int] = field(default_factory=list)
    message_orphan: list[int] = field(default_factory=list)
    message_sender_outsider: list[int] = field(default_factory=list)
    chat_behind_last_message: list[int] = field(default_factory=list)
    message_duplicated: list[str] = field(default_factory=list)
    foreign_key_violations: list[str] = field(default_factory=list)
    integrity: str = "ok"

    def problems(self) -> dict[str, object]:
        """Only the checks that found something."""
        found = {name: rows for name, rows in vars(self).items() if name != "integrity" and rows}
        if self.integrity != "ok":
            found["integrity"] = self.integrity
        return found

    def half_written(self) -> int:
        """How many rows (or row groups) are half-written or orphaned."""
        return sum(len(rows) for name, rows in vars(self).items() if name != "integrity")


def _ids(engine: Engine, sql: str) -> list[int]:
    with engine.connect() as conn:
        return [row[0] for row in conn.execute(text(sql))]


def audit(engine: Engine) -> Audit:
    """Check every invariant a multi-row write must leave whole, over the whole database."""
    result = Audit(
        accepted_without_chat=_ids(
            engine,
            "SELECT a.id FROM applications a LEFT JOIN chats c ON c.application_id = a.id"
            " WHERE a.status = 'accepted' AND c.id IS NULL",
        ),
        chat_without_accepted_application=_ids(
            engine,
            "SELECT c.id FROM chats c LEFT JOIN applications a ON a.id = c.application_id"
            " WHERE a.id IS NULL OR a.status <> 'accepted'",
        ),
        chat_participants_wrong=_ids(
            engine,
            "SELECT c.id FROM chats c JOIN applications a ON a.id = c.application_id JOIN jobs j ON j.id = a.vaga_id"
            " WHERE c.client_id <> j.cliente_id OR c.freelancer_id <> a.freelancer_id",
        ),
        chat_without_welcome=_ids(
            engine,
            "SELECT c.id FROM chats c WHERE NOT EXISTS"
            " (SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.sender_id = c.client_id)",
        ),
        job_count_wrong=_ids(
            engine,
            "SELECT j.id FROM jobs j LEFT JOIN applications a ON a.vaga_id = j.id AND a.status = 'accepted'"
            " WHERE j.status IN ('open', 'in_progress') GROUP BY j.id, j.vagas_disponiveis, j.status, j.vaga_status"
            " HAVING COUNT(a.id) > j.vagas_disponiveis OR j.status <> j.vaga_status"
            " OR (COUNT(a.id) = j.vagas_disponiveis) <> (j.status = 'in_progress')",
        ),
        message_orphan=_ids(
            engine, "SELECT m.id FROM messages m LEFT JOIN chats c ON c.id = m.chat_id WHERE c.id IS NULL"
        ),
        message_sender_outsider=_ids(
            engine,
            "SELECT m.id FROM messages m JOIN chats c ON c.id = m.chat_id"
            " WHERE m.sender_id IS NOT NULL AND m.sender_id NOT IN (c.client_id, c.freelancer_id)",
        ),
    )
    result.accepted_without_notification = _without_notification(engine)
    result.chat_behind_last_message = _chats_behind(engine)
    with engine.connect() as conn:
        result.message_duplicated = [
            row[0]
            for row in conn.execute(
                text("SELECT content FROM messages WHERE content LIKE :tag GROUP BY content HAVING COUNT(*) > 1"),
                {"tag": f"{MESSAGE_TAG} %"},
            )
        ]
        if engine.dialect.name == "sqlite":
            result.foreign_key_violations = [str(tuple(row)) for row in conn.execute(text("PRAGMA foreign_key_check"))]
            result.integrity = "; ".join(row[0] for row in conn.execute(text("PRAGMA integrity_check")))
    return result


def _without_notification(engine: Engine) -> list[int]:
    """Accepted applications whose freelancer was not told (the acceptance notice points at the chat)."""
    with engine.connect() as conn:
        accepted = conn.execute(
            text(
                "SELECT a.id, a.freelancer_id, c.id FROM applications a JOIN chats c ON c.application_id = a.id"
                " WHERE a.status = 'accepted'"
            )
        ).all()
        notices = {
            (user_id, chat_id)
            for user_id, chat_id in conn.execute(
                text(
                    "SELECT user_id, target_id FROM notifications"
                    " WHERE type = 'application_accepted' AND target = 'freelancer_chat'"
                )
            )
        }
    return [app_id for app_id, user_id, chat_id in accepted if (user_id, chat_id) not in notices]


def _chats_behind(engine: Engine) -> list[int]:
    """Chats whose last-activity time is older than their newest message (a message without its chat update)."""
    from models import Chat, Message

    with Session(engine) as db:
        rows = db.exec(
            select(Chat.id, Chat.updated_at, func.max(Message.created_at))
            .join(Message, Message.chat_id == Chat.id)
            .group_by(Chat.id, Chat.updated_at)
        ).all()
    return [chat_id for chat_id, updated, newest in rows if _aware(updated) < _aware(newest)]


def _aware(moment: datetime | str) -> datetime:
    """A timestamp read back from either engine as a comparable value."""
    from core.types import utcnow

    value = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    return value if value.tzinfo is not None else value.replace(tzinfo=utcnow().tzinfo)


def lost_accepts(engine: Engine, acknowledged: dict[int, int]) -> list[int]:
    """Acknowledged acceptances the database does not hold (accepted, with that chat)."""
    if not acknowledged:
        return []
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT a.id, c.id FROM applications a JOIN chats c ON c.application_id = a.id"
                " WHERE a.status = 'accepted'"
            )
        ).all()
    stored = dict(rows)
    return [app_id for app_id, chat_id in acknowledged.items() if stored.get(app_id) != chat_id]


def lost_messages(engine: Engine, acknowledged: dict[str, int]) -> list[str]:
    """Acknowledged messages (content to chat id) the database does not hold in that chat."""
    if not acknowledged:
        return []
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT content, chat_id FROM messages WHERE content LIKE :tag"), {"tag": f"{MESSAGE_TAG} %"}
        ).all()
    stored = {(content, chat_id) for content, chat_id in rows}
    return [content for content, chat_id in acknowledged.items() if (content, chat_id) not in stored]


def stored_messages(engine: Engine, fired: Iterable[str]) -> int:
    """How many of the messages sent in a burst were stored (acknowledged or not)."""
    fired = set(fired)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT content FROM messages WHERE content LIKE :tag"), {"tag": f"{MESSAGE_TAG} %"})
        return sum(1 for (content,) in rows if content in fired)


def stored_accepts(engine: Engine, tabs: Iterable[AcceptTab]) -> list[int]:
    """Which of the applications the tabs tried to accept are accepted in the database."""
    fired = {app_id for tab in tabs for app_id in tab.fired}
    if not fired:
        return []
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id FROM applications WHERE status = 'accepted'"))
        return [app_id for (app_id,) in rows if app_id in fired]
