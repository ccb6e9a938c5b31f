"""Mass Transit (Calliope Games, 2021): a cooperative card game of transit routes and Commuters. See README.md."""

from domain.games.mass_transit.game import GAME

__all__ = ["GAME"]
