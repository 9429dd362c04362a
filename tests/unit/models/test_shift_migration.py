"""Alembic 0013 on rows written before the shift loop: every job gets its shift, every acceptance its hiring.

Rows are inserted at revision 0012 with plain SQL (the models describe head, not 0012), then the
upgrade runs and the new columns and tables are checked; the downgrade to 0012 removes them and
leaves the old rows as they were. Both databases.
"""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from alembic import command

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime.now(UTC)
FUTURE = (NOW + timedelta(days=10)).astimezone(SP).date()
PAST = date(2025, 3, 14)


def _insert_old_rows(conn) -> None:
    stamp = NOW.replace(tzinfo=None) if conn.dialect.name == "sqlite" else NOW
    for uid, role in ((1, "client"), (2, "freelancer"), (3, "freelancer")):
        conn.execute(
            text(
                "INSERT INTO users (id, email, password_hash, role, is_active, created_at) "
                "VALUES (:id, :email, 'x', :role, true, :now)"
            ),
            {"id": uid, "email": f"u{uid}@teste.com.br", "role": role, "now": stamp},
        )
    jobs = [
        # id, date, duration text, break, rate
        (10, FUTURE, "6 horas", True, "40.00"),
        (11, PAST, "3h", False, "25.55"),
        (12, None, "a combinar", False, None),
        (13, FUTURE, "20 horas", False, "30.00"),
    ]
    for job_id, day, duration, has_break, rate in jobs:
        conn.execute(
            text(
                "INSERT INTO jobs (id, cliente_id, titulo, categoria, descricao, localizacao, valor_hora, duracao, "
                "data_necessaria, habilidades_necessarias, vale_transporte, refeicao_local, possui_intervalo, "
                "anuncio_anonimo, status, vaga_status, vagas_disponiveis, is_archived, criado_em, updated_at, busca, "
                "cidade_busca) VALUES (:id, 1, 'Garçom', 'eventos', 'Descrição longa', 'São Paulo, SP', :rate, "
                ":duration, :day, '[]', false, false, :has_break, false, 'open', 'open', 2, false, :now, :now, '', '')"
            ),
            {"id": job_id, "rate": rate, "duration": duration, "day": day, "has_break": has_break, "now": stamp},
        )
    applications = [(20, 10, 2, "accepted", "45.50"), (21, 11, 2, "accepted", None), (22, 10, 3, "pending", None)]
    for app_id, job_id, freelancer, status, proposal in applications:
        conn.execute(
            text(
                "INSERT INTO applications (id, vaga_id, freelancer_id, status, valor_proposto, mensagem, created_at, "
                "updated_at) VALUES (:id, :job, :freelancer, :status, :proposal, '', :now, :now)"
            ),
            {
                "id": app_id,
                "job": job_id,
                "freelancer": freelancer,
                "status": status,
                "proposal": proposal,
                "now": stamp,
            },
        )


def _aware(value):
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def test_the_upgrade_gives_old_jobs_their_shift_and_old_acceptances_their_hiring(
    empty_database_url, make_alembic_config
):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0012")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            _insert_old_rows(conn)

        command.upgrade(cfg, "0013")

        with engine.connect() as conn:
            jobs = {
                row.id: row
                for row in conn.execute(
                    text("SELECT id, inicio_em, fim_em, intervalo_min, endereco, codigo_segredo FROM jobs")
                )
            }
            hirings = {
                row.application_id: row
                for row in conn.execute(
                    text(
                        "SELECT application_id, state, valor_hora_centavos, minutos_aprovados, valor_centavos, "
                        "due_at, remind_at, inicio_em FROM hirings"
                    )
                )
            }
            events = conn.execute(text("SELECT hiring_id, actor, action, to_state FROM hiring_events")).all()
    finally:
        engine.dispose()

    start = _aware(jobs[10].inicio_em)
    assert start == datetime(FUTURE.year, FUTURE.month, FUTURE.day, 9, tzinfo=SP).astimezone(UTC)
    assert _aware(jobs[10].fim_em) - start == timedelta(hours=6)
    assert (jobs[10].intervalo_min, jobs[10].endereco) == (60, "São Paulo, SP")
    assert _aware(jobs[11].fim_em) - _aware(jobs[11].inicio_em) == timedelta(hours=3)
    assert _aware(jobs[12].fim_em) - _aware(jobs[12].inicio_em) == timedelta(hours=8)  # no hours named: 8 h
    assert _aware(jobs[13].fim_em) - _aware(jobs[13].inicio_em) == timedelta(hours=12)  # clamped to 12 h
    secrets = {job.codigo_segredo for job in jobs.values()}
    assert len(secrets) == 4 and all(len(secret) == 40 for secret in secrets)

    assert set(hirings) == {20, 21}  # the pending application gets none
    ahead = hirings[20]
    assert (ahead.state, ahead.valor_hora_centavos, ahead.minutos_aprovados) == ("agendada", 4550, None)
    assert _aware(ahead.due_at) == start - timedelta(hours=12)
    assert _aware(ahead.remind_at) == start - timedelta(hours=24)
    done = hirings[21]
    assert (done.state, done.valor_hora_centavos, done.minutos_aprovados, done.valor_centavos) == (
        "aprovada",
        2555,
        180,
        7665,
    )
    assert (done.due_at, done.remind_at) == (None, None)
    assert sorted((actor, action, state) for _id, actor, action, state in events) == [
        ("sistema", "migracao", "agendada"),
        ("sistema", "migracao", "aprovada"),
    ]


def test_the_downgrade_removes_the_shift_loop_and_keeps_the_old_rows(empty_database_url, make_alembic_config):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0012")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            _insert_old_rows(conn)
        command.upgrade(cfg, "head")

        command.downgrade(cfg, "0012")

        names = set(inspect(engine).get_table_names())
        assert not names & {"hirings", "hiring_events", "faltas", "review_requests"}
        assert "inicio_em" not in {column["name"] for column in inspect(engine).get_columns("jobs")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM jobs")).scalar() == 4
            assert conn.execute(text("SELECT count(*) FROM applications WHERE status = 'accepted'")).scalar() == 2
    finally:
        engine.dispose()
