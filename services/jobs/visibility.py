"""Who may see and apply to which vaga, beyond the public ones (docs/product/trust.md "Minha equipe").

`services/job_lifecycle.public` is what everyone sees: the cached list, the search, the category
pages, the sitemap and a visitor's job page. A signed-in person may see a little more or less:

- a member of a company's team sees its team-first vagas (`jobs.equipe_ate` set) during the window;
- a company sees its own team-first and private vagas;
- a freelancer never sees the vagas of a company that blocked them ('Bloquear profissional',
  table `blocks`), anonymous ones included, whatever path they take;
- nor the vagas of a company they blocked themselves ('Não quero trabalhar com esta empresa') that
  show its name: its anonymous ones stay, because a block the freelancer chooses must not tell them
  who published a 'Confidencial' vaga (blocking halves of the companies would find it in log2(n)
  steps). An anonymous vaga is hidden alone with 'Não quero ver esta vaga' (table `hidden_jobs`).

Everything here is one SQL condition over the jobs table with the viewer as a bound parameter, so
the same rule serves the job page, the apply statement and the team-first list in one query each.
"""

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, exists, false, literal, or_, select, true, union_all

from models import Block, HiddenJob, Job, JobStatus, TeamMember

_JOBS = Job.__table__.c  # type: ignore[attr-defined]
_BLOCKS = Block.__table__.c  # type: ignore[attr-defined]
_TEAM = TeamMember.__table__.c  # type: ignore[attr-defined]
_HIDDEN_JOBS = HiddenJob.__table__.c  # type: ignore[attr-defined]


def blocked_between(company, freelancer):
    """SQL: a block exists between the company and the freelancer, in either direction."""
    return exists().where(
        or_(
            and_(_BLOCKS.blocker_id == company, _BLOCKS.blocked_id == freelancer),
            and_(_BLOCKS.blocker_id == freelancer, _BLOCKS.blocked_id == company),
        )
    )


def blocked_by_company(company, freelancer):
    """SQL: the company blocked the freelancer ('Bloquear profissional')."""
    return exists().where(_BLOCKS.blocker_id == company, _BLOCKS.blocked_id == freelancer)


def keeps_out(company, freelancer, named):
    """SQL: a block keeps the freelancer from one of the company's vagas.

    The company's block always; the freelancer's own only when the vaga shows the company's name.

    Args:
        company: The vaga's company (a column or a value).
        freelancer: The freelancer (a column, a bound parameter or a value).
        named: SQL, true when the vaga is not anonymous.
    """
    avoided = exists().where(_BLOCKS.blocker_id == freelancer, _BLOCKS.blocked_id == company)
    return or_(blocked_by_company(company, freelancer), and_(named, avoided))


def _hidden_job(viewer):
    """SQL: the viewer said 'Não quero ver esta vaga' of the jobs row."""
    return exists().where(_HIDDEN_JOBS.freelancer_id == viewer, _HIDDEN_JOBS.job_id == _JOBS.id)


def _kept_from(viewer):
    """SQL: the jobs row is kept from the viewer by a block or by 'Não quero ver esta vaga'."""
    return or_(keeps_out(_JOBS.cliente_id, viewer, _JOBS.anuncio_anonimo == false()), _hidden_job(viewer))


def in_team(company, freelancer):
    """SQL: the freelancer is a member of the company's team."""
    return exists().where(_TEAM.company_id == company, _TEAM.freelancer_id == freelancer)


def open_to(viewer=None):
    """SQL: the vaga is open and the viewer may see it and apply to it (None or 0: a visitor).

    Open and not archived, and: public; or team-first while the viewer is in the company's team;
    and never when a block keeps the viewer from it (`keeps_out`) or the viewer hid it ('Não quero
    ver esta vaga'). A company sees its own
    team-first and private vagas here too (it never applies: services/shifts/applications.py refuses
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
    return live & or_(own, and_(or_(public, team_first), ~_kept_from(viewer)))


@dataclass(frozen=True)
class Hidden:
    """What the lists must leave out for one freelancer (nothing for visitors and most freelancers).

    Attributes:
        companies: Companies that blocked the freelancer: every vaga of theirs.
        named: Companies the freelancer blocked: their vagas that show the name (not the anonymous ones).
        jobs: Vagas the freelancer hid one by one ('Não quero ver esta vaga').
    """

    companies: frozenset[int] = frozenset()
    named: frozenset[int] = frozenset()
    jobs: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.companies or self.named or self.jobs)

    def key(self) -> tuple:
        """A hashable, ordered form (a part of the list cache's key)."""
        return tuple(sorted(self.companies)), tuple(sorted(self.named)), tuple(sorted(self.jobs))

    def conditions(self) -> list:
        """SQL conditions over the jobs table that leave these vagas out (none when nothing is hidden)."""
        found = []
        if self.companies:
            found.append(_JOBS.cliente_id.not_in(sorted(self.companies)))
        if self.named:
            found.append(or_(_JOBS.anuncio_anonimo == true(), _JOBS.cliente_id.not_in(sorted(self.named))))
        if self.jobs:
            found.append(_JOBS.id.not_in(sorted(self.jobs)))
        return found


NOTHING_HIDDEN = Hidden()


def hidden_for(session, freelancer_id: int | None) -> Hidden:
    """What the lists leave out for this freelancer (nothing for visitors; one query otherwise)."""
    return viewer_facts(session, freelancer_id).hidden


@dataclass(frozen=True)
class ViewerFacts:
    """What a list needs to know of the freelancer looking at it: what is hidden, and their teams."""

    hidden: Hidden = NOTHING_HIDDEN
    teams: frozenset[int] = frozenset()


def viewer_facts(session, freelancer_id: int | None) -> ViewerFacts:
    """The freelancer's hidden companies and vagas and the companies whose team they are in (one query)."""
    if not freelancer_id:
        return ViewerFacts()
    rows = session.execute(
        union_all(
            select(literal("blocked"), _BLOCKS.blocker_id).where(_BLOCKS.blocked_id == freelancer_id),
            select(literal("avoided"), _BLOCKS.blocked_id).where(_BLOCKS.blocker_id == freelancer_id),
            select(literal("job"), _HIDDEN_JOBS.job_id).where(_HIDDEN_JOBS.freelancer_id == freelancer_id),
            select(literal("team"), _TEAM.company_id).where(_TEAM.freelancer_id == freelancer_id),
        )
    ).all()

    def of(kind: str) -> frozenset[int]:
        return frozenset(value for found, value in rows if found == kind)

    return ViewerFacts(hidden=Hidden(of("blocked"), of("avoided"), of("job")), teams=of("team"))


def team_first_open(freelancer_id: int):
    """SQL: open team-first vagas of the companies whose team has this freelancer, not kept from them."""
    return and_(
        _JOBS.status == JobStatus.OPEN,
        _JOBS.is_archived == false(),
        _JOBS.equipe_ate.is_not(None),
        _JOBS.privada == false(),
        in_team(_JOBS.cliente_id, freelancer_id),
        ~_kept_from(freelancer_id),
    )
