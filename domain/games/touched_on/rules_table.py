"""What the table says now: the queries the rules ask (rules, Taking A Turn; readings 3, 14, 18, 21), and every card a
seat may play now (forced play needs them in judgement as well as in `legal`)."""

from __future__ import annotations

from domain.engine import Command
from domain.games.touched_on.commands import FeetOnSeat, Inspect, PeakHour, PlayEvaders, TramTracker
from domain.games.touched_on.components import GROUP, authorised_id, grouped
from domain.games.touched_on.state import Carriage, State


def exp_left(state: State) -> int:
    """Exp cards not yet collected (pile and under the Line cards)."""
    return len(state.exp_pile) + sum(1 for card in state.exp_under if card)


def is_over(state: State) -> bool:
    """Rules, Win Exp: the game ends when no Exp is left (or the engine's journey limit was reached)."""
    return state.final or (state.journey > 0 and not state.exp_pile and not any(state.exp_under))


def first_of(state: State, seat: int, group: str) -> str | None:
    """The first card of `group` (a Power kind, `undercover`, an `AU-Lx` id or a line id) in `seat`'s hand."""
    cards = grouped(state.hands[seat]).get(group)
    return cards[0] if cards else None


def power_card(state: State, seat: int, kind: str) -> str | None:
    """The first Power card of `kind` in `seat`'s hand."""
    return first_of(state, seat, kind)


def undercover_card(state: State, seat: int) -> str | None:
    """The first Undercover Inspector in `seat`'s hand."""
    return first_of(state, seat, "undercover")


def evaders_of(state: State, seat: int, line: str) -> tuple[str, ...]:
    """`seat`'s Evaders of `line`."""
    return grouped(state.hands[seat]).get(line, ())


def line_count(state: State, line: str) -> int:
    """Counting cards (Evaders and Priority Seats) on `line` (rules, Unlock Exp; reading 20)."""
    return sum(len(c.cards) for c in state.carriages if c.line == line)


def held_by_others(state: State, seat: int) -> bool:
    """Peak Hour: in play in front of another player (it 'effects all ... but not who played it')."""
    return any(owner != seat for owner, _ in state.peak_hours)


def allowed_lines(state: State, seat: int) -> tuple[str, ...]:
    """Lines `seat` may play Evaders on now (rules, Evaders; readings 3 and 14)."""
    if not state.current_line:
        return () if held_by_others(state, seat) else state.lines
    if held_by_others(state, seat):
        return (state.current_line,)
    i = state.lines.index(state.current_line)
    return state.lines[max(0, i - 1) : i + 2]


def inspection_target(state: State, seat: int) -> Carriage | None:
    """The most recent carriage, if `seat` may inspect it (rules, Inspectors; readings 7, 17).

    Its Evaders must have been added last by another player who is still in the journey.
    """
    if not state.carriages:
        return None
    carriage = state.carriages[-1]
    if carriage.owner == seat or carriage.owner in state.places:
        return None
    return carriage


def tram_tracker_targets(state: State, seat: int) -> tuple[int, ...]:
    """Opponents holding cards (reading 21)."""
    return tuple(s for s in range(state.seats) if s != seat and state.hands[s])


def evader_commands(state: State, seat: int) -> list[Command]:
    """Each way to play Evaders now: a line, how many of its Evaders, with or without a Priority Seat."""
    if state.played_evaders:
        return []
    seat_card = not state.played_power and power_card(state, seat, "priority-seat") is not None
    out: list[Command] = []
    for line in allowed_lines(state, seat):
        held = len(evaders_of(state, seat, line))
        out += [PlayEvaders(line=line, count=n) for n in range(1, held + 1)]
        if seat_card:
            out += [PlayEvaders(line=line, count=n, priority_seat=True) for n in range(held + 1)]
    return out


def inspector_commands(state: State, seat: int) -> list[Command]:
    """Inspectors that may be played now, and Feet On Seat."""
    target = inspection_target(state, seat)
    if target is None:
        return []
    out: list[Command] = []
    if not state.played_inspector and not state.played_evaders and target.line != state.free_tram_zone:
        if authorised_id(target.line) in state.hands[seat]:
            out.append(Inspect(inspector="authorised"))
        if undercover_card(state, seat) is not None:
            out.append(Inspect(inspector="undercover"))
    if not state.played_power and power_card(state, seat, "feet-on-seat") is not None:
        out.append(FeetOnSeat())
    return out


def power_commands(state: State, seat: int) -> list[Command]:
    """Peak Hour and Tram Tracker, if a Power may still be played this turn."""
    if state.played_power:
        return []
    out: list[Command] = []
    if power_card(state, seat, "peak-hour") is not None:
        out.append(PeakHour())
    if power_card(state, seat, "tram-tracker") is not None:
        out += [TramTracker(target=t) for t in tram_tracker_targets(state, seat)]
    return out


def play_commands(state: State, seat: int) -> list[Command]:
    """Every card `seat` may play now in its turn; empty means no playable card (reading 21)."""
    return inspector_commands(state, seat) + power_commands(state, seat) + evader_commands(state, seat)


def deadlocked(state: State) -> bool:
    """No Evader can ever be played again and no inspection can ever be made (an extension of reading 18).

    The cards still in play (hands, draw and discard piles: the complement of the public table, so public
    knowledge) hold no Priority Seat, no Evader of the current or an adjacent line, and nothing that could
    inspect the most recent carriage. Power cards alone would then cycle through the discards forever.
    """
    groups = {GROUP[card] for hand in (*state.hands, state.draw_pile, state.discard) for card in hand}
    if "priority-seat" in groups:
        return False
    reachable = state.lines
    if state.current_line:
        i = state.lines.index(state.current_line)
        reachable = state.lines[max(0, i - 1) : i + 2]
    if any(line in groups for line in reachable):
        return False
    if not state.carriages or state.carriages[-1].owner in state.places:
        return True
    line = state.carriages[-1].line
    if "feet-on-seat" in groups:
        return False
    return line == state.free_tram_zone or ("undercover" not in groups and authorised_id(line) not in groups)


def can_draw(state: State) -> bool:
    """A card can be drawn (the discard pile is reshuffled if the draw pile is empty)."""
    return bool(state.draw_pile or state.discard)


def claimable_line(state: State, seat: int) -> str:
    """The line whose Exp `seat` may claim now, or ""."""
    window = state.window
    if window is not None:
        line = window.line if window.kind == "claim" and window.seats[:1] == (seat,) else ""
    else:
        line = state.unlock_line if seat == state.turn_seat else ""
    return line if line and state.exp_under[state.lines.index(line)] else ""
