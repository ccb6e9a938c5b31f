"""The opening of a match and the deal of each journey (rules, Setup and Deal)."""

from __future__ import annotations

from domain.engine import Event, Refusal
from domain.games.touched_on.components import DATA, evader_inspector_pile, exp_cards, lines_for, power_pile
from domain.games.touched_on.editions import CURRENT, OptionsV1, Rules
from domain.games.touched_on.events import GameSetUp, JourneyDealt, TurnStarted
from domain.games.touched_on.options import Options
from domain.rng import Rng


def deal(seats: int, dealer: int, journey: int, rng: Rng, rules: Rules, free_tram_zone: str = "") -> JourneyDealt:
    """Rules, Deal: 2 Power cards then 9 Evader/Inspector cards each, starting left of the dealer;
    the remainders of both piles are mixed into the draw pile (reading 1)."""
    powers = rng.shuffled(power_pile(seats))
    removed = free_tram_zone if rules.zone_loses_authorised else ""
    others = rng.shuffled(evader_inspector_pile(seats, removed))
    p, e = DATA.power_each, DATA.evader_inspector_each
    hands: list[tuple[str, ...]] = [() for _ in range(seats)]
    for k in range(seats):
        seat = (dealer + 1 + k) % seats
        hands[seat] = powers[k * p : (k + 1) * p] + others[k * e : (k + 1) * e]
    draw_pile = rng.shuffled(powers[seats * p :] + others[seats * e :])
    return JourneyDealt(
        journey=journey, dealer=dealer, hands=tuple(hands), hand_sizes=tuple(len(h) for h in hands),
        draw_pile=draw_pile, draw_size=len(draw_pile),
    )


def start(options: Options | OptionsV1, seats: int, rng: Rng, rules: Rules = CURRENT) -> list[Event]:
    """The set-up: a random first dealer (reading 16), the Exp pile shuffled, the first journey dealt,
    and the first turn to the player left of the dealer (rules, Taking A Turn)."""
    zone = rules.fixed_free_tram_zone or (options.free_tram_zone if isinstance(options, Options) else "")
    if zone and zone not in lines_for(seats):
        in_play = ", ".join(lines_for(seats))
        raise Refusal("bad-options", f"free_tram_zone {zone!r} is not in play: {seats} players use {in_play}")
    dealer = rng.below(seats)
    exp = rng.shuffled(exp_cards(seats))
    set_up = GameSetUp(
        seats=seats, lines=lines_for(seats), dealer=dealer, exp_pile=exp, exp_count=len(exp),
        max_turns_per_journey=options.max_turns_per_journey, max_journeys=options.max_journeys,
        free_tram_zone=zone,
    )
    return [set_up, deal(seats, dealer, 1, rng, rules, zone), TurnStarted(seat=(dealer + 1) % seats)]
