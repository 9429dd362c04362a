"""One path for a handler's failures (states/failures.py, app/errors.py).

A fault is logged with the handler's name and traceback, the flags a spinner hangs on are put back,
and the user sees the screen's toast; a ServiceError that escapes shows its own message, unlogged.
Each of the four kinds of handler Reflex calls keeps its kind through the decorator.
"""

import asyncio
import inspect
import logging

import pytest

from app.errors import handler_name, unexpected_error
from services.accounts import profiles
from services.common.errors import ServiceError
from states.failures import recovers
from states.messages import UNEXPECTED_MESSAGE, UNEXPECTED_TITLE
from states.settings import SAVE_FAILED, SettingsState
from tests.support.factories import make_company
from tests.support.state_harness import cookie_for, run, state_for, toasts


class Screen:
    """Stands for a Reflex state: fields a handler sets, four handlers of each kind that fail."""

    def __init__(self, raised: Exception) -> None:
        self.busy = False
        self.raised = raised

    @recovers("Erro ao salvar", "Não foi possível salvar.", reset={"busy": False})
    def plain(self, value: int):
        self.busy = True
        raise self.raised

    @recovers("Erro ao salvar", "Não foi possível salvar.", reset={"busy": False})
    async def coroutine(self, value: int):
        self.busy = True
        raise self.raised

    @recovers("Erro ao salvar", "Não foi possível salvar.", reset={"busy": False})
    def generator(self, value: int):
        self.busy = True
        yield "first"
        raise self.raised

    @recovers("Erro ao salvar", "Não foi possível salvar.", reset={"busy": False})
    async def async_generator(self, value: int):
        self.busy = True
        yield "first"
        raise self.raised


def outcome(screen: Screen, kind: str) -> list:
    """Everything the handler of `kind` returned or yielded."""
    result = getattr(screen, kind)(7)
    if inspect.isasyncgen(result):

        async def drain() -> list:
            return [item async for item in result]

        return asyncio.run(drain())
    if inspect.isgenerator(result):
        return list(result)
    if inspect.iscoroutine(result):
        return [asyncio.run(result)]
    return [result]


KINDS = ["plain", "coroutine", "generator", "async_generator"]


def fail(kind: str, raised: Exception, caplog) -> tuple[Screen, list[str], list[logging.LogRecord]]:
    """Run the handler of `kind` raising `raised`: the screen, the toasts shown, the failure log records."""
    screen = Screen(raised)
    with caplog.at_level(logging.ERROR, logger="turno.errors"):
        events = outcome(screen, kind)
    records = [r for r in caplog.records if r.name == "turno.errors"]
    return screen, toasts([e for e in events if e != "first"]), records


@pytest.mark.parametrize("kind", KINDS)
def test_a_fault_is_logged_with_the_handlers_name_resets_the_flags_and_shows_the_screens_toast(kind, caplog):
    screen, shown, records = fail(kind, RuntimeError("disco cheio"), caplog)

    assert shown == ["error: Erro ao salvar | Não foi possível salvar."]
    assert screen.busy is False
    (record,) = records
    assert f"Screen.{kind}" in record.getMessage()
    assert record.exc_info and "disco cheio" in str(record.exc_info[1])


@pytest.mark.parametrize("kind", KINDS)
def test_an_escaped_refusal_shows_its_own_message_and_logs_nothing(kind, caplog):
    screen, shown, records = fail(kind, ServiceError("Vaga não encontrada."), caplog)

    assert shown == ["error: Erro ao salvar | Vaga não encontrada."]
    assert screen.busy is False
    assert not records


@pytest.mark.parametrize("kind", KINDS)
def test_the_decorator_keeps_the_handlers_kind_name_and_signature(kind):
    handler = getattr(Screen, kind)

    assert handler.__name__ == kind
    assert list(inspect.signature(handler).parameters) == ["self", "value"]
    assert inspect.iscoroutinefunction(handler) is (kind == "coroutine")
    assert inspect.isasyncgenfunction(handler) is (kind == "async_generator")
    assert inspect.isgeneratorfunction(handler) is (kind == "generator")


def test_the_toast_and_the_reset_may_depend_on_the_state():
    class Tabs:
        def __init__(self) -> None:
            self.tab = "jobs"
            self.shown = ["x"]

        @recovers(lambda state: (f"Erro em {state.tab}", "Tente de novo."), reset=lambda state: state.shown.clear())
        def load(self):
            raise RuntimeError

    tabs = Tabs()

    assert toasts([tabs.load()]) == ["error: Erro em jobs | Tente de novo."]
    assert tabs.shown == []


def test_a_real_handler_fault_is_logged_and_answered_with_its_screens_toast(db, monkeypatch, caplog):
    company = make_company(db)
    state = state_for(SettingsState, cookie_for(db, company), "/client-dashboard")

    def broken(*_args, **_kwargs):
        raise RuntimeError("banco fora do ar")

    monkeypatch.setattr(profiles, "save_theme", broken)
    with caplog.at_level(logging.ERROR, logger="turno.errors"):
        shown = toasts(run(state, SettingsState.save_theme, "dark"))

    assert shown == [f"error: {SAVE_FAILED[0]} | {SAVE_FAILED[1]}"]
    assert any("SettingsState.save_theme" in r.getMessage() and r.exc_info for r in caplog.records)


def test_the_apps_backend_handler_names_the_handler_from_the_traceback(caplog):
    namespace = {"__name__": "states.example"}  # a function whose module is one of ours, as a handler's is
    exec("def archive(job_id):\n    return {}[job_id]\n", namespace)  # noqa: S102
    with pytest.raises(KeyError) as raised:
        namespace["archive"](7)
    with caplog.at_level(logging.ERROR, logger="turno.errors"):
        toast = unexpected_error(raised.value)

    assert handler_name(raised.value) == "states.example.archive"
    assert handler_name(RuntimeError("never raised")) == "unknown"
    assert toasts([toast]) == [f"error: {UNEXPECTED_TITLE} | {UNEXPECTED_MESSAGE}"]
    assert any("states.example.archive" in r.getMessage() and r.exc_info for r in caplog.records)
