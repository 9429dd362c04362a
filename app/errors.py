"""What the user sees when a handler fails unexpectedly: a generic toast (docs/product.md §3), no stack trace."""

import logging

import reflex as rx
from reflex.event import EventSpec

from core import audit

log = logging.getLogger("turno.errors")

FRONTEND_REPORT_LIMIT = 2000  # characters of a browser's error report kept in the log
UNEXPECTED_TITLE = "Erro inesperado"
UNEXPECTED_MESSAGE = "Ocorreu um erro inesperado. Tente novamente."


def unexpected_error(exception: Exception) -> EventSpec:
    """Log an unhandled handler exception on the server and show the user the generic 'Erro inesperado' toast.

    Replaces Reflex's default handler, which answers in English and, outside production mode,
    sends the exception's type and message to the browser.

    Args:
        exception: What the handler raised.

    Returns:
        The error toast.
    """
    log.error("unhandled exception in an event handler", exc_info=exception)
    return rx.toast.error(UNEXPECTED_TITLE, description=UNEXPECTED_MESSAGE, id="backend_error")


def frontend_exception(exception: Exception) -> None:
    """Log an error a browser reported, as one escaped line (Reflex's own handler wrote it as sent).

    Any visitor can call Reflex's frontend-exception event with any text, so the report is
    attacker-controlled: line breaks and control characters are written as escapes
    (core/audit.py `clean`) and it is cut to FRONTEND_REPORT_LIMIT characters, so it can neither
    forge a log line nor repaint a terminal.

    Args:
        exception: The browser's report, wrapped by Reflex.
    """
    log.warning("frontend exception: %s", audit.clean(str(exception), limit=FRONTEND_REPORT_LIMIT))
