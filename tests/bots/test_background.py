"""Search bots play in the background, never on a request's thread (issue 41): the service's own moves stop with
the bot's seat to move; the process's bot runner plays the turn; and a turn no runner played (the process crashed
or stopped first) is played by the deadline sweep of any process, found by the due hint the write left, once it has
waited the service's `search_grace_s` (settings.py; before that, the sweep leaves it to the runner: no search twice)."""

from __future__ import annotations

import time
from datetime import timedelta

from domain import match
from service.matches.bot_runner import BotRunner
from service.matches.deadlines import sweep
from service.matches.matches import MatchService
from service.outbox.notifications import Follower
from settings import Settings
from store.base import EventStore, utc_now

PLAYERS = ["ada", "bot:ismcts-1"]
OPTIONS = {"max_turns": 4}
SEARCH_GRACE_S = Settings.search_grace_s  # what a service is made with unless told


def persons_turn(service: MatchService, match_id: str) -> None:
    """Seat 0 plays its first legal move while it is to move (a turn may take several moves)."""
    while True:
        loaded = service.load(match_id)
        if 0 not in match.to_move(loaded.game, loaded.state):
            return
        service.play(match_id, 0, match.legal(loaded.game, loaded.state, 0)[0], expected_version=None,
                     command_id=None)


def test_a_bot_turn_left_by_a_crash_is_played_by_the_sweep(store: EventStore) -> None:
    crashed = MatchService(store)  # no runner: its process died before playing the bot's turn
    match_id = crashed.create("expect-delays", PLAYERS, OPTIONS, owner="tests").record.id
    persons_turn(crashed, match_id)
    loaded = crashed.load(match_id)
    assert match.to_move(loaded.game, loaded.state) == [1]  # the bot's seat shows to move
    version = loaded.state.version
    late = utc_now() + timedelta(seconds=SEARCH_GRACE_S + 1)
    assert store.due_matches(utc_now() + timedelta(seconds=1), 10, None) == []  # the background's turn, for now
    assert [m for _, m in store.due_matches(late, 10, None)] == [match_id]
    another = MatchService(store)  # any process's sweep
    assert sweep(another) == 0 and another.load(match_id).state.version == version  # not late yet: no search here
    assert sweep(another, lambda: late) >= 1
    after = another.load(match_id)
    assert after.state.version > version and 1 not in match.to_move(after.game, after.state)
    assert store.read_match(match_id, version + 1, version + 1)[0].seat == 1
    assert sweep(another, lambda: late) == 0  # nothing is played twice


def test_the_runner_plays_the_bot_turn_after_a_persons_move(store: EventStore) -> None:
    service = MatchService(store)
    runner = BotRunner(service)
    service.watchers.append(runner.moved)
    try:
        match_id = service.create("expect-delays", PLAYERS, OPTIONS, owner="tests").record.id
        persons_turn(service, match_id)
        for _ in range(3000):  # the runner's thread plays it soon (bounded wait, not a timing assertion)
            loaded = service.load(match_id)
            if 1 not in match.to_move(loaded.game, loaded.state):
                break
            time.sleep(0.01)
        loaded = service.load(match_id)
        assert 1 not in match.to_move(loaded.game, loaded.state) or loaded.state.finished
        assert any(event.seat == 1 for event in store.read_match(match_id, 1, loaded.state.version))
    finally:
        runner.close()


def test_the_sweep_never_times_out_a_search_bot_and_plays_its_late_turn(store: EventStore) -> None:
    """With a move deadline shorter than the grace: past the deadline but within the grace the sweep writes nothing
    (the turn is the background's); past the grace it plays the bot's move, never a timeout of the bot's seat."""
    crashed = MatchService(store)
    match_id = crashed.create("expect-delays", PLAYERS, OPTIONS | {"move_deadline": 2}, owner="tests").record.id
    persons_turn(crashed, match_id)
    version = crashed.load(match_id).state.version
    another = MatchService(store)
    assert sweep(another, lambda: utc_now() + timedelta(seconds=SEARCH_GRACE_S / 2)) == 0
    assert another.load(match_id).state.version == version
    assert sweep(another, lambda: utc_now() + timedelta(seconds=SEARCH_GRACE_S + 1)) >= 1
    played = store.read_match(match_id, version + 1, version + 1)[0]
    assert played.seat == 1 and played.type != "match.timed-out"


def test_the_feed_tells_a_bot_seat_by_its_levels_title(store: EventStore) -> None:
    """The feed's words (and the webhooks', folded from the same notifications' events) name the bot as the API's
    `text` and the web page do: its level's title from the catalog, never its handle."""
    service = MatchService(store)
    match_id = service.create("expect-delays", PLAYERS, OPTIONS, owner="tests").record.id
    persons_turn(service, match_id)
    service.play_bots(service.load(match_id), searching=True)
    notes, _ = Follower(store).read(0, owner="tests", limit=1000)
    told = " ".join(line for note in notes if note.match_id == match_id for line in note.text)
    assert "Computer, level 2 (search)" in told and "bot:ismcts-1" not in told, told


def test_the_grace_is_the_services_setting(store: EventStore) -> None:
    """`TURNSTILE_SEARCH_GRACE_S` (settings.py) is what the due hint and the sweep both wait: a service told 60 s
    leaves the turn alone past the default's 10 s, and plays it past 60 s."""
    grace = 60.0
    crashed = MatchService(store, search_grace_s=grace)
    match_id = crashed.create("expect-delays", PLAYERS, OPTIONS, owner="tests").record.id
    persons_turn(crashed, match_id)
    version = crashed.load(match_id).state.version
    past_default = utc_now() + timedelta(seconds=SEARCH_GRACE_S + 5)
    assert store.due_matches(past_default, 10, None) == []  # the write's hint is the setting's, not the default's
    another = MatchService(store, search_grace_s=grace)
    assert sweep(another, lambda: past_default) == 0 and another.load(match_id).state.version == version
    assert sweep(another, lambda: utc_now() + timedelta(seconds=grace + 1)) >= 1
    assert another.load(match_id).state.version > version
