"""A job's states and transitions live in services/jobs/job_lifecycle.py, and every service asks it."""

import re
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from sqlmodel import select

from alembic import command
from models import Application, Job, JobStatus, Notification
from services.common.errors import ServiceError
from services.jobs import company_jobs, job_lifecycle, plans
from services.privacy import privacy
from services.screens import company_dashboard, freelancer_dashboard
from services.shifts import ratings
from tests.support.factories import (
    make_application,
    make_company,
    make_freelancer,
    make_job,
    register_confirmed_company,
)

OPEN, IN_PROGRESS, CLOSED, ARCHIVED = JobStatus.OPEN, JobStatus.IN_PROGRESS, JobStatus.CLOSED, JobStatus.ARCHIVED
ROOT = Path(__file__).resolve().parents[3]


def job_in(stage: str, archived: bool = False) -> Job:
    """A job (not stored) brought to `stage`, then archived if asked, by the transitions themselves."""
    job = Job(cliente_id=1, titulo="Garçom", categoria="eventos", descricao="d", localizacao="São Paulo")
    if stage == IN_PROGRESS:
        job_lifecycle.fill(job)
    if stage == CLOSED:
        job_lifecycle.close(job)
    if archived:
        job_lifecycle.archive(job)
    return job


STATES = [(stage, archived) for stage in (OPEN, IN_PROGRESS, CLOSED) for archived in (False, True)]


def columns(job: Job) -> tuple[str, str, bool]:
    return job.status, job.vaga_status, job.is_archived


def agrees(job: Job) -> bool:
    """The rule the three columns keep: status is the stage, or 'archived' while the flag is set."""
    return job.status == (ARCHIVED if job.is_archived else job.vaga_status) and job.vaga_status in job_lifecycle.STAGES


# --- transitions, as a table -------------------------------------------------------------------

# (stage, archived) -> the state after each transition (None: refused or unchanged).
FILL = {(OPEN, False): (IN_PROGRESS, IN_PROGRESS, False), (OPEN, True): (ARCHIVED, IN_PROGRESS, True)}
CLOSE = {
    (OPEN, False): (CLOSED, CLOSED, False),
    (IN_PROGRESS, False): (CLOSED, CLOSED, False),
    (OPEN, True): (ARCHIVED, CLOSED, True),
    (IN_PROGRESS, True): (ARCHIVED, CLOSED, True),
}


@pytest.mark.parametrize(("stage", "archived"), STATES)
def test_every_reachable_state_keeps_the_three_columns_in_agreement(stage, archived):
    job = job_in(stage, archived)

    assert columns(job) == (ARCHIVED if archived else stage, stage, archived)
    assert agrees(job)


@pytest.mark.parametrize(("stage", "archived"), STATES)
def test_fill_moves_only_an_open_job_in_progress(stage, archived):
    job = job_in(stage, archived)
    before = columns(job)

    job_lifecycle.fill(job)

    assert columns(job) == FILL.get((stage, archived), before)
    assert agrees(job)


@pytest.mark.parametrize(("stage", "archived"), STATES)
def test_close_finishes_any_live_job_and_keeps_it_archived_if_it_was(stage, archived):
    job = job_in(stage, archived)
    before = columns(job)

    changed = job_lifecycle.close(job)

    assert changed is ((stage, archived) in CLOSE)
    assert columns(job) == CLOSE.get((stage, archived), before)
    assert agrees(job)


@pytest.mark.parametrize(("stage", "archived"), STATES)
def test_archive_keeps_the_stage(stage, archived):
    job = job_in(stage, archived)

    job_lifecycle.archive(job)

    assert columns(job) == (ARCHIVED, stage, True)


@pytest.mark.parametrize(("stage", "archived"), STATES)
def test_restore_reopens_an_archived_job_and_refuses_any_other(stage, archived):
    job = job_in(stage, archived)
    before = columns(job)

    if not archived:
        with pytest.raises(job_lifecycle.JobTransitionRefused):
            job_lifecycle.restore(job)
        assert columns(job) == before
    else:
        job_lifecycle.restore(job)
        assert columns(job) == (OPEN, OPEN, False)


# --- meanings: the SQL conditions and the Python predicates agree -------------------------------

MEANINGS = {
    # (stage, archived): (public, active for the plan, archived tab, finished, accepts hiring)
    (OPEN, False): (True, True, False, False, True),
    (IN_PROGRESS, False): (False, True, False, False, True),
    (CLOSED, False): (False, False, False, True, False),
    (OPEN, True): (False, False, True, False, False),
    (IN_PROGRESS, True): (False, False, True, False, False),
    (CLOSED, True): (False, False, True, True, False),
}


def test_each_state_means_what_the_table_says_in_sql_and_in_python(db):
    company = make_company(db)
    ids = {}
    for stage, archived in STATES:
        job = make_job(db, company, f"{stage}-{archived}")
        job.status, job.vaga_status, job.is_archived = columns(job_in(stage, archived))
        db.add(job)
        ids[job.id] = (stage, archived)
    db.flush()

    def matching(condition) -> set[tuple[str, bool]]:
        return {ids[i] for i in db.exec(select(Job.id).where(Job.cliente_id == company.id, condition)).all()}

    for position, condition in enumerate(
        (job_lifecycle.public(), job_lifecycle.active_for_plan(), job_lifecycle.archived(), job_lifecycle.finished())
    ):
        assert matching(condition) == {state for state, meaning in MEANINGS.items() if meaning[position]}
    assert matching(job_lifecycle.closed_not_archived()) == {(CLOSED, False)}  # the 'Encerradas' tab
    assert matching(job_lifecycle.unfinished()) == {state for state, meaning in MEANINGS.items() if not meaning[3]}
    for job in db.exec(select(Job).where(Job.cliente_id == company.id)).all():
        public, _active, _archived, finished, accepts = MEANINGS[ids[job.id]]
        assert job_lifecycle.is_public(job) is public
        assert job_lifecycle.is_finished(job.vaga_status) is finished
        assert job_lifecycle.accepts_hiring(job) is accepts


# --- services go through the lifecycle ---------------------------------------------------------

WRITES_STATE = re.compile(r"\.(status|vaga_status|is_archived)\s*=(?!=)")


def test_no_service_state_or_page_writes_a_job_state_column_by_hand():
    writers = []
    for folder in ("services", "states", "app", "components", "core"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "job_lifecycle.py":
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if WRITES_STATE.search(line) and re.search(r"\bjob\b|Job\b", line):
                    writers.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")

    assert writers == []


def test_closing_an_archived_job_keeps_it_archived_and_finished(db):
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company)
    pending = make_application(db, job, freelancer)
    company_jobs.archive_job(db, company.id, job.id)

    company_jobs.close_job(db, company.id, job.id)

    db.refresh(job)
    assert columns(job) == (ARCHIVED, CLOSED, True)
    assert db.get(Application, pending.id).status == "rejected"
    assert company_dashboard.company_job_totals(db, company.id) == (0, 0, 1)


def test_a_hiring_on_a_job_archived_after_closing_counts_as_completed_and_can_be_rated(db):
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company)
    hired = make_application(db, job, freelancer, status="accepted")
    company_jobs.close_job(db, company.id, job.id)
    company_jobs.archive_job(db, company.id, job.id)

    assert freelancer_dashboard.freelancer_overview(db, freelancer.id)["completed_jobs"] == 1
    assert ratings.can_rate(db, freelancer.id, hired.id) is True


def test_the_plan_limit_counts_open_and_in_progress_jobs_that_are_not_archived(db):
    company = make_company(db)
    for stage, archived in STATES:
        job = make_job(db, company, f"{stage}-{archived}")
        job.status, job.vaga_status, job.is_archived = columns(job_in(stage, archived))
        db.add(job)
    db.flush()

    assert plans.usage(db, company.id).active_jobs == 2


def test_restoring_a_filled_job_is_refused_and_changes_nothing(db):
    company, freelancer = make_company(db), make_freelancer(db)
    job = make_job(db, company, vagas_disponiveis=1)
    make_application(db, job, freelancer, status="accepted")
    company_jobs.archive_job(db, company.id, job.id)
    before = columns(job)

    with pytest.raises(ServiceError):
        company_jobs.restore_job(db, company.id, job.id)

    db.refresh(job)
    assert columns(job) == before


# --- revision 0012 -------------------------------------------------------------------------------


def test_revision_0012_brings_older_rows_to_the_rule(empty_database_url, make_alembic_config):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0011")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    # (status, vaga_status, is_archived) as older code could leave them -> as they must read now
    rows = [
        (("open", "open", False), ("open", "open", False)),
        (("in_progress", "in_progress", False), ("in_progress", "in_progress", False)),
        (("closed", "closed", True), ("archived", "closed", True)),  # closed after archiving, by a direct call
        (("archived", "closed", True), ("archived", "closed", True)),
        (("archived", "open", False), ("archived", "open", True)),
        (("archived", "archived", True), ("archived", "open", True)),
    ]
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO users (email, password_hash, role, is_active, created_at) "
                    "VALUES ('ana@x.com', 'x', 'client', true, CURRENT_TIMESTAMP)"
                )
            )
            for n, ((status, stage, archived), _after) in enumerate(rows):
                conn.execute(
                    text(
                        "INSERT INTO jobs (cliente_id, titulo, categoria, descricao, localizacao, duracao, "
                        "habilidades_necessarias, vale_transporte, refeicao_local, possui_intervalo, "
                        "anuncio_anonimo, status, vaga_status, vagas_disponiveis, is_archived, criado_em, "
                        "updated_at, busca, cidade_busca) VALUES (1, :t, 'eventos', 'd', 'SP', '', '[]', false, "
                        "false, false, false, :s, :v, 1, :a, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, '', '')"
                    ),
                    {"t": f"job {n}", "s": status, "v": stage, "a": archived},
                )

        command.upgrade(cfg, "0012")
        with engine.connect() as conn:
            after = conn.execute(text("SELECT status, vaga_status, is_archived FROM jobs ORDER BY id")).all()
        command.downgrade(cfg, "0011")
    finally:
        engine.dispose()

    assert [(s, v, bool(a)) for s, v, a in after] == [want for _before, want in rows]


def test_deleting_the_company_closes_its_archived_open_job_and_tells_the_applicant(db):
    company = register_confirmed_company(db, "dona@hotel.com", "Segura123")
    freelancer = make_freelancer(db)
    job = make_job(db, company, "Recepcionista")
    make_application(db, job, freelancer)
    company_jobs.archive_job(db, company.id, job.id)

    privacy.delete_account(db, company.id, "Segura123")

    told = db.exec(select(Notification.message).where(Notification.user_id == freelancer.id)).all()
    assert told == ['A vaga "Recepcionista" foi encerrada.']


def test_the_ativas_tab_counts_exactly_what_the_plan_limit_counts(db):
    company = make_company(db)
    for stage, archived in STATES:
        job = make_job(db, company)
        job.status, job.vaga_status, job.is_archived = columns(job_in(stage, archived))
        db.add(job)
    db.flush()

    totals = company_dashboard.company_job_totals(db, company.id)

    assert totals == (2, 1, 3)  # open + in progress; closed; the three archived
    assert totals.active == plans.usage(db, company.id).active_jobs


def test_every_status_has_one_row_with_its_label_and_badge_colour():
    assert set(job_lifecycle.STAGE_ROWS) == set(JobStatus)
    assert [job_lifecycle.stage_label(s) for s in JobStatus] == ["Aberta", "Em andamento", "Fechada", "Arquivada"]
    assert job_lifecycle.stage_label("desconhecido") == "desconhecido"
