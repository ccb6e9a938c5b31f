"""Answer OPTIONS with every method of the route.

Litestar 2.25 builds the automatic OPTIONS handler before all handlers of a path are merged,
so `Allow` can miss methods (e.g. `GET /v1/matches` beside `POST /v1/matches`).
"""

from __future__ import annotations

from typing import Any

from litestar.types import ASGIApp, Message, Receive, Scope, Send


def allow_all_route_methods(app: ASGIApp) -> ASGIApp:
    """Middleware rewriting `Allow` on OPTIONS answers from the matched route's methods."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "OPTIONS":  # type: ignore[typeddict-item]
            await app(scope, receive, send)
            return
        template = scope.get("path_template")
        methods = next((route.methods for route in scope["litestar_app"].routes
                        if template in (route.path, getattr(route, "path_format", None))), None)

        async def send_with_allow(message: Message) -> None:
            if message["type"] == "http.response.start" and methods:
                headers: list[Any] = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                headers.append((b"allow", ", ".join(sorted(methods)).encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_with_allow)

    return middleware
