"""Refusals: who may act, malformed commands, and a check that every refusal code has a rule test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from domain.engine import Command
from domain.games.expect_delays import GAME
from domain.games.expect_delays.commands import Board, Disembark, EndActions, RunTheLine, UseServiceAdvisory
from tests.games.expect_delays.tables import DOWNTOWN, table
from tests.games.given import given

PACKAGE = Path(__file__).resolve().parents[3] / "domain" / "games" / "expect_delays"


def test_only_the_acting_seat_may_act() -> None:
    """Gameplay: players take turns; the other seat's commands are refused, and it has no legal command."""
    state = table(hands=(("T01",), ("T07",)))
    given(GAME, state).when(DOWNTOWN, EndActions()).then_refused("not-your-turn")
    assert GAME.legal(state, DOWNTOWN) == []


def test_unknown_lines_are_refused() -> None:
    """The board has four lines (DEFAULT ids U1, U2, D1, D2); any other name is refused."""
    state = table(hands=(("T01",), ()), lines={"U1": "..C...."}, active_advisory="SA01")
    for command in (
        Board(line="Q7"),
        RunTheLine(line="Q7", cards=("T01",)),
        Disembark(line="Q7", stop=2),
        Disembark(line="U1", stop=2, tourists=("Q7",)),
        UseServiceAdvisory(line="Q7"),
    ):
        given(GAME, state).when(command).then_refused("no-such-line")


def test_commands_of_another_game_are_refused() -> None:
    """`decide` only knows Expect Delays commands (the match layer checks this first, too)."""

    class Foreign(Command, frozen=True, tag="elsewhere.move"):
        pass

    given(GAME, table()).when(Foreign()).then_refused("wrong-game")


def refusal_codes() -> set[str]:
    """Every code the package can refuse with: `Refusal("code", ...)` and `checks.rider_at(..., "code")`."""
    codes: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            argument = {"Refusal": node.args[0], "rider_at": node.args[-1]}.get(name)
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                codes.add(argument.value)
    return codes


def test_every_refusal_code_has_a_rule_test() -> None:
    """Each stable refusal code is asserted by at least one rule test (as `then_refused("code")`)."""
    codes = refusal_codes()
    assert {"not-your-turn", "no-commuter-there", "no-tourist-there", "stop-occupied"} <= codes
    tests = "".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    asserted = set(re.findall(r'then_refused\(\s*"([a-z-]+)"', tests))
    assert not codes - asserted, f"refusal codes without a test: {sorted(codes - asserted)}"
