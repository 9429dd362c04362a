"""One path for a handler's unexpected failures: log with the handler's name, reset, show its toast.

A `ServiceError` is a refusal the user can act on: a handler that places its message somewhere
(a field, a banner) catches it; one that lets it escape gets it as the screen's toast
(`title`: the refusal's message), unlogged. Anything else is a fault:
`@recovers(title, description, reset=...)` catches it, logs it with the handler's qualified name
and traceback (logger `turno.errors`), and shows the screen's failure toast. Either way the flags
named in `reset` are put back (a spinner never stays on). A handler without `@recovers` lets the fault reach the
app's backend exception handler (app/errors.py), which logs it the same way and shows the generic
toast. No handler catches `Exception` by hand.

Put `@recovers` under `@rx.event`; it keeps the handler's kind (plain, coroutine, generator or
async generator) and signature, which Reflex reads to call it.
"""

import functools
import inspect
import logging
from collections.abc import Callable, Mapping
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from services.common.errors import ServiceError
from states.messages import UNEXPECTED_MESSAGE

log = logging.getLogger("turno.errors")


def failed(handler: str, title: str, description: str | None = UNEXPECTED_MESSAGE) -> EventSpec:
    """Log the exception being handled as a failure of `handler`; the toast to show (no text when None).

    Call it from inside an `except` block (`recovers` does).
    """
    log.error("event handler %s failed", handler, exc_info=True)
    return rx.toast.error(title) if description is None else rx.toast.error(title, description=description)


def recovers(
    title: str | Callable[[Any], tuple[str, str]],
    description: str | None = UNEXPECTED_MESSAGE,
    *,
    reset: Mapping[str, Any] | Callable[[Any], None] | None = None,
) -> Callable[[Callable], Callable]:
    """Turn a handler's unexpected exception into a logged failure and its screen's toast.

    Args:
        title: The toast's title (the screen's own, e.g. 'Erro ao salvar configurações'), or a
            function of the state giving (title, description) when they depend on it (the tab shown).
        description: The toast's text (None: a title alone).
        reset: State fields to set back when the handler fails (e.g. {"saving": False}), or a
            function of the state that puts it back (e.g. shows an empty page).
    """

    def decorate(fn: Callable) -> Callable:
        name = fn.__qualname__

        def fail(state, exc: Exception) -> EventSpec:
            if callable(reset):
                reset(state)
            else:
                for field, value in (reset or {}).items():
                    setattr(state, field, value)
            heading, text = title(state) if callable(title) else (title, description)
            if isinstance(exc, ServiceError):
                return rx.toast.error(heading, description=exc.message)
            return failed(name, heading, text)

        if inspect.isasyncgenfunction(fn):

            @functools.wraps(fn)
            async def async_generator(self, *args, **kwargs):
                try:
                    async for event in fn(self, *args, **kwargs):
                        yield event
                except Exception as exc:
                    yield fail(self, exc)

            return async_generator
        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def generator(self, *args, **kwargs):
                try:
                    yield from fn(self, *args, **kwargs)
                except Exception as exc:
                    yield fail(self, exc)

            return generator
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def coroutine(self, *args, **kwargs):
                try:
                    return await fn(self, *args, **kwargs)
                except Exception as exc:
                    return fail(self, exc)

            return coroutine

        @functools.wraps(fn)
        def plain(self, *args, **kwargs):
            try:
                return fn(self, *args, **kwargs)
            except Exception as exc:
                return fail(self, exc)

        return plain

    return decorate
