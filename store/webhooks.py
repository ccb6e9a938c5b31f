"""Storage of webhooks: an app's subscriptions, their log cursors, and the deliveries folded from the log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

import msgspec

WebhookStatus = Literal["active", "disabled"]
DeliveryStatus = Literal["pending", "delivered", "failed"]


class NewWebhook(msgspec.Struct, frozen=True, kw_only=True):
    """A subscription as an app asks for it: where to POST, which kinds of notification, optional filters."""

    id: str
    app: str
    url: str
    kinds: tuple[str, ...]
    game: str | None = None
    match_id: str | None = None
    secret: str


class WebhookRecord(NewWebhook, frozen=True, kw_only=True):
    """A subscription row: how it stands (disabled, and why), failed attempts in a row, and its log cursor."""

    status: WebhookStatus
    disabled_reason: str | None
    failures: int
    log_cursor: int
    created_at: str


class NewDelivery(msgspec.Struct, frozen=True, kw_only=True):
    """One notification for one subscription: its id (derived, so a refold yields the same) and the exact body."""

    id: str
    webhook_id: str
    position: int
    ordinal: int  # its place among the notifications of one append
    kind: str
    match_id: str
    body: str


class DeliveryRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A delivery and how its attempts went."""

    id: str
    webhook_id: str
    position: int
    kind: str
    match_id: str
    status: DeliveryStatus
    attempts: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_status_code: int | None
    last_latency_ms: int | None
    last_error: str | None
    created_at: str
    delivered_at: str | None
    body: str  # exactly what is sent (service.outbox.webhooks.WebhookPayload as JSON)


class Claimed(msgspec.Struct, frozen=True, kw_only=True):
    """A due delivery a sender holds its subscription's lease for: what to send, where, signed with what."""

    delivery: DeliveryRecord
    url: str
    secret: str
    due_since: str


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    """How one attempt went, and what follows: `retry_in_s` None means no retry (delivered, or given up)."""

    ok: bool
    status_code: int | None = None
    latency_ms: int | None = None
    error: str | None = None
    retry_in_s: float | None = None
    disable: str | None = None  # given up: disable the subscription, saying why
    # Delivered: the body kept from now on, with what must not outlive its delivery (seat tokens) taken out; None:
    # the body stays as it is.
    body: str | None = None


class WebhookStore(Protocol):
    """Webhook subscriptions and deliveries, kept beside the events."""

    def create_webhook(self, webhook: NewWebhook, *, log_cursor: int, limit: int) -> WebhookRecord | None:
        """Insert a subscription folding the log after `log_cursor`; None when the app already has `limit`."""
        ...

    def webhooks(self, app: str | None) -> list[WebhookRecord]:
        """The app's subscriptions, oldest first (None: every app's)."""
        ...

    def webhook(self, app: str, webhook_id: str) -> WebhookRecord | None:
        """One of the app's subscriptions, or None (another app's is None too)."""
        ...

    def delete_webhook(self, app: str, webhook_id: str) -> bool:
        """Delete one of the app's subscriptions and its deliveries; False if it has none of this id."""
        ...

    def commit_fold(self, webhook_id: str, deliveries: Sequence[NewDelivery], after: int, cursor: int) -> bool:
        """Move the cursor from `after` to `cursor` and insert the deliveries (ids already there are left alone), in
        one transaction; False, writing nothing, when the cursor is no longer at `after` or the webhook is gone."""
        ...

    def claim_delivery(self, holder: str, lease_s: float) -> Claimed | None:
        """The most overdue delivery of an active subscription no sender holds, whose match has no earlier one
        pending; the subscription is then held by `holder` for `lease_s`. None when nothing is due."""
        ...

    def finish_attempt(self, claimed: Claimed, holder: str, attempt: Attempt) -> None:
        """Record an attempt, schedule the retry or settle the delivery, and free the subscription."""
        ...

    def deliveries(self, app: str, webhook_id: str, limit: int) -> list[DeliveryRecord] | None:
        """A subscription's latest deliveries, newest first; None if the app has no such subscription."""
        ...

    def redeliver(self, app: str, webhook_id: str, delivery_id: str) -> DeliveryRecord | None:
        """Make a delivery due now (re-enabling its subscription); None if the app has no such delivery."""
        ...
