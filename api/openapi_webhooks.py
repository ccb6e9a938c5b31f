"""The OpenAPI 3.1 `webhooks` section: what a receiver of each kind of delivery is sent, and should answer.

Litestar documents only routes, so the section is added to the document built once: each kind's POST carries the
`WebhookPayload` component (generated from the Struct, which the deliveries listing also shows), whose events are
typed like the event log's.
"""

from __future__ import annotations

import copy

from litestar.openapi.spec import (
    OpenAPI,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    PathItem,
    Reference,
    RequestBody,
    Schema,
)

from service.outbox.webhooks import KINDS

PAYLOAD = "WebhookPayload"
WHAT = {"turn": "A seat of one of the app's matches became to move (`seat`).",
        "match.created": "The app created a match.",
        "match.timed-out": "A seat of one of the app's matches missed its move deadline (`seat`); what the game's "
                           "rule makes of it follows (`match.ended`, or play goes on).",
        "match.ended": "One of the app's matches ended (`outcome`).",
        "tournament.match-ready": "A tournament of the app opened a match (`tournament`: its id, round and table, and "
                                  "each seat's player and token, which the app hands to that player; only the app "
                                  "that owns the tournament is told)."}
RECEIVED = "Received. Any other answer, a redirect, or none within 5 s is retried with backoff for up to a day"
HEADERS = {
    "Turnstile-Delivery": "The delivery's id: a retry or redelivery has the same id (drop ids already seen)",
    "Turnstile-Event": "The kind of delivery",
    "Turnstile-Webhook": "The webhook's id",
    "Turnstile-Signature": "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`: check it, and refuse "
                           "a `t` more than five minutes away from your clock (replays)",
}


def add_webhooks(openapi: OpenAPI) -> OpenAPI:
    """One webhook per kind, each a POST of the payload; the payload's events typed like the event log's."""
    schemas = openapi.components.schemas if openapi.components and openapi.components.schemas else {}
    recorded, event = schemas.get("RecordedEvent"), schemas.get("WebhookEvent")
    if isinstance(recorded, Schema) and isinstance(event, Schema) and recorded.properties and event.properties:
        event.properties["event"] = copy.deepcopy(recorded.properties["event"])
    body = RequestBody(required=True, content={"application/json": OpenAPIMediaType(
        schema=Reference(ref=f"#/components/schemas/{PAYLOAD}"))})
    headers: list[Parameter | Reference] = [
        Parameter(name=name, param_in="header", required=True, description=text,
                  schema=Schema(type=OpenAPIType.STRING)) for name, text in HEADERS.items()]
    answer: dict[str, OpenAPIResponse | Reference] = {"2XX": OpenAPIResponse(description=RECEIVED)}
    openapi.webhooks = {kind: PathItem(post=Operation(
        tags=["webhooks"], summary=f"Webhook: {kind}", description=WHAT[kind] + " Sent to every webhook of the app "
        f"that asked for `{kind}`, signed with its secret.", operation_id=f"receive{_pascal(kind)}",
        parameters=headers, request_body=body, responses=answer)) for kind in KINDS}
    return openapi


def _pascal(kind: str) -> str:
    return "".join(word.capitalize() for word in kind.replace(".", "-").split("-"))
