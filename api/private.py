"""Answers that depend on the caller's token are never kept in a shared cache, nor served to another caller.

Every operation that reads a bearer credential (its OpenAPI `security` names one, optional or required) may answer
differently per caller: a seat's view shows its hand, a creation shows tokens, an app sees its private matches; a
join takes no credential but answers one. So each such answer says `Cache-Control: private, no-store` and
`Vary: Authorization`.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.datastructures import MutableScopeHeaders
from litestar.types import ASGIApp, Message, Receive, Scope, Send

NO_STORE = "private, no-store"


def depends_on_token(scope: Scope) -> bool:
    """Whether the route handling this request reads a bearer credential (declares any security), or hands one out
    though it takes none (`opt={"private": True}`: a join answers the seat's token)."""
    handler = scope.get("route_handler")
    if handler is None:
        return False
    return bool(getattr(handler, "resolve_security", list)()) or bool(handler.opt.get("private"))


def private_answers(app: ASGIApp) -> ASGIApp:
    """The ASGI app saying `Cache-Control: private, no-store` and adding Authorization to `Vary` (beside what else it
    names) on the answers of routes that depend on the caller's token. It wraps the whole app (CORS included, which
    sets `Vary: Origin` as it answers), and asks which route answered when the answer starts."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def send_private(message: Message) -> None:
            if message["type"] == "http.response.start" and depends_on_token(scope):
                headers = MutableScopeHeaders.from_message(message)
                headers["cache-control"] = NO_STORE
                varies = [v.strip() for v in (headers.get("vary") or "").split(",") if v.strip()]  # CORS: Origin
                if "authorization" not in {v.lower() for v in varies}:
                    headers["vary"] = ", ".join([*varies, "Authorization"])
            await send(message)

        await app(scope, receive, send_private)

    return middleware


def keep_private(app: Litestar) -> Litestar:
    """Wrap the app's request handling (after its construction: routing, CORS and errors inside)."""
    app.asgi_handler = private_answers(app.asgi_handler)
    return app
