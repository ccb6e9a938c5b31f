"""Touched On (Dyl & Oscar, Melbourne): a 2-4 player shedding game of fare evaders and inspectors.

See README.md in this package for the readings, the response windows and the DEFAULT data.
"""

from domain.games.touched_on.game import GAME

__all__ = ["GAME"]
