"""Refuse NUL (U+0000) in the path, the query string and header values, once, before any handler runs.

PostgreSQL cannot store NUL in text, and no identifier, filter or credential of this API contains one, so a NUL
anywhere in those parts is bad input (400), never something to pass on to the store. JSON bodies are checked where
they are decoded (`api.body`).
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from litestar.types import ASGIApp, Receive, Scope, Send

from api.problems import ApiError

NUL = b"\x00"


def nul_in_request(scope: Scope) -> str | None:
    """Which part of the request holds a NUL: "the path", "the query string", "header 'x'"; None when none does."""
    if "\x00" in scope["path"]:  # percent-decoded already
        return "the path"
    if NUL in unquote_to_bytes(scope.get("query_string") or b""):
        return "the query string"
    for name, value in scope.get("headers") or ():
        if NUL in name or NUL in value:
            return f"header {name.decode('latin-1')!r}"
    return None


def refuse_nul(app: ASGIApp) -> ASGIApp:
    """Middleware answering 400 `invalid-request` when the path, query string or a header holds a NUL."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (where := nul_in_request(scope)) is not None:
            raise ApiError(400, "invalid-request", f"{where} contains a NUL character (U+0000)")
        await app(scope, receive, send)

    return middleware
