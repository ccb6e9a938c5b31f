"""The Expect Delays record: the functions and facts the engine and the catalog need."""

from __future__ import annotations

from domain.engine import Game, Outcome, ranked_results
from domain.games.expect_delays.commands import COMMAND_TYPES
from domain.games.expect_delays.events import EVENT_TYPES
from domain.games.expect_delays.legal import legal
from domain.games.expect_delays.options import Options
from domain.games.expect_delays.render import render
from domain.games.expect_delays.rules import decide, start, to_move
from domain.games.expect_delays.state import State, evolve
from domain.games.expect_delays.visibility import hidden_from, redact, scramble, view


def scores(state: State) -> list[float]:
    """Destination Points per seat."""
    return [float(points) for points in state.points]


def outcome(state: State) -> Outcome | None:
    """Once over: most Destination Points wins; ties go to most riders on own lines, then most Fare
    Swipes (rulebook, Ending the Game; reading 14), and a tie on all three is shared."""
    if not state.end_reason:
        return None
    keys = [
        (state.points[seat], state.riders_on_lines(seat), state.fare_swipes[seat]) for seat in range(len(state.points))
    ]
    return Outcome(reason=state.end_reason, results=ranked_results(keys, scores(state)))


GAME: Game[State] = Game(
    slug="expect-delays",
    title="Expect Delays",
    min_seats=2,
    max_seats=2,
    options_type=Options,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    default_data=(
        "track: stop points 0,1,1,2,3,4,5 and the ◇ stops 0, 3, 5 (no public source)",
        "train cards: the symbols and Fare Swipe values of all 16 cards (no public source)",
        "service advisories: the names and effects of all 18 cards, 6 of each kind (no public source)",
        "lines: which colour pair belongs to Uptown and which to Downtown (no public source)",
    ),
    deviations=(
        "max_turns (default 300) is an engine limit, not a rule: actions are optional, so play could cycle "
        "forever; after that many turns the match ends and is scored like a deck-exhaustion end (reading 20)",
        "A Tourist moved while riders fill every stop ahead of it to the last one (a Commuter waiting there) "
        "returns to the Platform without reaching the last stop; the rulebook, with one rider per stop, leaves it "
        "stuck for as long as that Commuter waits",
        "Ties on points, riders and Fare Swipes are shared wins (the rulebook stops at Fare Swipes, reading 14)",
    ),
    rules_version="2",
    # The short limited match comes first: it is the golden playthrough and exercises the limit path.
    sample_setups=((2, {"max_turns": 40}), (2, {})),
    start=start,
    evolve=evolve,
    decide=decide,
    legal=legal,
    to_move=to_move,
    view=view,
    redact=redact,
    outcome=outcome,
    scores=scores,
    hidden_from=hidden_from,
    scramble=scramble,
    render=render,
)
