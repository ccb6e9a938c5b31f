"""Deliveries from the log to a local receiver, over each store: once per event, in order, signed, retried."""

from __future__ import annotations

import json
import random
import time

import msgspec
from litestar.testing import TestClient

from domain.catalog import by_slug
from service.matches.simulate import play_random_moves
from service.outbox.notifications import Follower
from tests.webhooks.conftest import Hooked, path
from tests.webhooks.receiver import Received, Receiver, verify

SHORT = {"max_turns": 12}  # Expect Delays matches of a few dozen moves


def expected(hooked: Hooked, app: str, kinds: tuple[str, ...]) -> list[tuple[str, int, int | None]]:
    """What the app's webhook of these kinds should get: the app's notifications (read from the log), in order."""
    notes, _ = Follower(hooked.store).read(0, owner=app, limit=100_000)
    return [(n.kind, n.position, n.seat) for n in notes if n.kind in kinds]


def keys(received: list[Received]) -> list[tuple[str, int, int | None]]:
    """What each received delivery says happened: (kind, position, seat)."""
    return [(r.json["kind"], r.json["position"], r.json.get("seat")) for r in received]


def once(received: list[Received]) -> list[Received]:
    """Each delivery id's first arrival (a receiver drops repeats by id, as the README's does)."""
    seen: set[str] = set()
    return [r for r in received if not (r.headers["Turnstile-Delivery"] in seen
                                        or seen.add(r.headers["Turnstile-Delivery"]))]  # type: ignore[func-returns-value]


def new_match(hooked: Hooked, app: str, game: str = "expect-delays", seats: int = 2) -> str:
    """A match of `app`."""
    options = SHORT if game == "expect-delays" else None
    return hooked.service.create(game, [f"p{i}" for i in range(seats)], options, owner=app).record.id


def test_each_notification_arrives_once_signed_and_in_log_order_per_match(hooked: Hooked, receiver: Receiver) -> None:
    everything, ended = path(), path()
    hook = hooked.subscribe("app-a", receiver.url(everything), ["turn", "match.created", "match.ended"])
    only_ended = hooked.subscribe("app-a", receiver.url(ended), ["match.ended"], game="expect-delays")
    hooked.subscribe("app-b", receiver.url(path()), ["turn"])  # another app's matches are not app-a's
    rng = random.Random(7)
    first, second = new_match(hooked, "app-a"), new_match(hooked, "app-a")
    new_match(hooked, "app-b")
    play_random_moves(hooked.service, first, rng, 10_000)  # to its end
    play_random_moves(hooked.service, second, rng, 6)
    kinds = ("turn", "match.created", "match.ended")
    receiver.wait_for(lambda: receiver.at(ended) and sorted(keys(receiver.at(everything))) == sorted(expected(
        hooked, "app-a", kinds)), 30, "every notification to arrive")
    time.sleep(0.3)  # anything extra (a duplicate) would arrive within a few polls
    got = receiver.at(everything)
    assert sorted(keys(got)) == sorted(expected(hooked, "app-a", kinds))  # each once, nothing more
    for match_id in (first, second):  # one sender per webhook, each match's deliveries in log order
        mine = [r.json["position"] for r in got if r.json["match_id"] == match_id]
        assert mine == sorted(mine) and mine
    assert len({r.headers["Turnstile-Delivery"] for r in got}) == len(got)
    for received in got:
        assert verify(hook.secret, received), "the signature verifies with the secret shown at creation"
        assert received.json["id"] == received.headers["Turnstile-Delivery"]
        assert received.headers["Turnstile-Event"] == received.json["kind"]
        assert received.json["match_id"] in (first, second)
    kinds = [r.json["kind"] for r in got]
    assert kinds.count("match.created") == 2 and kinds.count("match.ended") == 1
    [end] = receiver.at(ended)
    assert end.json["match_id"] == first and end.json["outcome"]["results"] and verify(only_ended.secret, end)
    tampered = type(end)(end.path, end.headers, end.body.replace(b'"match.ended"', b'"match.endex"'), end.at)
    assert not verify(only_ended.secret, tampered) and not verify(hook.secret, end)


def test_a_receiver_failing_three_times_gets_the_event_on_the_fourth(hooked: Hooked, receiver: Receiver) -> None:
    flaky = path()
    hook = hooked.subscribe("app-f", receiver.url(flaky, fail_first=3), ["match.created"])
    new_match(hooked, "app-f")
    receiver.wait_for(lambda: len(receiver.at(flaky)) >= 4, 20, "four attempts")
    attempts = receiver.at(flaky)
    assert len({r.headers["Turnstile-Delivery"] for r in attempts}) == 1 and len({r.body for r in attempts}) == 1
    assert all(verify(hook.secret, r) for r in attempts)
    deadline = time.monotonic() + 10
    while (listed := hooked.hooks.deliveries("app-f", hook.id, 10)[0]).status != "delivered":
        assert time.monotonic() < deadline, listed
        time.sleep(0.05)
    assert (listed.attempts, listed.last_status_code, listed.last_error) == (4, 204, None)
    assert listed.last_latency_ms is not None and hooked.hooks.get("app-f", hook.id).failures == 0


def test_repeated_failures_disable_the_webhook_and_a_redelivery_enables_it(hooked: Hooked, receiver: Receiver) -> None:
    down = path()
    hook = hooked.subscribe("app-d", receiver.url(down, fail_first=1000), ["match.created"])
    new_match(hooked, "app-d")
    deadline = time.monotonic() + 20
    while hooked.hooks.get("app-d", hook.id).status != "disabled":
        assert time.monotonic() < deadline, "the webhook was never disabled"
        time.sleep(0.05)
    disabled = hooked.hooks.get("app-d", hook.id)
    [failed] = hooked.hooks.deliveries("app-d", hook.id, 10)
    assert (failed.status, failed.attempts, failed.last_status_code) == ("failed", 5, 500)  # FAST: 5 attempts
    assert "failed 5 times" in (disabled.disabled_reason or "") and "HTTP 500: not now" in (failed.last_error or "")
    new_match(hooked, "app-d")  # while disabled: folded, not sent
    time.sleep(0.3)
    assert len(receiver.at(down)) == 5
    receiver.behaviours[down].fail_first = 0  # the receiver is fixed
    again = hooked.hooks.redeliver("app-d", hook.id, failed.id)
    assert again.status == "pending" and hooked.hooks.get("app-d", hook.id).status == "active"
    receiver.wait_for(lambda: len(receiver.at(down)) >= 7, 10, "the redelivery and the delivery held back")
    ids = [r.headers["Turnstile-Delivery"] for r in receiver.at(down)]
    assert failed.id in ids[5:] and len(set(ids[5:])) == 2  # the same delivery (same id), and the one held back


def test_a_refused_connection_is_retried_and_recorded(hooked: Hooked) -> None:
    hook = hooked.subscribe("app-r", "http://127.0.0.1:9/nobody-listens", ["match.created"])
    new_match(hooked, "app-r")
    deadline = time.monotonic() + 10
    while not (listed := hooked.hooks.deliveries("app-r", hook.id, 1)) or listed[0].attempts < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert listed[0].last_status_code is None and "Connection" in (listed[0].last_error or "")


def test_a_hung_receiver_slows_neither_moves_nor_other_webhooks(hooked: Hooked, receiver: Receiver) -> None:
    hung, fine = path(), path()
    hooked.subscribe("app-h", receiver.url(hung, hang=True), ["turn", "match.created"])
    hooked.subscribe("app-h", receiver.url(fine), ["turn", "match.created"])
    match_id = new_match(hooked, "app-h")
    receiver.wait_for(lambda: bool(receiver.at(hung)), 10, "the hung receiver to be holding a delivery")
    # Moves while the hung receiver holds a request: every move commits, and the other webhook gets them all.
    played = play_random_moves(hooked.service, match_id, random.Random(3), 8)
    kinds = ("turn", "match.created")
    receiver.wait_for(lambda: keys(once(receiver.at(fine))) == expected(hooked, "app-h", kinds), 20,
                      "the healthy webhook's deliveries")
    assert played == 8 and len(receiver.at(hung)) == 1  # one attempt at a time, still held
    receiver.behaviours[hung].release.set()


def test_every_game_every_payload_is_a_spectators(hooked: Hooked) -> None:
    """No delivery carries a hidden card: each event checked against what its game hides at that version."""
    from domain import match as rules
    from domain.catalog import decode_events
    from service.outbox.webhook_fold import fold_all

    hooked.dispatcher.close()  # fold here, in the test's thread; nothing is sent
    rng = random.Random(11)
    hook = hooked.subscribe("app-s", "http://127.0.0.1:9/", ["turn", "match.created", "match.ended"])
    for slug in ("expect-delays", "metro-x", "terminus", "mass-transit", "touched-on"):
        game = by_slug(slug)
        assert game is not None
        match_id = new_match(hooked, "app-s", slug, seats=game.min_seats if game.min_seats > 1 else 2)
        play_random_moves(hooked.service, match_id, rng, 12)
    fold_all(hooked.store, Follower(hooked.store))
    checked = 0
    states: dict[tuple[str, int], object] = {}
    for delivery in hooked.store.deliveries("app-s", hook.id, 1000) or []:
        payload = __import__("msgspec").json.decode(delivery.body)
        game = by_slug(payload["game"])
        assert game is not None
        stored = hooked.store.read_match(payload["match_id"])
        for item in payload["events"]:
            key = (payload["match_id"], item["version"])
            if key not in states:
                states[key] = rules.fold(game, decode_events(game, [e.payload for e in stored[:item["version"]]]))
            state = states[key]
            if state.game_state is None:  # type: ignore[attr-defined]
                continue
            hidden = game.hidden_from(state.game_state, None)  # type: ignore[attr-defined]
            text = __import__("msgspec").json.encode(item["event"])
            assert not [t for t in hidden if f'"{t}"'.encode() in text], (payload["game"], item["version"])
            checked += 1
    assert checked > 20


def test_a_tournament_match_readys_seat_tokens_are_pruned_from_the_stored_body_once_delivered(
        hooked: Hooked, receiver: Receiver) -> None:
    """Issue 39: a `tournament.match-ready` delivery carries each person's seat token (a token plays its seat). The
    receiver gets them; once delivered, the stored body keeps none (a database read or backup finds no token), and a
    redelivery sends the pruned body — the app's feed still tells the tokens."""
    from domain.tournaments.commands import CreateTournament, EntryOf
    from service.tournaments.tournaments import TournamentService

    ready = path()
    hook = hooked.subscribe("club", receiver.url(ready), ["tournament.match-ready"])
    tournaments = TournamentService(hooked.store, hooked.service)
    created = tournaments.create("club", CreateTournament(
        game="expect-delays", format="round-robin", entrants=("ann", EntryOf(bot="random", name="r1")), seats=2,
        seed_commitment="", options={"max_turns": 4}))
    tournaments.start(created.loaded.record.id, "club")
    receiver.wait_for(lambda: receiver.at(ready), 30, "the match-ready delivery")
    [got] = receiver.at(ready)[:1]
    seats = got.json["tournament"]["seats"]
    assert any(seat.get("token") for seat in seats), "the receiver is told the person's seat token"
    deadline = time.monotonic() + 10
    while (listed := hooked.store.deliveries("club", hook.id, 10)[0]).status != "delivered":  # as stored
        assert time.monotonic() < deadline, listed
        time.sleep(0.05)
    assert '"token"' not in listed.body and listed.id == got.json["id"]
    assert [s["seat"] for s in json.loads(listed.body)["tournament"]["seats"]] == [s["seat"] for s in seats]
    notes, _ = Follower(hooked.store).read(0, owner="club", limit=1000)
    told = [n for n in notes if n.kind == "tournament.match-ready"]
    assert told and any(seat.token for seat in told[0].tournament.seats)  # type: ignore[union-attr]


def test_no_read_of_a_delivery_shows_a_seat_token_delivered_pending_or_given_up(
        hooked: Hooked, receiver: Receiver) -> None:
    """Issue 39: the `tournament.match-ready` seat tokens of three deliveries — one delivered, one pending (its
    receiver holds the request), one given up (its receiver fails every attempt) — are in no read of the delivery
    log: the service's list and redelivery, the API's GET deliveries and POST redeliver. A given-up delivery's stored
    body is pruned too (nothing will send it); a pending one keeps its tokens in storage, for its sender alone."""
    from api.app import create_app
    from domain.tournaments.commands import CreateTournament, EntryOf
    from service.matches.tokens import new_secret, secret_hash
    from service.tournaments.tournaments import TournamentService
    from tests.api.conftest import bearer

    delivered, held, refused = path(), path(), path()
    hooks = {"delivered": hooked.subscribe("club", receiver.url(delivered), ["tournament.match-ready"]),
             "pending": hooked.subscribe("club", receiver.url(held, hang=True), ["tournament.match-ready"]),
             "failed": hooked.subscribe("club", receiver.url(refused, fail_first=1_000), ["tournament.match-ready"])}
    tournaments = TournamentService(hooked.store, hooked.service)
    created = tournaments.create("club", CreateTournament(
        game="expect-delays", format="round-robin", entrants=("ann", EntryOf(bot="random", name="r1")), seats=2,
        seed_commitment="", options={"max_turns": 4}))
    tournaments.start(created.loaded.record.id, "club")
    notes, _ = Follower(hooked.store).read(0, owner="club", limit=1000)
    tokens = [seat.token for n in notes if n.kind == "tournament.match-ready"
              for seat in n.tournament.seats if seat.token]  # type: ignore[union-attr]
    assert tokens, "the feed tells the person's seat token"
    try:
        receiver.wait_for(lambda: receiver.at(delivered) and receiver.at(held), 30, "the deliveries to arrive")
        deadline = time.monotonic() + 30
        while [[d.status for d in hooked.hooks.deliveries("club", hook.id, 1)] for hook in hooks.values()] != [
                [status] for status in hooks]:
            assert time.monotonic() < deadline, [hooked.hooks.deliveries("club", h.id, 10) for h in hooks.values()]
            time.sleep(0.05)
        assert all(t in receiver.at(delivered)[0].body.decode() for t in tokens)  # the receiver was told them
        stored = {status: hooked.store.deliveries("club", hook.id, 10)[0] for status, hook in hooks.items()}
        assert all(t in stored["pending"].body for t in tokens)  # kept for its sender, in storage only
        assert not any(t in stored[s].body for s in ("delivered", "failed") for t in tokens)

        secret = new_secret("app")
        hooked.store.create_app_key("club", secret_hash(secret))
        listed: list[str] = []  # GET deliveries, over the API
        read: list[str] = []  # every other read: the service's list and redelivery, the API's redelivery
        with TestClient(create_app(hooked.store, webhooks=hooked.hooks)) as client:
            for hook in hooks.values():
                answer = client.get(f"/v1/webhooks/{hook.id}/deliveries", headers=bearer(secret))
                assert answer.status_code == 200 and answer.json()["items"][0]["payload"]["tournament"]["seats"]
                listed.append(answer.text)
                read.extend(msgspec.json.encode(r).decode() for r in hooked.hooks.deliveries("club", hook.id, 10))
            for status in ("failed", "pending"):
                again = hooked.hooks.redeliver("club", hooks[status].id, stored[status].id)
                read.append(msgspec.json.encode(again).decode())
            answer = client.post(f"/v1/webhooks/{hooks['delivered'].id}/deliveries/{stored['delivered'].id}"
                                 "/redeliver", headers=bearer(secret))
            assert answer.status_code == 202, answer.text
            read.append(answer.text)
        assert len(listed) == 3 and len(read) >= 3 + 3
        assert not [text for text in listed + read for t in tokens if t in text]
    finally:
        receiver.behaviours[held].release.set()
