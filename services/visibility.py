"""Who may see and apply to which vaga, beyond the public ones (docs/product.md "Minha equipe").

`services/job_lifecycle.public` is what everyone sees: the cached list, the search, the category
pages, the sitemap and a visitor's job page. A signed-in person may see a little more or less:

- a member of a company's team sees its team-first vagas (`jobs.equipe_ate` set) during the window;
- a company sees its own team-first and private vagas;
- a freelancer never sees the vagas of a company that blocked them or that they blocked
  ('Bloquear profissional' / 'Não quero trabalhar com esta empresa', table `blocks`), whatever
  path they take, anonymous vagas included (the block is by company, not by name shown).

Everything here is one SQL condition over the jobs table with the viewer as a bound parameter, so
the same rule serves the job page, the apply statement and the team-first list in one query each.
"""

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, exists, false, literal, or_, select, union, union_all

from models import Block, Job, JobStatus, TeamMember

_JOBS = Job.__table__.c  # type: ignore[attr-defined]
_BLOCKS = Block.__table__.c  # type: ignore[attr-defined]
_TEAM = TeamMember.__table__.c  # type: ignore[attr-defined]


def blocked_between(company, freelancer):
    """SQL: a block exists between the company and the freelancer, in either direction."""
    return exists().where(
        or_(
            and_(_BLOCKS.blocker_id == company, _BLOCKS.blocked_id == freelancer),
            and_(_BLOCKS.blocker_id == freelancer, _BLOCKS.blocked_id == company),
        )
    )


def in_team(company, freelancer):
    """SQL: the freelancer is a member of the company's team."""
    return exists().where(_TEAM.company_id == company, _TEAM.freelancer_id == freelancer)


def open_to(viewer=None):
    """SQL: the vaga is open and the viewer may see it and apply to it (None or 0: a visitor).

    Open and not archived, and: public; or team-first while the viewer is in the company's team;
    and never when a block stands between the company and the viewer. A company sees its own
    team-first and private vagas here too (it never applies: services/applications.py refuses
    companies before this). Private vagas are answered by their invite, not by applying.

    Args:
        viewer: The viewer's id: a bound parameter (`bindparam("viewer")`) or a plain int.
    """
    viewer = bindparam("viewer") if viewer is None else viewer
    company = _JOBS.cliente_id
    live = (_JOBS.status == JobStatus.OPEN) & (_JOBS.is_archived == false())
    public = _JOBS.equipe_ate.is_(None) & (_JOBS.privada == false())
    team_first = _JOBS.equipe_ate.is_not(None) & (_JOBS.privada == false()) & in_team(company, viewer)
    own = company == viewer
    return live & or_(own, and_(or_(public, team_first), ~blocked_between(company, viewer)))


def hidden_companies_statement(freelancer_id: int):
    """The companies a freelancer must not see: those they blocked and those that blocked them."""
    return union(
        select(_BLOCKS.blocked_id).where(_BLOCKS.blocker_id == freelancer_id),
        select(_BLOCKS.blocker_id).where(_BLOCKS.blocked_id == freelancer_id),
    )


def hidden_companies(session, freelancer_id: int | None) -> frozenset[int]:
    """The ids of the companies hidden from this freelancer (empty for visitors; one query otherwise)."""
    return viewer_facts(session, freelancer_id).hidden


@dataclass(frozen=True)
class ViewerFacts:
    """What a list needs to know of the freelancer looking at it: hidden companies, and their teams."""

    hidden: frozenset[int] = frozenset()
    teams: frozenset[int] = frozenset()


def viewer_facts(session, freelancer_id: int | None) -> ViewerFacts:
    """The freelancer's hidden companies and the companies whose team they are in (one query; none for visitors)."""
    if not freelancer_id:
        return ViewerFacts()
    hidden = hidden_companies_statement(freelancer_id).subquery()
    rows = session.execute(
        union_all(
            select(literal("hidden"), hidden.c[0]),
            select(literal("team"), _TEAM.company_id).where(_TEAM.freelancer_id == freelancer_id),
        )
    ).all()
    return ViewerFacts(
        hidden=frozenset(company for kind, company in rows if kind == "hidden"),
        teams=frozenset(company for kind, company in rows if kind == "team"),
    )


def team_first_open(freelancer_id: int):
    """SQL: open team-first vagas of the companies whose team has this freelancer, not blocked."""
    return and_(
        _JOBS.status == JobStatus.OPEN,
        _JOBS.is_archived == false(),
        _JOBS.equipe_ate.is_not(None),
        _JOBS.privada == false(),
        in_team(_JOBS.cliente_id, freelancer_id),
        ~blocked_between(_JOBS.cliente_id, freelancer_id),
    )
