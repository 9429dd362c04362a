"""Data for the mixed load test: companies with open jobs, freelancers, pending and accepted applications.

Everything numerous is bulk-inserted (users, profiles, preferences, jobs, pending applications),
with the folded search columns computed by the model's own method. The acceptances seeded up
front go through `services.shifts.application_answers.accept`, so their chats and welcome messages are exactly
what the app creates, and every simulated signed-in person gets a real session from
`services.accounts.sessions.create`, sent as the cookie a browser would send.
"""

import random
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import insert
from sqlmodel import Session, select

from bench.harness import use_database
from bench.job_search import TITLES
from core.catalog import CATEGORIES, CITIES
from models import Application, Job, Profile, Role, User, UserPreferences

JOBS_PER_COMPANY = 3
PENDING_PER_FREELANCER = 2
ACCEPTED_SHARE = 0.3
BATCH = 5000


@dataclass(frozen=True)
class Member:
    """A simulated signed-in person: their user id and the session cookie their browser sends."""

    user_id: int
    cookie: str


@dataclass(frozen=True)
class SeedJob:
    """An open job of a simulated company."""

    company_id: int
    vacancies: int


@dataclass
class Seeded:
    """What the simulated people start from.

    Attributes:
        companies: Simulated companies (signed in).
        freelancers: Simulated freelancers (signed in).
        jobs: The simulated companies' open jobs by id.
        applied: Job ids each freelancer has applied to (by freelancer id).
        chats: (chat id, company id, freelancer id) of the conversations open before the run.
        filler_jobs: How many other jobs the lists hold (from companies nobody plays).
    """

    companies: list[Member] = field(default_factory=list)
    freelancers: list[Member] = field(default_factory=list)
    jobs: dict[int, SeedJob] = field(default_factory=dict)
    applied: dict[int, set[int]] = field(default_factory=dict)
    chats: list[tuple[int, int, int]] = field(default_factory=list)
    filler_jobs: int = 0


def seed(database_url: str, companies: int, freelancers: int, filler_jobs: int, rng_seed: int = 7) -> Seeded:
    """Fill the (migrated, empty) database of `database_url` for a run.

    Args:
        database_url: The run's database.
        companies: Simulated companies, each with JOBS_PER_COMPANY open jobs of 3 to 5 positions.
        freelancers: Simulated freelancers, each with PENDING_PER_FREELANCER applications to those
            jobs; ACCEPTED_SHARE of them had one accepted (a conversation is open).
        filler_jobs: Open jobs of companies nobody plays, so lists have pages and searches hits.
        rng_seed: Seed of the random choices (cities, categories, who applies where).

    Returns:
        The simulated people, their jobs, applications and conversations.
    """
    use_database(database_url)
    from core.db import session_scope

    rng = random.Random(rng_seed)
    result = Seeded(filler_jobs=filler_jobs)
    with session_scope() as db:
        company_ids = _users(db, Role.CLIENT, companies)
        freelancer_ids = _users(db, Role.FREELANCER, freelancers)
        filler_ids = _users(db, Role.CLIENT, max(1, companies // 2)) if filler_jobs else []
        result.jobs = _company_jobs(db, company_ids, rng)
        _filler_jobs(db, filler_ids, filler_jobs, rng)
        result.applied = _pending_applications(db, freelancer_ids, list(result.jobs), rng)
    with session_scope() as db:
        result.chats = _accept_some(db, result, freelancer_ids, rng)
    with session_scope() as db:
        result.companies = _sessions(db, company_ids)
        result.freelancers = _sessions(db, freelancer_ids)
    return result


def _users(db: Session, role: Role, count: int) -> list[int]:
    """`count` confirmed accounts of `role` with their profile and preferences; their ids."""
    if not count:
        return []
    from core.types import utcnow

    tag = uuid.uuid4().hex[:8]
    now = utcnow()
    emails = [f"{role.value[0]}{tag}{i}@load.turno.com.br" for i in range(count)]
    rows = [
        {
            "email": e,
            "password_hash": "-",
            "role": role,
            "email_confirmed_at": now,
            "is_active": True,
            "created_at": now,
        }
        for e in emails
    ]
    db.execute(insert(User), rows)
    ids = list(db.exec(select(User.id).where(User.email.in_(emails)).order_by(User.id)).all())
    db.execute(insert(Profile), [_profile(uid, role, i, now) for i, uid in enumerate(ids)])
    db.execute(insert(UserPreferences), [{"user_id": uid} for uid in ids])
    return ids


def _profile(user_id: int, role: Role, index: int, now) -> dict:
    city = CITIES[index % len(CITIES)]
    common = {"user_id": user_id, "tipo_usuario": role, "localizacao": city, "redes_sociais": {}, "updated_at": now}
    if role == Role.CLIENT:
        return {**common, "nome": f"Empresa Carga {index}", "empresa": f"Carga Eventos {index}", "habilidades": []}
    return {**common, "nome": f"Pessoa Carga {index}", "profissao": "Garçom", "habilidades": ["Atendimento", "Bar"]}


def _job_row(company_id: int, rng: random.Random, age_minutes: int, vacancies: int, anonymous: bool) -> dict:
    from core.types import utcnow

    now = utcnow()
    row = {
        "cliente_id": company_id,
        "titulo": f"{rng.choice(TITLES)} {rng.randint(1, 999)}",
        "categoria": rng.choice(list(CATEGORIES)),
        "descricao": "Trabalho temporário para a carga de teste. " * 3,
        "localizacao": rng.choice(CITIES),
        "valor_hora": Decimal(rng.randint(20, 90)),
        "duracao": "8 horas",
        "habilidades_necessarias": ["Atendimento"],
        "status": "open",
        "vaga_status": "open",
        "is_archived": False,
        "vagas_disponiveis": vacancies,
        "anuncio_anonimo": anonymous,
        "criado_em": now - timedelta(minutes=age_minutes),
        "updated_at": now,
        "vale_transporte": rng.random() < 0.5,
        "refeicao_local": rng.random() < 0.5,
        "possui_intervalo": True,
    }
    job = Job(**row)
    job.refresh_search_fields()  # what the model's insert hook does for ORM inserts
    return {**row, "busca": job.busca, "cidade_busca": job.cidade_busca}


def _company_jobs(db: Session, company_ids: list[int], rng: random.Random) -> dict[int, SeedJob]:
    """JOBS_PER_COMPANY open, signed jobs of 3 to 5 positions per simulated company, the newest in the list."""
    rows = [
        _job_row(cid, rng, rng.randint(0, 600), rng.randint(3, 5), False)
        for cid in company_ids
        for _ in range(JOBS_PER_COMPANY)
    ]
    if not rows:
        return {}
    db.execute(insert(Job), rows)
    found = db.exec(select(Job.id, Job.cliente_id, Job.vagas_disponiveis).where(Job.cliente_id.in_(company_ids)))
    return {job_id: SeedJob(cid, vacancies) for job_id, cid, vacancies in found.all()}


def _filler_jobs(db: Session, company_ids: list[int], count: int, rng: random.Random) -> None:
    """`count` open jobs of companies nobody plays (10% anonymous), older than the simulated ones."""
    batch = []
    for index in range(count):
        batch.append(_job_row(rng.choice(company_ids), rng, 700 + index, rng.randint(1, 3), rng.random() < 0.1))
        if len(batch) == BATCH:
            db.execute(insert(Job), batch)
            batch = []
    if batch:
        db.execute(insert(Job), batch)


def _pending_applications(
    db: Session, freelancer_ids: list[int], job_ids: list[int], rng: random.Random
) -> dict[int, set[int]]:
    """PENDING_PER_FREELANCER pending applications per freelancer, spread over the simulated jobs."""
    applied: dict[int, set[int]] = {fid: set() for fid in freelancer_ids}
    if not job_ids:
        return applied
    rows = []
    for fid in freelancer_ids:
        for job_id in rng.sample(job_ids, min(PENDING_PER_FREELANCER, len(job_ids))):
            applied[fid].add(job_id)
            rows.append({"vaga_id": job_id, "freelancer_id": fid, "mensagem": "Tenho experiência."})
    if rows:
        db.execute(insert(Application), rows)
    return applied


def _accept_some(db: Session, seeded: Seeded, freelancer_ids: list[int], rng: random.Random) -> list:
    """Accept one application of ACCEPTED_SHARE of the freelancers, through the service; their chats."""
    from services.common.errors import ServiceError
    from services.shifts import application_answers

    chats = []
    for fid in rng.sample(freelancer_ids, round(len(freelancer_ids) * ACCEPTED_SHARE)):
        job_id = min(seeded.applied[fid])
        company_id = seeded.jobs[job_id].company_id
        app_id = db.exec(
            select(Application.id).where(Application.vaga_id == job_id, Application.freelancer_id == fid)
        ).one()
        try:
            with db.begin_nested():
                chat_id = application_answers.accept(db, company_id, app_id)
        except ServiceError:  # the job is full already
            continue
        chats.append((chat_id, company_id, fid))
    return chats


def _sessions(db: Session, user_ids: list[int]) -> list[Member]:
    from core.settings import get_settings
    from services.accounts import sessions

    name = get_settings().session_cookie_name
    return [Member(uid, f"{name}={sessions.create(db, uid, remember=True)[0]}") for uid in user_ids]
