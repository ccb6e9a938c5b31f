"""The legal-move list: complete enough to play from alone, and exactly what `decide` accepts."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations

import msgspec

from domain.engine import Command, Refusal
from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import (
    Board,
    Disembark,
    EndActions,
    Repair,
    RunTheLine,
    TakeOutOfService,
    UseServiceAdvisory,
)
from domain.games.expect_delays.components import ADVISORIES, LINE_ORDER, TRAIN_CARDS
from domain.games.expect_delays.state import State
from domain.match import MatchState
from domain.playout import play as play_match
from domain.rng import Rng
from tests.games.expect_delays.tables import DOWNTOWN, UPTOWN, table

HAND = ("T01", "T13", "T04")


def listed(state: State, kind: type[Command]) -> list[Command]:
    return [command for command in GAME.legal(state, state.active_seat) if isinstance(command, kind)]


def test_only_the_acting_seat_has_moves_and_end_actions_is_always_listed() -> None:
    """Gameplay: the seat in its Action Phase acts; it may always end the phase (rulebook: you do not need
    to use both actions)."""
    state = table(hands=(HAND, ("T07", "T08", "T09")))
    assert GAME.legal(state, DOWNTOWN) == [] and GAME.to_move(state) == [UPTOWN]
    assert GAME.legal(state, UPTOWN)[-1] == EndActions()


def test_run_the_line_lists_each_set_of_cards_for_each_line() -> None:
    """Reading 8: each own line with each non-empty set of hand cards showing it."""
    state = table(hands=(HAND, ()))
    assert listed(state, RunTheLine) == [
        RunTheLine(line="U1", cards=("T01",)),
        RunTheLine(line="U1", cards=("T13",)),
        RunTheLine(line="U1", cards=("T01", "T13")),
        RunTheLine(line="U2", cards=("T04",)),
    ]
    assert listed(state, TakeOutOfService) == [TakeOutOfService(card=card) for card in sorted(HAND)]


def test_disembark_lists_tourist_placements_and_transfer_choices() -> None:
    """Readings 10, 19: no Tourist or one on each open opponent 0 stop; with Maintenance Crew (SA15) on a ◇
    stop, no repair or each Out of Service card."""
    state = table(lines={"U1": "...C...", "D2": "t......"}, active_advisory="SA15", out_of_service=("T05", "T02"))
    assert listed(state, Disembark) == [
        Disembark(line="U1", stop=3, tourists=tourists, repair=repair)
        for tourists in ((), ("D1",))
        for repair in (None, "T02", "T05")
    ]


def test_disembark_with_quick_transfer_lists_each_open_own_line() -> None:
    """SA16 Quick Transfer: no boarding, or boarding each own line with an open 0 stop (also the stop just
    left by the Disembarked Commuter)."""
    state = table(lines={"U1": "C......", "U2": "t......", "D1": "C......", "D2": "C......"}, active_advisory="SA16")
    assert listed(state, Disembark) == [Disembark(line="U1", stop=0), Disembark(line="U1", stop=0, board="U1")]


def test_tourist_season_lists_up_to_two_tourists() -> None:
    """SA12 Tourist Season: none, one on each open opponent line, or both."""
    state = table(lines={"U1": ".C....."}, active_advisory="SA12")
    assert [c.tourists for c in listed(state, Disembark)] == [(), ("D1",), ("D2",), ("D1", "D2")]  # type: ignore[attr-defined]


def test_a_winning_disembark_is_listed_without_choices() -> None:
    """Reading 13: the 10th point ends the game at once, so no Tourist or Transfer choice is offered."""
    state = table(points=(9, 0), lines={"U1": "...C..."}, active_advisory="SA15", out_of_service=("T05",))
    assert listed(state, Disembark) == [Disembark(line="U1", stop=3)]


def test_new_action_advisories_list_each_option() -> None:
    """Reading 15: each option of the active New Action advisory is listed."""
    base_pile = ("T05", "T09", "T12")
    base = {"hands": (HAND, ()), "out_of_service": base_pile, "lines": {"U2": ".t..t.."}}
    options = {
        "SA01": [UseServiceAdvisory(line="U1"), UseServiceAdvisory(line="U2")],
        "SA02": [UseServiceAdvisory()],
        "SA03": [UseServiceAdvisory(cards=group) for size in (1, 2) for group in combinations(base_pile, size)],
        "SA04": [UseServiceAdvisory(cards=(card,)) for card in sorted(HAND)],
        "SA05": [UseServiceAdvisory(line="U1"), UseServiceAdvisory(line="U2")],
        "SA06": [UseServiceAdvisory(line="U2", stop=1), UseServiceAdvisory(line="U2", stop=4)],
    }
    for advisory, expected in options.items():
        assert listed(table(active_advisory=advisory, **base), UseServiceAdvisory) == expected, advisory  # type: ignore[arg-type]
    for advisory in ("SA07", "SA13"):
        assert listed(table(active_advisory=advisory, **base), UseServiceAdvisory) == []  # type: ignore[arg-type]


def candidates(state: State) -> Iterator[Command]:
    """A broad superset of commands around `state`: legal ones, and near misses of every kind."""
    seat = state.active_seat
    lines = (*LINE_ORDER, "X9")
    hand, pile = state.hands[seat], state.out_of_service
    cards = sorted({*hand, *pile, "T99", next(c for c in TRAIN_CARDS if c not in hand and c not in pile)})
    yield EndActions()
    yield from (Board(line=line) for line in lines)
    for card in cards:
        yield Repair(card=card)
        yield TakeOutOfService(card=card)
    card_groups = [group for size in range(0, 4) for chosen in combinations(cards, size) for group in
                   {chosen, chosen[::-1]}]
    for line in lines:
        yield from (RunTheLine(line=line, cards=group) for group in card_groups)
    tourist_groups = [(), *((line,) for line in lines), *permutations(("D1", "D2", "U1"), 2), ("D1", "D1")]
    repairs = [None, *pile[:1], cards[-1]]
    stops = [(line, stop) for line in LINE_ORDER for stop, rider in enumerate(state.track(line)) if rider]
    for line, stop in [*stops, ("U1", -1), ("D1", 7), ("X9", 0)]:
        for tourists in tourist_groups:
            for repair in repairs:
                for board in (None, *lines):
                    yield Disembark(line=line, stop=stop, tourists=tourists, repair=repair, board=board)
    yield from (UseServiceAdvisory(cards=group) for group in card_groups)
    for line in (None, *lines):
        for stop in (None, 0, 1, 4):
            yield UseServiceAdvisory(line=line, stop=stop)
            yield UseServiceAdvisory(line=line, stop=stop, cards=(cards[0],))


def accepted(state: State, command: Command) -> bool:
    try:
        GAME.decide(state, state.active_seat, command, Rng(b"agreement"))
    except Refusal:
        return False
    return True


def sample_states(count: int) -> Iterator[State]:
    """Tables met in random play, each with a random Service Advisory forced into effect."""
    rng = Rng(b"sample-states")
    advisories = [None, *ADVISORIES]
    for match_number in range(count):
        seen: list[State] = []

        def keep(state: MatchState, *_: object, seen: list[State] = seen) -> None:
            seen.append(state.game_state)

        play_match(GAME, 2, {}, f"agreement-{match_number}", on_step=keep)
        for state in seen[:: max(1, len(seen) // 8)]:
            yield msgspec.structs.replace(state, active_advisory=rng.choice(advisories))


def test_decide_accepts_exactly_the_listed_commands() -> None:
    """`legal` and `decide` never disagree: over tables from random play with every kind of advisory in
    effect, each near-miss command is accepted exactly when it is listed, and every listed one is accepted."""
    checked = 0
    for state in sample_states(5):
        legal = GAME.legal(state, state.active_seat)
        assert len(set(legal)) == len(legal), "a command is listed twice"
        assert all(accepted(state, command) for command in legal)
        listed_set = set(legal)
        for command in candidates(state):
            assert accepted(state, command) == (command in listed_set), command
            checked += 1
    assert checked > 50_000
