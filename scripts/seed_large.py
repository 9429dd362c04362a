"""Fill a database with realistic pt-BR data at scale, with bulk inserts (for benchmarks and load tests).

    python -m scripts.seed_large --jobs 200000 --companies 20000 --freelancers 100000 \
        --applications 1000000 --chats 50000 --messages 2000000

Works on SQLite and PostgreSQL (DATABASE_URL). It appends: run it on an empty database at head.
Everyone's password is the demo password; nobody can be mistaken for a real person.
"""

import argparse
import random
import time
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from core.catalog import CITIES
from core.db import get_engine
from core.security import hash_password
from core.text import city_key
from core.types import utcnow
from models import Application, Chat, Job, Message, Profile, Role, User, UserPreferences
from models.job import search_text
from scripts.seed import DEMO_PASSWORD
from services.jobs.bulk_load import jobs_loading, settle

BATCH = 10_000
FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Diego",
    "Eduarda",
    "Felipe",
    "Gabriela",
    "Henrique",
    "Isabela",
    "João",
    "Larissa",
    "Marcos",
    "Natália",
    "Otávio",
    "Paula",
    "Rafael",
    "Sofia",
    "Thiago",
    "Vitória",
    "Wesley",
]
LAST = [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Rodrigues",
    "Ferreira",
    "Alves",
    "Pereira",
    "Lima",
    "Gomes",
    "Costa",
    "Ribeiro",
    "Martins",
    "Carvalho",
    "Almeida",
    "Lopes",
    "Soares",
    "Fernandes",
    "Vieira",
    "Barbosa",
]
BUSINESS = ["Hotel", "Restaurante", "Bistrô", "Pousada", "Buffet", "Bar", "Espaço de Eventos", "Cafeteria"]
ROLES = {
    "hotel": ["Recepcionista", "Camareira", "Mensageiro", "Concierge"],
    "gastronomia": ["Chef de cozinha", "Confeiteiro", "Cozinheiro", "Auxiliar de cozinha"],
    "restaurante": ["Garçom", "Bartender", "Hostess", "Sommelier"],
    "eventos": ["Promotor de eventos", "Segurança", "Copeiro", "Cerimonialista"],
    "musica": ["DJ", "Músico", "Técnico de som"],
    "fotografia": ["Fotógrafo", "Videomaker"],
    "design": ["Designer gráfico", "Decorador"],
    "outros": ["Manobrista", "Auxiliar de limpeza", "Motorista"],
}
MESSAGES = [
    "Olá! Podemos confirmar o horário?",
    "Sim, chego às 18h.",
    "Perfeito, obrigado!",
    "Qual o traje?",
    "Camisa social preta.",
    "Combinado, até lá.",
]


def _batches(rows: Iterator[dict], size: int = BATCH) -> Iterator[list[dict]]:
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _insert(engine: Engine, table, rows: Iterator[dict]) -> int:
    count = 0
    # Jobs and profiles have row triggers (search index, list token): off during the load, redone once.
    with engine.begin() as conn, jobs_loading(conn) if table in (Job, Profile) else nullcontext():
        for batch in _batches(rows):
            conn.execute(insert(table), batch)
            count += len(batch)
    return count


def _ids(engine: Engine, column, *where) -> list[int]:
    with engine.connect() as conn:
        return [row[0] for row in conn.execute(select(column).where(*where).order_by(column))]


def seed_large(engine: Engine, args: argparse.Namespace, rng: random.Random) -> dict[str, float]:
    """Insert everything; returns seconds per table."""
    now = utcnow()
    password = hash_password(DEMO_PASSWORD)
    timings: dict[str, float] = {}
    tag = f"{int(time.time())}"

    def timed(name: str, table, rows: Iterator[dict]) -> None:
        start = time.perf_counter()
        _insert(engine, table, rows)
        timings[name] = time.perf_counter() - start

    def users(role: Role, count: int) -> Iterator[dict]:
        for i in range(count):
            yield {
                "email": f"{role.value}{i}.{tag}@carga.turno.test",
                "password_hash": password,
                "role": role,
                "email_confirmed_at": now,
                "is_active": True,
                "created_at": now - timedelta(days=rng.randint(0, 900)),
            }

    timed("users", User, users(Role.CLIENT, args.companies))
    companies = _ids(engine, User.id, User.role == Role.CLIENT, User.email.like(f"%.{tag}@carga.turno.test"))
    timed("users (freelancers)", User, users(Role.FREELANCER, args.freelancers))
    freelancers = _ids(engine, User.id, User.role == Role.FREELANCER, User.email.like(f"%.{tag}@carga.turno.test"))

    def profile(uid: int, role: Role, **fields) -> dict:
        base = {
            "user_id": uid,
            "tipo_usuario": role,
            "nome": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "profissao": "",
            "empresa": "",
            "industria": "",
            "localizacao": rng.choice(CITIES),
            "habilidades": [],
            "redes_sociais": {},
            "updated_at": now,
        }
        return {**base, **fields}

    def profiles() -> Iterator[dict]:
        for uid in companies:
            yield profile(
                uid, Role.CLIENT, empresa=f"{rng.choice(BUSINESS)} {rng.choice(LAST)} {uid}", industria="hotel"
            )
        for uid in freelancers:
            slug = rng.choice(list(ROLES))
            yield profile(
                uid, Role.FREELANCER, profissao=rng.choice(ROLES[slug]), habilidades=["Atendimento", "Pontualidade"]
            )

    timed("profiles", Profile, profiles())
    timed("preferences", UserPreferences, ({"user_id": uid} for uid in companies + freelancers))

    def jobs() -> Iterator[dict]:
        for i in range(args.jobs):
            slug = rng.choice(list(ROLES))
            title = f"{rng.choice(ROLES[slug])} {rng.choice(['para evento', 'fim de semana', 'temporada', 'noturno'])}"
            city = rng.choice(CITIES)
            status = "open" if rng.random() < 0.8 else rng.choice(["in_progress", "closed", "archived"])
            yield {
                "cliente_id": rng.choice(companies),
                "titulo": title,
                "categoria": slug,
                "descricao": f"{title} em {city}. Procuramos profissional pontual e experiente.",
                "localizacao": city,
                "valor_hora": Decimal(rng.randint(18, 150)),
                "duracao": "6 horas",
                "habilidades_necessarias": ["Pontualidade"],
                "status": status,
                "vaga_status": status if status != "archived" else "open",  # services/jobs/job_lifecycle.py
                "is_archived": status == "archived",
                "vagas_disponiveis": rng.randint(1, 3),
                "criado_em": now - timedelta(minutes=i),
                "updated_at": now,
                "vale_transporte": rng.random() < 0.5,
                "refeicao_local": rng.random() < 0.5,
                "possui_intervalo": True,
                "anuncio_anonimo": rng.random() < 0.1,
                "busca": search_text(title, slug, city, ""),
                "cidade_busca": city_key(city),
            }

    timed("jobs", Job, jobs())
    with engine.connect() as conn:
        rows = conn.execute(
            select(Job.id, Job.cliente_id, Job.vagas_disponiveis).where(
                Job.cliente_id.between(companies[0], companies[-1])
            )
        ).all()
    owners = {job_id: owner for job_id, owner, _ in rows}
    seats = {job_id: vacancies for job_id, _, vacancies in rows}  # accepted never exceed vacancies
    job_ids = list(owners)

    pairs: set[tuple[int, int]] = set()
    hired = 0

    def applications() -> Iterator[dict]:
        nonlocal hired
        target = min(args.applications, len(job_ids) * len(freelancers))
        while len(pairs) < target:
            pair = (rng.choice(job_ids), rng.choice(freelancers))
            if pair in pairs:
                continue
            pairs.add(pair)
            accepted = hired < args.chats and seats[pair[0]] > 0
            if accepted:
                hired += 1
                seats[pair[0]] -= 1
            yield {
                "vaga_id": pair[0],
                "freelancer_id": pair[1],
                "status": "accepted" if accepted else "pending",
                "valor_proposto": Decimal(rng.randint(18, 150)) if rng.random() < 0.5 else None,
                "mensagem": "Tenho experiência e disponibilidade.",
                "created_at": now,
                "updated_at": now,
            }

    timed("applications", Application, applications())
    with engine.connect() as conn:
        accepted = conn.execute(
            select(Application.id, Application.vaga_id, Application.freelancer_id)
            .where(Application.status == "accepted", Application.freelancer_id.between(freelancers[0], freelancers[-1]))
            .order_by(Application.id.desc())
            .limit(args.chats)
        ).all()
    timed(
        "chats",
        Chat,
        (
            {
                "client_id": owners[job],
                "freelancer_id": free,
                "application_id": app_id,
                "created_at": now,
                "updated_at": now,
            }
            for app_id, job, free in accepted
            if job in owners
        ),
    )
    with engine.connect() as conn:
        chats = conn.execute(
            select(Chat.id, Chat.client_id, Chat.freelancer_id).order_by(Chat.id.desc()).limit(args.chats)
        ).all()

    def messages() -> Iterator[dict]:
        per_chat = max(1, args.messages // max(1, len(chats)))
        for chat_id, client_id, freelancer_id in chats:
            for n in range(per_chat):
                yield {
                    "chat_id": chat_id,
                    "sender_id": client_id if n % 2 == 0 else freelancer_id,
                    "content": MESSAGES[n % len(MESSAGES)],
                    "created_at": now - timedelta(minutes=per_chat - n),
                }

    timed("messages", Message, messages())
    start = time.perf_counter()
    settle(engine)  # statistics (and PostgreSQL's visibility map), as a live database has them
    timings["analyze"] = time.perf_counter() - start
    return timings


def main() -> None:
    """Parse the sizes and seed the configured database."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200_000)
    parser.add_argument("--companies", type=int, default=20_000)
    parser.add_argument("--freelancers", type=int, default=100_000)
    parser.add_argument("--applications", type=int, default=1_000_000)
    parser.add_argument("--chats", type=int, default=50_000)
    parser.add_argument("--messages", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    engine = get_engine()
    start = time.perf_counter()
    timings = seed_large(engine, args, random.Random(args.seed))
    for name, seconds in timings.items():
        print(f"{name:<22}{seconds:>8.1f} s")
    print(f"{'total':<22}{time.perf_counter() - start:>8.1f} s on {engine.url.get_backend_name()}")


if __name__ == "__main__":
    main()
