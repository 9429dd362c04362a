"""The contested objects of the race tests: bulk-created users, jobs and applications, and fresh databases.

Shared by the rounds of tests/security/test_concurrency_rounds.py and the forced interleavings of
tests/security/test_forced_interleavings.py, so both contest the same kind of object.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine, insert, text
from sqlmodel import Session

import core.db
from alembic import command
from bench.harness import database, postgres_url
from core.security import new_token, token_digest
from core.settings import get_settings
from core.types import utcnow
from models import Application, EmailToken, Job, Profile, Role, TokenPurpose, User
from tests.support.shift_form import shift_fields
from tests.unit.conftest import alembic_config

FREE_LIMIT_MESSAGE = (
    "Seu plano Gratuito permite até 2 vagas ativas. Encerre ou arquive uma vaga, ou conheça os planos pagos."
)
JOB_FORM = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo",
    **shift_fields(),
}
ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set"),
    ),
]


@contextmanager
def migrated_engine(kind: str, directory: Path, name: str, connections: int) -> Iterator[Engine]:
    """An engine configured as the app's (WAL on SQLite) on a new database at head, set as the app's engine.

    Args:
        kind: 'sqlite' or 'postgresql' (on the server of TEST_DATABASE_URL).
        directory: Where a SQLite file goes.
        name: The database's name (a prefix on PostgreSQL).
        connections: The pool's size.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APP_ENV", "test")
        patch.setenv("SMTP_HOST", "")
        patch.setenv("SITE_URL", "http://turno.test")
        patch.setenv("BCRYPT_ROUNDS", "4")
        get_settings.cache_clear()
        with database(kind, directory, name) as url:
            command.upgrade(alembic_config(url), "head")
            eng = core.db.make_engine(url, connections=connections)
            patch.setattr(core.db, "get_engine", lambda: eng)
            try:
                yield eng
            finally:
                eng.dispose()
        get_settings.cache_clear()


def insert_ids(db: Session, model, rows: list[dict]) -> list[int]:
    """Insert rows in one statement per batch and return their ids in the rows' order."""
    table = model.__table__
    statement = insert(table).returning(
        table.c.id if "id" in table.c else table.c.user_id, sort_by_parameter_order=True
    )
    return list(db.execute(statement, rows).scalars()) if rows else []


def users(db: Session, role: Role, names: list[str]) -> list[int]:
    tag = f"{time.time_ns()}"
    ids = insert_ids(
        db,
        User,
        [
            {"email": f"{role.value}{n}.{tag}@concorrencia.turno.test", "password_hash": "x", "role": role}
            for n in range(len(names))
        ],
    )
    insert_ids(
        db,
        Profile,
        [
            {"user_id": uid, "tipo_usuario": role, "nome": nome, "habilidades": [], "redes_sociais": {}}
            for uid, nome in zip(ids, names, strict=True)
        ],
    )
    return ids


def open_jobs(db: Session, company_ids: list[int], title: str) -> list[int]:
    """One open job per company id, each with its own 8-hour shift 9 hours after the previous one.

    Distinct shifts: the rounds reuse their freelancers, who hold one shift at a time (services/shifts/overlaps.py).
    """
    now = utcnow()
    first = now.replace(minute=0, second=0, microsecond=0) + timedelta(days=1)
    return insert_ids(
        db,
        Job,
        [
            {
                "cliente_id": company_id,
                "titulo": f"{title} {n}",
                "categoria": "eventos",
                "descricao": "Vaga disputada por tentativas simultâneas.",
                "localizacao": "São Paulo",
                "valor_hora": Decimal("30.00"),
                "vagas_disponiveis": 1,
                "habilidades_necessarias": [],
                "inicio_em": first + timedelta(hours=9 * n),
                "fim_em": first + timedelta(hours=9 * n + 8),
                "criado_em": now,
                "updated_at": now,
            }
            for n, company_id in enumerate(company_ids)
        ],
    )


def applications_for(db: Session, pairs: list[tuple[int, int]]) -> list[int]:
    return insert_ids(db, Application, [{"vaga_id": job, "freelancer_id": free} for job, free in pairs])


def rows(engine: Engine, sql: str, **params) -> list:
    with engine.connect() as conn:
        return list(conn.execute(text(sql), params))


@dataclass(frozen=True)
class Hiring:
    """A job with one position, its company and its pending applications."""

    company_id: int
    job_id: int
    application_ids: list[int]


def hiring_rounds(engine: Engine, rounds: int, applicants: int, title: str) -> list[Hiring]:
    """`rounds` jobs of one company, each with one position and `applicants` pending applications."""
    with core.db.session_scope(engine) as db:
        [company] = users(db, Role.CLIENT, ["Empresa Disputada"])
        freelancers = users(db, Role.FREELANCER, [f"Candidata {n}" for n in range(applicants)])
        jobs = open_jobs(db, [company] * rounds, title)
        ids = applications_for(db, [(job, free) for job in jobs for free in freelancers])
    return [Hiring(company, job, ids[n * applicants : (n + 1) * applicants]) for n, job in enumerate(jobs)]


@dataclass(frozen=True)
class Opening:
    """An open job and the freelancer who applies to it."""

    freelancer_id: int
    job_id: int


def opening_rounds(engine: Engine, rounds: int) -> list[Opening]:
    """`rounds` open jobs of one company and one freelancer who has applied to none of them."""
    with core.db.session_scope(engine) as db:
        [company] = users(db, Role.CLIENT, ["Empresa Procurada"])
        [freelancer] = users(db, Role.FREELANCER, ["Candidata Insistente"])
        jobs = open_jobs(db, [company] * rounds, "Vaga candidatura")
    return [Opening(freelancer, job) for job in jobs]


def company_rounds(engine: Engine, rounds: int) -> list[int]:
    """`rounds` free-plan companies, each with one open job: one below the free plan's two."""
    with core.db.session_scope(engine) as db:
        companies = users(db, Role.CLIENT, [f"Empresa {n}" for n in range(rounds)])
        open_jobs(db, companies, "Vaga existente")
    return companies


NEW_PASSWORD = {"password": "NovaSenha123", "confirmPassword": "NovaSenha123"}


@dataclass(frozen=True)
class Link:
    """An e-mailed single-use link: the raw token and what it is for."""

    token: str
    purpose: TokenPurpose


def links(engine: Engine, count: int) -> list[Link]:
    """`count` unused, unexpired tokens of new unconfirmed freelancers, alternately reset and confirmation links."""
    with core.db.session_scope(engine) as db:
        people = users(db, Role.FREELANCER, [f"Pessoa {n}" for n in range(count)])
        purposes = [TokenPurpose.RESET_PASSWORD if n % 2 == 0 else TokenPurpose.CONFIRM_EMAIL for n in range(count)]
        tokens = [new_token() for _ in range(count)]
        expires = utcnow() + timedelta(hours=1)
        insert_ids(
            db,
            EmailToken,
            [
                {"user_id": uid, "purpose": purpose, "token_hash": token_digest(token), "expires_at": expires}
                for uid, purpose, token in zip(people, purposes, tokens, strict=True)
            ],
        )
    return [Link(token, purpose) for token, purpose in zip(tokens, purposes, strict=True)]
