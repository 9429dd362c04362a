"""What the authorization matrix needs besides its table: handlers, a seeded world, snapshots, a tab.

- `app_handlers()` lists every event handler of every user-defined State, read from the app itself.
- `seed(url)` fills a migrated database with two disjoint worlds (company A with freelancer F, and
  company B with freelancer G), each owning objects of every kind, with unique canary strings in
  their private fields, plus a bystander company whose id is the value of injected owner keys.
- `snapshot(engine)` reads every row of the tables handlers can touch, with who may change each row.
- `RecordingTab` is bench.wsclient.Tab that keeps every update the server sends, to scan them for
  canaries and to read the answer the user would see.
"""

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta

import reflex as rx
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import select

from bench.wsclient import STATE, Tab
from core.db import session_scope
from core.security import hash_password
from core.settings import get_settings
from core.types import utcnow
from models import (
    AuthSession,
    Chat,
    Falta,
    Hiring,
    Message,
    Notification,
    Profile,
    PushDevice,
    Rating,
    Role,
    User,
    UserPreferences,
)
from services.accounts import sessions
from tests.support.factories import make_application, make_job

SHELL = f"{STATE}.states___shell____shell_state"
MISSING_ID = 987_654
PASSWORD = "senha-certa-123"
FOREIGN_PER_KIND = 3
OWNER_TABLES = (
    "users",
    "profiles",
    "user_preferences",
    "auth_sessions",
    "subscriptions",
    "jobs",
    "applications",
    "chats",
    "messages",
    "notifications",
    "ratings",
    "hirings",
    "faltas",
)
# Columns no handler may ever change: who owns a row, the account's role, the plan.
IMMUTABLE = {
    "users": ("role", "email"),
    "profiles": ("tipo_usuario",),
    "subscriptions": ("user_id", "tier", "status"),
    "jobs": ("cliente_id",),
    "applications": ("vaga_id", "freelancer_id"),
    "chats": ("client_id", "freelancer_id", "application_id"),
    "messages": ("chat_id", "sender_id", "content"),
    "notifications": ("user_id",),
    "ratings": ("application_id", "rater_id", "ratee_id", "stars", "comment"),
    "hirings": ("application_id", "job_id", "company_id", "freelancer_id", "valor_hora_centavos"),
    "faltas": ("freelancer_id", "pontos"),
}
OWNER_COLUMNS = ("user_id", "cliente_id", "freelancer_id", "client_id", "rater_id", "ratee_id", "sender_id", "vaga_id")


def walk_states(cls: type[rx.State]) -> Iterator[type[rx.State]]:
    """Every substate of `cls`, recursively."""
    for sub in cls.get_substates():
        yield sub
        yield from walk_states(sub)


def app_handlers() -> dict[str, tuple[type[rx.State], str]]:
    """`module.Class.handler` -> (state class, handler name) for every handler of the app's own states."""
    import app.app  # noqa: F401 (registers every page and its states)

    found = {}
    for state in walk_states(rx.State):
        if state.__module__.startswith("reflex"):
            continue
        for name in state.event_handlers:
            found[f"{state.__module__}.{state.__name__}.{name}"] = (state, name)
    return found


@dataclass(frozen=True)
class Obj:
    """A seeded object: its kind, id, the users who may use it, and whether anyone may read it."""

    kind: str
    id: int
    owners: frozenset[int]
    public: bool = False


@dataclass
class World:
    """The seeded people (user ids), their session cookies, objects and canaries."""

    users: dict[str, int] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    objects: list[Obj] = field(default_factory=list)
    canaries: dict[str, frozenset[int]] = field(default_factory=dict)  # text -> who may see it
    engine: Engine | None = None

    def own(self, kind: str, user_id: int | None) -> list[Obj]:
        """Objects of `kind` the caller may use: theirs first, then public ones."""
        mine = [o for o in self.objects if o.kind == kind and user_id in o.owners]
        public = [o for o in self.objects if o.kind == kind and o.public and user_id not in o.owners]
        return mine + public

    def foreign(self, kind: str, user_id: int | None) -> list[Obj]:
        """Up to FOREIGN_PER_KIND objects of `kind` the caller may neither use nor read, the other world's first."""
        found = [o for o in self.objects if o.kind == kind and not o.public and user_id not in o.owners]
        found.sort(key=lambda o: self.same_world(o, user_id))
        return found[:FOREIGN_PER_KIND]

    def same_world(self, obj: Obj, user_id: int | None) -> bool:
        """Whether the object belongs to the caller's world (a world's ids share their thousands)."""
        return user_id is not None and min(obj.owners) // 1000 == user_id // 1000

    def forbidden_canaries(self, user_id: int | None) -> list[str]:
        """Canary strings the caller must never receive."""
        return [text_ for text_, viewers in self.canaries.items() if user_id not in viewers]

    def session_cookie(self, user_id: int) -> str:
        """A fresh session cookie of `user_id` (for handlers that end the session they run in)."""
        with session_scope(self.engine) as db:
            token, _ = sessions.create(db, user_id, remember=False)
        return f"{get_settings().session_cookie_name}={token}"


def _user(db, user_id: int, email: str, role: Role, **profile) -> User:
    """A confirmed user with a profile and default preferences, with an explicit id."""
    user = User(id=user_id, email=email, password_hash="x", role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, **profile))
    db.add(UserPreferences(user_id=user.id))
    db.flush()
    return user


def _add(db, row):
    db.add(row)
    db.flush()
    return row


def _seed_world(db, world: World, tag: str, base: int) -> tuple[int, int]:
    """One company and one freelancer with objects of every kind; canaries tagged `tag`.

    Ids are explicit and distinctive (`base` + offset), so an id in an answer is never mistaken
    for a count or a date when answers are compared.
    """
    company = _user(
        db,
        base + 11,
        f"canary-{tag}-company@teste.com.br",
        Role.CLIENT,
        nome=f"Empresa {tag}",
        empresa=f"Hotel {tag}",
        telefone=f"CANARY-{tag}-company-phone",
        endereco=f"CANARY-{tag}-company-address",
    )
    freelancer = _user(
        db,
        base + 12,
        f"canary-{tag}-freelancer@teste.com.br",
        Role.FREELANCER,
        nome=f"Freelancer {tag}",
        profissao="Garçom",
        telefone=f"CANARY-{tag}-freelancer-phone",
        endereco=f"CANARY-{tag}-freelancer-address",
    )
    members = frozenset({company.id, freelancer.id})
    open_job = make_job(db, company, f"Garçom {tag}", id=base + 101, vagas_disponiveis=3)
    second = make_job(db, company, f"Bartender {tag}", id=base + 102, vagas_disponiveis=1)
    archived = make_job(
        db,
        company,
        f"Arquivada {tag}",
        id=base + 103,
        descricao=f"CANARY-{tag}-archived-job",
        is_archived=True,
        status="archived",
    )
    closed = make_job(db, company, f"Encerrada {tag}", id=base + 104, status="closed", vaga_status="closed")
    rated = make_job(db, company, f"Avaliada {tag}", id=base + 105, status="closed", vaga_status="closed")
    pending = make_application(db, open_job, freelancer, id=base + 201, mensagem=f"CANARY-{tag}-application-message")
    waiting = make_application(db, second, freelancer, id=base + 202)
    hired = make_application(db, closed, freelancer, id=base + 203, status="accepted")
    done = make_application(db, rated, freelancer, id=base + 204, status="accepted")
    chat = _add(db, Chat(id=base + 301, client_id=company.id, freelancer_id=freelancer.id, application_id=hired.id))
    for offset, (sender, who) in enumerate(((company, "company"), (freelancer, "freelancer")), 401):
        _add(
            db, Message(id=base + offset, chat_id=chat.id, sender_id=sender.id, content=f"CANARY-{tag}-chat-from-{who}")
        )
    company_notice = _add(
        db, Notification(id=base + 501, user_id=company.id, type="other", message=f"CANARY-{tag}-company-notice")
    )
    freelancer_notice = _add(
        db, Notification(id=base + 502, user_id=freelancer.id, type="other", message=f"CANARY-{tag}-freelancer-notice")
    )
    _add(
        db,
        Rating(
            id=base + 601,
            application_id=done.id,
            rater_id=company.id,
            ratee_id=freelancer.id,
            stars=5,
            comment=f"CANARY-{tag}-rating-comment",
        ),
    )
    _add(db, Rating(id=base + 602, application_id=done.id, rater_id=freelancer.id, ratee_id=company.id, stars=4))
    shift = _add(
        db,
        Hiring(
            id=base + 701,
            application_id=hired.id,
            job_id=closed.id,
            company_id=company.id,
            freelancer_id=freelancer.id,
            inicio_em=utcnow() + timedelta(hours=30),
            fim_em=utcnow() + timedelta(hours=36),
            valor_hora_centavos=3000,
        ),
    )
    falta = _add(
        db,
        Falta(
            id=base + 801,
            freelancer_id=freelancer.id,
            hiring_id=shift.id,
            pontos=1,
            created_at=utcnow(),
            expires_at=utcnow() + timedelta(days=90),
        ),
    )
    devices = []
    for offset, (user, who) in enumerate(((company, "company"), (freelancer, "freelancer")), 901):
        signed_in = _add(
            db, AuthSession(id=base + offset, user_id=user.id, token_hash=f"{tag}-{who}".ljust(64, "0")[:64],
                            expires_at=utcnow() + timedelta(days=1), remember=True)
        )  # fmt: skip
        device = _add(
            db,
            PushDevice(
                id=base + offset,
                user_id=user.id,
                session_id=signed_in.id,
                endpoint=f"https://fcm.googleapis.com/fcm/send/CANARY-{tag}-{who}-push",
                p256dh="B" + "A" * 86,
                auth="A" * 22,
                name="Chrome no Android",
            ),
        )
        devices.append(Obj("push_device", device.id, frozenset({user.id})))
    world.objects += devices
    for job in (open_job, second, archived, closed, rated):
        is_public = job.status == "open" and not job.is_archived
        applicants = {freelancer.id}  # the freelancer applied to every job of their world
        world.objects.append(Obj("job", job.id, frozenset({company.id})))
        world.objects.append(Obj("public_job", job.id, frozenset({company.id, *applicants}), public=is_public))
    for application in (pending, waiting, hired, done):
        world.objects.append(Obj("application", application.id, members))
    world.objects += [
        Obj("rating", hired.id, members),
        Obj("rating", done.id, members),
        Obj("chat", chat.id, members),
        Obj("notification", company_notice.id, frozenset({company.id})),
        Obj("notification", freelancer_notice.id, frozenset({freelancer.id})),
        Obj("freelancer", freelancer.id, members),
        Obj("hiring", shift.id, members),
        Obj("falta", falta.id, frozenset({freelancer.id})),
    ]
    for canary in (
        f"canary-{tag}-company@",
        f"canary-{tag}-freelancer@",
        *(f"CANARY-{tag}-{name}" for name in ("company-phone", "company-address", "freelancer-phone")),
        *(f"CANARY-{tag}-{name}" for name in ("freelancer-address", "archived-job", "application-message")),
        *(f"CANARY-{tag}-{name}" for name in ("chat-from-company", "chat-from-freelancer", "rating-comment")),
        *(f"CANARY-{tag}-{name}" for name in ("company-notice", "freelancer-notice")),
        *(f"CANARY-{tag}-{name}" for name in ("company-push", "freelancer-push")),
    ):
        world.canaries[canary] = members
    return company.id, freelancer.id


def seed(engine: Engine) -> World:
    """Seed both worlds and a bystander company through `engine`; sign the callers in."""
    world = World(engine=engine)
    with session_scope(engine) as db:
        world.users["company"], world.users["freelancer"] = _seed_world(db, world, "A", 4000)
        world.users["other company"], world.users["other freelancer"] = _seed_world(db, world, "B", 7000)
        bystander = _user(db, 9011, "bystander@teste.com.br", Role.CLIENT, nome="Ninguém", empresa="Ninguém")
        world.users["bystander"] = bystander.id
        password = hash_password(PASSWORD)
        for user in db.exec(select(User)).all():
            user.password_hash = password
            db.add(user)
    for role in ("freelancer", "company", "other company"):
        world.cookies[role] = world.session_cookie(world.users[role])
    return world


@dataclass(frozen=True)
class Row:
    """One row: its values and the users who may change it."""

    values: tuple
    columns: tuple[str, ...]
    owners: frozenset[int]

    def get(self, column: str):
        """The value of `column`."""
        return self.values[self.columns.index(column)]


Snapshot = dict[tuple[str, object], Row]


# Columns the server writes in the background, not a handler on the caller's behalf: a company's
# 'Selo Empresa Pontual', recomputed on the profile by the timer (services/trust/punctuality.py), and a
# session's `last_seen_at`, touched at most once a minute after a use (services/accounts/sessions.py
# `touch_soon`): on a slow run a touch of one user's session lands during another caller's batch.
TIMER_COLUMNS = {
    "profiles": frozenset({"selo_pontual", "selo_resumo", "selo_dados", "selo_em"}),
    "auth_sessions": frozenset({"last_seen_at"}),
}


def snapshot(engine: Engine) -> Snapshot:
    """Every row of OWNER_TABLES with the users allowed to change it, keyed by (table, primary key).

    TIMER_COLUMNS are left out: the timer process of the server under test writes them.
    """
    rows: Snapshot = {}
    with engine.connect() as conn:
        raw = {}
        for table in OWNER_TABLES:
            result = conn.execute(text(f"SELECT * FROM {table}"))  # noqa: S608 (fixed table names)
            raw[table] = (tuple(result.keys()), [tuple(r) for r in result])
    job_owner = {r[raw["jobs"][0].index("id")]: r[raw["jobs"][0].index("cliente_id")] for r in raw["jobs"][1]}
    chat_members = {}
    columns = raw["chats"][0]
    for r in raw["chats"][1]:
        chat_members[r[columns.index("id")]] = frozenset(
            {r[columns.index("client_id")], r[columns.index("freelancer_id")]}
        )
    for table, (columns, values) in raw.items():
        skipped = TIMER_COLUMNS.get(table, frozenset())
        if skipped:
            kept = [n for n, column in enumerate(columns) if column not in skipped]
            columns = tuple(columns[n] for n in kept)
            values = [tuple(value[n] for n in kept) for value in values]
        for value in values:
            row = dict(zip(columns, value, strict=True))
            key = row.get("id", row.get("user_id"))
            rows[(table, key)] = Row(value, columns, _owners(table, row, job_owner, chat_members))
    return rows


def _owners(table: str, row: dict, job_owner: dict, chat_members: dict) -> frozenset[int]:
    if table == "users":
        return frozenset({row["id"]})
    if table == "jobs":
        return frozenset({row["cliente_id"]})
    if table == "applications":
        return frozenset({row["freelancer_id"], job_owner.get(row["vaga_id"])})
    if table == "chats":
        return frozenset({row["client_id"], row["freelancer_id"]})
    if table == "messages":
        return chat_members.get(row["chat_id"], frozenset())
    if table == "ratings":
        return frozenset({row["rater_id"], row["ratee_id"]})
    if table == "hirings":
        return frozenset({row["company_id"], row["freelancer_id"]})
    if table == "faltas":
        return frozenset({row["freelancer_id"]})
    if table == "notifications" and row.get("target") in ("client_chat", "freelancer_chat"):
        # 'Nova mensagem' notices are kept one per conversation: either participant's message updates it.
        return frozenset({row["user_id"]}) | chat_members.get(row.get("target_id") or 0, frozenset())
    return frozenset({row["user_id"]})


@dataclass
class Changes:
    """What one call changed, as seen from the caller."""

    foreign_checked: int = 0
    foreign_changed: list[str] = field(default_factory=list)
    immutable_changed: list[str] = field(default_factory=list)
    any_changed: list[str] = field(default_factory=list)
    inserted: list[tuple[str, Row]] = field(default_factory=list)


def compare(before: Snapshot, after: Snapshot, caller: int | None) -> Changes:
    """Rows changed or deleted that the caller may not change; immutable columns changed; inserts."""
    changes = Changes()
    for key, old in before.items():
        new = after.get(key)
        mine = caller is not None and caller in old.owners
        if not mine:
            changes.foreign_checked += 1
        if new == old:
            continue
        label = f"{key[0]} #{key[1]}: {'deleted' if new is None else 'changed'}"
        changes.any_changed.append(label)
        if not mine:
            changes.foreign_changed.append(label)
        if new is not None:
            for column in IMMUTABLE.get(key[0], ()):
                if old.get(column) != new.get(column):
                    changes.immutable_changed.append(
                        f"{key[0]} #{key[1]}.{column}: {old.get(column)!r} -> {new.get(column)!r}"
                    )
    changes.inserted = [(key[0], row) for key, row in after.items() if key not in before]
    return changes


_TOAST = re.compile(r'__toast.*?\["(\w+)"\]\(("(?:[^"\\]|\\.)*")(?:.*?\["description"\] : ("(?:[^"\\]|\\.)*"))?')


def answer_of(update: dict) -> list[str]:
    """What one server update shows the user: toasts, redirects, scripts, alerts, and the state changes."""
    shown = []
    for event in update.get("events") or []:
        name = event.get("name", "")
        payload = event.get("payload") or {}
        script = str(payload.get("function", ""))
        toast = _TOAST.search(script) if name == "_call_function" else None
        if toast:
            shown.append(f"toast {toast.group(1)}: " + " | ".join(json.loads(t) for t in toast.groups()[1:] if t))
        elif name == "_redirect":
            shown.append(f"redirect {payload.get('path', '')}")
        else:
            shown.append(f"{name} {json.dumps(payload, sort_keys=True, ensure_ascii=False)[:300]}")
    for state, changes in (update.get("delta") or {}).items():
        for var, value in changes.items():
            if state == SHELL and var.startswith("menu_open"):
                continue  # the barrier's own toggles
            if var.startswith("router") or var.startswith("is_hydrated"):
                continue  # the tab's token and its URL
            shown.append(f"{state.rsplit('.', 1)[-1]}.{var} = {json.dumps(value, sort_keys=True, ensure_ascii=False)}")
    return shown


def normalise(answer: list[str], ids: list[int]) -> list[str]:
    """The answer with the ids under test replaced by '<id>'."""
    pattern = re.compile(r"\b(" + "|".join(str(i) for i in ids) + r")\b") if ids else None
    return [pattern.sub("<id>", line) if pattern else line for line in answer]


@dataclass
class RecordingTab(Tab):
    """A Tab that keeps every update the server sent, raw (for canaries) and as the user's answer."""

    fail_on_error: bool = False
    raw: list[str] = field(default_factory=list)
    updates: list[dict] = field(default_factory=list)

    async def _on_update(self, update: dict) -> None:
        self.raw.append(json.dumps(update, ensure_ascii=False))
        self.updates.append(update)
        await super()._on_update(update)
