"""'Minha equipe': the freelancers a company worked with and wants to call again (docs/product/README.md).

A company adds a freelancer after at least one paid shift together ('Adicionar à equipe' on that
shift's card) and removes them at any time. The team's size is limited by the plan
(`rules.TEAM_SIZE`: 10 Gratuito, 100 Premium, no limit Enterprise); the count is taken under the
company's write lock, so two tabs adding at once cannot pass the limit. The tab shows each member
with the shifts done together, the average of the stars the company gave and the freelancer's
reliability. What a team is for next (offering a vaga to the team first, private invites) builds
on these rows.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core import shift_rules as rules
from core.catalog import Plan
from core.formatting import PROFESSIONAL, counted, short_date
from models import Application, Hiring, HiringState, Profile, Rating, Role, TeamMember, User
from services.common.errors import NotAllowed, ServiceError
from services.jobs import plans
from services.trust import reliability

ADDED = "Adicionado à equipe"
REMOVED = "Removido da equipe"
COMPANIES_ONLY = "A equipe é um recurso das empresas."
NOT_ELIGIBLE = "Adicione à equipe profissionais que já fizeram um turno pago com a sua empresa."
NOT_A_MEMBER = "Este profissional não está na sua equipe."
WORKED = frozenset({HiringState.PAID})


@dataclass(frozen=True)
class TeamView:
    """The 'Minha equipe' tab: the members, and how many the plan allows.

    Attributes:
        members: Newest first.
        size_text: '3 de 10 profissionais no plano Gratuito' ('3 profissionais no plano Enterprise, sem limite').
        full: The plan's limit is reached (the tab links to /pricing).
    """

    members: list["TeamMemberView"]
    size_text: str
    full: bool


@dataclass(frozen=True)
class TeamMemberView:
    """One member as the company sees them."""

    id: int
    name: str
    profession: str
    photo: str
    shifts: str  # '4 turnos com a sua empresa'
    stars: str  # 'Sua avaliação média: 4,5' ('' when never rated)
    reliability: str  # 'Comparecimento 95% · …' ('' below the minimum of shifts)
    added: str  # dd/MM/yyyy


def limit_for(session: Session, company_id: int) -> int | None:
    """How many members the company's plan allows (None: no limit)."""
    return _limit_of(plans.current_plan(session, company_id))


def _limit_of(plan: Plan) -> int | None:
    """How many members `plan` allows (None: no limit)."""
    return rules.TEAM_SIZE.get(plan.slug, rules.TEAM_SIZE["free"])


def limit_message(session: Session, company_id: int) -> str:
    """'Sua equipe chegou ao limite de 10 profissionais do plano Gratuito.'."""
    plan = plans.current_plan(session, company_id)
    return f"Sua equipe chegou ao limite de {limit_for(session, company_id)} profissionais do plano {plan.name}."


def _company(session: Session, company_id: int) -> None:
    user = session.get(User, company_id)
    if user is None or user.role != Role.CLIENT or not user.is_active or user.deleted_at is not None:
        raise NotAllowed(COMPANIES_ONLY)


def worked_together(session: Session, company_id: int, freelancer_id: int) -> bool:
    """Whether the freelancer did at least one paid shift for the company."""
    return (
        session.exec(
            select(Hiring.id).where(
                Hiring.company_id == company_id, Hiring.freelancer_id == freelancer_id, Hiring.state.in_(WORKED)
            )
        ).first()
        is not None
    )


def member_ids(session: Session, company_id: int, freelancer_ids: list[int]) -> set[int]:
    """Which of these freelancers are in the company's team (one query)."""
    if not freelancer_ids:
        return set()
    return set(
        session.exec(
            select(TeamMember.freelancer_id).where(
                TeamMember.company_id == company_id, TeamMember.freelancer_id.in_(freelancer_ids)
            )
        ).all()
    )


def size(session: Session, company_id: int) -> int:
    """How many members the company's team has."""
    return session.exec(select(func.count()).select_from(TeamMember).where(TeamMember.company_id == company_id)).one()


def add(session: Session, company_id: int, freelancer_id: int, now: datetime) -> None:
    """'Adicionar à equipe': add a freelancer the company worked with; adding a member again is harmless.

    Raises:
        NotAllowed: Not a company, or the freelancer never did a paid shift for it (same answer as a
            missing freelancer: NOT_ELIGIBLE).
        ServiceError: The plan's limit is reached (`limit_message`); nothing is written.
    """
    _company(session, company_id)
    if not worked_together(session, company_id, freelancer_id):
        raise NotAllowed(NOT_ELIGIBLE)
    plans.hold_company(session, company_id)  # two tabs at the limit: the second counts the first
    if freelancer_id in member_ids(session, company_id, [freelancer_id]):
        return
    limit = limit_for(session, company_id)
    if limit is not None and size(session, company_id) >= limit:
        raise ServiceError(limit_message(session, company_id))
    try:
        with session.begin_nested():
            session.add(TeamMember(company_id=company_id, freelancer_id=freelancer_id, added_at=now))
            session.flush()
    except IntegrityError:
        return  # added meanwhile by another tab: the same result


def remove(session: Session, company_id: int, freelancer_id: int) -> None:
    """'Remover da equipe'.

    Raises:
        NotAllowed: Not a company, or not a member of its team.
    """
    _company(session, company_id)
    removed = session.execute(
        delete(TeamMember).where(TeamMember.company_id == company_id, TeamMember.freelancer_id == freelancer_id)
    ).rowcount
    if not removed:
        raise NotAllowed(NOT_A_MEMBER)


def team(session: Session, company_id: int) -> TeamView:
    """The 'Minha equipe' tab of the company, in at most five statements whatever the team's size.

    The members with their profiles, the shifts together, the stars given and the members'
    reliability are one statement each for the whole team (none per member), and the plan one more.
    """
    rows = session.exec(
        select(TeamMember, Profile)
        .join(Profile, Profile.user_id == TeamMember.freelancer_id, isouter=True)
        .where(TeamMember.company_id == company_id)
        .order_by(TeamMember.added_at.desc())
    ).all()
    ids = [member.freelancer_id for member, _profile in rows]
    together = _shifts_together(session, company_id, ids)
    stars = _stars_given(session, company_id, ids)
    reliable = reliability.summaries(session, ids)
    members = [
        TeamMemberView(
            id=member.freelancer_id,
            name=(profile.nome if profile else "") or "Profissional",
            profession=profile.profissao if profile else "",
            photo=profile.foto_url if profile else "",
            shifts=_shifts_text(together.get(member.freelancer_id, 0)),
            stars=f"Sua avaliação média: {stars[member.freelancer_id]:.1f}".replace(".", ",")
            if member.freelancer_id in stars
            else "",
            reliability=reliable.get(member.freelancer_id, ""),
            added=short_date(member.added_at),
        )
        for member, profile in rows
    ]
    plan = plans.current_plan(session, company_id)
    limit = _limit_of(plan)
    count = len(members)
    text = (
        f"{count} de {limit} profissionais no plano {plan.name}"
        if limit is not None
        else f"{counted(count, *PROFESSIONAL)} no plano {plan.name}, sem limite"
    )
    return TeamView(members=members, size_text=text, full=limit is not None and count >= limit)


def _shifts_text(count: int) -> str:
    return f"{count} turno{'' if count == 1 else 's'} com a sua empresa"


def _shifts_together(session: Session, company_id: int, ids: list[int]) -> dict[int, int]:
    if not ids:
        return {}
    return dict(
        session.exec(
            select(Hiring.freelancer_id, func.count())
            .where(Hiring.company_id == company_id, Hiring.freelancer_id.in_(ids), Hiring.state.in_(WORKED))
            .group_by(Hiring.freelancer_id)
        ).all()
    )


def _stars_given(session: Session, company_id: int, ids: list[int]) -> dict[int, float]:
    if not ids:
        return {}
    return {
        ratee: float(average)
        for ratee, average in session.exec(
            select(Rating.ratee_id, func.avg(Rating.stars))
            .join(Application, Application.id == Rating.application_id)
            .where(Rating.rater_id == company_id, Rating.ratee_id.in_(ids))
            .group_by(Rating.ratee_id)
        ).all()
    }


def export(session: Session, company_id: int) -> list[dict]:
    """The company's team in its own data export ('Baixar meus dados')."""
    return [
        {"profissional": view.name, "adicionado_em": view.added, "turnos": view.shifts}
        for view in team(session, company_id).members
    ]
