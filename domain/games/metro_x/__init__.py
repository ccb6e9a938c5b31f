"""Metro X (Gamewright, 2020): a simultaneous flip-and-write on the Metro City or Tube Town subway map.

Every seat acts on the same flipped Transit card; submissions stay sealed until the last seat submits.
Readings, DEFAULT data and decisions: see README.md beside this file.
"""

from domain.games.metro_x.game import GAME

__all__ = ["GAME"]
