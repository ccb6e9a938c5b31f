"""Webhooks an app subscribes to: managing subscriptions, and the payload every delivery carries.

A subscription names a URL, the kinds of notification it wants (`turn`, `match.created`, `match.ended`) and
optional filters (a game, a match). It follows the app's own matches from the moment it is created: the global log
is folded into deliveries (service/outbox/webhook_fold.py) and senders send them (service/outbox/courier.py, in the
API processes or `turnstile worker`), signed with the subscription's secret, which is shown once, when it is created.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal, Protocol

import msgspec

from domain.catalog import game_of
from service.errors import ServiceError
from service.matches.tokens import new_secret
from service.outbox.notifications import FollowerStore, TournamentMatch
from service.outbox.webhook_http import RefusedTarget, target
from store.base import MatchNotFound
from store.webhooks import DeliveryRecord, NewWebhook, WebhookRecord, WebhookStore

HookKind = Literal["turn", "match.created", "match.timed-out", "match.ended", "tournament.match-ready"]
KINDS: tuple[str, ...] = ("turn", "match.created", "match.timed-out", "match.ended", "tournament.match-ready")
# Names webhook delivery ids (uuid5 of subscription, position, kind and seat): a refold derives the same ones.
DELIVERY_NAMESPACE = uuid.UUID("6f1f7d3c-2b0e-4d43-9a55-7a1f0c7e5b21")


class OutboxStore(FollowerStore, WebhookStore, Protocol):
    """The outbox's port: the global log it follows, and the subscriptions and deliveries it keeps."""


class UnknownWebhook(ServiceError):
    """The app has no subscription (or delivery) of this id (another app's are as unknown)."""

    code, kind = "unknown-webhook", "not-found"
    detail = "the app has no webhook or delivery {e.args[0]!r}"


class TooManyWebhooks(ServiceError):
    """The app holds as many subscriptions as it may."""

    code, kind = "too-many-webhooks", "conflict"


class BadWebhookUrl(ServiceError):
    """A URL that may not receive webhooks."""

    code, kind = "bad-webhook-url", "invalid"


class WebhookEvent(msgspec.Struct, frozen=True, omit_defaults=True):
    """One event of the append, as a spectator sees it while the match is played (nothing hidden), and `text`: the
    same event told in words, as a spectator may read it ("Grace drew 3 cards")."""

    version: int
    position: int
    recorded_at: str
    seat: int | None
    event: dict[str, Any]
    text: str = ""


class WebhookPayload(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The JSON body of every delivery: what happened to a match, as anyone watching it may know it.

    `id` is the delivery's id (the `Turnstile-Delivery` header): a retried or redelivered delivery has the same id
    and body, so a receiver that has seen the id can drop it. `position` is the global position of the append (the
    log's order; `version` the match's version after it). `to_move` lists who may act now, `seat` the seat whose
    turn it became (kind `turn`), `outcome` the recorded end (kind `match.ended`). `events` are the append's
    events as a spectator sees them.
    """

    id: str
    webhook_id: str
    kind: HookKind
    match_id: str
    game: str
    position: int
    version: int
    to_move: list[int] = []
    seat: int | None = None
    outcome: dict[str, Any] | None = None
    events: list[WebhookEvent] = []
    # Kind `tournament.match-ready`: the tournament, round and table, and each seat's token (to hand to its player).
    tournament: TournamentMatch | None = None


def without_seat_tokens(body: str) -> str | None:
    """A body with the seat tokens of a `tournament.match-ready` taken out (each token plays its seat: kept only
    until the app has it, or its delivery is given up, and never read back), or None when it holds none. The app's
    feed still tells them."""
    if '"token"' not in body:
        return None
    payload = msgspec.json.decode(body, type=WebhookPayload)
    if payload.tournament is None or not any(seat.token for seat in payload.tournament.seats):
        return None
    seats = [msgspec.structs.replace(seat, token=None) for seat in payload.tournament.seats]
    pruned = msgspec.structs.replace(payload, tournament=msgspec.structs.replace(payload.tournament, seats=seats))
    return msgspec.json.encode(pruned).decode()


def without_tokens(record: DeliveryRecord) -> DeliveryRecord:
    """A delivery as any read shows it: its body without seat tokens, delivered, pending or given up."""
    pruned = without_seat_tokens(record.body)
    return record if pruned is None else msgspec.structs.replace(record, body=pruned)


def delivery_id(webhook_id: str, position: int, kind: str, seat: int | None) -> str:
    """The id of a subscription's delivery of one notification: the same whenever the log is folded again."""
    return str(uuid.uuid5(DELIVERY_NAMESPACE, f"{webhook_id}/{position}/{kind}/{'' if seat is None else seat}"))


class Webhooks:
    """An app's subscriptions: create (checking the URL), list, read, delete; its deliveries, redelivery."""

    def __init__(self, store: OutboxStore, *, allow_private: bool = False, per_app: int = 20) -> None:
        self.store = store
        self.allow_private = allow_private
        self.per_app = per_app

    def create(self, app: str, url: str, kinds: list[str], *, game: str | None = None,
               match_id: str | None = None) -> WebhookRecord:
        """Subscribe `app` to notifications of its own matches from now on; the record holds the secret."""
        try:
            target(url, self.allow_private)
        except RefusedTarget as exc:
            raise BadWebhookUrl(str(exc)) from None
        if game is not None:
            game_of(game)  # UnknownGame
        if match_id is not None:
            record = self.store.get_match(match_id)
            if record is None or record.owner != app:  # only the app's own matches: others' do not exist to it
                raise MatchNotFound(match_id)
            game = game or record.game
        new = NewWebhook(id=str(uuid.uuid4()), app=app, url=url, kinds=tuple(k for k in KINDS if k in kinds),
                         game=game, match_id=match_id, secret=new_secret("whsec"))
        created = self.store.create_webhook(new, log_cursor=self.store.head_position(), limit=self.per_app)
        if created is None:
            raise TooManyWebhooks(f"an app may hold {self.per_app} webhooks; delete one first")
        return created

    def of(self, app: str) -> list[WebhookRecord]:
        """The app's subscriptions, oldest first."""
        return self.store.webhooks(app)

    def get(self, app: str, webhook_id: str) -> WebhookRecord:
        """One of the app's subscriptions (UnknownWebhook for another app's)."""
        found = self.store.webhook(app, webhook_id)
        if found is None:
            raise UnknownWebhook(webhook_id)
        return found

    def delete(self, app: str, webhook_id: str) -> None:
        """Unsubscribe: the subscription and its deliveries go; nothing more is sent."""
        if not self.store.delete_webhook(app, webhook_id):
            raise UnknownWebhook(webhook_id)

    def deliveries(self, app: str, webhook_id: str, limit: int) -> list[DeliveryRecord]:
        """The subscription's latest deliveries, newest first, with how their attempts went (no seat tokens: a
        pending delivery keeps them for its sender only)."""
        found = self.store.deliveries(app, webhook_id, limit)
        if found is None:
            raise UnknownWebhook(webhook_id)
        return [without_tokens(record) for record in found]

    def redeliver(self, app: str, webhook_id: str, delivery_id: str) -> DeliveryRecord:
        """Send a delivery again now (same id, same body), re-enabling a disabled subscription; the answer shows it
        without seat tokens."""
        found = self.store.redeliver(app, webhook_id, delivery_id)
        if found is None:
            raise UnknownWebhook(delivery_id)
        return without_tokens(found)
