from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.types import utcnow
from models import Chat, Profile, Role
from services.common.errors import NotAllowed, ServiceError
from services.reach import chat_sending, chats
from tests.support.factories import (
    make_application,
    make_chat,
    make_job,
    make_message,
    make_user,
)


@pytest.fixture
def people(db):
    company = make_user(db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa", empresa="Hotel")
    freelancer = make_user(db, "free@x.com", Role.FREELANCER, nome="João Silva")
    stranger = make_user(db, "stranger@x.com", Role.FREELANCER, nome="Intruso")
    return company, freelancer, stranger


def _chat(db, company, freelancer, title):
    job = make_job(db, company, title)
    application = make_application(db, job, freelancer, status="accepted")
    return make_chat(db, application, company, freelancer)


def test_list_for_shows_other_participant_job_and_last_message(db, people):
    company, freelancer, _ = people
    chat = _chat(db, company, freelancer, "Bartender")
    make_message(db, chat, company, "Olá, João!", minutes_ago=5)
    make_message(db, chat, freelancer, "Olá! Tudo certo para sábado.", minutes_ago=1)

    [for_company] = chats.list_for(db, company.id).items
    [for_freelancer] = chats.list_for(db, freelancer.id).items

    assert for_company["other_name"] == "João Silva"
    assert for_company["other_initials"] == "JS"
    assert for_company["job_title"] == "Bartender"
    assert for_company["last_message"] == "Olá! Tudo certo para sábado."
    assert for_company["unread"] == 1
    assert for_freelancer["other_name"] == "Hotel"  # the company, not the person who posted
    assert for_freelancer["unread"] == 1


def test_list_for_orders_by_last_activity(db, people):
    company, freelancer, _ = people
    older = _chat(db, company, freelancer, "Primeira vaga")
    newer = _chat(db, company, freelancer, "Segunda vaga")
    for chat in (older, newer):
        chat.updated_at = utcnow() - timedelta(days=1)
        db.add(chat)
    make_message(db, newer, company, "Antiga", minutes_ago=60)
    make_message(db, older, company, "Recente", minutes_ago=1)

    titles = [c["job_title"] for c in chats.list_for(db, company.id).items]

    assert titles == ["Primeira vaga", "Segunda vaga"]


def test_list_for_excludes_chats_of_others(db, people):
    company, freelancer, stranger = people
    _chat(db, company, freelancer, "Bartender")

    assert chats.list_for(db, stranger.id).items == []


def test_list_for_uses_default_name_when_profile_is_missing(db, people):
    company, freelancer, _ = people
    _chat(db, company, freelancer, "Bartender")
    db.delete(db.get(Profile, freelancer.id))
    db.delete(db.get(Profile, company.id))
    db.flush()

    assert chats.list_for(db, company.id).items[0]["other_name"] == "Freelancer"
    assert chats.list_for(db, freelancer.id).items[0]["other_name"] == "Cliente"


def test_open_chat_returns_messages_in_order_and_marks_read(db, people):
    company, freelancer, _ = people
    chat = _chat(db, company, freelancer, "Bartender")
    make_message(db, chat, company, "Primeira", minutes_ago=3)
    make_message(db, chat, freelancer, "Segunda", minutes_ago=2)

    detail = chats.open_chat(db, freelancer.id, str(chat.id))

    assert detail["other_name"] == "Hotel"
    assert detail["job_title"] == "Bartender"
    assert [(m["content"], m["mine"]) for m in detail["messages"]] == [("Primeira", False), ("Segunda", True)]
    assert chats.list_for(db, freelancer.id).items[0]["unread"] == 0
    assert chats.list_for(db, company.id).items[0]["unread"] == 1


def test_open_chat_refuses_a_stranger_like_a_missing_chat(db, people):
    company, freelancer, stranger = people
    chat = _chat(db, company, freelancer, "Bartender")

    with pytest.raises(NotAllowed) as stranger_error:
        chats.open_chat(db, stranger.id, chat.id)
    with pytest.raises(NotAllowed) as missing_error:
        chats.open_chat(db, stranger.id, chat.id + 100)

    assert stranger_error.value.message == missing_error.value.message == chats.CHAT_NOT_FOUND
    assert db.get(Chat, chat.id).freelancer_last_read_at is None


@pytest.mark.parametrize("raw", ["abc", "", "-1", "0", "1.5", "١", None, True, 10**20, "9" * 13])
def test_open_chat_refuses_malformed_ids(db, people, raw):
    company, freelancer, _ = people
    _chat(db, company, freelancer, "Bartender")

    with pytest.raises(NotAllowed):
        chats.open_chat(db, company.id, raw)


@pytest.mark.parametrize(("raw", "expected"), [("12", 12), (7, 7), ("0", None), ("x", None), (False, None)])
def test_parse_chat_id(raw, expected):
    assert chats.parse_chat_id(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("0\r\x1f\n0", "0\n0"),  # found by the fuzz test: once stored as '0\r\n0', which a second cleaning folds
        ("0\r\r\n0", "0\n\n0"),  # found by the fuzz test: once stored as '0\r\n0'
        ("a\rb", "a\nb"),
        ("a\r\nb\nc", "a\nb\nc"),
    ],
)
def test_clean_message_folds_every_line_break_to_one_newline_and_is_stable(raw, expected):
    cleaned = chat_sending.clean_message(raw)

    assert cleaned == expected
    assert chat_sending.clean_message(cleaned) == cleaned


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(["0", " ", "\r", "\n", "\x1f", "\x85", "\t", "é"]), min_size=1, max_size=12))
def test_clean_message_is_stable_for_any_mix_of_breaks_and_controls(raw):
    try:
        cleaned = chat_sending.clean_message(raw)
    except ServiceError:
        return
    assert chat_sending.clean_message(cleaned) == cleaned
