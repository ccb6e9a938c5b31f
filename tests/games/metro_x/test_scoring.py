"""Metro X route completion, the end of the game, scoring and tie-breaks (Rules, Game Play, End of the Game)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.engine import Event
from domain.games.metro_x import GAME
from domain.games.metro_x.commands import MarkFreeSpace, MarkRoute, MarkTransfer, Pass
from domain.games.metro_x.components import BOARDS
from domain.games.metro_x.events import (
    CardFlipped,
    Completion,
    GameScored,
    MarkingSubmitted,
    SeatScore,
    TurnResolved,
)
from domain.games.metro_x.rules import legal, to_move
from domain.games.metro_x.scoring import outcome, scores, seat_score
from domain.games.metro_x.state import evolve
from domain.games.metro_x.visibility import view
from tests.games.given import When, given
from tests.games.metro_x.tables import all_windows_but_one, table, with_card

N_LINE = ["0.7", "0.8", "1.9", "2.10", "3.10", "4.10"]  # Tube Town N: gold diamond 2, white square 1


def completions_of(events: list[Event]) -> tuple[Completion, ...]:
    return next(e for e in events if isinstance(e, TurnResolved)).completions


def both_complete_n() -> When:
    """Seats 0 and 1 each cross the last three stations of Tube Town's N line on the same turn; seat 2 marks M."""
    state = table("tube-town", seats=3, card="N3-1", crossed={0: N_LINE[:3], 1: N_LINE[:3]})
    both = given(GAME, state).when(0, MarkRoute(route="N", stations=3)).when(1, MarkRoute(route="N", stations=3))
    return both.when(2, MarkRoute(route="M", stations=3))


def test_simultaneous_first_completers_all_take_gold() -> None:
    """Worked example 6 (Rules, Game Play): "If multiple players complete a route 'first' on the same turn, they
    each receive the gold diamond bonus"; everyone else crosses out that gold diamond."""
    move = both_complete_n()
    after, events = move.state, move.events
    assert completions_of(events) == (
        Completion(seat=0, route="N", bonus="gold", points=2),
        Completion(seat=1, route="N", bonus="gold", points=2),
    )
    sheets = view(after, None).sheets
    assert [s.completed for s in sheets] == [{"N": "gold"}, {"N": "gold"}, {}]
    assert [s.gold_crossed_out for s in sheets] == [(), (), ("N",)]
    assert [s.score.completed for s in sheets] == [2, 2, 0]


def test_later_completers_take_the_white_square() -> None:
    """Rules, Game Play: "After that turn, any other player who completes the route will circle and receive the
    points in the white square"."""
    after = both_complete_n().state
    move = (
        given(GAME, with_card(after, "N5-1"))
        .when(0, MarkRoute(route="M", stations=0))
        .when(1, MarkRoute(route="M", stations=0))
        .when(2, MarkRoute(route="N", stations=5))
    )
    later, events = move.state, move.events
    assert completions_of(events) == (Completion(seat=2, route="N", bonus="white", points=1),)
    sheets = view(later, None).sheets
    assert sheets[2].completed == {"N": "white"} and sheets[2].gold_crossed_out == ("N",)
    assert [s.score.completed for s in sheets] == [2, 2, 1]


def test_solo_always_takes_gold() -> None:
    """Rules, Solo Variant: "you'll always circle the gold diamond upon completing a route"."""
    state = table("tube-town", card="N3-1", crossed={0: N_LINE[:3]})
    state = replace(state, gold_taken=tuple(True for _ in state.gold_taken))  # as if the gold were gone
    move = given(GAME, state).when(0, MarkRoute(route="N", stations=3))
    after, events = move.state, move.events
    assert completions_of(events) == (Completion(seat=0, route="N", bonus="gold", points=2),)
    assert view(after, 0).sheets[0].gold_crossed_out == ()


def test_a_route_is_complete_when_every_station_is_filled_by_any_means() -> None:
    """Reading 6: completion needs every station filled, whichever route or card filled it; the route's own
    windows need not be used. Here crossing M's first station (0.7) completes N."""
    state = table("tube-town", card="N3-1", crossed={0: N_LINE[1:]})
    move = given(GAME, state).when(0, MarkRoute(route="M", stations=1))
    after, events = move.state, move.events
    assert completions_of(events) == (Completion(seat=0, route="N", bonus="gold", points=2),)
    assert after.sheets[0].windows[after.board.route_index["N"]] == ()


def test_free_space_and_transfer_numbers_complete_routes() -> None:
    """Readings 6, 8 and 9: a Free Space cross and a transfer number both fill a station for completion."""
    free = table("tube-town", card="FS-1", crossed={0: N_LINE[:-1]})
    events = given(GAME, free).when(0, MarkFreeSpace(station="4.10")).events
    assert completions_of(events) == (Completion(seat=0, route="N", bonus="gold", points=2),)
    transfer = table("tube-town", card="TX-1", crossed={0: N_LINE[1:]})
    move = given(GAME, transfer).when(0, MarkTransfer(route="M"))
    after, events = move.state, move.events
    assert completions_of(events) == (Completion(seat=0, route="N", bonus="gold", points=2),)
    assert seat_score(after.board, after.sheets[0], 0).transfers == 4  # 0.7 is on M and N


def test_a_route_is_announced_once() -> None:
    """A completed route stays circled; later turns do not announce it again."""
    state = table("tube-town", card="N3-1", crossed={0: N_LINE[:3]})
    after = given(GAME, state).when(0, MarkRoute(route="N", stations=3)).state
    events = given(GAME, with_card(after, "N4-1")).when(0, MarkRoute(route="R", stations=2)).events
    assert completions_of(events) == ()


def test_score_is_completed_plus_transfers_minus_the_empty_penalty() -> None:
    """Worked example 7 (Rules, End of the Game): Completed + Transfers - the penalty for empty stations."""
    board = BOARDS["metro-city"]
    state = table("metro-city", crossed={0: board.stations[7:]}, transfers={0: {board.stations[0]: 4}})
    score = seat_score(board, state.sheets[0], 0)
    assert score == SeatScore(seat=0, completed=0, transfers=4, empty=6, penalty=2, total=2)
    assert scores(state) == [2.0]


def test_the_game_ends_after_the_last_window_is_filled() -> None:
    """Reading 1 (Rules, End of the Game): after the turn that fills the last Train Car Window, completions are
    announced one last time, then the sheets are scored; no further card is flipped."""
    state = table("tube-town", card="N3-1", crossed={0: N_LINE[:-1]}, transfers={0: {"5.5": 6}},
                  windows={0: all_windows_but_one("tube-town", "N")})
    move = given(GAME, state).when(0, MarkRoute(route="N", stations=1))
    after, events = move.state, move.events
    assert [type(e) for e in events] == [MarkingSubmitted, TurnResolved, GameScored]
    assert completions_of(events) == (Completion(seat=0, route="N", bonus="gold", points=2),)
    final = SeatScore(seat=0, completed=2, transfers=6, empty=78 - 7, penalty=10, total=-2)
    assert events[2] == GameScored(scores=(final,), solo_rating="Missed the train")
    result = outcome(after)
    assert result is not None and result.reason == "all-windows-filled"
    assert [(r.seat, r.rank, r.score, r.winner) for r in result.results] == [(0, 1, -2.0, True)]
    assert to_move(after) == [] and legal(after, 0) == []
    given(GAME, after).when(0, MarkRoute(route="A", stations=0)).then_refused("game-over")


def test_free_space_does_not_end_the_game() -> None:
    """Reading 1: a Free Space fills no window, so with one window left the game goes on."""
    state = table("metro-city", card="FS-1", windows={0: all_windows_but_one("metro-city", "B")})
    move = given(GAME, state).when(0, Pass())
    after, events = move.state, move.events
    assert isinstance(events[-1], CardFlipped)
    assert outcome(after) is None and to_move(after) == [0]


def test_all_seats_finish_on_the_same_turn() -> None:
    """Rules, End of the Game: "(This should happen at the same time for all players)"."""
    last = all_windows_but_one("metro-city", "B")
    state = table("metro-city", seats=2, card="N3-1", windows={0: last, 1: last})
    move = given(GAME, state).when(1, MarkRoute(route="B", stations=3)).when(0, MarkRoute(route="B", stations=0))
    after, events = move.state, move.events
    scored = events[-1]
    assert isinstance(scored, GameScored) and scored.solo_rating == ""
    assert [s.seat for s in scored.scores] == [0, 1]
    assert [s.empty for s in scored.scores] == [76, 73]
    assert outcome(after) is not None


def scored_table(*finals: tuple[int, int]) -> list[tuple[int, int, bool]]:
    """Ranks for (total, empty) pairs: (seat, rank, winner)."""
    state = table("metro-city", seats=len(finals))
    state = evolve(state, GameScored(scores=tuple(
        SeatScore(seat=s, completed=total, transfers=0, empty=empty, penalty=0, total=total)
        for s, (total, empty) in enumerate(finals)
    )))
    result = outcome(state)
    assert result is not None
    return [(r.seat, r.rank, r.winner) for r in result.results]


def test_most_points_wins_and_ties_go_to_fewest_empty_stations() -> None:
    """Worked example 7 / reading 10: "In the event of a tie, the player with the fewest empty stations is the
    winner. If there is still a tie, all tied players may declare themselves equally victorious"."""
    assert scored_table((10, 20), (12, 30), (8, 5)) == [(0, 2, False), (1, 1, True), (2, 3, False)]
    assert scored_table((10, 20), (10, 15), (8, 5)) == [(0, 2, False), (1, 1, True), (2, 3, False)]
    assert scored_table((10, 15), (10, 15), (8, 5)) == [(0, 1, True), (1, 1, True), (2, 3, False)]
