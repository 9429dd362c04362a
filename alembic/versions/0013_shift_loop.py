"""shift loop: shift times on jobs; hirings, their events, faltas and review requests.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 23:30:00.000000

A vaga gets a real shift (start, end, unpaid break, address, optional point, attendance secret) and
every accepted application a hiring (docs/product/shifts.md "Turnos"). Existing rows are migrated:
- a job's shift starts at 09:00 (America/Sao_Paulo) on its `data_necessaria`, or on the day it was
  published when it has none, and lasts the first number of hours its free-text `duracao` names
  (clamped to 2-12 h), else 8 h; `possui_intervalo` becomes a 60-minute break; the address is the
  location; each job gets its own attendance secret;
- an accepted application gets a hiring at the proposal's rate (the job's when no counter-proposal):
  'agendada' when its shift is still ahead, else 'aprovada' with the scheduled hours, so both sides
  can mark the direct payment; one event row says why.
The rules below are this revision's frozen copy. The downgrade drops the new tables and columns; the
free-text date and duration it leaves were kept in step all along.
"""

import re
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

import sqlalchemy as sa
import sqlmodel

from alembic import op
from core.types import UTCDateTime

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = ZoneInfo("America/Sao_Paulo")
_START_HOUR = 9
_DEFAULT_HOURS = 8
_BREAK_MIN = 60
_UNCONFIRMED_BEFORE = timedelta(hours=12)
_FIRST_REMINDER_BEFORE = timedelta(hours=24)
_BATCH = 1000
_HOURS = re.compile(r"(\d{1,2})\s*(?:h|hora)", re.IGNORECASE)
_JOB_COLUMNS = (
    ("inicio_em", UTCDateTime(), None),
    ("fim_em", UTCDateTime(), None),
    ("intervalo_min", sa.Integer(), "0"),
    ("endereco", sqlmodel.sql.sqltypes.AutoString(length=200), "''"),
    ("ponto_lat", sa.Float(), None),
    ("ponto_lng", sa.Float(), None),
    ("serie_id", sa.Integer(), None),
    ("codigo_segredo", sqlmodel.sql.sqltypes.AutoString(length=64), "''"),
)


def _str(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def _create_tables() -> None:
    op.create_table(
        "hirings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("application_id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("company_id", sa.Integer(), nullable=False),
        sa.Column("freelancer_id", sa.Integer(), nullable=False),
        sa.Column("state", _str(24), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("inicio_em", UTCDateTime(), nullable=False),
        sa.Column("fim_em", UTCDateTime(), nullable=False),
        sa.Column("intervalo_min", sa.Integer(), nullable=False),
        sa.Column("valor_hora_centavos", sa.Integer(), nullable=False),
        sa.Column("payment_mode", _str(16), nullable=False),
        sa.Column("due_at", UTCDateTime(), nullable=True),
        sa.Column("remind_at", UTCDateTime(), nullable=True),
        sa.Column("reminders_sent", sa.Integer(), nullable=False),
        sa.Column("confirmed_at", UTCDateTime(), nullable=True),
        sa.Column("chegada_em", UTCDateTime(), nullable=True),
        sa.Column("chegada_metodo", _str(16), nullable=False),
        sa.Column("chegada_distancia", _str(16), nullable=False),
        sa.Column("saida_em", UTCDateTime(), nullable=True),
        sa.Column("saida_metodo", _str(16), nullable=False),
        sa.Column("saida_distancia", _str(16), nullable=False),
        sa.Column("dispensa_motivo", _str(32), nullable=False),
        sa.Column("minutos_enviados", sa.Integer(), nullable=True),
        sa.Column("horas_enviadas_em", UTCDateTime(), nullable=True),
        sa.Column("minutos_ajuste", sa.Integer(), nullable=True),
        sa.Column("ajuste_motivo", _str(500), nullable=False),
        sa.Column("ajuste_em", UTCDateTime(), nullable=True),
        sa.Column("minutos_aprovados", sa.Integer(), nullable=True),
        sa.Column("valor_centavos", sa.Integer(), nullable=True),
        sa.Column("taxa_cancelamento_centavos", sa.Integer(), nullable=False),
        sa.Column("pago_em", UTCDateTime(), nullable=True),
        sa.Column("recebido_em", UTCDateTime(), nullable=True),
        sa.Column("terminou_em", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["application_id"], ["applications.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["company_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["freelancer_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("application_id"),
    )
    op.create_index("ix_hirings_due", "hirings", ["due_at"])
    op.create_index("ix_hirings_remind", "hirings", ["remind_at"])
    op.create_index("ix_hirings_freelancer_start", "hirings", ["freelancer_id", "inicio_em"])
    op.create_index("ix_hirings_company_start", "hirings", ["company_id", "inicio_em"])
    op.create_index("ix_hirings_job", "hirings", ["job_id"])
    op.create_table(
        "hiring_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hiring_id", sa.Integer(), nullable=False),
        sa.Column("actor", _str(16), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", _str(32), nullable=False),
        sa.Column("from_state", _str(24), nullable=False),
        sa.Column("to_state", _str(24), nullable=False),
        sa.Column("reason", _str(500), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["hiring_id"], ["hirings.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_hiring_events_hiring_at", "hiring_events", ["hiring_id", "at"])
    op.create_table(
        "faltas",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("freelancer_id", sa.Integer(), nullable=False),
        sa.Column("hiring_id", sa.Integer(), nullable=True),
        sa.Column("pontos", sa.Integer(), nullable=False),
        sa.Column("motivo", _str(32), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("suspende_ate", UTCDateTime(), nullable=True),
        sa.Column("removida_em", UTCDateTime(), nullable=True),
        sa.Column("removida_motivo", _str(500), nullable=False),
        sa.ForeignKeyConstraint(["freelancer_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["hiring_id"], ["hirings.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_faltas_freelancer_expires", "faltas", ["freelancer_id", "expires_at"])
    op.create_table(
        "review_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hiring_id", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.Integer(), nullable=True),
        sa.Column("kind", _str(16), nullable=False),
        sa.Column("falta_id", sa.Integer(), nullable=True),
        sa.Column("motivo", _str(1000), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("decided_at", UTCDateTime(), nullable=True),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decisao", _str(32), nullable=False),
        sa.Column("decisao_motivo", _str(1000), nullable=False),
        sa.ForeignKeyConstraint(["decided_by"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["falta_id"], ["faltas.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["hiring_id"], ["hirings.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["requested_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_review_requests_open", "review_requests", ["decided_at", "created_at"])


def shift_of(data_necessaria, criado_em: datetime, duracao: str, possui_intervalo: bool) -> tuple:
    """(start, end, break minutes) of a job written before shift times, in UTC."""
    day = data_necessaria or criado_em.astimezone(_TZ).date()
    if isinstance(day, str):
        day = datetime.fromisoformat(day[:10]).date()
    match = _HOURS.search(duracao or "")
    hours = min(max(int(match.group(1)), 2), 12) if match else _DEFAULT_HOURS
    start = datetime.combine(day, time(_START_HOUR), tzinfo=_TZ).astimezone(UTC)
    return start, start + timedelta(hours=hours), _BREAK_MIN if possui_intervalo else 0


def _centavos(value) -> int:
    if value is None:
        return 0
    return int((Decimal(str(value)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _pay(start: datetime, end: datetime, break_min: int, rate: int) -> tuple[int, int]:
    """(minutes, centavos) of a whole scheduled shift."""
    minutes = max(int((end - start).total_seconds() // 60) - break_min, 0)
    return minutes, int((Decimal(minutes * rate) / 60).quantize(Decimal(1), rounding=ROUND_HALF_UP))


_JOBS = sa.table(
    "jobs",
    sa.column("id", sa.Integer),
    sa.column("criado_em", UTCDateTime()),
    sa.column("data_necessaria", sa.Date),
    sa.column("duracao", sa.String),
    sa.column("possui_intervalo", sa.Boolean),
    sa.column("localizacao", sa.String),
    sa.column("valor_hora", sa.Numeric(10, 2)),
    sa.column("cliente_id", sa.Integer),
    sa.column("inicio_em", UTCDateTime()),
    sa.column("fim_em", UTCDateTime()),
    sa.column("intervalo_min", sa.Integer),
    sa.column("endereco", sa.String),
    sa.column("codigo_segredo", sa.String),
)
_APPLICATIONS = sa.table(
    "applications",
    sa.column("id", sa.Integer),
    sa.column("vaga_id", sa.Integer),
    sa.column("freelancer_id", sa.Integer),
    sa.column("status", sa.String),
    sa.column("valor_proposto", sa.Numeric(10, 2)),
    sa.column("updated_at", UTCDateTime()),
)


def _migrate_jobs(conn) -> None:
    last = 0
    while True:
        rows = conn.execute(
            sa.select(
                _JOBS.c.id,
                _JOBS.c.criado_em,
                _JOBS.c.data_necessaria,
                _JOBS.c.duracao,
                _JOBS.c.possui_intervalo,
                _JOBS.c.localizacao,
            )
            .where(_JOBS.c.id > last)
            .order_by(_JOBS.c.id)
            .limit(_BATCH)
        ).all()
        if not rows:
            return
        for job_id, criado_em, day, duracao, has_break, location in rows:
            start, end, break_min = shift_of(day, criado_em, duracao, bool(has_break))
            conn.execute(
                _JOBS.update()
                .where(_JOBS.c.id == job_id)
                .values(
                    inicio_em=start,
                    fim_em=end,
                    intervalo_min=break_min,
                    endereco=(location or "")[:200],
                    codigo_segredo=secrets.token_hex(20),
                )
            )
        last = rows[-1][0]


def _migrate_hirings(conn, now: datetime) -> None:
    hirings = sa.Table("hirings", sa.MetaData(), autoload_with=conn)
    events = sa.Table("hiring_events", sa.MetaData(), autoload_with=conn)
    rows = conn.execute(
        sa.select(
            _APPLICATIONS.c.id,
            _APPLICATIONS.c.vaga_id,
            _APPLICATIONS.c.freelancer_id,
            _APPLICATIONS.c.valor_proposto,
            _APPLICATIONS.c.updated_at,
            _JOBS.c.cliente_id,
            _JOBS.c.valor_hora,
            _JOBS.c.inicio_em,
            _JOBS.c.fim_em,
            _JOBS.c.intervalo_min,
        )
        .join(_JOBS, _JOBS.c.id == _APPLICATIONS.c.vaga_id)
        .where(_APPLICATIONS.c.status == "accepted")
        .order_by(_APPLICATIONS.c.id)
    ).all()
    for app_id, job_id, freelancer_id, proposed, accepted_at, company_id, job_rate, start, end, break_min in rows:
        rate = _centavos(proposed if proposed is not None else job_rate)
        ahead = start > now
        minutes, amount = _pay(start, end, break_min, rate)
        state = "agendada" if ahead else "aprovada"
        values = {
            "application_id": app_id,
            "job_id": job_id,
            "company_id": company_id,
            "freelancer_id": freelancer_id,
            "state": state,
            "version": 1,
            "inicio_em": start,
            "fim_em": end,
            "intervalo_min": break_min,
            "valor_hora_centavos": rate,
            "payment_mode": "direto",
            "due_at": start - _UNCONFIRMED_BEFORE if ahead else None,
            "remind_at": start - _FIRST_REMINDER_BEFORE if ahead else None,
            "reminders_sent": 0,
            "chegada_metodo": "",
            "chegada_distancia": "",
            "saida_metodo": "",
            "saida_distancia": "",
            "dispensa_motivo": "",
            "ajuste_motivo": "",
            "taxa_cancelamento_centavos": 0,
            "minutos_aprovados": None if ahead else minutes,
            "valor_centavos": None if ahead else amount,
            "created_at": accepted_at or now,
            "updated_at": now,
        }
        hiring_id = conn.execute(hirings.insert().values(**values).returning(hirings.c.id)).scalar_one()
        reason = (
            "Contratação anterior ao registro de turnos."
            if ahead
            else "Turno anterior ao registro de presença: horas agendadas aprovadas."
        )
        conn.execute(
            events.insert().values(
                hiring_id=hiring_id,
                actor="sistema",
                actor_id=None,
                action="migracao",
                from_state="",
                to_state=state,
                reason=reason,
                at=now,
            )
        )


def upgrade() -> None:
    """Add the shift columns and tables, then give every job its shift and every acceptance its hiring."""
    for name, type_, default in _JOB_COLUMNS:
        op.add_column(
            "jobs",
            sa.Column(name, type_, nullable=default is None, server_default=sa.text(default) if default else None),
        )
    _create_tables()
    conn = op.get_bind()
    _migrate_jobs(conn)
    _migrate_hirings(conn, datetime.now(UTC))


def downgrade() -> None:
    """Drop the tables and the job columns (the free-text date and duration stayed in step)."""
    for table in ("review_requests", "faltas", "hiring_events", "hirings"):
        op.drop_table(table)
    for name, _type, _default in _JOB_COLUMNS:
        op.execute(f"ALTER TABLE jobs DROP COLUMN {name}")
