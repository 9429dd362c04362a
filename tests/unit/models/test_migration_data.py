"""Migrations and backups keep every row: 10,000 rows over every table, on SQLite and PostgreSQL.

The database is seeded at head with bulk inserts (about 10,000 rows spread over all sixteen
tables, with accents, JSON, decimals, dates and nulls), and a checksum of every table (its rows in
primary-key order) is recorded. Then:
- migrations: downgrade one revision at a time to 0001 (every row must still be there at each
  step: the downgrades of 0002..0005 drop derived columns and indexes only), upgrade to head again
  (0002 and 0003 recompute the derived search columns) and compare every table's checksum;
- backups: `scripts.backup.create`, damage the database (rows deleted, changed and added, a table
  emptied), `scripts.backup.restore`, and compare every table's checksum. On SQLite the backup is
  taken while another connection keeps writing, as it would be with the app running.
"""

import hashlib
import random
import sqlite3
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, delete, func, insert, select, text, update
from sqlalchemy.pool import NullPool
from sqlmodel import SQLModel

from alembic import command
from core import cities
from core.catalog import CATEGORIES, CITIES
from core.text import city_key
from core.types import utcnow
from models import (
    Application,
    AuthSession,
    Block,
    ChannelConsent,
    Chat,
    ContactMessage,
    EmailToken,
    Falta,
    HiddenJob,
    Hiring,
    HiringEvent,
    Invite,
    Job,
    LoginAttempt,
    Message,
    MoneyMovement,
    Notification,
    OutboxEmail,
    PayoutAccount,
    Profile,
    ProtectedPayment,
    PushDevice,
    PushMessage,
    Rating,
    ReviewRequest,
    StripeEvent,
    Subscription,
    TeamMember,
    User,
    UserPreferences,
    WhatsAppContact,
    WhatsAppMessage,
)
from scripts import backup

COMPANIES = 200
FREELANCERS = 800
JOBS = 1000
APPLICATIONS = 2000
CHATS = 500
MESSAGES_PER_CHAT = 3
DOWNGRADE_STEPS = ["0012", "0010", "0009", "0008", "0007", "0006", "0005", "0004", "0003", "0002", "0001"]
# Columns a revision adds without data older revisions could keep: downgrading below it drops
# them by design, and upgrading fills them afresh. auth_sessions.last_seen_at (0006) is the
# session's last activity; re-created as 'now', it only lets a session idle up to one more period.
# login_attempts.trusted (0010) marks failures typed by a trusted browser; re-created as false, the
# last 15 minutes' trusted failures count as a stranger's, which can only lock out sooner.
# jobs' shift columns (0013) are derived again from the date and duration, with a new attendance secret;
# `busca` (0015) holds the address, which 0013 fills afresh from the location. A vaga's payment
# mode and a company's CNPJ (0019) return as 'direto' and empty: such vagas are paid directly and
# the company gives its CNPJ again before its next protected payment.
FRESH_AFTER_UPGRADE = {
    "profiles": {"cnpj", "selo_pontual", "selo_resumo", "selo_dados", "selo_em"},  # 0022: recomputed by the timer
    "auth_sessions": {"last_seen_at"},
    "login_attempts": {"trusted"},
    "jobs": {
        "inicio_em",
        "fim_em",
        "intervalo_min",
        "endereco",
        "ponto_lat",
        "ponto_lng",
        "serie_id",
        "codigo_segredo",
        "busca",
        "pagamento",
        "equipe_ate",  # 0021: a team-first vaga comes back open to everyone
        "privada",  # 0021: a 'Contratar novamente' vaga comes back as an ordinary vaga (its invite is gone)
        "o_que_levar",  # 0027: 'Traje e o que levar' comes back blank; the company says it again
    },
}
# The shift loop's own records (0013): a downgrade below it drops them by design, and upgrading
# rebuilds a hiring per accepted application (tests/unit/models/test_shift_migration.py checks that
# rebuild). The payout data (0018: CPF, fiscal data, Stripe account) go with their table, and a
# freelancer gives them again. Protected payments and their ledger (0019) belong to hirings and go
# with them. The backup test keeps them like every other table.
DROPPED_BY_DOWNGRADE = {
    "hirings",
    "hiring_events",
    "faltas",
    "review_requests",
    "payout_accounts",
    "protected_payments",
    "money_movements",
    "team_members",  # a company's team (0020): rebuilt by the company after a downgrade below it
    "blocks",  # blocks both ways (0021): given again after a downgrade below it
    "invites",  # 'Contratar novamente' invites (0021): short-lived, sent again
    "push_devices",  # push subscriptions (0023): the browser subscribes again after a downgrade below it
    "push_outbox",  # pushes waiting to be sent (0023): minutes old, they go with their devices
    "channel_consents",  # consents per channel (0023): given again with the channel
    "whatsapp_contacts",  # confirmed WhatsApp numbers (0024): confirmed again with a code
    "whatsapp_messages",  # template messages and their delivery status (0024): a short log
    "hidden_jobs",  # 'Não quero ver esta vaga' (0026): hidden again after a downgrade below it
}
# Tables that hold no one's data: job_list_version (0007) and session_version (0008) are one row
# each with a random cache token, created afresh by their revision (a new token after upgrading is
# their purpose). rate_events (0009) counts the last hour's registrations, recovery requests and
# account e-mails: a downgrade below 0009 forgets them, which only lifts those limits for an hour.
# trusted_devices (0010) only exempts a browser from lockouts strangers cause; a downgrade below
# 0010 forgets that trust, and each browser earns it again at its next sign-in.
NOT_DATA = {"job_list_version", "session_version", "rate_events", "trusted_devices"}
NAMES = ["Ana Souza", "João Silva", "Conceição Araújo", "Mãe Menininha", "Zé Ninguém", "Inês Müller"]


def _rows_of(engine: Engine, table, skip: set[str]) -> Iterator[tuple]:
    columns = [column for column in table.columns if column.name not in skip]
    with engine.connect() as conn:
        yield from conn.execute(select(*columns).order_by(*table.primary_key.columns))


def checksums(
    engine: Engine, skip: dict[str, set[str]] | None = None, without: set[str] = frozenset()
) -> dict[str, tuple[int, str]]:
    """Every model table's row count and the SHA-256 of its rows in primary-key order.

    Args:
        engine: The database.
        skip: Columns per table left out of the sums (see FRESH_AFTER_UPGRADE).
        without: Tables left out.
    """
    sums = {}
    for table in data_tables(without):
        digest = hashlib.sha256()
        count = 0
        for row in _rows_of(engine, table, (skip or {}).get(table.name, set())):
            digest.update(repr(tuple(row)).encode())
            count += 1
        sums[table.name] = (count, digest.hexdigest())
    return sums


def data_tables(without: set[str] = frozenset()) -> list:
    """Every model table that holds data (NOT_DATA and `without` left out), in dependency order."""
    return [table for table in SQLModel.metadata.sorted_tables if table.name not in NOT_DATA | without]


def row_counts(engine: Engine, without: set[str] = frozenset()) -> dict[str, int]:
    """Every data table's row count (readable at any revision: no column is named)."""
    with engine.connect() as conn:
        return {
            table.name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in data_tables(without)
        }


def _ids(conn, column) -> list[int]:
    return list(conn.execute(select(column).order_by(column)).scalars())


def _job_row(n: int, company_id: int, rng: random.Random, now) -> dict:
    """A job with its derived search columns computed as the app computes them on insert."""
    slug = rng.choice([*CATEGORIES, "restaurant", "events"])  # aliases of older data too
    status = rng.choice(["open", "open", "in_progress", "closed", "archived"])
    job = Job(
        cliente_id=company_id,
        titulo=f"Garçom nº {n} — Ação de Verão",
        categoria=slug,
        localizacao=cities.resolve(rng.choice(CITIES)).label,  # chosen from the list ('Curitiba, PR')
    )
    job.refresh_search_fields()
    return {
        "cliente_id": company_id,
        "titulo": job.titulo,
        "categoria": slug,
        "descricao": f"Descrição {n}: café, pão de queijo e coração.",
        "localizacao": job.localizacao,
        "valor_hora": Decimal(rng.randint(1800, 15000)) / 100 if n % 7 else None,
        "duracao": "6 horas",
        "data_necessaria": date(2026, 12, 1) + timedelta(days=n % 40) if n % 3 else None,
        "habilidades_necessarias": ["Pontualidade", "Inglês básico"][: n % 3],
        "vale_transporte": n % 2 == 0,
        "refeicao_local": n % 3 == 0,
        "possui_intervalo": True,
        "anuncio_anonimo": n % 10 == 0,
        "status": status,
        "vaga_status": status if status != "archived" else "open",  # the stage under the flag
        "vagas_disponiveis": 1 + n % 3,
        "is_archived": status == "archived",
        "criado_em": now - timedelta(minutes=n),
        "updated_at": now,
        "busca": job.busca,
        "cidade_busca": job.cidade_busca,
        "cidade_ibge": job.cidade_ibge,
        "o_que_levar": "Camisa preta, calça social e sapato fechado" if n % 4 == 0 else "",
    }


def seed(engine: Engine) -> int:
    """Insert about 10,000 rows over every table in bulk; return how many."""
    rng = random.Random(8)
    now = utcnow()
    with engine.begin() as conn:

        def put(model, rows: list[dict]) -> None:
            conn.execute(insert(model.__table__), rows)

        put(User, [
            {
                "email": f"pessoa{n}@migracao.turno.test",
                "password_hash": f"$2b$04$hash{n}",
                "role": "client" if n < COMPANIES else "freelancer",
                "email_confirmed_at": now if n % 5 else None,
                "is_active": n % 50 != 0,
                "created_at": now - timedelta(days=n % 300),
                "deleted_at": now if n % 97 == 0 else None,
            }
            for n in range(COMPANIES + FREELANCERS)
        ])  # fmt: skip
        users = _ids(conn, User.id)
        companies, freelancers = users[:COMPANIES], users[COMPANIES:]
        put(Profile, [
            {
                "user_id": uid,
                "tipo_usuario": "client" if uid in companies else "freelancer",
                "nome": rng.choice(NAMES),
                "localizacao": (location := f"{rng.choice(CITIES)}, SP"),
                "cidade_busca": city_key(location),
                "cidade_ibge": cities.city_code(location),  # 'São Paulo, SP' has one; 'Recife, SP' none
                "habilidades": ["Atendimento", "Coquetelaria"][: uid % 3],
                "redes_sociais": {"instagram": f"@pessoa{uid}"} if uid % 4 == 0 else {},
                "biografia": "Experiência em eventos. \"Aspas\", apóstrofo ' e emoji 🎉.",
                "empresa": f"Hotel Atlântico {uid}" if uid in companies else "",
                "updated_at": now,
            }
            for uid in users
        ])  # fmt: skip
        put(UserPreferences, [{"user_id": uid, "theme": "dark" if uid % 2 else "light"} for uid in users])
        put(Job, [_job_row(n, companies[n % COMPANIES], rng, now) for n in range(JOBS)])
        jobs = _ids(conn, Job.id)
        pairs = sorted({(rng.choice(jobs), rng.choice(freelancers)) for _ in range(APPLICATIONS * 2)})[:APPLICATIONS]
        put(Application, [
            {
                "vaga_id": job,
                "freelancer_id": free,
                "status": "accepted" if n < CHATS else rng.choice(["pending", "rejected"]),
                "valor_proposto": Decimal("45.50") if n % 2 else None,
                "mensagem": f"Olá, tenho interesse ({n}).",
                "created_at": now - timedelta(hours=n),
                "updated_at": now,
            }
            for n, (job, free) in enumerate(pairs)
        ])  # fmt: skip
        owner = dict(conn.execute(select(Job.id, Job.cliente_id)).all())
        accepted = conn.execute(
            select(Application.id, Application.vaga_id, Application.freelancer_id)
            .where(Application.status == "accepted")
            .order_by(Application.id)
        ).all()
        put(Chat, [
            {"client_id": owner[job], "freelancer_id": free, "application_id": app, "created_at": now,
             "updated_at": now, "client_last_read_at": now if app % 2 else None}
            for app, job, free in accepted
        ])  # fmt: skip
        chats = conn.execute(select(Chat.id, Chat.client_id, Chat.freelancer_id).order_by(Chat.id)).all()
        put(Message, [
            {"chat_id": chat, "sender_id": (client, free, None)[k], "content": f"Mensagem {k} às 18h — ok?",
             "created_at": now + timedelta(seconds=k)}
            for chat, client, free in chats
            for k in range(MESSAGES_PER_CHAT)
        ])  # fmt: skip
        put(Rating, [
            {"application_id": app, "rater_id": owner[job], "ratee_id": free, "stars": 1 + app % 5,
             "comment": "Ótimo profissional!" if app % 2 else "", "created_at": now}
            for app, job, free in accepted
        ])  # fmt: skip
        put(Notification, [
            {"user_id": users[n % len(users)], "type": "other", "message": f"Aviso nº {n}",
             "target": ["", "client_chat", "job", "company_hirings"][n % 4], "target_id": None if n % 4 in (0, 3) else n + 1,
             "read": n % 2 == 0, "created_at": now}
            for n in range(800)
        ])  # fmt: skip
        put(Subscription, [
            {"user_id": uid, "tier": "premium", "status": "active", "stripe_customer_id": f"cus_{uid}",
             "stripe_subscription_id": f"sub_{uid}", "current_period_end": now + timedelta(days=30),
             "created_at": now, "updated_at": now}
            for uid in companies[:100]
        ])  # fmt: skip
        put(AuthSession, [
            {"user_id": users[n], "token_hash": f"{n:064x}", "created_at": now, "expires_at": now + timedelta(days=7),
             "remember": n % 2 == 0}
            for n in range(200)
        ])  # fmt: skip
        put(EmailToken, [
            {"user_id": users[n], "purpose": "confirm", "token_hash": f"{n + 10**6:064x}", "created_at": now,
             "expires_at": now + timedelta(days=1), "used_at": now if n % 3 == 0 else None}
            for n in range(200)
        ])  # fmt: skip
        put(LoginAttempt, [
            {"email": f"pessoa{n}@migracao.turno.test", "address": "203.0.113.7", "succeeded": n % 2 == 0,
             "created_at": now}
            for n in range(100)
        ])  # fmt: skip
        put(ContactMessage, [
            {"name": "Açúcar Ltda.", "email": f"contato{n}@exemplo.com.br", "phone": "(11) 99999-0000",
             "subject": "duvida", "message": "Como funciona?\nLinha 2.", "created_at": now}
            for n in range(50)
        ])  # fmt: skip
        put(OutboxEmail, [
            {"to_email": f"pessoa{n}@migracao.turno.test", "subject": "Confirme seu e-mail", "body": "Olá!\n",
             "created_at": now}
            for n in range(50)
        ])  # fmt: skip
        put(Hiring, [
            {"application_id": app, "job_id": job, "company_id": owner[job], "freelancer_id": free,
             "state": "agendada", "inicio_em": now + timedelta(days=2), "fim_em": now + timedelta(days=2, hours=6),
             "valor_hora_centavos": 4550, "created_at": now, "updated_at": now}
            for app, job, free in accepted
        ])  # fmt: skip
        hirings = conn.execute(select(Hiring.id, Hiring.freelancer_id).order_by(Hiring.id)).all()
        put(HiringEvent, [
            {"hiring_id": hiring, "actor": "empresa", "action": "aceitar", "to_state": "agendada", "at": now}
            for hiring, _free in hirings
        ])  # fmt: skip
        put(Falta, [
            {"freelancer_id": free, "hiring_id": hiring, "pontos": 1, "motivo": "cancelamento",
             "created_at": now, "expires_at": now + timedelta(days=90)}
            for hiring, free in hirings[:50]
        ])  # fmt: skip
        put(ReviewRequest, [
            {"hiring_id": hiring, "requested_by": free, "kind": "revisao", "motivo": "Eu avisei no chat.",
             "created_at": now}
            for hiring, free in hirings[:20]
        ])  # fmt: skip
        put(StripeEvent, [{"id": f"evt_{n:08d}", "type": "invoice.paid", "processed_at": now} for n in range(50)])
        put(PayoutAccount, [
            {"user_id": uid, "cpf": f"{n:011d}", "regime": "mei" if n % 2 else "autonomo",
             "mei_cnpj": "12ABC34501DE35" if n % 2 else "", "municipio_ibge": 3550308 if n % 5 else None,
             "stripe_account_id": f"acct_{uid}" if n % 3 else "", "details_submitted": n % 3 == 2,
             "payouts_enabled": n % 6 == 2, "requirements_due": n % 4, "created_at": now, "updated_at": now}
            for n, uid in enumerate(freelancers[:100])
        ])  # fmt: skip
        owners = dict(conn.execute(select(Hiring.id, Hiring.company_id)).all())
        put(ProtectedPayment, [
            {"hiring_id": hiring, "company_id": owners[hiring], "kind": "aceite", "status": "pago",
             "freelancer_centavos": 27300, "fee_centavos": 3276, "fee_percent": 12,
             "checkout_session_id": f"cs_test_{hiring}", "checkout_url": "", "payment_intent_id": f"pi_{hiring}",
             "charge_id": f"ch_{hiring}", "receipt_url": "", "paid_at": now, "dispute_id": "",
             "created_at": now, "updated_at": now}
            for hiring, _free in hirings[:40]
        ])  # fmt: skip
        put(TeamMember, [
            {"company_id": company, "freelancer_id": free, "added_at": now}
            for company, free in sorted({(owners[hiring], free) for hiring, free in hirings[:60]})
        ])  # fmt: skip
        put(Block, [
            {"blocker_id": company, "blocked_id": free, "created_at": now}
            for company, free in sorted({(owners[hiring], free) for hiring, free in hirings[60:80]})
        ])  # fmt: skip
        jobs_owned = conn.execute(select(Job.id, Job.cliente_id).order_by(Job.id)).all()
        put(Invite, [
            {"job_id": job, "company_id": company, "freelancer_id": freelancers[n], "status": "pendente",
             "mensagem": "Volta sábado?", "created_at": now, "expires_at": now + timedelta(hours=24)}
            for n, (job, company) in enumerate(jobs_owned[:30])
        ])  # fmt: skip
        put(HiddenJob, [
            {"freelancer_id": freelancers[n], "job_id": job, "created_at": now}
            for n, (job, _company) in enumerate(jobs_owned[30:50])
        ])  # fmt: skip
        signed_in = conn.execute(select(AuthSession.id, AuthSession.user_id).order_by(AuthSession.id).limit(20)).all()
        put(PushDevice, [
            {"user_id": user, "session_id": session, "endpoint": f"https://fcm.googleapis.com/fcm/send/{session}",
             "p256dh": "B" + "A" * 86, "auth": "A" * 22, "name": "Chrome no Android", "created_at": now}
            for session, user in signed_in
        ])  # fmt: skip
        devices = conn.execute(select(PushDevice.id)).scalars().all()
        put(PushMessage, [
            {"device_id": device, "title": "Candidatura aceita", "body": "Você foi contratado", "url": "/",
             "attempts": 0, "due_at": now, "created_at": now}
            for device in devices
        ])  # fmt: skip
        put(ChannelConsent, [
            {"user_id": user, "channel": "push", "granted": True, "detail": "Chrome no Android", "at": now}
            for _session, user in signed_in
        ])  # fmt: skip
        put(WhatsAppContact, [
            {"user_id": user, "phone": f"55119{user:08d}", "code_hash": "", "code_attempts": 0, "confirmed_at": now,
             "last_error": ""}
            for _session, user in signed_in
        ])  # fmt: skip
        put(WhatsAppMessage, [
            {"user_id": user, "phone": f"55119{user:08d}", "template": "turno_aviso", "params": ["Seu turno começa"],
             "link": "/freelancer-dashboard", "status": "entregue", "attempts": 1, "due_at": now,
             "wamid": f"wamid.{user}", "error": "", "created_at": now}
            for _session, user in signed_in
        ])  # fmt: skip
        payments = conn.execute(select(ProtectedPayment.id, ProtectedPayment.hiring_id)).all()
        put(MoneyMovement, [
            {"hiring_id": hiring, "payment_id": payment, "kind": "cobranca", "amount_centavos": 30576,
             "stripe_id": f"ch_{hiring}", "key": f"cobranca-{payment}", "created_at": now}
            for payment, hiring in payments
        ])  # fmt: skip
    return sum(row_counts(engine).values())


@pytest.fixture
def seeded(empty_database_url: str, make_alembic_config) -> Iterator[tuple[str, Engine, dict, int]]:
    """A database at head with the seed: its URL, an engine, the checksums and the number of rows."""
    command.upgrade(make_alembic_config(empty_database_url), "head")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        total = seed(engine)
        yield empty_database_url, engine, checksums(engine), total
    finally:
        engine.dispose()


def _fts_matches(engine: Engine, term: str) -> int | None:
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as conn:
        return conn.execute(
            text("SELECT count(*) FROM jobs_busca_fts WHERE busca LIKE :t"), {"t": f"%{term}%"}
        ).scalar()


def test_downgrading_to_0001_and_upgrading_again_keeps_every_row(seeded, make_alembic_config):
    url, engine, _, total = seeded
    cfg = make_alembic_config(url)
    assert total >= 10_000 and all(row_counts(engine).values()), row_counts(engine)
    checksums_before = checksums(engine, FRESH_AFTER_UPGRADE, DROPPED_BY_DOWNGRADE)
    counts = row_counts(engine, DROPPED_BY_DOWNGRADE)
    matches = _fts_matches(engine, "garcom")

    for revision in DOWNGRADE_STEPS:
        command.downgrade(cfg, revision)
        assert row_counts(engine, DROPPED_BY_DOWNGRADE) == counts, f"rows lost by the downgrade to {revision}"
    command.upgrade(cfg, "head")

    assert checksums(engine, FRESH_AFTER_UPGRADE, DROPPED_BY_DOWNGRADE) == checksums_before
    assert sum(row_counts(engine, DROPPED_BY_DOWNGRADE).values()) == sum(counts.values())
    assert _fts_matches(engine, "garcom") == matches
    with engine.begin() as conn:  # ids continue after the highest one (sequences and rowids intact)
        new_job = conn.execute(insert(Job.__table__).values(_job_row(JOBS, 1, random.Random(1), utcnow())))
    assert new_job.inserted_primary_key[0] > JOBS


def _damage(engine: Engine) -> None:
    """What a bad deploy or a mistaken command could do: delete, change, add, and empty a table."""
    with engine.begin() as conn:
        conn.execute(delete(Message.__table__).where(Message.id % 2 == 0))
        conn.execute(update(Job.__table__).values(titulo="Alterada"))
        conn.execute(insert(Notification.__table__).values(user_id=1, type="other", message="nova", target=""))
        conn.execute(delete(Rating.__table__))


def _keep_writing(url: str, stop: threading.Event) -> int:
    """Insert notifications through another connection until `stop` is set; return how many."""
    written = 0
    conn = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=30)
    try:
        while not stop.is_set():
            conn.execute(
                "INSERT INTO notifications (user_id, type, message, target, read, created_at) "
                "VALUES (1, 'other', 'durante o backup', '', 0, CURRENT_TIMESTAMP)"
            )
            conn.commit()
            written += 1
    finally:
        conn.close()
    return written


def test_backup_then_damage_then_restore_brings_every_row_back(seeded, tmp_path: Path):
    url, engine, before, _ = seeded
    stop = threading.Event()
    writer = None
    if engine.dialect.name == "sqlite":
        writer = threading.Thread(target=_keep_writing, args=(url, stop))
        writer.start()

    try:
        file = backup.create(url, tmp_path / "backups")
    finally:
        stop.set()
        if writer is not None:
            writer.join()
    at_backup = _restored_copy_checksums(file, url, tmp_path)
    assert {k: v for k, v in at_backup.items() if k != "notifications"} == {
        k: v for k, v in before.items() if k != "notifications"
    }
    _damage(engine)
    assert checksums(engine) != at_backup

    backup.restore(url, file)

    assert checksums(engine) == at_backup
    assert row_counts(engine)["messages"] == CHATS * MESSAGES_PER_CHAT
    assert row_counts(engine)["ratings"] == CHATS


def _restored_copy_checksums(file: Path, url: str, tmp_path: Path) -> dict:
    """The checksums of what `file` holds, read from a scratch database it is restored into."""
    if url.startswith("sqlite"):
        copy = create_engine(f"sqlite:///{file}", poolclass=NullPool)
        try:
            with copy.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            return checksums(copy)
        finally:
            copy.dispose()
    from bench.harness import create_database, drop_database

    scratch = create_database(url, "turno_restore")
    try:
        backup.restore(scratch, file)
        copy = create_engine(scratch, poolclass=NullPool)
        try:
            return checksums(copy)
        finally:
            copy.dispose()
    finally:
        drop_database(scratch)


def test_restore_refuses_a_missing_file_or_another_engines_backup(empty_database_url, make_alembic_config, tmp_path):
    url = empty_database_url
    command.upgrade(make_alembic_config(url), "head")
    wrong = tmp_path / ("x.dump" if url.startswith("sqlite") else "x.sqlite3")
    wrong.write_bytes(b"not a backup")

    with pytest.raises(SystemExit, match="no such backup file"):
        backup.restore(url, tmp_path / "missing.dump")
    with pytest.raises(SystemExit, match="is not a"):
        backup.restore(url, wrong)
    engine = create_engine(url, poolclass=NullPool)
    try:
        assert sum(row_counts(engine).values()) == 0
    finally:
        engine.dispose()
