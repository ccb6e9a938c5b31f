"""Refusals: who may act, and a check that every refusal code of the package has a rule test."""

from __future__ import annotations

import re
from pathlib import Path

from domain.games.touched_on import GAME
from domain.games.touched_on.commands import Draw, EndTurn, PlayEvaders
from tests.games.given import given
from tests.games.touched_on.tables import table

PACKAGE = Path(__file__).resolve().parents[3] / "domain" / "games" / "touched_on"
HERE = Path(__file__).resolve().parent


def test_only_the_turns_player_may_act() -> None:
    """Rules 3: players take turns; another seat's commands are refused and it has no legal command."""
    state = table([["EV-L1-1"], ["EV-L2-1"], ["EV-L1-2"]])
    assert GAME.to_move(state) == [0]
    for seat in (1, 2):
        assert GAME.legal(state, seat) == []
        given(GAME, state).when(seat, PlayEvaders(line="L1", count=1)).then_refused("not-your-turn")
        given(GAME, state).when(seat, EndTurn()).then_refused("not-your-turn")
    given(GAME, state).when(9, Draw()).then_refused("not-your-turn")


def test_every_refusal_code_has_a_rule_test() -> None:
    """Each stable refusal code raised by `decide` is asserted by at least one test in this folder."""
    codes = {code for path in PACKAGE.glob("*.py") for code in re.findall(r'Refusal\("([a-z-]+)"', path.read_text())}
    tested = "".join(path.read_text() for path in HERE.glob("test_*.py") if path.name != Path(__file__).name)
    missing = sorted(code for code in codes if f'"{code}"' not in tested)
    assert len(codes) > 20 and not missing, missing
