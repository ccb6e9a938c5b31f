"""Terminus (Aspiras & Volpe, Inside Up Games 2024): subway lines around a 6-Zone Action Loop over 3 Years."""

from domain.games.terminus.game import GAME

__all__ = ["GAME"]
