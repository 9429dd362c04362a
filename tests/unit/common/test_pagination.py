"""Every list a user sees comes one bounded page at a time: the services' pages and the states' pagers.

Lists behind the pager (dashboard tabs, conversations, category companies) read ?page=N from the
URL and link the other pages; lists that grow in place (Minhas Vagas, the applicants dialog, the
notifications, a profile's applications) append a slice with 'Carregar mais'.
"""

from datetime import timedelta

import pytest

from app.pages.category import CategoryState
from app.pages.chats.state import ChatListState
from app.pages.client_dashboard import ClientDashboardState
from app.pages.company_jobs.state import CompanyJobsState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core.db import session_scope
from core.types import utcnow
from models import Chat, Job, Notification, Profile, Role, User
from services.common import paging
from services.jobs import category_companies
from services.reach import chat_sending, chats
from services.screens import company_dashboard, freelancer_dashboard
from states.dashboard import DashboardState
from tests.support.factories import make_application, make_cast, make_company, make_job
from tests.support.state_harness import cookie_for, run, state_for, toasts

SIZE = paging.DASHBOARD_PAGE_SIZE
EXTRA = 3


@pytest.fixture
def cast(db):
    return make_cast(db)


def _freelancers(db, count: int) -> list[User]:
    people = [User(email=f"pessoa{n}@teste.com.br", password_hash="x", role=Role.FREELANCER) for n in range(count)]
    db.add_all(people)
    db.flush()
    db.add_all(
        Profile(user_id=p.id, tipo_usuario=Role.FREELANCER, nome=f"Pessoa {n:02d}") for n, p in enumerate(people)
    )
    db.flush()
    return people


def _jobs(db, company: User, count: int, **fields) -> list[Job]:
    return [make_job(db, company, f"Vaga {n:02d}", hours_ago=n, **fields) for n in range(count)]


def _chats(db, cast, count: int) -> list[Chat]:
    """`count` conversations of the company with the freelancer, the first one the most recently active."""
    rows = []
    for n, job in enumerate(_jobs(db, cast.company, count)):
        application = make_application(db, job, cast.freelancer, status="accepted")
        chat = Chat(client_id=cast.company.id, freelancer_id=cast.freelancer.id, application_id=application.id)
        chat.updated_at = utcnow() - timedelta(minutes=n)
        db.add(chat)
        rows.append(chat)
    db.flush()
    return rows


# --- services ------------------------------------------------------------------------------------


def test_clamp_keeps_the_page_within_the_pages_that_exist():
    assert paging.clamp(1, 0, 20) == (1, 1)
    assert paging.clamp(3, 41, 20) == (3, 3)
    assert paging.clamp(9, 41, 20) == (3, 3)
    assert paging.clamp("2", 41, 20) == (1, 3)
    assert paging.clamp(True, 41, 20) == (1, 3)
    assert paging.clamp(-4, 41, 20) == (1, 3)


def test_the_conversation_list_comes_in_pages_of_the_latest_activity(db, cast):
    rows = _chats(db, cast, SIZE + EXTRA)

    first = chats.list_for(db, cast.company.id)
    second = chats.list_for(db, cast.company.id, 2)

    assert (first.total, first.page, first.pages) == (SIZE + EXTRA, 1, 2)
    assert [c["id"] for c in first.items] == [c.id for c in rows[:SIZE]]
    assert [c["id"] for c in second.items] == [c.id for c in rows[SIZE:]]
    assert chats.list_for(db, cast.company.id, 99).page == 2
    assert chats.list_for(db, cast.freelancer.id).total == SIZE + EXTRA
    assert chats.list_for(db, cast.other.id) == paging.Page()


def test_a_new_message_moves_its_conversation_to_the_first_page(db, cast):
    rows = _chats(db, cast, SIZE + EXTRA)
    oldest = rows[-1]

    chat_sending.post(db, oldest, cast.freelancer.id, "Ainda estou disponível.")

    [top, *_] = chats.list_for(db, cast.company.id).items
    assert (top["id"], top["last_message"], top["unread"]) == (oldest.id, "Ainda estou disponível.", 1)


def test_company_hirings_and_freelancers_come_in_pages(db, cast):
    job = make_job(db, cast.company, "Evento grande")
    people = _freelancers(db, SIZE + EXTRA)
    for n, person in enumerate(people):
        make_application(db, job, person, created_at=utcnow() - timedelta(minutes=n))

    hirings = company_dashboard.company_hirings(db, cast.company.id, 2)
    freelancers = company_dashboard.company_freelancers(db, cast.company.id)
    last = company_dashboard.company_freelancers(db, cast.company.id, 2)

    assert (hirings.total, hirings.page, len(hirings.items)) == (SIZE + EXTRA, 2, EXTRA)
    assert (freelancers.total, freelancers.pages, len(freelancers.items)) == (SIZE + EXTRA, 2, SIZE)
    assert [row["name"] for row in freelancers.items[:2]] == ["Pessoa 00", "Pessoa 01"]
    assert [row["name"] for row in last.items] == [f"Pessoa {n}" for n in range(SIZE, SIZE + EXTRA)]
    assert company_dashboard.company_hirings(db, cast.rival.id) == paging.Page()


def test_freelancer_applications_come_in_pages_and_the_overview_shows_the_latest_three(db, cast):
    for n, job in enumerate(_jobs(db, cast.company, SIZE + EXTRA)):
        make_application(db, job, cast.freelancer, created_at=utcnow() - timedelta(minutes=n))

    second = freelancer_dashboard.freelancer_applications(db, cast.freelancer.id, 2)

    assert (second.total, second.page, second.pages) == (SIZE + EXTRA, 2, 2)
    assert [row["job_title"] for row in second.items] == [f"Vaga {n}" for n in range(SIZE, SIZE + EXTRA)]
    assert [row["job_title"] for row in freelancer_dashboard.recent_applications(db, cast.freelancer.id)] == [
        "Vaga 00",
        "Vaga 01",
        "Vaga 02",
    ]


def test_company_jobs_come_in_slices_with_totals_per_tab(db, cast):
    _jobs(db, cast.company, SIZE + EXTRA)
    _jobs(db, cast.company, 2, status="archived", is_archived=True)
    make_job(db, cast.rival, "Vaga da rival")

    rest = company_dashboard.company_jobs(db, cast.company.id, offset=SIZE, tab="active")

    assert company_dashboard.company_job_totals(db, cast.company.id) == (SIZE + EXTRA, 0, 2)
    assert company_dashboard.company_job_totals(db, cast.company.id, search="vaga 01") == (1, 0, 1)
    assert len(company_dashboard.company_jobs(db, cast.company.id, tab="active")) == SIZE
    assert [row["title"] for row in rest] == [f"Vaga {n}" for n in range(SIZE, SIZE + EXTRA)]


def test_category_companies_come_in_pages_most_jobs_first(db, cast):
    for n in range(SIZE + EXTRA):
        owner = User(email=f"categoria{n}@teste.com.br", password_hash="x", role=Role.CLIENT)
        db.add(owner)
        db.flush()
        db.add(Profile(user_id=owner.id, tipo_usuario=Role.CLIENT, empresa=f"Empresa {n:02d}"))
        make_job(db, owner, "Garçom", categoria="eventos")
    _jobs(db, cast.company, 2, categoria="eventos")

    first = category_companies.companies_in_category(db, "eventos")
    second = category_companies.companies_in_category(db, "eventos", 2)

    assert (first.total, first.pages) == (SIZE + EXTRA + 1, 2)
    assert first.items[0] == {
        "id": cast.company.id,
        "name": "Hotel Atlântico",
        "photo": "",
        "open_jobs": 2,
        "punctual": False,
        "punctual_summary": "",
    }
    assert [c["name"] for c in first.items[1:3]] == ["Empresa 00", "Empresa 01"]
    assert [c["name"] for c in second.items] == [f"Empresa {n}" for n in range(SIZE - 1, SIZE + EXTRA)]


# --- states: the pager ---------------------------------------------------------------------------


def test_a_dashboard_tab_reads_its_page_from_the_url_and_links_the_others(db, cast):
    job = make_job(db, cast.company, "Evento grande")
    for person in _freelancers(db, SIZE + EXTRA):
        make_application(db, job, person)
    db.commit()
    state = state_for(
        ClientDashboardState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "hirings", "page": "2"}
    )

    assert toasts(run(state, ClientDashboardState.load)) == []

    assert len(state.hirings) == EXTRA
    assert [item["href"] for item in state.pager_items] == [
        "/client-dashboard?tab=hirings",
        "/client-dashboard?tab=hirings&page=2",
    ]
    assert (state.prev_href, state.next_href) == ("/client-dashboard?tab=hirings", "")


def test_the_freelancer_applications_tab_counts_all_and_shows_one_page(db, cast):
    for job in _jobs(db, cast.company, SIZE + EXTRA):
        make_application(db, job, cast.freelancer)
    db.commit()
    state = state_for(
        FreelancerDashboardState, cookie_for(db, cast.freelancer), "/freelancer-dashboard", {"tab": "applications"}
    )

    run(state, FreelancerDashboardState.load)

    assert (state.applications_total, len(state.applications)) == (SIZE + EXTRA, SIZE)
    assert state.next_href == "/freelancer-dashboard?tab=applications&page=2"


def test_the_conversation_page_follows_page_in_the_url(db, cast):
    _chats(db, cast, SIZE + EXTRA)
    db.commit()
    state = state_for(ChatListState, cookie_for(db, cast.company), "/client-dashboard/chats", {"page": "2"})

    run(state, ChatListState.load_client)

    assert (state.total, len(state.chats)) == (SIZE + EXTRA, EXTRA)
    assert state.prev_href == "/client-dashboard/chats"
    assert [item["label"] for item in state.pager_items] == ["1", "2"]


def test_the_category_page_links_its_pages(db, cast):
    for n in range(SIZE + EXTRA):
        owner = User(email=f"categoria{n}@teste.com.br", password_hash="x", role=Role.CLIENT)
        db.add(owner)
        db.flush()
        db.add(Profile(user_id=owner.id, tipo_usuario=Role.CLIENT, empresa=f"Empresa {n:02d}"))
        make_job(db, owner, "Garçom", categoria="musica")
    db.commit()
    state = state_for(CategoryState, "", "/categories/musica")

    run(state, CategoryState.load)

    assert (state.total, len(state.companies)) == (SIZE + EXTRA, SIZE)
    assert state.next_href == "/categories/musica?page=2"


# --- states: 'Carregar mais' ---------------------------------------------------------------------


def test_minhas_vagas_counts_every_job_and_loads_more_in_place(db, cast):
    _jobs(db, cast.company, SIZE + EXTRA)
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "jobs"})
    run(state, CompanyJobsState.load)

    assert (state.active_total, len(state.active_jobs)) == (SIZE + EXTRA, SIZE)

    assert toasts(run(state, CompanyJobsState.more_active_jobs)) == []
    assert [job["title"] for job in state.active_jobs] == [f"Vaga {n:02d}" for n in range(SIZE + EXTRA)]
    assert state.loading_more_jobs is False

    last = state.active_jobs[-1]["id"]
    run(state, CompanyJobsState.archive, last)  # an action keeps the rows the company had loaded
    assert (state.active_total, state.archived_total) == (SIZE + EXTRA - 1, 1)
    assert len(state.active_jobs) == SIZE + EXTRA - 1
    assert [job["id"] for job in state.archived_jobs] == [last]


def test_the_applicants_dialog_loads_more_cards(db, cast):
    job = make_job(db, cast.company, "Evento grande")
    for person in _freelancers(db, SIZE + EXTRA):
        make_application(db, job, person)
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "jobs"})
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.open_applications, job.id)

    assert (len(state.applicants), state.applicants_more) == (SIZE, True)

    run(state, CompanyJobsState.more_applicants)

    assert len({card["id"] for card in state.applicants}) == SIZE + EXTRA
    assert state.applicants_more is False


def test_an_accepted_card_stays_in_place_and_more_skips_no_one(db, cast):
    """With more pending applicants than a page, 'Aceitar' keeps the card where it was, now accepted
    with its chat, and 'Carregar mais' afterwards brings every remaining applicant exactly once."""
    job = make_job(db, cast.company, "Evento grande", vagas_disponiveis=SIZE)
    people = _freelancers(db, SIZE + EXTRA)
    for n, person in enumerate(people):
        make_application(db, job, person, created_at=utcnow() - timedelta(minutes=n))
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, cast.company), "/client-dashboard", {"tab": "jobs"})
    run(state, CompanyJobsState.load)
    run(state, CompanyJobsState.open_applications, job.id)
    shown = [card["id"] for card in state.applicants]

    assert toasts(run(state, CompanyJobsState.accept_application, shown[5])) == ["success: Candidatura aceita"]

    assert [card["id"] for card in state.applicants] == shown
    assert state.applicants[5]["status"] == "accepted"
    assert state.applicants[5]["chat_id"] > 0

    run(state, CompanyJobsState.more_applicants)

    names = [card["name"] for card in state.applicants]
    assert sorted(names) == [f"Pessoa {n:02d}" for n in range(SIZE + EXTRA)]
    assert state.applicants_more is False


def test_another_company_gets_no_applicant_cards_of_a_foreign_job(db, cast):
    job = make_job(db, cast.company, "Evento grande")
    for person in _freelancers(db, SIZE + EXTRA):
        make_application(db, job, person)
    stranger = make_company(db, nome="Outra Pessoa", empresa="Outro Buffet")
    db.commit()
    state = state_for(CompanyJobsState, cookie_for(db, stranger), "/client-dashboard", {"tab": "jobs"})
    state.applications_job_id, state.applicants_more = job.id, True  # as if the dialog had a foreign job

    shown = toasts(run(state, CompanyJobsState.more_applicants))

    assert shown and state.applicants == []


def test_notifications_load_more_and_keep_older_rows_through_a_live_refresh(db, cast):
    now = utcnow()
    db.add_all(
        Notification(user_id=cast.company.id, type="other", message=f"Aviso {n}", created_at=now - timedelta(minutes=n))
        for n in range(30)
    )
    db.commit()
    state = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard")
    run(state, DashboardState.load_chrome)

    assert (state.notifications_total, len(state.notifications), state.notifications_more) == (30, 20, True)

    run(state, DashboardState.load_more_notifications)
    assert [n["message"] for n in state.notifications] == [f"Aviso {n}" for n in range(30)]
    assert state.notifications_more is False

    db.add(Notification(user_id=cast.company.id, type="other", message="Novidade"))
    db.commit()
    with session_scope() as fresh:
        state._refresh_counts(fresh, cast.company.id, notices=True)

    assert state.notifications_total == 31
    assert [n["message"] for n in state.notifications] == ["Novidade"] + [f"Aviso {n}" for n in range(30)]
    assert state._take_push() == "Novidade"


def test_a_visitor_gets_nothing_from_load_more(db, cast):
    state = state_for(DashboardState, "", "/client-dashboard")
    state.notifications_loaded, state.notifications_more = True, True
    state.notifications = [{"id": 1, "type": "other", "message": "x", "link": "", "date": "", "read": False}]

    assert run(state, DashboardState.load_more_notifications) == []
    assert len(state.notifications) == 1
