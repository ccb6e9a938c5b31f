"""The opening choices (Rules, Turn Order & Prime Hub Placement 1-7): each seat keeps one dealt Agenda secret,
then, in reverse turn order, places its Prime Hub. (A seat that kept its Agenda is no longer to move.)"""

from __future__ import annotations

from collections.abc import Iterator

from domain.engine import Decision, Refusal
from domain.games.terminus.commands import KeepAgenda, PlaceHub
from domain.games.terminus.events import PrimeHubPlaced, SecretAgendaKept
from domain.games.terminus.rules_table import board_of
from domain.games.terminus.state import State


def check_secret(state: State, seat: int, command: KeepAgenda) -> None:
    """Rules, Turn Order & Prime Hub Placement 2: keep one of the 2 dealt Agendas face down."""
    if command.agenda not in state.players[seat].hand:
        raise Refusal("not-in-hand", f"{command.agenda} is not one of your 2 dealt Agendas")


def keep_candidates(state: State, seat: int) -> Iterator[KeepAgenda]:
    """Each Agenda in the seat's hand: the 2 dealt (Rules, Turn Order & Prime Hub Placement 2), or those just drawn
    (Lobby Zone)."""
    for agenda in state.players[seat].hand:
        yield KeepAgenda(agenda=agenda)


def run_secret(decision: Decision[State], seat: int, command: KeepAgenda) -> None:
    """Rules, Turn Order & Prime Hub Placement 2: the Agenda is kept, face down."""
    decision.emit(SecretAgendaKept(seat=seat, agenda=command.agenda))


def check_place_hub(state: State, seat: int, command: PlaceHub) -> None:
    """Rules, Turn Order & Prime Hub Placement 7: the Prime Hub goes on an empty plot of the City."""
    plot = board_of(state).plot_index.get(command.plot)
    if plot is None:
        raise Refusal("unknown-plot", f"there is no plot {command.plot!r}")
    if state.stop_owner[plot] is not None:
        raise Refusal("plot-taken", f"{command.plot} already holds a Stop")


def place_hub_candidates(state: State, seat: int) -> Iterator[PlaceHub]:
    """Rules, Turn Order & Prime Hub Placement 7: every empty plot."""
    city = board_of(state)
    for plot, owner in enumerate(state.stop_owner):
        if owner is None:
            yield PlaceHub(plot=city.plots[plot].id)


def run_place_hub(decision: Decision[State], seat: int, command: PlaceHub) -> None:
    """Rules, Turn Order & Prime Hub Placement 7: the Prime Hub is placed."""
    decision.emit(PrimeHubPlaced(seat=seat, plot=command.plot))
