"""Public job search and listing: the /jobs page's state handler against the bare SQL it needs.

Three timings per scenario: the **bare SQL** (the same two statements, count and one page, run
directly and fetched raw: the baseline), the service (`services.jobs.jobs.list_public_jobs`: query
building, ORM rows, formatting) and the **state handler** (`JobsState.load`, called as Reflex
calls it with the filters in the URL: reading the query, the service, the filter chips and the
pager). The ratio printed is handler / bare. Sizes: BENCH_JOBS, a comma list (default 200000;
"200000,1000000" adds the million). Engines: SQLite always; PostgreSQL too when
BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server. BENCH_QUICK=1: 2,000 jobs, 5 runs.
"""

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from alembic.config import Config
from sqlalchemy import insert, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from alembic import command
from bench import harness
from core.catalog import CATEGORIES, CITIES
from core.db import make_engine
from core.text import city_key
from core.types import utcnow
from models import Job, Profile, Role, User
from models.job import search_text
from services.jobs import job_list_cache, jobs
from services.jobs.bulk_load import jobs_loading, settle

REPEAT = 5 if harness.quick() else int(os.environ.get("BENCH_REPEAT", "60"))
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
        with jobs_loading(db.connection()):  # row triggers off, the search index rebuilt once
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
                shown = rng.random() >= 0.05  # one job in twenty archived (services/jobs/job_lifecycle.py)
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
                        "status": "open" if shown else "archived",
                        "vaga_status": "open",
                        "is_archived": not shown,
                        "vagas_disponiveis": 1,
                        "criado_em": now - timedelta(minutes=i),
                        "updated_at": now,
                        "vale_transporte": False,
                        "refeicao_local": False,
                        "possui_intervalo": False,
                        "anuncio_anonimo": rng.random() < 0.1,
                        "busca": search_text(title, slug, city, ""),
                        "cidade_busca": city_key(city),
                    }
                )
                if len(batch) == 5000:
                    db.execute(insert(Job), batch)
                    batch = []
            if batch:
                db.execute(insert(Job), batch)
        db.commit()
    settle(engine)


def _bare(engine: Engine, filters: dict) -> Callable[[], None]:
    """The two statements the service runs (the service's own builders, on the filters as it folds them), fetched raw.

    The service folds the search term and the city ('Recife' is stored as 'recife') and resolves the
    category's slug before building its conditions; given the raw values, the city's statements
    matched nothing and timed an empty answer.
    """
    conditions = jobs.filters(
        jobs.search_term(filters.get("search", "")),
        city_key(filters.get("city", "")),
        jobs.canonical_category(filters.get("category", "")),
        None,
        engine.dialect.name,
    )
    count_stmt = jobs.count_statement(conditions)
    page = filters.get("page", 1)

    def run() -> None:
        with engine.connect() as conn:
            total = conn.execute(count_stmt).scalar_one()
            pages = max(1, -(-total // jobs.JOBS_PAGE_SIZE))
            conn.execute(jobs.page_statement(conditions, min(max(1, page), pages))).all()

    return run


def _service(engine: Engine, filters: dict) -> Callable[[], None]:
    def run() -> None:
        with Session(engine) as db:
            jobs.list_public_jobs(db, **filters)

    return run


def _handler(filters: dict) -> Callable[[], None]:
    """JobsState.load on a fresh state at /jobs?<filters>, as a page load calls it."""
    from app.pages.jobs import JobsState
    from tests.support.state_harness import run as run_handler
    from tests.support.state_harness import state_for

    query = {key: str(value) for key, value in filters.items()}

    def run() -> None:
        state = state_for(JobsState, path="/jobs", query=query)
        if run_handler(state, JobsState.load):
            raise RuntimeError(f"JobsState.load failed for {filters}")

    return run


def _cold(fn: Callable[[], None]) -> Callable[[], None]:
    """`fn` with the job list cache emptied first, so every call reaches the database."""

    def run() -> None:
        job_list_cache.clear()
        fn()

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


@dataclass
class Row:
    """One scenario's timings (ms) on one engine and size."""

    engine: str
    jobs: int
    scenario: str
    bare: list[float]
    service: list[float]
    handler: list[float]
    cached: list[float]

    @property
    def ratio(self) -> float:
        """Handler p50 over bare p50 (goal ≤ 2)."""
        return statistics.median(self.handler) / statistics.median(self.bare)


def _measure(engine_name: str, engine: Engine, count: int) -> list[Row]:
    rows = []
    for name, filters in SCENARIOS:
        bare = _times(_bare(engine, filters))
        service = _times(_cold(_service(engine, filters)))
        handler = _times(_cold(_handler(filters)))
        cached = _times(_handler(filters))
        rows.append(Row(engine_name, count, name, bare, service, handler, cached))
    return rows


def _sizes() -> list[int]:
    if harness.quick():
        return [2000]
    return [int(n) for n in os.environ.get("BENCH_JOBS", "200000").split(",") if n.strip()]


def run() -> list[Row]:
    """Fill a throwaway database per engine and size, and time every scenario."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in _sizes():
            for engine_name in harness.engines():
                with harness.database(engine_name, Path(tmp), f"search{count}") as url:
                    _migrate(url)
                    engine = make_engine(url)
                    _fill(engine, count)
                    harness.use_database(url)
                    measured = _measure("SQLite" if engine_name == "sqlite" else "PostgreSQL", engine, count)
                    if not harness.quick():
                        _print(measured)  # each engine and size as soon as it is measured
                    rows.extend(measured)
                    engine.dispose()
    return rows


def _print(rows: list[Row]) -> None:
    print(f"\nJob search and listing, {REPEAT} runs per scenario after 5 warm-up runs (ms)")
    print("Service and handler with the list cache emptied before each call; 'cached': the handler on a warm cache.")
    print(
        "| engine | jobs | scenario | bare SQL p50 | service p50 | handler p50 / p95 / p99 | handler / bare "
        "| cached handler p50 / p95 | cached / bare |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        bare = statistics.median(row.bare)
        print(
            f"| {row.engine} | {row.jobs:,} | {row.scenario} | {bare:.2f} | "
            f"{statistics.median(row.service):.2f} | {harness.summary(row.handler)} | {row.ratio:.2f}x | "
            f"{statistics.median(row.cached):.2f} / {harness.pct(row.cached, 95):.2f} | "
            f"{statistics.median(row.cached) / bare:.2f}x |"
        )
    worst = max(harness.pct(row.handler, 95) for row in rows)
    print(f"Worst handler p95: {worst:.1f} ms (goals: ≤ 50 ms when ≤ 5% of jobs match, ≤ 150 ms worst case)")


def main() -> None:
    """Run and print the table."""
    rows = run()
    if harness.quick():
        _print(rows)


if __name__ == "__main__":
    main()
