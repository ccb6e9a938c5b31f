"""Long matches: a purposeful random policy (builds, rarely passes) plays every set-up to the end while component
counts are conserved and every listed command is accepted; and a second city map works as data alone."""

from __future__ import annotations

import tomllib
from typing import Any

import msgspec
import pytest

from domain import match
from domain.engine import Command, Event, Refusal
from domain.games.terminus import GAME, state_markets
from domain.games.terminus import commands as C
from domain.games.terminus.components import BOARDS, DATA, Board, BoardIndex, board
from domain.games.terminus.state import State
from domain.match import MatchState
from domain.playout import play
from domain.rng import Rng
from tests.conformance.test_conformance import StepChecker

BUILDING = (C.StartBuild, C.BuildLink, C.BuildHub, C.IncreaseCapacity, C.PlaceDevelopment, C.LobbyProject,
            C.TakeDemand, C.BuyResources)


def purposeful(rng: Rng):
    """Mostly avoids passing and finishing early; prefers building, developing and lobbying."""

    def choose(state: MatchState, seats: list[int]) -> tuple[int, Command]:
        seat = rng.choice([s for s in seats if match.legal(GAME, state, s)])
        legal = match.legal(GAME, state, seat)
        keep = [c for c in legal if not isinstance(c, (C.Pass, C.EndTurn, C.FinishBuild))]
        if keep and rng.below(100) < 96:
            eager = [c for c in keep if isinstance(c, BUILDING)]
            if eager and rng.below(100) < 75:
                builds = [c for c in eager if isinstance(c, (C.StartBuild, C.BuildLink, C.BuildHub))]
                return seat, rng.choice(builds or eager)
            return seat, rng.choice(keep)
        return seat, rng.choice(legal)

    return choose


def conserved(state: State) -> None:
    """Cubes, Rails, Lobbyists and Station discs are never created or lost."""
    totals = [sum(m) + sum(p.res[r] for p in state.players) for r, m in enumerate(state.markets)]
    caps = [sum(c) for c in state_markets.initial(state.seats)]
    assert totals == caps
    for seat, p in enumerate(state.players):
        assert p.rails_reserve + p.rails_storage + p.rails_placed == DATA.player_board.rails
        on_projects = sum(n for rows in state.project_rows for owner, n in rows if owner == seat)
        on_tiles = sum(1 for owners in state.tile_lobbyists if seat in owners)
        assert p.lobbyists + len(p.agenda_lobbyists) + on_projects + on_tiles == DATA.player_board.lobbyists
        discs = sum(level for owner, level in zip(state.stop_owner, state.stop_level, strict=True)
                    if owner == seat and level < 3)
        assert p.discs_used == discs <= p.capacity


class Checker:
    """The conformance suite's per-move checks (listed moves accepted, others refused without effect, views and
    redacted events leak nothing) on deep matches, plus conservation and: every listed command is accepted."""

    def __init__(self, seats: int, seed: str) -> None:
        self.suite = StepChecker(GAME, seats, seed)
        self.seed = seed

    def __call__(self, state: MatchState, seat: int, command: Command, events: list[Event]) -> None:
        conserved(state.game_state)
        self.suite(state, seat, command, events)
        for other in match.legal(GAME, state, seat):
            match.decide(GAME, state, seat, other, Rng.derive(self.seed, state.version))
        for wrong in (C.FinishBuild(), C.Pass(), C.EndTurn(), C.BuyResources(resource="power", count=1)):
            if wrong not in match.legal(GAME, state, seat):
                with pytest.raises(Refusal):
                    match.decide(GAME, state, seat, wrong, Rng.derive(self.seed, state.version))


@pytest.mark.parametrize(("seats", "options"), [(2, {"automa": True}), (3, {}), (5, {})])
def test_purposeful_matches_end_and_conserve_components(seats: int, options: dict[str, Any]) -> None:
    """Deep matches (many Builds, Hubs, Connections, Developments) end after Year 3 with conserved pieces."""
    discs = 0
    for n in range(2):
        seed = f"deep-{seats}-{n}"
        chooser = purposeful(Rng.derive(seed, -1))
        played = play(GAME, seats, options, seed, chooser=chooser, on_step=Checker(seats, seed))
        assert played.state is not None and played.state.ended is not None
        final = played.state.game_state
        assert final.phase == "over" and final.year == 3
        assert match.fold(GAME, played.events) == played.state
        discs += sum(p.discs_used for p in final.players)
    assert discs > 0


def mirrored(name: str) -> Board:
    """The default city mirrored east-west and renamed: another board, built from data only."""
    source = board("default")
    raw = msgspec.to_builtins(source.board)
    width = max(p["x"] for p in raw["plots"])
    rename = {p["id"]: f"Q{width - p['x']}{p['y']}" for p in raw["plots"]}
    for p in raw["plots"]:
        p["id"], p["x"] = rename[p["id"]], width - p["x"]
    for b in raw["blocks"]:
        b["corners"] = [rename[c] for c in b["corners"]]
    for r in raw["rails"]:
        r["a"], r["b"] = rename[r["a"]], rename[r["b"]]
    for card in raw["automa_cards"]:
        card["prime_hub_plot"] = rename[card["prime_hub_plot"]]
        card["arrow"] = {"E": "W", "W": "E"}.get(card["arrow"], card["arrow"])
    raw["name"] = name
    return msgspec.convert(tomllib.loads(_toml(raw)), Board)


def _toml(raw: dict[str, Any]) -> str:
    """A tiny TOML writer for the board dict (strings, ints, bools, lists, tables): the board is data."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, str):
            return '"' + v.replace('"', '\\"') + '"'
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items() if x is not None) + " }"  # no null
        return "[" + ", ".join(value(x) for x in v) + "]"

    lines = [f"{k} = {value(v)}" for k, v in raw.items() if not isinstance(v, list) or not v or
             not isinstance(v[0], dict)]
    for key, items in raw.items():
        if isinstance(items, list) and items and isinstance(items[0], dict):
            for item in items:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def test_a_second_board_is_data_only() -> None:
    """The issue: a second board must be addable as data alone — a mirrored city plays whole matches."""
    BOARDS["mirror"] = BoardIndex(mirrored("mirror"))
    try:
        for seats, options in ((2, {"automa": True, "board": "mirror"}), (4, {"board": "mirror"})):
            seed = f"mirror-{seats}"
            played = play(GAME, seats, options, seed, chooser=purposeful(Rng.derive(seed, -1)))
            assert played.state is not None and played.state.ended is not None
            assert played.state.game_state.board == "mirror"
    finally:
        del BOARDS["mirror"]
