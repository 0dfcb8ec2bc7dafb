"""Games implementing the :mod:`pokerlab.games.protocol` protocol."""

from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State

__all__ = ["CHANCE", "TERMINAL", "Game", "State"]
