"""A session that ends, ends everywhere (states/session_end.py): live delivery and hydrate after each ending.

The company has a conversation open in a tab signed in with one session. That session then ends in
each of the ways a session ends (Sair in another tab, the logout route, a password change from
another device, a password reset, idle and absolute expiry, the account's deletion), and the
freelancer writes to it and it gets a notification. The ended tab must receive nothing and keep
nothing: no live refresh, no read marker moved, no pop-up; the message stays unread and is
e-mailed; and a hydrate on the same client token sends none of the company's data.
"""

import asyncio
import json
from datetime import timedelta

import pytest
import reflex as rx
from reflex_base import constants
from reflex_base.event import Event, get_event
from sqlmodel import select, update
from starlette.testclient import TestClient

from app.api import api
from app.pages.chats.state import ChatRoomState
from core.db import session_scope
from core.presence import get_presence
from core.signals import Ping
from core.types import utcnow
from models import NotificationType, OutboxEmail, Profile, Role
from services.reach import chat_read_marks, chat_sending, notifications
from states import live
from states.auth import AuthState
from states.dashboard import DashboardState
from states.session_end import SessionEndMiddleware
from tests.support.factories import make_application, make_chat, make_hiring, make_job, make_message
from tests.support.state_harness import cookie_for, run, state_for
from tests.unit.accounts.test_sessions import (
    ENDINGS,
    _cookie_of,
    _http_login,
    _set_times,
    _user,
)

WELCOME = "Bem-vinda ao Hotel Atlântico!"
LATE = "Você ainda está aí?"
SECRET_PHONE = "(81) 99876-5432"
SHIFT_ADDRESS = "Rua do Turno Secreto, 77"


@pytest.fixture
def world(db):
    company = _user(db, "ana@hotel.com.br", "Ana Souza", Role.CLIENT)
    freelancer = _user(db, "joao@freela.com.br", "João Silva", Role.FREELANCER)
    job = make_job(db, company, "Recepcionista")
    chat = make_chat(db, make_application(db, job, freelancer, status="accepted"), company, freelancer)
    make_message(db, chat, company, WELCOME, minutes_ago=5)
    db.exec(update(Profile).where(Profile.user_id == company.id).values(telefone=SECRET_PHONE))
    db.commit()
    return company, freelancer, chat


def _hydrate(root) -> None:
    event = Event(name=get_event(root, constants.CompileVars.HYDRATE_AND_LOAD), payload={})
    asyncio.run(SessionEndMiddleware().preprocess(None, root, event))


def _company_tab(fake_app, cookie: str, chat_id: int) -> ChatRoomState:
    """The company's conversation as a tab shows it after connecting: hydrated, chrome and room loaded, live."""
    room = state_for(ChatRoomState, cookie, f"/client-dashboard/chats/{chat_id}", token="tab-c")
    root = room._get_root_state()
    _hydrate(root)
    chrome = root.get_substate(DashboardState.get_full_name().split(".")[1:])
    run(chrome, DashboardState.load_chrome)
    run(room, ChatRoomState.load_client)
    fake_app.open_tab(root, "tab-c")
    return room


def _shown(room: ChatRoomState) -> list[str]:
    return [m["content"] for m in room.history + room.recent]


def _end_by_sair_in_another_tab(client, db, user, old):
    other_tab = state_for(AuthState, old, "/client-dashboard", token="tab-other")
    run(other_tab, AuthState.logout)


LIVE_ENDINGS = {
    "sair-in-another-tab": _end_by_sair_in_another_tab,
    **{name: ending for name, ending in ENDINGS.items() if name != "account-deletion"},
}


def _company_sign_in(db, company) -> str:
    return _cookie_of(_http_login(TestClient(api, base_url="http://turno.test"), company.email))


@pytest.mark.parametrize("ending", LIVE_ENDINGS.values(), ids=LIVE_ENDINGS.keys())
def test_an_ended_tab_receives_nothing_and_the_message_stays_unread_and_is_emailed(db, world, fake_app, ending):
    company, freelancer, chat = world
    old = _company_sign_in(db, company)
    room = _company_tab(fake_app, old, chat.id)
    assert _shown(room) == [WELCOME]
    assert asyncio.run(live.is_viewing(company.id, chat.id)) is True

    ending(TestClient(api, base_url="http://turno.test"), db, company, old)

    viewing = asyncio.run(live.is_viewing(company.id, chat.id))
    with session_scope() as own:
        chat_sending.send(own, freelancer.id, chat.id, LATE, recipient_viewing=viewing)
        notifications.notify(own, company.id, NotificationType.OTHER, "Um aviso para a empresa.")
    refreshed = asyncio.run(live.deliver({Ping(company.id, chat.id), Ping(company.id, 0)}))

    chrome = room._get_root_state().get_substate(DashboardState.get_full_name().split(".")[1:])
    assert viewing is False
    assert refreshed == 0
    assert LATE not in _shown(room)
    assert (chrome.unread, chrome.unread_messages, chrome.notifications) == (0, 0, [])
    assert chrome.me["email"] == "" and room._chat_id == 0  # nothing of the company is kept
    assert "tab-c" not in asyncio.run(get_presence().tabs(company.id))
    assert fake_app.pushed == ["tab-c"]  # only the trip to the login page
    with session_scope() as fresh:
        assert chat_read_marks.unread_total(fresh, company.id) == 1  # the read marker did not move
        mails = fresh.exec(select(OutboxEmail.body).where(OutboxEmail.to_email == company.email)).all()
    assert any(body.startswith('Nova mensagem de João Silva sobre a vaga "Recepcionista"') for body in mails)


def test_a_live_tab_still_receives_the_message_and_marks_it_read(db, world, fake_app):
    company, freelancer, chat = world
    room = _company_tab(fake_app, _company_sign_in(db, company), chat.id)

    viewing = asyncio.run(live.is_viewing(company.id, chat.id))
    with session_scope() as own:
        chat_sending.send(own, freelancer.id, chat.id, LATE, recipient_viewing=viewing)
    refreshed = asyncio.run(live.deliver({Ping(company.id, chat.id)}))

    assert (viewing, refreshed) == (True, 1)
    assert _shown(room) == [WELCOME, LATE]
    with session_scope() as fresh:
        assert chat_read_marks.unread_total(fresh, company.id) == 0


def test_a_session_checked_for_a_delivery_is_not_kept_alive_by_it(db, world, fake_app):
    """A delivery is not the user using the session: its idle clock is not restarted."""
    company, _freelancer, chat = world
    old = _company_sign_in(db, company)
    _company_tab(fake_app, old, chat.id)
    _set_times(db, old.split("=", 1)[1], last_seen_at=-timedelta(minutes=100))  # still live (idle limit 120)

    asyncio.run(live.deliver({Ping(company.id, chat.id)}))
    _set_times(db, old.split("=", 1)[1], last_seen_at=-timedelta(minutes=121))

    with session_scope() as fresh:
        assert chat_read_marks.unread_total(fresh, company.id) == 0
    assert asyncio.run(live.deliver({Ping(company.id, chat.id)})) == 0


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=ENDINGS.keys())
def test_a_hydrate_after_the_session_ended_sends_none_of_the_previous_users_data(db, world, fake_app, ending):
    company, _freelancer, chat = world
    old = _company_sign_in(db, company)
    room = _company_tab(fake_app, old, chat.id)
    root = room._get_root_state()
    assert company.email in json.dumps(root.dict(), default=str)

    ending(TestClient(api, base_url="http://turno.test"), db, company, old)
    _hydrate(root)

    shown = json.dumps(root.dict(), default=str)
    for secret in (company.email, WELCOME, SECRET_PHONE, "Ana Souza", "Recepcionista"):
        assert secret not in shown


def test_a_hydrate_on_a_live_session_keeps_what_the_tab_shows(db, world, fake_app):
    company, _freelancer, chat = world
    room = _company_tab(fake_app, _company_sign_in(db, company), chat.id)

    _hydrate(room._get_root_state())

    assert _shown(room) == [WELCOME]


def test_a_hydrate_signed_in_as_someone_else_sends_none_of_the_previous_users_data(db, world, fake_app):
    company, freelancer, chat = world
    room = _company_tab(fake_app, _company_sign_in(db, company), chat.id)
    root = room._get_root_state()

    root.router_data = {**root.router_data, "headers": {"cookie": cookie_for(db, freelancer)}}
    root.router = type(root.router).from_router_data(root.router_data)
    _hydrate(root)

    assert _shown(room) == []
    assert company.email not in json.dumps(root.dict(), default=str)


def test_a_failed_read_of_the_session_version_still_checks_every_tab(db, world, fake_app, monkeypatch):
    company, freelancer, chat = world
    old = _company_sign_in(db, company)
    room = _company_tab(fake_app, old, chat.id)
    ENDINGS["logout"](TestClient(api, base_url="http://turno.test"), db, company, old)

    def unreadable(engine=None):
        raise RuntimeError("database went away")

    monkeypatch.setattr(live.session_cache, "current_version", unreadable)
    with session_scope() as own:
        chat_sending.send(own, freelancer.id, chat.id, LATE)

    assert asyncio.run(live.deliver({Ping(company.id, chat.id)})) == 0
    assert LATE not in _shown(room)


def test_two_participants_sending_at_once_never_wait_for_each_others_tab(db, world, fake_app):
    """Each send asks whether the other reads the conversation while its own tab's lock is held:
    taking the other tab's lock there deadlocked two people writing at the same moment."""
    company, freelancer, chat = world
    _company_tab(fake_app, _company_sign_in(db, company), chat.id)
    freelancer_room = state_for(
        ChatRoomState, cookie_for(db, freelancer), f"/freelancer-dashboard/chats/{chat.id}", token="tab-f"
    )
    froot = freelancer_room._get_root_state()
    _hydrate(froot)
    run(froot.get_substate(DashboardState.get_full_name().split(".")[1:]), DashboardState.load_chrome)
    run(freelancer_room, ChatRoomState.load_freelancer)
    fake_app.open_tab(froot, "tab-f")

    async def send_from(tab: str, to: int) -> bool:
        async with fake_app.modify_state(rx.BaseStateToken(ident=tab, cls=DashboardState)):  # the sender's handler
            await asyncio.sleep(0)  # both senders now hold their own tab
            return await live.is_viewing(to, chat.id)

    async def both() -> list[bool]:
        return await asyncio.wait_for(
            asyncio.gather(send_from("tab-c", freelancer.id), send_from("tab-f", company.id)), timeout=5
        )

    assert asyncio.run(both()) == [True, True]


def _navigate(root, path: str, cookie: str) -> None:
    """The router data the next event of the tab carries: `path`, with `cookie`."""
    root.router_data = {
        **root.router_data,
        "pathname": path,
        "asPath": path,
        "query": {},
        "headers": {"cookie": cookie},
    }
    root.router = type(root.router).from_router_data(root.router_data)


def _visitor_hydrate(root) -> dict:
    """The same client token comes back without the cookie (the next person at that browser): what a hydrate sends."""
    _navigate(root, "/", "")
    _hydrate(root)
    return root.dict()


def _sair_in_this_tab(root):
    def end(client, db, user, old):
        run(root.get_substate(AuthState.get_full_name().split(".")[1:]), AuthState.logout)

    return end


RAW_ENDINGS = {"sair-in-this-tab": None, **ENDINGS}


@pytest.mark.parametrize("ending", RAW_ENDINGS.values(), ids=RAW_ENDINGS.keys())
def test_a_client_that_never_hydrated_hands_nothing_to_the_next_visitor(db, world, ending):
    """A raw client (no hydrate, ever) loads the freelancer's shifts and a conversation, then the session
    ends: a visitor's hydrate on the same client token must send none of it. It used to send all of it
    when the session ended outside the tab (the logout route, another device, expiry): the tab's owner
    was recorded at hydrate only, so 'nobody' matched 'nobody'."""
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState

    company, freelancer, chat = world
    make_hiring(
        db, company, freelancer, utcnow() + timedelta(days=2), state="confirmada", job={"endereco": SHIFT_ADDRESS}
    )
    db.commit()
    cookie = _cookie_of(_http_login(TestClient(api, base_url="http://turno.test"), freelancer.email))
    dashboard = state_for(FreelancerDashboardState, cookie, "/freelancer-dashboard", {"tab": "shifts"}, token="raw")
    root = dashboard._get_root_state()
    run(dashboard, FreelancerDashboardState.load)
    _navigate(root, f"/freelancer-dashboard/chats/{chat.id}", cookie)  # each raw event carries its page
    run(root.get_substate(ChatRoomState.get_full_name().split(".")[1:]), ChatRoomState.load_freelancer)
    loaded = json.dumps(root.dict(), default=str, ensure_ascii=False)
    assert SHIFT_ADDRESS in loaded
    assert WELCOME in loaded

    (ending or _sair_in_this_tab(root))(TestClient(api, base_url="http://turno.test"), db, freelancer, cookie)
    shown = json.dumps(_visitor_hydrate(root), default=str, ensure_ascii=False)

    for secret in (SHIFT_ADDRESS, WELCOME, "Recepcionista", freelancer.email, "João Silva"):
        assert secret not in shown


def test_sair_in_the_tab_keeps_whose_data_it_held_for_the_next_hydrate(db, world):
    """With the state in Redis, 'Sair' loads and resets only the states its event needs: the tab keeps
    its owner, so the next hydrate (nobody signed in) resets the substates Sair did not load."""
    _company, freelancer, chat = world
    cookie = cookie_for(db, freelancer)
    room = state_for(ChatRoomState, cookie, f"/freelancer-dashboard/chats/{chat.id}", token="raw")
    run(room, ChatRoomState.load_freelancer)
    auth = room._get_root_state().get_substate(AuthState.get_full_name().split(".")[1:])

    run(auth, AuthState.logout)

    assert auth._data_owner == freelancer.id
    assert auth.signed_in is False


def test_a_tab_that_held_two_users_data_is_reset_at_the_next_hydrate(db, world):
    """The same client token, hydrated for the company, then used without a hydrate with the freelancer's
    cookie: the next hydrate with the company's cookie must not send what the freelancer's session loaded."""
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState

    company, freelancer, chat = world
    make_hiring(
        db, company, freelancer, utcnow() + timedelta(days=2), state="confirmada", job={"endereco": SHIFT_ADDRESS}
    )
    db.commit()
    company_cookie = cookie_for(db, company)
    room = state_for(ChatRoomState, company_cookie, f"/client-dashboard/chats/{chat.id}", token="shared")
    root = room._get_root_state()
    _hydrate(root)
    run(room, ChatRoomState.load_client)
    _navigate(root, "/freelancer-dashboard", cookie_for(db, freelancer))
    dashboard = root.get_substate(FreelancerDashboardState.get_full_name().split(".")[1:])
    run(dashboard, FreelancerDashboardState.load)
    assert dashboard.loaded_tab == "overview"

    _navigate(root, "/client-dashboard", company_cookie)
    _hydrate(root)

    assert dashboard.loaded_tab == ""
    assert room.status != "found"  # reset too: the tab reloads what the company's page shows
