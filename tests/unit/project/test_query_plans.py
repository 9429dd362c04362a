"""PostgreSQL's plans for the statements every list actually sends: index-served and bounded.

A database of its own is migrated to head and filled with bulk inserts (thousands of jobs,
applications, messages, notifications, ratings; names borrowed from scripts/seed_large.py), then
vacuumed and analysed, as autovacuum would leave a production database. Each case calls a service
function the way the pages do while a `before_cursor_execute` listener records the SELECTs it
sends with their parameters; each one is then explained (`EXPLAIN (FORMAT JSON)`, not executed).

Nothing forces the planner (no `enable_seqscan = off`): the data is large enough that reading a
user's rows through an index is honestly cheaper than reading a table, which is what production
sees. The cases check that no plan reads a big table sequentially and that each list statement
is cut by a Limit node. Skipped unless TEST_DATABASE_URL is a PostgreSQL URL.
"""

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import event, insert, select, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

import core.db
from alembic import command
from core.catalog import CATEGORIES, CITIES
from core.text import city_key, fold
from core.types import utcnow
from models import Application, Chat, Job, Message, Notification, Profile, Rating, Role, User, UserPreferences
from models.job import SEARCH_SEPARATOR
from scripts.seed_large import BUSINESS, FIRST, LAST, MESSAGES, ROLES
from services.jobs import category_companies, job_list_cache, jobs
from services.reach import chat_read_marks, chats, notifications
from services.screens import company_dashboard, freelancer_dashboard, public_profiles
from services.shifts import applicant_list
from tests.unit.conftest import TEST_DATABASE_URL, alembic_config, empty_database

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not TEST_DATABASE_URL.startswith("postgresql"), reason="TEST_DATABASE_URL is not a PostgreSQL URL"
    ),
]

BIG_TABLES = frozenset({"jobs", "applications", "messages", "notifications", "chats", "ratings"})
COMPANIES = 300
FREELANCERS = 4000
JOBS = 15_000
APPLICATIONS_EACH = 20
MESSAGES_EACH = 6
NOTIFICATIONS_EACH = 10
BATCH = 5_000
OPEN_SHARE = 0.7


@dataclass(frozen=True)
class Subjects:
    """Whose lists are explained: a busy company, a busy freelancer who applied to it, their chat."""

    company: int
    freelancer: int
    job: int
    chat: int


def _bulk(conn, table, rows: list[dict]) -> None:
    for start in range(0, len(rows), BATCH):
        conn.execute(insert(table), rows[start : start + BATCH])


def _ids(conn, column, *where) -> list[int]:
    return list(conn.execute(select(column).where(*where).order_by(column)).scalars())


def _people(conn, rng: random.Random) -> tuple[list[int], list[int]]:
    now = utcnow()
    users = [
        {"email": f"{role.value}{n}@planos.turno.test", "password_hash": "x", "role": role, "created_at": now}
        for role, count in ((Role.CLIENT, COMPANIES), (Role.FREELANCER, FREELANCERS))
        for n in range(count)
    ]
    _bulk(conn, User, users)
    companies = _ids(conn, User.id, User.role == Role.CLIENT)
    freelancers = _ids(conn, User.id, User.role == Role.FREELANCER)

    def profile(uid: int, role: Role) -> dict:
        city = rng.choice(CITIES)
        company = role == Role.CLIENT
        return {
            "user_id": uid,
            "tipo_usuario": role,
            "nome": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "empresa": f"{rng.choice(BUSINESS)} {uid}" if company else "",
            "profissao": "" if company else "Garçom",
            "habilidades": [] if company else ["Atendimento"],
            "redes_sociais": {},
            "localizacao": city,
            "cidade_busca": city_key(city),
            "updated_at": now,
        }

    _bulk(
        conn,
        Profile,
        [profile(uid, Role.CLIENT) for uid in companies] + [profile(uid, Role.FREELANCER) for uid in freelancers],
    )
    _bulk(conn, UserPreferences, [{"user_id": uid} for uid in companies + freelancers])
    return companies, freelancers


def _job(n: int, owner: int, rng: random.Random) -> dict:
    """One job row, its folded search columns computed as models.job does (and as scripts/seed_large.py writes them)."""
    slug = rng.choice(list(ROLES))
    title = f"{rng.choice(ROLES[slug])} {rng.choice(['para evento', 'fim de semana', 'temporada', 'noturno'])}"
    city = rng.choice(CITIES)
    status = "open" if rng.random() < OPEN_SHARE else rng.choice(["in_progress", "closed", "archived"])
    return {
        "cliente_id": owner,
        "titulo": title,
        "categoria": slug,
        "descricao": "Procuramos profissional pontual.",
        "localizacao": city,
        "valor_hora": Decimal(rng.randint(18, 150)),
        "duracao": "",
        "habilidades_necessarias": [],
        "status": status,
        "vaga_status": "closed" if status == "archived" else status,
        "is_archived": status == "archived",
        "vagas_disponiveis": 1,
        "vale_transporte": False,
        "refeicao_local": False,
        "possui_intervalo": False,
        "anuncio_anonimo": rng.random() < 0.1,
        "criado_em": utcnow() - timedelta(minutes=n),
        "updated_at": utcnow(),
        "busca": f"{fold(title)} {SEARCH_SEPARATOR} {fold(CATEGORIES[slug])} {slug}",
        "cidade_busca": fold(city),
    }


def _applications(conn, freelancers: list[int], jobs_by_id: dict[int, dict], rng: random.Random) -> None:
    job_ids = list(jobs_by_id)
    rows = []
    for freelancer in freelancers:
        for job_id in rng.sample(job_ids, APPLICATIONS_EACH):
            finished = jobs_by_id[job_id]["status"] != "open"
            status = "accepted" if finished and rng.random() < 0.5 else rng.choice(["pending", "rejected"])
            rows.append({"vaga_id": job_id, "freelancer_id": freelancer, "status": status, "mensagem": ""})
    _bulk(conn, Application, rows)


def _conversations(conn, owners: dict[int, int], rng: random.Random) -> None:
    accepted = conn.execute(
        select(Application.id, Application.vaga_id, Application.freelancer_id).where(Application.status == "accepted")
    ).all()
    now = utcnow()
    _bulk(
        conn,
        Chat,
        [
            {
                "client_id": owners[job],
                "freelancer_id": free,
                "application_id": app,
                "updated_at": now,
                "created_at": now,
            }
            for app, job, free in accepted
        ],
    )
    chats_rows = conn.execute(select(Chat.id, Chat.client_id, Chat.freelancer_id)).all()
    _bulk(
        conn,
        Message,
        [
            {
                "chat_id": chat_id,
                "sender_id": client if n % 2 else free,
                "content": MESSAGES[n % len(MESSAGES)],
                "created_at": now - timedelta(minutes=rng.randint(MESSAGES_EACH, 10_000) - n),
            }
            for chat_id, client, free in chats_rows
            for n in range(MESSAGES_EACH)
        ],
    )
    _bulk(
        conn,
        Rating,
        [
            {"application_id": app, "rater_id": rater, "ratee_id": ratee, "stars": rng.randint(1, 5), "comment": ""}
            for app, job, free in accepted
            for rater, ratee in ((owners[job], free), (free, owners[job]))
        ],
    )


def _notices(conn, users: list[int], rng: random.Random) -> None:
    now = utcnow()
    _bulk(
        conn,
        Notification,
        [
            {
                "user_id": uid,
                "type": "other",
                "message": f"Aviso {n}",
                "target": "",
                "read": rng.random() < 0.5,
                "created_at": now - timedelta(minutes=rng.randint(0, 100_000)),
            }
            for uid in users
            for n in range(NOTIFICATIONS_EACH)
        ],
    )


def _fill(engine: Engine) -> Subjects:
    rng = random.Random(7)
    with engine.begin() as conn:
        companies, freelancers = _people(conn, rng)
        _bulk(conn, Job, [_job(n, companies[n % COMPANIES], rng) for n in range(JOBS)])
        jobs_by_id = {row.id: dict(row._mapping) for row in conn.execute(select(Job.id, Job.status, Job.cliente_id))}
        _applications(conn, freelancers, jobs_by_id, rng)
        _conversations(conn, {job_id: row["cliente_id"] for job_id, row in jobs_by_id.items()}, rng)
        _notices(conn, companies + freelancers, rng)
        chat_id, company, freelancer, job = conn.execute(
            select(Chat.id, Chat.client_id, Chat.freelancer_id, Application.vaga_id)
            .join(Application, Application.id == Chat.application_id)
            .order_by(Chat.id)
            .limit(1)
        ).one()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM ANALYZE"))
    return Subjects(company=company, freelancer=freelancer, job=job, chat=chat_id)


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, Subjects]]:
    """An engine on a filled, analysed PostgreSQL database of this module, and the subjects of the cases."""
    with empty_database("postgresql", tmp_path_factory.mktemp("plans")) as url:
        command.upgrade(alembic_config(url), "head")
        engine = core.db.make_engine(url)
        try:
            yield engine, _fill(engine)
        finally:
            engine.dispose()


def _selects(engine: Engine, call: Callable[[Session], object]) -> list[tuple[str, object]]:
    """The SELECT statements (with their parameters) that `call` sends; its writes are rolled back.

    The job list cache is emptied first, so the list's count and page reach the database.
    """
    sent: list[tuple[str, object]] = []
    job_list_cache.clear()

    def record(_conn, _cursor, statement, parameters, _context, _executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            sent.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        with Session(engine) as session:
            call(session)
            session.rollback()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return sent


def _nodes(plan: dict) -> Iterator[dict]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def _render(plan: dict, depth: int = 0) -> str:
    """A compact plan tree for failure messages: node, relation, index, conditions."""
    parts = [plan["Node Type"]]
    for key, label in (("Relation Name", "on"), ("Index Name", "using"), ("Parent Relationship", "as")):
        if key in plan:
            parts.append(f"{label} {plan[key]}")
    for key in ("Index Cond", "Filter", "Sort Key"):
        if key in plan:
            parts.append(f"{key}: {plan[key]}")
    lines = ["  " * depth + " ".join(str(part) for part in parts)]
    lines += [_render(child, depth + 1) for child in plan.get("Plans", [])]
    return "\n".join(lines)


def _explain(engine: Engine, statement: str, parameters: object) -> dict:
    with engine.connect() as conn:
        raw = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar()
    return (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]


# case: (the call, given the session and the subjects; positions of the list statements among its SELECTs)
# The job list's statements: 0 the list token (services/jobs/list_version.py), 1 the count, 2 the page.
CASES: dict[str, tuple[Callable[[Session, Subjects], object], tuple[int, ...]]] = {
    "jobs.list_public_jobs": (lambda db, s: jobs.list_public_jobs(db), (2,)),
    "jobs.list_public_jobs page 5": (lambda db, s: jobs.list_public_jobs(db, page=5), (2,)),
    "jobs.list_public_jobs search": (lambda db, s: jobs.list_public_jobs(db, search="garçom"), (2,)),
    "jobs.list_public_jobs city+category": (
        lambda db, s: jobs.list_public_jobs(db, city="Salvador", category="eventos"),
        (2,),
    ),
    "jobs.list_public_jobs company": (lambda db, s: jobs.list_public_jobs(db, company_id=s.company), (2,)),
    "jobs.companies_in_category": (lambda db, s: category_companies.companies_in_category(db, "eventos"), (1,)),
    "chats.list_for company": (lambda db, s: chats.list_for(db, s.company), (1,)),
    "chats.list_for freelancer": (lambda db, s: chats.list_for(db, s.freelancer), (1,)),
    "chats.open_chat": (lambda db, s: chats.open_chat(db, s.freelancer, s.chat), (1,)),
    "chats.unread_total": (lambda db, s: chat_read_marks.unread_total(db, s.company), ()),
    "notifications.list_for": (lambda db, s: notifications.list_for(db, s.company), (0,)),
    "notifications.list_for older": (
        lambda db, s: notifications.list_for(
            db, s.company, before=notifications.list_for(db, s.company).items[-1]["id"]
        ),
        (0, 1),
    ),
    "notifications.counts": (lambda db, s: notifications.counts(db, s.company), ()),
    "dashboard.company_overview": (lambda db, s: company_dashboard.company_overview(db, s.company), (1, 2)),
    "dashboard.company_jobs active": (
        lambda db, s: company_dashboard.company_jobs(db, s.company, tab="active", offset=20),
        (0,),
    ),
    "dashboard.company_jobs archived": (
        lambda db, s: company_dashboard.company_jobs(db, s.company, tab="archived"),
        (0,),
    ),
    "dashboard.company_jobs closed": (lambda db, s: company_dashboard.company_jobs(db, s.company, tab="closed"), (0,)),
    "dashboard.company_job_totals": (lambda db, s: company_dashboard.company_job_totals(db, s.company), ()),
    "dashboard.company_hirings": (lambda db, s: company_dashboard.company_hirings(db, s.company), (1,)),
    "dashboard.company_freelancers": (lambda db, s: company_dashboard.company_freelancers(db, s.company), (1,)),
    "dashboard.freelancer_applications": (
        lambda db, s: freelancer_dashboard.freelancer_applications(db, s.freelancer),
        (1,),
    ),
    "dashboard.recent_applications": (lambda db, s: freelancer_dashboard.recent_applications(db, s.freelancer), (0,)),
    "dashboard.freelancer_overview": (lambda db, s: freelancer_dashboard.freelancer_overview(db, s.freelancer), ()),
    "applications.list_for_job": (lambda db, s: applicant_list.list_for_job(db, s.company, s.job), (1,)),
    "public_profiles.freelancer_profile": (
        lambda db, s: public_profiles.freelancer_profile(db, s.company, s.freelancer),
        (1, 2),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_list_statements_are_index_served_and_limited(planned, case):
    engine, subjects = planned
    call, list_positions = CASES[case]

    sent = _selects(engine, lambda db: call(db, subjects))

    assert sent, f"{case} sent no SELECT"
    assert max(list_positions, default=-1) < len(sent), f"{case} sent {len(sent)} SELECTs"
    for position, (statement, parameters) in enumerate(sent):
        plan = _explain(engine, statement, parameters)
        shown = f"{case}, statement {position}:\n{statement}\n\nplan:\n{_render(plan)}"
        scans = [n["Relation Name"] for n in _nodes(plan) if n["Node Type"] == "Seq Scan"]
        assert not BIG_TABLES.intersection(scans), f"sequential scan of {scans}: {shown}"
        if position in list_positions:
            assert any(n["Node Type"] == "Limit" for n in _nodes(plan)), f"list statement without LIMIT: {shown}"
