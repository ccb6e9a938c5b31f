"""Every sentence of seeded matches of every game reads as English: no empty slot where a value was missing, no
identifier from the code, no "1 cards". Found by a newcomer: Metro X's "chose a free station on route ." and
"crossed 0.0 on route ;", Terminus's "(place_development)" and "(buy_power)", "1 cards in hand", "(2. to pass)"; then
Terminus's "Ada (purchase rails) paid…" (a command's name in brackets) and Touched On's "EV-L2-1 (Evader, Line 2
(tram))"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain import match
from domain.catalog import GAMES
from domain.engine import Game, setups
from domain.narration import describe
from domain.playout import play

NAMES = ("Ada", "Grace", "Hedy", "Joan", "Katherine", "Radia", "Barbara", "Frances")
CASES = [pytest.param(game, seats, options, seed, id=f"{game.slug}-{seats}p-{index}-{seed}")
         for game in GAMES for index, (seats, options) in enumerate(setups(game)) for seed in ("s1", "s2")]

FLAWS = {
    "an empty slot": re.compile(r" [.,;:)]|\(\s|  |\b(?:on|at|of|to|route|line|station) [.,;:)]|\(\)|\b(?:on|at) $"),
    "a code identifier": re.compile(r"\b[a-z]+_[a-z_]+\b|\([a-z]+(?:[-_][a-z]+)+\)"),
    "a wrong plural": re.compile(r"(?<![\d.])1 (?!point\b)[a-z]+s\b(?! (?:hand|turn|ago))"),
    "an ordinal with a dot": re.compile(r"\(\d+\. "),
    "a command name in brackets": re.compile(r"^[A-Z][a-z]+ \([a-z]+(?: [a-z]+)*\) [a-z]"),
    "nested brackets": re.compile(r"\([^()]*\("),
}
SINGULAR_ENDING_IN_S = {"bus", "pass", "bonus", "class", "status", "plus"}


def flaws(text: str) -> list[str]:
    """What is wrong with a sentence, by name."""
    found = [name for name, pattern in FLAWS.items() if pattern.search(text)]
    if "a wrong plural" in found and all(m.group(0).split()[1] in SINGULAR_ENDING_IN_S
                                        for m in FLAWS["a wrong plural"].finditer(text)):
        found.remove("a wrong plural")
    return found


def test_the_flaws_are_found_in_the_sentences_a_newcomer_met() -> None:
    for bad in ("Ada chose a free station on route .", "Ada crossed 0.0 on route ; Grace passed.",
                "Ada (place_development) gave 1 permit.", "Grace (buy_power) bought.", "Ada has 1 cards in hand.",
                "3 riders on lines, 1 riders on lines.", "Grace passed (2. to pass).",
                "Ada (purchase rails) paid 10 coins.", "Ada played 1 card: EV-L2-1 (Evader, Line 2 (tram))."):
        assert flaws(bad), bad
    for good in ("Ada chose 2 stations on route R3.", "Grace passed (the 2nd to pass).", "Ada has 1 card in hand.",
                 "Ada scored 1 point; Grace 3 points.", "Ada took the bus.", "Ada paid 10 coins to purchase Rails.",
                 "Ada played 1 card: EV-L2-1 (Evader, Line 2 tram) on Line 2 (tram)."):
        assert flaws(good) == [], (good, flaws(good))


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_every_sentence_of_a_seeded_match_reads_as_english(game: Game[Any], seats: int, options: dict[str, Any],
                                                           seed: str) -> None:
    played = play(game, seats, options, seed=seed)
    names = NAMES[:seats]
    state = None
    bad = set()
    for event in played.events:
        state = match.evolve(game, state, event)
        for viewer in [*range(seats), None]:
            text = describe(game, event, viewer, names)
            for flaw in flaws(text):
                bad.add((flaw, type(event).__name__, text))
    assert not bad, "\n".join(f"{flaw} in {kind}: {text}" for flaw, kind, text in sorted(bad))
