"""The released editions of the Terminus rules, oldest first; the last is current. Never edit one: a rule change
adds an edition (domain/editions.py says how, and tests/conformance/test_editions.py keeps each one fixed)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.editions import Edition


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """The switches the Terminus rules read (from `State.rules`, and in `start`).

    `capacity_start`: where every Capacity Marker starts (recorded in `terminus.set-up`).
    `bonus_choice`: a Bonus that cannot be collected in full lets the seat choose (`take-bonus`) its Bonus in part or
    another area in full; without it the seat gets the alternate-only area's coins at once.
    `prime_hub_in_agendas`: the Prime Hub counts as a Hub for Agendas (it always did for adjacency and Projects)."""

    capacity_start: int
    bonus_choice: bool
    prime_hub_in_agendas: bool


class OptionsV1(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Edition 1's options: `automa` off unless asked for (2 seats only)."""

    automa: bool = False
    first_game: bool = False
    board: Annotated[str, msgspec.Meta(extra_json_schema={"enum": ["default"]})] = "default"


EDITIONS: tuple[Edition, ...] = (
    Edition(
        rules_version="1",
        released="2026-11-23, 7942bdf (Terminus refereed)",
        changes=("The first edition: the rulebook with readings 1-31 (../shared/rules/terminus.md)",),
        rules=Rules(capacity_start=0, bonus_choice=False, prime_hub_in_agendas=False),
        options_type=OptionsV1,
        default_data=(
            "boards/default.toml: the city map (plots, districts 4-7, blocks and zoning, rail spaces), Agendas, "
            "Automa cards",
            "data.toml: Development tile actions, Advanced Upgrades A1-A6, Projects, market layouts, Construction "
            "depots, Capacity/Station/Bonus/Demand tracks, Turn Order reward columns",
        ),
        deviations=(
            "Purchase Rails buys a number of Rails at the cheapest bundle combination giving exactly that number",
            "Build places one link per command and ends with an explicit finish-build",
            "A1 exchange happens before moving (so a move never strands a player without an action)",
        ),
        sample_setups=((2, {"automa": True}), (2, {}), (3, {}), (4, {"first_game": True}), (5, {})),
    ),
    Edition(
        rules_version="2",
        released="2026-11-23, 528f822 and 57a5325 (issue 17, items 2-4)",
        changes=(
            "2-Player Game: 'Locate and shuffle the Automa cards… Select an unused player color to act as the "
            "Automa'. The option automa now defaults to unset, meaning on with 2 seats (reading 33); automa=false "
            "plays 2 seats without it (a deviation). Edition 1 played 2 seats without the Automa unless asked.",
            "Capacity (reading 13): 'at the start of the game two [ways to Build] are available: A. Building a "
            "Station, and B. Making a connection', so the Capacity Marker starts at 2 (INFERRED from the Build "
            "example, '2 Stations available ... as two Stations are to the left of their Capacity Marker', and the "
            "Capacity example). Edition 1 started it at 0.",
            "Bonuses (reading 31): 'If a player is unable to collect their Bonus in full, that player may instead "
            "select an alternate reward from the Bonus Track.' The seat chooses (take-bonus) its Bonus in part or "
            "another area in full, the DEFAULT 4 coins among them. Edition 1 gave a fixed 4 coins.",
            "Agendas (reading 32): 'a Hub is limited to either 2 stacked Station discs, or the standalone Prime "
            "Hub', so the Prime Hub counts as a Hub for Agendas too. Edition 1 counted stacked Hubs only there.",
        ),
        rules=Rules(capacity_start=2, bonus_choice=True, prime_hub_in_agendas=True),
    ),
)

CURRENT: Rules = EDITIONS[-1].rules  # type: ignore[assignment]  # the state's default: the current edition's switches
