"""Every HTTP request: a request id (the caller's `X-Request-ID` if short and safe, else a fresh one, returned in
the answer), one log line, and the request metrics, labelled by route template so label values stay bounded.

It wraps Litestar's whole handler (routing and exception handling included), so unknown routes and refusals are
logged and counted too. The line holds the method, route template, status, duration, the app (who created the
match, or whose key was shown), the match id and the request id; never a header, so never a token or key.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from litestar import Litestar, Request
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.ops.logs import request_id
from service.ops.metrics import REQUEST_SECONDS, REQUESTS

log = logging.getLogger("turnstile.http")
APP = "turnstile.app"  # the key in the request's scope state under which auth notes the caller's app


def note_app(request: Request[Any, Any, Any], app: str | None) -> None:
    """Remember for the request's log line which app the request is about."""
    if app is not None:
        request.scope["state"][APP] = app


def header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (latin-1), or None."""
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def observed(app: ASGIApp) -> ASGIApp:
    """The ASGI app with request ids, a log line and metrics for every HTTP request."""

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        rid = request_id(header(scope, b"x-request-id"))
        started = time.perf_counter()
        status = 500  # what a request that fails before answering counts as

        async def answer(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await app(scope, receive, answer)
        finally:
            done(scope, status, time.perf_counter() - started, rid)

    return handle


# The metrics' children by label values, looked up once: `labels()` validates and locks on every call. Bounded as
# the labels are (route templates, methods, statuses).
_COUNTED: dict[tuple[str, str, int], Any] = {}
_TIMED: dict[str, Any] = {}


def done(scope: Scope, status: int, seconds: float, rid: str) -> None:
    """Count and log one answered request."""
    method = str(scope.get("method", ""))
    route = str(scope.get("path_template") or "unmatched")
    counted = _COUNTED.get((method, route, status))
    if counted is None:
        counted = _COUNTED[(method, route, status)] = REQUESTS.labels(method, route, str(status))
    counted.inc()
    timed = _TIMED.get(route)
    if timed is None:
        timed = _TIMED[route] = REQUEST_SECONDS.labels(route)
    timed.observe(seconds)
    if not log.isEnabledFor(logging.INFO):
        return
    params = scope.get("path_params") or {}
    log.info("%s %s %d", method, route, status, extra={"fields": {
        "method": method, "route": route, "status": status, "duration_ms": round(seconds * 1000, 2),
        "app": (scope.get("state") or {}).get(APP), "match_id": params.get("match_id"), "request_id": rid}})


def observe(app: Litestar) -> Litestar:
    """Wrap the app's request handling (after its construction, so routing and errors are inside)."""
    app.asgi_handler = observed(app.asgi_handler)
    return app
