"""What the user sees when a handler fails unexpectedly: the generic toast (docs/product/validation.md §3), never a stack trace.

Handlers with a screen of their own use states/failures.py `recovers`; this is the path for the rest.
"""

import logging
import traceback

import reflex as rx
from reflex.event import EventSpec

from core import audit
from states.messages import UNEXPECTED_MESSAGE, UNEXPECTED_TITLE

log = logging.getLogger("turno.errors")

FRONTEND_REPORT_LIMIT = 2000  # characters of a browser's error report kept in the log
OUR_PACKAGES = ("states.", "app.", "components.")


def handler_name(exception: BaseException) -> str:
    """The outermost function of our own code in the exception's traceback: the event handler."""
    for frame, _line in traceback.walk_tb(exception.__traceback__):
        if frame.f_globals.get("__name__", "").startswith(OUR_PACKAGES):
            return f"{frame.f_globals['__name__']}.{frame.f_code.co_qualname}"
    return "unknown"


def unexpected_error(exception: Exception) -> EventSpec:
    """Log an unhandled handler exception with the handler's name and show the user the generic toast.

    Replaces Reflex's default handler, which answers in English and, outside production mode,
    sends the exception's type and message to the browser.

    Args:
        exception: What the handler raised.

    Returns:
        The error toast.
    """
    log.error("event handler %s failed", handler_name(exception), exc_info=exception)
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
