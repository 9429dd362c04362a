"""Public job search and listing: the service the /jobs page calls, against the bare SQL it needs.

The baseline is the same two statements (count + one page) executed directly, returning raw rows;
the ratio shows what the service adds (query building, ORM, formatting of money and dates).
Absolute p50/p95/p99 are printed as context. Sizes: BENCH_JOBS (default 20000). Engines: SQLite
always; PostgreSQL too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server database.
"""

import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal

from alembic.config import Config
from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session

from alembic import command
from core.catalog import CATEGORIES, CITIES
from core.db import make_engine
from core.text import fold
from core.types import utcnow
from models import Job, Profile, Role, User
from models.job import SEARCH_SEPARATOR
from services import jobs

REPEAT = int(os.environ.get("BENCH_REPEAT", "60"))
TITLES = [
    "Garçom",
    "Recepcionista",
    "Chef de cozinha",
    "Bartender",
    "Auxiliar de limpeza",
    "Fotógrafo",
    "DJ",
    "Segurança",
    "Copeiro",
    "Camareira",
    "Promotor de eventos",
    "Designer gráfico",
    "Músico",
    "Manobrista",
    "Cozinheiro",
    "Hostess",
    "Sommelier",
    "Confeiteiro",
    "Barista",
    "Mensageiro",
]
SCENARIOS: list[tuple[str, dict]] = [
    ("list, page 1", {}),
    ("search 'garcom' (~5%)", {"search": "garcom"}),
    ("city Recife", {"city": "Recife"}),
    ("category eventos, page 50", {"category": "eventos", "page": 50}),
    ("search + city + category", {"search": "chef", "city": "São Paulo", "category": "gastronomia"}),
    ("deep page 500", {"page": 500}),
]


def _migrate(url: str) -> None:
    cfg = Config("alembic.ini")
    cfg.attributes["database_url"] = url
    cfg.attributes["skip_logging"] = True
    command.upgrade(cfg, "head")


def _fill(engine: Engine, count: int) -> None:
    """Bulk-insert `count` open jobs from 200 companies, about 5% of them 'Garçom'."""
    rng = random.Random(42)
    now = utcnow()
    with Session(engine) as db:
        users = [
            {
                "email": f"b{i}@bench.test",
                "password_hash": "x",
                "role": Role.CLIENT,
                "created_at": now,
                "is_active": True,
            }
            for i in range(200)
        ]
        db.execute(insert(User), users)
        ids = [row[0] for row in db.execute(text("SELECT id FROM users ORDER BY id")).all()]
        db.execute(
            insert(Profile),
            [
                {
                    "user_id": uid,
                    "tipo_usuario": Role.CLIENT,
                    "nome": f"Empresa {uid}",
                    "empresa": f"Empresa {uid}",
                    "habilidades": [],
                    "redes_sociais": {},
                    "updated_at": now,
                }
                for uid in ids
            ],
        )
        batch = []
        for i in range(count):
            title = TITLES[i % len(TITLES)] + f" {i}"
            slug = rng.choice(list(CATEGORIES))
            city = rng.choice(CITIES)
            batch.append(
                {
                    "cliente_id": rng.choice(ids),
                    "titulo": title,
                    "categoria": slug,
                    "descricao": "Descrição " * 5,
                    "localizacao": city,
                    "valor_hora": Decimal(rng.randint(20, 90)),
                    "duracao": "",
                    "habilidades_necessarias": [],
                    "status": "open",
                    "vaga_status": "open",
                    "is_archived": rng.random() < 0.05,
                    "vagas_disponiveis": 1,
                    "criado_em": now - timedelta(minutes=i),
                    "updated_at": now,
                    "vale_transporte": False,
                    "refeicao_local": False,
                    "possui_intervalo": False,
                    "anuncio_anonimo": rng.random() < 0.1,
                    "busca": f"{fold(title)} {SEARCH_SEPARATOR} {fold(CATEGORIES[slug])} {slug}",
                    "cidade_busca": fold(city),
                }
            )
            if len(batch) == 5000:
                db.execute(insert(Job), batch)
                batch = []
        if batch:
            db.execute(insert(Job), batch)
        db.commit()
    with engine.connect() as conn:
        conn.execute(text("ANALYZE"))
        conn.commit()


def _bare(engine: Engine, filters: dict) -> Callable[[], None]:
    """The two statements the service runs, built with the same conditions, fetched raw."""
    from sqlalchemy import func, select

    conditions = jobs._filters(filters.get("search", ""), filters.get("city", ""), filters.get("category", ""), None)
    count_stmt = select(func.count()).select_from(Job).where(*conditions)
    page = filters.get("page", 1)

    def run() -> None:
        with engine.connect() as conn:
            total = conn.execute(count_stmt).scalar_one()
            pages = max(1, -(-total // 10))
            current = min(max(1, page), pages)
            stmt = (
                select(
                    Job.id,
                    Job.titulo,
                    Job.categoria,
                    Job.localizacao,
                    Job.valor_hora,
                    Job.criado_em,
                    Job.anuncio_anonimo,
                    Profile.empresa,
                    Profile.nome,
                )
                .join(Profile, Profile.user_id == Job.cliente_id, isouter=True)
                .where(*conditions)
                .order_by(Job.criado_em.desc(), Job.id.desc())
                .offset((current - 1) * 10)
                .limit(10)
            )
            conn.execute(stmt).all()

    return run


def _service(engine: Engine, filters: dict) -> Callable[[], None]:
    def run() -> None:
        with Session(engine) as db:
            jobs.list_public_jobs(db, **filters)

    return run


def _times(fn: Callable[[], None]) -> list[float]:
    for _ in range(5):
        fn()
    samples = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _pct(samples: list[float], q: int) -> float:
    return statistics.quantiles(samples, n=100)[q - 1]


def _report(engine_name: str, engine: Engine, count: int) -> None:
    print(f"\n== job search on {engine_name}, {count:,} jobs, {REPEAT} runs each (ms) ==")
    print(f"{'scenario':<32}{'bare p50':>10}{'svc p50':>10}{'svc p95':>10}{'svc p99':>10}{'ratio':>8}")
    for name, filters in SCENARIOS:
        bare = _times(_bare(engine, filters))
        service = _times(_service(engine, filters))
        ratio = statistics.median(service) / statistics.median(bare)
        print(
            f"{name:<32}{statistics.median(bare):>10.2f}{statistics.median(service):>10.2f}"
            f"{_pct(service, 95):>10.2f}{_pct(service, 99):>10.2f}{ratio:>7.2f}x"
        )


def _postgres_url() -> str | None:
    base = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    return base if base and base.startswith("postgresql") else None


def main() -> None:
    """Run the benchmark on SQLite, and on PostgreSQL when configured."""
    count = int(os.environ.get("BENCH_JOBS", "20000"))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        _migrate(url)
        engine = make_engine(url)
        _fill(engine, count)
        _report("SQLite", engine, count)
        engine.dispose()
    server = _postgres_url()
    if server:
        name = f"turno_bench_{uuid.uuid4().hex[:8]}"
        admin = create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = make_url(server).set(database=name).render_as_string(hide_password=False)
        try:
            _migrate(url)
            engine = make_engine(url)
            _fill(engine, count)
            _report("PostgreSQL", engine, count)
            engine.dispose()
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


if __name__ == "__main__":
    main()
