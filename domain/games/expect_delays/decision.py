"""A decision in progress: the events accepted so far and the table they lead to.

`decide` reads like the rulebook by emitting one fact at a time and looking at the table as it now
stands (for example, Upkeep sees the hand left after the last action). A refusal raised part-way
discards everything: nothing is written.
"""

from __future__ import annotations

from domain.engine import Event
from domain.games.expect_delays.state import State, evolve


class Decision:
    """Events emitted so far, and `state`, the table after them."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        """Record facts, in order, and fold them into `state`."""
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
