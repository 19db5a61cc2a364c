"""The project's own exceptions: what services and selectors raise when a request cannot be
served as asked. They know nothing of HTTP; learning_platform/api/errors.py maps each kind to
its status once, in the API's error shape.

Each app subclasses the kind that fits (progress.services.LessonNotFound is a NotFound) and
gives it a `code`, the machine-readable `type` of the answer's body.

    raise LessonNotFound("No such lesson.")
    raise InvalidInput("Invalid input.", errors={"parent": ["No such comment on this lesson."]})
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    code: str = "error"  # a subclass's default; an instance may say more
    default_detail: ClassVar[str] = "The request could not be served."

    def __init__(
        self,
        detail: str | None = None,
        *,
        code: str | None = None,
        errors: dict[str, Any] | None = None,
    ) -> None:
        self.detail = detail or self.default_detail
        if code is not None:
            self.code = code
        self.errors = errors or {}
        super().__init__(self.detail)


class NotFound(DomainError):
    """What was asked for does not exist, or is not visible to whoever asked."""

    code = "not_found"
    default_detail = "Not found."


class InvalidInput(DomainError):
    """The input is well-formed but not acceptable; `errors` names the fields."""

    code = "validation_error"
    default_detail = "Invalid input."


class InvalidField(InvalidInput):
    """One input field is not acceptable, answered as a serializer's error on that field."""

    def __init__(self, field: str, message: str) -> None:
        # The API's validation answers read "<field>: <first message>".
        super().__init__(f"{field}: {message}", errors={field: [message]})


class NotAllowed(DomainError):
    """The actor may not do this to this object."""

    code = "permission_denied"
    default_detail = "You do not have permission to perform this action."


class Conflict(DomainError):
    """The object's current state forbids the change."""

    code = "conflict"
    default_detail = "The request conflicts with the current state."


class TooLarge(DomainError):
    code = "payload_too_large"
    default_detail = "The request is too large."


class Unavailable(DomainError):
    """A service the answer needs is down; asking again later may work."""

    code = "service_unavailable"
    default_detail = "Service temporarily unavailable."
