"""Every move told in words, for every registered game: each event type has a sentence, each sentence names the
players, and no sentence told to a seat (or a spectator) names a card that seat may not see."""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain import match
from domain.catalog import GAMES
from domain.engine import Event, Game, setups
from domain.lifecycle import LIFECYCLE_EVENTS, EntropyAdded, EntropyClosed, MatchEnded, MatchStarted, SeatResigned
from domain.narration import LIFECYCLE, describe, words
from domain.playout import play

CASES = [
    pytest.param(game, seats, options, id=f"{game.slug}-{seats}p-{index}")
    for game in GAMES
    for index, (seats, options) in enumerate(setups(game))
]
NAMES = ("Ada", "Grace", "Hedy", "Joan", "Katherine", "Radia", "Barbara", "Frances")


def token_in(token: str, text: str) -> bool:
    """Whether a card id appears in `text` as a whole word (T03 is not inside T031)."""
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text) is not None


@pytest.mark.parametrize("game", GAMES, ids=[game.slug for game in GAMES])
def test_every_event_type_has_a_sentence(game: Game[Any]) -> None:
    """The game's narrator knows each of its event types, and nothing else is left to the shared lifecycle."""
    assert set(game.event_types) <= game.describe.types, sorted(
        t.__name__ for t in set(game.event_types) - game.describe.types)
    assert not set(game.event_types) & set(LIFECYCLE)


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_no_sentence_names_a_hidden_card(game: Game[Any], seats: int, options: dict[str, Any]) -> None:
    """A random match told to every seat and a spectator: a sentence per event, in the players' names, the same as
    telling the redacted event, and never naming a token `hidden_from` that reader right after the event."""
    played = play(game, seats, options, seed="narration")
    names = NAMES[:seats]
    state = None
    told_types: set[type[Event]] = set()
    differs = 0
    for event in played.events:
        state = match.evolve(game, state, event)
        for viewer in [*range(seats), None]:
            text = describe(game, event, viewer, names)
            assert text.strip() and text[0].isupper() and text.rstrip().endswith((".", ")")), (event, text)
            assert "None" not in text and "seat -1" not in text, text
            if type(event) not in LIFECYCLE:
                assert text == words(game, game.redact(event, viewer), names)
            if state.game_state is not None and not state.finished:
                hidden = game.hidden_from(state.game_state, viewer)
                leaked = [token for token in hidden if token_in(token, text)]
                assert not leaked, f"{viewer} is told {leaked}: {text}"
        if type(event) not in LIFECYCLE:
            differs += len({describe(game, event, v, names) for v in [*range(seats), None]}) > 1
        told_types.add(type(event))
    assert MatchStarted in told_types and MatchEnded in told_types
    assert any(name in describe(game, e, None, names) for e in played.events for name in names[-1:])
    if any(game.redact(e, None) != e for e in played.events if type(e) not in LIFECYCLE):
        assert differs, "a hidden fact reads the same to its owner and to everyone else"


def test_every_lifecycle_event_has_a_sentence() -> None:
    """Lifecycle events added later (the seats' entropy, the deal) are told too, not a 500 on `include=text`."""
    assert set(LIFECYCLE) == set(LIFECYCLE_EVENTS)
    absent = words(GAMES[0], EntropyClosed(absent=(1,)), ["ada", "grace"])
    assert absent == "The entropy closed without grace: the cards are dealt."
    assert "server" in words(GAMES[0], EntropyAdded(seat=1, entropy="x", source="server"), ["ada", "bot:random"])


def test_lifecycle_events_read_the_same_in_every_game() -> None:
    """A resignation is told in the player's name, whatever the game."""
    for game in GAMES:
        assert describe(game, SeatResigned(seat=1), None, NAMES) == "Grace resigned."
