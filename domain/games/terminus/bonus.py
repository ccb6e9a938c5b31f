"""Annual Income, step 1: the Bonus Track (Rules, Budget: Bonuses).

"Simultaneously, players move their Bonus Marker to the area of the Bonus Track … Then, in turn order, players
collect the appropriate resources." "Note: If a player is unable to collect their Bonus in full, that player may
instead select an alternate reward from the Bonus Track." So a Bonus that can be collected in full is collected by
itself; otherwise the seat chooses (`take-bonus`): its own Bonus, collected as far as the supply allows, or any
other area of the track that can be collected in full — the `alternate_only` areas (DEFAULT data) among them.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision
from domain.games.terminus import common as c
from domain.games.terminus.cards import DATA, RESOURCES, BonusOption
from domain.games.terminus.commands import ChooseBonus, TakeBonus
from domain.games.terminus.events import BonusChosen, BonusCollected
from domain.games.terminus.state import State

TRACK = DATA.bonus_options
CHOOSABLE = tuple(i for i, area in enumerate(TRACK) if not area.alternate_only)


def wanted(area: BonusOption) -> tuple[int, int, int, int]:
    """The resources an area gives, in RESOURCES order."""
    take = [getattr(area, r) for r in RESOURCES]
    return (take[0], take[1], take[2], take[3])


def in_full(state: State, seat: int, area: int) -> bool:
    """The area's resources are all in their markets (reading 31) and its Rails in the seat's reserve."""
    bonus = TRACK[area]
    markets = all(sum(state.markets[r]) >= n for r, n in enumerate(wanted(bonus)))
    return markets and state.players[seat].rails_reserve >= bonus.rails


def collected(state: State, seat: int, area: int) -> BonusCollected:
    """The seat collects `area`: in full if it can, else as much as the supply allows."""
    bonus, chosen = TRACK[area], state.players[seat].bonus
    have = [sum(counts) for counts in state.markets]
    take = tuple(min(n, have[r]) for r, n in enumerate(wanted(bonus)))
    rails = min(bonus.rails, state.players[seat].rails_reserve)
    partial = take != wanted(bonus) or rails != bonus.rails
    return BonusCollected(
        seat=seat, option=chosen, take=(take[0], take[1], take[2], take[3]), rails=rails, coins=bonus.coins,
        alternate=area != chosen, reward=area if area != chosen else -1, partial=partial,
    )


def automatic(state: State, seat: int) -> BonusCollected | None:
    """The chosen Bonus when it can be collected in full (nothing to choose), else None."""
    chosen = state.players[seat].bonus
    return collected(state, seat, chosen) if in_full(state, seat, chosen) else None


def choices(state: State, seat: int) -> list[int]:
    """The areas the seat may collect now: its own Bonus (perhaps in part), or another one in full."""
    chosen = state.players[seat].bonus
    if not state.income or state.income[0] != ("bonus", seat) or in_full(state, seat, chosen):
        return []
    return [chosen, *(i for i in range(len(TRACK)) if i != chosen and in_full(state, seat, i))]


# --- Commands: choose a Bonus (all seats at once), take one when the chosen Bonus falls short ----------------------


def check_choose(state: State, seat: int, cmd: ChooseBonus) -> c.Error:
    if cmd.option not in CHOOSABLE:
        return "no-such-bonus", f"choose a Bonus Track option among {', '.join(map(str, CHOOSABLE))}"
    return None


def choose_candidates(state: State, seat: int) -> Iterator[ChooseBonus]:
    for option in CHOOSABLE:
        yield ChooseBonus(option=option)


def run_choose(b: Decision[State], seat: int, cmd: ChooseBonus) -> None:
    b.emit(BonusChosen(seat=seat, option=cmd.option))


def check_take(state: State, seat: int, cmd: TakeBonus) -> c.Error:
    if not state.income or state.income[0] != ("bonus", seat):
        return "wrong-step", "it is not your turn to collect a Bonus"
    if cmd.option not in choices(state, seat):
        return "bonus-unavailable", "collect your own Bonus, or another area of the Bonus Track you can collect in full"
    return None


def take_candidates(state: State, seat: int) -> Iterator[TakeBonus]:
    for option in choices(state, seat):
        yield TakeBonus(option=option)


def run_take(b: Decision[State], seat: int, cmd: TakeBonus) -> None:
    b.emit(collected(b.state, seat, cmd.option))
