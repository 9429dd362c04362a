"""Sending and paging messages: validation, participants only, read markers, message notices, pings."""

from datetime import timedelta

import pytest
from sqlmodel import func, select, update

from core import signals
from core.signals import Ping
from core.types import utcnow
from models import Chat, Message, Notification, NotificationType, Profile, Role, User
from services.common.errors import NotAllowed, ServiceError
from services.reach import chat_read_marks, chat_sending, chats
from tests.support.factories import make_application, make_chat, make_job, make_message, make_user, snapshot
from tests.support.sql_log import sent_statements


@pytest.fixture
def cast(db):
    company = make_user(db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa", empresa="Hotel")
    freelancer = make_user(db, "free@x.com", Role.FREELANCER, nome="João Silva")
    stranger = make_user(db, "intruso@x.com", Role.FREELANCER, nome="Intruso")
    other_company = make_user(db, "outra@x.com", Role.CLIENT, nome="Outra Empresa")
    job = make_job(db, company, "Bartender")
    chat = make_chat(db, make_application(db, job, freelancer, status="accepted"), company, freelancer)
    return company, freelancer, stranger, other_company, chat


def _count(db, model) -> int:
    return db.exec(select(func.count()).select_from(model)).one()


def test_send_stores_the_message_for_both_participants(db, cast):
    company, freelancer, _, _, chat = cast

    sent = chat_sending.send(db, freelancer.id, chat.id, "  Posso chegar às 18h?\nAbraço  ")

    assert sent["content"] == "Posso chegar às 18h?\nAbraço"
    assert sent["mine"] is True
    assert len(sent["time"]) == 5
    for_company = chats.open_chat(db, company.id, chat.id)["messages"]
    assert [(m["content"], m["mine"]) for m in for_company] == [("Posso chegar às 18h?\nAbraço", False)]


def test_send_moves_the_conversation_to_the_top_and_counts_unread_for_the_recipient(db, cast):
    company, freelancer, _, _, chat = cast

    chat_sending.send(db, company.id, chat.id, "Primeira")
    chat_sending.send(db, company.id, chat.id, "Segunda")

    assert chat_read_marks.unread_total(db, freelancer.id) == 2
    assert chat_read_marks.unread_total(db, company.id) == 0
    [summary] = chats.list_for(db, freelancer.id).items
    assert summary["unread"] == 2
    assert summary["last_message"] == "Segunda"
    updated_at = db.exec(select(Chat.updated_at).where(Chat.id == chat.id)).one()  # as stored, not the ORM's copy
    assert updated_at == db.exec(select(func.max(Message.created_at))).one()


def test_the_badge_and_the_list_count_unread_messages_the_same_way(db, cast):
    company, freelancer, _, _, chat = cast
    second = make_chat(
        db, make_application(db, make_job(db, company, "Garçom"), freelancer, status="accepted"), company, freelancer
    )
    chat_sending.send(db, company.id, chat.id, "Uma")
    chat_sending.send(db, freelancer.id, chat.id, "Resposta")  # never unread, and it marks 'Uma' as seen
    chat_sending.send(db, company.id, chat.id, "Duas")
    chat_sending.send(db, company.id, second.id, "Outra conversa")
    db.execute(update(Message).where(Message.chat_id == second.id).values(sender_id=None))  # a removed sender
    chats.open_chat(db, freelancer.id, second.id)
    chat_sending.send(db, company.id, second.id, "Depois da visita")

    for user in (freelancer, company):
        per_chat = sum(summary["unread"] for summary in chats.list_for(db, user.id).items)
        assert chat_read_marks.unread_total(db, user.id) == per_chat
    assert chat_read_marks.unread_total(db, freelancer.id) == 2  # 'Duas' and 'Depois da visita'


def test_post_moves_the_senders_marker_and_the_orm_row_reads_the_stored_activity(db, cast):
    company, freelancer, _, _, chat = cast
    db.refresh(chat)
    before = chat.updated_at

    message_id, sent_at = chat_sending.post(db, chat, company.id, "Bem-vindo!")

    assert chat.updated_at == sent_at >= before
    assert chat.client_last_read_at == sent_at
    assert db.get(Message, message_id).content == "Bem-vindo!"
    assert (chat_read_marks.unread_total(db, company.id), chat_read_marks.unread_total(db, freelancer.id)) == (0, 1)


@pytest.mark.parametrize("text", ["", "   ", "\n\t ", None, 42, ["oi"], {"x": 1}, "\x00\x01\x02"])
def test_send_refuses_blank_or_non_text_and_writes_nothing(db, cast, text):
    _, freelancer, _, _, chat = cast
    before = snapshot(db, Message, Notification, Chat)

    with pytest.raises(ServiceError) as error:
        chat_sending.send(db, freelancer.id, chat.id, text)

    assert error.value.message == chat_sending.MESSAGE_BLANK
    assert snapshot(db, Message, Notification, Chat) == before


def test_send_refuses_a_message_over_the_limit(db, cast):
    _, freelancer, _, _, chat = cast

    with pytest.raises(ServiceError) as error:
        chat_sending.send(db, freelancer.id, chat.id, "a" * (chat_sending.MESSAGE_MAX + 1))

    assert error.value.message == "A mensagem deve ter no máximo 4.000 caracteres."
    assert _count(db, Message) == 0
    assert (
        chat_sending.send(db, freelancer.id, chat.id, "a" * chat_sending.MESSAGE_MAX)["content"]
        == "a" * chat_sending.MESSAGE_MAX
    )


def test_send_drops_control_characters_but_keeps_text_as_typed(db, cast):
    _, freelancer, _, _, chat = cast

    sent = chat_sending.send(db, freelancer.id, chat.id, "<b>oi</b>\x07 & 'tchau'\r\n🙂")

    assert sent["content"] == "<b>oi</b> & 'tchau'\n🙂"


def test_send_drops_lone_surrogates_and_c1_controls(db, cast):
    """Found by tests/unit/common/test_fuzz_forms.py: a lone surrogate failed the insert ('Erro ao enviar mensagem')."""
    _, freelancer, _, _, chat = cast

    sent = chat_sending.send(db, freelancer.id, chat.id, "oi\ud800 tudo\x85 bem?\udfff")
    db.commit()

    assert sent["content"] == "oi tudo bem?"
    assert db.exec(select(Message.content)).all() == ["oi tudo bem?"]


@pytest.mark.parametrize("who", ["stranger", "other_company"])
def test_send_by_a_non_participant_is_refused_like_a_missing_chat(db, cast, who):
    _company, _freelancer, stranger, other_company, chat = cast
    intruder = stranger if who == "stranger" else other_company
    before = snapshot(db, Message, Notification, Chat)

    with pytest.raises(NotAllowed) as foreign:
        chat_sending.send(db, intruder.id, chat.id, "Olá")
    with pytest.raises(NotAllowed) as missing:
        chat_sending.send(db, intruder.id, chat.id + 999, "Olá")

    assert foreign.value.message == missing.value.message == chats.CANNOT_SEND
    assert snapshot(db, Message, Notification, Chat) == before


def test_a_message_to_someone_not_viewing_notifies_them_once_per_conversation(db, cast):
    company, freelancer, _, _, chat = cast

    chat_sending.send(db, company.id, chat.id, "Primeira", recipient_viewing=False)
    chat_sending.send(db, company.id, chat.id, "Segunda", recipient_viewing=False)

    notices = db.exec(select(Notification).where(Notification.user_id == freelancer.id)).all()
    assert len(notices) == 1
    assert notices[0].type == NotificationType.MESSAGE
    assert notices[0].message == 'Nova mensagem de Mariana Costa sobre a vaga "Bartender"'
    assert notices[0].link == f"/freelancer-dashboard/chats/{chat.id}"
    assert not notices[0].read


def test_a_message_to_someone_viewing_the_conversation_creates_no_notice(db, cast):
    company, freelancer, _, _, chat = cast

    chat_sending.send(db, company.id, chat.id, "Oi", recipient_viewing=True)

    assert db.exec(select(Notification).where(Notification.user_id == freelancer.id)).all() == []


def test_opening_the_conversation_marks_its_message_notice_read(db, cast):
    company, freelancer, _, _, chat = cast
    chat_sending.send(db, company.id, chat.id, "Oi", recipient_viewing=False)

    chats.open_chat(db, freelancer.id, chat.id)

    notice = db.exec(select(Notification).where(Notification.user_id == freelancer.id)).one()
    assert notice.read
    chat_sending.send(db, company.id, chat.id, "De novo", recipient_viewing=False)
    assert len(db.exec(select(Notification).where(Notification.user_id == freelancer.id)).all()) == 2


def test_message_notice_uses_the_default_name_without_a_profile(db, cast):
    company, freelancer, _, _, chat = cast
    db.delete(db.get(Profile, freelancer.id))
    db.flush()

    chat_sending.send(db, freelancer.id, chat.id, "Oi")

    notice = db.exec(select(Notification).where(Notification.user_id == company.id)).one()
    assert notice.message == 'Nova mensagem de Freelancer sobre a vaga "Bartender"'
    assert notice.link == f"/client-dashboard/chats/{chat.id}"


def test_send_pings_both_participants_and_the_notice(db, cast):
    company, freelancer, _, _, chat = cast

    chat_sending.send(db, company.id, chat.id, "Oi", recipient_viewing=False)

    assert signals.pending(db) >= {Ping(company.id, chat.id), Ping(freelancer.id, chat.id), Ping(freelancer.id)}


def test_open_chat_pages_the_latest_messages_and_older_pages_on_demand(db, cast):
    company, freelancer, _, _, chat = cast
    total = chats.PAGE_SIZE * 2 + 5
    for number in range(total):
        make_message(db, chat, company if number % 2 else freelancer, f"m{number}", minutes_ago=total - number)

    first = chats.open_chat(db, company.id, chat.id)
    assert [m["content"] for m in first["messages"]] == [f"m{n}" for n in range(total - chats.PAGE_SIZE, total)]
    assert first["has_older"] is True

    second = chats.older(db, company.id, chat.id, first["messages"][0]["id"])
    assert [m["content"] for m in second["messages"]] == [
        f"m{n}" for n in range(total - 2 * chats.PAGE_SIZE, total - chats.PAGE_SIZE)
    ]
    assert second["has_older"] is True

    last = chats.older(db, company.id, chat.id, second["messages"][0]["id"])
    assert [m["content"] for m in last["messages"]] == [f"m{n}" for n in range(5)]
    assert last["has_older"] is False


def test_older_and_newer_refuse_a_stranger(db, cast):
    company, _, stranger, _, chat = cast
    message = make_message(db, chat, company, "Privada")

    with pytest.raises(NotAllowed):
        chats.older(db, stranger.id, chat.id, message.id + 1)
    with pytest.raises(NotAllowed):
        chats.newer(db, stranger.id, chat.id, 0)


def test_older_with_a_malformed_cursor_returns_nothing(db, cast):
    company, _, _, _, chat = cast
    make_message(db, chat, company, "Oi")

    assert chats.older(db, company.id, chat.id, "abc") == {"messages": [], "has_older": False}


def test_newer_returns_only_messages_after_the_last_shown_and_marks_them_read(db, cast):
    company, freelancer, _, _, chat = cast
    shown = make_message(db, chat, company, "Já vista", minutes_ago=3)
    chats.open_chat(db, freelancer.id, chat.id)
    make_message(db, chat, company, "Nova 1", minutes_ago=2)
    make_message(db, chat, company, "Nova 2", minutes_ago=1)
    assert chat_read_marks.unread_total(db, freelancer.id) == 2

    fresh = chats.newer(db, freelancer.id, chat.id, shown.id)

    assert [m["content"] for m in fresh] == ["Nova 1", "Nova 2"]
    assert chat_read_marks.unread_total(db, freelancer.id) == 0
    assert chats.newer(db, freelancer.id, chat.id, fresh[-1]["id"]) == []


def test_newer_without_marking_leaves_messages_unread(db, cast):
    company, freelancer, _, _, chat = cast
    make_message(db, chat, company, "Nova")

    assert len(chats.newer(db, freelancer.id, chat.id, 0, mark_seen=False)) == 1
    assert chat_read_marks.unread_total(db, freelancer.id) == 1


def test_read_marker_never_moves_back_and_never_covers_unshown_messages(db, cast):
    company, freelancer, _, _, chat = cast
    seen = make_message(db, chat, company, "Vista", minutes_ago=5)
    chats.open_chat(db, freelancer.id, chat.id)
    later = make_message(db, chat, company, "Ainda não vista", minutes_ago=1)

    chat_read_marks.mark_read(db, db.get(Chat, chat.id), freelancer.id, seen.created_at)

    assert db.get(Chat, chat.id).freelancer_last_read_at == seen.created_at
    assert chat_read_marks.unread_total(db, freelancer.id) == 1
    chat_read_marks.mark_read(db, db.get(Chat, chat.id), freelancer.id, later.created_at)
    assert chat_read_marks.unread_total(db, freelancer.id) == 0


def test_a_live_refresh_read_before_another_tab_moved_the_marker_does_not_move_it_back(db, cast):
    company, freelancer, _, _, chat = cast
    first = make_message(db, chat, company, "Primeira", minutes_ago=5)
    second = make_message(db, chat, company, "Segunda", minutes_ago=1)
    stale = db.execute(chats._CHAT_OF, {"chat_id": chat.id, "user_id": freelancer.id}).one()  # marker still empty
    chat_read_marks.mark_read(db, db.get(Chat, chat.id), freelancer.id, second.created_at)  # another tab read both
    db.flush()
    db.expire_all()

    chat_read_marks.mark_read(db, stale, freelancer.id, first.created_at)

    assert db.get(Chat, chat.id).freelancer_last_read_at == second.created_at
    assert chat_read_marks.unread_total(db, freelancer.id) == 0


def test_newer_returns_only_later_messages_marks_them_read_and_clears_the_notice(db, cast):
    company, freelancer, _, _, chat = cast
    shown = make_message(db, chat, company, "Mostrada", minutes_ago=5)
    chats.open_chat(db, freelancer.id, chat.id)
    chat_sending.send(db, company.id, chat.id, "Chegou agora")  # the freelancer is not viewing: a notice
    assert chat_read_marks.unread_total(db, freelancer.id) == 1

    fresh = chats.newer(db, freelancer.id, chat.id, shown.id)

    assert [m["content"] for m in fresh] == ["Chegou agora"]
    assert fresh[0]["mine"] is False
    assert chat_read_marks.unread_total(db, freelancer.id) == 0
    unread_notices = db.exec(
        select(func.count()).where(Notification.user_id == freelancer.id, Notification.read.is_(False))
    ).one()
    assert unread_notices == 0
    assert chats.newer(db, freelancer.id, chat.id, fresh[-1]["id"]) == []


def test_newer_refuses_a_stranger_and_a_bad_id(db, cast):
    _, _, stranger, _, chat = cast
    for user_id, chat_id in ((stranger.id, chat.id), (stranger.id, "abc"), (stranger.id, 0)):
        with pytest.raises(NotAllowed) as refused:
            chats.newer(db, user_id, chat_id, 0)
        assert refused.value.message == chats.CHAT_NOT_FOUND


def test_unread_total_counts_across_conversations_and_ignores_own_messages(db, cast):
    company, freelancer, _, _, chat = cast
    second_job = make_job(db, company, "Garçom")
    second = make_chat(db, make_application(db, second_job, freelancer, status="accepted"), company, freelancer)
    make_message(db, chat, company, "1")
    make_message(db, second, company, "2")
    make_message(db, second, company, "3")
    make_message(db, second, freelancer, "minha")

    assert chat_read_marks.unread_total(db, freelancer.id) == 3
    assert chat_read_marks.unread_total(db, company.id) == 1


def test_other_participant_is_the_other_side_and_refuses_strangers(db, cast):
    company, freelancer, stranger, _, chat = cast

    assert chats.other_participant(db, company.id, chat.id) == freelancer.id
    assert chats.other_participant(db, freelancer.id, str(chat.id)) == company.id
    with pytest.raises(NotAllowed) as error:
        chats.other_participant(db, stranger.id, chat.id)
    assert error.value.message == chats.CANNOT_SEND


def test_a_send_never_moves_the_chat_time_or_the_senders_marker_back(db, cast):
    company, _, _, _, chat = cast
    ahead = utcnow() + timedelta(minutes=10)  # another session wrote later than this send's clock
    db.execute(
        update(Chat).where(Chat.id == chat.id).values(updated_at=ahead, client_last_read_at=ahead),
        execution_options={"synchronize_session": False},
    )

    chat_sending.send(db, company.id, chat.id, "Oi")

    stored = db.exec(select(Chat.updated_at, Chat.client_last_read_at).where(Chat.id == chat.id)).one()
    assert tuple(stored) == (ahead, ahead)


def test_a_send_moves_only_the_senders_own_marker(db, cast):
    company, freelancer, _, _, chat = cast

    chat_sending.send(db, freelancer.id, chat.id, "Oi")

    client_marker, freelancer_marker = db.exec(
        select(Chat.client_last_read_at, Chat.freelancer_last_read_at).where(Chat.id == chat.id)
    ).one()
    sent_at = db.exec(select(func.max(Message.created_at))).one()
    assert (client_marker, freelancer_marker) == (None, sent_at)
    assert chat_read_marks.unread_total(db, company.id) == 1


def test_send_and_catch_up_returns_what_arrived_since_the_last_shown_with_the_sent_message_last(db, cast):
    company, freelancer, _, _, chat = cast
    shown = make_message(db, chat, company, "Já mostrada", minutes_ago=3)
    make_message(db, chat, company, "Chegou enquanto digitava", minutes_ago=1)

    fresh = chat_sending.send_and_catch_up(db, freelancer.id, chat.id, "Combinado", after_id=shown.id)

    assert [(m["content"], m["mine"]) for m in fresh] == [("Chegou enquanto digitava", False), ("Combinado", True)]
    assert chat_read_marks.unread_total(db, freelancer.id) == 0, "what the sender was shown is read"
    assert chat_read_marks.unread_total(db, company.id) == 1


def test_send_and_catch_up_reads_the_chat_once_and_writes_the_message_in_two_statements(db, cast):
    company, _, _, _, chat = cast
    db.flush()

    with sent_statements(db.get_bind()) as sent:
        chat_sending.send_and_catch_up(db, company.id, chat.id, "Oi", after_id=0, recipient_viewing=True)

    kinds = [" ".join(statement.split()[:3]) for statement in sent]
    assert len(sent) == 5, sent
    assert kinds[0].startswith("SELECT chats.id") and " FROM chats JOIN applications" in sent[0]  # the one check
    assert kinds[1:3] == ["INSERT INTO messages", "UPDATE chats SET"]
    assert kinds[3].startswith("SELECT messages.id")  # the catch-up, without reading the chat again
    assert kinds[4] == "UPDATE notifications SET"  # the sender's own message notices, read where they look


@pytest.mark.parametrize("who", ["stranger", "missing"])
def test_send_and_catch_up_refuses_a_stranger_and_writes_nothing(db, cast, who):
    company, _, stranger, _, chat = cast
    before = snapshot(db, Message, Notification, Chat)

    with pytest.raises(NotAllowed) as error:
        if who == "stranger":
            chat_sending.send_and_catch_up(db, stranger.id, chat.id, "Olá", after_id=0)
        else:
            chat_sending.send_and_catch_up(db, company.id, chat.id + 999, "Olá", after_id=0)

    assert error.value.message == chats.CANNOT_SEND
    assert snapshot(db, Message, Notification, Chat) == before


def test_send_to_someone_who_deleted_their_account_is_refused_and_writes_nothing(db, cast):
    company, freelancer, _, _, chat = cast
    db.execute(
        update(User).where(User.id == freelancer.id).values(deleted_at=utcnow()),
        execution_options={"synchronize_session": False},
    )
    before = snapshot(db, Message, Notification, Chat)

    with pytest.raises(NotAllowed) as error:
        chat_sending.send(db, company.id, chat.id, "Ainda está aí?")

    assert error.value.message == chats.CANNOT_SEND
    assert snapshot(db, Message, Notification, Chat) == before
