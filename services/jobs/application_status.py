"""What an application reads as, and which counters it belongs to, derived from its hiring where one exists.

One function, `view(application status, hiring state or None, vaga stage)`, answers for every screen
that names an application's state or counts it: the freelancer's 'Minhas Candidaturas' and overview
('Candidaturas ativas', 'Trabalhos concluídos') and the company's 'Contratações' and 'Contratações
ativas' (docs/product/shifts.md §5). The SQL conditions the counters use are built from the same table
(`active_condition`, `completed_condition`), so a list and its count never disagree.

A hiring's ending decides first: a cancelled shift (either side), a no-show and an unpaid expiry
read so whatever the vaga's stage, and never count; approved or paid hours read 'Concluída' and count
as a finished job whatever the vaga's stage. A shift still moving reads its step ('Aceita', 'Em
andamento', 'Aguardando pagamento') and counts as active until the company closes the vaga ('Encerrar
vaga' declares the work done: 'Concluída', as before hirings existed). An application without a hiring
(pending, rejected, or accepted before hirings existed) reads from its status and the vaga.
"""

from typing import NamedTuple

from sqlalchemy import and_, or_

from models import Application, ApplicationStatus, Hiring, HiringState, JobStatus
from services.jobs import job_lifecycle

S = HiringState
A = ApplicationStatus


class StatusView(NamedTuple):
    """How an application is shown and counted.

    Attributes:
        key: A stable name of the group ('pendente', 'aceita', 'andamento', 'concluida', 'cancelada',
            'falta', 'expirada', 'recusada', 'encerrada').
        label: What the freelancer reads.
        company_label: What the company reads in 'Contratações'.
        tone: The badge's colour.
        active: Counted in 'Candidaturas ativas' (and, accepted, in the company's 'Contratações ativas').
        completed: Counted in 'Trabalhos concluídos'.
    """

    key: str
    label: str
    company_label: str
    tone: str
    active: bool = False
    completed: bool = False


PENDING = StatusView("pendente", "Pendente", "Pendente", "amber", active=True)
ACCEPTED = StatusView("aceita", "Aceita", "Confirmado", "green", active=True)
WORKING = StatusView("andamento", "Em andamento", "Em andamento", "blue", active=True)
AWAITING = StatusView("aguardando", "Aguardando pagamento", "Aguardando pagamento", "amber", active=True)
COMPLETED = StatusView("concluida", "Concluída", "Concluída", "green", completed=True)
REJECTED = StatusView("recusada", "Recusada", "Recusada", "red")
CLOSED = StatusView("encerrada", "Vaga encerrada", "Vaga encerrada", "gray")
_ENDINGS = {
    S.CANCELLED_BY_FREELANCER: StatusView("cancelada", "Cancelada por você", "Cancelada pelo profissional", "red"),
    S.CANCELLED_BY_COMPANY: StatusView("cancelada", "Cancelada pela empresa", "Cancelada por você", "red"),
    S.NO_SHOW: StatusView("falta", "Não compareceu", "Não compareceu", "red"),
    S.EXPIRED: StatusView("expirada", "Pagamento não concluído", "Pagamento não concluído", "gray"),
}
_BY_STATE = {
    S.AWAITING_PAYMENT: AWAITING,
    S.SCHEDULED: ACCEPTED,
    S.CONFIRMED: ACCEPTED,
    S.UNCONFIRMED: ACCEPTED,
    S.IN_PROGRESS: WORKING,
    S.ENDED: WORKING,
    S.HOURS_SENT: WORKING,
    S.ADJUSTMENT: WORKING,
    S.DISPUTED: WORKING,
    S.APPROVED: COMPLETED,
    S.PAID: COMPLETED,
    **_ENDINGS,
}


def view(status: str, hiring_state: str | None, vaga_stage: str | None) -> StatusView:
    """How an application is shown and counted.

    Args:
        status: The application's status (models.ApplicationStatus).
        hiring_state: Its hiring's state (models.HiringState), or None when it has no hiring.
        vaga_stage: The vaga's stage (`Job.vaga_status`; services/jobs/job_lifecycle.py).

    Returns:
        The label each side reads, the badge's tone and the counters the application belongs to.
    """
    finished = vaga_stage is not None and job_lifecycle.is_finished(vaga_stage)
    if status == A.REJECTED:
        return REJECTED
    if status == A.ACCEPTED:
        shown = _BY_STATE.get(hiring_state, ACCEPTED) if hiring_state is not None else ACCEPTED
        return COMPLETED if finished and shown.active else shown
    return CLOSED if finished else PENDING  # pending (an expired unpaid acceptance is pending again)


def _states(counter: str) -> list[str]:
    """The hiring states an accepted application on an open vaga counts under `counter` in."""
    return sorted(state for state in S if getattr(view(A.ACCEPTED, state, JobStatus.OPEN), counter))


LIVE_STATES = _states("active")  # still moving: active, or 'Concluída' once the vaga is closed
DONE_STATES = _states("completed")  # approved or paid


def _live_shift():
    return or_(Hiring.id.is_(None), Hiring.state.in_(LIVE_STATES))


def active_condition(include_pending: bool = True):
    """SQL twin of `view(...).active` over Application, Job and an outer-joined Hiring."""
    accepted = and_(Application.status == A.ACCEPTED, _live_shift())
    waiting = or_(accepted, Application.status == A.PENDING) if include_pending else accepted
    return and_(waiting, job_lifecycle.unfinished())


def completed_condition():
    """SQL twin of `view(...).completed` over Application, Job and an outer-joined Hiring."""
    return and_(
        Application.status == A.ACCEPTED,
        or_(Hiring.state.in_(DONE_STATES), and_(job_lifecycle.finished(), _live_shift())),
    )


def rating_open(hiring_state: str | None, vaga_stage: str | None) -> bool:
    """Ratings open on an accepted application once it reads 'Concluída' (never on a cancelled or missed shift)."""
    return view(A.ACCEPTED, hiring_state, vaga_stage).completed
