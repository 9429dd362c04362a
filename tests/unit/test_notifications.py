from datetime import timedelta

import pytest

from core.types import utcnow
from models import Notification, Role
from services import notifications
from services.errors import NotAllowed
from tests.unit.factories import make_notification, make_user


def test_list_for_returns_only_own_notifications_newest_first(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT, nome="Dona")
    other = make_user(db, "other@x.com", Role.CLIENT, nome="Outra")
    make_notification(db, owner, "Primeira", kind="new_application")
    make_notification(db, owner, "Segunda", read=True, kind="job_created")
    make_notification(db, other, "De outra pessoa")

    rows = notifications.list_for(db, owner.id).items

    assert [r["message"] for r in rows] == ["Segunda", "Primeira"]
    assert rows[0]["read"] is True
    assert rows[1]["type"] == "new_application"
    assert len(rows[0]["date"]) == len("22/11/2026 10:30")


def test_list_for_drops_unknown_types_and_foreign_links(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    db.add(Notification(user_id=owner.id, type="weird", message="A", link="https://evil.example"))
    db.add(Notification(user_id=owner.id, type="message", message="B", link="/client-dashboard/chats/1"))
    db.flush()

    rows = {r["message"]: r for r in notifications.list_for(db, owner.id).items}

    assert rows["A"]["type"] == "other"
    assert rows["A"]["link"] == ""
    assert rows["B"]["link"] == "/client-dashboard/chats/1"


def test_list_for_reads_older_slices_after_the_last_one_shown(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    other = make_user(db, "other@x.com", Role.CLIENT)
    now = utcnow()
    total = notifications.PAGE_SIZE + 5
    for n in range(total):
        db.add(
            Notification(user_id=owner.id, type="other", message=f"Aviso {n}", created_at=now - timedelta(minutes=n))
        )
    foreign = make_notification(db, other, "De outra pessoa")
    db.flush()

    first = notifications.list_for(db, owner.id)
    rest = notifications.list_for(db, owner.id, before=first.items[-1]["id"])

    assert first.has_more is True
    assert [r["message"] for r in first.items + rest.items] == [f"Aviso {n}" for n in range(total)]
    assert rest.has_more is False
    assert notifications.list_for(db, owner.id, before=foreign.id).items == []  # another user's cursor finds nothing
    assert notifications.list_for(db, owner.id, before="1").items == []


def test_counts_gives_the_total_and_the_unread(db):
    owner = make_user(db, "owner@x.com", Role.FREELANCER)
    make_notification(db, owner, "1")
    make_notification(db, owner, "2", read=True)
    make_notification(db, make_user(db, "other@x.com", Role.FREELANCER), "3")

    assert notifications.counts(db, owner.id) == (2, 1)


def test_unread_count_counts_only_own_unread(db):
    owner = make_user(db, "owner@x.com", Role.FREELANCER)
    other = make_user(db, "other@x.com", Role.FREELANCER)
    make_notification(db, owner, "1")
    make_notification(db, owner, "2")
    make_notification(db, owner, "3", read=True)
    make_notification(db, other, "4")

    assert notifications.unread_count(db, owner.id) == 2
    assert notifications.unread_count(db, other.id) == 1


@pytest.mark.parametrize(("count", "text"), [(0, ""), (1, "1"), (9, "9"), (10, "9+"), (250, "9+")])
def test_badge_text_caps_at_nine(count, text):
    assert notifications.badge_text(count) == text


def test_mark_read_marks_own_notification(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    notification = make_notification(db, owner, "Nova candidatura")

    row = notifications.mark_read(db, owner.id, notification.id)

    assert row["read"] is True
    assert db.get(Notification, notification.id).read is True
    assert notifications.unread_count(db, owner.id) == 0


def test_mark_read_twice_is_harmless(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    notification = make_notification(db, owner, "Nova candidatura", read=True)

    assert notifications.mark_read(db, owner.id, notification.id)["read"] is True


def test_mark_read_refuses_a_stranger_like_a_missing_id(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    stranger = make_user(db, "stranger@x.com", Role.FREELANCER)
    notification = make_notification(db, owner, "Privada")

    with pytest.raises(NotAllowed) as stranger_error:
        notifications.mark_read(db, stranger.id, notification.id)
    with pytest.raises(NotAllowed) as missing_error:
        notifications.mark_read(db, stranger.id, 999_999)

    assert stranger_error.value.message == missing_error.value.message == notifications.MARK_READ_FAILED
    assert db.get(Notification, notification.id).read is False


@pytest.mark.parametrize("bad_id", [0, -1, "1", None, True, 1.5, 2**31, 10**20])
def test_mark_read_refuses_malformed_ids(db, bad_id):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    make_notification(db, owner, "Privada")

    with pytest.raises(NotAllowed):
        notifications.mark_read(db, owner.id, bad_id)
