"""Errors the services raise with a message fit to show the user."""

from core import audit
from core.ids import valid_id


class ServiceError(Exception):
    """A refused operation, with a Portuguese message for the user.

    Attributes:
        message: Text to show (a toast description or a form error).
        field_errors: Per-field messages, when the refusal is a validation failure.
    """

    def __init__(self, message: str, field_errors: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.field_errors = field_errors or {}


class ValidationFailed(ServiceError):
    """Input that breaks a rule of docs/product/validation.md §3; `field_errors` holds the messages by field."""

    def __init__(self, field_errors: dict[str, str]):
        super().__init__("Verifique os campos destacados.", field_errors)


class NotAllowed(ServiceError):
    """The caller may not do this, or the object does not exist (same answer for both).

    Every refusal is written to the security log (core/audit.py `deny`) with the caller of the
    current event or request; the user still sees only `message`.
    """

    def __init__(self, message: str, target: object = ""):
        super().__init__(message)
        audit.deny(message, target)


def require_id(value: object, message: str) -> int:
    """A valid row id (core.ids.valid_id), or NotAllowed with `message`, the same answer as a missing row."""
    checked = valid_id(value)
    if checked is None:
        raise NotAllowed(message, target=f"invalid id {value!r}")
    return checked
