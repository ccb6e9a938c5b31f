"""A working copy of the table that `decide` appends events to, folding each one as it goes."""

from __future__ import annotations

from domain.engine import Event
from domain.games.terminus.evolve import evolve
from domain.games.terminus.state import State


class Builder:
    """Events emitted so far and the state they lead to (so later judgements see earlier effects)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        """Record events and fold them into the working state."""
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
