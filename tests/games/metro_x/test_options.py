"""Metro X options: the map is chosen by a match option (Rules, Set-up 2)."""

from __future__ import annotations

import pytest

from domain import match
from domain.engine import Refusal
from domain.games.metro_x import GAME
from domain.games.metro_x.events import SetUp


@pytest.mark.parametrize(("options", "board"), [({}, "metro-city"), ({"map": "tube-town"}, "tube-town")])
def test_the_map_is_a_match_option(options: dict[str, str], board: str) -> None:
    """Set-up 2: "Decide on which subway map you'll be traveling across" ("Metro City" recommended first)."""
    events = match.open_match(GAME, ["a", "b"], options, "seed")
    assert events[1] == SetUp(map=board, seats=2)
    state = match.fold(GAME, events)
    assert GAME.view(state.game_state, None).title == {"metro-city": "Metro City", "tube-town": "Tube Town"}[board]


@pytest.mark.parametrize("options", [{"map": "tokyo"}, {"maps": "tube-town"}])
def test_unknown_maps_and_options_are_refused(options: dict[str, str]) -> None:
    """Only the two Gamewright maps exist; unknown option names are refused."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, ["a"], options, "seed")
    assert refused.value.code == "bad-options"


@pytest.mark.parametrize("seats", [0, 7])
def test_one_to_six_seats(seats: int) -> None:
    """Components: 6 subway boards, so 1-6 players (the solo variant included)."""
    with pytest.raises(Refusal) as refused:
        match.open_match(GAME, [f"p{i}" for i in range(seats)], {}, "seed")
    assert refused.value.code == "bad-seat-count"
