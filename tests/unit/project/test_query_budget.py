"""At most QUERY_BUDGET SQL statements per page-load or list handler, whatever the number of rows (no N+1).

Each case calls one handler the way Reflex does (tests/support/state_harness.py: a real session cookie,
so the session lookup is counted too) against a database holding a realistic amount of everything
the page shows: several pages of jobs, applications in every status, conversations with messages,
notifications and ratings. Every statement the handler sends is counted with SQLAlchemy's
`before_cursor_execute` event; a failure lists them, and `-rP` shows every handler's count.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlmodel import select

import core.db
from app.pages.category import CategoryState
from app.pages.chats.state import ChatListState, ChatRoomState
from app.pages.client_dashboard import ClientDashboardState
from app.pages.company_jobs.state import CompanyJobsState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from app.pages.freelancer_profile.state import FreelancerProfileState
from app.pages.job_detail.state import JobDetailState
from app.pages.jobs import JobsState
from core import bond_guard
from core.presence import get_presence
from core.types import utcnow
from models import Application, Chat, Hiring, Job, Message, Notification, Profile, Rating, Role, User
from services.jobs import job_list_cache
from services.shifts import bond
from states.apply import ApplyState
from states.dashboard import DashboardState
from tests.support.factories import make_application, make_company, make_freelancer, make_hiring, make_job
from tests.support.sql_log import sent_statements
from tests.support.state_harness import cookie_for, run, state_for

QUERY_BUDGET = 5
# 'Aceitar' (the company_jobs.accept case) is a write followed by reads: measured 30 statements on
# both engines. The session 1; the acceptance 21 on SQLite (its BEGIN IMMEDIATE, the thermometer's
# guard and the overlap check among them: services/shifts/overlaps.py, one statement) and 21 on PostgreSQL
# (the freelancer's advisory lock and the overlap check instead of BEGIN IMMEDIATE); the dialog's
# cards read again 3 (the thermometer's badge among them); the job lists 4. Each of the thermometer's
# two reads is one statement whatever the pair's history.
ACCEPT_BUDGET = 30
COMPANY_JOBS = 30
RIVAL_JOBS = 8
HELPERS = 6
CROWD = 24
MESSAGES_PER_CHAT = 6
NOTIFICATIONS_EACH = 30
STATUSES = ("open", "open", "closed", "in_progress", "archived")


@dataclass(frozen=True)
class World:
    """The people and objects of the cases."""

    company: User
    freelancer: User
    company_job_id: int
    company_chat_id: int
    freelancer_chat_id: int


def _jobs(db, owner: User, count: int, prefix: str) -> list[Job]:
    now = utcnow()
    jobs = []
    for n in range(count):
        status = STATUSES[n % len(STATUSES)]
        jobs.append(
            Job(
                cliente_id=owner.id,
                titulo=f"{prefix} garçom {n}",
                categoria="eventos" if n % 2 else "restaurante",
                descricao="Atendimento em evento.",
                localizacao="São Paulo",
                valor_hora=Decimal("30.00"),
                status=status,
                vaga_status="closed" if status in ("closed", "archived") else status,
                is_archived=status == "archived",
                criado_em=now - timedelta(hours=n),
            )
        )
    db.add_all(jobs)
    db.flush()
    return jobs


def _apply(db, jobs: list[Job], people: list[User]) -> list[Application]:
    rows = []
    for n, job in enumerate(jobs):
        for m, person in enumerate(people):
            if m and (n + m) % 2:
                continue
            accepted = job.status in ("closed", "in_progress", "archived") and m in (0, 1)
            rows.append(
                Application(
                    vaga_id=job.id,
                    freelancer_id=person.id,
                    status="accepted" if accepted else ("rejected" if m == 5 else "pending"),
                    mensagem="Tenho experiência.",
                )
            )
    db.add_all(rows)
    db.flush()
    return rows


def _converse(db, applications: list[Application], owners: dict[int, int]) -> list[Chat]:
    chats = [
        Chat(client_id=owners[a.vaga_id], freelancer_id=a.freelancer_id, application_id=a.id)
        for a in applications
        if a.status == "accepted"
    ]
    db.add_all(chats)
    db.flush()
    now = utcnow()
    db.add_all(
        Message(
            chat_id=chat.id,
            sender_id=chat.client_id if n % 2 else chat.freelancer_id,
            content=f"Mensagem {n}",
            created_at=now - timedelta(minutes=MESSAGES_PER_CHAT - n),
        )
        for chat in chats
        for n in range(MESSAGES_PER_CHAT)
    )
    return chats


def _rate(db, applications: list[Application], jobs: dict[int, Job]) -> None:
    db.add_all(
        Rating(application_id=a.id, rater_id=rater, ratee_id=ratee, stars=1 + a.id % 5, comment="Ótimo trabalho.")
        for a in applications
        if a.status == "accepted" and jobs[a.vaga_id].status in ("closed", "archived")
        for rater, ratee in (
            (jobs[a.vaga_id].cliente_id, a.freelancer_id),
            (a.freelancer_id, jobs[a.vaga_id].cliente_id),
        )
    )


def _crowd(db, job: Job) -> None:
    """CROWD more freelancers (with profiles) who applied to `job`, added in bulk."""
    people = [User(email=f"candidato{n}@teste.com.br", password_hash="x", role=Role.FREELANCER) for n in range(CROWD)]
    db.add_all(people)
    db.flush()
    db.add_all(
        Profile(user_id=person.id, tipo_usuario=Role.FREELANCER, nome=f"Candidato {n}")
        for n, person in enumerate(people)
    )
    db.add_all(Application(vaga_id=job.id, freelancer_id=person.id, mensagem="") for person in people)


def build_world(db) -> World:
    """Two companies with pages of jobs, freelancers with applications, chats, ratings and notices.

    The company's first job also has a crowd of applicants, more than one page of its dialog.
    """
    company = make_company(db, nome="Mariana Costa", empresa="Hotel Atlântico")
    rival = make_company(db, nome="Rui Rival", empresa="Outro Hotel")
    people = [make_freelancer(db, nome=f"Pessoa {n}", localizacao="São Paulo") for n in range(HELPERS)]
    jobs = _jobs(db, company, COMPANY_JOBS, "Hotel") + _jobs(db, rival, RIVAL_JOBS, "Rival")
    by_id = {job.id: job for job in jobs}
    applications = _apply(db, jobs, people)
    _crowd(db, jobs[0])
    chats = _converse(db, applications, {job.id: job.cliente_id for job in jobs})
    _rate(db, applications, by_id)
    db.add_all(
        Notification(user_id=user.id, type="other", message=f"Aviso {n}", read=n % 3 == 0)
        for user in (company, people[0])
        for n in range(NOTIFICATIONS_EACH)
    )
    db.commit()
    freelancer = people[0]
    return World(
        company=company,
        freelancer=freelancer,
        company_job_id=jobs[0].id,
        company_chat_id=next(c.id for c in chats if c.client_id == company.id),
        freelancer_chat_id=next(c.id for c in chats if c.freelancer_id == freelancer.id),
    )


def bond_pair(db, world: World, earlier: int = 4, freelancer: User | None = None) -> dict:
    """A vaga of the company next week with two pending applicants, the freelancer having worked for it before.

    The freelancer (the world's, or `freelancer`) did `earlier` paid shifts for the company, one a
    week in the weeks before it (4: with this one, 5 weeks of the last 8, a yellow 'Termômetro de
    vínculo' that warns without asking for the box), so accepting reads the thermometer (the guard)
    and the cards read again show the other applicant's (the badge). Two positions: the vaga stays
    open.

    Returns:
        The placeholders of the case: {'vaga': the vaga's id, 'application': the freelancer's application}.
    """
    freelancer = freelancer or world.freelancer
    start = utcnow() + timedelta(days=7)
    job = make_job(db, world.company, "Garçom fixo", inicio_em=start, vagas_disponiveis=2)
    application = make_application(db, job, freelancer)
    make_application(db, job, make_freelancer(db, nome="Outra Pessoa"))
    for weeks in range(1, earlier + 1):
        make_hiring(db, world.company, freelancer, start - timedelta(weeks=weeks))
    db.commit()
    return {"vaga": job.id, "application": application.id}


def coming_shifts(db, world: World) -> dict:
    """Shifts still to work: the company's soonest vaga with three people coming, one of them the world's freelancer.

    What the overviews' 'Próximo turno' reads (services/screens/next_shift.py).
    """
    soon = utcnow() + timedelta(days=2)
    people = [world.freelancer, make_freelancer(db, nome="Pessoa A"), make_freelancer(db, nome="Pessoa B")]
    for person in people:
        make_hiring(db, world.company, person, soon, state="agendada")
    db.commit()
    return {}


@contextmanager
def counted() -> Iterator[list[str]]:
    """Collect every SQL statement sent through the application's engine while the block runs.

    The job list cache starts empty: a handler is held to the budget when nothing is cached.
    """
    job_list_cache.clear()
    with sent_statements(core.db.get_engine()) as statements:
        yield statements


def _dashboard(kind: str, tab: str, **query) -> dict:
    path = "/client-dashboard" if kind == "company" else "/freelancer-dashboard"
    state = ClientDashboardState if kind == "company" else FreelancerDashboardState
    return {"state": state, "handler": "load", "who": kind, "path": path, "query": {"tab": tab, **query}}


CASES = {
    "jobs.list": {"state": JobsState, "handler": "load", "who": None, "path": "/jobs"},
    "jobs.search": {"state": JobsState, "handler": "load", "who": None, "path": "/jobs", "query": {"search": "garcom"}},
    "jobs.page2": {"state": JobsState, "handler": "load", "who": None, "path": "/jobs", "query": {"page": "2"}},
    "jobs.company": {
        "state": JobsState,
        "handler": "load",
        "who": None,
        "path": "/jobs",
        "query": {"empresa": "{company}"},
    },
    "job_detail.load": {"state": JobDetailState, "handler": "load", "who": None, "path": "/jobs/{job}"},
    # A signed-in freelancer's job page: the session, then the vaga under the visibility rule with
    # its 'Selo Empresa Pontual' (a column of the company's profile: no statement of its own).
    "job_detail.load_freelancer": {
        "state": JobDetailState,
        "handler": "load",
        "who": "freelancer",
        "path": "/jobs/{job}",
    },
    "job_detail.apply_status": {
        "state": ApplyState,
        "handler": "load_for_job",
        "who": "freelancer",
        "path": "/jobs/{job}",
    },
    "category.load": {"state": CategoryState, "handler": "load", "who": None, "path": "/categories/eventos"},
    "chrome.company": {
        "state": DashboardState,
        "handler": "load_chrome",
        "who": "company",
        "path": "/client-dashboard",
    },
    "chrome.freelancer": {
        "state": DashboardState,
        "handler": "load_chrome",
        "who": "freelancer",
        "path": "/freelancer-dashboard",
    },
    # 'Próximo turno' (services/screens/next_shift.py) adds one statement whatever the number of people coming.
    "company.overview": {**_dashboard("company", "overview"), "setup": coming_shifts, "budget": QUERY_BUDGET + 1},
    "company.jobs_tab": _dashboard("company", "jobs"),
    "company.hirings": _dashboard("company", "hirings"),
    "company.freelancers": _dashboard("company", "freelancers"),
    "company.messages": _dashboard("company", "messages"),
    "company.notifications": _dashboard("company", "notifications"),
    "company_jobs.load": {"state": CompanyJobsState, "handler": "load", "who": "company", "path": "/client-dashboard"},
    "company_jobs.search": {
        "state": CompanyJobsState,
        "handler": "set_search",
        "who": "company",
        "path": "/client-dashboard",
        "args": ("garçom",),
    },
    "company_jobs.applications": {
        "state": CompanyJobsState,
        "handler": "open_applications",
        "who": "company",
        "path": "/client-dashboard",
        "args": ("{job}",),
    },
    # The overview also lists open 'Contratar novamente' invites, and 'Próximo turno' (services/screens/next_shift.py):
    # one statement each whatever their number.
    "freelancer.overview": {**_dashboard("freelancer", "overview"), "setup": coming_shifts, "budget": QUERY_BUDGET + 2},
    # 'Buscar Vagas' reads the freelancer's blocks and teams first (services/jobs/visibility.py, one
    # statement whatever their number), then the list, then which results they applied to: one more
    # than the pages that show no per-viewer list. A team member's team-first vagas add one more.
    "freelancer.jobs": {**_dashboard("freelancer", "jobs"), "budget": QUERY_BUDGET + 1},
    "freelancer.jobs_search": {
        **_dashboard("freelancer", "jobs", search="garcom", page="2"),
        "budget": QUERY_BUDGET + 1,
    },
    "jobs.list_freelancer": {"state": JobsState, "handler": "load", "who": "freelancer", "path": "/jobs"},
    "freelancer.applications": _dashboard("freelancer", "applications"),
    "freelancer.messages": _dashboard("freelancer", "messages"),
    "chats.list_company": {
        "state": ChatListState,
        "handler": "load_client",
        "who": "company",
        "path": "/client-dashboard/chats",
    },
    "chats.list_freelancer": {
        "state": ChatListState,
        "handler": "load_freelancer",
        "who": "freelancer",
        "path": "/freelancer-dashboard/chats",
    },
    "chats.room_company": {
        "state": ChatRoomState,
        "handler": "load_client",
        "who": "company",
        "path": "/client-dashboard/chats/{company_chat}",
    },
    "chats.room_freelancer": {
        "state": ChatRoomState,
        "handler": "load_freelancer",
        "who": "freelancer",
        "path": "/freelancer-dashboard/chats/{freelancer_chat}",
    },
    "profile.company_view": {
        "state": FreelancerProfileState,
        "handler": "load",
        "who": "company",
        "path": "/freelancers/{freelancer}",
    },
    "profile.reviews_page2": {
        "state": FreelancerProfileState,
        "handler": "load",
        "who": "company",
        "path": "/freelancers/{freelancer}",
        "query": {"page": "2"},
    },
    "profile.self_preview": {
        "state": FreelancerProfileState,
        "handler": "load",
        "who": "freelancer",
        "path": "/freelancers/{freelancer}",
    },
    "profile.more_applications": {
        "state": FreelancerProfileState,
        "handler": "more_applications",
        "who": "company",
        "path": "/freelancers/{freelancer}",
        "after": "load",
    },
    "chrome.more_notifications": {
        "state": DashboardState,
        "handler": "load_more_notifications",
        "who": "company",
        "path": "/client-dashboard",
        "after": "load_chrome",
    },
    "company.hirings_page2": _dashboard("company", "hirings", page="2"),
    "company.messages_page2": _dashboard("company", "messages", page="2"),
    "company_jobs.more_active": {
        "state": CompanyJobsState,
        "handler": "more_active_jobs",
        "who": "company",
        "path": "/client-dashboard",
        "after": "load",
    },
    "company_jobs.more_archived": {
        "state": CompanyJobsState,
        "handler": "more_archived_jobs",
        "who": "company",
        "path": "/client-dashboard",
        "after": "load",
    },
    "company_jobs.more_applicants": {
        "state": CompanyJobsState,
        "handler": "more_applicants",
        "who": "company",
        "path": "/client-dashboard",
        "after": "open_applications",
        "args": ("{job}",),
    },
    # 'Aceitar' in the applications dialog: a write, not a page load, with a budget of its own
    # (ACCEPT_BUDGET). The acceptance (locks, the conditional update, the chat and its welcome, the
    # hiring and its event, the notice and its e-mail copy) and then the dialog's cards and the job
    # lists read again. The 'Termômetro de vínculo' costs one statement in the acceptance (the
    # red-box guard) and one in the cards read again (the badge), whatever the pair's history
    # (test_the_thermometer_costs_accepting_one_statement_and_the_cards_one).
    "company_jobs.accept": {
        "state": CompanyJobsState,
        "handler": "accept_application",
        "who": "company",
        "path": "/client-dashboard",
        "setup": bond_pair,
        "after": "open_applications",
        "after_args": ("{vaga}",),
        "args": ("{application}",),
        "budget": ACCEPT_BUDGET,
    },
    "freelancer.applications_page2": _dashboard("freelancer", "applications", page="2"),
    "chats.list_page2": {
        "state": ChatListState,
        "handler": "load_client",
        "who": "company",
        "path": "/client-dashboard/chats",
        "query": {"page": "2"},
    },
}


def _fill(value, world: World, extra: dict | None = None):
    """A case's path, query value or argument with the world's ids (and its setup's) put in."""
    if not isinstance(value, str):
        return value
    return value.format(
        company=world.company.id,
        freelancer=world.freelancer.id,
        job=world.company_job_id,
        company_chat=world.company_chat_id,
        freelancer_chat=world.freelancer_chat_id,
        **(extra or {}),
    )


def _args(values, world: World, extra: dict) -> list:
    """A handler's arguments with the ids put in (an id becomes the int the page sends)."""
    filled = [_fill(value, world, extra) for value in values]
    return [int(arg) if isinstance(arg, str) and arg.isdigit() else arg for arg in filled]


@pytest.fixture
def world(db) -> World:
    get_presence.cache_clear()
    yield build_world(db)
    get_presence.cache_clear()


@pytest.mark.parametrize("case", list(CASES))
def test_handler_stays_within_the_query_budget(db, world, case):
    spec = CASES[case]
    statements = _measure(db, world, spec)
    listing = "\n".join(f"  {n}. {sql[:300]}" for n, sql in enumerate(statements, 1))
    print(f"{case}: {len(statements)} statements")
    budget = spec.get("budget", QUERY_BUDGET)
    assert len(statements) <= budget, f"{case} sent {len(statements)} statements:\n{listing}"


def _measure(db, world: World, spec: dict) -> list[str]:
    """The statements the case's handler sends, called as Reflex does after the case's setup and `after` handler."""
    extra = spec["setup"](db, world) if "setup" in spec else {}
    who = {"company": world.company, "freelancer": world.freelancer, None: None}[spec["who"]]
    query = {key: _fill(value, world, extra) for key, value in spec.get("query", {}).items()}
    state = state_for(spec["state"], cookie_for(db, who), _fill(spec["path"], world, extra), query)
    args = _args(spec.get("args", ()), world, extra)
    handler = getattr(spec["state"], spec["handler"])
    if "after" in spec:  # the handler continues what another one showed ('Carregar mais', a dialog's buttons)
        if "after_args" in spec:
            run(state, getattr(spec["state"], spec["after"]), *_args(spec["after_args"], world, extra))
        else:  # a 'Carregar mais' handler takes no arguments: its page load's go to the page load
            run(state, getattr(spec["state"], spec["after"]), *args)
            args = []
    with counted() as statements:
        run(state, handler, *args)
    return statements


def _thermometer_reads(statements: list[str]) -> list[str]:
    """The statements that read a pair's shifts for the 'Termômetro de vínculo' (services/shifts/bond.py `_starts`)."""
    return [sql for sql in statements if sql.startswith("SELECT hirings.freelancer_id, hirings.inicio_em FROM hirings")]


def test_the_thermometer_costs_accepting_one_statement_and_the_cards_one(db, world):
    """'Aceitar' with a history between the pair sends what it sends without one: one guard read, one badge read."""
    spec = CASES["company_jobs.accept"]
    with_history = _measure(db, world, spec)
    newcomer = make_freelancer(db, nome="Sem Histórico")
    db.commit()
    without = _measure(db, world, {**spec, "setup": lambda db, world: bond_pair(db, world, 0, newcomer)})
    print(f"company_jobs.accept: {len(with_history)} statements with 4 earlier shifts, {len(without)} with none")
    assert len(with_history) == len(without)
    assert len(_thermometer_reads(with_history)) == 2  # the red-box guard in the acceptance, the cards' badge
    hired = db.exec(
        select(Hiring.freelancer_id).where(Hiring.company_id == world.company.id, Hiring.inicio_em > utcnow())
    ).all()
    assert sorted(hired) == sorted([world.freelancer.id, newcomer.id])  # both acceptances went through
    earlier = db.exec(select(Hiring.inicio_em).where(Hiring.freelancer_id == world.freelancer.id)).all()
    assert bond.reading(db, world.company.id, world.freelancer.id, max(earlier)).level == bond_guard.YELLOW
