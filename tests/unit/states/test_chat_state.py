"""The chat pages' handlers and live delivery, called as a browser would (real session cookies).

Live delivery (states/live.py) is driven with a stand-in for the Reflex app whose `modify_state`
hands out the tabs' own state trees, so what is checked is exactly what each tab would show.
"""

import asyncio

import pytest
from sqlmodel import select

from app.pages.chats.state import MAX_SHOWN, OLDER_FAILED, RECENT_FOLD, ChatListState, ChatRoomState
from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from core import signals
from core.db import session_scope
from core.presence import chat_place, get_presence
from core.routes import NoticeTarget
from core.signals import Ping
from core.types import utcnow
from models import Chat, Message, Notification, NotificationType, Profile, User
from services.jobs import job_alerts
from services.reach import chat_sending, chats, notifications
from states import live
from states.auth import AuthState
from states.dashboard import DashboardState
from tests.support.factories import make_application, make_cast, make_chat, make_job, make_message, snapshot
from tests.support.state_harness import cookie_for, run, state_for, toasts

CANNOT_SEND = "error: Erro | Não é possível enviar mensagem."


@pytest.fixture
def cast(db):
    return make_cast(db)


@pytest.fixture
def chat(db, cast):
    job = make_job(db, cast.company, "Bartender")
    chat = make_chat(db, make_application(db, job, cast.freelancer, status="accepted"), cast.company, cast.freelancer)
    make_message(db, chat, cast.company, "Bem-vindo!", minutes_ago=5)
    db.commit()
    return chat


def _room(db, user, chat_id, role="client", token=""):
    base = "/client-dashboard/chats" if role == "client" else "/freelancer-dashboard/chats"
    state = state_for(ChatRoomState, cookie_for(db, user), f"{base}/{chat_id}", token=token)
    run(state, ChatRoomState.load_client if role == "client" else ChatRoomState.load_freelancer)
    return state


def _chrome(state) -> DashboardState:
    root = state._get_root_state()
    return root.get_substate(DashboardState.get_full_name().split(".")[1:])


def _contents(state) -> list[str]:
    return [m["content"] for m in state.history + state.recent]


def _open_tab(fake_app, state, token):
    run(_chrome(state), DashboardState.load_chrome)
    fake_app.open_tab(state._get_root_state(), token)


# --- opening ---------------------------------------------------------------------------------


def test_a_participant_opens_the_conversation(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="freelancer", token="tab-f")

    assert state.status == "found"
    assert state.other_name == "Hotel Atlântico"  # the company, for the freelancer
    assert state.job_title == "Bartender"
    assert _contents(state) == ["Bem-vindo!"]
    assert asyncio.run(get_presence().tabs(cast.freelancer.id)) == {"tab-f": chat_place(chat.id)}


def test_a_conversation_with_a_deleted_account_stays_readable_and_closed(db, cast, chat, fake_app):
    open_state = _room(db, cast.freelancer, chat.id, role="freelancer")
    assert open_state.other_removed is False
    company = db.get(User, cast.company.id)
    company.deleted_at = utcnow()
    db.add(company)
    db.commit()

    state = _room(db, cast.freelancer, chat.id, role="freelancer")

    assert (state.status, state.other_removed) == ("found", True)
    assert _contents(state) == ["Bem-vindo!"]
    db.expire_all()  # the page's own session moved the read marker
    before = snapshot(db, Message, Notification, Chat)
    assert toasts(run(state, ChatRoomState.send_message, {"message": "Oi"})) == [CANNOT_SEND]
    db.expire_all()
    assert snapshot(db, Message, Notification, Chat) == before


@pytest.mark.parametrize("who", ["rival", "other"])
def test_a_stranger_gets_the_same_not_found_as_a_missing_chat(db, cast, chat, fake_app, who):
    intruder = getattr(cast, who)
    role = "client" if who == "rival" else "freelancer"

    foreign = _room(db, intruder, chat.id, role=role)
    missing = _room(db, intruder, chat.id + 999, role=role)

    for state in (foreign, missing):
        assert state.status == "missing"
        assert (state.other_name, state.job_title, state.history, state.recent) == ("", "", [], [])
        assert state._chat_id == 0
    assert asyncio.run(get_presence().tabs(intruder.id)) == {}


def test_the_wrong_role_route_loads_nothing(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="client")

    assert state.status == "loading"
    assert state.history == []


# --- sending ---------------------------------------------------------------------------------


def test_send_stores_shows_and_clears(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="freelancer")

    events = run(state, ChatRoomState.send_message, {"message": "Chego às 18h."})

    assert toasts(events) == []
    assert _contents(state) == ["Bem-vindo!", "Chego às 18h."]
    assert state.recent[-1]["mine"] is True
    assert state.sending is False
    assert state.announcement == "Mensagem enviada"
    assert any("chat-input" in str(event) for event in events)
    with session_scope() as fresh:
        assert fresh.exec(select(Message.content).order_by(Message.id.desc())).first() == "Chego às 18h."


@pytest.mark.parametrize("payload", [{"message": "   "}, {"message": None}, {}, "texto", None, {"message": ["x"]}])
def test_send_refuses_blank_or_malformed_input_and_keeps_the_text(db, cast, chat, fake_app, payload):
    state = _room(db, cast.freelancer, chat.id, role="freelancer")
    before = snapshot(db, Message, Notification)

    events = run(state, ChatRoomState.send_message, payload)

    assert toasts(events) == [f"error: Erro ao enviar mensagem | {chat_sending.MESSAGE_BLANK}"]
    assert not any("chat-input" in str(event) for event in events)
    db.expire_all()
    assert snapshot(db, Message, Notification) == before


def test_send_refuses_a_too_long_message(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="freelancer")

    events = run(state, ChatRoomState.send_message, {"message": "x" * 4001})

    assert toasts(events) == [f"error: Erro ao enviar mensagem | {chat_sending.MESSAGE_TOO_LONG}"]


def test_send_from_a_page_whose_state_expired_reopens_the_conversation_and_sends(db, cast, chat, fake_app):
    """A page left open past the state expiry still shows the conversation; its next send gets a fresh state."""
    state = state_for(ChatRoomState, cookie_for(db, cast.freelancer), f"/freelancer-dashboard/chats/{chat.id}")

    events = run(state, ChatRoomState.send_message, {"message": "Ainda está de pé?"})

    assert toasts(events) == []
    assert state.status == "found"
    assert _contents(state) == ["Bem-vindo!", "Ainda está de pé?"]
    with session_scope() as fresh:
        assert fresh.exec(select(Message.content).order_by(Message.id.desc())).first() == "Ainda está de pé?"


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("other", "/freelancer-dashboard/chats/{id}"),
        ("company", "/freelancer-dashboard/chats/{id}"),
        ("freelancer", "/freelancer-dashboard/chats/0"),
    ],
)
def test_send_from_a_fresh_state_is_refused_when_the_url_is_not_the_callers_conversation(
    db, cast, chat, fake_app, who, path
):
    state = state_for(ChatRoomState, cookie_for(db, getattr(cast, who)), path.format(id=chat.id))
    before = snapshot(db, Message, Notification, Chat)

    assert toasts(run(state, ChatRoomState.send_message, {"message": "Oi"})) == [CANNOT_SEND]
    db.expire_all()
    assert snapshot(db, Message, Notification, Chat) == before


def test_send_into_a_foreign_chat_is_refused_even_with_a_forged_backend_id(db, cast, chat, fake_app):
    state = _room(db, cast.other, chat.id, role="freelancer")
    state.status = "found"
    state._chat_id = chat.id  # what no browser can set: backend vars never leave the server
    before = snapshot(db, Message, Notification, Chat)

    events = run(state, ChatRoomState.send_message, {"message": "Olá, sou um intruso"})

    assert toasts(events) == [CANNOT_SEND]
    db.expire_all()
    assert snapshot(db, Message, Notification, Chat) == before


def test_a_visitor_cannot_send(db, cast, chat, fake_app):
    state = state_for(ChatRoomState, "", f"/client-dashboard/chats/{chat.id}")
    state.status = "found"
    state._chat_id = chat.id

    assert toasts(run(state, ChatRoomState.send_message, {"message": "Oi"})) == [CANNOT_SEND]


def test_a_double_submit_while_sending_is_ignored(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="freelancer")
    state.sending = True

    assert run(state, ChatRoomState.send_message, {"message": "Oi"}) == []
    assert db.exec(select(Message).where(Message.content == "Oi")).first() is None


def test_a_message_to_a_reader_elsewhere_notifies_them(db, cast, chat, fake_app):
    state = _room(db, cast.freelancer, chat.id, role="freelancer")

    run(state, ChatRoomState.send_message, {"message": "Oi, Mariana"})

    with session_scope() as fresh:
        notice = fresh.exec(select(Notification).where(Notification.user_id == cast.company.id)).one()
    assert notice.type == NotificationType.MESSAGE


def test_a_message_to_a_reader_in_the_conversation_does_not_notify(db, cast, chat, fake_app):
    company_tab = _room(db, cast.company, chat.id, token="tab-c")
    _open_tab(fake_app, company_tab, "tab-c")
    run(company_tab, ChatRoomState.load_client)  # load_chrome set the place to the dashboard; back to the chat
    state = _room(db, cast.freelancer, chat.id, role="freelancer")

    run(state, ChatRoomState.send_message, {"message": "Oi, Mariana"})

    with session_scope() as fresh:
        assert fresh.exec(select(Notification).where(Notification.user_id == cast.company.id)).all() == []


# --- older pages and the bounded window ------------------------------------------------------


def test_older_messages_load_on_demand_and_the_window_stays_bounded(db, cast, chat, fake_app):
    for number in range(MAX_SHOWN + 40):
        make_message(db, chat, cast.company, f"m{number}", minutes_ago=4)
    db.commit()
    state = _room(db, cast.company, chat.id)
    assert len(state.history) == chats.PAGE_SIZE
    assert state.has_older

    while state.has_older and not state.detached:
        run(state, ChatRoomState.load_older)

    assert len(state.history) + len(state.recent) == MAX_SHOWN
    assert state.detached
    assert state.history[0]["content"] == "Bem-vindo!"

    run(state, ChatRoomState.show_latest)
    assert not state.detached
    assert state.history[-1]["content"] == f"m{MAX_SHOWN + 39}"
    assert len(state.history) == chats.PAGE_SIZE


def test_show_latest_with_a_forged_chat_id_shows_nothing(db, cast, chat, fake_app):
    state = _room(db, cast.other, chat.id, role="freelancer")
    state.status = "found"
    state._chat_id = chat.id  # what no browser can set

    events = run(state, ChatRoomState.show_latest)

    assert toasts(events) == [f"error: {OLDER_FAILED[0]} | {OLDER_FAILED[1]}"]
    assert state.history == []


def test_load_older_of_a_stranger_state_loads_nothing(db, cast, chat, fake_app):
    state = _room(db, cast.other, chat.id, role="freelancer")
    state.has_older = True

    assert run(state, ChatRoomState.load_older) == []
    assert state.history == []


# --- live delivery ---------------------------------------------------------------------------


def _send_as(user_id: int, chat_id: int, text: str, viewing: bool) -> frozenset[Ping]:
    with session_scope() as db:
        chat_sending.send(db, user_id, chat_id, text, recipient_viewing=viewing)
        pings = signals.pending(db)
    return pings


def test_a_message_reaches_the_other_participant_in_the_open_conversation(db, cast, chat, fake_app):
    company_tab = _room(db, cast.company, chat.id, token="tab-c")
    _open_tab(fake_app, company_tab, "tab-c")
    run(company_tab, ChatRoomState.load_client)

    pings = _send_as(cast.freelancer.id, chat.id, "Chego às 18h.", viewing=True)
    refreshed = asyncio.run(live.deliver(pings))

    assert refreshed == 1
    assert _contents(company_tab) == ["Bem-vindo!", "Chego às 18h."]
    assert company_tab.recent[-1]["mine"] is False
    assert _chrome(company_tab).unread_messages == 0  # seen where it arrived
    asyncio.run(live.deliver(pings))
    assert _contents(company_tab) == ["Bem-vindo!", "Chego às 18h."]  # a repeated push shows nothing twice


def test_a_reader_on_the_dashboard_gets_badges_and_the_notice_live(db, cast, chat, fake_app):
    dashboard = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard", token="tab-d")
    run(dashboard, DashboardState.load_chrome)
    fake_app.open_tab(dashboard._get_root_state(), "tab-d")
    assert (dashboard.unread_messages, dashboard.unread) == (0, 0)

    asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Oi", viewing=False)))

    assert dashboard.unread_messages == 1
    assert dashboard.unread == 1
    assert dashboard.unread_badge == "1"
    assert dashboard.notifications[0]["type"] == "message"


def test_when_the_open_tabs_cannot_be_read_nothing_is_refreshed_and_one_error_is_logged(
    db, cast, chat, fake_app, monkeypatch, caplog
):
    """Presence down (Redis gone): the delivery gives up with one logged line; the tab reads it on its next load."""
    from core.presence import get_presence

    dashboard = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard", token="tab-d")
    run(dashboard, DashboardState.load_chrome)
    fake_app.open_tab(dashboard._get_root_state(), "tab-d")

    async def unreachable(_user_ids):
        raise ConnectionError("presence is down")

    monkeypatch.setattr(get_presence(), "tabs_of", unreachable)
    with caplog.at_level("ERROR", logger=live.logger.name):
        refreshed = asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Oi", viewing=False)))

    assert refreshed == 0
    assert dashboard.unread == 0  # not refreshed live
    assert [r.getMessage() for r in caplog.records] == ["live refresh: the open tabs could not be read"]
    run(dashboard, DashboardState.load_chrome)
    assert dashboard.unread == 1  # the next load shows it


def test_the_chat_list_refreshes_live(db, cast, chat, fake_app):
    listing = state_for(ChatListState, cookie_for(db, cast.company), "/client-dashboard/chats", token="tab-l")
    run(listing, ChatListState.load_client)
    _open_tab(fake_app, listing, "tab-l")

    asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Última notícia", viewing=False)))

    assert listing.chats[0]["last_message"] == "Última notícia"
    assert listing.chats[0]["unread"] == 1


def test_a_room_of_another_chat_is_left_alone(db, cast, chat, fake_app):
    other_job = make_job(db, cast.company, "Garçom")
    other_chat = make_chat(
        db, make_application(db, other_job, cast.freelancer, status="accepted"), cast.company, cast.freelancer
    )
    db.commit()
    company_tab = _room(db, cast.company, other_chat.id, token="tab-c")
    _open_tab(fake_app, company_tab, "tab-c")

    asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Sobre o bartender", viewing=False)))

    assert _contents(company_tab) == []
    assert _chrome(company_tab).unread_messages == 1


def test_tabs_that_closed_or_changed_hands_are_pruned(db, cast, chat, fake_app):
    closed = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard", token="tab-closed")
    run(closed, DashboardState.load_chrome)
    taken = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard", token="tab-taken")
    run(taken, DashboardState.load_chrome)
    fake_app.open_tab(taken._get_root_state(), "tab-taken")
    taken._live_user_id = cast.rival.id  # the tab now shows another account

    refreshed = asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Oi", viewing=False)))

    assert refreshed == 0
    assert taken.unread_messages == 0
    assert asyncio.run(get_presence().tabs(cast.company.id)) == {}


def test_logout_stops_live_updates_for_the_tab(db, cast, chat, fake_app):
    dashboard = state_for(DashboardState, cookie_for(db, cast.company), "/client-dashboard", token="tab-d")
    run(dashboard, DashboardState.load_chrome)
    fake_app.open_tab(dashboard._get_root_state(), "tab-d")

    run(dashboard._get_root_state().get_substate(AuthState.get_full_name().split(".")[1:]), AuthState.logout)

    assert asyncio.run(get_presence().tabs(cast.company.id)) == {}
    assert asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, "Oi", viewing=False))) == 0


def test_the_room_window_folds_live_messages_and_stays_bounded(db, cast, chat, fake_app):
    company_tab = _room(db, cast.company, chat.id, token="tab-c")
    _open_tab(fake_app, company_tab, "tab-c")
    run(company_tab, ChatRoomState.load_client)

    for number in range(MAX_SHOWN + RECENT_FOLD):
        asyncio.run(live.deliver(_send_as(cast.freelancer.id, chat.id, f"n{number}", viewing=True)))

    assert len(company_tab.recent) <= RECENT_FOLD
    assert len(company_tab.history) + len(company_tab.recent) <= MAX_SHOWN
    assert _contents(company_tab)[-1] == f"n{MAX_SHOWN + RECENT_FOLD - 1}"
    assert company_tab.has_older


def test_a_new_job_alert_raises_the_bell_without_reloading_the_open_dashboard_tab(db, cast, fake_app, monkeypatch):
    profile = db.get(Profile, cast.freelancer.id)
    profile.localizacao = "Recife"
    db.add(profile)
    job = make_job(db, cast.company, "Garçom para evento", localizacao="Recife")
    db.commit()
    tab = state_for(FreelancerDashboardState, cookie_for(db, cast.freelancer), "/freelancer-dashboard", token="tab-f")
    run(tab, FreelancerDashboardState.load)
    _open_tab(fake_app, tab, "tab-f")
    reloads: list[str] = []
    original = FreelancerDashboardState._load_tab
    monkeypatch.setattr(
        FreelancerDashboardState, "_load_tab", lambda self, *args: (reloads.append(self.tab), original(self, *args))
    )

    with session_scope() as session:
        assert job_alerts.alert_new_job(session, job.id, job.titulo, "recife", cast.company.id) == 1
        pings = signals.pending(session)
    assert asyncio.run(live.deliver(pings)) == 1

    chrome = _chrome(tab)
    assert chrome.unread == 1
    assert chrome.notifications[0]["type"] == NotificationType.JOB_ALERT
    assert reloads == [], "an alert changes no dashboard list: the tab is not read again"
    assert fake_app.pushed == ["tab-f"], "the alert pops up as a push notice"

    with session_scope() as session:
        notifications.notify(
            session, cast.freelancer.id, NotificationType.APPLICATION_ACCEPTED, "Aceita!", NoticeTarget.FREELANCER_HOME
        )
        pings = signals.pending(session)
    asyncio.run(live.deliver(pings))
    assert chrome.unread == 2
    assert reloads == ["overview"], "any other notification still reloads the open tab"
