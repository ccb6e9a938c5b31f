"""The API's messages about webhooks: subscriptions and their deliveries (the payload is service.outbox.webhooks')."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from api.schemas import Strict
from service.outbox.webhooks import HookKind, WebhookPayload
from store.webhooks import DeliveryRecord, WebhookRecord

KINDS_DOC = ("What to be told of the app's matches: `turn` (a seat became to move: `seat`), `match.created`, "
             "`match.timed-out` (a seat missed its deadline: `seat`; the game's rule follows, e.g. `match.ended`), "
             "`match.ended` (with its `outcome`), `tournament.match-ready` (a tournament of the app opened a match: "
             "`tournament` holds each seat's token)")


class CreateWebhookRequest(Strict, frozen=True):
    """Body of POST /v1/webhooks."""

    url: Annotated[str, msgspec.Meta(min_length=8, max_length=2000, pattern=r"^https?://[!-~]+$",
                                     description="Where to POST deliveries: an http(s) URL in printable ASCII "
                                                 "(percent-encode the rest, punycode a host); private, loopback and "
                                                 "link-local addresses are refused unless the operator allows them")]
    kinds: Annotated[list[HookKind], msgspec.Meta(min_length=1, max_length=5, description=KINDS_DOC)]
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64,
                                      description="Only matches of this game")] | None = None
    match_id: Annotated[str, msgspec.Meta(min_length=1, max_length=64,
                                          description="Only this match (one of the app's own)")] | None = None


class Webhook(msgspec.Struct, frozen=True):
    """A subscription: where deliveries go, what for, and how it stands (`disabled` says why in
    `disabled_reason`; redeliver a delivery to enable it again)."""

    id: str
    url: str
    kinds: list[HookKind]
    game: str | None
    match_id: str | None
    status: Literal["active", "disabled"]
    disabled_reason: str | None
    failures: Annotated[int, msgspec.Meta(description="Failed attempts in a row")]
    created_at: str


class CreatedWebhook(Webhook, frozen=True):
    """A new subscription, with its signing secret: shown only in this answer."""

    secret: Annotated[str, msgspec.Meta(description="Verifies `Turnstile-Signature`: HMAC-SHA256 with this key of "
                                                    "`<t>.<body>`; shown only now")]


class WebhookList(msgspec.Struct, frozen=True):
    """The calling app's subscriptions, oldest first."""

    items: list[Webhook]


class Delivery(msgspec.Struct, frozen=True):
    """One delivery, how its attempts went, and the payload it sends (the same at every attempt)."""

    id: str
    kind: HookKind
    match_id: str
    position: int
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_status_code: int | None
    last_latency_ms: int | None
    last_error: str | None
    created_at: str
    delivered_at: str | None
    payload: WebhookPayload


class DeliveryList(msgspec.Struct, frozen=True):
    """A subscription's latest deliveries, newest first."""

    items: list[Delivery]


def webhook(record: WebhookRecord) -> Webhook:
    """A subscription as the API shows it (never its secret)."""
    return Webhook(id=record.id, url=record.url, kinds=list(record.kinds), game=record.game,  # type: ignore[arg-type]
                   match_id=record.match_id, status=record.status, disabled_reason=record.disabled_reason,
                   failures=record.failures, created_at=record.created_at)


def created(record: WebhookRecord) -> CreatedWebhook:
    """A new subscription, with its secret."""
    return CreatedWebhook(**msgspec.structs.asdict(webhook(record)), secret=record.secret)


def delivery(record: DeliveryRecord) -> Delivery:
    """A delivery as the API shows it."""
    fields = {name: getattr(record, name) for name in Delivery.__struct_fields__ if name != "payload"}
    return Delivery(**fields, payload=msgspec.json.decode(record.body, type=WebhookPayload))
