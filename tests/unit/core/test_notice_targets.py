"""Notifications point at things (core.routes.NoticeTarget), and revision 0011 moved stored addresses to them."""

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from alembic import command
from core import routes
from core.routes import NoticeTarget, notice_path
from models import Notification
from tests.support.factories import make_user

# Every address a notice was ever stored with, and the target it stands for.
STORED = [
    ("/client-dashboard/chats/12", "client_chat", 12),
    ("/freelancer-dashboard/chats/7", "freelancer_chat", 7),
    ("/jobs/3", "job", 3),
    ("/client-dashboard?tab=jobs", "company_jobs", None),
    ("/client-dashboard?tab=hirings", "company_hirings", None),
    ("/freelancer-dashboard?tab=applications", "freelancer_applications", None),
    ("/freelancer-dashboard", "freelancer_home", None),
]
NOWHERE = [
    "",
    "/x",
    "https://evil.example/jobs/3",
    "//evil.example",
    "/jobs/3/../../admin",
    "/jobs/99999999999999999999",
]


@pytest.mark.parametrize(("path", "target", "target_id"), STORED)
def test_each_target_builds_the_address_the_app_serves(path, target, target_id):
    assert notice_path(target, target_id) == path


def test_the_builders_are_the_routes_own():
    assert notice_path(NoticeTarget.CLIENT_CHAT, 5) == routes.chat("client", 5)
    assert notice_path(NoticeTarget.FREELANCER_APPLICATIONS, None) == routes.dashboard_tab("freelancer", "applications")
    assert routes.chat_target("client") == NoticeTarget.CLIENT_CHAT
    assert routes.chat_target("freelancer") == NoticeTarget.FREELANCER_CHAT


@pytest.mark.parametrize(
    ("target", "target_id"), [("", None), ("weird", 1), ("client_chat", None), ("job", 0), ("job", -3), ("job", "3")]
)
def test_nothing_unknown_or_incomplete_becomes_an_address(target, target_id):
    assert notice_path(target, target_id) == ""


def test_a_notice_row_offers_its_address(db):
    user = make_user(db, "ana@x.com", "client")
    notice = Notification(user_id=user.id, type="message", message="Oi", target="client_chat", target_id=4)

    assert notice.link == "/client-dashboard/chats/4"


def test_revision_0011_reads_stored_addresses_into_targets_and_writes_them_back(
    empty_database_url, make_alembic_config
):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0010")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    rows = [path for path, _t, _i in STORED] + NOWHERE
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO users (email, password_hash, role, is_active, created_at) "
                    "VALUES ('ana@x.com', 'x', 'client', true, CURRENT_TIMESTAMP)"
                )
            )
            for n, link in enumerate(rows):
                conn.execute(
                    text(
                        "INSERT INTO notifications (user_id, type, message, link, read, created_at) "
                        "VALUES (1, 'other', :m, :l, false, CURRENT_TIMESTAMP)"
                    ),
                    {"m": f"n{n}", "l": link},
                )

        command.upgrade(cfg, "0011")
        with engine.connect() as conn:
            moved = conn.execute(text("SELECT message, target, target_id FROM notifications ORDER BY id")).all()
        command.downgrade(cfg, "0010")
        with engine.connect() as conn:
            back = [row[0] for row in conn.execute(text("SELECT link FROM notifications ORDER BY id"))]
    finally:
        engine.dispose()

    assert [(t, i) for _m, t, i in moved] == [(t, i) for _p, t, i in STORED] + [("", None)] * len(NOWHERE)
    assert back == [path for path, _t, _i in STORED] + [""] * len(NOWHERE)
