"""What the user sees when a handler fails unexpectedly: SPEC's generic toast, never a stack trace."""

import logging

import reflex as rx
from reflex.event import EventSpec

log = logging.getLogger("turno.errors")

UNEXPECTED_TITLE = "Erro inesperado"
UNEXPECTED_MESSAGE = "Ocorreu um erro inesperado. Tente novamente."


def unexpected_error(exception: Exception) -> EventSpec:
    """Log an unhandled handler exception on the server and show the user SPEC's generic toast.

    Replaces Reflex's default handler, which answers in English and, outside production mode,
    sends the exception's type and message to the browser.

    Args:
        exception: What the handler raised.

    Returns:
        The error toast.
    """
    log.error("unhandled exception in an event handler", exc_info=exception)
    return rx.toast.error(UNEXPECTED_TITLE, description=UNEXPECTED_MESSAGE, id="backend_error")
