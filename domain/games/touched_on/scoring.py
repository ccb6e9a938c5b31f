"""Scores, tie-breaks and the end of the game (rules, Win Exp; readings 11 and 13)."""

from __future__ import annotations

from domain.engine import Outcome, ranked_results
from domain.games.touched_on.components import exp_value
from domain.games.touched_on.rules_table import is_over
from domain.games.touched_on.state import State


def scores(state: State) -> list[float]:
    """Each seat's collected Exp value."""
    return [float(sum(exp_value(card) for card in cards)) for cards in state.collected]


def tie_key(cards: tuple[str, ...], length: int) -> tuple[int, ...]:
    """Reading 13: the total, then the total again after each tied player removes their lowest Exp card, and so
    on; a player who runs out counts 0, so the other wins; equal all the way is a shared place."""
    values = sorted((exp_value(card) for card in cards), reverse=True)
    return tuple(sum(values[: len(values) - k]) if k < len(values) else 0 for k in range(length + 1))


def outcome(state: State) -> Outcome | None:
    """The ranking once no Exp is left (or the engine's journey limit was reached)."""
    if not is_over(state):
        return None
    length = max(len(cards) for cards in state.collected)
    keys = [tie_key(cards, length) for cards in state.collected]
    reason = "journey-limit" if state.final else "no-exp-left"
    return Outcome(reason=reason, results=ranked_results(keys, scores(state)))
