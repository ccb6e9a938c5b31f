"""A plain-text picture of the table, for golden files and replays."""

from __future__ import annotations

from domain.games.touched_on.rules_table import line_count
from domain.games.touched_on.state import State


def render(state: State) -> str:
    """Journey, lines with their carriages, piles, and each seat's hand and Exp."""
    current = state.current_line or "-"
    out = [f"journey {state.journey}, dealer {state.dealer}, turn {state.turn_seat}, current line {current}"]
    for i, line in enumerate(state.lines):
        exp = "Exp hidden" if state.exp_under[i] else "no Exp"
        exp += ", Free Tram Zone" if line == state.free_tram_zone else ""
        trains = " | ".join(f"s{c.owner}:{' '.join(c.cards)}" for c in state.carriages if c.line == line)
        out.append(f"  {line} [{line_count(state, line)}, {exp}] {trains}".rstrip())
    last = f"{state.carriages[-1].line} (s{state.carriages[-1].owner})" if state.carriages else "-"
    out.append(f"  most recent carriage {last}; draw {len(state.draw_pile)}, discard {len(state.discard)}, "
               f"Exp pile {len(state.exp_pile)}")
    if state.peak_hours:
        out.append(f"  peak hour: {', '.join(f's{o}' for o, _ in state.peak_hours)}")
    if state.window is not None:
        out.append(f"  window {state.window.kind}: awaiting {list(state.window.seats)}")
    for seat, hand in enumerate(state.hands):
        place = f" place {state.places.index(seat) + 1}" if seat in state.places else ""
        exp = " ".join(state.collected[seat]) or "-"
        out.append(f"  seat {seat}{place}: {' '.join(hand) or '(empty)'} | Exp {exp}")
    return "\n".join(out) + "\n"
