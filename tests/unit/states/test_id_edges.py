"""Ids from browsers are bounded at the edge: a huge, negative or malformed id is 'not found', never a 500.

SQLite stores integers in 64 bits and refuses bigger ones with OverflowError; PostgreSQL's id
columns are INTEGER (32 bits) and refuse anything above 2**31 - 1 with a DataError. Every HTTP route
that reads an id from its path and every event handler that takes one (the authorization matrix's
table, tests/security/policies.py, marks them with `Id`) must answer such an id as it answers a
missing one, on both databases.
"""

import logging
from datetime import timedelta

import pytest
from starlette.testclient import TestClient

from app.api import api
from core import routes
from core.types import utcnow
from states.messages import UNEXPECTED_MESSAGE
from tests.security.authz_support import MISSING_ID, app_handlers
from tests.security.policies import ADMIN, COMPANY, FREELANCER, POLICIES, PUBLIC, SIGNED_IN, Id
from tests.support.factories import make_cast, make_hiring
from tests.support.state_harness import cookie_for, run, state_for, toasts

HUGE = 10**30
# Path segments a hostile client may send for an id: too big for either database, not positive,
# not plain ASCII digits.
BAD_SEGMENTS = [
    str(HUGE),
    "9223372036854775808",  # 2**63: past SQLite's integers
    "9223372036854775807",  # 2**63 - 1: past PostgreSQL's INTEGER
    "2147483648",  # 2**31
    "0",
    "-1",
    "1e3",
    "%D9%A1%D9%A2",  # '١٢', Arabic-Indic digits
    "%201",  # ' 1'
    "1_000",
    "+1",
    "0x10",
]


@pytest.fixture
def http():
    """The app's HTTP routes, with a crash answered as a 500 instead of raised into the test."""
    return TestClient(api, raise_server_exceptions=False)


@pytest.mark.parametrize("segment", BAD_SEGMENTS)
def test_a_shift_calendar_with_an_impossible_id_is_not_found(db, http, segment):
    cast = make_cast(db)
    make_hiring(db, cast.company, cast.freelancer, utcnow() + timedelta(days=2))
    db.commit()
    response = http.get(f"/api/turnos/{segment}.ics", headers={"cookie": cookie_for(db, cast.freelancer)})
    assert response.status_code == 404
    assert "BEGIN:VCALENDAR" not in response.text


def test_the_shift_calendar_still_serves_the_callers_own_shift(db, http):
    cast = make_cast(db)
    hiring = make_hiring(db, cast.company, cast.freelancer, utcnow() + timedelta(days=2))
    db.commit()
    response = http.get(routes.shift_calendar(hiring.id), headers={"cookie": cookie_for(db, cast.freelancer)})
    assert response.status_code == 200
    assert response.text.startswith("BEGIN:VCALENDAR")


@pytest.mark.parametrize("segment", BAD_SEGMENTS)
def test_a_sitemap_file_with_an_impossible_number_is_not_found(db, http, segment):
    assert http.get(f"/sitemap-vagas-{segment}.xml").status_code == 404


def _has_id(value) -> bool:
    if isinstance(value, Id):
        return True
    if isinstance(value, dict):
        return any(_has_id(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_has_id(item) for item in value)
    return False


def _takes_id(policy) -> bool:
    """The handler reads an object id: in its arguments, in the steps before it, or from its page's address."""
    pages = policy.page.values() if isinstance(policy.page, dict) else [policy.page]
    numeric = any(key.endswith("_id") and isinstance(value, int) for key, value in policy.args.items())
    return numeric or _has_id(policy.args) or _has_id(policy.before) or any("{" in page for page in pages)


def _fill(value, object_id):
    if isinstance(value, Id):
        return object_id
    if isinstance(value, dict):
        return {
            key: object_id if key.endswith("_id") and isinstance(item, int) else _fill(item, object_id)
            for key, item in value.items()
        }
    return value


ID_HANDLERS = sorted(key for key, policy in POLICIES.items() if _takes_id(policy))
CALLERS = {PUBLIC: "freelancer", SIGNED_IN: "company", FREELANCER: "freelancer", COMPANY: "company", ADMIN: "company"}


def _page(policy, role: str, object_id) -> str:
    page = policy.page if isinstance(policy.page, str) else policy.page.get(role, policy.page["*"])
    return page.split("{")[0] + str(object_id) + page.split("}", 1)[1] if "{" in page else page


def _answer(db, cast, key: str, object_id) -> list[str]:
    """What the caller of `key`'s policy sees when the handler (and the steps before it) get `object_id`."""
    policy = POLICIES[key]
    state_cls, name = app_handlers()[key]
    role = CALLERS[policy.who]
    caller = cast.company if role == "company" else cast.freelancer
    path, _, query = _page(policy, FREELANCER if role == "freelancer" else COMPANY, object_id).partition("?")
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    state = state_for(state_cls, cookie_for(db, caller), path, params)
    seen: list[str] = []
    for step, args in policy.before:
        seen += toasts(run(state, state_cls.event_handlers[step], *_fill(args, object_id).values()))
    seen += toasts(run(state, state_cls.event_handlers[name], *_fill(policy.args, object_id).values()))
    return seen


def test_the_walk_finds_the_handlers_that_take_ids():
    assert len(ID_HANDLERS) >= 40
    assert "app.pages.company_jobs.state.CompanyJobsState.archive" in ID_HANDLERS
    assert "app.pages.chats.state.ChatRoomState.load_client" in ID_HANDLERS


@pytest.mark.parametrize("key", ID_HANDLERS)
def test_every_handler_refuses_a_huge_id_without_failing(db, key, caplog):
    """10**30 is refused as a missing id is (the same answer, or an error toast), never a logged fault."""
    cast = make_cast(db)
    db.commit()
    missing = _answer(db, cast, key, MISSING_ID)
    caplog.clear()
    huge = _answer(db, cast, key, HUGE)
    assert not [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert not [text for text in huge if UNEXPECTED_MESSAGE in text]
    same = huge == [text.replace(str(MISSING_ID), str(HUGE)) for text in missing]
    assert same or any(text.startswith("error: ") for text in huge), huge


@pytest.mark.parametrize("segment", ["12", *BAD_SEGMENTS])
def test_the_job_lists_company_filter_reads_only_an_id(segment):
    from urllib.parse import unquote

    from states.job_search import JobFilters

    expected = 12 if segment == "12" else 0
    assert JobFilters.from_query({"empresa": unquote(segment)}).company_id == expected
