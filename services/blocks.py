"""Blocks both ways: 'Bloquear profissional' and 'Não quero trabalhar com esta empresa'.

The only writer of `blocks` (docs/product.md "Bloqueios"). A block between a company and a
freelancer, whichever side made it, hides the company's vagas from the freelancer on every path
and refuses their applications (services/visibility.py), takes the freelancer out of the company's
team and ends what is pending between them: the freelancer's pending applications to the company's
vagas (refused when the company blocks, withdrawn when the freelancer does) and pending invites.
Shifts already agreed stay as they are: a block is about the future, and a cancellation has its own
rules and fees (docs/product.md "Turnos").
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, literal, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from core.formatting import short_date
from core.types import utcnow
from models import (
    Application,
    ApplicationStatus,
    Block,
    Hiring,
    HiringState,
    Job,
    Profile,
    Role,
    TeamMember,
    User,
)
from services import invites, visibility
from services.errors import NotAllowed
from services.jobs import company_name

BLOCKED = "Profissional bloqueado. Suas vagas não aparecem mais para essa pessoa."
UNBLOCKED = "Profissional desbloqueado."
AVOIDED = "Pronto. Você não verá mais as vagas desta empresa."
ALLOWED = "Você voltará a ver as vagas desta empresa."
CANNOT_BLOCK = "Você só pode bloquear profissionais que se candidataram às suas vagas."
COMPANY_NOT_FOUND = "Empresa não encontrada."
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


def _pending_applications(company_id: int, freelancer_id: int):
    """The freelancer's pending applications to the company's vagas (a WHERE clause)."""
    owned = select(Job.id).where(Job.cliente_id == company_id)
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


def avoid_company(session: Session, freelancer_id: int, company_id: int, now: datetime | None = None) -> None:
    """'Não quero trabalhar com esta empresa': the freelancer stops seeing the company's vagas.

    Their pending applications to its vagas are withdrawn, they leave its team, its pending invites
    to them are declined.

    Raises:
        NotAllowed: Not a freelancer (FREELANCERS_ONLY), or no such company (COMPANY_NOT_FOUND).
    """
    now = now or utcnow()
    if not _active_user(session, freelancer_id, Role.FREELANCER):
        raise NotAllowed(FREELANCERS_ONLY)
    if not _active_user(session, company_id, Role.CLIENT):
        raise NotAllowed(COMPANY_NOT_FOUND)
    _insert(session, freelancer_id, company_id, now)
    session.execute(
        delete(Application)
        .where(*_pending_applications(company_id, freelancer_id))
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
    """A company the freelancer worked for: its id, name and the paid shifts there ('3 turnos pagos')."""

    id: int
    name: str
    shifts: str


WORKED_SHOWN = 5


def freelancer_companies(session: Session, freelancer_id: int) -> tuple[list[WorkedWith], list[BlockedView]]:
    """'Empresas com quem você mais trabalha' and 'Empresas que você não quer ver', in one query.

    Returns:
        Up to WORKED_SHOWN companies by paid shifts together, most first (those the freelancer
        blocked left out), and the companies the freelancer blocked, newest first.
    """
    avoided_ids = select(Block.blocked_id).where(Block.blocker_id == freelancer_id)
    worked = (
        select(
            literal("worked").label("kind"),
            Hiring.company_id.label("company_id"),
            func.count().label("shifts"),
            func.max(Hiring.inicio_em).label("at"),
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
        Block.blocked_id.label("company_id"),
        literal(0).label("shifts"),
        Block.created_at.label("at"),
    ).where(Block.blocker_id == freelancer_id)
    both = union_all(select(worked), avoided).subquery()
    rows = session.execute(
        select(both, Profile.empresa, Profile.nome, User.deleted_at)
        .join(User, User.id == both.c.company_id)
        .join(Profile, Profile.user_id == both.c.company_id, isouter=True)
        .order_by(both.c.kind, both.c.shifts.desc(), both.c.at.desc(), both.c.company_id)
    ).all()

    def name(row) -> str:
        return REMOVED_NAME if row.deleted_at else company_name(False, row.empresa, row.nome)

    worked_with = [
        WorkedWith(
            id=row.company_id,
            name=name(row),
            shifts="1 turno pago" if row.shifts == 1 else f"{row.shifts} turnos pagos",
        )
        for row in rows
        if row.kind == "worked"
    ]
    avoided_list = [
        BlockedView(id=row.company_id, name=name(row), since=short_date(row.at))
        for row in rows
        if row.kind == "avoided"
    ]
    return worked_with, avoided_list


def company_of_job(session: Session, job_id: int, freelancer_id: int) -> int | None:
    """The company of an open vaga the freelancer can see and that shows its name.

    None for an anonymous, closed, hidden or missing one: there is no company to avoid by name.
    """
    row = session.execute(
        select(Job.cliente_id, Job.anuncio_anonimo).where(Job.id == job_id, visibility.open_to(freelancer_id))
    ).first()
    return row.cliente_id if row is not None and not row.anuncio_anonimo else None
