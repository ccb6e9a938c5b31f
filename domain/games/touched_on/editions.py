"""The released editions of the Touched On rules, oldest first; the last is current. Never edit one: a rule change
adds an edition (domain/editions.py says how, and tests/conformance/test_editions.py keeps each one fixed)."""

from __future__ import annotations

import msgspec

from domain.editions import Edition
from domain.upcasters import Payload


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """The switches the Touched On rules read (from `State.rules`, and in `start`).

    `fixed_free_tram_zone`: the line that is always the Free Tram Zone ("": none; the option chooses one).
    `zone_loses_authorised`: the Free Tram Zone's Authorised Inspector leaves the deck (it could never be played)."""

    fixed_free_tram_zone: str
    zone_loses_authorised: bool


class OptionsV1(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Edition 1's options: the engine limits only (the Free Tram Zone was always L1)."""

    max_turns_per_journey: int = msgspec.field(default=200)
    max_journeys: int = msgspec.field(default=40)


def _zone_l1(payload: Payload) -> Payload:
    """Edition 1 (before 98513a3): `game-set-up` had no `free_tram_zone`; L1 always was the Free Tram Zone (DEFAULT
    data of that edition), so the field's default "" (none) would be wrong."""
    return payload if "free_tram_zone" in payload else {**payload, "free_tram_zone": "L1"}


EDITIONS: tuple[Edition, ...] = (
    Edition(
        rules_version="1",
        released="2026-11-23, 7942bdf (Touched On refereed)",
        changes=("The first edition: the rulebook with readings 1-22 (../shared/rules/touched-on.md); L1 is the Free "
                 "Tram Zone (DEFAULT data)",),
        rules=Rules(fixed_free_tram_zone="L1", zone_loses_authorised=False),
        options_type=OptionsV1,
        default_data=(
            "Line names and colours (L1 red tram .. L4 blue bus)",
            "Exp card values 1,1,1,1,2,2,2,2,3,3,3,3",
            "Power card mix per player count",
            "Power effects of Appeal, Feet On Seat, Peak Hour and Tram Tracker",
            "Free Tram Zone = L1 (no Inspector cards there; Feet On Seat may)",
        ),
        deviations=(
            "Reading 17: the player who last added Evaders to the inspected carriage takes them (not 'the previous "
            "player'); only another player's carriage may be inspected",
            "Engine limits: max_turns_per_journey and max_journeys end play the rulebook would let run on",
        ),
        sample_setups=((2, {}), (3, {}), (4, {})),
        upcasters=(("touched-on.game-set-up", _zone_l1),),
    ),
    Edition(
        rules_version="2",
        released="2026-11-23, 98513a3 (issue 17, item 1)",
        changes=(
            "Reading 23: no line is the Free Tram Zone by default ('Authorised — who can inspect Evaders on their "
            "given line' holds for every line, and the rulebook names no Free Tram Zone), so L1's Authorised "
            "Inspector is playable. The new option free_tram_zone makes one line in play the Free Tram Zone (no "
            "Inspector cards there, Feet On Seat may) and removes that line's Authorised Inspector from the deck. "
            "Edition 1 made L1 the Free Tram Zone and kept AU-L1 in the deck, unplayable.",
        ),
        rules=Rules(fixed_free_tram_zone="", zone_loses_authorised=True),
    ),
)

CURRENT: Rules = EDITIONS[-1].rules  # type: ignore[assignment]  # the state's default: the current edition's switches
