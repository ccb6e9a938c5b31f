"""Deliveries are folded from the log like a projection: from a cursor, the same deliveries every time."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from typing import Any

from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from service.outbox.notifications import Follower
from service.outbox.webhook_fold import WebhookDispatcher, fold_all
from service.outbox.webhooks import Webhooks, delivery_id
from store.read_models import Store
from store.webhooks import NewDelivery
from tests.webhooks.conftest import FAST


def bodies(store: Store, app: str, webhook_id: str) -> dict[str, str]:
    """Each delivery's body by id."""
    return {d.id: d.body for d in store.deliveries(app, webhook_id, 10_000) or []}


def test_a_fold_lost_in_a_crash_folds_again_into_the_same_deliveries(store: Store) -> None:
    service, hooks = MatchService(store), Webhooks(store, allow_private=True)
    store.create_app_key("app-c", "hash-c")
    before = service.create("metro-x", ["a"], None, owner="app-c").record.id  # before the webhook: not for it
    hook = hooks.create("app-c", "http://127.0.0.1:9/", ["turn", "match.created", "match.ended"])
    rng = random.Random(5)
    for _ in range(2):
        play_random_moves(service, service.create("expect-delays", ["a", "b"], {"max_turns": 12},
                                                  owner="app-c").record.id, rng, 10_000)
    play_random_moves(service, before, rng, 3)
    made = fold_all(store, Follower(store), batch=40)  # many small batches
    first = bodies(store, "app-c", hook.id)
    assert made == len(first) > 10 and fold_all(store, Follower(store)) == 0  # caught up: nothing more
    kinds = [d.kind for d in store.deliveries("app-c", hook.id, 10_000) or []]
    assert kinds.count("match.created") == 2 and kinds.count("match.ended") == 2
    # A crash: the fold's transactions as if never committed (cursor back where it began, no deliveries).
    with store._transaction() as conn:  # type: ignore[attr-defined]
        d = store.dialect  # type: ignore[attr-defined]
        conn.execute(d.sql("DELETE FROM webhook_deliveries WHERE webhook_id = ?"), (hook.id,))
        conn.execute(d.sql("UPDATE webhooks SET log_cursor = ? WHERE id = ?"), (hook.log_cursor, hook.id))
    assert fold_all(store, Follower(store), batch=7) == len(first)
    assert bodies(store, "app-c", hook.id) == first  # the same ids, the same bytes (the words too)


def test_each_delivered_event_is_told_in_words_as_a_spectator_reads_it(store: Store) -> None:
    """Every event of a delivery carries its `text`, in the players' names, a hidden draw as a count only."""
    service, hooks = MatchService(store), Webhooks(store, allow_private=True)
    store.create_app_key("app-t", "hash-t")
    hook = hooks.create("app-t", "http://127.0.0.1:9/", ["match.created", "moved"])
    match_id = service.create("expect-delays", ["ada", "grace"], {"max_turns": 12}, owner="app-t").record.id
    play_random_moves(service, match_id, random.Random(3), 4)
    fold_all(store, Follower(store))
    events = [e for body in bodies(store, "app-t", hook.id).values() for e in json.loads(body)["events"]]
    assert events and all(e["text"] for e in events)
    draws = [e["text"] for e in events if e["event"]["type"] == "expect-delays.cards-drawn"]
    assert "ada drew 3 cards." in draws and "grace drew 3 cards." in draws
    assert not any(re.search(r"\bT\d\d\b", text) for text in draws)


def test_a_fold_from_a_stale_cursor_writes_nothing(store: Store) -> None:
    hooks = Webhooks(store, allow_private=True)
    store.create_app_key("app-s", "hash-s")
    hook = hooks.create("app-s", "http://127.0.0.1:9/", ["match.created"])
    MatchService(store).create("metro-x", ["a"], None, owner="app-s")
    assert fold_all(store, Follower(store)) == 1
    moved = store.webhook("app-s", hook.id)
    assert moved is not None and moved.log_cursor > hook.log_cursor
    late = NewDelivery(id=delivery_id(hook.id, 99, "turn", 0), webhook_id=hook.id, position=99, ordinal=0,
                       kind="turn", match_id="m", body="{}")
    assert not store.commit_fold(hook.id, [late], hook.log_cursor, moved.log_cursor + 5)  # another folder was first
    assert [d.kind for d in store.deliveries("app-s", hook.id, 10) or []] == ["match.created"]
    assert store.webhook("app-s", hook.id) == moved


def test_a_missed_deadline_is_delivered_to_who_asked_for_it(store: Store) -> None:
    """`match.timed-out` (with the seat) goes to subscriptions of that kind, before the match's end."""
    from datetime import timedelta

    from service.matches.deadlines import deadlines, time_out

    service, hooks = MatchService(store), Webhooks(store, allow_private=True)
    store.create_app_key("app-t", "hash-t")
    told = hooks.create("app-t", "http://127.0.0.1:9/", ["match.timed-out", "match.ended"])
    untold = hooks.create("app-t", "http://127.0.0.1:9/", ["turn"])
    match_id = service.create("touched-on", ["a", "b"], {"move_deadline": 60}, owner="app-t").record.id
    loaded = service.load(match_id)
    (seat, due), = deadlines(service, loaded).items()
    assert time_out(service, loaded, due + timedelta(seconds=1)) == 1
    fold_all(store, Follower(store))
    delivered = {d.kind: d for d in store.deliveries("app-t", told.id, 100) or []}
    assert sorted(delivered) == ["match.ended", "match.timed-out"]
    assert delivered["match.timed-out"].position == delivered["match.ended"].position, "told by one append"
    assert f'"seat":{seat}' in delivered["match.timed-out"].body
    assert all(d.kind == "turn" for d in store.deliveries("app-t", untold.id, 100) or [])


def test_a_burst_of_moves_is_folded_a_few_times_not_once_a_move(store: Store) -> None:
    """Moves only raise the dispatcher's flag; between two folds it rests `webhook_fold_interval_s`, so a busy server
    looks at its subscriptions a few times a second whatever its move rate (here: 200 wake-ups in 0.5 s)."""
    looked: list[float] = []
    webhooks = store.webhooks

    def counted(app: str | None) -> Any:
        looked.append(time.monotonic())
        return webhooks(app)

    store.webhooks = counted  # type: ignore[method-assign]
    settings = dataclasses.replace(FAST, webhook_poll_s=5.0, webhook_fold_interval_s=0.1)
    dispatcher = WebhookDispatcher(store, settings)
    try:
        began = time.monotonic()
        while time.monotonic() - began < 0.5:
            dispatcher.moved()
            time.sleep(0.0025)
        time.sleep(0.15)
    finally:
        dispatcher.close()
    assert 2 <= len(looked) <= 8, looked
