from datetime import timedelta

import pytest

from core.types import utcnow
from models import Notification, Role
from services.common.errors import NotAllowed
from services.reach import notifications
from tests.support.factories import make_notification, make_user
from tests.support.sql_log import sent_statements


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


def test_list_for_drops_unknown_types_and_unknown_targets(db):
    owner = make_user(db, "owner@x.com", Role.CLIENT)
    db.add(Notification(user_id=owner.id, type="weird", message="A", target="https://evil.example", target_id=1))
    db.add(Notification(user_id=owner.id, type="message", message="B", target="client_chat", target_id=1))
    db.add(Notification(user_id=owner.id, type="message", message="C", target="client_chat", target_id=None))
    db.flush()

    rows = {r["message"]: r for r in notifications.list_for(db, owner.id).items}

    assert rows["A"]["type"] == "other"
    assert rows["A"]["link"] == ""
    assert rows["B"]["link"] == "/client-dashboard/chats/1"
    assert rows["C"]["link"] == ""


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


# --- many bells at once (live updates) ------------------------------------------------------------


def test_bells_read_each_user_as_the_single_reads_do(db):
    many = make_user(db, "many@x.com", Role.FREELANCER)
    quiet = make_user(db, "quiet@x.com", Role.FREELANCER)
    muted = make_user(db, "muted@x.com", Role.FREELANCER)
    removed = make_user(db, "removed@x.com", Role.FREELANCER)
    now = utcnow()
    for n in range(notifications.PAGE_SIZE + 3):
        db.add(
            Notification(
                user_id=many.id,
                type="job_alert",
                message=f"Vaga {n}",
                read=n % 3 == 0,
                created_at=now - timedelta(minutes=n),
            )
        )
    make_notification(db, muted, "Só uma", kind="application_accepted")
    muted_prefs = db.get(notifications.UserPreferences, muted.id)
    muted_prefs.push_notifications = False
    db.add(muted_prefs)
    removed.deleted_at = now
    db.add(removed)
    db.flush()

    bells = notifications.bells(db, [many.id, quiet.id, muted.id, removed.id, many.id])

    assert set(bells) == {many.id, quiet.id, muted.id, removed.id}
    for user in (many, quiet, muted):
        bell = bells[user.id]
        assert (bell.total, bell.unread) == notifications.counts(db, user.id)
        assert bell.newest == notifications.list_for(db, user.id)
    assert bells[many.id].newest.has_more is True
    assert [row["message"] for row in bells[many.id].newest.items][:2] == ["Vaga 0", "Vaga 1"]
    assert (bells[quiet.id].total, bells[quiet.id].newest.items) == (0, [])
    assert notifications.allowed_push(bells[many.id].prefs, {"job_alert"}) == {"job_alert"}
    assert notifications.allowed_push(bells[muted.id].prefs, {"application_accepted"}) == set()
    assert bells[removed.id].prefs is None  # a removed account never gets a pop-up
    assert notifications.allowed_push(None, {"other"}) == set()
    assert notifications.bells(db, []) == {}


def test_bells_of_users_who_never_saved_settings_use_the_defaults(db):
    user = make_user(db, "nosettings@x.com", Role.FREELANCER)
    db.delete(db.get(notifications.UserPreferences, user.id))
    db.flush()

    prefs = notifications.bells(db, [user.id])[user.id].prefs

    assert notifications.allowed_push(prefs, {"job_alert", "message"}) == {"job_alert", "message"}


def test_bells_on_postgresql_take_three_statements_whatever_the_number_of_users(db):
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite reads each user's page with its own statement, in process")
    users = [make_user(db, f"bell{n}@x.com", Role.FREELANCER) for n in range(12)]
    for user in users:
        make_notification(db, user, f"Para {user.id}")
    db.flush()

    with sent_statements(db.get_bind()) as few:
        notifications.bells(db, [user.id for user in users[:2]])
    with sent_statements(db.get_bind()) as many:
        bells = notifications.bells(db, [user.id for user in users])

    assert len(few) == len(many) == 3
    assert all(bells[user.id].newest.items[0]["message"] == f"Para {user.id}" for user in users)
