"""Deliveries folded from the global log, like a projection, and the threads that fold and send them.

Each subscription keeps a cursor into the log (its checkpoint). A fold reads the app's appends after it through the
notification follower (service/outbox/notifications.py: the same notifications as the app's feed), keeps those the
subscription asked for, and writes their deliveries and the new cursor in one transaction, if the cursor is still
where the fold began (no transaction is held open while the log is read and folded). Delivery ids are derived
from subscription, position, kind and seat, so a fold cut short by a crash is folded again into the same deliveries:
every committed notification yields exactly one delivery, and none is invented.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

import msgspec

from domain import bots, narration
from domain.catalog import game_of
from domain.codec import to_builtins
from ledger.events import StoredEvent
from ledger.records import seen_by
from service.outbox.courier import Courier
from service.outbox.notifications import Follower, Notification
from service.outbox.webhooks import OutboxStore, WebhookEvent, WebhookPayload, delivery_id
from settings import Settings
from store.webhooks import NewDelivery, WebhookRecord

log = logging.getLogger("turnstile.webhooks")


def wanted(hook: WebhookRecord, note: Notification) -> bool:
    """Whether the subscription asked for this notification (its kinds and filters)."""
    return note.kind in hook.kinds and hook.game in (None, note.game) and hook.match_id in (None, note.match_id)


def deliveries_of(hook: WebhookRecord, group: list[StoredEvent], notes: list[Notification],
                  names: Sequence[str] = ()) -> list[NewDelivery]:
    """The deliveries one append yields for one subscription (none if it asked for none of its notifications); each
    event told in words with the match's player `names` (none known: `seat N`)."""
    chosen = [(ordinal, note) for ordinal, note in enumerate(notes) if wanted(hook, note)]
    if not chosen:
        return []
    game = game_of(chosen[0][1].game, chosen[0][1].rules_version)
    seen = [(e, seen_by(game, e, None)[0]) for e in group]
    shown = bots.shown_names(game, tuple(names))  # a bot by its level's title, as the API's `text` names it
    events = [WebhookEvent(version=e.version, position=e.position, recorded_at=e.recorded_at, seat=e.seat,
                           event=to_builtins(event), text=narration.words(game, event, shown)) for e, event in seen]
    out = []
    for ordinal, note in chosen:
        ident = delivery_id(hook.id, note.position, note.kind, note.seat)
        body = WebhookPayload(id=ident, webhook_id=hook.id, kind=note.kind, match_id=note.match_id,  # type: ignore[arg-type]
                              game=note.game, position=note.position, version=note.version, to_move=note.to_move,
                              seat=note.seat, outcome=note.outcome, events=events, tournament=note.tournament)
        out.append(NewDelivery(id=ident, webhook_id=hook.id, position=note.position, ordinal=ordinal, kind=note.kind,
                               match_id=note.match_id, body=msgspec.json.encode(body).decode()))
    return out


def names_of(store: OutboxStore, group: list[StoredEvent], known: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The players of the append's match, by seat (read once per fold; a match's players are fixed once it starts,
    so a fold done again tells the same words)."""
    if not group:
        return ()
    match_id = group[0].match_id
    if match_id not in known:
        record = store.get_match(match_id)
        known[match_id] = () if record is None else tuple(s.player or "" for s in sorted(record.seats,
                                                                                          key=lambda s: s.seat))
    return known[match_id]


def fold_webhook(store: OutboxStore, follower: Follower, hook: WebhookRecord,
                 batch: int = 500) -> tuple[int, int | None]:
    """Fold one batch of the log for one webhook: (deliveries written, its cursor now; None: it is gone).

    The log is read and folded outside any transaction; the deliveries and the new cursor are written together only
    if the cursor is still where the fold began (else another process folded it: look again)."""
    told, cursor = follower.read_appends(hook.log_cursor, owner=hook.app, limit=batch)
    if cursor == hook.log_cursor:
        return 0, cursor
    players: dict[str, tuple[str, ...]] = {}
    made = [d for group, notes in told for d in deliveries_of(hook, group, notes, names_of(store, group, players))]
    if store.commit_fold(hook.id, made, hook.log_cursor, cursor):
        return len(made), cursor
    fresh = store.webhook(hook.app, hook.id)
    return 0, None if fresh is None else fresh.log_cursor


def fold_all(store: OutboxStore, follower: Follower, batch: int = 500) -> int:
    """Fold every webhook up to the head of the log; returns the deliveries written."""
    total = 0
    for hook in store.webhooks(None):
        while True:
            made, at = fold_webhook(store, follower, hook, batch)
            total += made
            if at is None or at == hook.log_cursor:  # gone, or caught up
                break
            hook = msgspec.structs.replace(hook, log_cursor=at)
    return total


class WebhookDispatcher:
    """Folds deliveries when woken (this process's appends) or when the log's head moved, and sends them.

    Runs beside the API in the embedded default and in every `turnstile worker`; several at once are safe: folds of
    one subscription take turns on its row, and one sender at a time holds a subscription.
    """

    def __init__(self, store: OutboxStore, settings: Settings, batch: int = 500) -> None:
        self.store = store
        self.settings = settings
        self.batch = batch
        self.follower = Follower(store)
        self.courier = Courier(store, settings)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="turnstile-webhooks", daemon=True)
        self._thread.start()

    def moved(self, _match_id: str | None = None) -> None:
        """The log grew here: fold soon. Returns at once (a move never waits on webhooks)."""
        self._wake.set()

    def _run(self) -> None:
        last_head, last_fold = -1, 0.0
        while not self._stopping.is_set():
            woken = self._wake.wait(self.settings.webhook_poll_s)
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                head = self.store.head_position()
                # The sweep also catches late commits below the head (PostgreSQL) and new subscriptions.
                if woken or head != last_head or time.monotonic() - last_fold >= self.settings.sweep_seconds:
                    last_head, last_fold = head, time.monotonic()
                    if fold_all(self.store, self.follower, self.batch):
                        self.courier.wake()
            except Exception:  # a broken fold is logged and tried again at the next wake-up
                log.exception("folding webhook deliveries failed")
            # Appends meanwhile only raise the flag: a busy server folds a few times a second, not once per move.
            self._stopping.wait(self.settings.webhook_fold_interval_s)

    def close(self) -> None:
        """Stop folding and sending (an attempt in flight ends within its timeout)."""
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=10)
        self.courier.close()
