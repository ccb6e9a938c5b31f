"""Answers that depend on the caller's token are never kept in a shared cache, nor served to another caller.

Every operation that reads a bearer credential (its OpenAPI `security` names one, optional or required) may answer
differently per caller: a seat's view shows its hand, a creation shows tokens, an app sees its private matches; a
join takes no credential but answers one. So each such answer says `Cache-Control: private, no-store` and
`Vary: Authorization`.
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import ASGIApp, Message, Receive, Scope, Send

PRIVATE = {"cache-control": "private, no-store", "vary": "Authorization"}


def depends_on_token(scope: Scope) -> bool:
    """Whether the route handling this request reads a bearer credential (declares any security), or hands one out
    though it takes none (`opt={"private": True}`: a join answers the seat's token)."""
    handler = scope.get("route_handler")
    if handler is None:
        return False
    return bool(getattr(handler, "resolve_security", list)()) or bool(handler.opt.get("private"))


def private_answers(app: ASGIApp) -> ASGIApp:
    """Middleware adding PRIVATE's headers to the answers of routes that depend on the caller's token."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not depends_on_token(scope):
            await app(scope, receive, send)
            return

        async def send_private(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders.from_message(message)
                for name, value in PRIVATE.items():
                    headers[name] = value
            await send(message)

        await app(scope, receive, send_private)

    return middleware
