"""Expect Delays (Patrick Brennan, Offcut Games): two Transit Operators run delayed subway lines.

The reference game of the engine. Readings, deviations and DEFAULT data: README.md beside this file.
"""

from domain.games.expect_delays.game import GAME

__all__ = ["GAME"]
