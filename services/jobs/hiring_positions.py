"""Which of a vaga's positions are taken, and what the vaga does when its hirings end.

An accepted application *holds a position* while its hiring is not cancelled (by either side), a
no-show or expired (an expired one is back to pending anyway). A paid shift keeps its position: the
work was done. When a hiring ends (services/shifts/hiring_lifecycle.py calls `hiring_ended` from `move`),
its vaga follows (docs/product/shifts.md §5a "Vagas e turnos que terminam"):

- a freed position of a filled vaga ('Em andamento') whose start is at least REOPEN_LEAD away
  (2 hours, the publishing rule) reopens it to the public list ('Aberta');
- a live vaga with no hiring still moving, whose positions take no new applicant any more (filled,
  or its start has passed), closes itself ('Fechada'): it leaves the plan's active count and the
  'Ativas' tab at once;
- otherwise ('Reabrir vaga') the company may reopen it by hand while its start has not passed
  (`reopen`), within the plan's limit when the vaga was closed.
"""

from datetime import datetime

from sqlalchemy import and_, case, or_
from sqlmodel import Session, func, select

from core import shift_rules
from models import Application, ApplicationStatus, Hiring, HiringState, Job, JobStatus
from services.jobs import job_lifecycle

S = HiringState
REOPEN_LEAD = shift_rules.MIN_LEAD  # a freed position reopens the vaga while its start is >= 2 h away
FREED = frozenset({S.CANCELLED_BY_FREELANCER, S.CANCELLED_BY_COMPANY, S.NO_SHOW, S.EXPIRED})
ENDED = FREED | {S.PAID}
STARTED = "O turno desta vaga já começou: não é mais possível reabri-la."
NOTHING_FREE = "Todas as posições desta vaga estão preenchidas."
NOT_REOPENABLE = "Esta vaga não pode ser reaberta."


def _holding_condition():
    """An application that holds a position: accepted, and its hiring (if any) not freed."""
    return and_(
        Application.status == ApplicationStatus.ACCEPTED,
        or_(Hiring.id.is_(None), Hiring.state.not_in(FREED)),
    )


def holding(session: Session, job_id: int) -> int:
    """How many of the vaga's positions are taken (accepted applications whose hiring was not freed)."""
    return session.exec(
        select(func.count(Application.id))
        .join(Hiring, Hiring.application_id == Application.id, isouter=True)
        .where(Application.vaga_id == job_id, _holding_condition())
    ).one()


def _live_hirings(session: Session, job_id: int) -> tuple[int, int]:
    """(hirings, hirings still moving) of the vaga."""
    total, live = session.exec(
        select(func.count(Hiring.id), func.sum(case((Hiring.state.not_in(ENDED), 1), else_=0))).where(
            Hiring.job_id == job_id
        )
    ).one()
    return int(total or 0), int(live or 0)


def hiring_ended(session: Session, hiring: Hiring, now: datetime) -> None:
    """A hiring of the vaga reached an ending state: reopen a freed position, or close a vaga that is done.

    Args:
        session: Open session (the caller commits).
        hiring: The hiring, already in its new state.
        now: The time of the move.
    """
    if hiring.state not in ENDED or hiring.state == S.EXPIRED:  # expiry reopens in services/money/expiry.py
        return
    job = session.get(Job, hiring.job_id, populate_existing=True)
    if job is None or job.vaga_status not in job_lifecycle.LIVE_STAGES:
        return
    started = job.inicio_em is not None and job.inicio_em <= now
    if hiring.state in FREED and job.inicio_em is not None and job.inicio_em - now >= REOPEN_LEAD:
        if holding(session, job.id) < job.vagas_disponiveis:
            job_lifecycle.reopen_if_filled(job)
            session.add(job)
        return
    total, live = _live_hirings(session, job.id)
    if total and not live and (job.vaga_status == JobStatus.IN_PROGRESS or started):
        job_lifecycle.close(job)
        session.add(job)


def can_reopen(job: Job, taken: int, now: datetime) -> bool:
    """Whether 'Reabrir vaga' is offered: not archived, filled or closed, a free position, start ahead."""
    return (
        not job.is_archived
        and job.vaga_status in (JobStatus.IN_PROGRESS, JobStatus.CLOSED)
        and job.inicio_em is not None
        and job.inicio_em > now
        and taken < job.vagas_disponiveis
    )


def reopenable_ids(session: Session, jobs: list[Job], now: datetime) -> set[int]:
    """The ids of `jobs` the company may reopen now ('Reabrir vaga'), in one statement."""
    candidates = [j for j in jobs if can_reopen(j, 0, now)]
    if not candidates:
        return set()
    taken = dict(
        session.exec(
            select(Application.vaga_id, func.count(Application.id))
            .join(Hiring, Hiring.application_id == Application.id, isouter=True)
            .where(Application.vaga_id.in_([j.id for j in candidates]), _holding_condition())
            .group_by(Application.vaga_id)
        ).all()
    )
    return {j.id for j in candidates if can_reopen(j, int(taken.get(j.id, 0)), now)}


def reopen_refusal(job: Job, taken: int, now: datetime) -> str | None:
    """Why 'Reabrir vaga' is refused now (None: it may run)."""
    if can_reopen(job, taken, now):
        return None
    if job.inicio_em is not None and job.inicio_em <= now:
        return STARTED
    if taken >= job.vagas_disponiveis:
        return NOTHING_FREE
    return NOT_REOPENABLE
