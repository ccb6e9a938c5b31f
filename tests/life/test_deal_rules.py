"""The rules of a deal from the seats' entropy (domain/match.py), as given events -> command -> events or refusal:
what may be added when, by whom, once; what the deal records; and that nothing else is decided before it."""

from __future__ import annotations

from typing import Any

import pytest

from domain import match
from domain.catalog import by_slug
from domain.engine import Command, Game, Refusal
from domain.lifecycle import AddEntropy, Cancel, Deal, EntropyAdded, EntropyClosed, Join, MatchEnded, Resign
from domain.match import MatchState
from domain.rng import Rng, seed_commitment

PART = "a" * 64


def metro_x() -> Game[Any]:
    game = by_slug("metro-x")
    assert game is not None
    return game


def opened(players: list[str | None], drawn: dict[int, str] | None = None, **options: Any) -> MatchState:
    """The state after creation of a metro-x match with option `entropy: "seats"`."""
    game = metro_x()
    events = match.open_match(game, players, {"entropy": "seats", **options}, PART, seed_source="server+seats",
                              server_seed_commitment=seed_commitment(PART), server_entropy=drawn)
    return match.fold(game, events)


def decide(state: MatchState, seat: int | None, command: Command) -> list[Any]:
    return match.decide(metro_x(), state, seat, command, Rng.derive("rules", state.version))


def refused(state: MatchState, seat: int | None, command: Command) -> str:
    with pytest.raises(Refusal) as caught:
        decide(state, seat, command)
    return caught.value.code


def test_a_seats_match_opens_dealing_with_only_the_commitment_and_the_bots_entropy() -> None:
    state = opened(["ada", "bot:random"], {1: "drawn"})
    assert state.dealing and state.game_state is None and state.seat_entropy == (None, "drawn")
    assert match.to_move(metro_x(), state) == [] and match.legal(metro_x(), state, 0) == []


def test_each_seat_adds_once_and_only_1_to_256_characters_without_nul() -> None:
    state = opened(["ada", "bob"])
    assert decide(state, 0, AddEntropy(entropy="x")) == [EntropyAdded(seat=0, entropy="x")]
    after = match.fold(metro_x(), decide(state, 0, AddEntropy(entropy="x")), state)
    assert refused(after, 0, AddEntropy(entropy="y")) == "entropy-already-added"
    for bad in ("", "x" * 257, "nul\x00"):
        assert refused(state, 1, AddEntropy(entropy=bad)) == "bad-entropy"
    assert decide(state, 1, AddEntropy(entropy="é" * 256))  # characters, not bytes
    assert refused(state, 2, AddEntropy(entropy="x")) == "no-such-seat"


def test_nothing_but_entropy_a_deal_or_a_call_off_is_decided_before_the_deal() -> None:
    state = opened(["ada", "bob"])
    assert refused(state, 0, Resign()) == "match-dealing"
    assert refused(state, 0, Deal()) == "match-started"  # no seat deals: the service does
    assert decide(state, None, Cancel()) == [MatchEnded(reason="cancelled", results=())]


def test_the_deal_records_the_absent_seats_then_the_set_up_and_closes_the_entropy() -> None:
    state = opened(["ada", "bob", "cy"])
    state = match.fold(metro_x(), decide(state, 1, AddEntropy(entropy="bob's")), state)
    dealt = decide(state, None, Deal())
    assert dealt[0] == EntropyClosed(absent=(0, 2)) and dealt[1].__struct_config__.tag == "metro-x.set-up"
    after = match.fold(metro_x(), dealt, state)
    assert not after.dealing and after.game_state is not None and match.to_move(metro_x(), after)
    assert refused(after, 0, AddEntropy(entropy="late")) == "entropy-closed"
    assert refused(after, None, Deal()) == "entropy-closed"
    assert refused(after, None, Cancel()) == "match-started"


def test_an_open_seat_adds_entropy_once_joined_and_the_last_join_deals_nothing() -> None:
    state = opened([None, "bob"])
    assert refused(state, 0, AddEntropy(entropy="early")) == "seat-open"
    assert refused(state, None, Deal()) == "match-not-started"
    joined = decide(state, 0, Join(player="ada"))
    assert [e.__struct_config__.tag for e in joined] == ["match.seat-joined", "match.started"]
    after = match.fold(metro_x(), joined, state)
    assert after.dealing and after.started_version == 3


def test_a_match_without_the_option_takes_no_entropy() -> None:
    game = metro_x()
    state = match.fold(game, match.open_match(game, ["ada"], None, PART))
    assert refused(state, 0, AddEntropy(entropy="x")) == "no-seat-entropy"
    assert refused(state, None, Deal()) == "no-seat-entropy"
    with pytest.raises(Refusal) as caught:
        match.open_match(game, ["ada"], {"entropy_deadline": 30}, PART)
    assert caught.value.code == "bad-options"


def test_a_bots_seat_adds_no_entropy_its_own_is_drawn_at_creation() -> None:
    """Issue 39, hole 1: a bot's entropy is the server's, drawn when the match opens (every bot's, nobody else's);
    `match.add-entropy` for a bot's seat is refused (`bot-seat`) whether or not it was drawn, and a bot takes no
    open seat of a fair-deal match by a join (its entropy could no longer come first)."""
    game = metro_x()
    drawn = opened(["ada", "bot:random"], {1: "drawn"})
    assert refused(drawn, 1, AddEntropy(entropy="chosen later")) == "bot-seat"
    assert decide(drawn, 0, AddEntropy(entropy="ada's")) == [EntropyAdded(seat=0, entropy="ada's")]
    for wrong in ({}, {0: "x", 1: "y"}, {0: "x"}):
        with pytest.raises(ValueError):
            opened(["ada", "bot:random"], wrong)
    waiting = opened([None, "bob"])
    assert refused(waiting, 0, Join(player="bot:random")) == "bot-seat"
    plain = match.fold(game, match.open_match(game, [None, "bob"], None, PART))
    assert decide(plain, 0, Join(player="bot:random"))  # without fair deals a bot may still be seated by a join
