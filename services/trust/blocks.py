"""Blocks both ways ('Bloquear profissional', 'Não quero trabalhar com esta empresa') and hidden vagas.

The only writer of `blocks` and `hidden_jobs` (docs/product/trust.md "Bloqueios"). A block between a
company and a freelancer hides the company's vagas from the freelancer on every path and refuses
their applications (services/jobs/visibility.py): all of them when the company blocked, those that show
the company's name when the freelancer did. It takes the freelancer out of the company's team and
ends what is pending between them: the freelancer's pending applications (refused when the company
blocks; withdrawn when the freelancer does, from named vagas only) and pending invites. Shifts
already agreed stay as they are: a block is about the future, and a cancellation has its own rules
and fees (docs/product/shifts.md "Turnos").

A freelancer names the company to avoid only through something that already shows it to them by
name: an open vaga that is not anonymous, or a shift they had with it. Never by a company id: a
bare id would list the companies, and blocking halves of them would find who published an
anonymous ('Confidencial') vaga. An anonymous vaga offers 'Não quero ver esta vaga' instead, which
hides that vaga alone. Every id that cannot be used gets the same UNAVAILABLE, whatever it is.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, false, func, literal, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from core.formatting import short_date
from core.types import utcnow
from models import (
    Application,
    ApplicationStatus,
    Block,
    HiddenJob,
    Hiring,
    HiringState,
    Job,
    Profile,
    Role,
    TeamMember,
    User,
)
from services.common.errors import NotAllowed
from services.jobs import visibility
from services.jobs.jobs import company_name
from services.trust import invites

BLOCKED = "Profissional bloqueado. Suas vagas não aparecem mais para essa pessoa."
UNBLOCKED = "Profissional desbloqueado."
AVOIDED = "Pronto. Você não verá mais as vagas desta empresa."
ALLOWED = "Você voltará a ver as vagas desta empresa."
CANNOT_BLOCK = "Você só pode bloquear profissionais que se candidataram às suas vagas."
UNAVAILABLE = "Esta opção não está disponível aqui."
JOB_HIDDEN = "Pronto. Esta vaga não aparece mais para você."
JOB_SHOWN = "Você voltará a ver esta vaga."
NOT_BLOCKED = "Este bloqueio não existe mais."
FREELANCERS_ONLY = "Apenas freelancers podem deixar de ver vagas de uma empresa."
COMPANIES_ONLY = "Apenas empresas podem bloquear profissionais."
REMOVED_NAME = "Usuário removido"


@dataclass(frozen=True)
class BlockedView:
    """One row of a block list: the other side's id and name, and since when."""

    id: int
    name: str
    since: str


def _active_user(session: Session, user_id: int, role: Role) -> bool:
    user = session.get(User, user_id)
    return user is not None and user.role == role and user.is_active and user.deleted_at is None


def _knows(session: Session, company_id: int, freelancer_id: int) -> bool:
    """Whether the freelancer ever applied to one of the company's vagas (what lets the company block them)."""
    return (
        session.execute(
            select(Application.id)
            .join(Job, Job.id == Application.vaga_id)
            .where(Job.cliente_id == company_id, Application.freelancer_id == freelancer_id)
            .limit(1)
        ).first()
        is not None
    )


def _insert(session: Session, blocker_id: int, blocked_id: int, now: datetime) -> None:
    """Write the block once (a second click, or a second tab, finds it there)."""
    try:
        with session.begin_nested():
            session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id, created_at=now))
            session.flush()
    except IntegrityError:
        pass


def _pending_applications(company_id: int, freelancer_id: int, named_only: bool = False):
    """The freelancer's pending applications to the company's vagas (a WHERE clause).

    Args:
        company_id: The company.
        freelancer_id: The freelancer.
        named_only: Only to the vagas that show the company's name (a freelancer's own block leaves
            the anonymous ones alone: withdrawing them would say whose they are).
    """
    owned = select(Job.id).where(Job.cliente_id == company_id)
    if named_only:
        owned = owned.where(Job.anuncio_anonimo == false())
    return (
        Application.freelancer_id == freelancer_id,
        Application.status == ApplicationStatus.PENDING,
        Application.vaga_id.in_(owned),
    )


def _end_pending(session: Session, company_id: int, freelancer_id: int, now: datetime) -> None:
    """Leave the team and cancel pending invites between the two; their private vagas close."""
    session.execute(
        delete(TeamMember).where(TeamMember.company_id == company_id, TeamMember.freelancer_id == freelancer_id)
    )
    invites.end_between(session, company_id, freelancer_id, now)


def block_freelancer(session: Session, company_id: int, freelancer_id: int, now: datetime | None = None) -> None:
    """'Bloquear profissional': the company stops seeing this freelancer, and they its vagas.

    Their pending applications to the company's vagas are refused (without a notice: a refusal
    notice would only invite the question why), they leave the team, pending invites are cancelled.

    Raises:
        NotAllowed: Not a company, or the freelancer never applied to its vagas (CANNOT_BLOCK; also
            what a missing id gets).
    """
    now = now or utcnow()
    if not _active_user(session, company_id, Role.CLIENT):
        raise NotAllowed(COMPANIES_ONLY)
    if freelancer_id == company_id or not _knows(session, company_id, freelancer_id):
        raise NotAllowed(CANNOT_BLOCK)
    _insert(session, company_id, freelancer_id, now)
    session.execute(
        update(Application)
        .where(*_pending_applications(company_id, freelancer_id))
        .values(status=ApplicationStatus.REJECTED, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    _end_pending(session, company_id, freelancer_id, now)


def unblock_freelancer(session: Session, company_id: int, freelancer_id: int) -> None:
    """'Desbloquear': the company's own block goes (one the freelancer made stays).

    Raises:
        NotAllowed: No such block of this company (NOT_BLOCKED).
    """
    _remove(session, company_id, freelancer_id)


def avoid_company_of_job(session: Session, freelancer_id: int, job_id: int, now: datetime | None = None) -> None:
    """'Não quero trabalhar com esta empresa' on a vaga's page: the company named on it.

    Raises:
        NotAllowed: Not a freelancer (FREELANCERS_ONLY); the vaga is anonymous, closed, not shown to
            them or missing (UNAVAILABLE, the same for each).
    """
    _require_freelancer(session, freelancer_id)
    _avoid(session, freelancer_id, company_of_job(session, job_id, freelancer_id), now or utcnow())


def avoid_company_of_hiring(session: Session, freelancer_id: int, hiring_id: int, now: datetime | None = None) -> None:
    """'Não quero trabalhar com esta empresa' on a company the freelancer had a shift with (its card names it).

    Raises:
        NotAllowed: Not a freelancer (FREELANCERS_ONLY); not their shift, or missing (UNAVAILABLE).
    """
    _require_freelancer(session, freelancer_id)
    company_id = session.execute(
        select(Hiring.company_id).where(Hiring.id == hiring_id, Hiring.freelancer_id == freelancer_id)
    ).scalar()
    _avoid(session, freelancer_id, company_id, now or utcnow())


def _require_freelancer(session: Session, freelancer_id: int) -> None:
    if not _active_user(session, freelancer_id, Role.FREELANCER):
        raise NotAllowed(FREELANCERS_ONLY)


def _avoid(session: Session, freelancer_id: int, company_id: int | None, now: datetime) -> None:
    """The freelancer stops seeing the named vagas of a company already shown to them by name.

    Their pending applications to those vagas are withdrawn, they leave its team, its pending
    invites to them are cancelled. Its anonymous vagas and the applications to them stay.

    Raises:
        NotAllowed: No company to avoid, or one whose account is gone (UNAVAILABLE).
    """
    if company_id is None or not _active_user(session, company_id, Role.CLIENT):
        raise NotAllowed(UNAVAILABLE)
    _insert(session, freelancer_id, company_id, now)
    session.execute(
        delete(Application)
        .where(*_pending_applications(company_id, freelancer_id, named_only=True))
        .execution_options(synchronize_session=False)
    )
    _end_pending(session, company_id, freelancer_id, now)


def allow_company(session: Session, freelancer_id: int, company_id: int) -> None:
    """Undo 'Não quero trabalhar com esta empresa' (a block the company made stays).

    Raises:
        NotAllowed: No such block of this freelancer (NOT_BLOCKED).
    """
    _remove(session, freelancer_id, company_id)


def _remove(session: Session, blocker_id: int, blocked_id: int) -> None:
    removed = session.execute(
        delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
    ).rowcount
    if not removed:
        raise NotAllowed(NOT_BLOCKED)


def hide_job(session: Session, freelancer_id: int, job_id: int, now: datetime | None = None) -> None:
    """'Não quero ver esta vaga': this vaga alone leaves the freelancer's lists, search and job page.

    Only a vaga shown to them now (open, not kept from them); hiding it again changes nothing. Their
    pending application to it is withdrawn. Its company, and its other vagas, are untouched.

    Raises:
        NotAllowed: Not a freelancer (FREELANCERS_ONLY); the vaga is closed, not shown to them or
            missing (UNAVAILABLE).
    """
    _require_freelancer(session, freelancer_id)
    if _hidden(session, freelancer_id, job_id):
        return
    shown = session.execute(select(Job.id).where(Job.id == job_id, visibility.open_to(freelancer_id))).first()
    if shown is None:
        raise NotAllowed(UNAVAILABLE)
    try:
        with session.begin_nested():
            session.add(HiddenJob(freelancer_id=freelancer_id, job_id=job_id, created_at=now or utcnow()))
            session.flush()
    except IntegrityError:
        return  # a second tab hid it first
    session.execute(
        delete(Application)
        .where(
            Application.vaga_id == job_id,
            Application.freelancer_id == freelancer_id,
            Application.status == ApplicationStatus.PENDING,
        )
        .execution_options(synchronize_session=False)
    )


def show_job(session: Session, freelancer_id: int, job_id: int) -> None:
    """Undo 'Não quero ver esta vaga' (the freelancer's own list only).

    Raises:
        NotAllowed: The freelancer has not hidden this vaga (UNAVAILABLE).
    """
    removed = session.execute(
        delete(HiddenJob).where(HiddenJob.freelancer_id == freelancer_id, HiddenJob.job_id == job_id)
    ).rowcount
    if not removed:
        raise NotAllowed(UNAVAILABLE)


def _hidden(session: Session, freelancer_id: int, job_id: int) -> bool:
    found = session.execute(
        select(HiddenJob.job_id).where(HiddenJob.freelancer_id == freelancer_id, HiddenJob.job_id == job_id)
    )
    return found.first() is not None


@dataclass(frozen=True)
class HiddenJobView:
    """One vaga of 'Vagas que você não quer ver': its id, title and since when (never its company)."""

    id: int
    title: str
    since: str


def export_hidden_jobs(session: Session, freelancer_id: int) -> list[dict]:
    """'Baixar meus dados': the vagas this freelancer hid (which and when)."""
    rows = session.execute(
        select(HiddenJob.job_id, HiddenJob.created_at, Job.titulo)
        .join(Job, Job.id == HiddenJob.job_id)
        .where(HiddenJob.freelancer_id == freelancer_id)
        .order_by(HiddenJob.created_at.desc(), HiddenJob.job_id)
    ).all()
    return [{"vaga_id": row.job_id, "vaga": row.titulo, "desde": short_date(row.created_at)} for row in rows]


def blocked_by(session: Session, blocker_id: int) -> list[BlockedView]:
    """Who this user blocked, newest first, with the name shown for each (company name for companies)."""
    rows = session.execute(
        select(Block.blocked_id, Block.created_at, Profile.empresa, Profile.nome, User.deleted_at)
        .join(User, User.id == Block.blocked_id)
        .join(Profile, Profile.user_id == Block.blocked_id, isouter=True)
        .where(Block.blocker_id == blocker_id)
        .order_by(Block.created_at.desc(), Block.blocked_id)
    ).all()
    return [
        BlockedView(
            id=row.blocked_id,
            name=REMOVED_NAME if row.deleted_at else company_name(False, row.empresa, row.nome),
            since=short_date(row.created_at),
        )
        for row in rows
    ]


def is_blocked(session: Session, blocker_id: int, blocked_id: int) -> bool:
    """Whether this user blocked that one."""
    found = session.execute(
        select(func.count()).select_from(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
    )
    return bool(found.scalar())


def export(session: Session, user_id: int) -> list[dict]:
    """'Baixar meus dados': the blocks this user made (who and when)."""
    return [{"usuario_id": row.id, "nome": row.name, "desde": row.since} for row in blocked_by(session, user_id)]


@dataclass(frozen=True)
class WorkedWith:
    """A company the freelancer worked for: its id, name, the paid shifts there ('3 turnos pagos').

    `hiring_id` is their latest paid shift there: what 'Não quero trabalhar com esta empresa' names.
    """

    id: int
    name: str
    shifts: str
    hiring_id: int


@dataclass(frozen=True)
class FreelancerCompanies:
    """The overview's three lists: companies worked with most, companies avoided, vagas hidden."""

    worked_with: list[WorkedWith]
    avoided: list[BlockedView]
    hidden_jobs: list[HiddenJobView]


WORKED_SHOWN = 5


def freelancer_companies(session: Session, freelancer_id: int) -> FreelancerCompanies:
    """'Empresas com quem você mais trabalha', 'Empresas que você não quer ver' and 'Vagas que você não quer ver'.

    One query. The worked-with list has up to WORKED_SHOWN companies by paid shifts together, most
    first (those the freelancer blocked left out); the other two are newest first. A hidden vaga
    comes with its title alone: never its company (an anonymous vaga's must stay unknown).
    """
    avoided_ids = select(Block.blocked_id).where(Block.blocker_id == freelancer_id)
    worked = (
        select(
            literal("worked").label("kind"),
            Hiring.company_id.label("ref_id"),
            func.count().label("shifts"),
            func.max(Hiring.inicio_em).label("at"),
            func.max(Hiring.id).label("hiring_id"),
            literal("").label("title"),
        )
        .join(User, User.id == Hiring.company_id)
        .where(
            Hiring.freelancer_id == freelancer_id,
            Hiring.state == HiringState.PAID,
            User.deleted_at.is_(None),
            Hiring.company_id.not_in(avoided_ids),
        )
        .group_by(Hiring.company_id)
        .order_by(func.count().desc(), Hiring.company_id)
        .limit(WORKED_SHOWN)
        .subquery()
    )
    avoided = select(
        literal("avoided").label("kind"),
        Block.blocked_id.label("ref_id"),
        literal(0).label("shifts"),
        Block.created_at.label("at"),
        literal(0).label("hiring_id"),
        literal("").label("title"),
    ).where(Block.blocker_id == freelancer_id)
    hidden = (
        select(
            literal("job").label("kind"),
            HiddenJob.job_id.label("ref_id"),
            literal(0).label("shifts"),
            HiddenJob.created_at.label("at"),
            literal(0).label("hiring_id"),
            Job.titulo.label("title"),
        )
        .join(Job, Job.id == HiddenJob.job_id)
        .where(HiddenJob.freelancer_id == freelancer_id)
    )
    both = union_all(select(worked), avoided, hidden).subquery()
    company = both.c.kind != "job"
    rows = session.execute(
        select(both, Profile.empresa, Profile.nome, User.deleted_at)
        .join(User, and_(company, User.id == both.c.ref_id), isouter=True)
        .join(Profile, and_(company, Profile.user_id == both.c.ref_id), isouter=True)
        .order_by(both.c.kind, both.c.shifts.desc(), both.c.at.desc(), both.c.ref_id)
    ).all()

    def name(row) -> str:
        return REMOVED_NAME if row.deleted_at else company_name(False, row.empresa, row.nome)

    return FreelancerCompanies(
        worked_with=[
            WorkedWith(
                id=row.ref_id,
                name=name(row),
                shifts="1 turno pago" if row.shifts == 1 else f"{row.shifts} turnos pagos",
                hiring_id=row.hiring_id,
            )
            for row in rows
            if row.kind == "worked"
        ],
        avoided=[
            BlockedView(id=row.ref_id, name=name(row), since=short_date(row.at))
            for row in rows
            if row.kind == "avoided"
        ],
        hidden_jobs=[
            HiddenJobView(id=row.ref_id, title=row.title, since=short_date(row.at)) for row in rows if row.kind == "job"
        ],
    )


def company_of_job(session: Session, job_id: int, freelancer_id: int) -> int | None:
    """The company of an open vaga the freelancer can see and that shows its name (what they may avoid).

    None for an anonymous, closed, hidden or missing one: there is no company to avoid by name.
    """
    row = session.execute(
        select(Job.cliente_id, Job.anuncio_anonimo).where(Job.id == job_id, visibility.open_to(freelancer_id))
    ).first()
    return row.cliente_id if row is not None and not row.anuncio_anonimo else None
