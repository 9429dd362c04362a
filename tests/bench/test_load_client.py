"""The load client's verdicts, without a server: a step fails on a timeout or an error toast, a late
answer is told from a lost one, the expected refusal is counted apart (and the second refusal of a
refused double click with it), a message the recipient had
on screen must arrive live, memory growth is flagged on a steady rise only, and the handlers it
calls are the app's.
"""

import asyncio

import pytest

from bench import load_mixed, load_users
from bench.load_users import ROOM, Freelancer, Visitor, World
from bench.wsclient import ON_LOAD, STATE, error_text, hydrated

HYDRATED = {"delta": {STATE: {"is_hydrated_rx_state_": True}}}


def _toast(level: str, text: str) -> dict:
    code = f'(() => (refs[\'__toast\']?.["{level}"]("Erro", ({{ ["description"] : "{text}" }}))))'
    return {"events": [{"name": "_call_function", "payload": {"function": code}}]}


def _offline(person: load_users.Person) -> load_users.Person:
    """A person whose events go nowhere: the test plays the server by feeding updates."""

    async def emit(name: str, payload: dict | None = None) -> None:
        person.sent += 1

    person.emit = emit
    return person


def _answer_later(person: load_users.Person, update: dict, after: float) -> None:
    loop = asyncio.get_running_loop()
    loop.call_later(after, lambda: loop.create_task(person._on_update(update)))


@pytest.fixture
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_users, "TIMEOUT", 0.1)
    monkeypatch.setattr(load_users, "LATE_LIMIT", 0.5)


def test_a_step_passes_on_its_delta() -> None:
    async def scenario() -> str:
        person = _offline(Visitor("http://test", "/jobs"))
        _answer_later(person, HYDRATED, 0.01)
        return await person.step("jobs_list", ON_LOAD, None, hydrated)

    assert asyncio.run(scenario()) == "ok"


def test_a_late_delta_is_a_failure_answered_later(short_timeouts: None) -> None:
    world = World()

    async def scenario() -> str:
        person = _offline(Visitor("http://test", "/jobs", world=world))
        _answer_later(person, HYDRATED, 0.2)
        return await person.step("jobs_list", ON_LOAD, None, hydrated)

    assert asyncio.run(scenario()) == "failed"
    assert world.stats.timeouts == 1
    assert len(world.stats.late) == 1
    assert load_mixed._timeouts(world)["never answered"] == 0


def test_a_missing_delta_is_never_answered(short_timeouts: None) -> None:
    world = World()

    async def scenario() -> str:
        return await _offline(Visitor("http://test", "/jobs", world=world)).step("jobs_list", ON_LOAD, None, hydrated)

    assert asyncio.run(scenario()) == "failed"
    assert load_mixed._timeouts(world)["never answered"] == 1


def test_an_error_toast_fails_the_step_unless_it_is_the_expected_refusal() -> None:
    world = World()
    # As the server writes it into the toast's JavaScript (seen on the wire), non-ASCII escaped.
    unavailable = "Esta vaga n\\u00e3o est\\u00e1 mais dispon\\u00edvel para candidaturas."

    async def scenario(text: str) -> str:
        person = _offline(Freelancer("http://test", "/jobs/1", world=world))
        _answer_later(person, _toast("error", text), 0.01)
        done = load_users.sets(load_users.APPLY, "apply_status")
        return await person.step(
            "apply", f"{load_users.APPLY}.submit_application", {}, done, refusals=load_users.JOB_FILLED
        )

    assert asyncio.run(scenario("Ocorreu um erro inesperado.")) == "failed"
    assert asyncio.run(scenario(unavailable)) == "refused"
    assert world.stats.failed["apply"] == 1
    assert world.stats.refusals["apply"] == 1


def test_a_refused_double_click_expects_its_second_refusal_only() -> None:
    """Both clicks of a refused double click are refused: the second toast is the echo, not a
    failure; a third one, or another text, is still a stray toast."""
    world = World()
    filled = "Todas as posi\\u00e7\\u00f5es desta vaga j\\u00e1 foram preenchidas."

    async def scenario() -> load_users.Person:
        person = _offline(load_users.Company("http://test", "/client-dashboard", world=world))
        _answer_later(person, _toast("error", filled), 0.01)
        done = load_users.sets(load_users.COMPANY_JOBS, "applicants")
        outcome = await person.step(
            "accept_race",
            f"{load_users.COMPANY_JOBS}.accept_application",
            {},
            done,
            refusals=load_users.LAST_POSITION,
            clicks=2,
        )
        assert outcome == "refused"
        for _ in range(2):
            await person._on_update(_toast("error", filled))
        await person._on_update(_toast("error", "Ocorreu um erro inesperado."))
        return person

    person = asyncio.run(scenario())
    assert person.sent == 2
    assert world.stats.refusals == {"accept_race": 1, "second_click": 1}
    assert len(person.stray) == 2
    assert "Ocorreu um erro inesperado." in person.stray[-1]


def test_the_second_refusal_may_land_in_the_next_step_without_failing_it() -> None:
    """The echo of a refused double click that arrives while the next step (closing the dialog)
    waits is the echo, not that step's answer."""
    world = World()
    filled = "Todas as posi\\u00e7\\u00f5es desta vaga j\\u00e1 foram preenchidas."

    async def scenario() -> tuple[str, str]:
        person = _offline(load_users.Company("http://test", "/client-dashboard", world=world))
        _answer_later(person, _toast("error", filled), 0.01)
        refused = await person.step(
            "accept_race",
            f"{load_users.COMPANY_JOBS}.accept_application",
            {},
            load_users.sets(load_users.COMPANY_JOBS, "applicants"),
            refusals=load_users.LAST_POSITION,
            clicks=2,
        )
        _answer_later(person, _toast("error", filled), 0.01)
        closed = {"delta": {load_users.COMPANY_JOBS: {"applications_open_rx_state_": False}}}
        _answer_later(person, closed, 0.05)
        done = load_users.sets(load_users.COMPANY_JOBS, "applications_open", lambda value: value is False)
        return refused, await person.step(
            "co_close_dialog", f"{load_users.COMPANY_JOBS}.set_applications_open", {"value": False}, done
        )

    assert asyncio.run(scenario()) == ("refused", "ok")
    assert world.stats.refusals == {"accept_race": 1, "second_click": 1}
    assert world.stats.failed["co_close_dialog"] == 0


def test_a_message_on_screen_must_arrive_live() -> None:
    world = World()
    reader = Freelancer("http://test", "/freelancer-dashboard/chats/7", user_id=2, world=world)
    world.people[2] = reader
    world.add_chat(7, company_id=1, freelancer_id=2)
    reader.state[ROOM]["status_rx_state_"] = "found"
    reader.state[STATE]["is_hydrated_rx_state_"] = True

    world.register("carga live", sender=1, chat_id=7)
    world.register("carga missed", sender=1, chat_id=7)
    reader._remember({ROOM: {"recent_rx_state_": [{"content": "carga live"}]}})
    missed = world.messages["carga missed"]
    # The reader stayed a second past TIMEOUT without it (exactly TIMEOUT is not: (t + 30) - t is
    # 29.999999999996 for some monotonic t, which failed a fresh-clone run on 2026-11-29).
    missed.left_at = missed.sent_at + load_mixed.TIMEOUT + 1

    assert world.messages["carga live"].via == "live"
    assert not load_mixed._missed_while_watched(world.messages["carga live"])
    assert load_mixed._missed_while_watched(missed)


def test_state_names_match_the_app() -> None:
    """The load client addresses handlers by full state name; a renamed state must fail here, clearly."""
    from app.pages.chats.state import ChatRoomState
    from app.pages.company_jobs.state import CompanyJobsState
    from app.pages.freelancer_dashboard.state import FreelancerDashboardState
    from app.pages.job_detail.state import JobDetailState
    from app.pages.jobs import JobsState
    from states.apply import ApplyState

    assert JobsState.get_full_name() == load_users.JOBS
    assert JobDetailState.get_full_name() == load_users.DETAIL
    assert ApplyState.get_full_name() == load_users.APPLY
    assert FreelancerDashboardState.get_full_name() == load_users.FREELANCER_DASHBOARD
    assert CompanyJobsState.get_full_name() == load_users.COMPANY_JOBS
    assert ChatRoomState.get_full_name() == load_users.ROOM


def test_error_toasts_are_told_from_other_events() -> None:
    """The frontend events the server sends for an error toast, a success toast and a redirect."""
    error = {"name": "_call_function", "payload": {"function": '(() => (refs[\'__toast\']?.["error"]("Erro")))'}}
    success = {"name": "_call_function", "payload": {"function": '(() => (refs[\'__toast\']?.["success"]("Ok")))'}}
    redirect = {"name": "_redirect", "payload": {"path": "/jobs"}}

    assert error_text(error) is not None
    assert error_text(success) is None
    assert error_text(redirect) is None
    escaped = "Esta vaga n\\u00e3o est\\u00e1 mais dispon\\u00edvel para candidaturas."
    assert load_users.is_refusal(
        f'refs["__toast"]?.["error"]("Erro ao enviar candidatura", {{"description": "{escaped}"}})'
    )
    assert not load_users.is_refusal('refs["__toast"]?.["error"]("Erro", {"description": "Chat n\\u00e3o encontrado"})')


def test_memory_growth_is_flagged_only_on_a_steady_rise() -> None:
    flat = [(t * 10.0, 400_000 + (t % 2) * 3_000) for t in range(60)]
    rising = [(t * 10.0, 400_000 + t * 2_000) for t in range(60)]

    assert not load_mixed._memory(flat, 600)["growing"]
    assert load_mixed._memory(rising, 600)["growing"]
    assert not load_mixed._memory(rising[:3], 20)["judged"]
