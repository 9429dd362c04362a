"""The life of a job (vaga): its states, the moves between them and what each state means.

A job has a *stage* and may be *archived* on top of it (docs/product/jobs.md §4):

    stage:     open ──(positions filled)──▶ in_progress ──┐
                 └──────────────('Encerrar vaga')──────────┴──▶ closed
    archived:  any stage ──('Arquivar')──▶ archived ──('Restaurar')──▶ open

Three columns hold this, for the indexes and for rows written before this module existed:
`vaga_status` is the stage, `is_archived` the flag, and `status` what the lists filter on (the stage,
or `archived` while the flag is set). Only the transitions below write them, through `_move`, so the
three always agree. Every service and query asks this module what 'public', 'active for the plan
limit', 'archived' and 'finished' mean, as SQL conditions over the table's columns (shared by ORM
queries and prebuilt Core statements) and as Python predicates over a loaded job.

In this order below: each status's label and badge colour (`STAGE_ROWS`), the SQL conditions (`public`, `active_for_plan`, ...), the same meanings over
loaded values (`is_public`, `accepts_hiring`, `is_finished`), then the transitions (`fill`,
`reopen`, `close`, `archive`, `restore`), the only writers of the three columns.
"""

from typing import NamedTuple

from sqlalchemy import false

from core.types import utcnow
from models import Job, JobStatus


class StageRow(NamedTuple):
    """What a job's `status` is called on 'Minhas Vagas' and the colour of its badge."""

    label: str
    tone: str


# One row per value of `status` (the stage, or 'archived' on top of it).
STAGE_ROWS = {
    JobStatus.OPEN: StageRow("Aberta", "green"),
    JobStatus.IN_PROGRESS: StageRow("Em andamento", "blue"),
    JobStatus.CLOSED: StageRow("Fechada", "gray"),
    JobStatus.ARCHIVED: StageRow("Arquivada", "orange"),
}


def stage_label(status: str) -> str:
    """'Aberta', 'Em andamento', 'Fechada' or 'Arquivada' for a job's `status` (the value itself if unknown)."""
    row = STAGE_ROWS.get(status)  # type: ignore[call-overload]
    return row.label if row else status


_COLUMNS = Job.__table__.c  # type: ignore[attr-defined]
STAGES = (JobStatus.OPEN, JobStatus.IN_PROGRESS, JobStatus.CLOSED)
LIVE_STAGES = (JobStatus.OPEN, JobStatus.IN_PROGRESS)


class JobTransitionRefused(ValueError):
    """A transition the job's current state does not allow."""


def public():
    """Listed and open to anyone's applications: open, not archived, not held back.

    Held back: a team-first vaga ('Oferecer primeiro à minha equipe', until the timer clears
    `equipe_ate`) and a private 'Contratar novamente' vaga; services/jobs/visibility.py shows those to
    their few viewers.
    """
    return (
        (_COLUMNS.status == JobStatus.OPEN)
        & (_COLUMNS.is_archived == false())
        & _COLUMNS.equipe_ate.is_(None)
        & (_COLUMNS.privada == false())
    )


def active_for_plan():
    """Open or in progress, not archived: the plan's active-jobs limit and the company's 'Ativas' tab (the same jobs)."""
    return _COLUMNS.status.in_(LIVE_STAGES) & (_COLUMNS.is_archived == false())


def archived():
    """Shown under the company's 'Arquivadas' tab (over `status`, which the company list's index holds)."""
    return _COLUMNS.status == JobStatus.ARCHIVED


def closed_not_archived():
    """Shown under the company's 'Encerradas' tab: closed by the company and not archived."""
    return _COLUMNS.status == JobStatus.CLOSED


def unfinished():
    """Not closed yet, archived or not: what deleting the company's account still has to close."""
    return _COLUMNS.vaga_status.in_(LIVE_STAGES)


def finished():
    """Closed by the company ('Encerrar vaga'), archived afterwards or not: ratings open, work is done."""
    return _COLUMNS.vaga_status == JobStatus.CLOSED


def is_public(job: Job) -> bool:
    """Python twin of `public()`."""
    return job.status == JobStatus.OPEN and not job.is_archived and job.equipe_ate is None and not job.privada


def accepts_hiring(job: Job) -> bool:
    """Whether the company may still accept an application: open or in progress, not archived.

    An archived job takes no hiring until 'Restaurar' (which checks the plan's limit again).
    """
    return job.status in LIVE_STAGES


def is_finished(vaga_status: str) -> bool:
    """Python twin of `finished()`, over the `vaga_status` column a query selected."""
    return vaga_status == JobStatus.CLOSED


def _move(job: Job, stage: str, is_archived: bool) -> None:
    job.vaga_status = stage
    job.is_archived = is_archived
    job.status = JobStatus.ARCHIVED if is_archived else stage
    job.updated_at = utcnow()


def fill(job: Job) -> None:
    """Every position is taken: an open job goes in progress (leaving the public list)."""
    if job.vaga_status == JobStatus.OPEN:
        _move(job, JobStatus.IN_PROGRESS, job.is_archived)


def reopen_if_filled(job: Job) -> None:
    """A position was freed (an unpaid acceptance expired): a filled job is open again."""
    if job.vaga_status == JobStatus.IN_PROGRESS:
        _move(job, JobStatus.OPEN, job.is_archived)


def reopen(job: Job) -> None:
    """'Reabrir vaga': a filled or closed job whose position was freed is open again (not archived).

    The caller checks the start, the free position and, for a closed job, the plan's limit
    (services/jobs/hiring_positions.py `can_reopen`).

    Raises:
        JobTransitionRefused: The job is archived or open already.
    """
    if job.is_archived or job.vaga_status == JobStatus.OPEN:
        raise JobTransitionRefused(f"job {job.id} cannot reopen")
    _move(job, JobStatus.OPEN, False)


def close(job: Job) -> bool:
    """'Encerrar vaga': the stage becomes closed; an archived job stays archived.

    Returns:
        False when the job was closed already (nothing changed).
    """
    if job.vaga_status == JobStatus.CLOSED:
        return False
    _move(job, JobStatus.CLOSED, job.is_archived)
    return True


def archive(job: Job) -> None:
    """'Arquivar': the job leaves the public list and the 'Ativas' tab, keeping its stage."""
    _move(job, job.vaga_status, True)


def restore(job: Job) -> None:
    """'Restaurar': an archived job is open again (the caller checks positions and the plan's limit).

    Raises:
        JobTransitionRefused: The job is not archived.
    """
    if not job.is_archived:
        raise JobTransitionRefused(f"job {job.id} is not archived")
    _move(job, JobStatus.OPEN, False)
