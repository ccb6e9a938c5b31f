"""The errors the service refuses a caller with, each naming its stable `code` and its `kind` of refusal.

An error's `kind` says what went wrong for the caller (not found, forbidden, a conflict, ...); the API turns a kind
into an HTTP status (api/problems.py), so the service never speaks HTTP. `detail` is what the caller is told: a
template of the error `e` (default: the error's own message). `fields` name further members of the answer and the
attribute of the error each comes from (e.g. `current_version`); `retry_after_s`, when set, tells the caller when to
try again.
"""

from __future__ import annotations

from typing import ClassVar, Literal

Kind = Literal[
    "malformed",  # the request itself is not well-formed
    "unauthorized",  # a credential is missing or unusable
    "forbidden",  # the credential shown may not do this
    "not-found",  # there is no such thing (or the caller may not know of it)
    "conflict",  # the thing is not in a state that allows this
    "precondition-failed",  # the caller's precondition (If-Match) does not hold
    "invalid",  # well-formed, but not acceptable
    "too-many",  # past a limit of the caller's: try again later
    "broken",  # something stored is damaged, or a bug
    "unavailable",  # a dependency did not answer: try again
]


class ServiceError(Exception):
    """An error a caller is answered with on purpose."""

    code: ClassVar[str]
    kind: ClassVar[Kind]
    detail: ClassVar[str] = "{e}"
    fields: ClassVar[dict[str, str]] = {}
    retry_after_s: float | None = None

    def told(self) -> str:
        """What the caller is told."""
        return self.detail.format(e=self)
