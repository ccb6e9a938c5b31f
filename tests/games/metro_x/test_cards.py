"""Metro X card rules: what each Transit card writes on a sheet (Rules, Card Types and Clarifications)."""

from __future__ import annotations

from domain.games.metro_x import GAME
from domain.games.metro_x.commands import MarkFreeSpace, MarkRoute, MarkTransfer, Pass
from domain.games.metro_x.components import BOARDS, DECK
from domain.games.metro_x.events import CardFlipped, Choice, Marking, MarkingSubmitted, TurnResolved
from domain.games.metro_x.rules import legal
from domain.games.metro_x.scoring import seat_score
from tests.games.given import given
from tests.games.metro_x.tables import marks, table, window_marks

CITY = BOARDS["metro-city"]
TOWN = BOARDS["tube-town"]


def stations_of(board_slug: str, route: str) -> tuple[str, ...]:
    board = BOARDS[board_slug]
    return board.routes[board.route_index[route]].stations


def test_abigail_number_3_on_the_b_line() -> None:
    """Worked example 1 (Rules, Number): a 3 on the B line writes 3 in a B window and crosses the first three
    stations, which B shares with the A line."""
    state = table("metro-city", card="N3-1")
    events = given(GAME, state).when(0, MarkRoute(route="B", stations=3)).events
    crossed = ("0.0", "1.0", "1.1")
    assert events[:2] == [
        MarkingSubmitted(seat=0, turn=1, choice=Choice(action="route", route="B", stations=3,
                                                       key="mx-pending:1:0:route:B:3:0:")),
        TurnResolved(turn=1, card="N3-1",
                     markings=(Marking(seat=0, action="route", route="B", window="3", crossed=crossed),)),
    ]
    assert isinstance(events[2], CardFlipped) and events[2].turn == 2 and events[2].card in DECK
    after = given(GAME, state, *events).state
    assert window_marks(after, 0, "B") == ("3",)
    assert set(marks(after, 0)) == set(crossed) == set(stations_of("metro-city", "A")[:3])


def test_number_card_starts_at_the_first_empty_station() -> None:
    """Rules, Number: "find the first empty station space from the Start Point" (reading 4)."""
    state = table("metro-city", card="N3-1", crossed={0: ["0.0", "1.0"]})
    after = given(GAME, state).when(0, MarkRoute(route="A", stations=3)).state
    assert set(marks(after, 0)) == {"0.0", "1.0", "1.1", "2.1", "3.1"}


def test_number_card_stops_at_a_previously_filled_station() -> None:
    """Rules, Number: crossing stops when "You encounter a previously crossed off station"."""
    state = table("metro-city", card="N5-1", crossed={0: ["1.1"]})
    assert [c for c in legal(state, 0) if getattr(c, "route", "") == "A"] == [
        MarkRoute(route="A", stations=n) for n in range(3)
    ]
    given(GAME, state).when(0, MarkRoute(route="A", stations=3)).then_refused("too-many-stations")
    after = given(GAME, state).when(0, MarkRoute(route="A", stations=2)).state
    assert set(marks(after, 0)) == {"0.0", "1.0", "1.1"}


def test_number_card_stops_at_the_end_point() -> None:
    """Rules, Number: crossing stops when "You reach the route's End Point"."""
    state = table("tube-town", card="N5-1", crossed={0: ["0.7", "0.8", "1.9"]})
    given(GAME, state).when(0, MarkRoute(route="N", stations=4)).then_refused("too-many-stations")
    after = given(GAME, state).when(0, MarkRoute(route="N", stations=3)).state
    assert set(marks(after, 0)) == set(stations_of("tube-town", "N"))


def test_josh_skip_2_on_the_m_line() -> None:
    """Worked example 2 (Rules, Skip): with 0.7, 1.6, 2.5, 3.5 filled, 4.5 empty and 5.5, 6.5 filled by other
    routes, a Skip 2 on M crosses 4.5, skips the two Xs and crosses 7.5."""
    filled = ["0.7", "1.6", "2.5", "3.5", "5.5", "6.5"]
    state = table("tube-town", card="S2-1", crossed={0: filled})
    events = given(GAME, state).when(0, MarkRoute(route="M", stations=2)).events
    resolved = events[1]
    assert isinstance(resolved, TurnResolved)
    assert resolved.markings == (Marking(seat=0, action="route", route="M", window="2", crossed=("4.5", "7.5")),)


def test_josh_with_a_number_card_crosses_only_the_station_on_the_left() -> None:
    """Worked example 2, counterfactual: had a Number card been revealed, only 4.5 could be crossed."""
    filled = ["0.7", "1.6", "2.5", "3.5", "5.5", "6.5"]
    state = table("tube-town", card="N3-1", crossed={0: filled})
    given(GAME, state).when(0, MarkRoute(route="M", stations=2)).then_refused("too-many-stations")
    after = given(GAME, state).when(0, MarkRoute(route="M", stations=1)).state
    assert set(marks(after, 0)) == {*filled, "4.5"}


def test_re_shuffle_card_is_a_number_6() -> None:
    """Rules, Number, note; worked example 5: the Re-Shuffle (6) card is resolved as a Number card."""
    state = table("metro-city", card="RS6")
    given(GAME, state).when(0, MarkRoute(route="B", stations=7)).then_refused("too-many-stations")
    after = given(GAME, state).when(0, MarkRoute(route="B", stations=6)).state
    assert window_marks(after, 0, "B") == ("6",)
    assert set(marks(after, 0)) == set(stations_of("metro-city", "B")[:6])


def test_fewer_stations_than_allowed() -> None:
    """Rules, Clarifications: "You may always choose to cross off fewer stations than the number shown"."""
    state = table("metro-city", card="N4-1")
    after = given(GAME, state).when(0, MarkRoute(route="B", stations=1)).state
    assert window_marks(after, 0, "B") == ("4",)
    assert set(marks(after, 0)) == {"0.0"}


def test_zero_stations_still_fills_a_window() -> None:
    """Rules, Clarifications: "you must always fill in a Train Car Window, even if you do not ... cross off any"."""
    state = table("metro-city", card="N4-1")
    after = given(GAME, state).when(0, MarkRoute(route="C", stations=0)).state
    assert window_marks(after, 0, "C") == ("4",)
    assert marks(after, 0) == {}


def test_full_route_with_an_empty_window() -> None:
    """Worked example 8 (Rules, Clarifications): a route whose stations are all filled but which has an empty
    window may still take the card; the window is filled and nothing is marked."""
    state = table("tube-town", card="N4-1", crossed={0: stations_of("tube-town", "N")})
    assert [c for c in legal(state, 0) if getattr(c, "route", "") == "N"] == [MarkRoute(route="N", stations=0)]
    given(GAME, state).when(0, MarkRoute(route="N", stations=1)).then_refused("too-many-stations")
    move = given(GAME, state).when(0, MarkRoute(route="N", stations=0))
    after, events = move.state, move.events
    assert window_marks(after, 0, "N") == ("4",)
    resolved = events[1]
    assert isinstance(resolved, TurnResolved)
    assert resolved.markings == (Marking(seat=0, action="route", route="N", window="4"),)


def test_a_route_without_an_empty_window_cannot_take_a_card() -> None:
    """Rules, Game Play: pick "a route on their own board with an empty Train Car Window" (reading 5)."""
    state = table("metro-city", card="N3-1", windows={0: {"A": ("3", "4")}})
    assert not [c for c in legal(state, 0) if getattr(c, "route", "") == "A"]
    given(GAME, state).when(0, MarkRoute(route="A", stations=0)).then_refused("no-empty-window")
    transfer = table("metro-city", card="TX-1", windows={0: {"A": ("3", "4")}})
    given(GAME, transfer).when(0, MarkTransfer(route="A")).then_refused("no-empty-window")


def test_transfer_worth_6() -> None:
    """Worked example 3 (Rules, Transfer): on an empty Metro City sheet a Transfer on F writes an X in an F window
    and 6 at station 3.7, where F and G start and A ends (3 lines)."""
    state = table("metro-city", card="TX-1")
    move = given(GAME, state).when(0, MarkTransfer(route="F"))
    after, events = move.state, move.events
    assert events[1] == TurnResolved(turn=1, card="TX-1", markings=(
        Marking(seat=0, action="transfer", route="F", window="X", transfer_station="3.7", transfer_value=6),
    ))
    assert window_marks(after, 0, "F") == ("X",)
    assert marks(after, 0) == {"3.7": "6"}
    assert seat_score(CITY, after.sheets[0], 0).transfers == 6


def test_transfer_counts_every_line_stopping_there() -> None:
    """Reading 8: station 6.6 is on B, D, F, G and I, so a transfer there is worth 10; 0.0 (A, B) is worth 4."""
    state = table("metro-city", card="TX-2", crossed={0: ["3.7", "4.7", "5.6"]})
    after = given(GAME, state).when(0, MarkTransfer(route="F")).state
    assert marks(after, 0)["6.6"] == "10"
    fresh = given(GAME, table("metro-city", card="TX-2")).when(0, MarkTransfer(route="A")).state
    assert marks(fresh, 0) == {"0.0": "4"}


def test_transfer_may_be_declined() -> None:
    """Reading 13: a Transfer may write only the X in a window and no number."""
    state = table("metro-city", card="TX-1")
    after = given(GAME, state).when(0, MarkTransfer(route="F", write_number=False)).state
    assert window_marks(after, 0, "F") == ("X",)
    assert marks(after, 0) == {}


def test_transfer_needs_an_empty_station_for_its_number() -> None:
    """Rules, Transfer + Clarifications: on a full route only the X can be written."""
    state = table("tube-town", card="TX-1", crossed={0: stations_of("tube-town", "N")})
    assert [c for c in legal(state, 0) if getattr(c, "route", "") == "N"] == [
        MarkTransfer(route="N", write_number=False)
    ]
    given(GAME, state).when(0, MarkTransfer(route="N")).then_refused("no-empty-station")


def test_a_transfer_number_blocks_number_cards_and_is_skipped_by_skip_cards() -> None:
    """Reading 8: the transfer station counts as filled (a Number card stops there, a Skip card jumps it)."""
    number = table("metro-city", card="N5-1", transfers={0: {"1.1": 4}})
    given(GAME, number).when(0, MarkRoute(route="A", stations=3)).then_refused("too-many-stations")
    skip = table("metro-city", card="S3-1", transfers={0: {"1.1": 4}})
    after = given(GAME, skip).when(0, MarkRoute(route="A", stations=3)).state
    assert marks(after, 0) == {"0.0": "x", "1.0": "x", "1.1": "4", "2.1": "x"}


def test_free_space_crosses_any_one_empty_station_and_fills_no_window() -> None:
    """Worked example 4 (Rules, Free Space): no window is filled; any one empty station anywhere is crossed."""
    state = table("metro-city", card="FS-1", crossed={0: ["0.0"]})
    move = given(GAME, state).when(0, MarkFreeSpace(station="12.4"))
    after, events = move.state, move.events
    assert events[1] == TurnResolved(turn=1, card="FS-1",
                                     markings=(Marking(seat=0, action="free", crossed=("12.4",)),))
    assert marks(after, 0) == {"0.0": "x", "12.4": "x"}
    assert all(not w for w in after.sheets[0].windows)
    given(GAME, state).when(0, MarkFreeSpace(station="0.0")).then_refused("station-taken")
    given(GAME, state).when(0, MarkFreeSpace(station="99.9")).then_refused("no-such-station")


def test_free_space_may_be_declined() -> None:
    """Rules, Clarifications ("always ... fewer"): Free Space may cross nothing, so a seat always has a move."""
    state = table("metro-city", card="FS-1")
    move = given(GAME, state).when(0, Pass())
    after, events = move.state, move.events
    assert events[1] == TurnResolved(turn=1, card="FS-1", markings=(Marking(seat=0, action="pass"),))
    assert marks(after, 0) == {} and all(not w for w in after.sheets[0].windows)
    full = table("tube-town", card="FS-1", crossed={0: TOWN.stations})
    assert legal(full, 0) == [Pass()]


def test_each_card_takes_only_its_own_marking() -> None:
    """Rules, Card Types: Number/Skip fill a window with a number, Transfer with an X, Free Space none."""
    number, transfer, free = (table("metro-city", card=c) for c in ("N3-1", "TX-1", "FS-1"))
    given(GAME, number).when(0, MarkTransfer(route="A")).then_refused("wrong-card")
    given(GAME, number).when(0, MarkFreeSpace(station="0.0")).then_refused("wrong-card")
    given(GAME, number).when(0, Pass()).then_refused("wrong-card")
    given(GAME, transfer).when(0, MarkRoute(route="A", stations=0)).then_refused("wrong-card")
    given(GAME, transfer).when(0, Pass()).then_refused("wrong-card")
    given(GAME, free).when(0, MarkRoute(route="A", stations=0)).then_refused("wrong-card")
    given(GAME, free).when(0, MarkTransfer(route="A")).then_refused("wrong-card")


def test_unknown_routes_and_negative_counts_are_refused() -> None:
    """Only the chosen map's routes exist; a station count is never negative."""
    state = table("metro-city", card="N3-1")
    given(GAME, state).when(0, MarkRoute(route="M", stations=1)).then_refused("no-such-route")
    given(GAME, table("metro-city", card="TX-1")).when(0, MarkTransfer(route="Z")).then_refused("no-such-route")
    given(GAME, state).when(0, MarkRoute(route="A", stations=-1)).then_refused("bad-station-count")


def test_legal_lists_every_distinct_choice() -> None:
    """Every route with an empty window x every count from 0 to what the card allows; each Transfer with or
    without its number; each empty station for Free Space, plus the pass."""
    number = table("metro-city", card="N3-1")
    assert legal(number, 0) == [MarkRoute(route=r.id, stations=n) for r in CITY.routes for n in range(4)]
    transfer = table("tube-town", card="TX-1")
    assert legal(transfer, 0) == [
        MarkTransfer(route=r.id, write_number=w) for r in TOWN.routes for w in (True, False)
    ]
    free = table("metro-city", card="FS-1", crossed={0: ["6.6"]})
    assert legal(free, 0) == [*(MarkFreeSpace(station=s) for s in CITY.stations if s != "6.6"), Pass()]
